"""A password's change written in prose, read one way by the grammar and by the plain-word rule: "was changed to
X", "got bumped from X to Y", "password --> X", "a été changé en X", "se cambió a X", "das Passwort wurde auf X
geändert", "cambié la contraseña a X". The forms are ``secret_words.tsv``'s ``change*`` rows; :func:`bridges`
gives the grammar what stands between a word for password and a new value, :func:`changed` tells the plain-word
rule (``secret_plain``) that a value follows one, :func:`old_value` finds "from X" before it.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from .secret_tables import AFTER, languages_of, words

# An arrow ending what stands before a value: ASCII between spaces ("password -> X", "password --> X", "=> X";
# code writes "s->password->data" unspaced), typographic ("password → X", "➜", "↦") or "»" after a space (a
# closing quote otherwise).
_TYPOGRAPHIC = "→⇒⟶⟹➜➔➝➞➡↦⇨⮕⟾"
ARROW = f"-{{1,2}}>|={{1,2}}>|[{_TYPOGRAPHIC}]|[ \\t]»"
_ARROW_BEFORE = re.compile(f"[ \\t](?:-{{1,2}}>|={{1,2}}>|»)[ \\t]+$|[{_TYPOGRAPHIC}][ \\t]*$")
_ARROWS = re.compile(ARROW)
_CALLED = re.compile(r"[(\[]|\.\w")  # right after the value, a call or a member: code ("password => check(password)")
# Code around an ASCII arrow: a member's name before it ("Mode.PASSWORD -> LoginScreen", "Auth::PASSWORD =>"), a
# name with a capital inside after it ("PASSWORD -> loginScreen").
_MEMBER_ARROW = re.compile(r"(?:\.|::)[A-Za-z_]\w*[ \t]+(?:-{1,2}>|={1,2}>)[ \t]+$")
_INNER_CAPITAL = re.compile(r"[A-Za-z][a-z0-9]*[A-Z]\w*")
_OPENS, _CLOSES = "[\"'`“‘«„]?", "[\"'`”’»]?"  # a quote around a value, perhaps
_WORDS = r"(?:[ \t]+[^\s,;:.!?()\[\]{}]+?){0,6}?"  # up to six words (between a determiner and the word for password)
# The old value between "from" and "to": one to three words; before an arrow, one word.
_OLD = r"[^\s]+(?:[ \t]+[^\s]+)?(?:[ \t]+[^\s]+)?"
_OLD_WORD = r"[^\s]+"
_MARK = "(?:[ \\t]*[:=]|[ \\t]+[-–—])"  # what follows a label of the old or the new value ("old:", "new -")
# What stands before an old value's label with no change's verb: ":", "(" or a space ("password: old X", "password (old:
# X", "password old X")
_OLD_LABELLED = "(?:[ \\t]*[:(][ \\t]*|[ \\t]+)"


# The languages with change rows whose noun's modifier follows it ("mot de passe wifi", "contraseña wifi").
MODIFIER_AFTER = ("fr", "es", "it", "pt")


def _changing_languages() -> list[str]:
    """The languages with ``change*`` rows (a ``change-to`` row each)."""
    return languages_of("change-to")


def _label(role: str, lang: str | None, bare: bool = False) -> str:
    """A ``change-old`` or ``change-new`` label of ``lang`` (of every language when None) and its ":", "=" or dash
    ("old: ", "new - "), or with ``bare`` the label alone, where a change's verb or an arrow makes it one ("changed: alt
    X → neu Y"; a space must follow), as an optional part of a regex ending in a space or its mark."""
    label = words(role, lang)
    return f"(?:[ \\t]+(?:{label}){_MARK}{'?' if bare else ''})?" if label else ""


def _from(lang: str) -> str:
    """"from X" of ``lang`` before its ``change-to`` word, as an optional part of a regex."""
    return f"(?:[ \\t]+(?:{words('change-from', lang)}){_label('change-old', lang)}[ \\t]+{_OLD})?"


