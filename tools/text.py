"""Compact text of the tool results, for the model (beside ``structuredContent``) and for people.

Stored content is shown as a JSON string literal: quoted data, never the server's own words.
"""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memvault.storage.backend import DIGEST_SOURCE, compaction_reason
from memvault.storage.literal import printable, quoted

if TYPE_CHECKING:  # the wire schemas (pydantic) only where a result is rendered: the boot context needs none
    from pydantic import BaseModel

    from memvault.storage.hits import Hit
    from memvault.storage.runs import RunSummary

    from .schemas import Contradiction, MemoryOut, RecallResult


def count(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` with its noun in agreement: ``1 memory``, ``2 memories``, ``1,000 tokens``."""
    return f"{n:,} {noun if n == 1 else nouns or noun + 's'}"


def confidence_text(confidence: float) -> str:
    """``confidence 0.68``, marked ``unsure`` under ``SURE_CONFIDENCE``, ``weak lead`` under ``ANSWER_CONFIDENCE``."""
    from memvault.storage.ranking import ANSWER_CONFIDENCE, SURE_CONFIDENCE  # (ranking: imported by a recall)

    mark = ", weak lead" if confidence < ANSWER_CONFIDENCE else ", unsure" if confidence < SURE_CONFIDENCE else ""
    shown = math.floor(confidence * 100 + 1e-9) / 100  # cut, not rounded: 0.4996 is no "0.50, unsure"
    return f"confidence {shown:.2f}{mark}"


def line_head(ident: str, kind: str | None, date: str, extra: str = "") -> str:
    """``[id] kind, date extra: `` before a memory's quoted content (``kind`` None: left out), as
    recall's text and the boot context both show it; ``date`` ISO-8601, its day kept."""
    return f"[{ident}] {f'{kind}, ' if kind else ''}{date[:10]}{extra}: "


def strength_text(strength: float, needs_review: bool) -> str:
    """`` — strength 0.60`` (with ``, needs review`` when it does), after a memory's quoted content."""
    return f" — strength {strength:.2f}" + (", needs review" if needs_review else "")


def runs_text(
    runs: int, successes: int, last_day: str | None, last_outcome: str | None, modes: Sequence[str],
    flagged: bool,
) -> str:
    """``3 runs, 2 succeeded, last 2026-03-01 failed (flagged: ...); failures: "disk full"`` (none:
    ``no runs recorded``); failure notes quoted like content."""
    if not runs:
        return "no runs recorded"
    last = f", last {last_day} {'succeeded' if last_outcome == 'success' else 'failed'}" if last_day else ""
    flag = " (flagged: the last two runs failed)" if flagged else ""
    failures = f"; failures: {', '.join(quoted(mode) for mode in modes)}" if modes else ""
    return f"{count(runs, 'run')}, {successes:,} succeeded{last}{flag}{failures}"


def memory_line(m: MemoryOut, scope: bool = False, ranked: bool = False) -> str:
    """``[short id] kind, date: "content" — strength 0.60``, with the scope, the confidence (``ranked``),
    a procedure's runs and the history status when set; the supersede reason is quoted like the content."""
    extra = f", scope {m.scope}" if scope else ""
    extra += f", {confidence_text(m.confidence)}" if ranked else ""
    r = m.runs
    runs = r and r.runs and runs_text(r.runs, r.successes, r.last_run_at and r.last_run_at[:10], r.last_outcome,
                                      r.failure_modes, r.flagged)
    return _line(line_head(m.short_id or m.id, m.kind, m.observed_at, extra), m.content,
                 m.strength, m.needs_review, runs or None, m.superseded_by, m.supersede_reason, m.signals.through,
                 m.source == DIGEST_SOURCE, m.possibly_outdated_by, m.superseded_by_ended, m.signals.newer_of)


def hit_line(hit: Hit, short_id: str, now: int, runs: RunSummary | None) -> str:
    """``memory_line(m, ranked=True)`` of the memory ``handlers`` shapes from ``hit`` (strength at ``now``,
    ms; a procedure's ``runs``), without the wire model: the prompt hook imports no pydantic
    (docs/hooks.md#speed)."""
    from memvault.storage import strength as strengths
    from memvault.storage.timefmt import format_ms

    memory = hit.memory
    shown_runs = None
    if memory.kind == "procedure" and runs is not None and runs.runs:
        last = format_ms(runs.last_run_at)
        shown_runs = runs_text(runs.runs, runs.successes, last and last[:10], runs.last_outcome,
                               runs.failure_modes, runs.flagged)
    head = line_head(short_id or memory.id, memory.kind, format_ms(memory.observed_at),
                     f", {confidence_text(hit.confidence)}")
    review = memory.superseded_by is None and strengths.needs_review(memory, now)
    return _line(head, memory.content or "", strengths.strength(memory, now), review, shown_runs,
                 memory.superseded_by, memory.supersede_reason, hit.signals.through, memory.source == DIGEST_SOURCE,
                 hit.outdated_by, newer_of=hit.signals.newer_of)


def _line(head: str, content: str, strength: float, needs_review: bool, runs: str | None, superseded_by: str | None,
          reason: str | None, through: str | None, digest: bool, outdated_by: str | None,
          ended: str | None = None, newer_of: str | None = None) -> str:
    """The line of one memory (:func:`memory_line`) from its fields: ``head`` (:func:`line_head`), its runs'
    text, what replaced it, why and whether that ended since (``ended``), the version or digest (``digest``)
    it was found through, what may outdate it, the hit it is returned for (``newer_of``)."""
    line = head + quoted(content) + strength_text(strength, needs_review)
    if runs:
        line += "; " + runs
    if superseded_by:
        line += " — " + _replaced(superseded_by, reason, ended)
    elif through and digest:
        line += f" — found through {through}, an episode it compacts"
    elif through:
        line += f" — found through its earlier version {through}"
    if outdated_by:
        line += f" — possibly outdated by the newer {outdated_by}"
    if newer_of:
        line += f" — returned for {newer_of}, which it possibly outdates"
    return line


def recall_text(r: RecallResult, person: bool = False, first: int = 1) -> str:
    """One line per memory numbered from ``first``, then what the agent (or, ``person``, a CLI user) can do next."""
    if r.turns is not None:
        from .sessions import turns_text  # it imports this module

        return turns_text(r, person)
    from memvault.storage.ranking import SURE_CONFIDENCE  # (ranking: imported by the recall)

    lines: list[str] = []
    if r.memories:
        order = "newest first" if r.listing else "best first"
        lines.append(f"{count(len(r.memories), 'memory', 'memories')}, {order}:")
        several = len({m.scope for m in r.memories}) > 1
        ranked = not r.listing
        lines += [f"{i}. {memory_line(m, several, ranked)}" for i, m in enumerate(r.memories, start=first)]
        if ranked and max(m.confidence for m in r.memories) < SURE_CONFIDENCE:
            lines.append("No hit is sure (under 0.5 a hit is as likely wrong as right): "
                         + ("check it before relying on it." if person else
                            "say it may be wrong, or that you do not know, rather than state it as fact."))
    elif r.listing:
        lines.append(f"No memories match these filters in scopes {', '.join(r.scopes)}.")
    elif person:
        lines.append(f"Nothing stored in scopes {', '.join(r.scopes)} answers this.")
    else:
        lines.append(
            f"Nothing relevant is stored in scopes {', '.join(r.scopes)} (abstained): say you do not know "
            "rather than guess."
        )
    if r.other_scopes:
        found = ", ".join(f"{o.scope!r} ({o.matches})" for o in r.other_scopes)
        again = (f"Run it again with --scope set to one of them (e.g. --scope {shlex.quote(r.other_scopes[0].scope)})"
                 if person else "Recall again with scope set to one of them")
        lines.append(f"Other scopes have matches: {found}. {again}.")
    if r.time is not None and r.time.note:
        lines.append(f"Time {r.time.text!r}: {r.time.note}.")
    if r.time is not None and r.memories and not r.time.memories_in_it:
        spans = r.time.ranges or [r.time]
        read = " or ".join(f"{span.since} to {span.until}" for span in spans)
        lines.append(f"Nothing shown was observed in {r.time.text!r} (read as {read}).")
    if r.truncated:
        lines.append("More matched but were left out to keep this short: narrow the query or lower "
                     + ("--limit." if person else "the limit."))
    if r.next_cursor and not person:
        lines.append(f"More memories pass these filters: recall again with the same empty query and filters "
                     f"and cursor {json.dumps(r.next_cursor)} for the next page.")
    if r.degraded:
        lines.append(f"Degraded: {r.degraded}")
    return "\n".join(lines)


def list_text(r: RecallResult, total: int, offset: int = 0, by_offset: bool = False, paged: bool = False) -> str:
    """``memvault list``'s text: :func:`recall_text` headed by its count out of ``total``, then the
    ``--cursor`` (or, ``by_offset``, the ``--offset``) of the next page."""
    shown = len(r.memories)
    if not shown:
        if not total:
            return recall_text(r, person=True)
        return f"No memories after the newest {offset:,}: {count(total, 'memory matches', 'memories match')} " \
               "these filters."
    lines = recall_text(r, person=True, first=offset + 1).splitlines()
    lines[0] = (f"{shown:,} more of {count(total, 'memory', 'memories')}, newest first:" if paged
                else f"{shown:,} of {count(total, 'memory', 'memories')}, newest first:" if not offset
                else f"Memories {offset + 1:,}-{offset + shown:,} of {total:,}, newest first:")
    after = next_offset(total, offset, shown)
    if by_offset and after is not None:
        lines.append(f"{total - after:,} more: run it again with --offset {after} (and the same filters).")
    elif r.next_cursor:
        lines.append(f"More follow: run it again with --cursor {r.next_cursor} (and the same filters).")
    return "\n".join(lines)


def next_offset(total: int, offset: int, shown: int) -> int | None:
    """The ``--offset`` of the next page; None when none follows."""
    return offset + shown if total - offset - shown > 0 else None


def memory_view_text(view: dict[str, Any]) -> str:
    """A memory and its history (see ``handlers.memory_view``) for people; every text a writer chose shown
    printable (``literal.printable``: no control character reaches a terminal)."""
    m = view["memory"]
    if "content" not in m:
        return f"{m['id']} {_ended(m)}"
    lines = [
        f"id:          {m['id']}",
        f"kind:        {m['kind']} (importance {m['importance']}, scope {m['scope']})",
        f"tags:        {', '.join(m['tags']) or '-'}",
        f"source:      {printable(m['source'] or '-')}",
        f"observed at: {m['observed_at']} (recorded {m['recorded_at']})",
    ]
    if m.get("expires_at"):
        lines.append(f"expires at:  {m['expires_at']}")
    if m.get("superseded_by"):
        successor = next((h for h in view["history"] if h["id"] == m["superseded_by"]), {"content": ""})
        lines.append("replaced:    " + _replaced(m["superseded_by"], m.get("supersede_reason"),
                                                 None if "content" in successor else _ended(successor)))
    if m.get("confirmations"):
        lines.append(f"confirmed:   {count(m['confirmations'], 'more time')}")
    lines.append(f"strength:    {m['strength']:.2f}{' (needs review)' if m.get('needs_review') else ''}")
    if m.get("runs") is not None:
        r = m["runs"]
        last = r["last_run_at"] and r["last_run_at"][:10]
        lines.append("runs:        " + runs_text(r["runs"], r["successes"], last, r["last_outcome"],
                                                 r["failure_modes"], r["flagged"]))
    lines += ["", printable(m["content"])]
    if len(view["history"]) > 1:
        lines += ["", "history, oldest first:"]
        for h in view["history"]:
            mark = "*" if h["id"] == m["id"] else " "
            if "content" not in h:
                lines.append(f"{mark} {h['id']} {_ended(h)}")
                continue
            why = f" — replaced: {printable(h['supersede_reason'])}" if h.get("supersede_reason") else ""
            lines.append(f"{mark} {h['id']} {h['observed_at'][:10]} {quoted(h['content'])}{why}")
    return "\n".join(lines)


def _ended(m: dict[str, Any]) -> str:
    """Of a memory that ended (``memory_view``'s tombstone): ``expired at <time>; its content is erased``,
    ``was forgotten at <time> (reason)``, or both."""
    why = f" ({printable(m['forget_reason'])})" if m.get("forget_reason") else ""
    forgotten = f"was forgotten at {m['forgotten_at']}{why}" if "forgotten_at" in m else ""
    if "expired_at" in m:
        return f"expired at {m['expired_at']}; its content is erased" + (f"; it {forgotten}" if forgotten else "")
    return forgotten


def _replaced(by: str, reason: str | None, ended: str | None = None) -> str:
    """What replaced a memory: ``compacted into the digest <id>``, or ``superseded by <id> (reason "...")``,
    then, when that one ended since, how (``ended``: "was forgotten", "expired at <time>")."""
    said = (f"compacted into the digest {by}" if reason == compaction_reason(by) else
            f"superseded by {by}" + (f" (reason {quoted(reason)})" if reason else ""))
    return said + (f", which {ended}" if ended else "")


def _contradiction_lines(contradicts: list[Contradiction], new_id: str, created: bool) -> str:
    """One line per memory a new one (``new_id``; ``created`` False: an existing one returned) contradicts."""
    text = ""
    for c in contradicts:
        how = f": if this one holds now, supersede {c.id} with `by` {new_id}" if created \
            else ": supersede the older one with what is true now"
        if c.newer and created:
            how = f", the newer of the two: if that one still holds, supersede {new_id} with `by` {c.id}"
        if c.other_scope is not None and created:  # `by` replaces a memory within its scope only
            how = (f", of scope `{c.other_scope}`: this one outdates it in this scope only; if the change holds in "
                   f"every scope, supersede {c.id} with `content` saying what is true now")
        text += f"\nContradicts current memory {c.id} ({c.reason}){how}."
    return text


def _private_dropped(redacted: list[str]) -> str:
    """The line saying a call's ``<private>`` spans were dropped ("" when none was)."""
    return ("\nRedacted: the text inside <private>...</private> was removed, not stored." if "private" in redacted
            else "")


def render(result: BaseModel) -> str:
    """The compact text of any tool result."""
    from .schemas import ConfirmResult, ForgetResult, RecallResult, RememberResult, SupersedeResult

    if isinstance(result, RecallResult):
        return recall_text(result)
    if isinstance(result, RememberResult):
        if result.similar and not result.created:
            text = (f"Not stored: similar current memories {', '.join(result.similar)}. Supersede one of them, "
                    "or call remember again without check_similar.")
        elif result.duplicate_of:
            text = f"Already stored as {result.id}: counted as one more confirmation of it, no new memory written."
            if result.outdated_by:
                text += (f" It is possibly outdated by {result.outdated_by}, a contradiction waiting in review: "
                         f"supersede {result.id} with `by` {result.outdated_by} if that one holds now, or confirm "
                         f"{result.id} with `beside` {result.outdated_by} if both hold.")
        elif not result.created:
            text = f"Already stored as {result.id} (same idempotency_key): nothing new written."
        else:
            text = f"Stored as {result.id}."
        if result.similar and result.created:
            text += f" Similar current memories: {', '.join(result.similar)} (supersede one if it is now out of date)."
        if result.not_applied:
            text += f" Not applied (the stored memory keeps its own): {', '.join(result.not_applied)}."
        text += _contradiction_lines(result.contradicts, result.id, result.created)
        if result.lookalike_scope is not None:
            text += (f"\nNote: this is the first memory of its scope, and the scope {quoted(result.lookalike_scope)}, "
                     "which holds memories, differs from it only by letter case or character form. Scopes are "
                     "matched exactly: recall in one does not read the other. If that scope was meant, forget "
                     f"{result.id} and remember it with that scope.")
        return text + _private_dropped(result.redacted) + (f"\nDegraded: {result.degraded}" if result.degraded else "")
    if isinstance(result, SupersedeResult):
        if not result.stored:
            return f"{result.superseded_id} is now superseded by {result.id}; it stays in the history."
        return (f"Stored {result.id}; it supersedes {result.superseded_id}, which stays in the history."
                + _contradiction_lines(result.contradicts, result.id, True) + _private_dropped(result.redacted))
    if isinstance(result, ConfirmResult):
        did = f"Recorded a {result.outcome} of {result.id}" if result.outcome else f"Confirmed {result.id}"
        text = f"{did}: strength {result.strength:.2f}" + (", needs review." if result.needs_review else ".")
        if result.beside is not None:
            text += (f" It holds beside {result.beside}: that pair is no longer a contradiction." if result.paired
                     else f" It holds beside {result.beside}, which it was not found to contradict: the two will "
                          "not be flagged as a contradiction.")
        if result.runs is not None:
            r = result.runs
            last = r.last_run_at and r.last_run_at[:10]
            text += " Runs: " + runs_text(r.runs, r.successes, last, r.last_outcome, r.failure_modes,
                                          r.flagged) + "."
        return text + _private_dropped(result.redacted)
    if isinstance(result, ForgetResult):
        if result.session is not None:
            digests = f"; its digest erased ({', '.join(result.forgotten_ids)})" if result.forgotten_ids else ""
            text = f"Forgot session {result.session}: {count(result.turns_deleted, 'turn')} deleted{digests}."
        elif result.already_forgotten and not result.forgotten_ids:
            text = f"{result.id} was already forgotten."
        else:
            text = f"Forgot {', '.join(result.forgotten_ids)}: content erased, tombstone kept."
        for session in result.sessions_kept:
            text += (f" It was the digest of session {session}, whose turns are kept (its next end writes a new "
                     f"digest from them): forget with session_id {session} removes them too.")
        if result.restored_ids:
            text += f" Current again (their digest was emptied): {', '.join(result.restored_ids)}."
        if not result.scrubbed:
            text += (" Its bytes leave the database files at the next scrub (SQLite: a background one, normally "
                     "within seconds; PostgreSQL: `memvault doctor` run by the tables' owner).")
        return text + _private_dropped(result.redacted)
    return result.model_dump_json()
