"""The grammar of an end: a verb or phrase saying a name has ended ("We retired Jenkins", "stopped using npm",
"PagerDuty was sunset", "Jenkins got the axe"), read over a text's tokens (where a lower-case name stands:
``_name_slot``, ``_lower_name``) and over its slots (``_ending``: what ended, what replaces it)."""

from __future__ import annotations

import re

from .contradiction_words import (CHANGE_VERBS, CLAUSE_WORDS, DETERMINERS, LOWER_NAMES, NAME_VERBS, PERIODS,
                                  PRONOUNS, REPLACING, STOP, _CONTRASTS, _TO, _WHEN, Marks, Slots, Tokens, stem)
from .query import PASSIVE

_OBJECTS = PRONOUNS | DETERMINERS | {"a", "an", "me", "us", "him", "them", "some", "more"}  # "to make it", "to make a"
# Verbs ending the name after them, or before them in the passive ("We retired Jenkins", "We ditched Jenkins for
# CircleCI", "PagerDuty was sunset"), some only with their particle ("stopped using", "moved off", "phased out"):
# read as a denial of the name from then on (``_ending``).
ENDING = REPLACING | frozenset("""retired dropped ditched abandoned decommissioned sunset sunsetted scrapped dumped
discontinued deprecated removed killed quit cancelled canceled uninstalled axed""".split())
ENDING_PHRASES = (("stopped", "using"), ("stopped", "paying", "for"), ("quit", "using"), ("gave", "up", "using"),
                  ("given", "up", "using"), ("gave", "up", "on"), ("given", "up", "on"), ("gave", "up"),
                  ("given", "up"), ("moved", "off"),
                  ("moved", "away", "from"), ("switched", "away", "from"), ("migrated", "off"),
                  ("migrated", "away", "from"), ("phased", "out"), ("got", "rid", "of"), ("gotten", "rid", "of"),
                  ("shut", "down"), ("turned", "off"), ("switched", "off"), ("no", "longer", "use"),
                  ("no", "longer", "using"), ("no", "more"))
_ENDING_FROM: dict[str, tuple[tuple[str, ...], ...]] = {  # ENDING_PHRASES by first word, in order: a word is
    first: tuple(p for p in ENDING_PHRASES if p[0] == first) for first, *_ in ENDING_PHRASES}  # tried on its own
_ENDING_TO: dict[str, tuple[tuple[str, ...], ...]] = {  # ENDING_PHRASES by last word: a word after one is tried
    p[-1]: tuple(q for q in ENDING_PHRASES if q[-1] == p[-1]) for p in ENDING_PHRASES}  # against those alone
# Verbs ending the name after them only when what replaces it follows ("We left Jenkins for Buildkite"; not "We
# left Jenkins running").
_ENDING_FOR = frozenset({"left", "traded"})
ENDS = ENDING | _ENDING_FOR  # a verb ending a name, on its own
_PARTICLES = {"phased": "out", "shut": "down", "turned": "off", "switched": "off"}
_PASSIVE_ENDING = ENDING | frozenset(_PARTICLES)  # "Jenkins was phased out"
# German and French say "no longer" after the verb and its object: read as a predicate below with or without a form
# of "be" before it ("Wir nutzen Jenkins nicht mehr", "Jenkins wird nicht mehr genutzt", "Jenkins n'est plus
# utilisé"); French puts it around the verb too ("Nous n'utilisons plus Jenkins": ``_ne_plus``).
_AFTER_NAME = (("nicht", "mehr"), ("nicht", "länger"), ("ne", "est", "plus"))  # "n'est": ``_tokens``
# Predicates ending the name before them after a form of "be" or "got", as a participle of ``_PASSIVE_ENDING``
# does: "Jenkins is no longer used", "PagerDuty is gone", "Jenkins got the axe".
_PASSIVE_PHRASES = (("gone",), ("the", "axe"), ("the", "ax"), ("the", "boot"), ("the", "chop"),
                    ("no", "longer", "used"), ("no", "longer", "needed"), ("no", "longer", "supported"),
                    ("no", "longer", "maintained"), ("no", "longer", "in", "use"), *_AFTER_NAME)
_PASSIVE_FROM: dict[str, tuple[tuple[str, ...], ...]] = {  # _PASSIVE_PHRASES by first word, in order
    p[0]: tuple(q for q in _PASSIVE_PHRASES if q[0] == p[0]) for p in _PASSIVE_PHRASES}
