"""``memvault serve --transport http``: MCP over streamable HTTP for a team.

The SDK's streamable HTTP transport (``MCPServer.streamable_http_app``) at ``/mcp``
in stateless mode with JSON responses: no session lives in the process, so several
processes (behind one load balancer) can share one database. Around it:

- authentication by the SDK's bearer middleware with memvault's verifiers
  (``server.auth``): 401 with an RFC 6750 §3 ``WWW-Authenticate`` challenge, bare
  when no token was sent (:class:`Guard`), ``error="invalid_token"`` with the reason
  when one was refused (:func:`_on_refused_token`); for OAuth, the Protected Resource
  Metadata of RFC 9728 via ``AuthSettings``, named in every challenge;
- DNS-rebinding protection (the SDK's transport security: Host and Origin must be
  loopback or explicitly allowed), always on; no CORS headers are ever sent;
- :class:`Guard`: a token in the query string is refused (RFC 6750 §2.3 allows it;
  RFC 9700 §2.4.2 / OAuth 2.1 forbid it), and an address with too many failed
  authentications gets 429; :class:`CallerLimit`, after authentication, rate-limits each
  verified caller (429 with ``Retry-After``);
- the request body bounded (``MAX_BODY_BYTES``, 413 beyond);
- :class:`PostOnly`: the DNS-rebinding refusals (421, 403) as JSON like the others, and
  GET, DELETE and any other method on ``/mcp`` get 405 (``Allow: POST``);
- ``GET /healthz``: database and model readiness, no authentication, no secrets.

TLS is the reverse proxy's job (README, "Team server (HTTP)").
"""

from __future__ import annotations

import errno
import logging
import math
import socket
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

import anyio
from mcp.server.auth.routes import build_resource_metadata_url
from mcp.server.auth.settings import AuthSettings
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from memvault.storage.errors import MemvaultError, credentials_in

from .config import Config, HttpConfig
from .runtime import Runtime

if TYPE_CHECKING:
    from starlette.applications import Starlette

log = logging.getLogger(__name__)
MAX_BODY_BYTES = 256 * 1024  # a memory is at most 8,000 characters: JSON-escaped, far below this
UNAVAILABLE = "the database cannot be opened; the server's log says which and why"
# Connections and requests served at once; beyond, uvicorn answers 503 (docs/team-server-security.md).
MAX_CONNECTIONS = 100
FAILED_AUTH_PER_MINUTE = 60  # per client address; a guesser of keys is held to this (docs/team-server-security.md)
QUERY_TOKEN_NAMES = frozenset({"access_token", "token", "api_key", "apikey", "key", "bearer"})
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


class RateLimiter:
    """A token bucket per client token: ``per_minute`` requests, refilled continuously
    (a burst of up to ``per_minute`` at once). ``clock`` gives seconds."""

    def __init__(self, per_minute: int, clock: Any = time.monotonic) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def wait_s(self, who: str, count: bool = True) -> float:
        """0 when ``who`` may make a request now (and counts it, unless ``count`` is false);
        else seconds until it may."""
        now = self.clock()
        if len(self._buckets) > 10_000:  # forget clients idle for a minute: their bucket is full again
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
        tokens, then = self._buckets.get(who, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - then) * self.rate)
        if tokens < 1:
            self._buckets[who] = (tokens, now)
            return (1 - tokens) / self.rate
        if count:
            self._buckets[who] = (tokens - 1, now)
        return 0.0


