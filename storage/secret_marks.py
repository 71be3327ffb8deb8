"""A text as the named-credential detector should read its labels: the marks of Markdown, HTML, YAML and JSON around a
word naming a credential taken away, and the white space inside such a word made one space, so ``**Password:** X``,
``<b>Password:</b> X``, ``### Password`` over ``X``, ``| **Password** | X |``, an HTML table's password column,
``password: |`` over ``X``, ``{"pw": "X"}`` and ``api  key: X`` read as ``Password: X`` does; also HTML entities, LaTeX
commands, ``<input>`` fields and CJK bracket labels, then a document's structures (``secret_documents``). One more
reading of ``secrets.find_secrets``; the same lines (a credential found only here is redacted with its line), linear in
the text's length.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable

from . import regex_windows, unicode_windows
from .secret_documents import PROPERTIES, block_scalar_lines, parsed, structured

# Emphasis, code and strike-through marks touching a word or a colon ("**Password:**", "`pw`"); a run standing
# alone ("password: ****") is a placeholder, kept. Linear: a run is tried from its first mark only (a run of "*"
# tried from each takes quadratic time). Each pattern here that starts with a look-around is gated by a look-ahead
# of the characters its matches start with, else Python's ``re`` tries every alternative at every character
# (docs/storage-tuning.md#the-credential-scans-regular-expressions).
_MARKS = re.compile(r"(?=[*`~_])(?:(?<=[\w:])[*`~]+|(?<![*`~])[*`~]++(?=\w)|(?<!\w)_{1,2}(?=\w)"
                    r"|(?<=[\w:])_{1,2}(?!\w))")
# For :func:`regex_windows.sub`: a match starts at a mark, and shows within 3 characters, a run of "*`~" and the
# character after it counted as one.
_MARK, _MARK_RUN, _MARKS_REACH = re.compile("[*`~_]"), re.compile("[*`~]+"), 3
# An HTML tag (``<b>``, ``</th>``, ``<td class="x">``): a space.
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]{0,15}(?:[ \t][^<>\n]{0,200})?/?>")
# A link's label before ":" or "=" ("[password]: X"), a Markdown heading's marks ("### Password").
_LINK = re.compile(r"(?<![\w\]])\[([^\[\]\n]{1,60})\](?=[ \t]*[:=])")  # not an index ("tokens[0]: X")
# A captured tool input's field name before a document's first line ("content: ## Password", over the
# rest: ``transcripts.input_text``): the line read as the document's.
_FIELD = re.compile(r"(?m)^[\w.\[\]-]{1,80}:[ \t]+(?=#{1,6}[ \t]|```|~~~|[^\s:]{1,40}:[ \t]*(?:\[[ \t]*)?$)")
_HEADING = re.compile(r"(?m)^[ \t]*(?:#{1,6}|h[1-6]\.)[ \t]+")  # Markdown's, Jira's ("h3. Password")
# YAML after a key's ":": a block scalar's indicator ending the line ("password: |", ">-", "|2+"), whose
# value is the next line, perhaps after its node's properties, an anchor, a tag or both in either order
# ("password: &db |", "password: !!str &db >-": YAML 1.2 §6.9, ``secret_documents.PROPERTIES``), and a tag
# before a value ("password: !!str X"). Linear: the properties are bounded.
_BLOCK = re.compile(rf"(?m)(:[ \t]*)(?:{PROPERTIES}[ \t]+)?[|>][-+0-9]{{0,2}}[ \t]*$")
_YAML_TAG = re.compile(r"(:[ \t]*)!{1,2}[A-Za-z][\w-]{0,30}[ \t]+")
# A JSON (or Python) key's quotes ('"pw": "X"' reads 'pw: "X"', as a short word for password is read in prose).
_JSON_KEY = re.compile(r"([\"'])([A-Za-z_][\w-]{0,40})\1([ \t]*:)")
# White space inside a name: a run of spaces and tabs between two letters ("api  key", "secret\tkey"), not
# elsewhere (spaces inside a quoted value are the value's), and "pass word" or "pass-word" read "password".
_SPACES = re.compile(r"(?=[ \t])(?<=[^\W\d_])(?:\t|[ \t]{2,})(?=[^\W\d_])")
_SPLIT_WORD = re.compile(r"(?i)\b(pass)(?:[ \t]+|-)(word|phrase)\b")
# A name broken across two lines ("API" over "KEY: X"): the line break moved before it, so the value's
# line holds the whole name.
_BROKEN_NAME = re.compile(r"(?i)\b(api|access|secret|private|auth|pass)[ \t]*\n[ \t]*(keys?|tokens?|word|phrase)\b")


# The tags of an HTML table that part its rows and cells.
_TABLE_TAG = re.compile(r"(?i)<(/?)(table|tr|th|td)\b[^<>\n]{0,200}>")


def _html_cells(text: str) -> str:
    """``text`` with each cell of an HTML table's password column (its ``<th>`` names one:
    ``secret_lists.names_password_column``) written "password: X" where the cell starts, X its text without
    its tags (``<code>X</code>``). Linear: each cell's text is read once, to the table's next tag."""
    from .secret_lists import names_password_column

    pieces: list[str] = []
    at, cell, columns = 0, -1, set()
    opened: tuple[str, int] | None = None  # the cell open before this tag: its kind and where its text starts
    for tag in _TABLE_TAG.finditer(text):
        if opened is not None:
            kind, start = opened
            content = _TAG.sub("", text[start:tag.start()]).strip()  # a cell over lines is left as it is
            if kind == "th" and names_password_column(content):
                columns.add(cell)
            elif kind == "td" and cell in columns and content and "\n" not in text[start:tag.start()]:
                pieces += [text[at:start], "password: ", content, " " * (tag.start() - start - len(content))]
                at = tag.start()
            opened = None
        name = tag.group(2).lower()
        if name == "table":
            columns = set()
        elif name == "tr":
            cell = -1
        elif not tag.group(1):  # a cell opens
            cell += 1
            opened = (name, tag.end())
    return "".join(pieces) + text[at:] if pieces else text


# HTML's character references ("Password&#58; X", "&quot;pw&quot;"), read per line: one that writes white space
# but a tab ("&nbsp;", "&thinsp;", "&#10;") reads as a space, so the lines stay.
_WHITE = re.compile(r"[^\S \t]")
# An XML element holding text alone (``<Name>DbPassword</Name>``) reads "Name: DbPassword", not HTML's
# marks around words; a parent naming credentials around such elements on one line
# (``<passwords><item>X</item></passwords>``) reads "password: X" for each.
_HTML_TAGS = (r"(?:a|b|i|u|s|em|strong|code|kbd|samp|tt|var|span|p|div|li|dt|dd|h[1-6]|pre|small|big|mark|del"
              r"|ins|sub|sup|label|button|option|td|th|tr|caption|title|font|abbr|cite|q|blockquote|summary)")
_XML_LEAF = re.compile(r"<(?!" + _HTML_TAGS + r">)([A-Za-z][\w.-]{0,40}+)>([^<>\n]{1,200}+)</\1>")
_XML_PARENT = re.compile(r"<([A-Za-z][\w.-]{0,40}+)>((?:[ \t]*<([A-Za-z][\w.-]{0,40}+)>[^<>\n]{1,200}+</\3>)++)"
                         r"[ \t]*</\1>")
_XML_OPEN = re.compile(r"(?m)^([ \t]*)<([A-Za-z][\w.-]{0,40}+)>[ \t]*$")  # a parent over its lines: "passwords:"
_XML_ITEM = re.compile(r"<([A-Za-z][\w.-]{0,40}+)>([^<>\n]{1,200}+)</\1>")
# LaTeX's description item ("\\item[Password] X" reads "Password: X").
_LATEX_ITEM = re.compile(r"\\item\[([^\[\]\n]{1,80})\][ \t]*")
# A space or a colon of another code point ("password\u1680is X", "password\u2236 X"): those NFKC leaves (the
# text is read after ``validate.bare``, which makes U+00A0, U+2009 or U+3000 a space).
_ODD = str.maketrans({"\u1680": " ", "\u2236": ":", "\ua789": ":", "\u02f8": ":", "\ufe55": ":", "\ufe13": ":"})


def _xml_open(element: re.Match[str]) -> str:
    from .secret_documents import credential_parent

    return f"{element.group(1)}{element.group(2)}:" if credential_parent(element.group(2)) else element.group()


def _xml_parent(element: re.Match[str]) -> str:
    from .secret_documents import credential_parent

    parent = credential_parent(element.group(1))
    if parent is None:
        return element.group()
    return " " + "; ".join(f"{parent}: {item.group(2)}" for item in _XML_ITEM.finditer(element.group(2))) + " "


# A LaTeX command's argument ("\\textbf{Password}: X" reads "Password: X"); not a character's escape ("\\u{20}").
_LATEX = re.compile(r"\\(?!u\{[0-9a-fA-F]{1,6}\})[A-Za-z]{1,20}\{([^{}\n]{1,80})\}")
# An HTML form's field with its value: ``<input type="password" value="X">`` reads "password: X", a field
# of another type by its name (``<input name="db_pass" value="X">``), the attributes in any order.
_INPUT = re.compile(r"(?i)<input\b([^<>\n]{0,500})>")
_ATTRIBUTE = re.compile(r"""([\w-]{1,40})[ \t]*=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'>]+))""")
# A label in CJK brackets ("【密码】X", "「パスワード」X", "《密码》：X") or in square brackets when it holds a
# letter of another script than Latin ("[비밀번호] X": an English "[password]" is a redaction's marker).
_CJK_LABEL = re.compile(r"[【〔「『《〈]([^【】〔〕「」『』《》〈〉\n]{1,20})[】〕」』》〉][ \t]*[:：]?[ \t]*"
                        r"|\[([^\[\]\n]{0,19}[^\x00-\u024f\[\]\n][^\[\]\n]{0,19})\][ \t]*[:：]?[ \t]*(?=\S)")
