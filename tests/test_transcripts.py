"""Claude Code transcripts read as turns (server/transcripts.py), on a hand-written real-format file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memvault.server import transcripts

DATA = Path(__file__).parent / "data"
SESSION = "5d0c7a51-2f3e-4b8a-9c1d-0e6f7a8b9c01"


def _uuid(n: int) -> str:
    return f"00000000-0000-4000-8000-{n:012d}"


def test_a_transcript_gives_its_turns_in_order_with_roles_tools_and_call_ids():
    got = next(transcripts.chunks(DATA / "claude_code_session.jsonl"))
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
    assert turns[2].text == "pattern: round\\(\npath: src/cart"  # the input's fields, as written
    assert turns[5].text == "error: 1 failed, 7 passed"  # a result block list, marked as an error
    assert turns[0].at == 1_796_029_201_000  # 2026-11-30T09:00:01Z
    assert got.bad == [] and got.offset == (DATA / "claude_code_session.jsonl").stat().st_size


def test_thinking_meta_sidechain_summary_and_system_entries_are_skipped():
    texts = " ".join(turn.text for _, _, turn in next(transcripts.chunks(DATA / "claude_code_session.jsonl")).turns)
    for skipped in ("rounding probably happens per line", "local-command-caveat", "Subagent notes",
                    "Fixing the checkout total", "stop_hook_summary"):
        assert skipped not in texts


@pytest.mark.parametrize(("content", "kept"), [
    ("<command-name>/model</command-name>\n            <command-message>model</command-message>\n"
     "            <command-args></command-args>", False),
    ("<local-command-stdout>Set model to Opus</local-command-stdout>", False),
    ("<local-command-stderr>Error: unknown model</local-command-stderr>", False),
    ("<command-message>clear</command-message>\n<command-name>/clear</command-name>", False),
    ("<command-name>/review-pr</command-name>\n<command-args>123</command-args>", True),  # says what was asked
    ("Run <command-name>/model</command-name> next time", True),
    ("<local-command-stdout>ok</local-command-stdout> and then fix the build", True),
])
def test_a_built_in_slash_command_and_its_output_are_no_turn(tmp_path, content, kept):
    """A session where the user only ran /model is no session (a recheck found it the next boot's last)."""
    entry = {"type": "user", "uuid": "u-1", "sessionId": "s", "timestamp": "2026-11-30T09:00:00Z",
             "message": {"role": "user", "content": content}}
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(entry) + "\n")
    assert [t.text for _, _, t in next(transcripts.chunks(path)).turns] == ([content] if kept else [])


@pytest.mark.parametrize(("given", "text"), [
    ({"args": ["--password", "Xk29slQpz1Vb"]}, "args: --password [password]"),
    ({"argv": ["sshpass", "-p", "Xk29slQpz1Vb", "ssh", "db.internal"]}, "argv: sshpass -p [password] ssh db.internal"),
    ({"cmd": ["mysql", "-u", "root", "--password=Xk29slQpz1Vb"]}, "cmd: mysql -u root --password=[password]"),
    ({"env": [{"name": "DB_PASSWORD", "value": "Xk29slQpz1Vb"}]}, "env[0].DB_PASSWORD: [password]"),
    ({"env": [{"Name": "API_TOKEN", "Value": "Xk29slQpz1Vb"}]}, "env[0].API_TOKEN: [access token]"),
    ({"flags": [1, 2, "a b"]}, "flags: 1 2 'a b'"),  # no credential: as a shell writes it
    ({"edits": [{"old_string": "a", "new_string": "b"}]}, "edits[0].old_string: a\nedits[0].new_string: b"),
])
def test_a_tool_input_keeps_a_flag_and_its_value_on_one_line_so_redaction_sees_them(given, text):
    """An argv list or an env entry flattened one item a line hid `--password X` from the scanner
    (the adversarial pass of stop 44 found it stored from a hook)."""
    from memvault.storage.secrets import redact

    assert redact(transcripts.input_text(given))[0] == text


def test_several_turns_of_one_entry_get_distinct_refs_and_images_are_named(tmp_path):
    entry = {"type": "assistant", "uuid": "u-1", "sessionId": "s", "timestamp": "2026-11-30T09:00:00Z",
             "message": {"role": "assistant", "content": [
                 {"type": "text", "text": "Reading it."},
                 {"type": "tool_use", "id": "toolu_9", "name": "Read", "input": {"file_path": "a.py"}}]}}
    result = {"type": "user", "uuid": "u-2", "sessionId": "s", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_9",
         "content": [{"type": "text", "text": "x = 1"}, {"type": "image", "source": {}}]}]}}
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join([json.dumps(entry), "not json", "[1]", "", json.dumps(result)]) + "\n")
    got = next(transcripts.chunks(path))
    turns, bad = got.turns, got.bad
    assert bad == [2, 3]
    assert [(t.ref, t.role, t.tool) for _, _, t in turns] == [
        ("u-1", "assistant", None), ("u-1:1", "assistant", "Read"), ("u-2", "tool", "Read")]
    assert turns[2][2].text == "x = 1\n[image]"


