"""A credential found once a text's escapes are read ("\\u00fc", "\\x3a", "%3A") or its string literals joined
('"sk-" "proj-..."'), as the credential check reads them, is replaced where it stands in the text: exactly its
characters, the rest byte for byte, in each turn stored (user, assistant, a tool call's input) and in the
session's digest (trial 58). Escapes with no credential keep a text whole."""

from __future__ import annotations

import json

import pytest

from memvault.server import capture, transcripts
from memvault.storage.secrets import find_secrets, redact

VALUE = "Tz8qWm4kLp2X"
GITHUB = "ghp_u8jzPde0IgxLq2mW7vR4tY9sK1nB3cF6hJ0a"
OPENAI = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk6lMn9"


def _escapes(char: str) -> dict[str, str]:
    """``char`` written as each escape the check reads: JSON's, a surrogate pair, ES2015's, Python's, a URL's."""
    code = ord(char)
    forms = {"u": f"\\u{code:04x}", "braced": f"\\u{{{code:x}}}", "U": f"\\U{code:08x}",
             "percent": "".join(f"%{b:02X}" for b in char.encode())}
    if code < 0x100:
        forms["x"] = f"\\x{code:02x}"
    if code > 0xFFFF:
        high, low = 0xD800 + (code - 0x10000 >> 10), 0xDC00 + (code - 0x10000 & 0x3FF)
        forms["u"] = f"\\u{high:04x}\\u{low:04x}"
    return forms


def _cases() -> list[tuple[str, str]]:
    """``(text, the credential as written in it)``: an escape before the word naming it, between the word
    and the value, inside the value, after it, several at once; a key in adjacent string literals (joined by the
    check too, since fixcred12, whatever each holds)."""
    cases = []
    for char, word in (("\u00e9", "caf"), ("\u00fc", "f"), ("\u00f1", "contrase"), ("\U0001f600", "ok ")):
        for escaped in _escapes(char).values():
            cases += [(f'{{"note": "{word}{escaped} wifi password: {VALUE}"}}', VALUE),
                      (f'{{"note": "the wifi password: {VALUE} {word}{escaped}"}}', VALUE)]
    for name, escaped in _escapes("\u00fc").items():
        cases += [(f'{{"hinweis": "Kennwort f{escaped}r den Server: {VALUE}"}}', VALUE),
                  (f'caf{_escapes("é")[name]}: Kennwort f{escaped}r den Server: {VALUE} f{escaped}r heute', VALUE)]
    for escaped in _escapes("\u00f1").values():
        cases.append((f'{{"text": "contrase{escaped}a del NAS: {VALUE}"}}', VALUE))
    for escaped in _escapes(":").values():
        cases.append((f'printf "password{escaped} {VALUE}"', VALUE))
    for escaped in _escapes(" ").values():
        cases.append((f"https://wiki.internal/page?text=password:{escaped}{VALUE} now", VALUE))
    for escaped in _escapes("@").values():
        inside = VALUE[:4] + escaped + VALUE[4:]
        cases.append((f'{{"note": "the password is {inside} now"}}', inside))
    cases.append(("https://wiki.internal/page?text=password%3A%20" + VALUE, VALUE))
    for quote in ('"', "'"):
        for between in (" ", "", " + ", "+", " . ", " +\n    ", "\n    ", " \\\n  "):
            for key, at in ((GITHUB, 20), (GITHUB, 4), (OPENAI, 3), (OPENAI, 8), (OPENAI, 30)):
                literals = f"{quote}{key[:at]}{quote}{between}{quote}{key[at:]}{quote}"
                cases += [(f"client = Client(api_key={literals})\nprint('done')", literals[1:-1]),
                          (f"t = {literals}\nprint('done')", literals[1:-1])]
    return cases


CASES = _cases()


@pytest.mark.parametrize(("text", "credential"), CASES)
def test_only_the_credential_a_reading_finds_is_replaced_where_it_is_written(text: str, credential: str):
    assert find_secrets(text)[0], text  # the check refuses it (fixcred12: joined whatever the halves hold)
    redacted, kinds = redact(text)
    assert len(kinds) == 1 and redacted == text.replace(credential, f"[{kinds[0]}]")