# Every end :func:`_ending` reads holds one of these words: an ending verb, a word of each ending phrase (not "the",
# "no"), "ne" of "ne ... plus", "mehr" of "kein ... mehr".
_END_WORDS = ENDS | _PASSIVE_ENDING | {"ne", "mehr"} | frozenset(
    p[1] if p[0] in ("the", "no") else p[0] for p in (*ENDING_PHRASES, *_PASSIVE_PHRASES))
# Beside an end, words saying the name whole: what it is held as ("We cancelled our PagerDuty subscription") and,
# after "from", what holds every tool ("Vault was removed from the stack"; not "from the staging cluster").
_HELD_AS = frozenset("subscription subscriptions account accounts plan plans contract contracts license licence "
                     "licenses seats".split())
_WHOLE = frozenset("stack setup infrastructure infra toolchain tooling".split())
# A form of "be" (German "werden" too) makes a passive: not "Alice has retired".
_BE = frozenset("is are was were been being got gets wird werden wurde wurden".split())
_AUXILIARIES = _BE | frozenset("has have had now finally officially".split())
# A pronoun and its verb in one word ("we've", "they’re"): it may lead an ending verb as "we have" does (``_ending``).
_CONTRACTED = re.compile(r"^(?:i|we|you|he|she|they|it)['’](?:ve|re|d|ll|m|s)$")
_NAME_SLOT = frozenset("use uses using used with via on by replaced swapped".split())


def _name_slot(tokens: Tokens, at: int) -> bool:
    """Whether the word at ``at`` stands where a name does: after a form of "use" or a word of ``_NAME_SLOT`` ("We use
    uv daily", "Packaging is done with uv"), after "to" or "from" in a text with a change verb (``CHANGE_VERBS``) or
    after a contrast ("instead of npm", "not npm"), ending its clause or before a stop word but an object ("We
    switched from npm to pnpm"; not "to make sure", "moved on to make a difference"), or opening a sentence before a
    verb of ``NAME_VERBS`` or ``query.PASSIVE`` ("pip was replaced by uv"); after an ending verb and determiners ("We
    cancelled our npm subscription") or after "for", "with" in a text with one ("We ditched npm for yarn")."""
    before = tokens[at - 1][0].lower() if at else ""
    after = tokens[at + 1][0].lower() if at + 1 < len(tokens) else ""
    if tokens[at][1]:
        return after in NAME_VERBS or after in PASSIVE
    contrast = before in ("not", "never", "than") or before == "of" and tokens[at - 2][0].lower() in _CONTRASTS
    return before in _NAME_SLOT or _ended_slot(tokens, at) or (contrast or before in ("to", "from") and _says_any(
        tokens, CHANGE_VERBS) or _replacing_slot(tokens, at)) and _closing(tokens, at)


def _ended_slot(tokens: Tokens, at: int) -> bool:
    """Whether the word at ``at`` stands right after an ending verb and determiners ("We retired pip", "stopped
    using npm", "We cancelled our npm subscription")."""
    verb = next((tokens[k][0].lower() for k in range(at - 1, -1, -1) if tokens[k][0].lower() not in DETERMINERS), "")
    return verb in ENDS or any(
        tuple(t[0].lower() for t in tokens[max(0, at - len(p)):at]) == p
        for p in _ENDING_TO.get(tokens[at - 1][0].lower() if at else "", ()))


def _replacing_slot(tokens: Tokens, at: int) -> bool:
    """Whether the word at ``at`` stands after "for", "with", "by" or "in favour of" in a text with an ending
    verb (``ENDS``: "We ditched npm for yarn", "We replaced npm by yarn")."""
    before = tokens[at - 1][0].lower() if at else ""
    return (before in ("for", "with", "by") or before == "of" and at > 1
            and tokens[at - 2][0].lower() in ("favour", "favor")) and _says_any(tokens, ENDS)


def _says_any(tokens: Tokens, words: frozenset[str]) -> bool:
    """Whether a text's ``tokens`` hold one of ``words`` (lowercase), in any case."""
    return any(t[0].lower() in words for t in tokens)


# The words an end opens with: an ending verb, or the first word of an ending phrase (``may_end``).
_END_OPENERS = ENDS | frozenset(p[0] for p in ENDING_PHRASES)