def test_a_read_from_an_offset_leaves_an_unfinished_last_line_and_remembers_tool_names(tmp_path):
    lines = (DATA / "claude_code_session.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(b"".join(lines[:7]) + lines[7][:20])  # up to the Grep call, then half of its result
    first = next(transcripts.chunks(path))
    assert [t.ref for _, _, t in first.turns] == [_uuid(2), _uuid(4), _uuid(5)]
    assert first.offset == len(b"".join(lines[:7])) and first.names == {"toolu_01A": "Grep"}
    path.write_bytes(b"".join(lines))
    second = next(transcripts.chunks(path, first.offset, names=first.names))
    assert [(t.ref, t.tool) for _, _, t in second.turns][0] == (_uuid(6), "Grep")
    both = [t.ref for _, _, t in first.turns + second.turns]
    assert both == [t.ref for _, _, t in next(transcripts.chunks(path)).turns]


def test_a_folder_gives_its_jsonl_files_recursively(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("a/one.jsonl", "a/b/two.jsonl", "a/notes.txt"):
        (tmp_path / name).write_text("")
    assert transcripts.transcripts(tmp_path) == [tmp_path / "a/b/two.jsonl", tmp_path / "a/one.jsonl"]
    assert transcripts.transcripts(tmp_path / "a/one.jsonl") == [tmp_path / "a/one.jsonl"]


def _entry(uuid: str, session: str, content: object, kind: str = "user") -> str:
    return json.dumps({"type": kind, "uuid": uuid, "sessionId": session, "timestamp": "2026-11-30T09:00:00Z",
                       "cwd": "/x", "message": {"role": kind, "content": content}})


def _call(uuid: str, name: str, tool_input: object) -> str:
    return _entry(uuid, "s", [{"type": "tool_use", "id": f"toolu_{uuid}", "name": name, "input": tool_input}],
                  "assistant")


@pytest.mark.parametrize(("tool_input", "text"), [
    ({"file_path": "/app/.env", "content": "DEBUG=1\nNAME=\"shop\"\n"},
     "file_path: /app/.env\ncontent: DEBUG=1\nNAME=\"shop\"\n"),
    ({"edits": [{"old_string": "a", "new_string": "b\nc"}], "replace_all": False, "n": None},
     "edits[0].old_string: a\nedits[0].new_string: b\nc\nreplace_all: false\nn: null"),
    ({"config": {"port": 5433, "tags": []}}, "config.port: 5433\nconfig.tags: []"),
    ({}, "{}"),
    ("plain text", "plain text"),
])
def test_a_tool_input_is_stored_as_its_fields_with_their_real_line_breaks(tmp_path, tool_input, text):
    path = tmp_path / "s.jsonl"
    path.write_text(_call("u1", "Write", tool_input) + "\n")
    assert [turn.text for _, _, turn in next(transcripts.chunks(path)).turns] == [text]


def test_a_line_nested_too_deeply_is_unreadable_and_the_lines_after_it_are_read(tmp_path):
    path = tmp_path / "s.jsonl"
    deep = "[" * 100_000 + "]" * 100_000
    deep_input = _call("u2", "Write", {"a": deep})  # a deep value inside an entry
    path.write_text("\n".join([_entry("u1", "s", "first"), deep, deep_input.replace(json.dumps(deep), deep),
                               _entry("u4", "s", "after")]) + "\n")
    got = next(transcripts.chunks(path))
    assert [t.ref for _, _, t in got.turns] == ["u1", "u4"] and got.bad == [2, 3]
    assert got.offset == path.stat().st_size


@pytest.mark.parametrize("session_id", [
    "bad/id", "two words", "x" * 129, "", "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"])
def test_an_entry_whose_session_id_cannot_be_one_is_refused_and_the_others_are_read(tmp_path, session_id):
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join([_entry("u1", "s", "first"), _entry("u2", session_id, "odd one"),
                               _entry("u3", "s", "third")]) + "\n")
    got = next(transcripts.chunks(path))
    assert [(s, t.ref) for s, _, t in got.turns] == [("s", "u1"), ("s", "u3")]
    assert got.refused == [2] and got.bad == []


def test_a_line_holding_a_unicode_line_separator_is_one_line(tmp_path):
    path = tmp_path / "s.jsonl"  # JSON.stringify leaves U+2028 and U+2029 unescaped
    path.write_text(json.dumps({"type": "user", "uuid": "u1", "sessionId": "s", "message": {
        "content": "one\u2028two\u2029three"}}, ensure_ascii=False) + "\n", encoding="utf-8")
    got = next(transcripts.chunks(path))
    assert [t.text for _, _, t in got.turns] == ["one\u2028two\u2029three"] and got.bad == []


def test_a_finished_transcripts_last_line_without_its_line_end_is_read_when_final(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text(_entry("u1", "s", "first") + "\n" + _entry("u2", "s", "last, no line end"))
    assert [t.ref for _, _, t in next(transcripts.chunks(path)).turns] == ["u1"]
    got = next(transcripts.chunks(path, final=True))
    assert [t.ref for _, _, t in got.turns] == ["u1", "u2"] and got.offset == path.stat().st_size


def test_chunks_end_at_line_ends_and_each_offset_starts_the_rest(tmp_path):
    path = tmp_path / "s.jsonl"
    lines = [_entry(f"u{n}", "s", f"turn {n}") for n in range(7)] + ["not json", _entry("u7", "s", "last")]
    path.write_text("\n".join(lines) + "\n")
    parts = list(transcripts.chunks(path, turns=3))
    assert [[t.ref for _, _, t in part.turns] for part in parts] == [
        ["u0", "u1", "u2"], ["u3", "u4", "u5"], ["u6", "u7"]]
    assert [part.bad for part in parts] == [[], [], [8]]  # numbered from the read's first line
    for part, ref in zip(parts[:-1], ["u3", "u6"], strict=True):
        assert [t.ref for _, _, t in next(transcripts.chunks(path, part.offset)).turns][0] == ref
    assert parts[-1].offset == path.stat().st_size


GITHUB = "ghp_R7qZk9x2mQ7Lp4RtYv8Wn3Bc6Df1Gh5Jk0Ls"
PEM_KEY = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1c7+2LXc9Q0kK8bS3c4JkQp0w1yV7vZ8mN3aH4tF2eR9sK1u\n"
           "L0pQ7xW2cV5nB8mZ3aS6dF9gH1jK4lM7nB0vC3xZ6qW9eR2tY5uI8oP1aS4dF7g\n-----END RSA PRIVATE KEY-----")
# (text before, the credential, text after): each written across the text blocks of one message
SPLIT = [("first half ", GITHUB, " second half"), ("Your new token: ", GITHUB, " (keep it safe)"),
         ("the key is ", "AKIAQYLPMN5HFIQR7BZX", " for the deploy bot"),
         ("my password is ", "Xq7!mPz2#Lw9vR", " ok"), ("db password: ", "Hq8zLm2!VwT4", " and more"),
         ("here:\n", PEM_KEY, "\nthat is the key")]


def _split(text: str, cuts: tuple[int, ...]) -> list[str]:
    at = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(at, at[1:])]


