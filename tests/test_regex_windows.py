"""``regex_windows.sub`` gives ``re.sub``'s string, reading each search in a bounded window (issue 25 §1.1)."""

from __future__ import annotations

import random
import re

import pytest

from memvault.storage import regex_windows, secret_marks, secrets

# (pattern, reach, anchor, lead, runs): the secret check's own, and look-arounds that read before and past a start
PATTERNS = [
    (secrets._GROUPS, secrets._GROUPS_REACH, secrets._GROUP_SEPARATORS, secrets._GROUPS_LEAD, None),
    (secrets._DASHED_PREFIX, secrets._DASHED_REACH, secrets._DASHES, secrets._DASHED_LEAD, None),
    (secret_marks._MARKS, secret_marks._MARKS_REACH, secret_marks._MARK, 0, secret_marks._MARK_RUN),
    *((pattern, reach, anchor, 0, secret_marks._BLANKS) for pattern, (reach, anchor) in secret_marks._WINDOWED.items()),
    (re.compile(r"(?<![a-z])ab{1,3}(?=c)"), 5, None, 0, None),
    (re.compile(r"\bx-y\b"), 4, re.compile("-"), 1, None),
]
ALPHABET = "aAbc1x y-'\",_\u2011\n*`~:"
# Pieces of what the marks' patterns read (``secret_marks._WINDOWED``), runs of spaces and tabs among them.
TOKENS = ["pass", "word", "phrase", "api", "Key", "tokens", "a", "密码", "ﷺ", " ", "  ", "\t", " \t  ", "\n", "-", ":",
          "：", "<b>", "</td>", '<td class="x">', "<", ">", "[", "]", "(", ")", "（", "）", "【", "】", "「", "」", "#",
          "###", "h3.", "!!str", "!", '"', "'", "pw", "_", "*", "1"]


@pytest.mark.parametrize("window", [1, 5, 64, regex_windows.WINDOW])
@pytest.mark.parametrize("case", range(len(PATTERNS)))
def test_a_windowed_sub_gives_the_same_string_as_re_sub(monkeypatch, window: int, case: int) -> None:
    pattern, reach, anchor, lead, runs = PATTERNS[case]
    monkeypatch.setattr(regex_windows, "WINDOW", window)
    rng = random.Random(case * 1000 + window)
    texts = ["", "a", "ab-" + "A1" * 20, "g h p _ u 8 j z P d e 0 " * 30, "ghp-" + "aB3" * 20 + " x", "abc" * 200,
             " " + "*" * 3000 + "a", "a" + "`" * 3000 + " ", "A_" * 2000, "**Password:** x" * 200]
    texts += ["".join(rng.choice(ALPHABET) for _ in range(rng.randrange(400))) for _ in range(300)]
    texts += ["".join(rng.choice(TOKENS) * rng.choice([1, 1, 1, 40]) for _ in range(rng.randrange(200)))
              for _ in range(150)]

    def repl(match: re.Match[str]) -> str:
        return f"<{match.start()}:{match.group()}:{match.groups()}>"

    for text in texts:
        assert regex_windows.sub(pattern, text, repl, reach, anchor, lead, runs) == pattern.sub(repl, text), text


def test_a_pattern_matching_an_empty_string_is_refused() -> None:
    with pytest.raises(ValueError, match="empty string"):
        regex_windows.sub(re.compile("a*"), "bbb", lambda m: "", 1)
