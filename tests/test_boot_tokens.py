"""Each memory's token count is kept from its write, so the boot context costs lines without
tokenizing them, and its text is the one the tokenizing code made (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import raw
from boot_seed import BUDGETS, TEXTS, seed
from fakes import FakeEmbedder

from memvault.storage import transfer
from memvault.storage.embeddings import TokenCounter
from memvault.storage.literal import literal_tokens, quoted
from memvault.storage.postgres import schema as pg_schema
from memvault.storage.sqlite import schema as sqlite_schema
from memvault.storage.store import Store
from memvault.tools.boot import boot_context
from memvault.tools.handlers import Caller

pytestmark = pytest.mark.contract
GOLDEN = json.loads((Path(__file__).parent / "data" / "boot_golden.json").read_text())


def stored_tokens(store: Store, memory_id: str) -> int | None:
    return store.get(tenant="t", id=memory_id).tokens


@pytest.mark.parametrize("scope", ["proj", "global"])
def test_the_boot_text_is_the_one_the_tokenizing_code_made(store: Store, scope: str):
    seed(store)
    for budget in BUDGETS:
        assert boot_context(store, Caller("t", scope), budget) == GOLDEN[f"{scope} {budget}"], (scope, budget)


def test_the_review_pointer_stays_when_the_header_is_the_title_alone(store: Store):
    """Trial 56: "N items wait for review" went with the long header, so a budget that left room for the
    title alone (300 tokens) dropped it while 200 and 400 showed it; it stays unless it costs a section."""
    seed(store)
    shown = {budget: "items wait for review" in boot_context(store, Caller("t", "proj"), budget)
             for budget in range(240, 701, 20)}
    assert all(shown.values()), [budget for budget, there in shown.items() if not there]


def test_the_boot_context_tokenizes_no_memory_text(store: Store, monkeypatch):
    seed(store)
    seen: list[str] = []
    call, lengths = TokenCounter.__call__, TokenCounter.lengths

    def counting(self: TokenCounter, text: str) -> int:
        seen.append(text)
        return call(self, text)

    def counting_all(self: TokenCounter, texts: list[str]) -> list[int]:
        seen.extend(texts)
        return lengths(self, texts)

    monkeypatch.setattr(TokenCounter, "__call__", counting)
    monkeypatch.setattr(TokenCounter, "lengths", counting_all)
    monkeypatch.setattr(store.embedder, "count_tokens", TokenCounter(), raising=False)  # what boot once used
    boot = boot_context(store, Caller("t", "proj"), 3000)
    assert boot.count("\n- [") > 20 and seen
    shown = [quoted(text.format(i=0, j=0))[1:12] for text in TEXTS]  # the start of each text as shown
    assert sum(s in boot for s in shown) >= 8
    assert not [t for t in seen if any(s in t for s in shown)]


@pytest.mark.parametrize("content", [text.format(i=3, j=4) for text in TEXTS])
def test_every_write_keeps_the_count_of_the_text_as_shown(store: Store, content: str):
    expected = TokenCounter().lengths([quoted(content)])[0]
    remembered = store.remember(tenant="t", scope="proj", content=content).id
    assert stored_tokens(store, remembered) == expected == literal_tokens([content])[0]
    replaced = store.supersede(tenant="t", id=remembered, content=content + " (revised)").id
    assert stored_tokens(store, replaced) == literal_tokens([content + " (revised)"])[0]
    line = json.dumps({"id": "0190a000-0000-7000-8000-0000000000ff", "content": content})
    assert not transfer.import_lines(store, [line], tenant="t", scope="proj").failed
    assert stored_tokens(store, "0190a000-0000-7000-8000-0000000000ff") == expected
    store.forget(tenant="t", id=replaced, include_history=True)
    assert stored_tokens(store, replaced) is None and stored_tokens(store, remembered) is None  # nothing of it kept


def test_an_older_database_gets_every_count_when_opened(db: str, clock):
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        seed(store, n=30)
        forgotten = store.remember(tenant="t", scope="proj", content="a note forgotten before the upgrade").id
        store.forget(tenant="t", id=forgotten)
    finally:
        store.close()
    # The schema just before the step that added the tokens column.
    raw.execute(db, "ALTER TABLE memories DROP COLUMN tokens")
    raw.rewind(db, sqlite_schema._v11_tokens, pg_schema._v_tokens)
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        rows = raw.execute(db, "SELECT content, tokens FROM memories ORDER BY seq")
        assert len(rows) == 31
        assert [tokens for _, tokens in rows] == literal_tokens([content for content, _ in rows])
        assert rows[-1] == (None, None)
        assert boot_context(store, Caller("t", "proj"), 800).count("\n- [") > 5
    finally:
        store.close()
