"""What the tests of a team server on a damaged SQLite file share: a closed file of 300 memories to damage a copy
of, and a recall and a remember over HTTP."""

from __future__ import annotations

from pathlib import Path

from httpwire import HttpServer, client, new_key

from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store

PAGE = 4096  # SQLite's default page size, memvault's
DAMAGED = "the database file is damaged"


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