def _from_to(lang: str) -> str:
    """Perhaps "from X", then ``lang``'s ``change-to`` word; or "from X", then its ``change-from-to`` word, one that
    introduces the new value only after the old ("von X zu Y"), as a part of a regex."""
    to = f"{_from(lang)}[ \\t]+(?:{words('change-to', lang)})"
    if not words("change-from-to", lang):
        return f"(?:{to})"
    return f"(?:{to}|[ \\t]+(?:{words('change-from', lang)})[ \\t]+{_OLD}[ \\t]+(?:{words('change-from-to', lang)}))"


def _to(lang: str) -> str:
    """``lang``'s ``change-to`` word, perhaps then its label ("to new:"), or, after "from X" or only X (perhaps after
    ":"), an arrow ("changed from X --> Y", "changed X ➜ Y", "updated: X → Y")."""
    return (f"(?:{_from(lang)}[ \\t]+(?:{words('change-to', lang)}){_label('change-new', lang)}"
            f"|(?:[ \\t]*:)?(?:[ \\t]+(?:{words('change-from', lang)}))?{_label('change-old', lang, bare=True)}"
            f"[ \\t]+{_OPENS}{_OLD_WORD}[ \\t]*(?:{ARROW}){_label('change-new', lang, bare=True)}{_relabelled(lang)})")


def _relabelled(lang: str) -> str:
    """After a change's verb, ``lang``'s labels of the old and the new value, each perhaps alone ("geändert: alt X, neu
    ", "changed: old X new "), as an alternative of a regex (or "")."""
    old, new = words("change-old", lang), words("change-new", lang)
    if not (old and new):
        return ""
    return f"|(?:[ \\t]*:)?[ \\t]+(?:{old}){_MARK}?[ \\t]+{_OPENS}{_OLD_WORD}(?:[ \\t]*[,;/])?[ \\t]+(?:{new}){_MARK}?"


def _went(lang: str) -> str:
    """``lang``'s ``change-aux`` word before "from X" and its ``change-to`` word or an arrow ("went from X to", "moved
    from X →"), as an alternative of a regex (or ""); not in a language whose participle follows the value
    (:func:`change_sources` reads "wurde von X → Y geändert")."""
    if not words("change-aux", lang) or words("change-final", lang):
        return ""
    return (f"|(?:{words('change-aux', lang)})[ \\t]+(?:{words('change-from', lang)}){_label('change-old', lang)}"
            f"(?:[ \\t]+{_OLD}[ \\t]+(?:{words('change-to', lang)}){_label('change-new', lang)}"
            f"|[ \\t]+{_OPENS}{_OLD_WORD}[ \\t]*(?:{ARROW}))")


def _paired(lang: str) -> str:
    """``lang``'s labels of the old and the new value around the old value, the old one in brackets or before ":" or
    "=" ("(old) X, (new) ", "old: X new"), or its words for what a password was and is now ("was X, now ", "antes X,
    ahora "), as alternatives of a regex (or "")."""
    old, new = words("change-old", lang), words("change-new", lang)
    was, now = words("change-was", lang), words("change-now", lang)
    labels = (f"|(?:\\((?:{old})\\)|(?:{old})[ \\t]*[:=])[ \\t]*{_OPENS}{_OLD_WORD}[ \\t]*[,;/]?"
              f"[ \\t]*(?:\\((?:{new})\\)|(?:{new}))" if old and new else "")  # (its ":" or "=" read as the value's)
    return labels + (f"|(?:{was})[ \\t]+{_OPENS}{_OLD_WORD}[ \\t]*[,;/]?[ \\t]*(?:{now})" if was and now else "")


@functools.cache
def bridges(langs: tuple[str, ...] | None = None) -> str:
    """What stands between a word for password and a new value in ``langs`` (every language with ``change`` rows
    when None), as one alternation: a change's verb, perhaps "from X", its ``change-to`` word or an arrow ("was
    changed to", "got bumped from X to", "updated from old: X to new:", "changed X ➜", "a été changé en", "wurde
    geändert auf"); an auxiliary, "from X" and "to" or an arrow ("went from X to", :func:`_went`); the old value
    between labels ("(old) X, (new)", :func:`_paired`)."""
    return "|".join(f"(?:{words('change', lang)}){_to(lang)}{_went(lang)}{_paired(lang)}"
                    for lang in _changing_languages() if words("change", lang) and (langs is None or lang in langs))


