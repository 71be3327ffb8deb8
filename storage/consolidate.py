"""Consolidation without a model: old, unimportant episodes compacted into one digest per scope
and ISO week (deterministic, extractive), and a scan for contradicting pairs of current memories
that ``review.review`` lists with decayed ones. Every write is one short transaction; a crash
between two loses nothing, and a run again completes the rest. More:
docs/how-memory-works.md#consolidation."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from . import maintenance, validate
from .backend import DIGEST_SOURCE, NewRow, Search
from .candidates import worded_near
from .change_pairs import Pair, compared_scopes, joined_ends, kept_across, linked
from .contradiction import contradicts, least_cosine, may_contradict, newer_in_meaning
from .contradiction_words import ABBREVIATIONS
from .ids import new_id
from .limits import CONTENT_MAX_CHARS
from .literal import literal_tokens
from .query import Filters
from .ranking import SAME_SUBJECT
from .records import Memory
from .review import DAY_MS, STATE_KINDS, unchanged
from .timefmt import format_ms

if TYPE_CHECKING:
    from .backend import Reader, Writer
    from .store import Store

COMPACT_AFTER_DAYS = 30  # an episode observed longer ago than this may be compacted
COMPACT_BELOW = 5  # ... when its importance is below this
DIGEST_IMPORTANCE = COMPACT_BELOW  # so a digest is never compacted again
DIGEST_TAG = "digest"
SENTENCE_CHARS = 160  # of each source's first sentence, quoted in its digest
# Sources of one digest at most: its write marks each (docs/benchmarks.md#consolidation).
SOURCES_PER_DIGEST = 40
NEIGHBOURS = 5  # nearest memories of the scope each new memory is compared with
SCAN_BATCH = 25  # new memories read per step, the mark saved after them (docs/storage-tuning.md#consolidation-steps)
PAIRS_KEPT = 1_000  # contradicting pairs kept for review at most, newest first (review shows 20)
PENDING_KEPT = 1_000  # memories kept aside while their vectors are pending, compared by a later scan
REVIEW_KEY = "review"  # tenant setting: {"mark": highest seq read, "pending": [seqs read before their vectors
# were made]}; the pairs kept are the backend's ``review_pairs``
LAST_RUN = "consolidated_at"  # setting: when the last whole run ended (ms)
# A sentence's end: "!", "?" or "." (and closing quotes or brackets), a space, then the next word's first
# character; a full stop ends a sentence only before a capital, and never after an abbreviation.
_STOP = re.compile(r"([.!?][\"')\]]*) [\"'(\[]*(.)")
_INITIALS = re.compile(r"(?:[^\W\d_]\.)*[^\W\d_]")  # "J", "a.m", "e.g", "U.S" (before the last full stop)


@dataclass(frozen=True)
class Compacted:
    """One digest written: its id, tenant, scope, ISO week ("2026-W03") and the ids it compacts."""

    digest_id: str
    tenant: str
    scope: str
    week: str
    sources: tuple[str, ...]


@dataclass
class Report:
    """What a run did: ``compacted`` digests; ``contradictions`` new pairs found by comparing
    ``compared`` memories written since the last run; ``skipped`` digests not written because a
    source changed meanwhile (the next run writes them); ``finished`` False when ``stop()`` ended
    it early; ``longest_write_ms``, the longest of its write transactions."""

    compacted: list[Compacted] = field(default_factory=list)
    contradictions: int = 0
    compared: int = 0
    skipped: int = 0
    finished: bool = True
    longest_write_ms: float = 0.0

    def as_json(self) -> dict[str, object]:
        """The report as plain JSON values."""
        return {
            "compacted": [{"digest_id": c.digest_id, "tenant": c.tenant, "scope": c.scope, "week": c.week,
                           "sources": list(c.sources)} for c in self.compacted],
            "contradictions_found": self.contradictions, "compared": self.compared, "skipped": self.skipped,
            "finished": self.finished, "longest_write_ms": round(self.longest_write_ms, 1),
        }



def consolidate(
    store: Store, now: int | None = None, stop: Callable[[], bool] = lambda: False,
    progress: Callable[[Compacted], None] | None = None, compacted: set[str] | None = None,
    checked: set[str] | None = None,
) -> Report:
    """Compact every tenant's old episodes (:func:`compact`), then compare the memories written
    since the last run with their nearest neighbours (:func:`scan`); ``stop()`` is asked before
    each step, ``progress`` told of each digest once committed; ``compacted``: the tenants whose
    episodes a run in turns compacted already (given again to each turn: compacting reads every
    old episode); ``checked``: the tenants whose kept pairs a run in turns checked (:func:`scan`), given
    again to each turn likewise. Raises Busy or StorageUnavailable (what was committed stays, a run again
    goes on)."""
    report = Report()
    now = store.clock() if now is None else now
    compacted = set() if compacted is None else compacted
    checked = set() if checked is None else checked
    for tenant in maintenance.own(store).tenants():
        if tenant not in compacted:
            compact(store, tenant, now, report, stop, progress)
            if not report.finished:
                break
            compacted.add(tenant)
        scan(store, tenant, now, report, stop, checked)
        if not report.finished:
            break  # the next run goes on where this one stopped
    if report.finished:
        with _timed(report):
            maintenance.own(store).put_setting(LAST_RUN, str(now))
    return report


@contextmanager
def _timed(report: Report) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        report.longest_write_ms = max(report.longest_write_ms, (time.perf_counter() - started) * 1000)


def iso_week(ms: int) -> str:
    """The ISO week of ``ms`` (UTC), e.g. "2026-W03"."""
    year, week, _ = datetime.fromtimestamp(ms / 1000, UTC).isocalendar()
    return f"{year}-W{week:02d}"


def first_sentence(text: str) -> str:
    """``text``'s first sentence on one line: up to "!", "?", or a full stop before a capital that ends
    no abbreviation (``ABBREVIATIONS``), initial ("J.") or dotted short form ("a.m.", "e.g."); longer
    than ``SENTENCE_CHARS``, cut at its last word that fits, with "…"."""
    text = " ".join(text.split())
    for stop in _STOP.finditer(text):
        if stop.start() >= SENTENCE_CHARS:
            break
        word = text[text.rfind(" ", 0, stop.start()) + 1:stop.start()].lstrip("\"'([")
        if text[stop.start()] != "." or (stop.group(2).isupper() and not _INITIALS.fullmatch(word)
                                          and f"{word.lower()}." not in ABBREVIATIONS):
            text = text[:stop.end(1)]
            break
    if len(text) <= SENTENCE_CHARS:
        return text
    cut = text[:SENTENCE_CHARS]
    return cut[:cut.rfind(" ")].rstrip(" ,;:") + "…" if " " in cut else cut[:SENTENCE_CHARS - 1] + "…"


def digest_parts(
    scope: str, week: str, sources: list[Memory], short: dict[str, str]
) -> list[tuple[str, list[Memory]]]:
    """The digests of one scope's week: text and sources of each, oldest source first, each text
    within ``CONTENT_MAX_CHARS`` and of ``SOURCES_PER_DIGEST`` sources at most (a longer week gets
    several)."""
    ordered = sorted(sources, key=lambda m: (m.observed_at, m.id))
    lines = [f"- [{short[m.id]}] {format_ms(m.observed_at)[:10]}: {first_sentence(m.content or '')}"
             for m in ordered]
    parts: list[tuple[list[str], list[Memory]]] = [([], [])]
    for line, memory in zip(lines, ordered, strict=True):
        full = len(parts[-1][0]) == SOURCES_PER_DIGEST
        if full or parts[-1][0] and len(_text(scope, week, parts[-1][0] + [line])) > CONTENT_MAX_CHARS:
            parts.append(([], []))
        parts[-1][0].append(line)
        parts[-1][1].append(memory)
    return [(_text(scope, week, text), members) for text, members in parts]


def _text(scope: str, week: str, lines: list[str]) -> str:
    return (f"Digest of {len(lines)} episode{'s' if len(lines) != 1 else ''} of scope {scope}, week {week} "
            "(first sentence of each, with its id):\n" + "\n".join(lines))


def compact(
    store: Store, tenant: str, now: int, report: Report, stop: Callable[[], bool] = lambda: False,
    progress: Callable[[Compacted], None] | None = None,
) -> None:
    """Compact ``tenant``'s current episodes observed more than ``COMPACT_AFTER_DAYS`` before
    ``now`` with importance below ``COMPACT_BELOW``: one digest per scope and ISO week (of two
    episodes or more: a lone one stays as it is), embedded before its write, inserted in one
    transaction that marks its sources superseded by it."""
    cutoff = now - COMPACT_AFTER_DAYS * DAY_MS
    old = Filters(tenant=tenant, scopes=None, now=now, kinds=["episode"], until=cutoff)
    with store.backend.read(tenant) as tx:
        found = [m for m in tx.memories(tenant, filters=old, order="seq").values()
                 if m.importance < COMPACT_BELOW and m.content is not None and m.expires_at is None]
    short = store.short_ids(tenant=tenant, ids=[m.id for m in found]) if found else {}
    weeks: dict[tuple[str, str], list[Memory]] = {}
    for memory in found:
        weeks.setdefault((memory.scope, iso_week(memory.observed_at)), []).append(memory)
    for (scope, week), sources in sorted(weeks.items()):
        for text, members in digest_parts(scope, week, sources, short):
            if len(members) < 2:
                continue  # a digest of one episode would only reword it
            if stop():
                report.finished = False
                return
            done = _write_digest(store, tenant, scope, week, text, members, report)
            if done is not None and progress is not None:
                progress(done)


def _write_digest(
    store: Store, tenant: str, scope: str, week: str, text: str, sources: list[Memory], report: Report
) -> Compacted | None:
    made, _ = store.embed_memory(text, store.model_problem())
    ids, content_hash = [m.id for m in sources], validate.content_hash(text)
    tokens = literal_tokens([text])[0]
    with _timed(report), store.backend.write(tenant) as tx:
        now_rows = tx.memories(tenant, ids=ids)  # locked: a concurrent supersede or forget waits
        if sorted(ids) != sorted(m.id for m in now_rows.values() if unchanged(m)):
            report.skipped += 1
            return None
        vectors = store.writable_vectors(tx, made)
        row = NewRow(
            id=new_id(), tenant=tenant, scope=scope, kind="episode", content=text,
            content_hash=content_hash, tags=(DIGEST_TAG,), importance=DIGEST_IMPORTANCE,
            source=DIGEST_SOURCE, observed_at=max(m.observed_at for m in sources), recorded_at=store.clock(),
            tokens=tokens, vectors=None if vectors is None else list(vectors.vectors),  # type: ignore[arg-type]
            model=vectors and vectors.model_id, compacts=tuple(ids),
        )
        tx.insert(row)
    done = Compacted(digest_id=row.id, tenant=tenant, scope=scope, week=week, sources=tuple(ids))
    report.compacted.append(done)
    return done



def _state(tx: Reader, tenant: str) -> dict:  # type: ignore[type-arg]
    return _parsed(tx.tenant_setting(tenant, REVIEW_KEY))


def _parsed(saved: str | None) -> dict:  # type: ignore[type-arg]
    state = json.loads(saved) if saved else {"mark": 0}
    state.setdefault("pending", [])  # seqs passed by the mark whose vectors were pending
    return state


def scan(
    store: Store, tenant: str, now: int, report: Report, stop: Callable[[], bool] = lambda: False,
    checked: set[str] | None = None,
) -> None:
    """Compare ``tenant``'s current memories of ``STATE_KINDS`` written since the last scan (the
    mark: the highest seq compared) with their ``NEIGHBOURS`` nearest of the same scope (and ``global``:
    ``change_pairs.compared_scopes``) and kinds,
    and, for a brief one, its best keyword matches (``candidates.worded_near``);
    a pair at cosine >= ``ranking.SAME_SUBJECT`` (or lower for strong evidence:
    ``contradiction.least_cosine``) whose words disagree (``contradiction.contradicts``) is kept for review. Pairs no
    longer both current, or that an agent judged both true (``Reader.dismissed``), are dropped: every pair kept
    at the first step of a run (``tenant`` not in ``checked``, then added; None: at every step) and at the last
    that compares, the pairs a step found at the others, so a step's bookkeeping grows with what it compared, not with the
    ``PAIRS_KEPT`` kept (docs/storage-tuning.md#consolidation-steps). A memory
    whose vector is pending is kept aside (up to
    ``PENDING_KEPT``; past that the mark stops before it) and compared by a later scan once it has
    one. ``SCAN_BATCH`` memories a step, ``stop()`` asked before each (a tenant with none new asks nothing)
    and the state saved after what was compared (ids and seqs only, never text)."""
    retry = True
    while True:
        with store.backend.read(tenant) as tx:
            state = _state(tx, tenant)
            before = set(tx.review_pairs(tenant))
            pairs = set(before)
            pending: list[int] = []
            batch: dict[int, Memory] = {}
            if retry and state["pending"]:
                for seq, memory in tx.memories(tenant, seqs=state["pending"]).items():
                    if _current(memory, now):
                        batch[seq] = memory
            current = Filters(tenant=tenant, scopes=None, now=now, kinds=STATE_KINDS)
            read = tx.memories(tenant, filters=current, order="seq", after_seq=state["mark"], limit=SCAN_BATCH)
            mark, cut, retried = state["mark"], False, set(batch)
            for seq, memory in read.items():
                if memory.vector_pending and len(pending) + len(state["pending"]) >= PENDING_KEPT:
                    cut = True  # no room to keep it aside: the mark stays before it
                    break
                batch[seq] = memory
            left = list(batch)  # compared one at a time, stop() asked before each: a served call waits for one
            while left and not stop():
                seq = left.pop(0)
                if batch[seq].vector_pending:
                    pending.append(seq)
                else:
                    found = _disagreeing(tx, seq, batch[seq], now)
                    pairs |= found | joined_ends(tx, tenant, pairs, found, now)
                    report.compared += 1
                mark = seq if seq not in retried else mark
            # kept aside: those the mark passed and this step did not compare
            pending += [p for p in left if p in retried] if retry else [p for p in state["pending"] if p not in batch]
            # (the last step: it compared all that was left; a tenant with nothing new was checked at the first)
            full = checked is None or tenant not in checked or bool(batch) and not left and (
                len(read) < SCAN_BATCH or cut)
            judged = pairs if full else pairs - before
            named = sorted({i for p in judged for i in p})
            members = {m.id: m for m in tx.memories(tenant, ids=named).values()} if named else {}
            dismissed = tx.dismissed(tenant, sorted({older for older, _ in judged})) if judged else set()
        live = {p for p in judged if all(i in members and unchanged(members[i]) for i in p) and p not in dismissed}
        live = set(_newest(live if full else live | before))
        report.contradictions += len(live - before)
        pending = sorted(set(pending))
        if mark != state["mark"] or live != before or pending != state["pending"]:
            with _timed(report), store.backend.write(tenant) as tx:
                tx.change_tenant_setting(tenant, REVIEW_KEY, lambda saved: _saved(saved, mark, pending))
                # pairs kept meanwhile (``note``) stay: only those this step read and no longer keeps go
                tx.change_review_pairs(tenant, live, before - live, PAIRS_KEPT)
        if full and checked is not None:
            checked.add(tenant)
        retry = False
        if left:
            report.finished = False
            return
        if len(read) < SCAN_BATCH or cut:
            return


_Seen = tuple[set[Pair], set[Pair], dict[str, tuple[str | None, int | None, str | None]]]


@dataclass(frozen=True)
class Kept:
    """The pairs :func:`keep` keeps, decided before its write (:func:`decide`), and what the decision read."""

    pairs: frozenset[Pair]
    seen: _Seen


def _seen(tx: Reader, tenant: str, pairs: list[Pair]) -> _Seen:
    """What deciding which of ``pairs`` to keep reads but the words and vectors: the review pairs, those of ``pairs``
    both current, and each memory of their chain (``change_pairs.linked``) as (superseded by, forgotten, content)."""
    reviewed = set(tx.review_pairs(tenant))
    members = tx.memories(tenant, ids=sorted({i for p in pairs for i in p})).values()
    rows = {m.id for m in members if unchanged(m)}
    ordered = {(a, b) for a, b in pairs if a in rows and b in rows}
    chain = tx.memories(tenant, ids=sorted(linked(reviewed, ordered))).values() if ordered else []
    return reviewed, ordered, {m.id: (m.superseded_by, m.forgotten_at, m.content) for m in chain}


def decide(tx: Reader, tenant: str, pairs: list[Pair], now: int, seen: _Seen | None = None) -> Kept:
    """Which of ``pairs`` of ids disagreeing (each ordered older first in meaning, as :func:`scan` orders them:
    ``contradiction.newer_in_meaning``) to keep for review: those still both current, and the pairs joining the
    ends of their chain (``change_pairs.joined_ends``). ``seen``: :func:`_seen` of ``pairs``, when already read.
    Reads only: a write's lock need not be held."""
    seen = reviewed, ordered, _ = _seen(tx, tenant, pairs) if seen is None else seen
    return Kept(frozenset(ordered | joined_ends(tx, tenant, reviewed, ordered, now) if ordered else ()), seen)


def keep(tx: Writer, tenant: str, pairs: list[Pair], now: int, kept: Kept | None = None) -> None:
    """Keep, in the write ``tx`` (remember's, supersede's, :func:`note`'s), the pairs :func:`decide` keeps of
    ``pairs``, beside the pairs the scans keep; the scan's mark is not moved. ``kept``: decided before the write,
    decided again here when the write reads other review pairs or members than it did (a change between).
    Raises Busy or StorageUnavailable."""
    seen = _seen(tx, tenant, pairs)
    if kept is None or seen != kept.seen:
        kept = decide(tx, tenant, pairs, now, seen)
    if kept.pairs:
        tx.change_review_pairs(tenant, set(kept.pairs), set(), PAIRS_KEPT)


def note(store: Store, tenant: str, pairs: list[tuple[str, str]]) -> None:
    """:func:`keep` ``pairs`` in a write of their own, decided in a read before it. Raises Busy or
    StorageUnavailable."""
    now = store.clock()
    with store.backend.read(tenant) as tx:
        kept = decide(tx, tenant, pairs, now)
    with store.backend.write(tenant) as tx:
        keep(tx, tenant, pairs, now, kept)


def compare_filled(store: Store, filled: list[Memory]) -> None:
    """Compare the memories whose vectors were just made (stored while the model was not ready:
    ``remember`` could not compare them) with their neighbours as :func:`scan` does, and keep the
    disagreeing pairs for review at once (:func:`note`). Raises Busy or StorageUnavailable."""
    now = store.clock()
    for tenant in sorted({m.tenant for m in filled}):
        with store.backend.read(tenant) as tx:
            rows = tx.memories(tenant, ids=[m.id for m in filled if m.tenant == tenant])
            pairs = set().union(*(_disagreeing(tx, seq, m, now) for seq, m in rows.items() if _current(m, now)))
        if pairs:
            note(store, tenant, sorted(pairs))  # type: ignore[arg-type]


def _newest(pairs: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """The ``PAIRS_KEPT`` pairs of the newest last written (ids sort by time), then the newest older, as
    ``Writer.change_review_pairs`` keeps them; sorted."""
    return sorted(sorted(pairs, key=lambda p: (p[1], p[0]), reverse=True)[:PAIRS_KEPT])


def _saved(saved: str | None, mark: int, pending: list[int]) -> str:
    """A scan step's state merged with what another writer saved since the step read it: a mark
    another scan moved further keeps its place and pending."""
    now = _parsed(saved)
    if now["mark"] > mark:
        mark, pending = now["mark"], sorted(set(pending) | set(now["pending"]))
    return json.dumps({"mark": mark, "pending": pending})


def _current(memory: Memory, now: int) -> bool:
    live = memory.expires_at is None or memory.expires_at > now
    return unchanged(memory) and live and memory.content is not None and memory.kind in STATE_KINDS


def _disagreeing(tx: Reader, seq: int, memory: Memory, now: int) -> set[tuple[str, str]]:
    """``(older id, newer id)`` of ``memory`` and each near memory of its scope (or ``global``:
    ``change_pairs``) it disagrees with."""
    if memory.content is None or memory.vector_pending:
        return set()
    filters = Filters(tenant=memory.tenant, scopes=compared_scopes(memory.scope), now=now, kinds=STATE_KINDS)
    found = worded_near(tx, filters, memory.content, seq, NEIGHBOURS + 1,
                        tx.search(Search(filters, k=NEIGHBOURS + 1, vector=seq)).vector)
    near = {s: cosine for s, cosine in found if s != seq and cosine >= least_cosine(SAME_SUBJECT)}
    out = set()
    for other_seq, other in tx.memories(memory.tenant, seqs=list(near)).items():
        if other.content is None or not may_contradict(memory.content, other.content, near[other_seq], SAME_SUBJECT):
            continue  # under every cosine gate, either way round: no words read to order them
        older, newer = sorted((memory, other), key=lambda m: (m.observed_at, m.id))
        if not newer_in_meaning(newer.content, older.content, True):  # type: ignore[arg-type]
            older, newer = newer, older
        if kept_across(older.scope, newer.scope) and contradicts(
                older.content, newer.content, near[other_seq], SAME_SUBJECT) is not None:  # type: ignore[arg-type]
            out.add((older.id, newer.id))
    return out
