"""Keys of the key format table parted by single spaces: "AIzaC3J2 7XDCG2Lml…", "hf_ m8KV…", "sk-ant-api03-… …".

A key is looked for at each word that opens with a row's fixed literal opening (:func:`openings`: "AIza", "hf_",
"sk-ant-", "dapi"), perhaps parted inside it ("AI zaC3…"), never at the first word of the prose before it. The
groups after that word, parted by single spaces, are read joined up to where the row's value ends: the end of a
group, or a character its alphabet does not hold. A key so found must cross at least one space and read as generated
(``secret_values.generated_key``), so prose joined ("hf_transfer is Enabled by default…") is no key.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from .regex_windows import WINDOW

# The characters a row's literal opening is made of ("sk-ant-", "dt0c01\\.", "ya29\\.").
_LITERAL = re.compile(r"(?:[A-Za-z0-9_-]|\\\.)+")
# A leading group of literal alternatives ("(?:sk|rk)_", "(?:pub)?key-"): its alternatives, and whether it may be
# left out.
_CHOICE = re.compile(r"\(\?:([A-Za-z0-9_|-]+)\)(\?)?")
# A row whose value may hold a space ("BEGIN … PRIVATE KEY", "SSWS 00…") is found with its spaces as they are.
_SPACED = re.compile(r" |\\s|\[\^|\\t")
OPENING_MIN_CHARS = 2  # "s." (HashiCorp Vault's legacy tokens); one character opens too many words
# Characters a key's group is made of: anything but white space (its end is the row's, not the group's).
_GROUPS = re.compile(r"\S+(?: \S+)*")
# How far past its opening a key's groups are read: the longest rows' keys (Dropbox, Slack configuration tokens) and
# their spaces fit; a window bounds the work at each opening, so a text is read in linear time.
WINDOW_CHARS = 512
# The characters a row's value may not be followed by (``secret_plugins._row_source``: a value ends where its
# alphabet does).
_KEY_CHAR, _SPACE = re.compile(r"[A-Za-z0-9_-]"), re.compile(" ")
# The part of a key after its opening judged for a generated look: its first characters, before any prose glued to its
# end is reached.
JUDGED_CHARS = 40
_CLASSES, _PATH = re.compile(r"\[[^\]]*\]"), re.compile("/")  # a row whose value is a URL names its path's parts
# A key's inner labels' marks ("at_", "v1_", "-X"), left out of what is judged.
_SEPARATORS = re.compile(r"[^A-Za-z0-9+/]")


def _openings_of(regex: str) -> set[str]:
    """The fixed literal openings of ``regex``'s alternatives ("sk-ant-", "AIza"; "sk_"/"rk_" for "(?:sk|rk)_…"),
    empty when one alternative has none (a row whose value may open with any character)."""
    from .secret_plugins import _alternatives

    found: set[str] = set()
    for alternative in _alternatives(regex):
        heads, at = [""], 0
        choice = _CHOICE.match(alternative)
        if choice:
            heads = choice.group(1).split("|") + ([""] if choice.group(2) else [])
            at = choice.end()
        literal = _LITERAL.match(alternative, at)
        tail = literal.group().replace("\\", "") if literal else ""
        if literal and alternative[literal.end():literal.end() + 1] in ("*", "?", "{"):  # its last character repeats
            tail = tail[:-1]
        shortest = [head + tail for head in heads]
        if min(map(len, shortest)) < OPENING_MIN_CHARS:
            return set()
        found.update(shortest)
    return found


@functools.cache
def openings() -> dict[str, tuple[int, ...]]:
    """Each fixed opening of a row of the key format table without context words, and the rows it may open (its
    own and those of the shorter openings it starts with), in the table's order."""
    from .secret_tables import key_formats

    rows: dict[str, list[int]] = {}
    for number, row in enumerate(key_formats()):
        if not row.context and not _SPACED.search(row.regex):
            for opening in _openings_of(row.regex):
                rows.setdefault(opening, []).append(number)
    # an opening found is the longest one there: the rows of the shorter ones it starts with are tried too
    return {opening: tuple(sorted({n for other, numbers in rows.items() if opening.startswith(other) for n in numbers}))
            for opening in rows}


