"""``memvault serve --transport http``: the SDK's streamable HTTP transport at ``/mcp`` (stateless,
JSON responses) behind :class:`Guard`, the SDK's authentication and :class:`PostOnly`;
``GET /healthz``; uvicorn with a read deadline and connection bounds (:func:`_protocol`).
What each layer refuses and why: docs/architecture.md ("The team server"), docs/team-server-security.md.
"""

from __future__ import annotations

import errno
import hashlib
import http as http_status
import ipaddress
import json
import logging
import math
import os
import re
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote_plus, urlsplit

import anyio
import anyio.to_thread
from mcp.server.auth.routes import build_resource_metadata_url
from mcp.server.auth.settings import AuthSettings
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from pydantic import AnyHttpUrl
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from memvault.storage import limits
from memvault.storage.errors import Damaged, MemvaultError, credentials_in, shown
from memvault.storage.keys import PREFIX as KEY_PREFIX

from .config import Config, HttpConfig
from .runtime import Runtime
from .checks import Checks
from .wire import RATE_CHARGE, RATE_LIMIT, http_refusal, leading_id, too_many
from .wire import post as post_body

if TYPE_CHECKING:
    from starlette.applications import Starlette

log = logging.getLogger(__name__)
MAX_BODY_BYTES = 256 * 1024  # a memory is at most 8,000 characters: JSON-escaped, far below this
# Query parameters refused on /mcp as naming a token, compared in lower case without "-", "_", "." or
# spaces (ACCESS_TOKEN, api-key and apikey alike); any name or none, holding a key or a JWT: :func:`query_token`.
QUERY_TOKEN_NAMES = ("access_token", "token", "api_key", "key", "bearer", "auth", "authorization", "id_token",
                     "refresh_token", "api_token", "auth_token", "x_api_key", "jwt")
