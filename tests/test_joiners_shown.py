"""Joiners, variation selectors and tags are shown as they are where they join (a Persian or Indic word,
an emoji or flag sequence) and escaped where they hide something, by one rule (``literal._escaped``) in
every text a model or a person reads (trial 59 #7)."""

from __future__ import annotations

import json

import pytest
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.literal import printable, quoted

ZWNJ, ZWJ = "\u200c", "\u200d"
FLAG_SCOTLAND = "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"

KEPT = [
    f"Persian: می{ZWNJ}خواهم کتاب{ZWNJ}ها را بخوانم",  # ZWNJ is ordinary Persian spelling
    f"Urdu: ذمہ{ZWNJ}دار",
    f"Hindi: क्{ZWJ}ष is written with a joiner",  # after the virama
    f"Bengali: র্{ZWJ}য",
    f"Sinhala: ශ්{ZWJ}රී ලංකාව",
    f"Malayalam chillu: ന്{ZWJ} ends a word",  # after a virama, a joiner may end the word
    f"Tamil: க்{ZWNJ}ஷ",
    f"Astronaut 🧑{ZWJ}🚀",
    f"Technologist 👨🏽{ZWJ}💻 (a skin tone before the joiner)",
    f"Rainbow flag 🏳\ufe0f{ZWJ}🌈 and eye 👁\ufe0f{ZWJ}🗨\ufe0f",
    f"Family 👨{ZWJ}👩{ZWJ}👧{ZWJ}👦, runner 🏃{ZWJ}♀\ufe0f",
    f"Scotland {FLAG_SCOTLAND}",
    "Heart ❤\ufe0f, keycap 1\ufe0f\u20e3, text style ☎\ufe0e",
    "Ideographic variant 葛\U000E0100",
]

ESCAPED = [  # (content, what must be shown escaped)
    ("Right-to-left override \u202eexe.fdp\u202c", ["\\u202e", "\\u202c"]),
    (f"pass{ZWJ}word", ["pass\\u200dword"]),  # between ASCII letters: it only hides a break
    (f"pass{ZWNJ}word", ["pass\\u200cword"]),
    (f"{ZWNJ}word and word{ZWJ}", ["\\u200cword", "word\\u200d"]),  # at a word's edge
    (f"می{ZWNJ}{ZWNJ}خواهم", ["می\\u200c\\u200cخواهم"]),  # repeated
    (f"Latin then Persian abc{ZWNJ}کتاب", ["abc\\u200cکتاب"]),  # between two scripts
    (f"🧑{ZWJ}{ZWJ}🚀 and 🧑{ZWJ} and {ZWJ}🚀", ["🧑\\u200d\\u200d🚀", "🧑\\u200d and", "\\u200d🚀"]),
    (f"emoji then letter 🧑{ZWJ}a", ["🧑\\u200da"]),
    ("tags spelling ASCII a\U000E0041\U000E0042", ["a\\udb40\\udc41\\udb40\\udc42"]),  # invisible prompt text
    ("a flag's tags unended 🏴\U000E0067\U000E0062 x", ["🏴\\udb40\\udc67\\udb40\\udc62 x"]),
    ("a run of variation selectors 😀\ufe00\ufe01\ufe02", ["\\ufe01\\ufe02"]),  # bytes hidden after an emoji
    ("a variation selector after a Latin letter pa\ufe0fss", ["pa\\ufe0fss"]),
    ("zero\u200bwidth space", ["zero\\u200bwidth"]),
    # letters and marks that show nothing (verify59 N6: U+3164 between ASCII letters was shown raw)
    ("hangul\u3164filler", ["hangul\\u3164filler"]), ("half\uffa0width", ["half\\uffa0width"]),
    ("choseong\u115ffiller", ["choseong\\u115ffiller"]), ("jungseong\u1160filler", ["jungseong\\u1160filler"]),
    ("grapheme\u034fjoiner", ["grapheme\\u034fjoiner"]), ("khmer\u17b4vowel", ["khmer\\u17b4vowel"]),
]


@pytest.mark.parametrize("content", KEPT)
def test_a_joiner_where_it_joins_is_shown_as_it_is(content):
    assert quoted(content) == json.dumps(content, ensure_ascii=False)
    assert printable(content) == content


@pytest.mark.parametrize(("content", "shown"), ESCAPED)
def test_a_joiner_or_selector_that_hides_something_is_escaped(content, shown):
    literal = quoted(content)
    assert all(s in literal for s in shown), literal
    assert json.loads(literal) == content  # still the JSON literal of the text
    assert all(s in printable(content) for s in shown)


@pytest.mark.asyncio
async def test_recall_text_boot_and_the_memory_view_show_the_joiners_of_ordinary_text(db_path):
    hidden, hidden_shown = f"The vault pass{ZWJ}word hint \u202eterces\u202c", f"pass\\u200dword hint \\u202eterces\\u202c"
    async with Client(build_server(Config(db=db_path, scope="proj"))) as c:
        ids = [(await c.call_tool("remember", {"content": content})).structured_content["id"]
               for content in [*KEPT[:3], KEPT[7], KEPT[11], hidden]]
        recalled = (await c.call_tool("recall", {"query": "", "kinds": ["fact"], "limit": 20})).content[0].text
        boot = (await c.read_resource("memory://boot")).contents[0].text
        views = [(await c.read_resource(f"memory://memories/{i}")).contents[0].text for i in (ids[0], ids[-1])]
    for shown in (recalled, boot):
        for content in [*KEPT[:3], KEPT[7], KEPT[11]]:
            assert json.dumps(content, ensure_ascii=False) in shown, (content, shown)
        assert hidden_shown in shown and "\u202e" not in shown
    assert json.dumps(KEPT[0], ensure_ascii=False) in views[0] and hidden_shown in views[1]
    assert "\u202e" not in views[1] and json.loads(views[1])["memory"]["content"] == hidden