@functools.cache
def _opening_pattern() -> re.Pattern[str]:
    """One pattern finding, at the start of a word, each opening, whole or parted by one space: literals alone, so
    Python's ``re`` reads it in linear time (and without RE2's cost at each of many matches)."""
    spellings = {f"{o[:i]} {o[i:]}" for o in openings() for i in range(1, len(o))} | set(openings())
    alternation = "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))
    return re.compile(f"(?<![A-Za-z0-9])(?:{alternation})")


def _starts(text: str) -> Iterator[re.Match[str]]:
    """The openings in ``text`` as ``_opening_pattern().finditer`` finds them, searched a window at a time: no call is
    handed more than ``regex_windows.WINDOW`` characters and an opening's length (Python's ``re`` holds the GIL
    throughout a call)."""
    pattern, longest = _opening_pattern(), max(map(len, openings())) + 1  # (one space)
    pos, size = 0, len(text)
    while pos < size:
        end = pos + WINDOW
        found = pattern.search(text, pos, end + longest)  # (the look-behind reads the character before ``pos``)
        if found is None or found.start() >= end:
            pos = end
            continue
        yield found
        pos = found.end()


@functools.cache
def _row(number: int) -> re.Pattern[str]:
    from .secret_tables import key_formats

    return re.compile(key_formats()[number].regex)


_UNBOUNDED = re.compile(r"[*+]|\{\d+,\}")
_REPEATS = re.compile(r"\{(?:\d+,)?(\d+)\}")


@functools.cache
def _reach(opening: str) -> int:
    """How far after ``opening``'s start its rows' keys may reach: twice (a space after each character) a bound on
    their longest value (each character of a regex and each repeat's most counted once more), at most
    ``WINDOW_CHARS``."""
    from .secret_tables import key_formats

    regexes = [_CLASSES.sub("x", key_formats()[number].regex) for number in openings()[opening]]
    if any(_UNBOUNDED.search(regex) for regex in regexes):
        return WINDOW_CHARS
    longest = max(len(regex) + sum(int(most) for most in _REPEATS.findall(regex)) for regex in regexes)
    return min(WINDOW_CHARS, 2 * longest)


def _key(number: int, run: str) -> str | None:
    """The value of row ``number`` opening ``run`` read with its single spaces taken out, that crosses the first
    space and ends where the row's value may end (a space, or a character not of a key), else None; also None when the
    first group is a whole value of the row (the text holds that key as it is, and a word may follow it)."""
    row, joined, first = _row(number), run.replace(" ", ""), run.index(" ")
    found = row.match(joined)
    if found is None or found.end() <= first or row.fullmatch(joined, 0, first):
        return None
    end = found.end()
    ends = [at - spaces for spaces, at in enumerate(m.start() for m in _SPACE.finditer(run))] + [len(joined)]
    if end not in ends and _KEY_CHAR.match(joined, end):
        # the longest value runs into a group of key characters: a shorter one may end at a group's end
        shorter = [e for e in ends if first < e < end]
        if not shorter or not row.fullmatch(joined, 0, shorter[-1]):
            return None
        end = shorter[-1]
    return joined[:end]


def parted_keys(text: str) -> Iterator[tuple[int, str, str]]:
    """``(offset, label, key)`` of each key of a row with a fixed opening (:func:`openings`) found in ``text`` only
    with the single spaces inside it taken out: "The maps key is AIzaC3J2 7XDCG2Lml…". Linear (each opening reads at
    most ``WINDOW_CHARS`` after it)."""
    from .secret_plugins import _HOLDS
    from .secret_tables import key_formats
    from .secret_values import generated, generated_key

    if " " not in text:
        return
    table, by_opening = key_formats(), openings()
    for match in _starts(text):
        start, opening = match.start(), match.group().replace(" ", "")
        run = _GROUPS.match(text, start, start + _reach(opening))
        if run is None or " " not in run.group():
            continue
        for number in by_opening[opening]:
            key = _key(number, run.group())
            if key is None:
                continue
            row = table[number]
            body = key[len(opening):]
            if _PATH.search(_CLASSES.sub("", row.regex)):  # a URL's: its last part is the key
                body = body.rsplit("/", 1)[-1]
            judged = _SEPARATORS.sub("", body)[:JUDGED_CHARS]
            if all(_HOLDS[c].search(key) for c in row.holds) and (generated_key(judged) or generated(judged)):
                yield start, row.name, key
                break
