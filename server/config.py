"""Configuration from the environment, overridden by command-line flags, checked before anything is opened:
a malformed value stops the process with a message naming the flag and variable (not every later tool call).
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from memvault.storage import validate
from memvault.storage.errors import InvalidInput, shown
from memvault.storage.location import (POSTGRES_INSTALL, is_url, looks_like_conninfo, looks_like_url,
                                       postgres_extra_missing, redacted)
from memvault.storage.limits import BUSY_TIMEOUT_MS, DEFAULT_SCOPE, DEFAULT_TENANT

DEFAULT_BOOT_TOKENS = 2_000
FILL_INTERVAL_S = 30.0
# What os.path.expandvars leaves alone when the variable is not set ($NAME, ${NAME}, ${NAME:-x}).
_UNEXPANDED = re.compile(r"\$(\w+|\{[^}]*\})")
SETTINGS = ("MEMVAULT_DB", "MEMVAULT_TENANT", "MEMVAULT_SCOPE", "MEMVAULT_MODEL_DIR", "MEMVAULT_BOOT_TOKENS",
            "MEMVAULT_ALLOW_SECRETS", "MEMVAULT_HOST", "MEMVAULT_PORT", "MEMVAULT_AUTH", "MEMVAULT_OAUTH_ISSUER",
            "MEMVAULT_OAUTH_RESOURCE", "MEMVAULT_OAUTH_JWKS_URL", "MEMVAULT_OAUTH_TENANT_CLAIM",
            "MEMVAULT_OAUTH_JWKS_MAX_AGE", "MEMVAULT_OAUTH_MAX_TOKEN_LIFETIME", "MEMVAULT_RATE_LIMIT", "MEMVAULT_ALLOWED_HOSTS", "MEMVAULT_ALLOWED_ORIGINS")
AUTH_MODES = ("keys", "oauth", "none")
DEFAULT_PORT = 8765
DEFAULT_RATE_LIMIT = 600  # requests per minute per key
log = logging.getLogger(__name__)


def default_db_path() -> Path:
    """``memvault.db`` in the user's data directory (platformdirs), e.g. ~/.local/share/memvault/."""
    from platformdirs import user_data_path

    return user_data_path("memvault", appauthor=False) / "memvault.db"


@dataclass(frozen=True)
class Config:
    """A memvault process's settings: ``db`` a file or a PostgreSQL URL (as given); ``tenant`` the
    isolation boundary of every call; ``model_dir`` another model.onnx + tokenizer.json (None: the
    packaged MiniLM); ``fill_interval_s`` how often a server fills pending vectors."""

    db: Path | str
    tenant: str = DEFAULT_TENANT
    scope: str = DEFAULT_SCOPE
    model_dir: Path | None = None
    boot_tokens: int = DEFAULT_BOOT_TOKENS
    allow_secrets: bool = False
    busy_timeout_ms: int = BUSY_TIMEOUT_MS
    fill_interval_s: float = FILL_INTERVAL_S

    @property
    def db_label(self) -> str:
        """The database as logs and messages show it (a URL without its password)."""
        return redacted(self.db)

    def db_exists(self) -> bool:
        """Whether a memvault database is there: a file, or a PostgreSQL database holding memvault's
        schema (one that cannot be reached counts as there: opening it says why not)."""
        if not isinstance(self.db, str):
            return self.db.is_file()
        from memvault.storage.errors import StoreError
        from memvault.storage.postgres import schema_exists

        try:
            return schema_exists(self.db)
        except StoreError:
            return True

    def db_where(self) -> str:
        """The database as a message names it: a file's absolute path, a URL without its password."""
        return self.db_label if isinstance(self.db, str) else str(Path(self.db).resolve())


def _flag_or_env(flag: object, env: str) -> str | None:
    """The flag's value if given, else the variable's ("" counts as unset)."""
    if flag is not None:
        return str(flag)
    value = os.environ.get(env)
    return value if value else None


