"""/healthz tells the truth about a SQLite file damaged in part while the team server runs (issue 25 §6).
(What it finds with no call reading the damage first: tests/test_healthz_finds_damage.py.)

The readiness read (the header, the settings, one key's row) lives in pages a cut or a stray write can
spare while every recall meets the damage: /healthz said 200 "damaged" while each call was a tool error.
Once a call's read has met the damage it is 503 "not ready" (reason "damaged", never a path) from the next
/healthz on; damage no call meets, and a busy sound server, stay 200.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest
from damaged_files import (DAMAGED, calls, cut_inside_a_page, cut_to, healthz, last_page_gone, looks_while,
                           middle_page_overwritten, tag_index_overwritten)
from httpwire import HttpServer
from sqlite_raw import overwrite_pages

from memvault.server.http import PROBE_CACHE_S

pytestmark = pytest.mark.slow


def _header_zeroed(db: Path) -> None:
    with open(db, "r+b") as f:
        f.write(b"\x00" * 100)


def _keyword_index_overwritten(db: Path) -> None:
    """Pages every recall of acme reads (its keyword index), in the closed file: found at start too."""
    overwrite_pages(db, "memories_fts_1_data")


# (damage, whether recall fails (None: as the pages hit fall), /healthz's reason while it does); the last two
# damage the closed file before the server starts.
DAMAGES = [
    (cut_to(0.5), True, "damaged"), (cut_inside_a_page, True, "damaged"), (last_page_gone, True, "damaged"), (middle_page_overwritten, None, "damaged"),
    (_header_zeroed, True, "damaged"), (_keyword_index_overwritten, True, "damaged"),
    (tag_index_overwritten, False, None),
]
CLOSED = (_keyword_index_overwritten, tag_index_overwritten)
REFUSED = (_header_zeroed,)  # the readiness read meets it: every request is refused before any tool
# The readiness probe's look at the file's length finds these (tests/test_healthz_finds_damage.py), unless a
# checkpoint of the calls' writes wrote the file to its length again first (the lost pages then read as zeros, and
# a call meets them before the probe's whole-file check does)
CUTS = tuple(d for d, _, _ in DAMAGES[:3])
TOOL_CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
             "params": {"name": "recall", "arguments": {"query": "which host runs svc-42"}}}


@pytest.mark.parametrize(("damage", "fails", "reason"), DAMAGES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_healthz_is_not_ready_from_the_first_look_after_a_call_met_the_damage(
        tmp_path: Path, fleet: tuple[Path, str], damage: Callable[[Path], None], fails: bool | None,
        reason: str | None) -> None:
    db = tmp_path / "m.db"
    shutil.copy(fleet[0], db)
    if damage in CLOSED:
        damage(db)
    server = HttpServer(db, logs=tmp_path)
    try:
        if damage in CLOSED:
            deadline = time.monotonic() + 60  # the server's check at start (in the background) finds it
            while healthz(server).json()["database"] == "ready" and time.monotonic() < deadline:
                time.sleep(0.2)
        else:
            (recall_failed, _), (remember_failed, _) = anyio.run(calls, server, fleet[1], 0)
            assert not recall_failed and not remember_failed
            damage(db)
            # the readiness read before the damage is served for PROBE_CACHE_S, and a file cut short is found at
            # the probe's second look
            deadline = time.monotonic() + 2 * PROBE_CACHE_S + 5
            while damage in REFUSED + CUTS and healthz(server).status_code == 200 and time.monotonic() < deadline:
                time.sleep(0.2)
        # refused before any tool (the probe found it), or served and the calls meet it (a cut a checkpoint hid)
        refusing = damage in REFUSED or damage in CUTS and server.post(fleet[1], TOOL_CALL).status_code == 503
        looks = []
        for n in range(1, 4):
            if not refusing:
                try:
                    recalled, remembered = anyio.run(calls, server, fleet[1], n)
                    looks.append((recalled, remembered, healthz(server)))
                    continue
                except Exception:  # the SDK's client raises on a 503: the probe found a cut meanwhile
                    if damage not in CUTS:
                        raise
                    refusing = True
            refused = server.post(fleet[1], TOOL_CALL)  # HTTP 503, saying what happened
            assert refused.status_code == 503 and refused.json()["error"]["data"]["error"] == "database_unavailable"
            assert refused.json()["error"]["message"].startswith(DAMAGED), refused.text
            looks.append(((True, refused.text), (True, refused.text), healthz(server)))
        log = server.log()
    finally:
        server.close()
    met = False  # a call's read has met the damage: /healthz says so from its next look on
    for (recall_failed, recall_text), (remember_failed, remember_text), health in looks:
        assert fails is None or recall_failed is fails, recall_text
        # (a remember's own reads, or the worker's of a tenant, may meet the damage before its write)
        met = met or recall_failed or remember_failed and DAMAGED in remember_text and health.status_code == 503
        said = health.json()
        assert str(db) not in health.text and "Traceback" not in log
        if met:
            assert remember_failed
            assert health.status_code == 503 and said == {"status": "error", "database": "not ready",
                                                          "reason": reason, "model": said["model"]}, health.text
            assert reason != "damaged" or DAMAGED in remember_text and (DAMAGED in recall_text or not recall_failed)
        else:  # served; "damaged" (writes refused) once a check or a write met the damage, as a remember may
            assert health.status_code == 200 and said["status"] == "ok", health.text
            wrote_into_it = remember_failed and DAMAGED in remember_text
            assert said["database"] == ("damaged" if damage in CLOSED or wrote_into_it else "ready"), health.text


def test_a_busy_sound_server_stays_ready(tmp_path: Path, fleet: tuple[Path, str]) -> None:
    db = tmp_path / "m.db"
    shutil.copy(fleet[0], db)
    server = HttpServer(db, logs=tmp_path)

    async def busy(_looks: object) -> list[tuple[bool, str]]:
        done: list[tuple[bool, str]] = []

        async def caller(first: int) -> None:
            for n in range(first, first + 8):
                done.extend(await calls(server, fleet[1], n))

        async with anyio.create_task_group() as tasks:
            for first in (0, 100, 200):
                tasks.start_soon(caller, first)
        return done

    try:
        done, looks = looks_while(server, busy)
        looks.append(healthz(server))
    finally:
        server.close()
    assert [text for failed, text in done if failed] == []
    assert len(done) == 48
    assert {(r.status_code, r.json()["status"], r.json()["database"]) for r in looks} == {(200, "ok", "ready")}