def verbless_change() -> str:
    """What stands between a word for password and a new value with no change's verb, as one alternation: after ":",
    a value and an arrow, each perhaps after its label ("pw: X → Y", "Passwort: alt X → neu Y"); after a space, a
    value holding a digit or a symbol and an arrow ("router admin password hunter22 → Y"), perhaps after one word
    naming whose (then four characters or more: "hasło routera kot123 → Y"); a left arrow ("password ← Y", "password
    <- Y"); the labels of every language around such an old value, after ":", "(" or a space, their marks optional
    ("password: old X, new Y", "password (old: X, new: Y)", "Passwort alt X neu Y")."""
    old, new = _label("change-old", None, bare=True), _label("change-new", None, bare=True)
    mark = "[\\d!@#$%^&*?~+]"
    typed = f"[^\\s]*{mark}[^\\s]*"
    # (after a word, "password policy v2 → v3-draft" names versions)
    typed_four = f"(?:[^\\s]{{3,}}{mark}|[^\\s]{{2}}{mark}[^\\s]|[^\\s]{mark}[^\\s]{{2}}|{mark}[^\\s]{{3}})[^\\s]*"
    labels = (f"|{_OLD_LABELLED}(?:{words('change-old')}){_MARK}?[ \\t]+{_OPENS}{typed}"
              f"[ \\t]*[,;/]?[ \\t]*(?:{words('change-new')})")
    return (f"[ \\t]*:[ \\t]*{old}[ \\t]*{_OPENS}{_OLD_WORD}[ \\t]*(?:{ARROW}){new}"
            f"|[ \\t]+(?:\\pL[^\\s:=,;.!?()\\[\\]]*[ \\t]+{_OPENS}{typed_four}|{_OPENS}{typed})[ \\t]*(?:{ARROW}){new}"
            f"|[ \\t]*[←⟵⇐⬅]|[ \\t]+<(?:-{{1,2}}|={{1,2}})" + labels)


def _whose(lang: str | None) -> str:
    """What may stand between a word for password and "from X" after a change's verb: a phrase of ``lang``'s or
    English's ``whose`` words and one to four words ("cambié la contraseña del wifi de X a Y", "сменил пароль от
    wifi с X на Y"), or one word naming whose ("changé le mot de passe wifi de X à Y"), as an optional part of a
    regex (of every language when ``lang`` is None)."""
    whose = "|".join(filter(None, (words("whose", lang), words("whose", "en"))))
    return f"(?:[ \\t]+(?:{whose})(?:[ \\t]+|['’])[^\\s:=]+(?:[ \\t]+[^\\s:=]+){{0,3}}?|[ \\t]+[^\\s:=,;.!?]+)?"


@functools.cache
def change_sources(named: str) -> tuple[str, str, str]:
    """Patterns for the forms :func:`bridges` leaves to another reading, ``named`` being the words for password: a
    change's verb and a determiner before the word ("cambié la contraseña a X", ``change-before``), a participle
    after the value ("das Passwort wurde auf X geändert", ``change-aux`` and ``change-final``), and "the new one"
    standing for a password named before it on its line ("we rotated the vpn password; new one: X", ``change-one``).
    Their value is the group ``said_changed``, judged as after "the password was changed to"
    (``secret_values.named_value_kept``). Three patterns, so that each one's prefilter keys on its rarest words (the
    verb and its determiner; the participle; "new one")."""
    value = f"{_OPENS}(?P<said_changed>[^\\s\"'`]{{2,63}}[^\\s\"'`.,;:!?)\\]”’»])"
    before, final, finals = [], [], []
    for lang in _changing_languages():
        to = f"{_from_to(lang)}[ \\t]+"
        if words("change-before", lang):
            before.append(f"{AFTER}(?:{words('change-before', lang)}){_WORDS}[ \\t]*(?:{named}){_whose(lang)}{to}")
        if words("change-final", lang):  # (or "von X → ": "das Passwort wurde von X → Y geändert")
            arrow = f"[ \\t]+(?:{words('change-from', lang)})[ \\t]+{_OPENS}{_OLD_WORD}[ \\t]*(?:{ARROW})[ \\t]*"
            final.append(f"(?:{named})(?:[ \\t]+(?:{words('change-aux', lang)}))?(?:{to}|{arrow})")
            finals.append(f"(?:{words('change-final', lang)})")
    return (f"(?i)(?:{'|'.join(before)}){value}",
            f"(?i)(?:{'|'.join(final)}){value}{_CLOSES}[ \\t]+(?:{'|'.join(finals)})",
            f"(?i)(?:{named})[^\\n]{{0,120}}?{_one()}[ \\t]+{value}")


