"""The boot context: sections with guaranteed shares, short ids, a reserved true
footer, no hidden row cap, deterministic and within budget."""

from __future__ import annotations

import re

import pytest

from memvault.storage import embeddings
from memvault.storage.embeddings import TokenCounter
from memvault.storage.store import Store
from memvault.tools.boot import boot_context
from memvault.tools.handlers import Caller
import sqlite_raw

CALLER = Caller(tenant="t", scope="proj")
COUNT = TokenCounter()


def fill(store: Store, facts: int, failures: int = 0, episodes: int = 0, preferences: int = 0) -> None:
    day = 0
    for kind, n in (("preference", preferences), ("fact", facts), ("failure", failures), ("episode", episodes)):
        for i in range(n):
            day += 1
            store.remember(
                tenant="t", scope="proj", kind=kind, source="user",
                content=f"{kind} number {i}: the service on port {9000 + i} belongs to team {i % 7}",
                observed_at=f"2025-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T10:00:00Z",
            )


def parse(boot: str) -> tuple[int, int, int, int]:
    """(lines shown, shown, total, tokens) from the document and its footer, checking
    that the stated tokens bound the document's, closely (exact when the count can state
    itself, else the smallest bound found)."""
    footer = re.search(r"_(\d[\d,]*) of (\d[\d,]*) memor(?:y|ies) shown, within (\d[\d,]*) tokens?\.", boot)
    assert footer, boot[-300:]
    shown, total, tokens = (int(footer.group(i).replace(",", "")) for i in (1, 2, 3))
    assert COUNT(boot) <= tokens <= COUNT(boot) + 3
    return boot.count("\n- ["), shown, total, tokens


@pytest.fixture
def counted(store: Store) -> Store:
    """The store: the boot context counts the bundled tokenizer's tokens (``COUNT``) whatever the embedder."""
    return store


@pytest.mark.parametrize(
    ("facts", "failures", "episodes", "budget"), [(36, 0, 4, 2000), (60, 3, 4, 300), (80, 5, 6, 700)]
)
def test_recent_failures_and_episodes_always_get_their_share(counted, facts, failures, episodes, budget):
    fill(counted, facts, failures, episodes, preferences=3)
    boot = boot_context(counted, CALLER, budget)
    lines, shown, total, tokens = parse(boot)
    assert lines == shown and total == facts + failures + episodes + 3
    assert tokens <= budget
    assert "## Recent episodes" in boot and "episode number" in boot
    if failures:
        assert "## Recent failures" in boot and f"failure number {failures - 1}" in boot  # the newest one
    if shown < total:
        assert f"{total - shown} more: `recall`" in boot


def test_many_important_decisions_do_not_hide_procedures_and_facts(counted):
    for i in range(60):
        counted.remember(tenant="t", scope="proj", kind="decision", importance=9,
                         content=f"decision {i}: chose vendor {i} for the service on port {9000 + i}")
    for kind in ("procedure", "fact", "preference"):
        counted.remember(tenant="t", scope="proj", kind=kind, importance=5, content=f"the one {kind} of this store")
    boot = boot_context(counted, CALLER, 600)
    lines, shown, total, tokens = parse(boot)
    assert total == 63 and shown < total and tokens <= 600
    assert "## Procedures" in boot and "the one procedure" in boot and "## Facts" in boot and "the one fact" in boot
    assert boot.count("decision ") >= 5  # the first section still takes most of the rest


def test_the_footer_is_there_when_memories_are_left_out(counted):
    fill(counted, facts=40)
    for budget in (150, 200, 450):
        boot = boot_context(counted, CALLER, budget)
        lines, shown, total, tokens = parse(boot)
        assert total == 40 and 0 < shown < 40 and tokens <= budget and f"{40 - shown} more" in boot


def test_no_hidden_row_cap(counted):
    fill(counted, facts=450)
    boot = boot_context(counted, CALLER, 100_000)
    lines, shown, total, tokens = parse(boot)
    assert lines == shown == total == 450 and "more:" not in boot