def expand_path(value: str, name: str) -> Path:
    """``value`` with ``$VAR``, ``${VAR}`` and ``~`` expanded (some clients pass them unexpanded), absolute.

    Raises:
        ValueError: a variable in the path is not set.
    """
    expanded = os.path.expanduser(os.path.expandvars(value.strip()))
    left = _UNEXPANDED.search(expanded)
    if left:
        raise ValueError(f"{name}: {left.group(0)} in {value!r} is not set in the environment")
    return Path(expanded).absolute()


# Kernel and device file systems, not storage; compared as given and with links followed (/dev/fd/1).
SYSTEM_ROOTS = (Path("/proc"), Path("/sys"), Path("/dev"))
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


def _check_db_path(path: Path) -> None:
    """Refuse a database path that can never be opened: under :data:`SYSTEM_ROOTS`, a folder, a file
    that is not SQLite, or a new file below a file or an unwritable folder."""
    name = "--db / MEMVAULT_DB"
    try:
        real = path.resolve()
    except (OSError, RuntimeError):  # a symbolic link loop: the open fails and says so
        real = path
    system = next((root for root in SYSTEM_ROOTS for p in (path, real) if p.is_relative_to(root)), None)
    if system is not None:
        shown = repr(str(path)) + (f" (that is {str(real)!r})" if real != path else "")
        raise ValueError(f"{name}: {shown} is under {system}, a kernel or device file system, not storage; "
                         f"give a file path on a disk, such as {str(default_db_path())!r}")
    if path.is_dir():
        raise ValueError(f"{name}: {str(path)!r} is a folder; give a file path such as {str(path / 'memvault.db')!r}")
    if path.exists():
        try:
            with path.open("rb") as fh:
                header = fh.read(len(SQLITE_HEADER))
        except OSError:  # opening it says why
            header = b""
        if header and header != SQLITE_HEADER:
            raise ValueError(f"{name}: {str(path)!r} is not an SQLite database (it does not start with "
                             f"{SQLITE_HEADER[:15].decode()!r}); give memvault's database file or a new path")
        return
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise ValueError(f"{name}: {str(path)!r} cannot be created: {str(parent)!r} is a file")
    if not os.access(parent, os.W_OK | os.X_OK):
        why = ("is on a read-only file system" if os.statvfs(parent).f_flag & os.ST_RDONLY
               else "gives no write permission")
        raise ValueError(f"{name}: {str(path)!r} cannot be created: {str(parent)!r} {why}")


def _absolute(name: str, value: str) -> None:
    """Refuse a relative database path (after ``~`` and variables are expanded)."""
    path = Path(os.path.expanduser(os.path.expandvars(value.strip())))
    if not path.is_absolute() and not _UNEXPANDED.search(str(path)):  # (an unset variable: expand_path says so)
        raise ValueError(
            f"{name}: {value!r} is a relative path, which each process would read from the folder it was started "
            f"in (MCP clients choose their own), opening a different file; give an absolute path, e.g. "
            f"{str(path.absolute())!r} for the file in this folder, or one starting with ~/"
        )


def _name_setting(flag: str | None, env: str, default: str, reading: bool = False) -> str:
    """A tenant or scope setting, checked as the tools' ``scope`` (``reading``: as a filter)."""
    value = _flag_or_env(flag, env)
    if value is None:
        return default
    try:
        return validate.scope(value, DEFAULT_SCOPE, field=_named(env), reading=reading)
    except InvalidInput as exc:
        raise ValueError(str(exc)) from None


