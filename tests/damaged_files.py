"""What the tests of a team server on a damaged SQLite file share: a closed file of 300 memories to damage a copy
of, and a recall and a remember over HTTP."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import anyio
import httpx2
from httpwire import HttpServer, client, new_key
from sqlite_raw import overwrite_pages

from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store

PAGE = 4096  # SQLite's default page size, memvault's
DAMAGED = "the database file is damaged"
T = TypeVar("T")


def fleet_file(folder: Path, embedder: Embedder) -> tuple[Path, str]:
    """A closed file ``folder``/m.db of 300 memories of tenant acme (about 250 pages) and a key of acme."""
    db = folder / "m.db"
    key = new_key(db, "acme")
    store = Store(db, embedder)
    try:
        for i in range(300):
            store.remember(tenant="acme", scope="default",
                           content=f"Host {i} of the fleet runs service svc-{i} on rack {i % 17}, owner team-{i % 7}.")
    finally:
        store.close()
    return db, key


async def calls(server: HttpServer, key: str, n: int = 2) -> tuple[tuple[bool, str], tuple[bool, str]]:
    """(is_error, text) of a recall and of a remember (the ``n``-th of their kind) over the SDK's streamable HTTP
    client."""
    async with client(server.url, key) as c:
        recalled = await c.call_tool("recall", {"query": f"which host runs svc-{40 + n}"})
        remembered = await c.call_tool("remember", {"content": f"The printer on floor {n} is out of toner."})
    return (recalled.is_error, recalled.content[0].text), (remembered.is_error, remembered.content[0].text)


def healthz(server: HttpServer) -> httpx2.Response:
    """The server's /healthz answer."""
    return httpx2.get(f"{server.base}/healthz", timeout=30)


def looks_while(server: HttpServer, work: Callable[[list[httpx2.Response]], Awaitable[T]],
                every_s: float = 0.1) -> tuple[T, list[httpx2.Response]]:
    """``work``'s result and the /healthz answers asked every ``every_s`` seconds while it ran (one at least).

    ``work`` is given the list of answers so far, so it can go on until the probe has looked often enough."""
    looks: list[httpx2.Response] = []

    async def run() -> T:
        finished = anyio.Event()

        async def prober() -> None:
            while not finished.is_set() or not looks:
                looks.append(await anyio.to_thread.run_sync(healthz, server))
                await anyio.sleep(every_s)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(prober)
            done = await work(looks)
            finished.set()
        return done

    return anyio.run(run), looks


def cut_to(fraction: float) -> Callable[[Path], None]:
    """A damage: the file cut to ``fraction`` of its length, at a page boundary."""
    def cut(db: Path) -> None:
        with open(db, "r+b") as f:
            f.truncate(int(db.stat().st_size * fraction) // PAGE * PAGE)
    cut.__name__ = f"cut to {fraction}"
    return cut


def cut_inside_a_page(db: Path) -> None:
    """A damage: the file cut to half its length and 100 bytes, inside a page."""
    with open(db, "r+b") as f:
        f.truncate(db.stat().st_size // 2 + 100)


def last_page_gone(db: Path) -> None:
    """A damage: the file's last page cut off."""
    with open(db, "r+b") as f:
        f.truncate(db.stat().st_size - PAGE)


def middle_page_overwritten(db: Path) -> None:
    """A damage: the page in the middle of the file written over."""
    with open(db, "r+b") as f:
        f.seek(db.stat().st_size // PAGE // 2 * PAGE)
        f.write(b"\xa5" * PAGE)


def tag_index_overwritten(db: Path) -> None:
    """A damage to pages no recall reads (the tag index: the file has no tags): only the whole-file check
    finds them."""
    overwrite_pages(db, "memory_tags_by_tag")