def test_short_ids_are_unique_prefixes_and_output_is_deterministic(counted):
    fill(counted, facts=30, episodes=5)
    first, second = boot_context(counted, CALLER, 2000), boot_context(counted, CALLER, 2000)
    assert first == second
    shorts = re.findall(r"^- \[([0-9a-f-]+)\]", first, flags=re.M)
    with sqlite_raw.snapshot(counted) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM memories WHERE tenant = 't'")]
    assert len(shorts) == 35
    for short in shorts:
        assert len(short) >= 8 and sum(i.startswith(short) for i in ids) == 1
        assert len(short) < 36


def test_boot_counts_tokens_without_an_embedder(db_path, monkeypatch):
    class NoEmbedder:
        def __init__(self, *args, **kwargs):
            raise AssertionError("boot must not build an Embedder to count tokens")

    monkeypatch.setattr(embeddings, "Embedder", NoEmbedder)
    store = Store(db_path, None)
    try:
        fill(store, facts=3)
        boot = boot_context(store, CALLER, 500)
    finally:
        store.close()
    assert parse(boot)[1:3] == (3, 3)


def test_an_empty_scope_names_the_scopes_that_hold_memories(counted):
    counted.remember(tenant="t", scope="personal", content="The dentist is on Friday")
    counted.remember(tenant="other", scope="secret", content="Another tenant's note")
    boot = boot_context(counted, CALLER, 500)
    assert boot.startswith("No memories are stored yet") and "`personal` (1)" in boot and "secret" not in boot


def test_the_stated_token_count_is_true_even_when_the_tokenizer_has_no_fixed_point():
    from memvault.tools.boot import _with_footer

    def odd(text: str) -> int:  # "N tokens" costs 1 more token when N is even: no N states itself
        n = int(re.search(r"(\d+) tokens", text).group(1))  # type: ignore[union-attr]
        return 100 + (n % 2 == 0)

    document, tokens = _with_footer("body\n", 1, 0, odd)
    assert f"_1 of 1 memory shown, within {tokens} tokens._" in document and odd(document) <= tokens
    exact, n = _with_footer("body\n", 1, 0, lambda text: 50)
    assert n == 50 and "_1 of 1 memory shown, within 50 tokens._" in exact


def test_invisible_format_characters_are_shown_escaped_in_boot_text(counted):
    tricky = "Pay invoice \u202e4321\u202c to account\u200b 77 — café 日本"
    stored = counted.remember(tenant="t", scope="proj", content=tricky).id
    boot = boot_context(counted, CALLER, 2000)
    assert "\\u202e4321\\u202c" in boot and "account\\u200b 77" in boot and "café 日本" in boot
    assert not any(c in boot for c in "\u202e\u202c\u200b")
    assert counted.get(tenant="t", id=stored).content == tricky  # stored as given


def test_the_smallest_budget_holds_a_line_even_with_the_longest_names(tmp_path):
    """The header names the tenant and scopes; at the smallest budget (200) with names of the
    longest kind it gives way to the title, and the document stays within the budget."""
    from fakes import FakeEmbedder

    tenant, scope = "漢" * 128, "字" * 128  # the longest names, a token per character
    store = Store(tmp_path / "long.db", FakeEmbedder())  # type: ignore[arg-type]
    try:
        for i in range(20):
            store.remember(tenant=tenant, scope=scope, content=f"fact {i}: the service on port {9000 + i} is ours")
        boot = boot_context(store, Caller(tenant, scope), 200)
        lines, shown, total, tokens = parse(boot)
        assert tokens <= 200 and 0 < lines == shown and total == 20
    finally:
        store.close()


