"""A key disguised by the formatting it was pasted with (issue 25 §1.8): a Markdown escape inside it, an inline
HTML tag, an ANSI colour, a zero-width character, or split over two lines (indented, after a shell's "\\",
or as two string literals concatenated) is refused and redacted; formatting around prose is stored."""

from __future__ import annotations

import html

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact

GITHUB = "ghp_u8jzPde0IgxLq2mW7vR4tY9sK1nB3cF6hJ0a"
OPENAI = "sk-proj-Tq3vX8mK2pL9wR4sN7bY1cF6hJ0dG5aE8uZ2iO4"
SLACK = "xoxb-4826153097-7391046285731-Qm2Xv9KpL4wR8sT1nB6cF3hJ"


def _split(key: str, at: int, mark: str) -> str:
    return key[:at] + mark + key[at:]


DISGUISED = [
    *(_split(key, key.index("_") if "_" in key[:5] else 3, "\\") for key in (GITHUB,)),  # ghp\_...
    _split(OPENAI, 2, "\\"), _split(OPENAI, 7, "\\"), _split(SLACK, 4, "\\"),
    f"<b>{OPENAI[:8]}</b>{OPENAI[8:]}", f"<code>{GITHUB[:12]}</code><code>{GITHUB[12:]}</code>",
    _split(GITHUB, 14, "<wbr>"), f'<span class="k">{SLACK[:10]}</span>{SLACK[10:]}',
    _split(GITHUB, 10, "\x1b[0m"), f"\x1b[1;32m{OPENAI[:12]}\x1b[0m\x1b[33m{OPENAI[12:]}\x1b[0m",
    _split(SLACK, 9, "\x1b]8;;\x07"),
    _split(GITHUB, 3, "\u200b"), _split(OPENAI, 6, "\u2060"),
    _split(GITHUB, 20, "\n    "), _split(OPENAI, 20, " \\\n"), _split(SLACK, 16, "\\\n  "),
    f'token = "{GITHUB[:20]}" +\n    "{GITHUB[20:]}"', f"key = '{OPENAI[:18]}' . '{OPENAI[18:]}'",
    f'"{SLACK[:15]}" "{SLACK[15:]}"',
    # a string literal's escapes and a URL's percent-encoding (trial 57)
    '{"t": "\\u0067hp' + GITHUB[3:] + '"}', "".join(f"\\u{ord(c):04x}" for c in OPENAI[:12]) + OPENAI[12:],
    "\\x67\\x68\\x70" + GITHUB[3:], "let t = '\\u{67}hp" + GITHUB[3:] + "'", "\\U00000073k-proj" + OPENAI[7:],
    "x=" + "".join(f"%{b:02X}" for b in SLACK.encode()), 'token: "\\u0073\\u006b' + OPENAI[2:] + '"',
    # an escaped format character reads as the character does: as nothing (trial 58)
    _split(GITHUB, 12, "\\ufeff"), _split(OPENAI, 10, "\\u200b"), _split(SLACK, 9, "%E2%80%8B"),
]


@pytest.mark.parametrize("text", DISGUISED)
def test_a_key_disguised_by_formatting_is_refused_and_redacted(text: str) -> None:
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert kinds
    for key in (GITHUB, OPENAI, SLACK):  # no half of a key is left
        assert key[:10] not in redacted.replace("\\", "") and key[-10:] not in redacted


@pytest.mark.parametrize("text", [
    "Use \\*args and \\_private names in the \\# heading", "<b>bold</b> and <code>code</code> in the docs",
    "\x1b[1;32mPASSED\x1b[0m tests/test_store.py::test_remember", "line one of the notes\n    indented line two",
    'print("release-2024" + "-final")', "run make \\\n  install", "Tom &amp; Jerry &#95; underscore",
    "the key point is <em>this</em>",
    '{"note": "caf\\u00e9 cr\\u00e8me br\\u00fbl\\u00e9e \\ud83d\\ude00\\nnext line\\ttab"}', "s = '\\x41\\x42\\xff'",
    "https://example.com/search?q=caf%C3%A9%20au%20lait&page=2", "50%OFF and 100%AB, 20% off",
    "\\u{1F600} \\uZZZZ \\ud800 alone",
    'def f():\n    """Only the spellings the prose misses: "password:" is its, and a value\n    both found costs twice."""', "the <kbd>Ctrl</kbd>+<kbd>C</kbd> key", "a\u200bb is a zero width space",
])
def test_formatting_around_prose_and_code_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.parametrize("unit", ["\x1b[0m", "<b>", "<b", "\\_", "&#95;", "abcd\n    ", 'abcd" + "', "abcd \\\n",
                                  "\x1b]8;;", f"token = \"{GITHUB[:20]}\" +\n", "\\u0067", "\\ud83d\\ude00", "%67",
                                  "\\u{67", "\\x6", "%C3%A9a"])