def may_end(tokens: Tokens) -> bool:
    """Whether :func:`_lower_name` may read a word of a text's ``tokens`` as a name: only when one of them
    opens an end (``_END_OPENERS``), which :func:`_ended_slot` and :func:`_replacing_slot` both need."""
    return _says_any(tokens, _END_OPENERS)


def _lower_name(tokens: Tokens, at: int) -> bool:
    """Whether the lower-case word at ``at`` is read as a name where a change ends one or names what replaces
    it (:func:`_ended_slot`, :func:`_replacing_slot`), ending its clause or before a stop word as a name there
    does: "We dropped pagerduty for opsgenie", "We retired jenkins" read as their capitalised forms; no stop
    word, pronoun or determiner ("We ditched it for yarn")."""
    raw = tokens[at][0]
    return _LOWER_WORD.fullmatch(raw) is not None and raw not in STOP and raw not in _OBJECTS \
        and _stopped_at([t[0].lower() for t in tokens[max(0, at - 3):at + 1]], min(at, 3)) is None \
        and (_ended_slot(tokens, at) or _replacing_slot(tokens, at)) and _closing(tokens, at)


_LOWER_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")  # "opsgenie", "pre-commit"


def _closing(tokens: Tokens, at: int) -> bool:
    """Whether the word at ``at`` ends its clause or stands before a stop word but an object ("to make sure")."""
    after = tokens[at + 1][0].lower() if at + 1 < len(tokens) else ""
    return tokens[at][3] or not after or after in STOP and after not in _OBJECTS


