"""Runs of a procedure (``confirm`` with an outcome) and what they add up to; pure, no storage.

Idea from memvault's seeds (the consolidation article): a procedure tracks its success rate, last
run and failure modes, and two failures in a row flag it for review.
"""

from __future__ import annotations

from dataclasses import dataclass

OUTCOMES = ("success", "failure")
FLAG_STREAK = 2  # failures in a row that flag a procedure
FAILURE_MODES_SHOWN = 3  # the newest distinct failure notes a summary keeps


@dataclass(frozen=True)
class Run:
    """One recorded run: ``at`` ms since the epoch, ``outcome`` one of ``OUTCOMES``, ``note`` the
    failure mode as given (None: none given, or erased with a forgotten procedure)."""

    at: int
    outcome: str
    note: str | None = None


@dataclass(frozen=True)
class RunSummary:
    """A procedure's runs: how many, how many succeeded, the last one's time (ms) and outcome,
    the failures since the last success, the newest distinct failure notes (newest first), and
    ``flagged`` when the last ``FLAG_STREAK`` runs failed."""

    runs: int
    successes: int
    last_run_at: int | None
    last_outcome: str | None
    failure_streak: int
    failure_modes: tuple[str, ...]
    flagged: bool

    @property
    def success_rate(self) -> float | None:
        """Successes over runs, rounded to 2 places; None before the first run."""
        return round(self.successes / self.runs, 2) if self.runs else None


def summarize(runs: list[Run]) -> RunSummary:
    """The :class:`RunSummary` of ``runs`` (any order; ties of ``at`` keep the given order)."""
    ordered = sorted(runs, key=lambda run: run.at)
    streak = 0
    for run in reversed(ordered):
        if run.outcome != "failure":
            break
        streak += 1
    notes = [run.note for run in reversed(ordered) if run.outcome == "failure" and run.note]
    modes = list(dict.fromkeys(notes))[:FAILURE_MODES_SHOWN]
    last = ordered[-1] if ordered else None
    return RunSummary(
        runs=len(ordered), successes=sum(run.outcome == "success" for run in ordered),
        last_run_at=None if last is None else last.at, last_outcome=None if last is None else last.outcome,
        failure_streak=streak, failure_modes=tuple(modes), flagged=streak >= FLAG_STREAK,
    )