@pytest.mark.parametrize("text", [
    '{"note": "caf\\u00e9 cr\\u00e8me br\\u00fbl\\u00e9e \\ud83d\\ude00\\nnext line\\ttab", "n": "\\u{1F600}"}',
    "https://example.com/search?q=caf%C3%A9%20au%20lait&page=2&sort=date%3Adesc",
    'printf "Kennwort f\\u00fcr den Server\\x3a siehe Tresor\\n"', "s = '\\x41\\x42\\xff' + \"\\U0001F600\"",
    'print("release-2024" + "-final")', "msg = 'part1' 'part2' \"x9y8\" \"z7\"", 'label = "v1.2" +\n    "-rc3"',
    "das Passwort f\\u00fcr den Server steht im Tresor", "mot de passe \\u00e0 jour: voir le coffre",
    "the password%3A%20see the vault", "\\u{1F600} \\uZZZZ \\ud800 alone %zz 100%",
])
def test_escapes_and_literals_without_a_credential_keep_the_text_whole(text: str):
    assert redact(text) == (text, ()) and find_secrets(text) == [[]]


@pytest.mark.parametrize("quote", ['"', "'"])
@pytest.mark.parametrize("between", [" ", "", " + ", " +\n    ", "\n    "])
@pytest.mark.parametrize(("key", "at"), [(OPENAI, 3), (OPENAI, 8), (GITHUB, 4)])
def test_remember_refuses_a_key_written_as_adjacent_string_literals(store, quote: str, between: str, key: str, at: int):
    """What a turn redacts is refused by remember too: its check reads the literals joined, whatever each holds
    ('"sk-" "proj-..."': the first half holds no digit)."""
    from memvault.storage.errors import InvalidInput

    text = f"OPENAI_KEY = {quote}{key[:at]}{quote}{between}{quote}{key[at:]}{quote}"
    with pytest.raises(InvalidInput, match="looks like it contains a credential"):
        store.remember(tenant="t", scope="s", content=text)


SESSION = "5d0c7a51-2f3e-4b8a-9c1d-0e6f7a8b9c02"


def _entry(uuid: str, role: str, content: object) -> str:
    return json.dumps({"type": role, "uuid": uuid, "sessionId": SESSION, "timestamp": "2025-12-05T09:00:00Z",
                       "cwd": "/w", "message": {"role": role, "content": content}})


@pytest.mark.parametrize(("text", "credential"), [CASES[0], CASES[1], *[
    case for case in CASES if "Kennwort" in case[0] or "%3A" in case[0] or "sk-" in case[0]][::7]])
def test_each_captured_turn_and_the_digest_lose_only_the_credential(store, tmp_path, text: str, credential: str):
    """The turns of a Claude Code transcript as a hook stores them: a user's, an assistant's, a Bash command's
    and a Write's content; then the session's digest, which quotes what was asked and where it left off."""
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join([
        _entry("u1", "user", text),
        _entry("u2", "assistant", [{"type": "text", "text": f"Noted: {text}"}]),
        _entry("u3", "assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                                    "input": {"command": f"echo '{text}' >> notes.txt"}}]),
        _entry("u4", "user", [{"type": "tool_result", "tool_use_id": "t1", "content": "done"}]),
        _entry("u5", "assistant", [{"type": "tool_use", "id": "t2", "name": "Write",
                                    "input": {"file_path": "notes.json", "content": f"{text}\nend"}}]),
        _entry("u6", "assistant", [{"type": "text", "text": f"Saved {text}"}])]) + "\n")
    given = [turn for _, _, turn in next(transcripts.chunks(path)).turns]
    capture.store_turns(store, "default", "default", next(transcripts.chunks(path)).turns, "claude-code")
    stored = store.episodes.turns(tenant="default", session_id=SESSION)
    kinds = {kind for turn in stored for kind in turn.redacted}
    assert len(kinds) == 1 and len(stored) == len(given) == 6
    marker = f"[{kinds.pop()}]"
    assert [turn.text for turn in stored] == [turn.text.replace(credential, marker) for turn in given]
    ended = store.episodes.end(tenant="default", session_id=SESSION)
    digest = store.get(tenant="default", id=ended.digest_id).content or ""
    assert credential not in digest and VALUE not in digest and OPENAI[-12:] not in digest
    assert marker in digest and " ".join(stored[0].text.split()[:6]) in digest  # what was asked, quoted