def _ending(slots: Slots, lowered: list[str], anchor: list[str | None],
            marks: Marks) -> tuple[set[str], set[str], list[tuple[str, str]], set[tuple[str, str]]]:
    """The names a text ends (``ENDING``, ``ENDING_PHRASES``): those right after an ending verb (determiners
    aside), or before one and a form of "be" in the passive ("PagerDuty was
    sunset"); with the stems of the words saying so and the names after "for", "with", "to" ... later in
    the clause (what replaces them: "We ditched Jenkins for CircleCI"), their denials and (verb, name)
    pairs, as ``_Read.ended``, ``spoken``, ``denials`` and ``reached`` hold them."""
    ended: set[str] = set()
    spoken: set[str] = set()
    denials: list[tuple[str, str]] = []
    reached: set[tuple[str, str]] = set()
    if _END_WORDS.isdisjoint(lowered):
        return ended, spoken, denials, reached
    count = len(slots)

    def named(j: int, step: int) -> int:  # past the names in a row from ``j``, in one clause
        while 0 <= j < count and slots[j][0] in ("name", "ident") and not (step < 0 and marks[j][1]):
            j += step
            if step > 0 and marks[j - 1][1]:  # "We dropped Jenkins; CI runs on ...": "CI" is not ended
                break
        return j

    for i, word in enumerate(lowered):
        phrase = next((p for p in _ENDING_FROM.get(word, ()) if tuple(lowered[i:i + len(p)]) == p), None) or (
            (word,) if word in ENDS else _ne_plus(lowered, i))
        verb_end = i + len(phrase) if phrase else i + 1  # past the verb and its particles
        start = stop = verb_end
        if phrase is not None and not any(marks[j][1] for j in range(i, verb_end - 1)):
            while start < count and lowered[start] in DETERMINERS and not marks[start - 1][1]:
                start += 1
            if not (marks[verb_end - 1][1] or start - verb_end and marks[start - 1][1]):  # no clause ends first
                stop = named(start, 1)
                # "We dropped Node 16", "... iOS 15": the version ends, not what it is of
                of = stop if stop > start else start + (start < count and anchor[start] is not None)
                if start < of < count and slots[of][0] == "number" and not marks[of - 1][1]:
                    start, stop = of, of + 1
            if word in _ENDING_FOR and not (stop < count and not marks[stop - 1][1] and (
                    lowered[stop] == "for" or lowered[stop:stop + 2] in (["in", "favour"], ["in", "favor"]))):
                stop = start
            lead = i  # and the words leading the verb: "We have (now) stopped using", "We finally retired"
            while lead and (lowered[lead - 1] in _AUXILIARIES or _CONTRACTED.match(lowered[lead - 1])) \
                    and not marks[lead - 1][1]:  # "We've retired"
                lead -= 1
            said = range(lead, stop)
        size = _predicate(lowered, i) if stop == start else 0
        after_name = bool(size) and tuple(lowered[i:i + size]) in _AFTER_NAME
        no_more = _kein_mehr(slots, lowered, marks, i) if stop == start and not size else None
        if no_more is not None:  # "Wir machen kein Planning mehr": what "kein" names ends, as after "nicht mehr"
            (said_from, start), stop, verb_end, after_name = no_more, i, i + 1, True
            said = range(said_from, verb_end)
        if size:
            aux = i - 1  # the passive: "Jenkins was retired", "... has been phased out", "... is no longer used"
            while aux >= 0 and lowered[aux] in _AUXILIARIES and not marks[aux][1]:
                aux -= 1
            if not _BE.isdisjoint(lowered[aux + 1:i]) or after_name:
                start, stop = named(aux, -1) + 1, aux + 1
                verb_end = i + size  # past the particle once (a phrase may hold it)
                said = range(start, verb_end)
                if start == stop and aux > 0 and slots[aux][0] == "number" and slots[aux - 1][0] == "name" \
                        and not marks[aux - 1][1]:
                    start, said = aux, range(aux - 1, verb_end)  # "Node 16 was dropped": the version ends
        if stop <= start or bounded(slots, lowered, anchor, marks, i, dating=True):
            continue
        after = max(stop, verb_end)
        if after < count and not marks[after - 1][1] and lowered[after] in _HELD_AS:
            said = range(said.start, after + 1)  # "our PagerDuty subscription"
        names = [slots[j][1] for j in range(start, stop)]
        ended.update(names)
        spoken.update(anchor[j] or lowered[j] for j in said)
        if after_name:
            spoken.update(anchor[j] or lowered[j] for j in _verb_apart(lowered, marks, start, i, verb_end))
        spoken.update(names)
        verb = anchor[i] or word
        denials.extend((name, " ".join(lowered[j] for j in said)) for name in names)
        reached.update((verb, name) for name in names)
        j = max(stop, verb_end)
        while j < count and not marks[j - 1][1]:  # what replaces them, in the clause: "for CircleCI"
            if lowered[j] == "from" and (whole := next((k for k in range(j + 1, count)
                                                        if lowered[k] not in DETERMINERS), count)) < count \
                    and lowered[whole] in _WHOLE:
                spoken.add(anchor[whole] or lowered[whole])  # "removed from the stack"
            if lowered[j] in _TO or lowered[j] in ("favour", "favor"):
                spoken.add(anchor[j] or lowered[j])
                k = j + 1
                while k < count and lowered[k] in DETERMINERS:
                    k += 1
                lower = k < count and lowered[k] in LOWER_NAMES  # "for uv"
                spoken.update(slots[m][1] for m in range(k, max(named(k, 1), k + lower)))
            j += 1
    return ended, spoken, denials, reached


def bounded(slots: Slots, lowered: list[str], anchor: list[str | None], marks: Marks, at: int,
            dating: bool = False) -> bool:
    """Whether the sentence holding slot ``at`` bounds what it says in time, so a negation or an end there is a pause,
    not an end: "until"/"till" ("until the migration is done"); "this", "next" before a period or a day ("this week",
    "next sprint"); "for" before a span ("for the weekend", "for a while"); "in", "during", "over", "through" before
    a month or a period or event (``_PERIODS``: "in December", "over the summer", "during the code freeze"); "because
    of", "due to" before an event ("because of the offsite"). "Since March" opens a state with no end: no bound.
    ``dating``: a month after "in" dates the statement instead, as it does a name's end, done once ("We decommissioned
    npm in October"), where it bounds a practice's or a negation's ("We stopped deploying on Fridays in December")."""
    for j in _clause_of(lowered, marks, at):
        word = lowered[j]
        if word in ("until", "till"):
            return True
        by = _BOUNDS.get(word) or (_PERIODS if (word, *lowered[j + 1:j + 2]) in _CAUSES else None)
        if by is None:
            continue
        head = _head(slots, anchor, marks, j + 1 + (word in ("because", "due")))
        if head in by and not (dating and word == "in" and head == "month"):
            return True
    return False


_CONJUNCTIONS = frozenset({"but", "while", "whereas", "although", "though", "aber", "während", "mais", "pero"})