def _one() -> str:
    """Punctuation ending a clause, then a language's "the new one" (``change-one``) and ":", a dash or its verb, as
    a part of a regex."""
    ones = "|".join(f"(?:{words('change-one', lang)})(?:[ \\t]*[:=]|[ \\t]+[-–—]"
                    + (f"|[ \\t]+(?:{words('verb', lang)}))" if words("verb", lang) else ")")
                    for lang in languages_of("change-one"))
    return f"[.;,!][ \\t]*(?:{ones})"


@functools.cache
def _one_end() -> Any:
    """"; the new one is" (:func:`_one`) ending a text."""
    return re.compile(f"(?i){_one()}[ \\t]+{_OPENS}$")


@functools.cache
def _bridged() -> Any:
    """A change's verb and its word for the new value (:func:`bridges`) ending a text."""
    return re.compile(f"(?i)(?<![\\w'’-])(?:{bridges()})[ \\t]+{_OPENS}$")


@functools.cache
def _before_word() -> list[tuple[Any, Any | None]]:
    """Per language, a change's verb and a determiner before the word then its ``change-to`` word ending a line (or, for
    a language with ``change-final`` rows, its auxiliary or nothing before that word), and its participle after the
    value when it needs one."""
    out = []
    for lang in _changing_languages():
        to = f"{_from_to(lang)}[ \\t]+{_OPENS}$"
        final = words("change-final", lang)
        after = re.compile(f"(?i){_CLOSES}[ \\t]+(?:{final})") if final else None
        if words("change-before", lang):
            out.append((re.compile(f"(?i)(?<![\\w'’-])(?:{words('change-before', lang)}){_WORDS}[ \\t]+"
                                   f"[^\\s,;:.!?()\\[\\]{{}}]+{to}"), after))
        if final:
            out.append((re.compile(f"(?i)(?:^|[ \\t])(?:{words('change-aux', lang)}){to}|[^\\s]{to}"), after))
    return out


def changed(text: str, before: str, at: int, value: str) -> int | None:
    """Where what follows ``value`` at ``at`` of ``text`` is to be read from when it stands after a change: right after
    it when ``before`` (the text before it, at most 256 characters) ends with a change's verb and its word for the new
    value (:func:`bridges`), or its line with an arrow that is the line's first (not a path, "Settings -> Password ->
    Change"), with no call or member after it nor, after an ASCII arrow, a member before it or a name with a capital
    inside; after the participle that follows it where a language writes one there ("wurde auf X geändert", "wurde
    von X → Y geändert"). None when it stands after none."""
    end = at + len(value)
    line = text[max(0, text.rfind("\n", max(0, at - 256), at) + 1, at - 256):at]
    if _one_end().search(line):
        return end
    particle = _to_end().search(line) is not None
    if particle and _bridged().search(before):
        return end
    for form, after in _before_word() if particle else ():
        if form.search(line):
            participle = after.match(text, end) if after is not None else None
            if after is None or participle:
                return participle.end() if participle else end
    arrow = _ARROW_BEFORE.search(before)
    if arrow is None or len(_ARROWS.findall(line)) != 1 or _CALLED.match(text, end):
        return None
    code = "-" in arrow.group(0) or "=" in arrow.group(0)  # (an ASCII arrow, as code writes one)
    if code and (_MEMBER_ARROW.search(line) or _INNER_CAPITAL.fullmatch(value)):
        return None
    participle = _participle().match(text, end)  # "wurde von X → Y geändert"
    return participle.end() if participle else end


