"""What a server keeps resident while it answers (issue 9: RSS after 1,000 recalls): no
page of the database file mapped into the process, and no onnxruntime arena holding the
largest run's buffers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from fakes import FakeEmbedder
from memvault.storage import transfer
from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")


def mapped_kb(path: Path) -> int:
    """Resident KB of every mapping of ``path`` in this process."""
    total, current = 0, None
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:  # a mapping's header line
            current = fields[5] if len(fields) > 5 else None
        elif fields[0] == "Rss:" and current == str(path):
            total += int(fields[1])
    return total


def test_reading_and_writing_a_store_keeps_none_of_its_file_mapped(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    store = Store(path, FakeEmbedder())  # type: ignore[arg-type]
    lines = [json.dumps({"content": f"note {i} about the garden, the piano and invoice {i * 7}"}) for i in range(600)]
    report = transfer.import_lines(store, lines, tenant="t", scope="s")
    store.close()  # the last connection checkpoints: the reads below come from the database file
    store = Store(path, FakeEmbedder())  # type: ignore[arg-type]
    found = [store.recall(tenant="t", query=f"invoice {i * 7} garden", scopes=["s"], limit=5) for i in range(0, 600, 20)]
    store.remember(tenant="t", scope="s", content="one more note")
    assert report.imported == 600
    assert all(outcome.hits for outcome in found)  # the reads did read the file
    assert mapped_kb(path.resolve()) == 0
    store.close()


def test_the_model_runs_without_a_memory_arena(real_embedder: Embedder) -> None:
    real_embedder.embed(["a short question?", "a longer text " * 60])
    options = real_embedder._session.get_session_options()  # type: ignore[attr-defined]
    assert (options.enable_cpu_mem_arena, options.enable_mem_pattern) == (False, False)
    assert real_embedder.embed(["a short question?"]).shape == (1, real_embedder.dim)
