"""Settings from the environment, overridden by command-line flags, checked before anything is opened: a
malformed value stops the process with a message naming where it came from, the flag or the variable.
Every value is trimmed of the spaces, tabs and line ends around it first (docs/configuration.md).
"""

from __future__ import annotations

import errno
import logging
import os
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from memvault.storage import validate
from memvault.storage.errors import InvalidInput, shown
from memvault.storage.location import (POSTGRES_INSTALL, is_url, looks_like_conninfo, looks_like_url,
                                       postgres_extra_missing, redacted)
from memvault.storage.limits import BUSY_TIMEOUT_MS, DEFAULT_SCOPE, DEFAULT_TENANT

DEFAULT_BOOT_TOKENS = 2_000
FILL_INTERVAL_S = 30.0
CONSOLIDATE_HOURS = 24  # a server consolidates when the last whole run is this old (0: not by time)
CONSOLIDATE_AFTER_WRITES = 500  # ... and after this many writes of its own (0: not by writes)
AUTH_MODES = ("keys", "oauth", "none")
DEFAULT_PORT = 8765
DEFAULT_RATE_LIMIT = 600  # requests per minute per key
SETTINGS = tuple(f"MEMVAULT_{name}" for name in (
    "DB", "TENANT", "SCOPE", "MODEL_DIR", "BOOT_TOKENS", "ALLOW_SECRETS", "HOST", "PORT", "AUTH",
    "OAUTH_ISSUER", "OAUTH_RESOURCE", "OAUTH_JWKS_URL", "OAUTH_TENANT_CLAIM", "OAUTH_JWKS_MAX_AGE",
    "OAUTH_MAX_TOKEN_LIFETIME", "RATE_LIMIT", "ALLOWED_HOSTS", "ALLOWED_ORIGINS", "TRUSTED_PROXIES",
    "CONSOLIDATE_HOURS", "CONSOLIDATE_AFTER_WRITES"))
# Settings with no flag: the database key's source, never on a command line (docs/encryption.md).
ENV_ONLY = ("MEMVAULT_KEY_FILE", "MEMVAULT_KEYRING")
# What os.path.expandvars leaves alone when the variable is not set ($NAME, ${NAME}, ${NAME:-x}).
_UNEXPANDED = re.compile(r"\$(\w+|\{[^}]*\})")
# Kernel and device file systems, not storage; compared as given and with links followed (/dev/fd/1).
SYSTEM_ROOTS = (Path("/proc"), Path("/sys"), Path("/dev"))
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file
log = logging.getLogger(__name__)
T = TypeVar("T")


def default_db_path() -> Path:
    """``memvault.db`` in the user's data directory (platformdirs), e.g. ~/.local/share/memvault/."""
    from platformdirs import user_data_path

    return user_data_path("memvault", appauthor=False) / "memvault.db"


def missing_folder(database: Path | str) -> Path | None:
    """The folder of a database file that is not there, when memvault would have to make it: memvault
    makes a database but never the folders of a path it is given (a typo in ``--db`` would start an
    empty memory that later calls read and fill), only the default path's, its own. None for a folder
    that is there, the default path and a PostgreSQL URL; else the first folder of the path, as the system
    reads it (unresolved: ``a/nope/../b`` needs ``a/nope``), that is missing. Every command that can make
    a database asks this before it opens one (``cli.main``, ``hooks.run``), so the storage's ``mkdir``
    only ever makes the default path's folder."""
    if isinstance(database, str):
        return None
    # The folder as the system reads it (``a/nope/../b`` needs ``a/nope``): what opening the file needs.
    folder = Path(database).absolute().parent
    # The folder first: the default path is looked up (platformdirs) only when it is missing.
    if folder.is_dir() or database == default_db_path():
        return None
    return next((f for f in reversed(folder.parents) if not f.is_dir()), folder)  # the first one missing