def _clause_of(lowered: list[str], marks: Marks, at: int) -> range:
    """The slots of the clause holding slot ``at`` for a bound in time: its sentence between the conjunctions joining
    another clause ("but", "while" ...; "and", "und", "et", "y" before a pronoun: "We use X until the migration, but
    we don't deploy on Fridays"), not between commas ("We stopped deploying, at least until the freeze ends")."""
    def joins(j: int) -> bool:
        return lowered[j] in _CONJUNCTIONS or lowered[j] in CLAUSE_WORDS and lowered[j + 1:j + 2] != [] \
            and lowered[j + 1] in PRONOUNS

    sentence, start, end = marks[at][2], at, at + 1
    while start and marks[start - 1][2] == sentence and not joins(start - 1):
        start -= 1
    while end < len(lowered) and marks[end][2] == sentence and not joins(end):
        end += 1
    return range(start, end)


def _head(slots: Slots, anchor: list[str | None], marks: Marks, k: int) -> str | None:
    """The last of the words of the noun phrase from slot ``k``, past stop words and counts ("the code freeze":
    "freeze", "two weeks": "week"), as stemmed, or "month" for a month's name; None where none stands there."""
    while k < len(slots) and (anchor[k] is None or slots[k][0] == "number") and not marks[k - 1][1]:
        k += 1
    head = None
    while k < len(slots) and anchor[k] is not None and slots[k][0] in ("word", "day", "month"):
        head = "month" if slots[k][0] == "month" else anchor[k]
        if marks[k][1]:
            break
        k += 1
    return head


# Periods and events a statement may hold for, as stemmed (``bounded``): no recurring period ("during the week").
_PERIODS = frozenset(period for period, recurring in PERIODS.items() if not recurring) | frozenset(map(stem, """sprint
holiday vacation freeze migration offsite outage incident rollout upgrade audit conference retreat hackathon trip leave
break maintenance transition cutover crunch""".split()))
_SPANS = frozenset({"day", "hour", "minute", "while", "moment"})  # "for the day", "for a while"
_BOUNDS = {**dict.fromkeys(("this", "next", "for"), _WHEN | _SPANS | _PERIODS),
           **dict.fromkeys(("in", "during", "over", "through", "throughout"), _PERIODS)}
_CAUSES = (("because", "of"), ("due", "to"))


def _verb_apart(lowered: list[str], marks: Marks, start: int, at: int, end: int) -> list[int]:
    """The slots of the verb of a clause saying "no longer" after the name at ``start`` (``_AFTER_NAME`` at ``at``,
    to ``end``): the words before the name in its clause ("Wir verwenden Jenkins nicht mehr") and the participle,
    ending a German clause ("Jenkins wird nicht mehr für CI genutzt") or after "n'est plus" ("n'est plus utilisé")."""
    lead = start
    while lead and not marks[lead - 1][1]:
        lead -= 1
    last = end
    while last < len(lowered) and not marks[last - 1][1]:
        last += 1
    french = lowered[at] == "ne"
    participle = [end] if french and end < last else [last - 1] if not _BE.isdisjoint(lowered[start:at]) else []
    return [*range(lead, start), *participle]


def _ne_plus(lowered: list[str], i: int) -> tuple[str, ...] | None:
    """The French "ne ... plus" from ``i`` around one verb ("ne gérons plus", "n'utilisons plus": ``_tokens`` splits
    the "n'" off), a denial said to have begun as "no longer use" is; None where none stands there."""
    return tuple(lowered[i:i + 3]) if lowered[i] == "ne" and lowered[i + 2:i + 3] == ["plus"] else None


_KEIN = frozenset("kein keine keinen keinem keiner keines".split())


def _kein_mehr(slots: Slots, lowered: list[str], marks: Marks, at: int) -> tuple[int, int] | None:
    """(the slot of "kein", of the first name after it) where "mehr" at ``at`` closes the German "kein(e, en ...) ...
    mehr" around names ("keinen wöchentlichen Bericht mehr": a German noun after "kein" is read as a name), a denial
    said to have begun as "nicht mehr" is; None where none stands there."""
    if lowered[at] != "mehr" or not at or slots[at - 1][0] not in ("name", "ident") or marks[at - 1][1]:
        return None
    first = at - 1
    while first and slots[first - 1][0] in ("name", "ident") and not marks[first - 1][1]:
        first -= 1
    kein = next((j for j in range(first - 1, max(-1, first - 4), -1) if lowered[j] in _KEIN), None)
    if kein is None or any(marks[j][1] for j in range(kein, first)):
        return None
    return kein, first