def test_short_ids_are_looked_up_a_few_lines_at_a_time(counted, monkeypatch):
    fill(counted, facts=60, episodes=10, preferences=5)
    asked: list[list[str]] = []
    short_ids = counted.short_ids

    def counting(**kwargs):  # type: ignore[no-untyped-def]
        asked.append(kwargs["ids"])
        return short_ids(**kwargs)

    monkeypatch.setattr(counted, "short_ids", counting)
    boot = boot_context(counted, CALLER, 3500)  # room for every line, with the facts' review marks
    lines = parse(boot)[0]
    assert lines == 75 and len(asked) <= 3 + lines // 16  # one read per section and per 16 lines, not per line
    assert all(f"[{short_ids(tenant='t', ids=[i])[i]}]" in boot for ids in asked for i in ids)


def _long(i: int, sentences: bool = True) -> str:
    """About 8,000 characters (the longest content a memory holds), in sentences or one run of words."""
    words = ["the", "nightly", "backup", "of", "ledger", f"shard{i}", "runs", "after", "the", "audit", "window"]
    parts, n = [], 0
    while sum(len(p) + 1 for p in parts) < 7_900:
        n += 1
        parts.append(" ".join(words[(n + k) % len(words)] for k in range(9)) + (f" step {n}." if sentences else ""))
    return " ".join(parts)[:7_990]


@pytest.mark.parametrize("budget", [300, 800, 2000, 5000])
@pytest.mark.parametrize("kinds", [("fact",), ("decision", "procedure", "fact", "failure", "episode")])
@pytest.mark.parametrize("sentences", [True, False])
def test_memories_all_too_long_for_the_budget_show_excerpts_not_nothing(counted, budget, kinds, sentences):
    contents, importance = {}, {}
    for i in range(16):
        m = counted.remember(tenant="t", scope="proj", kind=kinds[i % len(kinds)], source="user",
                             content=_long(i, sentences), importance=1 + i % 10)
        contents[m.id], importance[m.id] = _long(i, sentences), 1 + i % 10
    boot = boot_context(counted, CALLER, budget)
    lines, shown, total, tokens = parse(boot)
    assert total == 16 and 1 <= shown == lines and tokens <= budget
    cuts = re.findall(r'^- \[([0-9a-f-]+)\] (?:\w+, )?[\d-]+: "(.*)" — an excerpt, ([\d,]+) of ([\d,]+) characters$',
                      boot, re.MULTILINE)
    whole = [c for c in contents.values() if f'"{c}"' in boot]
    assert len(cuts) + len(whole) == shown and (len(cuts) == shown if budget <= 2000 else whole)
    if not whole:
        assert ("It is an excerpt; `memory://memories/{id}` has it whole." if shown == 1
                else f"{shown} of them are excerpts; `memory://memories/{{id}}` has each whole.") in boot
    for short, cut, chars, whole in cuts:
        [memory_id] = [i for i in contents if i.startswith(short)]
        content = contents[memory_id]
        assert cut.endswith("…") and content.startswith(cut[:-1]) and int(chars.replace(",", "")) == len(cut) - 1
        assert int(whole.replace(",", "")) == len(content)
        after = content[len(cut) - 1:]
        assert after[:1].isspace() or cut[-2] in ".!?"  # a word or sentence boundary, never inside a word
        if sentences and len(cut) > 200:
            assert cut[-2] == "."
    if "fact" in kinds and len(kinds) == 1 and budget >= 2000:  # the most important first
        first = re.search(r"^- \[([0-9a-f-]+)\]", boot, re.MULTILINE).group(1)
        assert importance[next(i for i in contents if i.startswith(first))] == 10


def test_a_short_memory_is_still_shown_whole_beside_long_ones(counted):
    counted.remember(tenant="t", scope="proj", kind="fact", source="user", content=_long(1), importance=9)
    counted.remember(tenant="t", scope="proj", kind="fact", source="user", content="The VPN is on port 1194.")
    boot = boot_context(counted, CALLER, 300)
    assert '"The VPN is on port 1194."\n' in boot  # whole, never cut for the long one
    # the long one, more important, is not left out while the room shows its start (trial 53 #5)
    assert boot.count("— an excerpt, ") == 1 and "It is an excerpt" not in boot
