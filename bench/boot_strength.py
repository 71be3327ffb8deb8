"""What showing strength on boot lines costs (docs/tools.md#resources): memories shown and sections
filled at 300, 800 and 2,000 tokens with no mark, with ``boot.REVIEW_MARK`` on the lines that need
review (what memvault does), with the figure there, and with the figure on every line of the kinds
reviewed, over the golden test store (tests/boot_seed.py) and the boot tests' store (60 facts, 5
failures, 10 episodes, 5 preferences, most of them due for review).

Usage: python bench/boot_strength.py
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from boot_seed import seed  # noqa: E402
from fakes import Clock, FakeEmbedder  # noqa: E402
from test_boot import fill  # noqa: E402

from memvault.storage import strength as strengths  # noqa: E402
from memvault.storage.store import Store  # noqa: E402
from memvault.tools import boot  # noqa: E402
from memvault.tools.boot import boot_context  # noqa: E402
from memvault.tools.handlers import Caller  # noqa: E402


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    stores = {"golden store": Store(folder / "a.db", FakeEmbedder(), clock=Clock()),  # type: ignore[arg-type]
              "boot tests' store": Store(folder / "b.db", FakeEmbedder(), clock=Clock())}  # type: ignore[arg-type]
    seed(stores["golden store"])
    fill(stores["boot tests' store"], facts=60, failures=5, episodes=10, preferences=5)
    review = boot.needs_review
    variants = {  # which lines carry a mark, and the mark (a stand-in figure: the tokens are what count)
        "no mark": (lambda m, now: False, ""),
        "needs review (shipped)": (review, boot.REVIEW_MARK),
        "figure where review due": (review, " — strength 0.23, needs review"),
        "figure on every line": (lambda m, now: m.kind in strengths.REVIEWED_KINDS, " — strength 0.60"),
    }
    for label, (asked, mark) in variants.items():
        boot.needs_review, boot.REVIEW_MARK = asked, mark  # type: ignore[assignment]
        for name, store in stores.items():
            for budget in (300, 800, 2000):
                doc = boot_context(store, Caller("t", "proj"), budget)
                found = re.search(r"_(\d[\d,]*) of (\d[\d,]*) memor", doc)
                assert found is not None
                print(f"{label:24} {name:18} {budget:5} tokens: {found.group(1):>3} of {found.group(2)} shown,"
                      f" {doc.count(chr(10) + '## ')} sections")
    for store in stores.values():
        store.close()


if __name__ == "__main__":
    main()