@dataclass(frozen=True)
class Config:
    """A memvault process's settings: ``db`` a file or a PostgreSQL URL (as given); ``tenant`` the
    isolation boundary of every call; ``model_dir`` another model.onnx + tokenizer.json (None: the
    packaged MiniLM); ``fill_interval_s`` how often a server fills pending vectors; a server consolidates
    (``storage.consolidate``) ``consolidate_hours`` after the last whole run and after
    ``consolidate_after_writes`` writes (0: not so)."""

    db: Path | str
    tenant: str = DEFAULT_TENANT
    scope: str = DEFAULT_SCOPE
    model_dir: Path | None = None
    boot_tokens: int = DEFAULT_BOOT_TOKENS
    allow_secrets: bool = False
    busy_timeout_ms: int = BUSY_TIMEOUT_MS
    fill_interval_s: float = FILL_INTERVAL_S
    consolidate_hours: int = CONSOLIDATE_HOURS
    consolidate_after_writes: int = CONSOLIDATE_AFTER_WRITES
    db_from: str = "--db"  # where ``db`` came from, for messages: "--db", or "MEMVAULT_DB" when that set it
    scope_from: str = "--scope"  # the same for ``scope``

    @property
    def db_label(self) -> str:
        """The database as logs and messages show it (a URL without its password)."""
        return redacted(self.db)

    def db_exists(self) -> bool:
        """Whether a memvault database is there: a file, or a PostgreSQL database holding memvault's
        schema (one that cannot be reached counts as there: opening it says why not)."""
        if not isinstance(self.db, str):  # an empty file holds none: SQLite makes one in it, said as made
            return self.db.is_file() and self.db.stat().st_size > 0
        from memvault.storage.errors import StoreError
        from memvault.storage.postgres import schema_exists

        try:
            return schema_exists(self.db)
        except StoreError:
            return True

    def db_where(self) -> str:
        """The database as a message names it: a file's absolute path, a URL without its password."""
        return self.db_label if isinstance(self.db, str) else str(Path(self.db).resolve())


def _flag(env: str) -> str:
    """The flag of a variable: MEMVAULT_OAUTH_ISSUER is --oauth-issuer."""
    return "--" + env.removeprefix("MEMVAULT_").lower().replace("_", "-")


def _setting(flag: object, env: str, trim: bool = True) -> tuple[str | None, str]:
    """The flag's value if given, else the variable's ("" counts as unset), trimmed unless not ``trim``
    (white space alone is kept, for its check to name), and the name a message gives its source."""
    if flag is not None:
        value, name = str(flag), _flag(env)
    else:
        value, name = os.environ.get(env) or None, env
    return (value if value is None or not trim else value.strip(" \t\r\n") or value), name


