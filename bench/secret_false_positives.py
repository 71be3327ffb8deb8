"""How many texts of the evaluation sets the credential check refuses (false positives).

Usage: python bench/secret_false_positives.py ../shared/eval/agentic ../shared/eval/locomo

Every memory's text and tags and every question of each set's ``memories.jsonl`` and
``queries.jsonl`` is scanned with ``secrets.find_secrets``, as ``remember`` would. None of
them holds a credential, so every refusal is a false positive; prints the count, the total
and each refused text with what was found. Expected: 0 (of 6,591 texts in both sets: 5,894 memories and questions, 697 tags).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from memvault.storage.secrets import find_secrets


def texts(folder: Path) -> list[tuple[str, str]]:
    """``(id, text)`` of every memory (text, then its tags) and question in ``folder``."""
    out: list[tuple[str, str]] = []
    for name, field in (("memories.jsonl", "text"), ("queries.jsonl", "question")):
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            out.append((row["id"], row[field]))
            out += [(f"{row['id']} tag", tag) for tag in row.get("tags") or []]
    return out


def main(folders: list[str]) -> int:
    every = [item for folder in folders for item in texts(Path(folder))]
    refused = [(i, t, f) for (i, t), f in zip(every, find_secrets(*(t for _, t in every)), strict=True) if f]
    for ident, text, found in refused:
        print(f"{ident}: {found} {text[:160]!r}")
    print(f"refused {len(refused)} of {len(every):,} texts")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