def test_the_formatting_readings_take_linear_time(unit: str) -> None:
    from test_secret_scan import LARGE, _grows_linearly

    assert _grows_linearly(lambda size: unit * (size // len(unit)), large=LARGE) is None
    assert _grows_linearly(lambda size: unit * (size // len(unit)), redact, large=LARGE) is None


# White space written as an escape (trial 58 #3: "the password\u00a0is X" was stored): every code point Python calls
# white space, line breaks among them, written as a string literal's escape, a URL's %XX or an HTML reference.
WHITE = [chr(c) for c in range(0x110000) if chr(c).isspace() and c != 0x20]
WORDED = ["the password{}is Rq7qLm4kXp2F", "password{}= Rq7qLm4kXp2H", "password{}: Rq7qLm4kXp2J",
          "my pass{}is Rq7qLm4kXp2K", "Passwort{}ist Rq7qLm4kXp2L", "mot de passe{}est Rq7qLm4kXp2M"]


def _escapes(char: str) -> list[str]:
    forms = [f"\\u{ord(char):04x}", f"\\u{{{ord(char):x}}}", f"\\U{ord(char):08X}",
             "".join(f"%{b:02X}" for b in char.encode())]
    forms += [f"&#{ord(char)};"] if html.unescape(f"&#{ord(char)};") == char else []  # HTML reads some as others
    return forms + ([f"\\x{ord(char):02x}"] if ord(char) < 256 else []) + (["\\t", "\\n", "\\r"] if char == "\t" else [])


@pytest.mark.parametrize("char", WHITE, ids=[f"U+{ord(c):04X}" for c in WHITE])
def test_white_space_written_as_an_escape_or_as_itself_reads_as_a_space(char: str) -> None:
    for i, escape in enumerate(_escapes(char)):
        written = '{"t": "' + WORDED[(i + ord(char)) % len(WORDED)].format(escape) + '"}'
        assert find_secrets(written) == [[("password", 1)]], written
        assert "Rq7qLm4kXp2" not in redact(written)[0]
    if char not in "\n\r\v\f\x1c\x1d\x1e\x1f\x85\u2028\u2029":  # a line break parts lines; U+001F is a control
        for text in WORDED:
            assert find_secrets(text.format(char)) == [[("password", 1)]], repr(text.format(char))


@pytest.mark.parametrize("text", [
    '{"note": "first line\\nsecond line\\tafter a tab\\u00a0and\\u2009more"}', "C:\\temp\\new\\reports\\token2.txt",
    '{"t": "the password\\u00a0policy needs 12 characters"}',
    "the password&nbsp;rotates every 90 days", "search?q=password%20reset%0A2fa", '"password:\\t"',
    '{"t": "my pass\\u00a0is on the desk"}', "\\ufeffpassword reset instructions",
])
def test_prose_and_code_with_escaped_white_space_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.parametrize("text", ['{"t": "the password\\u00a0is Rq7qLm4kXp2F"}', "password\\t: Rq7qLm4kXp2J",
                                  "Passwort\\u2009ist Rq7qLm4kXp2L", "my pass&thinsp;is Rq7qLm4kXp2K"])
def test_remember_refuses_and_a_turn_redacts_a_password_after_escaped_white_space(store, text: str) -> None:
    with pytest.raises(InvalidInput, match=r"looks like it contains a credential \(password\)"):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    assert "Rq7qLm4kXp2" not in store.episodes.turns(tenant="t", session_id="s-1")[-1].text
