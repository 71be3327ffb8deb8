"""A store of fixed ids, times and contents for the boot context's golden texts
(``tests/data/boot_golden.json``, made by the boot code before memories kept their token counts;
those with excerpts made again when an excerpt's line stopped repeating its id in a URI and when
the room left went to excerpts)."""

from __future__ import annotations

import json

from memvault.storage import transfer
from memvault.storage.store import Store

KINDS = ("preference", "decision", "procedure", "fact", "failure", "episode")
BUDGETS = (200, 300, 500, 800, 1500, 3000)
TEXTS = (
    "the service on port {i} belongs to team {j}",
    'she said "use the staging cluster" before {i} o\'clock',
    "path C:\\tools\\bin\\run{i}.exe and a \\n that is no line break",
    "step {i}: build\nstep {j}: test\n\tthen deploy",
    "Pay invoice \u202e{i}\u202c to account\u200b {j}, soft\u00adhyphen",
    "café déjà vu {i} — naïve résumé, 日本語のメモ {j}, Ελληνικά, 🚀 launch",
    "\u0301combining mark first, then {i} words",
    "a word too long to split: " + "x" * 120 + " then {i}",
    "code: `def f(x): return x ** {i}` # {j}% done; see https://example.com/a?b={i}&c=[1]",
    "long account {i}: " + "what was tried and what broke, who was paged and how it was rolled back. " * 12,
)


def seed(store: Store, tenant: str = "t", scope: str = "proj", n: int = 90) -> None:
    """``n`` memories of every kind and text above, in ``scope`` and ``global``, at fixed times."""
    lines = []
    for i in range(n):
        text = TEXTS[i % len(TEXTS)].format(i=i, j=i % 7)
        lines.append(json.dumps({
            "id": f"0190a{i % 3:03x}-{i:04x}-7000-8000-{i * 7919:012x}",
            "kind": KINDS[i % len(KINDS)], "content": text, "importance": 1 + i * 3 % 10,
            "scope": "global" if i % 5 == 4 else scope,
            "observed_at": f"2025-{1 + i % 12:02d}-{1 + i * 11 % 28:02d}T{i % 24:02d}:00:00Z",
            "recorded_at": f"2025-12-{1 + i % 28:02d}T00:00:00Z",
        }))
    report = transfer.import_lines(store, lines, tenant=tenant, scope=scope)
    assert not report.failed, report