def load(
    db: str | None = None, tenant: str | None = None, scope: str | None = None, model_dir: str | None = None,
    boot_tokens: int | None = None, allow_secrets: bool | None = None, serving: bool = False,
) -> Config:
    """The configuration: each flag given wins over its MEMVAULT_ variable. A relative database path
    is refused in MEMVAULT_DB, and in ``--db`` when ``serving`` (each client starts the server in a
    folder of its choosing); another command reads a relative ``--db`` from the current folder.

    Raises:
        ValueError: a value is malformed (the message names the flag and variable).
    """
    for name in sorted(set(os.environ) - set(SETTINGS)):
        if name.startswith("MEMVAULT_"):
            log.warning("%s is not a memvault setting and is ignored (settings: %s)", name, ", ".join(SETTINGS))
    db_value = _flag_or_env(db, "MEMVAULT_DB")
    db_path: Path | str
    if db_value is not None and looks_like_url(db_value) and not is_url(db_value):
        raise ValueError(
            f"--db / MEMVAULT_DB: {redacted(db_value.strip())!r} is neither a PostgreSQL URL "
            "(postgresql://user:password@host/database) nor a file path"
        )
    if db_value is not None and looks_like_conninfo(db_value):
        raise ValueError(
            f"--db / MEMVAULT_DB: {redacted(db_value.strip())!r} is a libpq key=value connection string; memvault "
            "takes a PostgreSQL URL (postgresql://user:password@host/database, other parameters in its query "
            "string: ?host=/var/run/postgresql&sslmode=require) or a file path"
        )
    if db_value is not None and is_url(db_value):
        db_path = db_value.strip()
        missing = postgres_extra_missing()
        if missing:
            raise ValueError(
                f"--db / MEMVAULT_DB: a PostgreSQL database needs memvault's postgres extra, and "
                f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed: {POSTGRES_INSTALL}"
            )
    else:
        if db_value is not None and (db is None or serving):
            _absolute("--db" if db is not None else "MEMVAULT_DB", db_value)
        db_path = expand_path(db_value, "--db / MEMVAULT_DB") if db_value is not None else default_db_path()
        _check_db_path(db_path)
    model_value = _flag_or_env(model_dir, "MEMVAULT_MODEL_DIR")
    model_path = expand_path(model_value, "--model-dir / MEMVAULT_MODEL_DIR") if model_value is not None else None
    if model_path is not None and not model_path.is_dir():
        raise ValueError(f"--model-dir / MEMVAULT_MODEL_DIR: {str(model_path)!r} is not a folder")
    tokens = _whole(boot_tokens, "MEMVAULT_BOOT_TOKENS", DEFAULT_BOOT_TOKENS, 200, 100_000, " tokens")
    secrets_value = (_flag_or_env(allow_secrets or None, "MEMVAULT_ALLOW_SECRETS") or "0").strip().lower()
    if secrets_value not in {"1", "true", "yes", "0", "false", "no"}:
        raise ValueError(f"MEMVAULT_ALLOW_SECRETS: must be 1/true/yes or 0/false/no; got {shown(secrets_value)}")
    return Config(
        db=db_path, tenant=_name_setting(tenant, "MEMVAULT_TENANT", DEFAULT_TENANT),
        scope=_name_setting(scope, "MEMVAULT_SCOPE", DEFAULT_SCOPE, reading=True), model_dir=model_path,
        boot_tokens=tokens, allow_secrets=secrets_value in {"1", "true", "yes"},
    )


@dataclass(frozen=True)
class HttpConfig:
    """Settings of ``memvault serve --transport http``: ``auth`` "keys", "oauth" (JWTs of ``issuer``
    for audience ``resource``, tenant in ``tenant_claim``; the key set read again once
    ``jwks_max_age_s`` old; a token living longer than ``max_token_lifetime_s`` refused) or "none"
    (loopback only); ``rate_limit`` per token per minute in this process (0: none);
    ``allowed_hosts``/``allowed_origins`` accepted besides loopback (DNS-rebinding protection)."""

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

    @property
    def loopback(self) -> bool:
        """Whether ``host`` is a loopback address (127.0.0.0/8, ::1, localhost)."""
        import ipaddress

        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host.strip("[]")).is_loopback
        except ValueError:
            return False


def _named(env: str) -> str:
    """How a message names a setting: ``--oauth-issuer / MEMVAULT_OAUTH_ISSUER``."""
    return f"--{env.removeprefix('MEMVAULT_').lower().replace('_', '-')} / {env}"


