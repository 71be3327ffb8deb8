"""``memvault ui --allow-network``: a sign-in with the team server's authentication
(docs/ui.md#served-to-a-network).

The page takes an API key or an OAuth access token, checked by the team server's own verifier
(``auth.KeyVerifier`` or ``auth.JwtVerifier``, configured as ``memvault serve --transport http`` reads
it), and gives a random session cookie. Each request checks the token again (a revoked key or an
expired JWT ends its session at once); the tenant and read-only state are the token's.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Any

from mcp.server.auth.provider import AccessToken
from starlette.requests import Request

from ..config import HttpConfig
from ..http import FAILED_AUTH_PER_MINUTE, RateLimiter, transport_security
from ..runtime import Runtime

# __Host-: the browser keeps it only when Secure, for this host and path / (RFC 6265bis §4.1.3.2).
COOKIE = "__Host-memvault_ui"
FORM_COOKIE = "__Host-memvault_ui_login"  # a visitor's own before a sign-in: its form's CSRF token's
SESSION_MAX_S = 12 * 3_600  # a key that never expires still signs in again twice a day
SESSIONS_MAX = 1_000  # sessions held at once; then a sign-in is refused (no one else's session ends)
SESSIONS_PER_IDENTITY = 20  # sessions of one key (or OAuth client and subject); its own oldest ends first


class Full(Exception):
    """Every session place is held (:data:`SESSIONS_MAX`): a sign-in is refused, no session ended."""


class Logins:
    """The sessions of one UI process: cookie value -> the token it signed in with; ``hosts`` and
    ``origins`` (``host:*`` patterns allowed) are the team server's; sign-in attempts (successes too)
    are limited per client address as the team server limits failed authentications."""

    def __init__(self, verifier: Any, http: HttpConfig) -> None:
        security = transport_security(http)
        self.verifier, self.hosts, self.origins = verifier, security.allowed_hosts, security.allowed_origins
        self.attempts = RateLimiter(FAILED_AUTH_PER_MINUTE)
        self._secret = secrets.token_bytes(32)
        # session -> (token, its caller_of, time.monotonic() of sign-in), oldest first
        self._held: dict[str, tuple[str, str, float]] = {}

    def csrf(self, session: str | None, form: str = "") -> str:
        """The CSRF token of the forms of ``session`` (None: the sign-in form of the visitor whose
        :data:`FORM_COOKIE` is ``form``), hex."""
        return hmac.new(self._secret, f"csrf {session or ''} {form}".encode(), hashlib.sha256).hexdigest()

    async def start(self, token: str) -> str:
        """A new session for ``token`` once the verifier accepts it (attempts are counted before, by
        the caller: ``attempts``); the identity's own oldest session ends beyond
        :data:`SESSIONS_PER_IDENTITY`.

        Raises:
            TokenRefused: the verifier's refusal, or a token without the memvault:read or memvault:write
                scope. IssuerUnreachable: not judged now. Full: :data:`SESSIONS_MAX` sessions are held.
        """
        from ..auth import caller_of

        who = caller_of(await self.who(token))
        now = time.monotonic()
        for old in [s for s, (_, _, at) in self._held.items() if now - at > SESSION_MAX_S]:
            self.end(old)
        own = [s for s, (_, whose, _) in self._held.items() if whose == who]
        for old in own[:max(0, len(own) - SESSIONS_PER_IDENTITY + 1)]:
            self.end(old)
        if len(self._held) >= SESSIONS_MAX:
            raise Full(f"all {SESSIONS_MAX:,} sessions are in use: retry later, or ask the operator")
        session = secrets.token_urlsafe(32)
        self._held[session] = (token, who, now)
        return session

    async def who(self, token: str) -> AccessToken:
        """``token`` as the verifier reads it now.

        Raises:
            TokenRefused: refused, or without a memvault scope; IssuerUnreachable: not judged now.
            MemvaultError: the keys could not be read.
        """
        from ..auth import TokenRefused

        verified: AccessToken = await self.verifier.verify_token(token)
        if not verified.scopes:  # an OAuth token with neither memvault scope
            raise TokenRefused("the token grants neither memvault:read nor memvault:write")
        return verified

    async def session(self, session: str) -> AccessToken | None:
        """The identity of ``session`` checked now, or None when there is no such session.

        Raises:
            TokenRefused: its token is refused now (revoked, expired) or it is over ``SESSION_MAX_S``
                old; the session is ended.
        """
        from ..auth import TokenRefused

        held = self._held.get(session)
        if held is None:
            return None
        try:
            if time.monotonic() - held[2] > SESSION_MAX_S:
                raise TokenRefused(f"sessions last at most {SESSION_MAX_S // 3_600} hours")
            return await self.who(held[0])
        except TokenRefused:
            self.end(session)
            raise

    def end(self, session: str) -> None:
        """Forget ``session`` (sign-out); nothing when it is not held."""
        self._held.pop(session, None)


def address(request: Request) -> str:
    """The client address whose sign-ins are counted: the peer's (the proxy's, behind one: see
    docs/team-server-security.md), never X-Forwarded-For (served with ``proxy_headers=False``)."""
    return request.client.host if request.client else "unknown"


def network(runtime: Runtime, http: HttpConfig) -> Logins:
    """The sign-in of a UI served to the network, with the team server's verifier for ``http``.

    Raises:
        ValueError: ``--auth none``, or ``--auth keys`` and the database holds no key in force: naming
            what to configure.
    """
    from memvault.storage import keys
    from memvault.storage.store import Store

    from ..auth import JwtVerifier, KeyVerifier

    if http.auth == "oauth":
        return Logins(JwtVerifier(http), http)
    if http.auth != "keys":
        raise ValueError("--allow-network serves the page with the team server's authentication: give "
                         "--auth keys (API keys, the default) or --auth oauth (env MEMVAULT_AUTH), not none")
    store = Store(runtime.config.db, None)  # no model: only the keys are read
    try:
        now, found = store.clock(), keys.list_keys(store)
    finally:
        store.close()
    if not any(key.refusal(now) is None for key in found):
        raise ValueError(f"--allow-network: no API key in force in database {runtime.config.db_label}, so "
                         "nobody could sign in: make one with `memvault keys create --tenant T` (or use "
                         "--auth oauth)")
    return Logins(KeyVerifier(runtime), http)
