"""Normalizing and rewriting a long text in windows gives what the whole-text calls give (issue 25 §1.1).

``unicode_windows.normalize`` cuts a text before characters after which NFC and NFKC start afresh, and orders a
long stretch with no such character itself; ``validate.nfc``, ``bare`` and ``joined`` run on it. Compared with
``unicodedata`` over random texts drawn from the characters that act across a cut (combining marks out of order,
characters composing with the one before, Hangul jamo, compatibility forms, every code point at random) and over
long runs without a cut.
"""

from __future__ import annotations

import random
import sys
import unicodedata

import pytest
from handed import handed, over

from memvault.storage import secret_documents, secrets, unicode_windows, validate
from memvault.storage.regex_windows import WINDOW

MARKS = [chr(c) for c in range(0x300, 0x370)] + list("\u0344\u0345\u05b0\u093c\u0e38\u0f71\u0f72\u0f73\u0f75\u0f81"
                                                     "\u3099\u309a\uff9e\uff9f")
PAIRS = [d.split() for d in map(unicodedata.decomposition, map(chr, range(sys.maxunicode + 1)))
         if len(d.split()) == 2 and d[0] != "<"]  # canonical decompositions of two (UnicodeData.txt)
SECONDS = sorted({chr(int(second, 16)) for _, second in PAIRS} | unicode_windows.STARTER_SECONDS)
FIRSTS = sorted({chr(int(first, 16)) for first, _ in PAIRS})
HANGUL = [*map(chr, range(0x1100, 0x1113)), *map(chr, range(0x1161, 0x1176)), *map(chr, range(0x11A8, 0x11C3)),
          "\uac00", "\uac01", "\ud7a3"]
COMPAT = list("\uff21\ufb01\u2163\u3392\u32ff\ufefb\ufdfa\u309b\u1e9b\u2017\u00a0\u0133\u01c4\u2126\u212b\u0958"
              "\u2014\ufe58\u200b\u00ad")
ORDINARY = list("abc ,.\n-_") + ["中", "文", "あ", "カ", "ก", "ا", "क", "🎉", "\u200d"]


def _texts(seed: int) -> list[str]:
    """Random texts of 2 to 10 windows mixing the pools above, some with a long run of marks or second halves."""
    rnd, texts = random.Random(seed), []
    pools = [MARKS, SECONDS, FIRSTS, HANGUL, COMPAT, ORDINARY]
    for _ in range(20):
        weights = [rnd.random() for _ in pools]
        chars = [rnd.choice(rnd.choices(pools, weights)[0]) if rnd.random() > 0.05 else chr(rnd.randrange(0x30000))
                 for _ in range(rnd.choice([WINDOW + 1, 2 * WINDOW + 3, 5 * WINDOW]))]
        if rnd.random() < 0.3:
            at = rnd.randrange(len(chars))
            chars[at:at] = [rnd.choice(MARKS + SECONDS) for _ in range(rnd.choice([WINDOW, 3 * WINDOW]))]
        texts.append("".join(chars))
    return texts


def test_every_second_of_a_composition_is_a_combining_mark_or_listed() -> None:
    assert {char for char in SECONDS if not unicodedata.combining(char)} == unicode_windows.STARTER_SECONDS


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("form", ["NFC", "NFKC"])
def test_normalizing_in_windows_gives_the_whole_texts_normal_form(seed: int, form: str) -> None:
    for text in _texts(seed):
        assert unicode_windows.normalize(form, text) == unicodedata.normalize(form, text)


@pytest.mark.parametrize("char", [*SECONDS[:: max(1, len(SECONDS) // 40)], *FIRSTS[:: max(1, len(FIRSTS) // 40)],
                                  *MARKS, *HANGUL, *COMPAT, *ORDINARY])
@pytest.mark.parametrize("form", ["NFC", "NFKC"])
def test_a_cut_before_or_after_any_character_changes_no_normal_form(char: str, form: str) -> None:
    rnd = random.Random(ord(char))
    for around in (MARKS, SECONDS, FIRSTS, HANGUL):
        text = "".join(rnd.choice(around) for _ in range(WINDOW - 2)) + char * 5 + "".join(
            rnd.choice(around) for _ in range(WINDOW))
        assert unicode_windows.normalize(form, text) == unicodedata.normalize(form, text)


def _bare_whole(text: str) -> str:
    """``validate.bare`` as it was: each call over the whole text."""
    if text.isascii():
        return validate._ASCII_IGNORABLE.sub("", unicodedata.normalize("NFKC", text))
    normal = unicodedata.normalize("NFKC", text.translate(validate._DASHES)).translate(validate._DASHES)
    return validate.unicode_pattern(validate._IGNORABLE).sub("", normal)


@pytest.mark.parametrize("seed", range(4))
def test_the_readings_of_a_long_text_are_those_of_whole_text_calls(seed: int) -> None:
    for text in _texts(100 + seed):
        assert validate.bare(text) == _bare_whole(text)
        assert validate.joined(text) == _bare_whole(validate.unicode_pattern(validate._SPLITTERS).sub("", text))
        assert validate.nfc(text) == unicodedata.normalize("NFC", text)
        assert validate.visible(text) == text.translate(validate._INVISIBLE)


SIZE = 16 * WINDOW  # a whole-text call is handed 8 times what a window may be
# Each held the GIL in one call of unicodedata.normalize, str.translate or libyaml over the whole text (a run of marks
# out of order for seconds at 32 KiB: CPython reorders it by insertion).
UNITS = {"Chinese": "我们今天讨论了新的部署流程，数据库的主机在维基里。", "Chinese, one word": "数据库的主机在维基里部署流程",
         "Japanese": "今日の会議でデプロイ手順ｶﾀｶﾅについて話し合いました。",
         "Korean": "오늘 회의에서 새로운 배포 절차에 대해 논의했습니다.", "Thai": "วันนี้เราได้หารือเกี่ยวกับขั้นตอน",
         "Arabic": "ناقشنا اليوم عملية النشر الجديدة.", "Devanagari": "आज की बैठक में हमने क़ ख़ चर्चा की।",
         "emoji": "🎉👍🏽👨‍👩‍👧‍👦🇵🇹 ", "accents": "a\u0301\u0323\u0308\u0300", "full-width": "ｐａｓｓｗｏｒｄ ＡＢＣ１２３ ",
         "compatibility forms": "\ufb01\ufb02\u2163\u3392\u32ff", "long ligatures": "\ufefb\ufdfa\ufe8d \ufdfb"}
READINGS = {"nfc": validate.nfc, "bare": validate.bare, "joined": validate.joined,
            "latin_lookalikes": secrets.latin_lookalikes,
            "a YAML scalar": lambda text: secret_documents.parsed.__wrapped__("a: " + text[3:])}  # not its cache


def _shape(unit: str, size: int = SIZE) -> str:
    return (unit * (size // len(unit) + 1))[:size]


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("text", [pytest.param(_shape(unit), id=name) for name, unit in UNITS.items()]
                         + [pytest.param(_shape("\u0301\u0323\u0308"), id="marks out of order")])
def test_no_reading_of_a_long_text_hands_one_call_more_than_a_window(monkeypatch: pytest.MonkeyPatch, reading: str,
                                                                    text: str) -> None:
    """Each call of ``unicodedata.normalize``, ``str.translate`` and libyaml is handed a bounded piece
    (``tests/handed.py``), so none holds the GIL for the whole text (times: ``bench/secret_speed.py --shapes``)."""
    with handed(monkeypatch) as calls:
        READINGS[reading](text)
    assert over(calls) == {}