def _whole(flag: object, env: str, default: int, low: int, high: int, unit: str = "") -> int:
    """The flag's or ``env``'s whole number in ``low``..``high`` (``default`` when neither is set)."""
    value, name = _flag_or_env(flag, env), _named(env)
    if value is None:
        return default
    try:
        return validate.integer(name, int(value), low, high, unit)
    except ValueError:  # not a whole number
        raise ValueError(str(validate.out_of_range(name, low, high, value, unit))) from None
    except InvalidInput as exc:
        raise ValueError(str(exc)) from None


def _list(flag: list[str] | None, env: str) -> tuple[str, ...]:
    values = list(flag or []) + (os.environ.get(env) or "").split(",")
    return tuple(v.strip() for v in values if v.strip())


def _url(flag: str | None, env: str, default: str | None = None) -> str:
    from urllib.parse import urlsplit

    value, name = _flag_or_env(flag, env) or default, _named(env)
    if value is None:
        raise ValueError(f"--auth oauth needs {name}")
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"{name}: must be an http(s) URL without query or fragment; got {shown(value)}")
    return value


def load_http(
    host: str | None = None, port: int | None = None, auth: str | None = None, issuer: str | None = None,
    resource: str | None = None, jwks_url: str | None = None, tenant_claim: str | None = None,
    rate_limit: int | None = None, allowed_hosts: list[str] | None = None, allowed_origins: list[str] | None = None,
    jwks_max_age: int | None = None, max_token_lifetime: int | None = None,
) -> HttpConfig:
    """The HTTP settings: each flag wins over its variable; MEMVAULT_ALLOWED_HOSTS and _ORIGINS
    (comma-separated) add to the flags.

    Raises:
        ValueError: a malformed value, missing OAuth settings, or no authentication off loopback.
    """
    mode = (_flag_or_env(auth, "MEMVAULT_AUTH") or "keys").strip().lower()
    if mode not in AUTH_MODES:
        raise ValueError(f"--auth / MEMVAULT_AUTH: {shown(mode)} is not one of {', '.join(AUTH_MODES)}")
    http = HttpConfig(
        host=(_flag_or_env(host, "MEMVAULT_HOST") or "127.0.0.1").strip(),
        port=_whole(port, "MEMVAULT_PORT", DEFAULT_PORT, 1, 65_535),
        auth=mode,
        rate_limit=_whole(rate_limit, "MEMVAULT_RATE_LIMIT", DEFAULT_RATE_LIMIT, 0, 1_000_000, " requests a minute"),
        allowed_hosts=_list(allowed_hosts, "MEMVAULT_ALLOWED_HOSTS"),
        allowed_origins=_list(allowed_origins, "MEMVAULT_ALLOWED_ORIGINS"),
    )
    if mode == "none" and not http.loopback:
        raise ValueError(
            f"refusing to serve {http.host} without authentication: --auth none is only allowed on a loopback "
            "address; use --auth keys or --auth oauth (MEMVAULT_AUTH), or --host 127.0.0.1"
        )
    if mode != "oauth":
        return http
    issuer_url = _url(issuer, "MEMVAULT_OAUTH_ISSUER")
    claim = (_flag_or_env(tenant_claim, "MEMVAULT_OAUTH_TENANT_CLAIM") or "tenant").strip()
    if not claim:
        raise ValueError("--oauth-tenant-claim / MEMVAULT_OAUTH_TENANT_CLAIM must not be empty")
    return replace(
        http, issuer=issuer_url,
        jwks_url=_url(jwks_url, "MEMVAULT_OAUTH_JWKS_URL", issuer_url.rstrip("/") + "/.well-known/jwks.json"),
        resource=_url(resource, "MEMVAULT_OAUTH_RESOURCE"), tenant_claim=claim,
        jwks_max_age_s=_whole(jwks_max_age, "MEMVAULT_OAUTH_JWKS_MAX_AGE", HttpConfig.jwks_max_age_s, 1, 3_600, " s"),
        max_token_lifetime_s=_whole(max_token_lifetime, "MEMVAULT_OAUTH_MAX_TOKEN_LIFETIME",
                                    HttpConfig.max_token_lifetime_s, 60, 31_536_000, " s"),
    )
