"""The pages of ``memvault ui`` (docs/ui.md): Starlette routes over the same handlers and Store calls the
MCP tools use, run by :class:`Runtime` (the process's tenant and scope, off the event loop).

Every write is a POST (checked by :class:`Gate`) answered by a redirect; a refused one is a page
saying why, with nothing changed (the Store's own checks: one transaction per write).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from memvault.storage import limits, literal, maintenance, validate
from memvault.storage.consolidate import LAST_RUN
from memvault.storage.errors import Conflict, InvalidInput, MemvaultError, NotFound
from memvault.storage.secrets import redact
from memvault.storage.strength import strength
from memvault.storage.timefmt import format_ms
from memvault.tools import boot, handlers
from memvault.tools.caller import Caller

from ..runtime import Runtime
from .gate import Gate, Refused, csrf_token

PAGE_SIZE = 20  # memories a listing page shows
TURNS_PAGE = 100  # turns a session page shows
SESSIONS_SHOWN = 50
STATUS = {NotFound: 404, InvalidInput: 400, Conflict: 409}
DONE = {"forgotten": "Forgotten: the text is erased; a tombstone stays in the history."}


def _whole(text: str | None) -> int | str | None:
    """The integer typed, else the text (the field's own check refuses it with its range)."""
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() else (text or None)


def _shown(text: str | None) -> str:
    """Stored text as the page shows it: a credential stored with --allow-secrets is named, never shown."""
    return redact(text)[0] if text else ""


def build(runtime: Runtime, token: str, origins: list[str], lifespan: Any = None) -> Gate:
    """The UI's ASGI app for ``runtime``: ``token`` opens it, ``origins`` (``http://127.0.0.1:8000``) are
    the addresses it answers as; ``lifespan`` is Starlette's."""
    env = Environment(loader=PackageLoader("memvault.server.web"), autoescape=select_autoescape(default=True))
    env.filters["shown"] = _shown
    env.filters["day"] = lambda iso: (iso or "")[:10]
    csrf = csrf_token(token)

    def page(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        values = {"csrf": csrf, "tenant": runtime.config.tenant, "path": request.url.path, **values}
        return HTMLResponse(env.get_template(name).render(**values), status)

    def refused(request: Request, exc: Exception) -> Response:
        if isinstance(exc, Refused):
            return page(request, "error.html", exc.status, title=exc.title, message=exc.message)
        if isinstance(exc, HTTPException):  # no such page (404) or method (405)
            return page(request, "error.html", exc.status_code, title="Not here", message=exc.detail)
        status = next((code for kind, code in STATUS.items() if isinstance(exc, kind)), 503)
        return page(request, "error.html", status, title="Not done", message=str(exc))

    async def call(fn: Callable[..., Any], writes: bool = False, **kwargs: Any) -> Any:
        return await runtime.call(fn, writes=writes, **kwargs)

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

    async def memory(request: Request) -> Response:
        view = await call(handlers.memory_view, memory_id=request.path_params["id"])
        source = view["memory"].get("source") or ""
        session = source[len("session "):] if source.startswith("session ") else None
        return page(request, "memory.html", view=view, m=view["memory"], session=session, kinds=limits.KINDS)

    async def supersede(request: Request) -> Response:
        form = request.state.form
        # Tags left as shown are kept as they are (a tag may hold a comma); a browser sends CRLF line breaks.
        given = form.get("tags", "")
        tags = None if given == form.get("tags_shown") else [t.strip() for t in given.split(",") if t.strip()]
        content = form.get("content", "").replace("\r\n", "\n")
        done = await call(handlers.supersede, writes=True, id=request.path_params["id"], content=content,
                          reason=form.get("reason") or None, kind=form.get("kind") or None, tags=tags,
                          importance=_whole(form.get("importance")))
        return RedirectResponse(f"/memories/{done.id}", 303)

    async def confirm(request: Request) -> Response:
        done = await call(handlers.confirm, writes=True, id=request.path_params["id"])
        return RedirectResponse(f"/memories/{done.id}", 303)

    async def forget(request: Request) -> Response:
        if request.method == "GET":  # the confirmation step
            view = await call(handlers.memory_view, memory_id=request.path_params["id"])
            return page(request, "forget.html", m=view["memory"], versions=len(view["history"]))
        form = request.state.form
        await call(handlers.forget, writes=True, id=request.path_params["id"],
                   reason=form.get("reason") or None, include_history=form.get("history") == "on")
        return RedirectResponse("/?done=forgotten", 303)

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
            where = store.backend.location if store.backend.kind == "sqlite" else None
            size = sum(p.stat().st_size for p in (Path(f"{where}{s}") for s in ("", "-wal")) if p.exists()) \
                if where else None
            return {"scopes": scopes, "kinds": kinds, "size": size, "model": whole["model_id"],
                    "pending": whole["vectors_pending"], "last": format_ms(int(last)) if last else None,
                    "db": runtime.config.db_label, "health": runtime.health(),
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
    handled = {MemvaultError: refused, 404: refused, 405: refused}
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handled)  # type: ignore[arg-type]
    return Gate(app, token, origins, refused)
