"""No single call of the credential check is handed a pathological text whole (issue 25 §1.1).

The check was linear, but 256 KiB of "_PASS" or "x" spent most of its second in one ``re.sub`` over the whole text
that held the GIL throughout: every other thread of the team server (its event loop, the readiness probe) waited
for it. Asserted on work, not time: each call of the patterns run in windows, of ``unicodedata.normalize`` and of
``str.translate`` is handed at most a window's characters (``tests/handed.py``). The times of these shapes, as
ratios to ordinary notes' in the same run, are in ``bench/secret_speed.py --shapes``.
"""

from __future__ import annotations

import pytest
from handed import handed, over

from memvault.storage.regex_windows import WINDOW
from memvault.storage.secrets import find_secrets

SIZE = 16 * WINDOW  # a whole-text call is handed 8 times what a window may be
# Before: these held the GIL 0.5 to 1.5 s in one call at 256 KiB, 5 to 16 times the ordinary notes' worst.
SHAPES = ["_PASS", "password=", "Passwort ist ", "PASSWORD", "A_", "x", "TOKEN_", "a1", "aws=", "K", "/", "eyJ",
          "a  ", "pass word ", "**Password:** ", "<b>x</b> ", "[x]: ", "## x\n",
          # held 0.1 to 0.3 s in one call of unicodedata.normalize or str.translate over the whole text
          "我们今天讨论了新的部署流程，数据库的主机在维基里。", "今日の会議でデプロイ手順ｶﾀｶﾅについて話し合いました。",
          "오늘 회의에서 새로운 배포 절차에 대해 논의했습니다.", "วันนี้เราได้หารือเกี่ยวกับขั้นตอน", "ناقشنا اليوم عملية النشر الجديدة.",
          "आज की बैठक में हमने क़ ख़ चर्चा की।", "🎉👍🏽👨‍👩‍👧‍👦🇵🇹 ", "a\u0301\u0323\u0308\u0300", "ｐａｓｓｗｏｒｄ ＡＢＣ１２３ ",
          "\ufb01\ufb02\u2163\u3392\u32ff",
          # NFKC writes each in up to 18 characters: the readings of the marks are many times the text checked
          "\ufdfa", "\ufefb\ufdfa\ufe8d", "\ufdfa: ", "\ufdfa<b>[x]: \"k\": #", "\ufdfb\u3392 pass word\n"]
NOTE = ("I moved to Lisbon in March and started a new job at the bank near the river. The deploy runs on "
        "Fridays; ask Dana before touching the staging database (its host is in the wiki).\n\n")


@pytest.mark.parametrize("unit", [*SHAPES, NOTE])
def test_no_call_of_the_check_is_handed_a_long_text_whole(monkeypatch: pytest.MonkeyPatch, unit: str) -> None:
    text = (unit * (SIZE // len(unit) + 1))[:SIZE]
    with handed(monkeypatch) as calls:
        find_secrets(text)
    assert calls["unicodedata.normalize"], dict(calls)  # the doubles were called
    assert over(calls) == {}
