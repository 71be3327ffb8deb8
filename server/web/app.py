"""The pages of ``memvault ui`` (docs/ui.md): Starlette routes over the same handlers and Store calls the
MCP tools use, run by :class:`Runtime` (the process's tenant and scope, off the event loop).

Every write is a POST (checked by :class:`Gate`) answered by a redirect; a refused one is a page
saying why, with nothing changed (the Store's own checks: one transaction per write).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from memvault.storage import history, limits, literal, maintenance, validate
from memvault.storage.consolidate import LAST_RUN
from memvault.storage.errors import Conflict, InvalidInput, MemvaultError, NotFound
from memvault.storage.ranking import ANSWER_CONFIDENCE, SURE_CONFIDENCE
from memvault.storage.literal import printable
from memvault.storage.secrets import redact
from memvault.storage.strength import strength
from memvault.storage.timefmt import format_ms
from memvault.tools import boot, handlers
from memvault.tools.caller import Caller

from ..auth import NotAuthenticated, ReadOnly
from ..runtime import Runtime
from .gate import Gate, Refused
from .login import COOKIE, FORM_COOKIE, Full, Logins

PAGE_SIZE = 20  # memories a listing page shows
LISTED_CHARS = 600  # of a memory's text a list shows (its own page shows it whole)
TURNS_PAGE = 100  # turns a session page shows
SESSIONS_SHOWN = 50
STATUS = {NotFound: 404, InvalidInput: 400, Conflict: 409, ReadOnly: 403, NotAuthenticated: 401}
DONE = {"forgotten": "Forgotten: the text is erased; a tombstone stays in the history.",
        "already": "It was already forgotten: nothing changed."}


def _whole(text: str | None) -> int | str | None:
    """The integer typed, else the text (the field's own check refuses it with its range): also one of
    over 19 digits, beyond every field's range (and past 4,300, more than ``int`` reads)."""
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 19 else (text or None)


def _shown(text: str | None) -> str:
    """Stored text as the page shows it: a credential stored with --allow-secrets is named, never shown;
    control and format characters written as ``\\uXXXX`` (:func:`literal.printable`)."""
    return printable(redact(text)[0]) if text else ""


def _listed(text: str | None) -> str:
    """:func:`_shown`, cut to ``LISTED_CHARS`` with how long the whole is when longer."""
    shown = _shown(text)
    if len(shown) <= LISTED_CHARS:
        return shown
    return f"{shown[:LISTED_CHARS]}… ({len(shown):,} characters: open it to read it whole)"


def _as_sent(text: str) -> str:
    """``text`` as a browser sends it back from an edit box, CRLF made LF: every line break one LF
    (HTML's form submission makes each CR, LF and CRLF a CRLF)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _editable(text: str | None) -> str:
    """Stored text as an edit box holds it: what is saved back, so only credentials are named."""
    return redact(text)[0] if text else ""


def build(runtime: Runtime, token: str, origins: list[str], lifespan: Any = None,
          logins: Logins | None = None) -> Gate:
    """The UI's ASGI app for ``runtime``: ``token`` opens it, ``origins`` (``http://127.0.0.1:8000``) are
    the addresses it answers as; or, with ``logins`` (``runtime`` authenticated), a sign-in with the team
    server's authentication does. ``lifespan`` is Starlette's."""
    env = Environment(loader=PackageLoader("memvault.server.web"), autoescape=select_autoescape(default=True))
    env.filters["shown"] = _shown
    env.filters["editable"] = _editable
    env.filters["listed"] = _listed
    env.filters["day"] = lambda iso: (iso or "")[:10]
    env.filters["seg"] = lambda value: quote(str(value), safe="")  # an id as one path segment
    env.globals.update(weak=ANSWER_CONFIDENCE, sure=SURE_CONFIDENCE, network=logins is not None)

    def page(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        try:
            who = runtime.identity()
        except NotAuthenticated:  # served to the network, before a sign-in
            who = None
        values = {"csrf": getattr(request.state, "csrf", ""), "who": who, "path": request.url.path, **values}
        return HTMLResponse(env.get_template(name).render(**values), status)

    def refused(request: Request, exc: Exception) -> Response:
        if isinstance(exc, Refused):
            return page(request, "error.html", exc.status, title=exc.title, message=exc.message)
        if isinstance(exc, HTTPException):  # no such page (404) or method (405)
            return page(request, "error.html", exc.status_code, title="Not here", message=exc.detail)
        status = next((code for kind, code in STATUS.items() if isinstance(exc, kind)), 503)
        # A change refused on a memory's page: back to that page (not when the memory is not found).
        parts = request.url.path.split("/")
        back = f"/memories/{quote(parts[2], safe='')}" if request.method == "POST" and len(parts) > 3 \
            and parts[1] == "memories" and status != 404 else None
        return page(request, "error.html", status, title="Not done", message=str(exc), back=back)

    call = runtime.call

    async def memories(request: Request) -> Response:
        q = request.query_params
        query, scope = q.get("q", "").strip(), q.get("scope") or None
        filters = {"kinds": [q["kind"]] if q.get("kind") else None,
                   "tags": [q["tag"]] if q.get("tag") else None,
                   "since": q.get("since") or None, "until": q.get("until") or None}
        if query:
            found = await call(handlers.recall, query=query, scope=scope, limit=PAGE_SIZE, **filters)
        else:
            found = await call(handlers.list_memories, scope=scope, limit=PAGE_SIZE, cursor=q.get("cursor"),
                               **filters)
        scopes = await call(lambda store, caller: store.scope_counts(tenant=caller.tenant))
        after = {k: v for k, v in q.multi_items() if k not in ("cursor", "done")}
        return page(request, "memories.html", found=found, query=query, q=q, scopes=scopes,
                    kinds=limits.KINDS, kept=after, done=DONE.get(q.get("done", "")))

    def viewed(store: Any, caller: Caller, memory_id: str) -> tuple[dict[str, Any], str | None]:
        """The memory's view (``handlers.memory_view``) and the session it is the digest of, if any."""
        view = handlers.memory_view(store, caller, memory_id)
        return view, history.digest_session(view["memory"].get("source"), view["memory"].get("tags", ()))

    async def memory(request: Request) -> Response:
        view, session = await call(viewed, memory_id=request.path_params["id"])
        return page(request, "memory.html", view=view, m=view["memory"], session=session, kinds=limits.KINDS)

    async def supersede(request: Request) -> Response:
        form = request.state.form
        if form.get("by"):  # by a memory already stored: the newer of a contradicting pair (the review page)
            done = await call(handlers.supersede, writes=True, id=request.path_params["id"], by=form["by"],
                              reason=form.get("reason") or None)
            return RedirectResponse(f"/memories/{done.id}", 303)
        # Tags left as shown are kept as they are (a tag may hold a comma); a browser sends CRLF line breaks.
        given = form.get("tags", "")
        tags = None if given == form.get("tags_shown") else [t.strip() for t in given.split(",") if t.strip()]
        content = form.get("content", "").replace("\r\n", "\n")
        old = await call(lambda store, caller: store.get(tenant=caller.tenant, id=request.path_params["id"]))
        if old.content is not None and content == _as_sent(old.content):
            content = old.content  # the text left as shown keeps its own line breaks (a lone CR)
        # The same text with other tags, kind or importance is the same observation: it keeps its time.
        observed = format_ms(old.observed_at) if content == old.content else None
        done = await call(handlers.supersede, writes=True, id=request.path_params["id"], content=content,
                          reason=form.get("reason") or None, kind=form.get("kind") or None, tags=tags,
                          importance=_whole(form.get("importance")), observed_at=observed)
        return RedirectResponse(f"/memories/{done.id}", 303)

    async def confirm(request: Request) -> Response:
        beside = request.state.form.get("beside") or None  # the newer of a pair both holding (the review page)
        done = await call(handlers.confirm, writes=True, id=request.path_params["id"], beside=beside)
        return RedirectResponse(f"/memories/{done.id}", 303)

    async def forget(request: Request) -> Response:
        if request.method == "GET":  # the confirmation step
            view, session = await call(viewed, memory_id=request.path_params["id"])
            return page(request, "forget.html", m=view["memory"], versions=len(view["history"]),
                        session=session)
        form = request.state.form
        done = await call(handlers.forget, writes=True, id=request.path_params["id"],
                          reason=form.get("reason") or None, include_history=form.get("history") == "on")
        said = "already" if done.already_forgotten and not done.forgotten_ids else "forgotten"
        return RedirectResponse(f"/?done={said}", 303)

    async def forget_session(request: Request) -> Response:
        sid = request.path_params["id"]
        if request.method == "GET":  # the confirmation step
            found = await call(lambda store, caller: store.episodes.session(tenant=caller.tenant,
                                                                            session_id=sid))
            return page(request, "forget_session.html", s=found)
        await call(handlers.forget, writes=True, session_id=sid)
        return RedirectResponse("/sessions?done=forgotten", 303)

    async def boot_page(request: Request) -> Response:
        tokens = _whole(request.query_params.get("tokens")) or runtime.config.boot_tokens
        tokens = validate.integer("tokens", tokens, 200, 100_000, " tokens")
        task = request.query_params.get("task", "")
        document = await call(boot.boot_context, budget=tokens, task=task)
        used = literal.counter()(document)
        return page(request, "boot.html", document=document, tokens=tokens, used=used, task=task)

    async def sessions(request: Request) -> Response:
        found = await call(lambda store, caller: store.episodes.sessions(tenant=caller.tenant,
                                                                         limit=SESSIONS_SHOWN))
        return page(request, "sessions.html", sessions=found, ms=format_ms)

    async def session(request: Request) -> Response:
        after = _whole(request.query_params.get("after")) or 0
        after = validate.integer("after", after, 0, 2**62)

        def read(store: Any, caller: Caller) -> tuple[Any, list[Any]]:
            sid = request.path_params["id"]
            found = store.episodes.session(tenant=caller.tenant, session_id=sid)
            return found, store.episodes.turns(tenant=caller.tenant, session_id=sid, after_seq=after,
                                               limit=TURNS_PAGE + 1)
        found, turns = await call(read)
        more = turns[TURNS_PAGE - 1].seq if len(turns) > TURNS_PAGE else None
        return page(request, "session.html", s=found, turns=turns[:TURNS_PAGE], more=more, ms=format_ms)

    async def review(request: Request) -> Response:
        def read(store: Any, caller: Caller) -> dict[str, Any]:
            found = store.review(caller.tenant, caller.scopes(None))
            ids = {i for older, newer, _ in found.contradictions for i in (older, newer)}
            rows = {i: store.get(tenant=caller.tenant, id=i) for i in ids}
            now = store.clock()
            decayed = [(m, strength(m, now)) for m in found.decayed]
            return {"review": found, "rows": rows, "decayed": decayed, "scopes": caller.scopes(None)}
        return page(request, "review.html", ms=format_ms, **await call(read))

    async def stats(request: Request) -> Response:
        def read(store: Any, caller: Caller) -> dict[str, Any]:
            whole = maintenance.stats(store)
            scopes = store.scope_counts(tenant=caller.tenant)
            kinds = {k: store.count_memories(tenant=caller.tenant, scopes=list(scopes), kinds=[k])
                     for k in limits.KINDS} if scopes else {}
            with store.backend.read(None) as tx:
                last = tx.settings().get(LAST_RUN)
            # Signed in with the team server's keys: which database, and its size, stay with its operator.
            where = store.backend.location if store.backend.kind == "sqlite" and not runtime.authenticated \
                else None
            size = sum(p.stat().st_size for p in (Path(f"{where}{s}") for s in ("", "-wal")) if p.exists()) \
                if where else None
            return {"scopes": scopes, "kinds": kinds, "size": size, "model": whole["model_id"],
                    # the whole database's: not for a tenant signed in on the team server
                    "pending": None if runtime.authenticated else whole["vectors_pending"],
                    "last": format_ms(int(last)) if last and not runtime.authenticated else None,
                    "db": None if runtime.authenticated else runtime.config.db_label,
                    "health": runtime.health(),
                    "encrypted": whole.get("encrypted")}
        return page(request, "stats.html", **await call(read))

    routes = [
        Route("/", memories), Route("/memories/{id}", memory),
        Route("/memories/{id}/supersede", supersede, methods=["POST"]),
        Route("/memories/{id}/confirm", confirm, methods=["POST"]),
        Route("/memories/{id}/forget", forget, methods=["GET", "POST"]),
        Route("/boot", boot_page), Route("/sessions", sessions), Route("/sessions/{id}", session),
        Route("/sessions/{id}/forget", forget_session, methods=["GET", "POST"]),
        Route("/review", review), Route("/stats", stats),
        Mount("/static", StaticFiles(packages=[("memvault.server.web", "static")]), name="static"),
    ]
    if logins is not None:
        routes += signing(logins, page)
    handled = {MemvaultError: refused, 404: refused, 405: refused}
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handled)  # type: ignore[arg-type]
    return Gate(app, token, origins, refused, logins)