@pytest.mark.parametrize("role", ["user", "assistant"])
@pytest.mark.parametrize(("before", "secret", "after"), SPLIT)
@pytest.mark.parametrize("blocks", [2, 3, 4])
def test_a_credential_across_the_text_blocks_of_one_message_is_stored_redacted(
        tmp_path, role, before, secret, after, blocks):
    from fakes import FakeEmbedder

    from memvault.server.capture import import_transcripts
    from memvault.storage.store import Store

    whole = before + secret + after
    for start in (len(before) + 1, len(before) + len(secret) // 3, len(before) + len(secret) - 4):
        cuts = tuple(min(start + n * 6, len(before) + len(secret) - 1) for n in range(blocks - 1))
        path = tmp_path / f"s-{start}.jsonl"
        path.write_text(json.dumps({"type": role, "uuid": _uuid(start), "sessionId": f"s-{start}", "message": {
            "role": role, "content": [{"type": "text", "text": part} for part in _split(whole, cuts)]}}) + "\n")
        store = Store(tmp_path / f"m-{start}.db", FakeEmbedder())  # type: ignore[arg-type]
        try:
            import_transcripts(store, "a", "default", [path], lambda: None)
            [turn] = store.episodes.turns(tenant="a", session_id=f"s-{start}")
        finally:
            store.close()
        pieces = [p for p in _split(secret, tuple(c - len(before) for c in cuts)) if len(p) >= 6]
        assert turn.redacted and not [p for p in pieces if p in turn.text], (cuts, turn.text)
        assert turn.text.startswith(before.rstrip()) and turn.text.endswith(after.lstrip())


def test_text_blocks_are_one_turn_until_a_tool_call_and_a_tool_result_stays_its_own(tmp_path):
    entry = {"type": "assistant", "uuid": "u-1", "sessionId": "s", "message": {"role": "assistant", "content": [
        {"type": "text", "text": "Reading "}, {"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "it."},
        {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "a.py"}},
        {"type": "text", "text": "  "}, {"type": "tool_use", "id": "toolu_2", "name": "Read", "input": {}},
        {"type": "text", "text": "Done."}, {"type": "text", "text": " Next: tests."}]}}
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(entry) + "\n")
    assert [(t.ref, t.text, t.tool) for _, _, t in next(transcripts.chunks(path)).turns] == [
        ("u-1", "Reading it.", None), ("u-1:1", "file_path: a.py", "Read"), ("u-1:2", "{}", "Read"),
        ("u-1:3", "Done. Next: tests.", None)]
