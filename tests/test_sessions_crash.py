"""A capture killed with SIGKILL mid-append loses no turn it acknowledged, and leaves the
session's turns numbered 1..n with no gap (issue 26)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import figure
from fakes import FakeEmbedder

from memvault.storage import maintenance
from memvault.storage.store import Store

pytestmark = pytest.mark.slow
WRITER = Path(__file__).with_name("session_writer.py")
KILLS = 15


def test_sigkill_mid_append_loses_no_acknowledged_turn(db_path: Path):
    rng = random.Random(26)
    acknowledged = 0
    for attempt in range(KILLS):
        proc = subprocess.Popen([sys.executable, str(WRITER), str(db_path), str(attempt)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=WRITER.parent)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
        first = proc.stdout.readline()
        assert first.startswith("ack "), first + (proc.stderr.read() if proc.stderr else "")
        time.sleep(rng.uniform(0.0, 0.2))
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        acks = [line.split() for line in (first + out).splitlines() if line.startswith("ack ")]
        acknowledged = max([acknowledged, *(int(last) for _, _, last in acks)])
        store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
        try:
            assert maintenance.check(store) == []
            turns = store.episodes.turns(tenant="t", session_id="crash")
            session = store.episodes.session(tenant="t", session_id="crash")
        finally:
            store.close()
        assert [t.seq for t in turns] == list(range(1, len(turns) + 1)) and session.turns == len(turns)
        assert len(turns) >= acknowledged, f"after kill {attempt + 1}: acknowledged turns lost"
        assert session.tokens == sum(t.tokens for t in turns)
        for _, low, high in acks:  # each acknowledged call's turns, as that writer wrote them
            written = turns[int(low) - 1:int(high)]
            assert all(t.text.startswith(f"writer {attempt} turn ") for t in written)
    figure(f"sessions: {KILLS} SIGKILLs mid-append, {acknowledged} acknowledged turns, 0 lost, "
           "no gap in seqs")