def _too_many(wait: float, whose: str) -> Response:
    retry = max(1, math.ceil(wait))
    return JSONResponse({"error": "rate_limited", "error_description": f"too many requests {whose}; retry in {retry} s"},
                        status_code=429, headers={"Retry-After": str(retry)})


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class Guard:
    """ASGI middleware in front of ``/mcp``, before authentication: refuses tokens in the
    query string (400), a client address with too many failed authentications
    (``failures``, 429 with ``Retry-After``), a request without a bearer token when
    ``challenge`` is set (401 with that ``WWW-Authenticate``, counted as a failure), and
    answers 503 naming the cause while the database cannot be opened (the next request
    tries again)."""

    def __init__(self, app: ASGIApp, failures: RateLimiter, runtime: Runtime, challenge: str | None = None,
                 path: str = "/mcp") -> None:
        self.app = app
        self.failures = failures
        self.runtime = runtime
        self.challenge = challenge
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        named = sorted({name for name, _ in parse_qsl(query, keep_blank_values=True)} & QUERY_TOKEN_NAMES)
        if named:
            log.warning("refused a request with a token in the query string (parameter %s)", named[0])
            response: Response = JSONResponse({
                "error": "invalid_request",
                "error_description": f"query parameter {named[0]!r}: tokens are accepted only in the "
                "Authorization header (Authorization: Bearer <token>)",
            }, status_code=400)
            await response(scope, receive, send)
            return
        if self.challenge is not None:
            wait = self.failures.wait_s(_address(scope), count=False)
            if wait > 0:
                await _too_many(wait, "with failed authentication from this address")(scope, receive, send)
                return
        header = Request(scope).headers.get("authorization")
        if self.challenge is not None and not (header or "").lower().startswith("bearer "):
            log.warning("refused a request without a bearer token")
            self.failures.wait_s(_address(scope))
            response = JSONResponse({"error_description": "authentication required: send Authorization: Bearer "
                                     "<token>"}, status_code=401, headers={"WWW-Authenticate": self.challenge})
            await response(scope, receive, send)
            return
        try:
            await anyio.to_thread.run_sync(self.runtime.store)
        except MemvaultError as exc:
            # Before authentication: only a server without it (loopback) names the database to the client.
            response = JSONResponse({"error": "database_unavailable",
                                     "error_description": str(exc) if self.challenge is None else UNAVAILABLE},
                                    status_code=503, headers={"Retry-After": "5"})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class PostOnly:
    """ASGI middleware just in front of the SDK's ``/mcp`` endpoint (after authentication):
    the DNS-rebinding checks (``security``) for every method, answered in the JSON error
    shape of the server's other refusals (:func:`_json_refusal`: the SDK answers them as
    plain text), then 405 with ``Allow: POST`` and a JSON-RPC error body for every method
    but POST.

    The server is stateless with JSON responses: it has no server-initiated stream to
    offer on GET (the SDK would answer ``200 text/event-stream`` and never end it) and no
    session to end on DELETE. The streamable HTTP transport lets such a server answer
    405 to both. The DNS-rebinding checks (Host 421, Origin 403, and for POST a
    Content-Type other than JSON 400) come first, as the SDK's transport orders them.
    """

    ALLOWED = "POST"

    def __init__(self, app: ASGIApp, security: TransportSecuritySettings, path: str = "/mcp") -> None:
        self.app = app
        self.security = TransportSecurityMiddleware(security)
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        post = scope["method"] == self.ALLOWED
        refused = await self.security.validate_request(Request(scope, receive), is_post=post)  # headers only
        if refused is not None:
            await _json_refusal(refused.status_code)(scope, receive, send)
            return
        if post:
            await self.app(scope, receive, send)
            return
        response = JSONResponse(
            {"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600, "message": f"Method Not Allowed: {scope['method']} /mcp; this stateless server "
                "answers POST only (no server-initiated stream, no session to end)"}},
            status_code=405, headers={"Allow": self.ALLOWED},
        )
        await response(scope, receive, send)


class CallerLimit:
    """ASGI middleware after authentication: a token bucket per verified caller (the API
    key's id, or the OAuth client and subject), however the ``Authorization`` header was
    spelt; 429 with ``Retry-After``."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter, path: str = "/mcp") -> None:
        self.app = app
        self.limiter = limiter
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        user = scope.get("user") if scope["type"] == "http" and scope["path"].rstrip("/") == self.path else None
        token = getattr(user, "access_token", None)
        if token is not None:
            wait = self.limiter.wait_s(f"{token.client_id}\x00{token.subject or ''}")
            if wait > 0:
                await _too_many(wait, "for this key")(scope, receive, send)
                return
        await self.app(scope, receive, send)


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
    """The SDK's refusal of a request's headers with ``status``, in the shape of the
    server's other errors: ``{"error": ..., "error_description": ...}``."""
    error, description = _HEADER_REFUSALS.get(status, ("invalid_request", "the request's headers were refused"))
    return JSONResponse({"error": error, "error_description": description}, status_code=status)


def transport_security(http: HttpConfig) -> TransportSecuritySettings:
    """DNS-rebinding protection: Host must be loopback, the bound address or an allowed
    host; Origin (when sent) loopback or an allowed origin."""
    hosts = [f"{h}:*" for h in LOOPBACK_HOSTS] + [*LOOPBACK_HOSTS]
    if not http.loopback:
        hosts += [http.host, f"{http.host}:*"]
    hosts += list(http.allowed_hosts)
    origins = [f"http://{h}:*" for h in LOOPBACK_HOSTS] + list(http.allowed_origins)
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=origins)


def _on_refused_token(resource_metadata: str | None, failures: RateLimiter) -> Any:
    """Starlette ``AuthenticationMiddleware``'s ``on_error``: a refused token
    (:class:`~memvault.server.auth.TokenRefused`) gets 401 with its reason, and counts
    against its client address in ``failures``."""
    from .auth import TokenRefused, challenge

    def respond(connection: HTTPConnection, exc: Exception) -> Response:
        failures.wait_s(_address(connection.scope))
        description = exc.description if isinstance(exc, TokenRefused) else "invalid token"
        return JSONResponse({"error": "invalid_token", "error_description": description}, status_code=401,
                            headers={"WWW-Authenticate": challenge(description, resource_metadata)})

    return respond