@functools.cache
def _participle() -> Any:
    """A participle of a language that writes one after the new value (``change-final``), perhaps after a quote."""
    return re.compile(f"(?i){_CLOSES}[ \\t]+(?:{words('change-final')})(?![\\w'’-])")


@functools.cache
def _to_end() -> Any:
    """A word for the new value ending a text (what every change but an arrow ends with): checked first, as cheap."""
    tos = "|".join(f"(?:{words('change-to', lang)}){_label('change-new', lang)}" for lang in _changing_languages())
    tos = "|".join(filter(None, (tos, words("change-from-to"))))
    return re.compile(f"(?i)[ \\t](?:{tos})[ \\t]+{_OPENS}$")


@functools.cache
def _old() -> tuple[Any, Any]:
    """"from X to ", "X → " or "X, (new) " ending a text, X one word (perhaps quoted, perhaps after a label: "from
    old: X to new: ", "(old) X"); and what stands right before "from" or X: a change's verb or auxiliary or a word
    for password, perhaps then ":" or a dash (not a part of one: "mot de passe en X" holds no "de X en")."""
    langs = _changing_languages()
    olds, news = f"{words('change-old')}|{words('change-was')}", f"{words('change-new')}|{words('change-now')}"
    froms = "|".join(f"(?:{words('change-from', lang)})" for lang in langs)
    tos = "|".join(filter(None, (*(f"(?:{words('change-to', lang)}){_label('change-new', lang)}" for lang in langs),
                                 words("change-from-to"))))  # (read only after "from X": ``old_value``)
    leads = "|".join(filter(None, (words(role, lang) for lang in langs for role in ("change", "change-aux"))))
    named = f"{words('password')}|{words('password-strict')}|{words('password-tail')}"
    # (a label alone, "alt X → neu Y", before a space; in brackets, "(old) X", or opening them, "(old: X")
    labelled = f"[ \\t]*\\((?:{olds})\\)|{_OLD_LABELLED}(?:{olds})(?:{_MARK}|(?=[ \\t]))"
    return (re.compile(f"(?i)(?:[ \\t]+(?:{froms})(?P<from>))?(?:(?P<labelled>{labelled})[ \\t]*|[ \\t]+)"
                       f"{_OPENS}(?P<old>[^\\s\"'`“”‘’«»„]*[^\\s\"'`“”‘’«»„,;]){_CLOSES}"
                       f"(?:[ \\t]+(?:{tos})[ \\t]+|[ \\t]*(?P<arrow>{ARROW})[ \\t]*(?:(?:{news}){_MARK}?[ \\t]+)?"
                       f"|[ \\t]*[,;/]?[ \\t]*(?P<paired>\\((?:{news})\\)|(?:{news})(?:[ \\t]*[:=]|(?=[ \\t]))))"
                       f"[ \\t]*{_OPENS}$"),
            re.compile(f"(?i)(?<![\\w'’-])(?:{leads}|{named}){_whose(None)}(?:[ \\t]*[:—–]|[ \\t]+-)?$"))


def old_value(text: str, start: int, at: int) -> str | None:
    """The old value X when the text from ``start`` to ``at`` (a value's place) ends with a change's "from X to" ("was
    changed from X to Y", "wurde von X auf Y geändert"), "X → " after a change's verb or a word for password ("pw:
    X → Y") or X between labels ("password (old) X, (new) Y"), else None. Reads at most 256 characters before
    ``at``."""
    before = text[max(start, at - 256):at]
    tail, lead = _old()
    old = tail.search(before)
    if old is None or not lead.search(before, max(0, old.start() - 64), old.start()):
        return None
    if old.group("paired") is not None:
        return str(old.group("old")) if old.group("labelled") is not None else None  # "(old) X, (new) Y"
    if old.group("arrow") is None and (old.group("from") is None or not (
            _bridged().search(before) or any(form.search(before) for form, _ in _before_word()))):
        return None  # with no arrow, only "from X to" after a change's verb
    return str(old.group("old"))
