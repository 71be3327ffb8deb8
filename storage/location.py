"""Where a database is: an SQLite file path, or a PostgreSQL URL (RFC 3986 form,
``postgresql://user:password@host:port/dbname?...`` as libpq reads it)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from urllib.parse import unquote

URL_SCHEMES = ("postgresql://", "postgres://")
POSTGRES_INSTALL = 'pip install "memvault[postgres]" (from a clone: pip install ".[postgres]")'
_POSTGRES_PACKAGES = ("psycopg", "psycopg_pool", "pgvector")  # the ``postgres`` extra (pyproject.toml)
_ANY_URL = re.compile(r"^\s*[A-Za-z][A-Za-z0-9+.-]*://")


def is_url(db: Path | str) -> bool:
    """Whether ``db`` names a PostgreSQL database rather than an SQLite file."""
    return str(db).strip().lower().startswith(URL_SCHEMES)


def looks_like_url(db: Path | str) -> bool:
    """Whether ``db`` starts like a URL of any scheme (``mysql://``, a mistyped ``postgressql://``)."""
    return _ANY_URL.match(str(db)) is not None


# libpq parameters whose value is a secret (compared percent-decoded, in any case).
SECRET_KEYS = frozenset({"password", "sslpassword", "oauth_client_secret"})
MASK = "***"
_CONNINFO = re.compile(r"^\s*[A-Za-z_]+\s*=")  # a libpq key=value string ("host=/tmp dbname=x")
_CONNINFO_PAIR = re.compile(r"(?P<key>[A-Za-z_]+)(?P<eq>\s*=\s*)(?P<value>'(?:[^'\\]|\\.)*'?|\S*)")


def looks_like_conninfo(db: Path | str) -> bool:
    """Whether ``db`` reads as a libpq ``key=value`` connection string (``host=/tmp dbname=x``)."""
    return not looks_like_url(db) and _CONNINFO.match(str(db)) is not None


def _is_secret_key(key: str) -> bool:
    return unquote(key).strip().lower() in SECRET_KEYS


# libpq's "Parameter Key Words": "?" and one of them starts a query string, not a password part.
_LIBPQ_KEYS = frozenset({
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
    "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name",
    "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
    "replication", "gssencmode", "sslmode", "requiressl", "sslnegotiation", "sslcompression", "sslcert",
    "sslkey", "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
    "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib",
    "gssdelegation", "service", "target_session_attrs", "load_balance_hosts", "oauth_issuer",
    "oauth_client_id", "oauth_client_secret", "oauth_scope",
})
_QUERY_KEY = re.compile(r"[?&]([^=&?]*)=")


def _split_url(text: str) -> tuple[str, str | None, str, str | None]:
    """``text`` (``scheme://...``) as (scheme and "//", userinfo or None, host and path, query or None).
    More: docs/storage-tuning.md#location--split-url."""
    start = text.index("://") + 3
    rest = text[start:]
    at = rest.rfind("@")
    if at >= 0 and any(unquote(key).strip().lower() in _LIBPQ_KEYS for key in _QUERY_KEY.findall(rest[:at])):
        question = rest.find("?")
        before_query = rest if question < 0 else rest[:question]
        at = before_query.rfind("@")
        if at < 0 and "@" in rest and "=" not in rest[: rest.index("@")]:
            at = rest.index("@")
    userinfo = rest[:at] if at >= 0 else None
    after = rest[at + 1:] if at >= 0 else rest
    question = after.find("?")
    if question < 0:
        return text[:start], userinfo, after, None
    return text[:start], userinfo, after[:question], after[question + 1:]


def _redacted_conninfo(text: str) -> str:
    def mask(match: re.Match[str]) -> str:
        if not _is_secret_key(match["key"]) or match["value"] in ("", "''"):
            return match[0]
        return f"{match['key']}{match['eq']}{MASK}"

    return _CONNINFO_PAIR.sub(mask, text)


def redacted(db: Path | str) -> str:
    """``db`` as it may be logged or shown: every secret libpq reads replaced by ``***``.
    More: docs/storage-tuning.md#location-redacted."""
    text = str(db)
    if looks_like_conninfo(text):
        return _redacted_conninfo(text)
    if not looks_like_url(text):
        return text
    head, userinfo, middle, query = _split_url(text)
    shown = head
    if userinfo is not None:
        user, colon, password = userinfo.partition(":")
        shown += f"{user}{colon}{MASK if password else ''}@"
        shown += middle
    else:  # no "@": a "user:password" typed without a host reads as a host and a port
        authority, slash, path = middle.partition("/")
        shown += ",".join(_masked_port(host) for host in authority.split(",")) + slash + path
    if query is not None:
        pairs = []
        for pair, secret in _query_pairs(query):
            if not secret:
                pairs.append(pair)
            else:  # key=*** or, for the rest of a password cut at an "&", *** alone
                pairs.append(f"{pair.partition('=')[0]}={MASK}" if "=" in pair else MASK)
        shown += "?" + "&".join(pairs)
    return shown


def _port_secret(host: str) -> str | None:
    """What follows a host's ":" when it is no port: a password typed without a host
    (``postgresql://alice:pw/db``), which libpq quotes in its errors; else None."""
    if host.startswith("["):  # an IPv6 address: "[::1]:5432"
        host = host.partition("]")[2]
    _, colon, port = host.partition(":")
    return port if colon and port and not port.isdigit() else None


def _masked_port(host: str) -> str:
    secret = _port_secret(host)
    return host if secret is None else host[: len(host) - len(secret)] + MASK


def _query_pairs(query: str) -> list[tuple[str, bool]]:
    """The ``&``-separated parts of a query string, each with whether it holds a secret (a
    part without "=" after a secret one is the rest of a password holding "&")."""
    out: list[tuple[str, bool]] = []
    previous_secret = False
    for pair in query.split("&"):
        key, eq, value = pair.partition("=")
        secret = bool(eq and value and _is_secret_key(key)) or (previous_secret and not eq and bool(pair))
        out.append((pair, secret))
        previous_secret = secret
    return out


def secrets_in(db: Path | str) -> list[str]:
    """The secret values in ``db`` (see :func:`redacted`) as they may appear in a library's
    message: as written and percent-decoded, longest first."""
    text = str(db)
    found: list[str] = []
    if looks_like_conninfo(text):
        for match in _CONNINFO_PAIR.finditer(text):
            if _is_secret_key(match["key"]):
                value = match["value"]
                found += [value, value.strip("'"), re.sub(r"\\(.)", r"\1", value.strip("'"))]
    elif looks_like_url(text):
        _, userinfo, middle, query = _split_url(text)
        if userinfo is not None and ":" in userinfo:
            password = userinfo.partition(":")[2]
            # libpq quotes the rest of a password holding "@" as the host ("2026@localhost").
            found += [password, *(piece for piece in re.split(r"[@:/?&]", password) if len(piece) >= 4)]
        if userinfo is None:
            found += [p for p in (_port_secret(h) for h in middle.partition("/")[0].split(",")) if p]
        for pair, secret in _query_pairs(query or ""):
            if secret:
                found.append(pair.partition("=")[2] if "=" in pair else pair)
        found += [unquote(value) for value in found]
    return sorted({value for value in found if value}, key=len, reverse=True)


def scrubbed(message: str, db: Path | str) -> str:
    """``message`` (e.g. a driver's error about ``db``) with every secret of ``db`` replaced by ``***``."""
    for secret in secrets_in(db):
        message = message.replace(secret, MASK)
    return message


def postgres_extra_missing() -> list[str]:
    """The packages of the ``postgres`` extra that this install lacks (importing none of them)."""
    return [name for name in _POSTGRES_PACKAGES if importlib.util.find_spec(name) is None]