def _checked(check: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``check(*args, **kwargs)`` (a :mod:`validate` function), its InvalidInput raised as a ValueError."""
    try:
        return check(*args, **kwargs)
    except InvalidInput as exc:
        raise ValueError(str(exc)) from None


_WHOLE = re.compile(r"[+-]?[0-9]+")


def whole_number(text: str) -> int | str:
    """The integer ``text`` writes in ASCII digits (a sign allowed), as a tool's JSON number, else
    ``text``, which the field's own check refuses with its range ("٣", "１" and "1_000" too)."""
    return int(text) if _WHOLE.fullmatch(text) else text


def _whole(flag: object, env: str, default: int, low: int, high: int, unit: str = "") -> int:
    """The setting's whole number in ``low``..``high`` (``default`` when it is not set)."""
    value, name = _setting(flag, env)
    if value is None:
        return default
    return _checked(validate.integer, name, whole_number(value), low, high, unit)


def _name(flag: str | None, env: str, default: str, reading: bool = False) -> str:
    """A tenant or scope setting, checked as the tools' ``scope``, untrimmed: "acme " is refused as the
    tools refuse it, not read as "acme". ``reading``: a filter, which may name a scope stored before the
    name rules: one they refuse is left to :func:`read_scope` once the database is open."""
    value, name = _setting(flag, env, trim=False)
    if value is None:
        return default
    try:
        return validate.scope(value, DEFAULT_SCOPE, field=name)
    except InvalidInput as exc:
        if not reading:
            raise ValueError(str(exc)) from None
    return value


def read_scope(config: Config, held: Callable[[], Collection[str]]) -> None:
    """Check the scope setting of a command that only reads against ``held``, the tenant's scopes
    (:func:`validate.scope`).

    Raises:
        ValueError: as :func:`load` for a malformed setting, naming the flag or variable.
    """
    _checked(validate.scope, config.scope, DEFAULT_SCOPE, field=config.scope_from, held=held)


def expand_path(value: str, name: str) -> Path:
    """``value`` with ``$VAR``, ``${VAR}`` and ``~`` expanded (some clients pass them unexpanded), absolute.

    Raises:
        ValueError: a variable in the path is not set.
    """
    expanded = os.path.expanduser(os.path.expandvars(value))
    left = _UNEXPANDED.search(expanded)
    if left:
        raise ValueError(f"{name}: {left.group(0)} in {value!r} is not set in the environment")
    return Path(expanded).absolute()


def _database(flag: str | None, serving: bool) -> Path | str:
    """The database setting: a PostgreSQL URL as given, or a file path that can be opened. A relative
    path is refused from MEMVAULT_DB, and from ``--db`` when ``serving`` (the server and the hooks: each
    client starts them in a folder of its choosing); another command reads a relative ``--db`` from the
    current folder."""
    value, name = _setting(flag, "MEMVAULT_DB")
    if value is not None and not value.strip():
        raise ValueError(f"{name}: is {'only white space' if value else 'empty'}; give a file path or a "
                         "PostgreSQL URL, or leave it out for the default database")
    if value is None:
        path = default_db_path()
    elif looks_like_url(value) and not is_url(value):
        raise ValueError(f"{name}: {redacted(value)!r} is neither a PostgreSQL URL "
                         "(postgresql://user:password@host/database) nor a file path")
    elif looks_like_conninfo(value):
        raise ValueError(f"{name}: {redacted(value)!r} is a libpq key=value connection string; memvault "
                         "takes a PostgreSQL URL (postgresql://user:password@host/database, other parameters "
                         "in its query string: ?host=/var/run/postgresql&sslmode=require) or a file path")
    elif is_url(value):
        missing = postgres_extra_missing()
        if missing:
            raise ValueError(f"{name}: a PostgreSQL database needs memvault's postgres extra, and "
                             f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed: "
                             f"{POSTGRES_INSTALL}")
        return value
    else:
        relative = Path(os.path.expanduser(os.path.expandvars(value)))
        if (flag is None or serving) and not relative.is_absolute() and not _UNEXPANDED.search(str(relative)):
            absolute = os.path.normpath(relative.absolute())  # "../x" shown as the folder it names
            raise ValueError(f"{name}: {value!r} is a relative path, which each process would read from "
                             "the folder it was started in (MCP clients choose their own), opening a "
                             f"different file; give an absolute path, e.g. {absolute!r} for the file in this "
                             "folder, or one starting with ~/")
        path = expand_path(value, name)
    _check_db_path(path, name)
    return path


MIN_DATABASE_BYTES = 512  # SQLite's smallest page: a database file holds one page at least


class DamagedFile(ValueError):
    """``--db`` names an SQLite file that is damaged (``problem``: the check it failed, from
    ``health``): every command refuses it, ``memvault doctor`` reports it."""

    def __init__(self, message: str, problem: str) -> None:
        super().__init__(message)
        self.problem = problem


# The errors of looking a path up that no command can get past, in words (the rest are said where they matter).
_UNFOLLOWED = {
    errno.ELOOP: "a symbolic link on the path leads back to itself (too many levels of symbolic links); fix "
                 "the link, or give the database file's real path",
    errno.ENAMETOOLONG: "the path, or a name in it, is longer than the file system allows (most take 255 bytes "
                        "a name); give a shorter path",
}


def _check_db_path(path: Path, name: str) -> None:
    """Refuse a database path that can never be opened: under :data:`SYSTEM_ROOTS`, a folder, a file
    that is not SQLite, a new file below a file or an unwritable folder, or a path the system cannot
    follow (a symbolic link loop, a name too long): pathlib's checks read those as "no file"."""
    try:
        os.stat(path)
    except OSError as exc:
        why = _UNFOLLOWED.get(exc.errno or 0)
        if why is not None:
            raise ValueError(f"{name}: {str(path)!r} cannot be opened: {why}") from None
    try:
        real = path.resolve()
    except (OSError, RuntimeError):  # a symbolic link loop: the open fails and says so
        real = path
    system = next((root for root in SYSTEM_ROOTS for p in (path, real) if p.is_relative_to(root)), None)
    if system is not None:
        that = repr(str(path)) + (f" (that is {str(real)!r})" if real != path else "")
        raise ValueError(f"{name}: {that} is under {system}, a kernel or device file system, not storage; "
                         f"give a file path on a disk, such as {str(default_db_path())!r}")
    if path.is_dir():
        raise ValueError(f"{name}: {str(path)!r} is a folder; give a file path such as "
                         f"{str(path / 'memvault.db')!r}")
    if path.exists():
        from memvault.storage.sqlite.crypto import file_head

        header = file_head(path, len(SQLITE_HEADER)) or b""  # (unreadable: opening it says why)
        size = path.stat().st_size if header else 0
        if 0 < size < MIN_DATABASE_BYTES:  # (no key makes so short a file a database)
            problem = (f"the size check failed: the file is {size:,} bytes, shorter than any SQLite database "
                       f"({MIN_DATABASE_BYTES:,} bytes at least): a database cut short, or another program's file")
            raise DamagedFile(f"{name}: {str(path)!r} is not an SQLite database: {problem}. Nothing was written",
                              problem)
        if header == SQLITE_HEADER:
            from memvault.storage.sqlite import health

            cut = health.cut_in_a_page(path)
            if cut is not None:
                raise DamagedFile(f"{name}: {str(path)!r} is damaged: {cut}. Nothing was written; to recover, "
                                  f"see {health.RECOVERY}", cut)
        if header and header != SQLITE_HEADER and not _key_set():  # with a key, opening checks it
            from memvault.storage.sqlite import crypto, health

            damaged = health.overwritten(path)
            if damaged is not None:
                raise DamagedFile(f"{name}: {str(path)!r}: {damaged}. Nothing was written; to recover, "
                                  f"see {health.RECOVERY}", damaged)
            raise ValueError(f"{name}: {crypto.mismatch(path, 'no key')}")
        return
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise ValueError(f"{name}: {str(path)!r} cannot be created: {str(parent)!r} is a file")
    if not os.access(parent, os.W_OK | os.X_OK):
        read_only = os.statvfs(parent).f_flag & os.ST_RDONLY
        why = "is on a read-only file system" if read_only else "gives no write permission"
        raise ValueError(f"{name}: {str(path)!r} cannot be created: {str(parent)!r} {why}")


def _key_set() -> bool:
    """Whether a key setting is given (MEMVAULT_KEY_FILE, or MEMVAULT_KEYRING other than 0/false/no)."""
    ring = os.environ.get("MEMVAULT_KEYRING", "").strip().lower()
    return bool(os.environ.get("MEMVAULT_KEY_FILE", "").strip()) or ring not in ("", "0", "false", "no")


def _check_key(database: Path | str) -> None:
    """Refuse a key setting that cannot give a key (the message names the setting, never the key)."""
    if not _key_set():
        return
    if isinstance(database, str):
        raise ValueError("MEMVAULT_KEY_FILE / MEMVAULT_KEYRING: memvault encrypts SQLite files only; a "
                         "PostgreSQL database is protected by its server (docs/encryption.md): unset them")
    from memvault.storage.errors import StoreError
    from memvault.storage.sqlite import crypto

    try:
        crypto.configured(database)
        crypto.require_ciphers()
    except StoreError as exc:
        raise ValueError(str(exc)) from None


def load(
    db: str | None = None, tenant: str | None = None, scope: str | None = None, model_dir: str | None = None,
    boot_tokens: int | None = None, allow_secrets: bool | None = None, serving: bool = False,
    reading: bool = False, consolidate_hours: int | None = None, consolidate_after_writes: int | None = None,
) -> Config:
    """The configuration: each flag given wins over its MEMVAULT_ variable (``serving``: :func:`_database`).
    The scope is checked as a name a memory may be stored under, or, when ``reading`` (the command only
    reads memories), as a filter (:func:`read_scope` ends its check).

    Raises:
        ValueError: a value is malformed (the message names the flag or variable it came from).
    """
    for name in sorted(set(os.environ) - set(SETTINGS) - set(ENV_ONLY)):
        if name.startswith("MEMVAULT_"):
            log.warning("%s is not a memvault setting and is ignored (settings: %s)", name,
                        ", ".join(SETTINGS + ENV_ONLY))
    database = _database(db, serving)
    _check_key(database)
    folder, name = _setting(model_dir, "MEMVAULT_MODEL_DIR")
    model_path = None if folder is None else expand_path(folder, name)
    if model_path is not None and not model_path.is_dir():
        raise ValueError(f"{name}: {str(model_path)!r} is not a folder")
    if model_path is not None:  # a model the user asked for that cannot load: no silent keyword-only start
        from memvault.storage.embeddings import MODEL_FILES, model_dir_problem

        problem = model_dir_problem(model_path)
        if problem is not None:
            raise ValueError(f"{name}: {str(model_path)!r} {problem}; a model folder holds "
                             f"{' and '.join(MODEL_FILES)} (docs/configuration.md); unset it for the packaged model")
    tokens = _whole(boot_tokens, "MEMVAULT_BOOT_TOKENS", DEFAULT_BOOT_TOKENS, 200, 100_000, " tokens")
    secrets, name = _setting(allow_secrets or None, "MEMVAULT_ALLOW_SECRETS")
    if (secrets or "0").lower() not in {"1", "true", "yes", "0", "false", "no"}:
        raise ValueError(f"{name}: must be 1/true/yes or 0/false/no; got {shown(secrets)}")
    return Config(
        db=database, db_from="MEMVAULT_DB" if db is None and os.environ.get("MEMVAULT_DB") else "--db",
        tenant=_name(tenant, "MEMVAULT_TENANT", DEFAULT_TENANT),
        scope=_name(scope, "MEMVAULT_SCOPE", DEFAULT_SCOPE, reading=reading), model_dir=model_path,
        scope_from=_setting(scope, "MEMVAULT_SCOPE")[1],
        boot_tokens=tokens, allow_secrets=(secrets or "0").lower() in {"1", "true", "yes"},
        consolidate_hours=_whole(consolidate_hours, "MEMVAULT_CONSOLIDATE_HOURS", CONSOLIDATE_HOURS, 0, 8_760,
                                 " hours"),
        consolidate_after_writes=_whole(consolidate_after_writes, "MEMVAULT_CONSOLIDATE_AFTER_WRITES",
                                        CONSOLIDATE_AFTER_WRITES, 0, 1_000_000, " writes"),
    )


@dataclass(frozen=True)
class HttpConfig:
    """Settings of ``memvault serve --transport http``: ``auth`` "keys", "oauth" (JWTs of ``issuer``
    for audience ``resource``, tenant in ``tenant_claim``; the key set read again once
    ``jwks_max_age_s`` old; a token living longer than ``max_token_lifetime_s`` refused) or "none"
    (loopback only); ``rate_limit`` per token per minute in this process (0: none);
    ``allowed_hosts``/``allowed_origins`` accepted besides loopback (DNS-rebinding protection);
    ``trusted_proxies``: the addresses or networks whose ``X-Forwarded-For`` names the client."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    auth: str = "keys"
    issuer: str | None = None
    resource: str | None = None
    jwks_url: str | None = None
    tenant_claim: str = "tenant"
    jwks_max_age_s: int = 60  # docs/team-server-security.md: a withdrawn key is refused at most this late
    max_token_lifetime_s: int = 86_400  # a day: the longest default of common issuers (Auth0)
    rate_limit: int = DEFAULT_RATE_LIMIT
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()

    @property
    def loopback(self) -> bool:
        """Whether ``host`` is a loopback address (127.0.0.0/8, ::1, localhost)."""
        return _loopback(self.host)


def _loopback(host: str | None) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address((host or "").strip("[]")).is_loopback
    except ValueError:
        return False


def _url(flag: str | None, env: str, default: str | None = None) -> str:
    """An OAuth URL setting (or ``default``): http(s), without query or fragment, and https:// unless on
    loopback: the issuer named in tokens, the resource clients are sent to, and above all the keys (fetched
    in clear, they could be replaced on the way, and anyone could then sign tokens for any tenant).

    Raises:
        ValueError: naming the setting, missing or refused.
    """
    from urllib.parse import urlsplit

    value, name = _setting(flag, env)
    value = value or default
    if value is None:
        raise ValueError(f"--auth oauth needs {_flag(env)} / {env}")
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"{name}: must be an http(s) URL without query or fragment; got {shown(value)}")
    if parts.scheme != "https" and not _loopback(parts.hostname):
        raise ValueError(f"{name}: must be https:// (http:// only on loopback); got {parts.scheme}://{parts.hostname}")
    return value


def load_http(
    host: str | None = None, port: int | None = None, auth: str | None = None, issuer: str | None = None,
    resource: str | None = None, jwks_url: str | None = None, tenant_claim: str | None = None,
    rate_limit: int | None = None, allowed_hosts: list[str] | None = None,
    allowed_origins: list[str] | None = None, trusted_proxies: list[str] | None = None,
    jwks_max_age: int | None = None, max_token_lifetime: int | None = None,
) -> HttpConfig:
    """The HTTP settings: each flag wins over its variable; MEMVAULT_ALLOWED_HOSTS and _ORIGINS
    (comma-separated) add to the flags.

    Raises:
        ValueError: a malformed value, missing OAuth settings, or no authentication off loopback.
    """
    mode, name = _setting(auth, "MEMVAULT_AUTH")
    mode = (mode or "keys").lower()
    if mode not in AUTH_MODES:
        raise ValueError(f"{name}: {shown(mode)} is not one of {', '.join(AUTH_MODES)}")
    http = HttpConfig(
        host=_setting(host, "MEMVAULT_HOST")[0] or "127.0.0.1", auth=mode,
        port=_whole(port, "MEMVAULT_PORT", DEFAULT_PORT, 1, 65_535),
        rate_limit=_whole(rate_limit, "MEMVAULT_RATE_LIMIT", DEFAULT_RATE_LIMIT, 0, 1_000_000,
                          " requests a minute"),
        allowed_hosts=_listed(allowed_hosts, "MEMVAULT_ALLOWED_HOSTS"),
        allowed_origins=_listed(allowed_origins, "MEMVAULT_ALLOWED_ORIGINS"),
        trusted_proxies=_networks(trusted_proxies, "MEMVAULT_TRUSTED_PROXIES"),
    )
    if mode == "none" and not http.loopback:
        raise ValueError(f"refusing to serve {http.host} without authentication: --auth none is only allowed "
                         "on a loopback address; use --auth keys or --auth oauth (MEMVAULT_AUTH), or --host "
                         "127.0.0.1")
    _refuse_unused(mode, name, {"MEMVAULT_OAUTH_ISSUER": issuer, "MEMVAULT_OAUTH_RESOURCE": resource,
                                "MEMVAULT_OAUTH_JWKS_URL": jwks_url,
                                "MEMVAULT_OAUTH_TENANT_CLAIM": tenant_claim,
                                "MEMVAULT_OAUTH_JWKS_MAX_AGE": jwks_max_age,
                                "MEMVAULT_OAUTH_MAX_TOKEN_LIFETIME": max_token_lifetime,
                                "MEMVAULT_RATE_LIMIT": rate_limit})
    if mode != "oauth":
        return http
    issuer_url = _url(issuer, "MEMVAULT_OAUTH_ISSUER")  # first: the JWKS URL derived from it is then sound
    claim, name = _setting(tenant_claim, "MEMVAULT_OAUTH_TENANT_CLAIM")
    if claim is not None and not claim.strip():
        raise ValueError(f"{name}: must not be empty")
    return replace(
        http, issuer=issuer_url, resource=_url(resource, "MEMVAULT_OAUTH_RESOURCE"),
        tenant_claim=claim or "tenant",
        jwks_url=_url(jwks_url, "MEMVAULT_OAUTH_JWKS_URL", issuer_url.rstrip("/") + "/.well-known/jwks.json"),
        jwks_max_age_s=_whole(jwks_max_age, "MEMVAULT_OAUTH_JWKS_MAX_AGE", HttpConfig.jwks_max_age_s, 1,
                              3_600, " s"),
        max_token_lifetime_s=_whole(max_token_lifetime, "MEMVAULT_OAUTH_MAX_TOKEN_LIFETIME",
                                    HttpConfig.max_token_lifetime_s, 60, 31_536_000, " s"),
    )


def _refuse_unused(mode: str, source: str, settings: dict[str, object]) -> None:
    """Refuse a setting that ``mode`` (from ``source``, a flag or a variable) would ignore: the
    ``--oauth-*`` ones unless ``oauth``, ``--rate-limit`` under ``none`` (no verified caller to count).
    ``settings`` maps each variable to its flag's value (None: not given).

    Raises:
        ValueError: naming each setting given (the flag, or the variable) and the mode.
    """
    ignored = [env for env in settings if env.startswith("MEMVAULT_OAUTH_")] if mode != "oauth" else []
    ignored += ["MEMVAULT_RATE_LIMIT"] if mode == "none" else []
    given = [name for env in ignored for value, name in [_setting(settings[env], env)] if value is not None]
    if given:
        where = f"given by {source}" if source.startswith("--") or os.environ.get(source) else "the default"
        needs = "--auth oauth" if any("OAUTH" in name.upper() for name in given) else "--auth keys or oauth"
        one = len(given) == 1
        raise ValueError(f"{', '.join(given)}: {'has' if one else 'have'} no effect with --auth {mode} "
                         f"({where}), so {'it is' if one else 'they are'} refused rather than ignored: "
                         f"remove {'it' if one else 'them'}, or serve with {needs}")


def _listed(flag: list[str] | None, env: str) -> tuple[str, ...]:
    values = list(flag or []) + (os.environ.get(env) or "").split(",")
    return tuple(v.strip() for v in values if v.strip())


def _networks(flag: list[str] | None, env: str) -> tuple[str, ...]:
    """:func:`_listed`, each an IP address or network (``10.0.0.0/8``); a name or ``*`` refused (a
    client that could reach the server past the proxy would choose its own address)."""
    import ipaddress

    values = _listed(flag, env)
    for value in values:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ValueError(f"--trusted-proxy / {env}: {shown(value)} is not an IP address or network (e.g. "
                             "127.0.0.1): give the proxy's own address, never a network its clients are in") from None
    return values