# A note in parentheses between a label in another script than Latin and its colon ("密码（生产）：X").
_CJK_NOTE = re.compile(r"(?<=[^\x00-\u024f])[ \t]*[(（][^()（）\n]{1,20}[)）](?=[ \t]*[:：])")


# For :func:`_sub`: the characters past a start within which a match of each shows one, a run of spaces and tabs
# counted as one (a bracket's or a tag's text counted whole), and where each can start (None: anywhere).
_BLANKS = re.compile(r"[ \t]+")
_WINDOWED: dict[re.Pattern[str], tuple[int, re.Pattern[str] | None]] = {
    _TAG: (221, re.compile("<")), _LINK: (64, re.compile(r"\[")), _HEADING: (8, None),
    _YAML_TAG: (36, re.compile(":")), _JSON_KEY: (45, re.compile("[\"']")), _SPACES: (2, _BLANKS),
    _SPLIT_WORD: (12, re.compile("(?i)pass")), _CJK_NOTE: (25, None), _CJK_LABEL: (45, re.compile("[【〔「『《〈\\[]")),
    _BROKEN_NAME: (17, re.compile("(?i)api|access|secret|private|auth|pass"))}


def _sub(pattern: re.Pattern[str], repl: str | Callable[[re.Match[str]], str], text: str) -> str:
    """``pattern.sub(repl, text)`` in bounded windows (``regex_windows.sub``, ``_WINDOWED``): NFKC writes a character
    in up to 18 (U+FDFA), so the text read here may be many times as long as the one checked."""
    reach, anchor = _WINDOWED[pattern]
    written = repl if callable(repl) else lambda match: match.expand(repl)
    return regex_windows.sub(pattern, text, written, reach, anchor, 0, _BLANKS)