_FOLDED_NAMES = {name.replace("_", ""): name for name in QUERY_TOKEN_NAMES}
# A memvault API key (its prefix, then secrets.token_urlsafe's alphabet: storage/keys.py), or a JWS or JWE in
# compact form (RFC 7515 §7.1: its header's base64url opens with '{"', "eyJ").
_QUERY_TOKEN = re.compile(re.escape(KEY_PREFIX) + r"[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
# MCP-Protocol-Version values taken (the SDK's: those of the initialize handshake, and the stateless one).
PROTOCOL_VERSIONS = (*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS)
# What an authenticated caller is told when the database cannot serve (never which database: the
# log says), by what memvault's storage said happened (its messages' openings), per backend.
UNAVAILABLE = "the server's log says which database and why"
_SAID_UNAVAILABLE = {
    "postgresql": (
        (("PostgreSQL is unreachable", "the connection to PostgreSQL failed", "cannot open connections to PostgreSQL"),
         "PostgreSQL is unreachable (stopped, or the network to it is down); retrying is safe once it is back"),
        (("cannot connect to PostgreSQL",), "PostgreSQL cannot be reached or refused this server's login"),
        (("the database is busy",), "the database is busy: every pooled connection is in use; retry shortly"),
        (("",), "the PostgreSQL database cannot be read"),
    ),
    "sqlite": (
        (("the database is busy",), "the database is busy: another process holds its lock; retry shortly"),
        (("",), "the database file cannot be opened or read"),
    ),
}
_SAID_KIND = {"file gone": "the database file is gone (moved or deleted while the server ran)",
              "file replaced": "the database file was replaced while the server ran; the server must be restarted",
              "damaged": "the database file is damaged; `memvault doctor` says how to recover"}
# Connections open at once from one client address (429 beyond), and in all (503 beyond):
# see docs/team-server-security.md.
CONNECTIONS_PER_ADDRESS = 32
MAX_CONNECTIONS = 512
RETRY_AFTER_S = 5  # told to a client refused for the database or for too many connections
REFUSED_LINGER_S = 1.0  # a refused connection reads (and drops) its request this long before it is closed
# A request (its line, headers and body) has READ_GRACE_S seconds from the connection's opening or the
# end of its previous response, and 1 s more for every READ_MIN_RATE bytes of it received; then it gets
# 408 (its connection closed). The idea of Apache's mod_reqtimeout (MinRate); why: docs/team-server.md.
READ_GRACE_S = 10.0
READ_MIN_RATE = 1_000  # bytes a second
# Host and Origin: a DNS name is at most 253 characters, with a scheme and a port far below this.
HOST_MAX_BYTES = 1_000
HEAD_MAX_BYTES = 32 * 1024  # a request's target and headers together (h11 bounds only a head sent in pieces)
PROBE_TIMEOUT_S = 2.0  # a readiness read slower than this, once begun, is "not ready" (docs/team-server-security.md)
PROBE_CACHE_S = 1.0  # one readiness read serves every request for this long
PROBE_TICK_S = 0.01  # the readiness read's time is counted in ticks of this: DatabaseWatch._read
_NO_KEY = "0" * 64  # a key hash no key has: the readiness read looks it up as a request's key is looked up
BUCKETS_MAX = 10_000  # clients a rate limiter keeps a bucket for (a few MB)
FAILED_AUTH_PER_MINUTE = 60  # per client address; a guesser of keys is held to this (docs/team-server-security.md)


class RateLimiter:
    """A token bucket per key (a client address, or a verified caller): ``per_minute``
    requests, refilled continuously (a burst of up to ``per_minute`` at once). ``clock``
    gives seconds."""

    def __init__(self, per_minute: int, clock: Any = time.monotonic) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._pruned = -math.inf

    def wait_s(self, who: str, count: bool = True, cost: int = 1) -> float:
        """0 when ``who`` may make a request now (and counts it as ``cost`` requests, the bucket left
        in debt if need be, unless ``count`` is false); else seconds until it may."""
        tokens, now = self._tokens(who)
        if tokens < 1:
            self._buckets[who] = (tokens, now)
            return (1 - tokens) / self.rate
        if count:
            self._buckets[who] = (tokens - cost, now)
        return 0.0

    def charge(self, who: str, cost: int = 1) -> None:
        """Count ``cost`` requests of ``who`` already let through (a refusal counted once decided), the
        bucket left in debt however low it is: requests checked together before it emptied are all paid."""
        tokens, now = self._tokens(who)
        self._buckets[who] = (tokens - cost, now)

    def _tokens(self, who: str) -> tuple[float, float]:
        """``who``'s tokens now, refilled, and the clock's now."""
        now = self.clock()
        if len(self._buckets) > BUCKETS_MAX and now - self._pruned >= 1:  # at most once a second
            # Clients idle for a minute are forgotten (their bucket is full again); past BUCKETS_MAX
            # still, the longest known (a flood of new addresses cannot grow the table or its cost).
            self._pruned = now
            kept = [(k, v) for k, v in self._buckets.items() if now - v[1] < 60]
            self._buckets = dict(kept[-BUCKETS_MAX // 2:] if len(kept) > BUCKETS_MAX else kept)
        tokens, then = self._buckets.get(who, (self.capacity, now))
        return min(self.capacity, tokens + (now - then) * self.rate), now


def _error(status: int, kind: str | None, description: str, data: dict[str, Any] | None = None,
           request_id: str | int | None = None, **headers: str) -> Response:
    """memvault's refusal of a request: :func:`wire.http_refusal`'s JSON-RPC error of ``kind`` saying
    ``description``, ``data``'s members added to its ``error.data``; headers by name (``Retry_After``)."""
    return JSONResponse(http_refusal(status, kind, description, request_id, **(data or {})), status,
                        headers={k.replace("_", "-"): v for k, v in headers.items()} or None)


def _request_target(scope: Scope) -> tuple[str, Response | None]:
    """The path of the request's target, and a refusal or None. A path (origin form) as sent; the
    absolute form (``GET http://host:port/mcp``, which a server must accept: RFC 9112 §3.2.2) its
    path, when it names the host of the Host header; the asterisk and authority forms, or an absolute
    form naming another host, refused in JSON naming what is accepted (never quoting the target)."""
    target = scope["path"]
    if target.startswith("/"):
        return target, None
    parts = urlsplit(target)
    host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
    if parts.scheme.lower() in ("http", "https") and parts.netloc:
        if parts.netloc.lower() == host.lower():
            return parts.path or "/", None
        return "/", _error(400, "invalid_request", "the request target is in absolute form and names another host "
                           "than the Host header; send the path alone (POST /mcp, GET /healthz) with the host in the "
                           "Host header")
    return "/", _error(400, "invalid_request", "the request target must be a path (POST /mcp, GET /healthz), or "
                       "an absolute http:// URL of this server; the asterisk form (*) and the authority form "
                       "(host:port) are not served")


def _too_many(wait: float, what: str, limiter: RateLimiter) -> Response:
    said, retry = too_many(wait, what, int(limiter.capacity))
    return _error(429, "rate_limited", said, Retry_After=str(retry))


def _address(scope: Scope) -> str:
    """The client whose failures count together: its IPv4 address, or its IPv6 address's /64 (one
    subscriber's range: RFC 6177); "unknown" for no address or one that is none (a forwarded text)."""
    client = scope.get("client")
    try:
        address = ipaddress.ip_address(client[0] if client else "")
    except ValueError:
        return "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped
        return str(mapped) if mapped is not None else str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


# The verifier's answer for the request being served: (token, identity), set by Guard.
_VERIFIED: ContextVar[tuple[str, Any] | None] = ContextVar("memvault_verified_token", default=None)


class Verified:
    """memvault's verifier as the SDK's authentication calls it: :class:`Guard`'s answer for this
    request's token; a token refused elsewhere is no identity (not the SDK's 400)."""

    def __init__(self, verifier: Any) -> None:
        self.verifier = verifier

    async def verify_token(self, token: str) -> Any:
        from .auth import TokenRefused, bearer_token

        token = bearer_token(token)
        seen = _VERIFIED.get()
        if seen is not None and seen[0] == token:
            return seen[1]
        try:
            return await self.verifier.verify_token(token)
        except TokenRefused:
            return None


class Guard:
    """ASGI middleware, outermost: what the SDK's transport and Starlette answer wrongly, on every
    route (headers and path) and, before the SDK's authentication, on ``/mcp`` (tokens, rate limits,
    the database). Each refusal and why: docs/architecture.md, "The team server"."""

    def __init__(self, app: ASGIApp, failures: RateLimiter, limiter: RateLimiter | None, watch: DatabaseWatch,
                 hosts: list[str], origins: list[str], challenge: str | None = None, verifier: Any = None,
                 resource_metadata: str | None = None) -> None:
        self.app, self.failures, self.limiter, self.watch = app, failures, limiter, watch
        self.allowed = {b"host": [h.lower() for h in hosts], b"origin": [o.lower() for o in origins]}
        self.challenge, self.verifier, self.resource_metadata = challenge, verifier, resource_metadata
        self._logged: tuple[str, str] | None = None  # the database's problem last logged (refusal)
        self._token_logged: str | None = None  # why the last token could not be checked, as logged

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = _two_lengths(scope) or _over_long(scope)
        target, wrong_target = _request_target(scope)
        refused = refused or wrong_target
        path = target.rstrip("/") or "/"
        headers = [(k, _named(k, v) if allowed(_named(k, v).decode("latin-1"), self.allowed.get(k)) else v)
                   for k, v in _combined(scope["headers"])]
        sent = [v for k, v in headers if k == b"accept"]
        accept = _accepted(sent)
        sse_only = b"text/event-stream" in accept and not accept & {b"application/json", b"application/*", b"*/*"}
        if sse_only or not any(v.strip(b" \t,") for v in sent):  # none sent: any type
            headers = [(k, v) for k, v in headers if k != b"accept"] + [(b"accept", b"application/json")]
        else:  # the SDK reads the types without their quality: it is given those acceptable (none: its 406)
            headers = [(k, v) for k, v in headers if k != b"accept"] + [(b"accept", b", ".join(sorted(accept)))]
        scope = {**scope, "path": path, "raw_path": path.encode(), "headers": headers}
        if refused is None and path == "/mcp":
            refused = await self.refusal(scope)
        await (refused or self.app)(scope, receive, _as_sse(send) if sse_only else send)

    def _failed(self, scope: Scope) -> None:
        self.failures.charge(_address(scope))

    async def refusal(self, scope: Scope) -> Response | None:
        """The response refusing the request of ``scope``, or None to pass it on. Each refusal
        logged counts against its address (``FAILED_AUTH_PER_MINUTE``): past it, 429 and no log
        line, so one client cannot grow the log without bound."""
        wait = self.failures.wait_s(_address(scope), count=False)
        if wait > 0:
            return _too_many(wait, "too many refused requests or failed authentications from this address", self.failures)
        for name, status in ((b"host", 421), (b"origin", 403)):  # DNS-rebinding protection, before the SDK's
            value = next((v.decode("latin-1") for k, v in scope["headers"] if k == name), None)
            # The SDK matches "name:*" as a prefix ("localhost:1:2" passed); a port here is digits, whole.
            if (value is not None or name == b"host") and not allowed((value or "").lower(), self.allowed[name]):
                self._failed(scope)
                # Named by its length and a digest, never quoted: the client chose it; an operator checks a
                # host they expected with `printf %s HOST | sha256sum`.
                log.warning("refused the %s header: not an allowed %s (%d characters, sha256 %s); --allowed-%s "
                            "accepts more", name.decode(), name.decode(), len(value or ""),
                            hashlib.sha256((value or "").encode("latin-1")).hexdigest()[:12], name.decode())
                if value is None:  # HTTP/1.0 may send none: say so, not that it names a wrong host
                    return _error(421, "invalid_host", "the request has no Host header: send one naming this server "
                                  "(HTTP/1.1 requires it, RFC 9112 §3.2)")
                return _json_refusal(status)
        versions = [v.decode("latin-1") for k, v in scope["headers"] if k == b"mcp-protocol-version"]
        unknown = next((v for v in versions if v not in PROTOCOL_VERSIONS), None)
        if unknown is not None:  # the SDK took it for a newer protocol and answered about `params._meta`
            return _error(400, "unsupported_protocol_version", f"the MCP-Protocol-Version header is {shown(unknown)}, "
                          f"a version this server does not speak; it accepts {', '.join(PROTOCOL_VERSIONS)} (the "
                          "version agreed at initialize), or no header (then 2025-03-26)",
                          {"supported": list(PROTOCOL_VERSIONS)})
        token = query_token(scope.get("query_string", b"").decode("latin-1"))
        if token is not None:
            self._failed(scope)
            log.warning("refused a request with a token in the query string (%s)", token)
            return _error(400, "invalid_request", f"the query string holds {token}: tokens are accepted only in "
                          "the Authorization header (Authorization: Bearer <token>)")
        given = Request(scope).headers.getlist("authorization")
        if len(given) > 1:  # which one counts would differ between this server and a proxy before it
            self._failed(scope)
            log.warning("refused a request with %d Authorization headers", len(given))
            return _error(400, "invalid_request", "send one Authorization header (this request has "
                          f"{len(given)})")
        header = given[0] if given else None
        if self.challenge is not None and not (header or "").lower().startswith("bearer "):
            self._failed(scope)
            log.warning("refused a request %s", "whose Authorization header is no bearer token" if header else
                        "without a bearer token")
            said = ("the Authorization header is no bearer token: send Authorization: Bearer <token> (the word "
                    "Bearer, one space, the token)") if header else "authentication required: send Authorization: Bearer <token>"
            return _error(401, None, said, WWW_Authenticate=self.challenge)
        problem = await self.watch.problem()
        if problem != self._logged:  # logged as it changes, not per request (a damaged file refuses them all)
            if problem is not None:
                log.warning("database unavailable: %s", problem[1])
            elif self._logged is not None:
                log.info("database available again")
            self._logged = problem
        if problem is not None:
            why = problem[1]
            if self.challenge is not None:  # an authentication that cannot succeed: counted, the database named in the log only
                self._failed(scope)
                why = said_unavailable(problem, self.watch.backend)
            return _unavailable(why)
        if self.verifier is None or not header:
            return None
        from .auth import IssuerUnreachable, TokenRefused, bearer_token, caller_of, challenge

        token = bearer_token(header[len("bearer "):])
        try:
            identity = await self.verifier.verify_token(token)
            _VERIFIED.set((token, identity))
            self._token_logged = None
        except IssuerUnreachable as exc:  # the token was not judged: no failed authentication
            return _error(503, "temporarily_unavailable", exc.description, Retry_After=str(exc.retry_s))
        except TokenRefused as exc:
            self._failed(scope)
            return _error(401, "invalid_token", exc.description,
                          WWW_Authenticate=challenge(exc.description, self.resource_metadata))
        except MemvaultError as exc:  # the keys could not be read: an expected failure, counted, no traceback
            self._failed(scope)
            if str(exc) != self._token_logged:  # logged as it changes, not per request
                log.warning("could not check a bearer token: %s", exc)
                self._token_logged = str(exc)
            return _unavailable(said_unavailable(problem_of(exc), self.watch.backend))
        if self.limiter is not None:
            caller = caller_of(identity)
            wait = self.limiter.wait_s(caller)
            if wait > 0:
                return _too_many(wait, "too many requests for this key", self.limiter)
            limiter = self.limiter
            # A batch's other messages; a body too costly to read (wire.post) as many.
            scope.setdefault("state", {})[RATE_CHARGE] = lambda cost=1: limiter.wait_s(caller, cost=cost)
            scope["state"][RATE_LIMIT] = int(limiter.capacity)
        return None


def query_token(query: str) -> str | None:
    """What in the query string ``query`` is or names a token, in words that quote none of it ("a memvault
    API key", "a JWT", "a parameter named access_token (any case, with or without - or _)"), or None: a
    key or JWT under any name or none, as sent or percent-decoded (up to three times), and a parameter of
    :data:`QUERY_TOKEN_NAMES` however spelled. A URL ends up in proxies' and access logs (RFC 9700 §2.4.2)."""
    texts = [query]
    for _ in range(3):
        texts.append(unquote_plus(texts[-1]))
    for text in texts:
        found = _QUERY_TOKEN.search(text)
        if found is not None:
            return "a memvault API key" if found.group().startswith(KEY_PREFIX) else "a JWT"
    for name, _ in parse_qsl(query.replace(";", "&"), keep_blank_values=True):
        known = _FOLDED_NAMES.get(re.sub(r"[-_.\s]", "", name.lower()))
        if known is not None:
            return f"a parameter named {known} (any case, with or without - or _)"
    return None


def problem_of(exc: MemvaultError) -> tuple[str, str]:
    """``(kind, why)`` of a database that raised ``exc`` opening or reading: "damaged" for damage found
    (:class:`Damaged`, wherever it was met first), else "unavailable"."""
    return ("damaged" if isinstance(exc, Damaged) else "unavailable", str(exc))


def said_unavailable(problem: tuple[str, str], backend: str) -> str:
    """What happened to the database, as :class:`DatabaseWatch`'s ``problem`` says it, in words safe
    for any caller: per ``backend`` ("sqlite" or "postgresql"), never which database or where."""
    kind, why = problem
    if kind != "timeout":  # (a timeout's words name no database)
        why = _SAID_KIND.get(kind) or next(words for openings, words in _SAID_UNAVAILABLE[backend]
                                            if why.startswith(openings))
    return f"{why}; {UNAVAILABLE}"


def _unavailable(why: str) -> Response:
    return _error(503, "database_unavailable", why, Retry_After=str(RETRY_AFTER_S))


class DatabaseWatch:
    """Whether the database can serve a request now: it opens, a SQLite file is still the one
    first opened at its path, and a real read answers within :data:`PROBE_TIMEOUT_S` of its start (one read
    at a time on a thread of its own, its answer cached for :data:`PROBE_CACHE_S`)."""

    def __init__(self, runtime: Runtime) -> None:
        from memvault.storage.location import is_url

        self.runtime = runtime
        self.backend = "postgresql" if is_url(runtime.config.db) else "sqlite"
        self._file: tuple[int, int] | None = None  # (device, inode) of the SQLite file first served
        self._lock = anyio.Lock()
        self._answer: tuple[str, str] | None = None
        self._checked = -math.inf  # time.monotonic() of the answer
        self._checking = False  # a check is still running on its thread (after its timeout)
        # The probe's own thread: it never waits for one behind the tenants' calls (anyio's 40 are theirs).
        self._thread = anyio.CapacityLimiter(1)

    async def problem(self) -> tuple[str, str] | None:
        """None when the database can serve; else ``(kind, why)``: ``kind`` one of
        "damaged", "unavailable" (:func:`problem_of`), "timeout" (no answer in :data:`PROBE_TIMEOUT_S`),
        "file gone", "file replaced", safe for anyone; ``why`` in words for the log (may name the database)."""
        moved = self._moved()  # one os.stat, on every request: a file gone is seen at once
        if moved is not None:
            return moved
        async with self._lock:
            if time.monotonic() - self._checked >= PROBE_CACHE_S:
                self._answer = ("timeout", f"the database did not answer a read within {PROBE_TIMEOUT_S:g} s")
                if not self._checking:
                    self._checking = True
                    self._answer = await self._read(self._answer)
                self._checked = time.monotonic()
            return self._answer

    async def _read(self, timed_out: tuple[str, str]) -> tuple[str, str] | None:
        """:meth:`_check`'s answer on the probe's thread, or ``timed_out`` when it has not answered within
        :data:`PROBE_TIMEOUT_S` of this process's own time from the read's start: counted in ticks of the loop,
        each counted once however late it runs. A process busy with its own work (a long scan of a tenant's
        text holding the GIL) runs its ticks late and is given the time; counted by the wall clock, it called
        its database unready and every tenant got 503. A database that hangs still times out, the loop's ticks
        on time."""
        began: list[bool] = []
        answers: list[tuple[str, str] | None | Exception] = []

        def check() -> tuple[str, str] | None:
            began.append(True)
            return self._check()

        async def read() -> None:
            try:
                answers.append(await anyio.to_thread.run_sync(check, abandon_on_cancel=True, limiter=self._thread))
            except Exception as exc:  # raised below, not in an exception group
                answers.append(exc)
            tasks.cancel_scope.cancel()

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(read)
            ticks = 0
            while ticks * PROBE_TICK_S < PROBE_TIMEOUT_S:
                await anyio.sleep(PROBE_TICK_S)
                ticks += bool(began)
            tasks.cancel_scope.cancel()
        if not answers:
            return timed_out
        if isinstance(answers[0], Exception):
            raise answers[0]
        return answers[0]

    def _moved(self) -> tuple[str, str] | None:
        """``("file gone" | "file replaced", why)`` when the SQLite file at the path is not the one
        first served; None for PostgreSQL, or the same file."""
        if self.backend == "postgresql":
            return None
        label = self.runtime.config.db_label
        try:
            found = os.stat(self.runtime.config.db)
        except OSError:
            return ("file gone", f"the database file {label} is gone (moved or deleted while the server "
                    "ran); put it back, or restart the server to start a new one")
        if self._file is None:
            self._file = (found.st_dev, found.st_ino)
        elif self._file != (found.st_dev, found.st_ino):
            return ("file replaced", f"the database file {label} was replaced while the server ran; "
                    "restart the server to open the new one")
        return None

    def _check(self) -> tuple[str, str] | None:
        try:
            store = self.runtime.store()
            if self.backend == "sqlite":  # moved or replaced: problem() asked _moved() first
                store.backend.read_header()  # damage found here is damage met: writes refused from now on
                store.upkeep.check_damage(again=True)  # of the whole file, on the worker, when one is due
            with store.backend.read(None) as tx:  # a real read, as every request's: a refused connection raises,
                tx.settings()  # and so does damage every call meets (a damaged key table
                tx.api_keys(key_hash=_NO_KEY)  # refuses every call: not ready)
        except MemvaultError as exc:
            return problem_of(exc)
        finally:
            self._checking = False
        return None


class PostOnly:
    """ASGI middleware just in front of the SDK's ``/mcp`` endpoint (after authentication): the
    SDK's Host/Origin/Content-Type refusals in JSON, a POST's body bounded (413), a missing
    scope 403 (:func:`_insufficient_scope`), the body to ``wire.post``; any other method 405."""

    def __init__(self, app: ASGIApp, security: TransportSecuritySettings, resource_metadata: str | None = None,
                 checks: Checks | None = None) -> None:
        self.app, self.security, self.resource_metadata = app, TransportSecurityMiddleware(security), resource_metadata
        self.checks = checks  # memvault's argument checks, for what the SDK cannot parse (wire.post)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != "/mcp":
            await self.app(scope, receive, send)
            return
        post = scope["method"] == "POST"
        # The SDK compares media types as sent, which are case-insensitive (RFC 9110 §8.3.1).
        headers = [(k, _media_type_lowered(v) if k == b"content-type" else v) for k, v in scope["headers"]]
        scope, types = {**scope, "headers": headers}, [v for k, v in headers if k == b"content-type"]
        refused = await self.security.validate_request(Request(scope, receive), is_post=post)  # headers only
        status = None if refused is None else refused.status_code
        if status is None and post and [t.partition(b";")[0] for t in types] != [b"application/json"]:
            status = 400  # the SDK's check took application/jsonx (then its transport's 415 in another shape)
        coded = _content_coding(headers) if post and status is None else None
        try:
            body = await _body(scope, receive, MAX_BODY_BYTES) if post and status is None and not coded else None
        except ClientDisconnect:
            return  # nothing to answer: the client is gone, or h11 answered 400 (Bounded)
        if coded:
            response: Response | None = _error(
                415, "unsupported_content_coding", f"the body is sent with Content-Encoding {coded}; memvault reads "
                "bodies sent as they are (no Content-Encoding, or identity)", Accept_Encoding="identity")
        elif status is not None:
            response = _json_refusal(status)
        elif not post:
            response = _error(405, "method_not_allowed", f"Method Not Allowed: {scope['method']} /mcp; this "
                              "stateless server answers POST only (no server-initiated stream, no session to end)",
                              Allow="POST")
        elif body is None:
            response = _error(413, "request_too_large", f"the request body is over the limit of {MAX_BODY_BYTES:,} "
                              f"bytes (a memory is at most {limits.CONTENT_MAX_CHARS:,} characters)")
        else:
            response = _insufficient_scope(scope, body, self.resource_metadata)
        if response is not None:
            await response(scope, receive, send)
        else:
            await _unless_gone(receive, send, lambda send: post_body(self.app, scope, body or b"", _status_named(send),
                                                                     self.checks))


# The kind of a JSON-RPC error (its ``error.data.error``) by the HTTP status, else by its code.
_KIND_OF_CODE = {-32700: "parse_error", -32600: "invalid_request", -32601: "method_not_found", -32602: "invalid_params"}
_KIND_OF_STATUS = {404: "not_found", 406: "not_acceptable", 415: "unsupported_media_type"}


def _status_named(send: Send) -> Send:
    """``send`` adding ``error.data.status`` and ``error.data.error`` to a JSON-RPC error sent with a 4xx or 5xx
    status without them (the SDK's 406, the wire's parse refusals): every refusal of ``/mcp`` names both
    (docs/team-server.md). Other responses pass as they are."""
    held: dict[str, Any] = {}

    async def named(event: dict[str, Any]) -> None:
        if event["type"] == "http.response.start" and event["status"] >= 400:
            held["start"], held["body"] = event, b""
            return
        if event["type"] != "http.response.body" or "start" not in held:
            await send(event)
            return
        held["body"] += event.get("body", b"")
        if event.get("more_body"):
            return
        start, body = held.pop("start"), held.pop("body")
        try:
            reply = json.loads(body)
        except ValueError:
            reply = None
        error = reply.get("error") if isinstance(reply, dict) else None
        if isinstance(error, dict) and not (isinstance(error.get("data"), dict) and "status" in error["data"]):
            kind = _KIND_OF_STATUS.get(start["status"]) or _KIND_OF_CODE.get(error.get("code"), "invalid_request")  # type: ignore[arg-type]
            error["data"] = {"status": start["status"], "error": kind,
                             **(error["data"] if isinstance(error.get("data"), dict) else {})}
            body = json.dumps(reply).encode()
            start = {**start, "headers": [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
                     + [(b"content-length", str(len(body)).encode())]}
        await send(start)
        await send({"type": "http.response.body", "body": body})

    return named


async def _unless_gone(receive: Receive, send: Send, answer: Callable[[Send], Awaitable[None]]) -> None:
    """``answer(send)``, cancelled when the client closes its connection before the answer is sent: a batch's
    calls not begun by then never run (one running in a thread ends first; each write is one transaction)."""
    sent = anyio.Event()

    async def sending(event: dict[str, Any]) -> None:
        await send(event)
        if event["type"] == "http.response.body" and not event.get("more_body"):
            sent.set()

    async with anyio.create_task_group() as tasks:
        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            if not sent.is_set():
                log.info("a client closed its connection before its answer: its calls not begun are not run")
                tasks.cancel_scope.cancel()

        tasks.start_soon(watch)
        await answer(sending)
        tasks.cancel_scope.cancel()


def _content_coding(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The content codings of a request's Content-Encoding headers other than ``identity``, quoted and
    joined (``'gzip'``), or None: memvault decodes none, so such a body is refused with 415 and
    ``Accept-Encoding: identity`` (RFC 9110 §8.4.1, §15.5.16), not read as if it were plain."""
    codings = [c.strip() for k, v in headers if k == b"content-encoding"
               for c in v.decode("latin-1").split(",") if c.strip()]
    unread = [c for c in codings if c.lower() != "identity"]
    return ", ".join(repr(c[:40]) for c in unread[:4]) if unread else None


def _insufficient_scope(scope: Scope, body: bytes, resource_metadata: str | None) -> Response | None:
    """403 ``insufficient_scope`` (RFC 6750 §3.1) naming the scope that the verified caller
    of ``scope`` lacks for ``body`` (``auth.missing_scope``: never a read-only API key's write), or None."""
    from .auth import challenge, is_key, missing_scope

    user = scope.get("user")
    if not getattr(user, "is_authenticated", False):  # --auth none
        return None
    needed = missing_scope(scope["auth"].scopes, body, key=is_key(user.access_token))
    if needed is None:
        return None
    log.warning("refused a request lacking the %s scope", needed)
    description = f"this request needs the {needed} scope, which the token does not grant"
    return _error(403, "insufficient_scope", description, {"scope": needed}, leading_id(body),
                  WWW_Authenticate=challenge(description, resource_metadata, error="insufficient_scope", scope=needed))


_PRINTABLE = re.compile(rb"[\x21-\x7e]*")
# Request fields whose value is a comma-separated list (RFC 9110 §5.6.1), and so may come on several lines.
_LIST_FIELDS = frozenset({b"accept", b"accept-encoding", b"accept-language", b"cache-control", b"if-match",
                          b"if-none-match", b"te", b"via"})


def _combined(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with a list field (:data:`_LIST_FIELDS`) sent on several lines as one line in place
    of its first, the values joined by ", " in order (RFC 9110 §5.3): the SDK reads a field's first
    line only (two Accept lines, text/event-stream then application/json, got 406). Others as sent."""
    lines: dict[bytes, list[bytes]] = {}
    for key, value in headers:
        if key in _LIST_FIELDS:
            lines.setdefault(key, []).append(value)
    combined = []
    for key, value in headers:
        if key not in _LIST_FIELDS:
            combined.append((key, value))
        elif key in lines:  # the field's first line: every line's value, in order
            combined.append((key, b", ".join(lines.pop(key))))
    return combined


def _media_type_lowered(value: bytes) -> bytes:
    """A Content-Type value with its media type (before any ``;`` parameter) trimmed, in lower case."""
    media_type, semicolon, parameters = value.partition(b";")
    return media_type.strip().lower() + semicolon + parameters


def _two_lengths(scope: Scope) -> Response | None:
    """400 when the request has both Content-Length and Transfer-Encoding, with ``Connection: close``
    (uvicorn then closes the connection): where its body ends is ambiguous, and a proxy before this
    server may have read it otherwise, so what follows on the connection may be a smuggled request
    (RFC 9112 §6.1, §6.3: the server MUST close the connection after responding). h11 reads the
    body as chunked and kept the connection open."""
    names = {key for key, _ in scope["headers"]}
    if b"content-length" not in names or b"transfer-encoding" not in names:
        return None
    log.warning("refused a request with both Content-Length and Transfer-Encoding; its connection is closed")
    return _error(400, "invalid_request", "the request has both Content-Length and Transfer-Encoding, so where "
                  "its body ends is ambiguous (RFC 9112 §6.1); send one of them. This connection is closed",
                  Connection="close")


def _over_long(scope: Scope) -> Response | None:
    """400 naming the header when Host is empty, Host or Origin is over :data:`HOST_MAX_BYTES` or not printable
    ASCII, or the request line and headers are over :data:`HEAD_MAX_BYTES` (naming the largest of them:
    the SDK's client sends a tool's name as the Mcp-Name header); else None."""
    for key, value in scope["headers"]:
        if key == b"host" and not value.strip():
            return _error(400, "invalid_request", HOST_EMPTY)
        if key in (b"host", b"origin") and len(value) > HOST_MAX_BYTES:
            return _error(400, "invalid_request", f"the {key.decode().title()} header is {len(value):,} bytes; "
                          f"the limit is {HOST_MAX_BYTES:,}")
        if key in (b"host", b"origin") and not _PRINTABLE.fullmatch(value):  # RFC 9110 §7.2, RFC 6454 §7: ASCII
            return _error(400, "invalid_request", f"the {key.decode().title()} header holds a byte outside "
                          "printable ASCII")
    # Sizes only: a header is named (and its name scanned by ``shown``) once, when the limit is passed.
    parts = [(len(scope.get("raw_path", b"")) + len(scope.get("query_string", b"")), None)] + [
        (len(k) + len(v) + 4, k) for k, v in scope["headers"]]
    if sum(n for n, _ in parts) <= HEAD_MAX_BYTES:
        return None
    return _error(400, "invalid_request", _head_over(parts))


def _head_over(parts: list[tuple[int, bytes | None]], whole: bool = True) -> str:
    """The refusal of a head over :data:`HEAD_MAX_BYTES` from its ``parts`` (bytes, and a header's name or
    None for the request line), naming the largest; ``whole`` False for a head refused before its end."""
    size = sum(n for n, _ in parts)
    largest, name = max(parts, key=lambda part: part[0])
    what = "the request target" if name is None else f"the {shown(name.decode('latin-1').title())} header"
    return (f"the request line and {len(parts) - 1:,} headers are {'' if whole else 'at least '}{size:,} bytes, "
            f"{largest:,} of them {what}; the limit is {HEAD_MAX_BYTES:,}")


# What h11 says refusing a request's Host headers (h11/_events.py), in memvault's words; an empty one is refused
# by :func:`_over_long`. RFC 9112 §3.2: a request lacking Host, or with several, or an invalid one, gets 400.
HOST_EMPTY = "the Host header is empty: send one naming this server (RFC 9112 §3.2)"
_H11_HOST = {
    "Missing mandatory Host: header": "the request has no Host header: HTTP/1.1 requires one naming this server "
                                      "(RFC 9112 §3.2)",
    "Found multiple Host: headers": "the request has more than one Host header: send one, naming this server "
                                    "(RFC 9112 §3.2)",
}


def _unread_head(received: bytes) -> str:
    """Why h11 refused a request, ``received`` its unparsed bytes: a head over :data:`HEAD_MAX_BYTES`
    sent before its end (h11 bounds what it buffers; naming the largest line seen), or an unreadable one."""
    if len(received) <= HEAD_MAX_BYTES or b"\r\n\r\n" in received:
        return "the request could not be read as HTTP/1.1 (its request line, a header, or the framing of its body)"
    lines = received.split(b"\r\n")
    parts = [(len(lines[0]), None)] + [(len(line) + 2, line.partition(b":")[0][:100]) for line in lines[1:]]
    return _head_over(parts, whole=False)


_NOT_ACCEPTABLE = re.compile(rb";\s*q\s*=\s*0(?:\.0{0,3})?\s*(?:;|$)", re.IGNORECASE)


def _accepted(values: Iterable[bytes]) -> set[bytes]:
    """The media types Accept headers name, lower-cased, but those of quality 0: "not acceptable"
    (RFC 9110 §12.4.2;q=0, text/event-stream`` got JSON)."""
    return {item.split(b";")[0].strip().lower() for value in values for item in value.split(b",")
            if not _NOT_ACCEPTABLE.search(item)}


def _named(header: bytes, value: bytes) -> bytes:
    """A Host or Origin as the guard compares it: lower-cased (names are case-insensitive), and a Host's
    name without the dot that ends a fully qualified one ("localhost.:8000" is "localhost:8000", RFC 1034
    §3.1)."""
    value = value.lower()
    if header == b"host" and not value.startswith(b"["):
        name, colon, port = value.partition(b":")
        value = name.removesuffix(b".") + colon + port
    return value


def allowed(text: str, patterns: list[str] | None) -> bool:
    """Whether ``text`` (a Host or an Origin) is one of ``patterns``, where ``name:*`` is any port of name."""
    return any(text == p or (p.endswith(":*") and text.startswith(p[:-1]) and _port(text[len(p) - 1:]))
               for p in patterns or ())


def _port(text: str) -> bool:
    """Whether ``text`` is a TCP port: ASCII digits naming 1 to 65535 ("454470", "８０" and "" are none)."""
    return text.isascii() and text.isdigit() and len(text) <= 5 and 0 < int(text) <= 65535


async def _body(scope: Scope, receive: Receive, most: int) -> bytes | None:
    """The request body, or None when it is over ``most`` bytes (by Content-Length or as read).

    Raises:
        ClientDisconnect: the client closed the connection, or sent what h11 could not read, before the end.
    """
    for key, value in scope["headers"]:
        if key == b"content-length" and value.strip().isdigit() and int(value) > most:
            return None
    chunks, size = [], 0
    while True:
        event = await receive()
        if event["type"] == "http.disconnect":  # a part of a body is no request
            raise ClientDisconnect
        chunk = event.get("body", b"")
        size += len(chunk)
        if size > most:
            return None
        chunks.append(chunk)
        if not event.get("more_body"):
            return b"".join(chunks)


def _as_sse(send: Send) -> Send:
    """``send`` turning a 200 JSON response into a ``text/event-stream`` of one ``message`` event."""
    state: dict[str, Any] = {}

    async def wrapped(event: dict[str, Any]) -> None:
        if event["type"] == "http.response.start":
            types = [v for k, v in event.get("headers", []) if k == b"content-type"]
            if event["status"] == 200 and types and types[0].startswith(b"application/json"):
                state["start"], state["body"] = event, b""
                return
        elif event["type"] == "http.response.body" and "start" in state:
            state["body"] += event.get("body", b"")
            if event.get("more_body"):
                return
            body = b"event: message\r\ndata: " + state["body"] + b"\r\n\r\n"
            headers = [(k, v) for k, v in state["start"].get("headers", []) if k not in (b"content-type",
                                                                                          b"content-length")]
            await send({**state["start"], "headers": [*headers, (b"content-type", b"text/event-stream"),
                                                      (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await send(event)

    return wrapped


# The SDK's transport-security refusals, by status, as memvault words them (never
# repeating the header, which a client may have filled with anything).
_HEADER_REFUSALS = {
    400: ("invalid_request", "Content-Type must be application/json"),
    421: ("invalid_host", "the Host header names no host this server answers to: a loopback name, the address "
                          "it is bound to, or one given with --allowed-host (env MEMVAULT_ALLOWED_HOSTS)"),
    403: ("invalid_origin", "the Origin header names no origin this server accepts: a loopback one, or one given "
                            "with --allowed-origin (env MEMVAULT_ALLOWED_ORIGINS)"),
}


def _json_refusal(status: int) -> Response:
    """The SDK's refusal of a request's headers with ``status``, as memvault's other refusals."""
    return _error(status, *_HEADER_REFUSALS.get(status, ("invalid_request", "the request's headers were refused")))


def _default_ports(authority: str) -> tuple[str, ...]:
    """The default ports ``authority`` (a host, or an origin with its scheme) may be written with when
    it names none: ":443" for https, ":80" for http, both for a bare host (its scheme is the proxy's)."""
    scheme, _, host = authority.rpartition("://")
    if host.endswith("]") or ":" not in host:  # no port given ("[::1]" is a host alone)
        return {"https": (":443",), "http": (":80",)}.get(scheme.lower(), () if scheme else (":80", ":443"))
    return ()


def transport_security(http: HttpConfig) -> TransportSecuritySettings:
    """DNS-rebinding protection: Host must be loopback, the bound address or an allowed
    host; Origin (when sent) loopback or an allowed origin."""
    hosts = [f"{h}:*" for h in LOOPBACK_HOSTS] + [*LOOPBACK_HOSTS]
    if not http.loopback:
        hosts += [http.host, f"{http.host}:*"]
    # A default port written out is the same authority (RFC 9110 §4.2.3): "name" allows "name:443".
    hosts += [f"{h}{port}" for h in http.allowed_hosts for port in ("", *_default_ports(h))]
    origins = [f"http://{h}{port}" for h in LOOPBACK_HOSTS for port in (":*", "")] + [
        f"{o}{port}" for o in http.allowed_origins for port in ("", *_default_ports(o))]
    # Guard lower-cases both headers when they are then allowed: names and schemes are case-insensitive.
    hosts, origins = [h.lower() for h in hosts], [o.lower() for o in origins]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=origins)


def _mask_credential(record: logging.LogRecord) -> bool:
    """A log filter naming, not quoting, a credential in a record (the SDK logs a refused Host or Origin as sent)."""
    described = credentials_in(record.getMessage())
    if described is not None:
        record.msg, record.args = f"refused a header holding {described}", None
    return True


class _Shown(str):
    """A value the SDK's log quotes (``%r``), shown as memvault's messages show one (:func:`shown`)."""

    def __repr__(self) -> str:
        return shown(str(self))


def _uri_shown(record: logging.LogRecord) -> bool:
    """A filter on the SDK's server log: a resource URI it quotes (a failed read's) cut, and one holding a
    credential named, never quoted."""
    if isinstance(record.args, tuple):
        record.args = tuple(_Shown(a) if isinstance(a, str) and a.startswith("memory://") else a
                            for a in record.args)
    return True


def build_app(config: Config, http: HttpConfig, failures: RateLimiter | None = None) -> Starlette:
    """The ASGI application of the team server (nothing is opened until its lifespan runs); ``failures``
    counts refused requests per address (:data:`FAILED_AUTH_PER_MINUTE`)."""
    from .app import build_server
    from .auth import READ, WRITE, JwtVerifier, KeyVerifier, challenge

    # Stateless, the SDK logs "Terminating session: None" for every request (docs/architecture.md).
    logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
    for logger in (log, logging.getLogger("mcp.server.transport_security")):
        logger.addFilter(_mask_credential)
    logging.getLogger("mcp.server.mcpserver.server").addFilter(_uri_shown)
    runtime = Runtime(config, authenticated=http.auth != "none")
    verifier: Any = None
    settings = None
    if http.auth == "keys":
        verifier = KeyVerifier(runtime)
        # The SDK requires AuthSettings with a verifier; without a resource URL it
        # publishes no metadata and never uses the issuer (any URL will do: "::" is no host name).
        settings = AuthSettings(issuer_url="http://localhost", resource_server_url=None)
    elif http.auth == "oauth":
        verifier = JwtVerifier(http, runtime)
        # The verifier checks the audience itself (RFC 8707 resource = this server's URL), and
        # PostOnly the scopes. The SDK would publish its required_scopes as scopes_supported,
        # and require each: memvault publishes the metadata itself (below).
        settings = AuthSettings(issuer_url=http.issuer, resource_server_url=None)
    mcp = build_server(config, runtime=runtime, auth=settings,
                       token_verifier=Verified(verifier) if verifier is not None else None)

    watch = DatabaseWatch(runtime)

    @mcp.custom_route("/healthz", methods=["GET"])
    async def healthz(_: Request) -> Response:
        # Unauthenticated: ready or not and a kind; the database's path, user, host and name stay in the log.
        health = runtime.health(public=True)
        if health["database"] == "opening":
            return JSONResponse({"status": "starting", **health}, status_code=503)
        problem = await watch.problem()
        if problem is not None:
            return JSONResponse({"status": "error", "database": "not ready", "reason": problem[0],
                                 "model": health["model"]}, status_code=503)
        if health["database"] == "not ready":  # calls' reads met damage (the probe's may still be served)
            return JSONResponse({"status": "error", **health}, status_code=503)
        if isinstance(verifier, JwtVerifier) and not verifier.keys.usable():  # every token would get 503
            return JSONResponse({"status": "error", **health, "reason": "issuer keys unreadable"}, status_code=503)
        return JSONResponse({"status": "ok", **health, "database": health["database"]
                             if health["database"] in ("read-only", "damaged") else "ready"})

    security = transport_security(http)
    app = mcp.streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True, max_request_body_size=MAX_BODY_BYTES,
        transport_security=security, host=http.host,
    )
    served = ["POST /mcp", "GET /healthz"]  # and the OAuth metadata's path (below)

    async def not_found(request: Request, exc: Exception) -> Response:  # Starlette's is plain text
        return _error(404, "not_found", f"nothing is at this path; this server answers {', '.join(served)}")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        allow = (getattr(exc, "headers", None) or {}).get("Allow")
        return _error(405, "method_not_allowed", f"{shown(request.method)} is not answered at this path; this "
                      f"server answers {', '.join(served)}", **({"Allow": allow} if allow else {}))

    app.add_exception_handler(404, not_found)
    app.add_exception_handler(405, not_allowed)
    resource_metadata = None
    if http.auth == "oauth":
        assert http.resource and http.issuer
        resource_metadata = str(build_resource_metadata_url(AnyHttpUrl(http.resource)))
        served.append(f"GET {urlsplit(resource_metadata).path}")
        app.router.routes.append(_metadata_route(http, resource_metadata, [READ, WRITE]))
    # Innermost: a refused token still gets 401 first.
    checks = next((m for m in mcp.middleware if isinstance(m, Checks)), None)
    app.user_middleware.append(Middleware(PostOnly, security=security, resource_metadata=resource_metadata,
                                          checks=checks))
    app.add_middleware(Guard, failures=failures or RateLimiter(FAILED_AUTH_PER_MINUTE),
                       limiter=RateLimiter(http.rate_limit) if http.rate_limit else None, watch=watch,
                       challenge=challenge(None, resource_metadata) if verifier is not None else None,
                       verifier=verifier, resource_metadata=resource_metadata,
                       hosts=security.allowed_hosts, origins=security.allowed_origins)
    if http.trusted_proxies:  # outermost: Guard counts failures per client, not per proxy
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(http.trusted_proxies))
    return app


def _metadata_route(http: HttpConfig, url: str, scopes: list[str]) -> Route:
    """RFC 9728's Protected Resource Metadata, served at ``url``'s path: the resource and the issuer
    exactly as configured, which tokens' ``aud`` and ``iss`` must equal (the SDK's route publishes
    them as pydantic URLs, which add a slash to a bare origin: RFC 8414 §3.3 and RFC 9728 §3.3
    compare them exactly), ``scopes``, and bearer tokens in the header only."""
    from mcp.server.auth.routes import cors_middleware

    document = {"resource": http.resource, "authorization_servers": [http.issuer], "scopes_supported": scopes,
                "bearer_methods_supported": ["header"]}

    async def metadata(_: Request) -> Response:
        return JSONResponse(document, headers={"Cache-Control": "public, max-age=3600"})

    return Route(urlsplit(url).path, endpoint=cors_middleware(metadata, ["GET", "OPTIONS"]),
                 methods=["GET", "OPTIONS"])


class CannotListen(MemvaultError):
    """The server's address cannot be bound (port in use, no permission, not this host's)."""


def listen_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port``, as uvicorn would bind it, made before
    uvicorn starts so that a failure stops memvault before anything says it runs.

    Raises:
        CannotListen: naming the address and the reason.
    """
    address = host.strip("[]")
    sock = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((address, port))
    except OSError as exc:
        sock.close()
        reason = "the port is already in use (by another server?)" if exc.errno == errno.EADDRINUSE else \
            exc.strerror or str(exc)
        raise CannotListen(f"cannot listen on {host}:{port}: {reason}; choose another with --port "
                           "(env MEMVAULT_PORT) or --host (env MEMVAULT_HOST)") from exc
    return sock


def _warn_at_start(config: Config, http: HttpConfig) -> None:
    """Log a warning when the database holds no API key (``--auth keys``: every request would get
    401), and when a PostgreSQL database is served by a role with its tables' owner's privileges
    (row-level security then does not hold against SQL in a serving session: docs/postgresql.md)."""
    from memvault.storage import keys
    from memvault.storage.store import Store

    try:
        store = Store(config.db)  # no model: only the keys and the role are read
    except MemvaultError:
        return  # requests get 503 naming the database, and /healthz says why
    try:
        if http.auth == "keys" and not keys.list_keys(store):
            log.warning("no API key in database %s yet: every request gets 401 until "
                        "`memvault keys create --tenant T --db ...` makes one", config.db_label)
        if store.backend.kind == "postgresql" and getattr(store.backend, "owner", False):
            log.warning("serving database %s as a role with the privileges of its tables' owner: row-level "
                        "security keeps every query of memvault to its tenant, but not SQL run in a serving "
                        "session; for a server others reach, serve as a role that owns nothing "
                        "(docs/postgresql.md#one-role-or-two)", config.db_label)
    finally:
        store.close()


def _parser_line(record: logging.LogRecord) -> bool:
    """A filter on uvicorn's log: no line for a request h11 could not read (``Bounded`` counts it instead)."""
    return record.msg != "Invalid HTTP request received."


def _protocol(failures: RateLimiter) -> type:
    """uvicorn's h11 protocol with a deadline for reading a request (encode/uvicorn#157): :data:`READ_GRACE_S`,
    and 1 s more per :data:`READ_MIN_RATE` bytes received; past it 408 in JSON, or, with nothing of a
    request received, the connection closed. Connections counted when they open: beyond
    :data:`CONNECTIONS_PER_ADDRESS` from one address 429, beyond :data:`MAX_CONNECTIONS` 503, in JSON
    (docs/architecture.md). A request h11 cannot read (its head, a chunk, its length) counts against its
    address in ``failures``."""
    import asyncio

    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    open_from: dict[str, int] = {}  # client address -> connections open from it
    logging.getLogger("uvicorn.error").addFilter(_parser_line)

    class Bounded(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _address: str | None = None  # set while the connection is counted
        _refused = False
        _began = 0.0  # the loop's time when reading the request began
        _received = 0  # bytes received since

        def _begin(self) -> None:
            """Count a request's time and bytes from now."""
            self._began, self._received = self.loop.time(), 0
            self._at(self._began + READ_GRACE_S)

        def _at(self, when: float) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self.loop.call_at(when, self._expire)

        def _expire(self) -> None:
            if self._refused:
                self.transport.close()
                return
            # The client's request is whole once h11 says DONE, or MUST_CLOSE when it sent
            # `Connection: close` (or spoke HTTP/1.0), or CLOSED when it shut its side.
            if self.transport.is_closing() or self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED):
                return
            due = self._began + READ_GRACE_S + self._received / READ_MIN_RATE
            if due > self.loop.time():  # bytes came meanwhile: the deadline moved
                self._at(due)
                return
            if self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]:
                # Nothing of a request: an answer would be taken for the answer to the request a
                # client may be sending just now (RFC 9112 §9.5).
                log.info("closed a connection that sent no request in %g s", READ_GRACE_S)
                self.transport.close()
                return
            part = "body" if self.conn.their_state is h11.SEND_BODY else "line and headers"
            seconds = self.loop.time() - self._began
            log.info("cut off a request whose %s arrived too slowly", part)
            self._answer_and_close(408, "request_timeout", (
                f"the request's {part} had not all arrived after {seconds:.0f} s ({self._received:,} bytes of the "
                f"request received): a request has {READ_GRACE_S:g} s, and 1 s more for every {READ_MIN_RATE:,} "
                f"bytes of it received (at least {READ_MIN_RATE:,} bytes a second beyond its first "
                f"{READ_GRACE_S:g} s). This connection is closed"))

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else "unknown"
            if open_from.get(address, 0) >= CONNECTIONS_PER_ADDRESS:
                self._refuse(429, "too_many_connections", f"this address already has {CONNECTIONS_PER_ADDRESS} "
                             "connections open to the server; close one, or retry later")
            elif len(self.connections) > MAX_CONNECTIONS or len(self.tasks) >= MAX_CONNECTIONS:
                self._refuse(503, "server_busy", f"the server has {MAX_CONNECTIONS} connections open; retry later")
            else:
                self._address = address
                open_from[address] = open_from.get(address, 0) + 1
                self._begin()

        def _refuse(self, status: int, error: str, description: str) -> None:
            """Answer before any request, then read and drop what the client sends for a
            moment before closing: closing with its request unread would reset the
            connection, and the client could lose the answer."""
            self.connections.discard(self)  # uncounted, as uvicorn does for a WebSocket upgrade
            self._refused = True
            body = json.dumps(http_refusal(status, error, description)).encode()
            reason = http_status.HTTPStatus(status).phrase
            self.transport.write(f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
                                 f"content-length: {len(body)}\r\nretry-after: {RETRY_AFTER_S}\r\n"
                                 "connection: close\r\n\r\n".encode() + body)
            self._at(self.loop.time() + REFUSED_LINGER_S)

        def _answer_and_close(self, status: int, kind: str, description: str) -> None:
            """memvault's JSON refusal of the request being read, with ``Connection: close``, then what the
            client sends read and dropped for a moment before closing, as in :meth:`_refuse`. The request's
            application task may have started: it must not answer too (a traceback per request). A response
            already begun (a refusal sent before the body was read) is not followed by another: the
            connection is closed."""
            if self.cycle is not None and not self.cycle.response_complete:
                self.cycle.disconnected = True  # as connection_lost sets it, at once: its sends are dropped
                self.cycle.message_event.set()
            if self.conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
                self.transport.close()
                return
            body = json.dumps(http_refusal(status, kind, description)).encode()
            for event in (h11.Response(status_code=status, reason=http_status.HTTPStatus(status).phrase, headers=[
                    (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close")]), h11.Data(data=body), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self._refused = True
            self._at(self.loop.time() + REFUSED_LINGER_S)

        def data_received(self, data: bytes) -> None:
            if not self._refused:
                self._received += len(data)
                super().data_received(data)

        def eof_received(self) -> None:
            if self._refused:
                self.transport.close()

        def on_response_complete(self) -> None:
            self._begin()  # first: a pipelined request h11 refuses in super() is answered, its linger armed
            super().on_response_complete()

        def send_400_response(self, msg: str) -> None:
            # h11 refused what the client sent: memvault's JSON refusal (uvicorn's is plain text).
            failures.charge(_address({"client": self.client}))
            refused = sys.exc_info()[1]  # uvicorn calls this while handling h11's RemoteProtocolError
            said = _H11_HOST.get(str(refused)) if isinstance(refused, h11.RemoteProtocolError) else None
            self._answer_and_close(400, "invalid_request", said or _unread_head(self.conn.trailing_data[0]))

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            if self._address is not None:
                left = open_from.pop(self._address) - 1
                if left:
                    open_from[self._address] = left
                self._address = None
            super().connection_lost(exc)

    return Bounded


def serve(config: Config, http: HttpConfig) -> None:
    """Run the team server until SIGINT/SIGTERM (uvicorn), logging to stderr (no access log:
    a refused query-string token would be written to it).

    Raises:
        CannotListen: the address cannot be bound (nothing was started).
    """
    import uvicorn

    failures = RateLimiter(FAILED_AUTH_PER_MINUTE)
    app = build_app(config, http, failures)  # refuses a setting it cannot use before anything is bound
    sock = listen_socket(http.host, http.port)
    _warn_at_start(config, http)
    log.info("serving MCP over HTTP at http://%s:%d/mcp (auth: %s, database %s)", http.host, http.port, http.auth,
             config.db_label)
    uvicorn.Server(uvicorn.Config(app, host=http.host, port=http.port, log_level="info",
                                  **bounded(failures))).run(sockets=[sock])


def bounded(failures: RateLimiter | None = None) -> dict[str, Any]:
    """uvicorn.Config's settings as the team server serves: the peer's address counted (X-Forwarded-For
    only from ``--trusted-proxy``, read in :func:`build_app`), :func:`_protocol`'s connection caps and read
    deadline, unreadable requests counted in ``failures`` (the app's :class:`Guard`'s), no access log."""
    return {"server_header": False, "access_log": False, "proxy_headers": False, "timeout_keep_alive": 5,
            "http": _protocol(failures or RateLimiter(FAILED_AUTH_PER_MINUTE)),
            "h11_max_incomplete_event_size": HEAD_MAX_BYTES}