def _predicate(lowered: list[str], i: int) -> int:
    """How many words from ``i`` end a name before them in the passive (``_PASSIVE_ENDING`` with its particle:
    "was phased out"; ``_PASSIVE_PHRASES``: "is no longer used", "got the axe"); 0 when none do."""
    word = lowered[i]
    if word in _PASSIVE_ENDING:
        particle = _PARTICLES.get(word)
        return 1 if particle is None else 2 if lowered[i + 1:i + 2] == [particle] else 0
    return next((len(p) for p in _PASSIVE_FROM.get(word, ()) if tuple(lowered[i:i + len(p)]) == p), 0)


# Verbs ending a practice said after them as a verb's "-ing" ("We stopped deploying on Fridays", "quit smoking"), and
# verbs ending one said as a noun after them or, in the passive, before them ("We dropped Friday deploys", "Friday
# deploys were discontinued"): read as "no longer" before the practice's verb is (a name's end is ``_ending``'s).
STOPPING = frozenset("stop stops stopped stopping cease ceases ceased quit quits".split())
_GIVING = frozenset("give gives gave given giving".split())  # "gave up (on) running nightly builds"
_PRACTICE_ENDING = frozenset("dropped discontinued scrapped abolished ceased stopped".split())
_PASSIVE_PRACTICE = _PRACTICE_ENDING - {"stopped", "ceased"}  # "The deploy was stopped by an outage": an event
# "stopped using", "gave up using": a name's end
_GERUND_PHRASES = frozenset(p[:k] for p in ENDING_PHRASES for k in range(2, len(p) + 1))
_LIGHT = frozenset({"doing", "having", "holding"})  # "-ing"s whose object is the practice
# Spanish and French verbs ending a practice said after them as an infinitive after "de" ("Dejamos de desplegar los
# viernes", "Nous avons arrêté d'envoyer le rapport"), by language, and the auxiliaries before their participles.
_STOPPING_DE = {**dict.fromkeys("dejo dejas deja dejamos dejan dejé dejaste dejó dejaron dejado".split(), "es"),
                **dict.fromkeys("arrête arrêtons arrêtent arrêté cesse cessons cessent cessé".split(), "fr")}
_HAVING = frozenset("he has ha hemos han avons ai as a avez ont".split())