def _entities(text: str) -> str:
    return "\n".join(_WHITE.sub(" ", html.unescape(line)) if "&" in line else line for line in text.split("\n"))


def _input_field(tag: re.Match[str]) -> str:
    """An ``<input>`` tag with a value as "password: X" (its type password) or "<its name>: X"; else a space."""
    attributes = {a.group(1).lower(): next(v for v in a.groups()[1:] if v is not None)
                  for a in _ATTRIBUTE.finditer(tag.group(1))}
    value = attributes.get("value")
    if not value:
        return " "
    if attributes.get("type", "").lower() == "password":
        return f" password: {value} "
    return f" {attributes['name']}: {value} " if attributes.get("name") else " "


@functools.lru_cache(maxsize=4)  # a redaction reads one text again in each reading and round
def unmarked(text: str) -> str:
    """``text`` with the marks around words taken away as the module says, the same number of lines.
    ``text``'s line breaks are single newlines (as ``secrets._scan`` reads them). Linear."""
    found = parsed(text)  # before the marks go: "*" names a YAML alias
    block = block_scalar_lines(text.split("\n"))  # and "|" a block scalar
    if ":" in text:
        text = _FIELD.sub("", text)
    if "&" in text:
        text = _entities(text)
    if not text.isascii():
        text = unicode_windows.translate(text, _ODD)
    if "\\" in text:
        text = _LATEX.sub(r"\1", _LATEX_ITEM.sub(r"\1: ", text))
    if "<" in text:
        text = _html_cells(_INPUT.sub(_input_field, text))
        if "</" in text:
            text = _XML_LEAF.sub(r" \1: \2 ", _XML_OPEN.sub(_xml_open, _XML_PARENT.sub(_xml_parent, text)))
        text = _sub(_TAG, " ", text)
    if "[" in text:
        text = _sub(_LINK, r"\1", text)
    if "#" in text or "h" in text:
        text = _sub(_HEADING, "", text)
    if ":" in text:
        text = _sub(_YAML_TAG, r"\1", _BLOCK.sub(r"\1", text))
        if '"' in text or "'" in text:
            text = _sub(_JSON_KEY, r"\2\3", text)
    text = regex_windows.sub(_MARKS, text, lambda _: "", _MARKS_REACH, _MARK, 0, _MARK_RUN)
    text = _sub(_BROKEN_NAME, r"\n\1 \2", _sub(_SPLIT_WORD, r"\1\2", _sub(_SPACES, " ", text)))
    if not text.isascii():
        text = _sub(_CJK_LABEL, lambda m: f"{m.group(1) or m.group(2)}: ", _sub(_CJK_NOTE, "", text))
    return structured(text, found, block)
