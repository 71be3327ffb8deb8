"""What every request to ``memvault ui`` passes before a page sees it (docs/ui.md#security).

Host must be the address the page was opened on (DNS rebinding); the process's token, given once
in the URL (as Jupyter does), becomes an HttpOnly SameSite=Strict cookie and the URL is redirected
without it; a POST must come from the page's own origin, be a form of at most ``FORM_MAX_BYTES``, and
carry the CSRF token the page's forms hold (a synchronizer token: an HMAC of the process's token, so a
page of another origin, which cannot read ours, cannot know it). Tokens are compared in constant time.
Every answer is ``Cache-Control: no-store`` and may not be framed. Served to the network
(:class:`Logins`), a sign-in replaces the URL's token: hosts and origins are the team server's, the
sign-in form's CSRF token is its visitor's (made of the cookie ``/login`` sets), and each request's
identity is its session's, checked again (``scope["user"]``, read by the SDK's auth context).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, urlencode

from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from starlette.datastructures import URL, Headers
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from memvault.storage.errors import MemvaultError

from ..http import LOOPBACK_HOSTS, allowed
from .login import COOKIE as SIGNED_IN
from .login import FORM_COOKIE, Logins, address

Scope = MutableMapping[str, Any]
ASGI = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]
COOKIE = "memvault_ui"
# A form's whole body: a memory's content is at most 8,000 characters, 72,000 bytes url-encoded at worst.
FORM_MAX_BYTES = 128 * 1024
FORM_MAX_FIELDS = 16
# Referrer-Policy same-origin: with no-referrer Chromium sends `Origin: null` with the page's own forms.
HEADERS = {"cache-control": "no-store", "x-frame-options": "DENY", "referrer-policy": "same-origin",
           "x-content-type-options": "nosniff",
           "content-security-policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'"}


def csrf_token(token: str) -> str:
    """The CSRF token of the process whose URL token is ``token`` (hex)."""
    return hmac.new(token.encode(), b"memvault ui csrf", hashlib.sha256).hexdigest()


class Refused(Exception):
    """A request the gate refuses: ``status``, a ``title`` and a sentence saying what to do."""

    def __init__(self, status: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status, self.title, self.message = status, title, message


class Gate:
    """ASGI middleware around the UI's routes; ``page(request, Refused)`` renders a refusal."""

    def __init__(self, app: ASGI, token: str, origins: list[str],
                 page: Callable[[Request, Refused], Response], logins: Logins | None = None) -> None:
        """``token`` opens the page on ``origins``; or, with ``logins``, a sign-in does (``token`` unused)."""
        self.app, self.token, self.page, self.logins = app, token, page, logins
        self.origins = [o.lower() for o in (logins.origins if logins else origins)]
        self.hosts = logins.hosts if logins else [o.split("://", 1)[1] for o in self.origins]
        self.csrf = csrf_token(token)
        if logins is not None:
            self.app = AuthContextMiddleware(app)  # the session's identity for Runtime.identity()
        # The cookie holds a value of its own, not the URL's token, under a name of this port: a browser
        # sends 127.0.0.1's cookies to every port (docs/ui.md#security).
        self.session = secrets.token_urlsafe(32)
        self.cookie = f"{COOKIE}_{self.hosts[0].rsplit(':', 1)[-1]}"

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []),
                                      *((k.encode(), v.encode()) for k, v in HEADERS.items())]
            await send(message)

        request = Request(scope, receive)
        try:
            answer = await self._check(request)
        except Refused as refused:
            answer = self.page(request, refused)
        if answer is not None:
            return await answer(scope, receive, with_headers)
        await self.app(scope, receive, with_headers)

    async def _check(self, request: Request) -> Response | None:
        """None to go on to the page, or the answer (a redirect that sets the cookie)."""
        headers = request.headers
        if not allowed(headers.get("host", "").lower(), self.hosts):
            raise Refused(421, "Wrong Host", f"this page answers only as {', '.join(self.hosts)}: open the "
                          "URL `memvault ui` printed")
        if self.logins is not None:
            return await self._signed_in(request, self.logins)
        given = request.query_params.get("token")
        if given is not None:
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                raise Refused(403, "Wrong token", "the token in the URL is not this server's: open the URL "
                              "`memvault ui` printed (a new start makes a new token)")
            rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
            url = URL(scope=request.scope).replace(query=urlencode(rest))
            path = "/" + url.path.lstrip("/")  # never "//host/": a redirect to another site
            answer = RedirectResponse(f"{path}?{url.query}" if url.query else path, 303)
            answer.set_cookie(self.cookie, self.session, httponly=True, samesite="strict", path="/")
            return answer
        if request.url.path.startswith("/static/"):
            return None  # the stylesheet holds no memory
        cookie = request.cookies.get(self.cookie, "")
        if not hmac.compare_digest(cookie.encode(), self.session.encode()):
            raise Refused(403, "Token missing", "open the URL with its token that `memvault ui` printed "
                          "when it started")
        request.state.csrf = self.csrf
        return await self._method(request)

    async def _method(self, request: Request) -> None:
        """A POST's form, read and checked, into ``request.state.form``; methods but GET and HEAD refused."""
        if request.method == "POST":
            request.state.form = await self._form(request, request.headers, request.state.csrf)
        elif request.method not in ("GET", "HEAD"):
            raise Refused(405, "Method not allowed", f"{request.method} is not served here")

    async def _signed_in(self, request: Request, logins: Logins) -> Response | None:
        """Served to the network: the sign-in page for anyone, every other page for a session whose
        token the team server's verifier accepts now (its identity then in ``scope["user"]``)."""
        from ..auth import IssuerUnreachable, TokenRefused

        if request.url.path == "/login" or request.url.path.startswith("/static/"):
            form = request.cookies.get(FORM_COOKIE, "")
            if request.method == "POST":
                self._may_sign_in(request, logins, form)
            # The sign-in form's CSRF token is this visitor's: /login sets the cookie it is made of.
            request.state.form_cookie = form or secrets.token_urlsafe(32)
            request.state.csrf = logins.csrf(None, request.state.form_cookie)
            return await self._method(request)
        session = request.cookies.get(SIGNED_IN, "")
        unchecked = "; nothing was changed"
        try:
            verified = await logins.session(session) if session else None
        except IssuerUnreachable as exc:
            raise Refused(503, "Cannot check your sign-in", f"{exc.description} (in {exc.retry_s} s)"
                          + unchecked) from None
        except TokenRefused as exc:
            raise Refused(401, "Signed out", f"your session ended: {exc.description}. Sign in again at "
                          "/login" + unchecked) from None
        except MemvaultError as exc:
            raise Refused(503, "Cannot check your sign-in", f"the keys could not be read "
                          f"({type(exc).__name__})" + unchecked) from None
        if verified is None:
            if request.method in ("GET", "HEAD"):
                return RedirectResponse("/login", 303)
            raise Refused(401, "Not signed in", "sign in at /login first" + unchecked)
        request.scope["user"] = AuthenticatedUser(verified)
        request.state.csrf, request.state.session = logins.csrf(session), session
        return await self._method(request)

    @staticmethod
    def _may_sign_in(request: Request, logins: Logins, form: str) -> None:
        """Count the sign-in against its address, before anything is verified, and refuse it over the
        limit (the team server's for failed authentications), without the sign-in page's cookie
        ``form``, or sent from a plain-http page of another host (its Secure cookie would be lost)."""
        wait = logins.attempts.wait_s(address(request))
        if wait > 0:
            raise Refused(429, "Too many sign-ins", "too many sign-ins from this address: retry in "
                          f"{math.ceil(wait)} s; nothing was checked")
        if not form:
            raise Refused(403, "Sign-in page expired", "this sign-in was not sent from the sign-in page "
                          "(its cookie is missing): open /login again; nothing was checked")
        origin = request.headers.get("origin", "")
        if origin.startswith("http://") and not origin.startswith(LOOPBACK):
            raise Refused(403, "Sign in over https", "the session cookie is Secure and your key would cross "
                          "the network in clear: open the page through https (a TLS proxy in front, "
                          "docs/team-server.md); nothing was checked")

    async def _form(self, request: Request, headers: Headers, csrf: str) -> dict[str, str]:
        """The POST's form fields, once its origin, size and CSRF token (``csrf``) are checked."""
        origin = headers.get("origin")
        if origin is not None and not allowed(origin.lower(), self.origins):
            raise Refused(403, "Wrong origin", "this form was sent from another site: nothing was changed")
        if headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
            raise Refused(415, "Not a form", "send the page's own form: nothing was changed")
        declared = headers.get("content-length", "")
        too_large = Refused(413, "Form too large", f"the form is over {FORM_MAX_BYTES:,} bytes; a memory "
                            "holds at most 8,000 characters: nothing was changed")
        if declared.isdigit() and int(declared) > FORM_MAX_BYTES:
            raise too_large
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > FORM_MAX_BYTES:  # sent without a length, or longer than it said
                raise too_large
        try:
            pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False,
                              max_num_fields=FORM_MAX_FIELDS)
        except (UnicodeDecodeError, ValueError) as exc:
            raise Refused(400, "Unreadable form", f"the form could not be read ({exc}): nothing was "
                          "changed") from exc
        form = dict(pairs)
        if not hmac.compare_digest(form.pop("csrf", "").encode(), csrf.encode()):
            raise Refused(403, "Form expired or forged", "this form's CSRF token is not the one this page was "
                          "given (a form from another sign-in, another browser or before a restart): reload "
                          "the page and send it again; nothing was changed")
        return form


LOOPBACK = tuple(f"http://{name}:" for name in LOOPBACK_HOSTS)