def practice_ends(slots: Slots, lowered: list[str], anchor: list[str | None],
                  marks: Marks) -> list[tuple[tuple[int, ...], int]]:
    """(the slots of the words ending it, the slot of the practice) of each practice a text says has ended: the
    "-ing" right after a verb of ``STOPPING`` or "gave up" (``_stopped_at``: "stopped deploying"), the last word of the
    noun after a verb of ``_PRACTICE_ENDING``, determiners, days and times aside ("dropped Friday deploys",
    "discontinued the weekly sync"), or the word before its form of "be" in the passive ("Friday deploys were
    discontinued"); in French and German the verb inside "ne ... plus" or opening the clause before "nicht mehr" ("Nous
    ne déployons plus le vendredi", "Wir deployen freitags nicht mehr"), in Spanish and French an infinitive after
    "dejar de", "arrêter de" (``infinitive_ended``). Not a name (``_ending``), nor an end bounded in time ("stopped
    deploying until Monday": ``bounded``)."""
    found: list[tuple[tuple[int, ...], int]] = []
    if _PRACTICE_OPENERS.isdisjoint(lowered):
        return found
    count = len(slots)
    for i, word in enumerate(lowered):
        at = begun = None
        if i + 1 < count and not marks[i][1]:
            following = lowered[i + 1]
            begun = _stopped_at(lowered, i + 1)
            light = following in _LIGHT and begun is not None  # "stopped doing code reviews"
            if begun is not None and anchor[i + 1] is not None and not light:
                at = i + 1
            elif word in _PRACTICE_ENDING and following not in _BE and (word, following) not in _GERUND_PHRASES \
                    or light:
                j = i + 1 + light
                while j < count and (lowered[j] in DETERMINERS or slots[j][0] in ("day", "time", "month")) \
                        and not marks[j][1]:
                    j += 1
                while j < count and anchor[j] is not None and slots[j][0] == "word":
                    at = j
                    if marks[j][1]:
                        break
                    j += 1
                if at is not None and j < count and slots[j][0] != "word" and not marks[j - 1][1]:
                    at = None  # "We dropped iOS 15 support": a version's end (``_ending``)
        said = tuple(range(begun, i + 1)) if at is not None and begun is not None else (i,)  # "gave up"
        if at is None and _ne_plus(lowered, i) and slots[i + 1][0] == "word" and anchor[i + 1] is not None \
                and slots[min(count - 1, i + 3)][0] not in ("name", "ident"):  # not a name's end: ``_ending``
            at, said = i + 1, (i, i + 2)  # "Nous ne déployons plus le vendredi", "Nous n'envoyons plus le rapport"
        if at is None and infinitive_ended(lowered, i) is not None:  # "Dejamos de desplegar los viernes"
            verb = i - 1 - (lowered[i - 1] == "de")
            at, said = i, tuple(range(verb - (verb > 0 and lowered[verb - 1] in _HAVING), i))  # "hemos dejado de"
        if at is None and tuple(lowered[i:i + 2]) in _AFTER_NAME[:2]:  # "Wir deployen freitags nicht mehr"
            said = (i, i + 1)
            lead = i
            while lead and not marks[lead - 1][1]:
                lead -= 1
            at = next((j for j in range(lead, i) if anchor[j] is not None and slots[j][0] == "word"), None) \
                if all(slots[j][0] not in ("name", "ident") for j in range(lead, i)) else None
        if at is None and word in _PASSIVE_PRACTICE and i > 1 and lowered[i - 1] in _AUXILIARIES:
            aux = i - 1
            while aux > 0 and lowered[aux - 1] in _AUXILIARIES and not marks[aux - 1][1]:
                aux -= 1
            if not _BE.isdisjoint(lowered[aux:i]) and aux and anchor[aux - 1] is not None \
                    and slots[aux - 1][0] == "word" and not marks[aux - 1][1]:
                at = aux - 1
        if at is not None and not bounded(slots, lowered, anchor, marks, at):
            found.append((said, at))
    return found


# Every practice's end :func:`practice_ends` reads holds one of these words: a text holding none ends none.
_PRACTICE_OPENERS = STOPPING | _GIVING | _PRACTICE_ENDING | frozenset(_STOPPING_DE) | {"ne", "nicht"}


def infinitive_ended(lowered: list[str], at: int) -> str | None:
    """The key of the infinitive at ``at`` (lowercase words) after a verb of ``_STOPPING_DE`` and "de", or with "d'"
    joined to it: its "we" form as stemmed, the form a team says a practice in ("desplegar" as "desplegamos",
    "déployer" as "déployons", "envoyer" of "d'envoyer" as "envoyons"); None where none stands there."""
    word = lowered[at]
    elided = word.startswith(("d'", "d’"))
    verb = at - 1 if elided else at - 2
    if verb < 0 or not elided and lowered[at - 1] != "de" or lowered[verb] not in _STOPPING_DE:
        return None
    infinitive = word[2:] if elided else word
    root, ending = infinitive[:-2], infinitive[-2:]
    if _STOPPING_DE[lowered[verb]] == "es":
        we = {"ar": "amos", "er": "emos", "ir": "imos"}.get(ending)
    else:  # "mangeons", "commençons", "finissons", "vendons"
        we = {"er": "eons" if root.endswith("g") else "ons", "ir": "issons", "re": "ons"}.get(ending)
        root = root[:-1] + "ç" if ending == "er" and root.endswith("c") else root
    return stem(root + we) if we is not None and len(root) >= 2 else None


def _stopped_at(lowered: list[str], at: int) -> int | None:
    """Where the words ending the verb's "-ing" at ``at`` start: a verb of ``STOPPING`` right before it ("stopped
    deploying", "quit smoking"; not "stopped using", which ends a name) or "gave up", "given up" ... with or without
    "on" ("gave up running nightly builds"); None where none stands there."""
    if not lowered[at].endswith("ing") or not at:
        return None
    up = at - 1 - (lowered[at - 1] == "on")
    start = at - 1 if lowered[at - 1] in STOPPING else up - 1 if up > 0 and lowered[up] == "up" \
        and lowered[up - 1] in _GIVING else None
    return start if start is not None and tuple(lowered[start:at + 1]) not in _GERUND_PHRASES else None