class _CredentialMask(logging.Filter):
    """Rewrites a log record whose message holds a credential to name it instead
    (``errors.credentials_in``): the SDK logs a refused Host or Origin header as sent."""

    def filter(self, record: logging.LogRecord) -> bool:
        described = credentials_in(record.getMessage())
        if described is not None:
            record.msg, record.args = f"refused a header holding {described}", None
        return True


def _mask_credentials(logger: logging.Logger) -> None:
    if not any(isinstance(f, _CredentialMask) for f in logger.filters):
        logger.addFilter(_CredentialMask())


def build_app(config: Config, http: HttpConfig) -> Starlette:
    """The ASGI application of the team server (nothing is opened until its lifespan runs)."""
    from .app import build_server
    from .auth import READ, JwtVerifier, KeyVerifier, challenge

    # In stateless mode the SDK logs "Terminating session: None" at INFO for every request
    # (a new-user trial counted 53 lines in a short session); its warnings and errors still show.
    logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
    _mask_credentials(logging.getLogger("mcp.server.transport_security"))
    runtime = Runtime(config, authenticated=http.auth != "none")
    verifier: Any = None
    settings = None
    if http.auth == "keys":
        verifier = KeyVerifier(runtime)
        # The SDK requires AuthSettings with a verifier; without a resource URL it
        # publishes no metadata and never uses the issuer (any URL will do: "::" is no host name).
        settings = AuthSettings(issuer_url="http://localhost", resource_server_url=None)
    elif http.auth == "oauth":
        verifier = JwtVerifier(http)
        # The verifier checks the audience itself (RFC 8707 resource = this server's URL).
        # A token granting neither memvault scope gets 403 insufficient_scope (RFC 6750 §3.1);
        # the metadata's scopes_supported is this list.
        settings = AuthSettings(issuer_url=http.issuer, resource_server_url=http.resource,
                                validate_token_resource=False, required_scopes=[READ])
    mcp = build_server(config, runtime=runtime, auth=settings, token_verifier=verifier)
    failures = RateLimiter(FAILED_AUTH_PER_MINUTE)

    @mcp.custom_route("/healthz", methods=["GET"])
    async def healthz(_: Request) -> Response:
        health = runtime.health()
        ready = health["database"] == "ready"
        status = "ok" if ready else "error" if health["database"].startswith("error") else "starting"
        if status == "error":  # unauthenticated: the database's user, host and name stay in the log
            health["database"] = f"error: {UNAVAILABLE}"
        return JSONResponse({"status": status, **health}, status_code=200 if ready else 503)

    security = transport_security(http)
    app = mcp.streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True, max_request_body_size=MAX_BODY_BYTES,
        transport_security=security, host=http.host,
    )
    resource_metadata = str(build_resource_metadata_url(settings.resource_server_url)) \
        if settings is not None and settings.resource_server_url else None
    if verifier is not None:
        # The SDK builds Starlette's AuthenticationMiddleware without ``on_error``; its
        # default would turn a refused token into a 400.
        [authentication] = [m for m in app.user_middleware if m.cls is AuthenticationMiddleware]
        authentication.kwargs["on_error"] = _on_refused_token(resource_metadata, failures)
    # Innermost: a refused token still gets 401 first.
    app.user_middleware.append(Middleware(PostOnly, security=security))
    if http.rate_limit:
        app.user_middleware.append(Middleware(CallerLimit, limiter=RateLimiter(http.rate_limit)))
    app.add_middleware(Guard, failures=failures, runtime=runtime,
                       challenge=challenge(None, resource_metadata) if verifier is not None else None)
    return app


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


def _warn_without_keys(config: Config) -> None:
    """Log a warning when the database holds no API key: every request would get 401."""
    from memvault.storage import keys
    from memvault.storage.errors import MemvaultError
    from memvault.storage.store import Store

    try:
        store = Store(config.db)  # no model: only the keys are read
    except MemvaultError:
        return  # requests get 503 naming the database, and /healthz says why
    try:
        if not keys.list_keys(store):
            log.warning("no API key in database %s yet: every request gets 401 until "
                        "`memvault keys create --tenant T --db ...` makes one", config.db_label)
    finally:
        store.close()


def serve(config: Config, http: HttpConfig) -> None:
    """Run the team server until SIGINT/SIGTERM (uvicorn), logging to stderr (no access log:
    a refused query-string token would be written to it).

    Raises:
        CannotListen: the address cannot be bound (nothing was started).
    """
    import uvicorn

    app = build_app(config, http)  # refuses a setting it cannot use before anything is bound
    sock = listen_socket(http.host, http.port)
    if http.auth == "keys":
        _warn_without_keys(config)
    log.info("serving MCP over HTTP at http://%s:%d/mcp (auth: %s, database %s)", http.host, http.port, http.auth,
             config.db_label)
    uvicorn.Server(uvicorn.Config(
        app, host=http.host, port=http.port, log_level="info", server_header=False,
        access_log=False, proxy_headers=False, limit_concurrency=MAX_CONNECTIONS, timeout_keep_alive=5,
    )).run(sockets=[sock])

