"""``memvault ui``: a local web view to see, search and correct memories (docs/ui.md).

:func:`serve` binds loopback only, makes the process's token and runs :func:`app.build` under uvicorn;
or, told to (``--allow-network``), serves with the team server's authentication (:mod:`.login`).
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from ..config import Config, HttpConfig
from ..http import LOOPBACK_HOSTS as LOOPBACK
from ..http import bounded, listen_socket
from ..runtime import Runtime


@asynccontextmanager
async def running(runtime: Runtime) -> AsyncIterator[None]:
    """The UI's lifespan (Starlette's takes no state): the runtime's (:meth:`Runtime.running`)."""
    async with runtime.running():
        yield


def origins(port: int, host: str = LOOPBACK[0]) -> list[str]:
    """The origins a page on loopback ``host``:``port`` may be opened as (``host`` as a URL writes it)."""
    return [f"http://{name}:{port}" for name in dict.fromkeys([host, *LOOPBACK])]


def loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(config: Config, host: str, port: int, open_browser: bool, say: Callable[[str], None],
          http: HttpConfig | None = None) -> None:
    """Serve the UI on ``host``:``port`` (0: a free port) until Ctrl-C; ``say(url)`` gets the URL with its
    token once the socket listens, and the browser opens it unless not ``open_browser``. With ``http``
    (the team server's settings), a sign-in replaces the token, on any ``host``.

    Raises:
        ValueError: ``host`` is not loopback without ``http`` (the UI has no authentication but its token;
            docs/ui.md), ``http`` without authentication configured or without an allowed host (the TLS
            proxy's public name), or ``port`` is not 0-65535.
        CannotListen: the address cannot be bound.
        MemvaultError: the store cannot be opened (e.g. a wrong key): said before anything is served.
    """
    import webbrowser

    from memvault.storage.store import Store

    from .app import build
    from .login import network

    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65_535:
        raise ValueError(f"--port: {port!r} is not a port: give 1-65535, or 0 (the default) for a free one")
    Store(config.db, None).close()  # a wrong key or a damaged file is said now, not on every page
    if http is None and not loopback(host):
        raise ValueError(f"--host: {host!r} is not a loopback address; `memvault ui` serves this machine "
                         "only (127.0.0.1, localhost or ::1): its one token is not the team server's "
                         "authentication (docs/ui.md#security). To reach it from elsewhere, forward the port "
                         "over SSH, or give --allow-network to sign in with the team server's API keys or "
                         "OAuth.")
    runtime = Runtime(config, authenticated=http is not None)
    logins = network(runtime, http) if http is not None else None  # before anything listens
    if http is not None and (not http.allowed_hosts or not port):
        raise ValueError("--allow-network: give --allowed-host NAME (the address people open) and --port P: "
                         "sign-in needs https (its cookie is Secure), so the page is served behind a TLS proxy "
                         "that forwards NAME to this host and port (docs/ui.md#served-to-a-network)")
    sock = listen_socket(host, port)
    sock.listen(128)
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(32)
    shown = host if ":" not in host or host.startswith("[") else f"[{host}]"
    app = build(runtime, token, origins(port, shown.lower()), lambda _: running(runtime), logins)
    if http is not None:  # what people open: the TLS proxy's address
        url = f"https://{http.allowed_hosts[0].removesuffix(':*')}/login"
    else:
        url = f"http://{shown}:{port}/?token={token}"
    say(url)
    if open_browser:
        webbrowser.open(url)
    server(app).run(sockets=[sock])


def server(app: Any) -> Any:
    """The ``uvicorn.Server`` of ``app``, on loopback too as the team server serves (:func:`..http.bounded`:
    the peer's address counted, never X-Forwarded-For; connections capped; a read timeout)."""
    import uvicorn

    return uvicorn.Server(uvicorn.Config(app, log_level="warning", **bounded()))
