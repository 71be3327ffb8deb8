"""Claude Code transcripts read as turns (server/transcripts.py), on a hand-written real-format file."""

from __future__ import annotations

import json
from pathlib import Path

from memvault.server import transcripts

DATA = Path(__file__).parent / "data"
SESSION = "5d0c7a51-2f3e-4b8a-9c1d-0e6f7a8b9c01"


def _uuid(n: int) -> str:
    return f"00000000-0000-4000-8000-{n:012d}"


def test_a_transcript_gives_its_turns_in_order_with_roles_tools_and_call_ids():
    got = transcripts.read(DATA / "claude_code_session.jsonl")
    turns = [turn for _, _, turn in got.turns]
    assert [(t.role, t.tool, t.call_id) for t in turns] == [
        ("user", None, None),
        ("assistant", None, None),
        ("assistant", "Grep", "toolu_01A"),
        ("tool", "Grep", "toolu_01A"),
        ("assistant", "Bash", "toolu_01B"),
        ("tool", "Bash", "toolu_01B"),
        ("user", None, None),
        ("assistant", None, None),
    ]
    assert [t.ref for t in turns] == [_uuid(n) for n in (2, 4, 5, 6, 8, 9, 11, 12)]
    assert {(s, cwd) for s, cwd, _ in got.turns} == {(SESSION, "/home/dev/projects/shop")}
    assert turns[0].text.startswith("The checkout total is off by one cent")
    assert json.loads(turns[2].text) == {"pattern": "round\\(", "path": "src/cart"}
    assert turns[5].text == "error: 1 failed, 7 passed"  # a result block list, marked as an error
    assert turns[0].at == 1_796_029_201_000  # 2026-11-30T09:00:01Z
    assert got.bad == [] and got.offset == (DATA / "claude_code_session.jsonl").stat().st_size


def test_thinking_meta_sidechain_summary_and_system_entries_are_skipped():
    texts = " ".join(turn.text for _, _, turn in transcripts.read(DATA / "claude_code_session.jsonl").turns)
    for skipped in ("rounding probably happens per line", "local-command-caveat", "Subagent notes",
                    "Fixing the checkout total", "stop_hook_summary"):
        assert skipped not in texts


def test_several_turns_of_one_entry_get_distinct_refs_and_images_are_named():
    entry = {"type": "assistant", "uuid": "u-1", "sessionId": "s", "timestamp": "2026-11-30T09:00:00Z",
             "message": {"role": "assistant", "content": [
                 {"type": "text", "text": "Reading it."},
                 {"type": "tool_use", "id": "toolu_9", "name": "Read", "input": {"file_path": "a.py"}}]}}
    result = {"type": "user", "uuid": "u-2", "sessionId": "s", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_9",
         "content": [{"type": "text", "text": "x = 1"}, {"type": "image", "source": {}}]}]}}
    turns, bad = transcripts.parse([json.dumps(entry), "not json", "[1]", "", json.dumps(result)], "s")
    assert bad == [2, 3]
    assert [(t.ref, t.role, t.tool) for _, _, t in turns] == [
        ("u-1", "assistant", None), ("u-1:1", "assistant", "Read"), ("u-2", "tool", "Read")]
    assert turns[2][2].text == "x = 1\n[image]"


def test_a_read_from_an_offset_leaves_an_unfinished_last_line_and_remembers_tool_names(tmp_path):
    lines = (DATA / "claude_code_session.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(b"".join(lines[:7]) + lines[7][:20])  # up to the Grep call, then half of its result
    first = transcripts.read(path)
    assert [t.ref for _, _, t in first.turns] == [_uuid(2), _uuid(4), _uuid(5)]
    assert first.offset == len(b"".join(lines[:7])) and first.names == {"toolu_01A": "Grep"}
    path.write_bytes(b"".join(lines))
    second = transcripts.read(path, first.offset, names=first.names)
    assert [(t.ref, t.tool) for _, _, t in second.turns][0] == (_uuid(6), "Grep")
    both = [t.ref for _, _, t in first.turns + second.turns]
    assert both == [t.ref for _, _, t in transcripts.read(path).turns]


def test_a_folder_gives_its_jsonl_files_recursively(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("a/one.jsonl", "a/b/two.jsonl", "a/notes.txt"):
        (tmp_path / name).write_text("")
    assert transcripts.transcripts(tmp_path) == [tmp_path / "a/b/two.jsonl", tmp_path / "a/one.jsonl"]
    assert transcripts.transcripts(tmp_path / "a/one.jsonl") == [tmp_path / "a/one.jsonl"]