def signing(logins: Logins, page: Callable[..., HTMLResponse]) -> list[Route]:
    """``/login`` (the form, then a session for the key or token pasted in it) and ``/logout``."""
    from ..auth import IssuerUnreachable, TokenRefused

    async def login(request: Request) -> Response:
        if request.method == "GET":
            shown = page(request, "login.html")
            shown.set_cookie(FORM_COOKIE, request.state.form_cookie, httponly=True, samesite="strict",
                             secure=True, path="/")  # the form's CSRF token is made of it (Gate)
            return shown
        try:  # the token is never shown, logged or kept in a refusal: TokenRefused words never hold it
            session = await logins.start(request.state.form.get("token", "").strip())
        except IssuerUnreachable as exc:
            return page(request, "login.html", 503, refused=f"{exc.description} (in {exc.retry_s} s)")
        except TokenRefused as exc:
            return page(request, "login.html", 401, refused=f"{exc.description}: not signed in")
        except Full as exc:
            return page(request, "login.html", 503, refused=f"{exc}: not signed in")
        answer = RedirectResponse("/", 303)
        answer.set_cookie(COOKIE, session, httponly=True, samesite="strict", secure=True, path="/")
        answer.delete_cookie(FORM_COOKIE, httponly=True, samesite="strict", secure=True, path="/")
        return answer

    async def logout(request: Request) -> Response:
        logins.end(request.state.session)
        answer = RedirectResponse("/login", 303)
        answer.delete_cookie(COOKIE, httponly=True, samesite="strict", secure=True, path="/")
        return answer

    return [Route("/login", login, methods=["GET", "POST"]), Route("/logout", logout, methods=["POST"])]
