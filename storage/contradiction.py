"""Contradiction: whether two memories about the same subject say different things.

The caller decides that they share a subject (vector similarity, ``ranking.SAME_SUBJECT``);
this module only compares their words, in one pass over each text (no pattern that can
backtrack): a different value of one type (time, day, month, date, number, identifier or
host, path, name) in the same slot, a state word swapped for its opposite (open → closed),
a negation one text puts on a word the other states plainly, or change words ("now",
"moved", "no longer", "switched" ...) in the newer one beside something it adds. Values are
compared as written in a normal form ("9.15 am" = "09:15", "1,000" = "1000", "v3.9" =
"3.9"). A capitalised word opening a sentence is a name only on evidence in the two texts
(``_names_at``), and what a name owns or leads is the subject it speaks of ("Alice owns the
billing service"). Deterministic, no model (docs/how-memory-works.md#contradictions; measured in
bench/contradiction_pairs.py).
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from . import dating
from .config_blocks import configure_other_things
from .contradiction_things import another_person
from .siblings import alternatives
from .contradiction_compare import (_agreeing_not, _announced, _changes_subject, _choices, _denied, _differences,
                                    _ends_held, _moves_on, _numbered_apart, _parallel, _refilled, _reversed,
                                    _shares_subject, _swapped, another_slot, attribute_changed, hands_another,
                                    holds_another, leaves_held, names_more, numbered_apart, part_left,
                                    thing_replaced)
from .contradiction_reading import ADDING, _Read, _read, values, values_of
from .contradiction_slots import another_attribute, owned_thing, verb_slot
from .contradiction_tokens import _SENTENCE_END, _keys, _words, brief, inner_names, lower_names, openers
from .contradiction_words import (ALIGNED, ASKED_KINDS, ATTRIBUTES, GIVING, HANDING, LEAVING, LOWER_NAMES, STOP,
                                  _ENDED, _POINT_VALUES, _SAME_STATE, _STATE_GROUP, _WHEN_CHANGED, _WHEN_KINDS, stem)
from .spellings import one_way


STRONG_SUBJECT = 0.45  # cosine enough for a strong disagreement (bench/contradiction_pairs.py)
CHANGED_SUBJECT = 0.3  # cosine enough for change words on the older's subject (``judge``; docs/benchmarks.md)
REFILLED_SUBJECT = 0.2  # cosine enough for a name slot refilled in two texts of ``TINY`` words (docs/benchmarks.md)
TINY = 6  # words of a memory whose vector is mostly its names'


def says_a_change(text: str) -> bool:
    """Whether ``text`` says a change going to a value ("Upgraded the prod clusters from Kubernetes 1.27 to 1.28",
    "Moved the standup to 10:30"): an event that states the state it left, as a fact would."""
    return bool(_read(text).targets)


def only_older(older: str, newer: str) -> frozenset[str]:
    """``values`` of ``older`` that ``newer`` neither states nor writes as a word ("ana" of "Ana started
    eating fish again", where "Ana", opening the text with no verb of state after it, is no name), less
    those ``newer`` puts another value in place of (:func:`replaced`: "09:15" of "The standup is at 9:15" beside
    "The standup moved to 10:00"), the names of the older's subject when the newer says its change of it (``judge``'s
    2: "ci" of "Our CI runs on Jenkins" beside "We retired Jenkins"), and those beside a name of the older the newer
    ends or leaves, in its clause: the slot it held ("ci" of "We use Jenkins for CI" beside "We ditched Jenkins for
    CircleCI"). What is left names what only the older speaks of ("ai" of "We use Claude for AI code review"
    beside "We use Gerrit for code review")."""
    new = _read(newer)
    left = values(older) - values(newer) - {t.shown for t in new.sequence} - replaced(older, newer)
    judged = judge(older, newer)
    if judged is None or judged[1] < 2:
        return left
    old = _read(older)
    clauses = {t.clause for t in old.sequence if t.key in new.ended | new.left}
    return left - old.subjects - {t.key for t in old.sequence if t.clause in clauses}


@lru_cache(maxsize=4096)
def replaced(older: str, newer: str) -> frozenset[str]:
    """The values of ``older`` (normal forms) that ``newer`` puts another value in place of: aligned word for word,
    stop words too (their first ``ALIGNED``), those in a stretch of ``older`` that ``newer`` writes otherwise with a
    value ``older`` lacks, of that value's kind ("eu-west-1" of "runs Kong 3.4 in eu-west-1" is no version
    replaced by "now runs Kong 3.6"), but where a subject stands ("berlin" of "The Berlin office opens at 9:00" names which
    office) and where the older's own change goes ("15" of "Upgraded the staging database from PostgreSQL 14 to
    15": a question naming it asks of that event). "09:15" of "The standup is at 9:15" beside "The standup moved
    to 10:00"; "claude", not "ai", of "We use Claude for AI code review" beside "We use Gerrit for code review"
    ("for" aligns the two)."""
    old, new = _read(older), _read(newer)
    a, b = old.slots[:ALIGNED], new.slots[:ALIGNED]
    held = values_of(old)
    subjects = {t.key for t in old.sequence if t.subject} | old.targets
    matcher = SequenceMatcher(None, [stem(t) if k == "word" else t for k, t in a],
                              [stem(t) if k == "word" else t for k, t in b], autojunk=False)
    found: set[str] = set()
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace":
            kinds = {k for k, t in b[j1:j2] if k != "word" and t not in held}
            found |= {t for k, t in a[i1:i2] if k in kinds and t not in subjects}
    return frozenset(found)


@lru_cache(maxsize=4096)
def judge(older: str, newer: str) -> tuple[str, int] | None:
    """(why ``newer`` contradicts ``older``, how strong the evidence is: 0, 1 or 2) or None (see
    ``disagreement``). Strong (1): the one difference of two texts otherwise alike, or change words
    beside one value replaced by one other ("Alerts go to PagerDuty" → "Alerts now go to Opsgenie").
    Stronger (2): a change verb, in two brief texts (``brief``), said of the older's subject ("The
    office is in Lisbon" → "We relocated the office to Porto"; ``_changes_subject``)."""
    if configure_other_things(older, newer):
        return None  # "Host web1 ..." / "Host db1 ...": two hosts, whatever their HostName and Port
    if another_person(older, newer):
        return None  # "Marta lives in Lisbon" / "Marta's brother now lives in Berlin": two people
    if owned_thing(older, newer) or owned_thing(newer, older):
        return None  # "Marta leaves at 8:00" / "Marta's train leaves at 9:00": the train leaves
    # one statement each; in a chat turn a rewrite only shifts how unrelated words align (bench/contradiction_alarms.py)
    if brief(older) and brief(newer):
        older, newer = one_way(older, newer)  # "NYC" / "New York City": one name written two ways
    old_keys, new_keys = _keys(older), _keys(newer)
    if old_keys and new_keys and old_keys.isdisjoint(new_keys):
        # two keys: what the sentences holding them say beside them (a host, an owner) tells them apart
        rest = ["\n".join(part for part in _SENTENCE_END.split(text) if not _keys(part)) for text in (older, newer)]
        return judge(*rest) if all(part.strip() for part in rest) else None
    found = (_undated(older, newer), _words_judged(older, newer))
    judged = max((j for j in found if j is not None), key=lambda j: j[1], default=None)
    if judged is not None:
        return judged
    # an attribute the older fills with a verb, told by its value's kind ("The API listens on 8080" / "The API's
    # port is now 9090")
    stated = verb_slot(older, newer) if brief(older) and brief(newer) else None
    if stated is not None:
        return stated, 1
    of_form = _OWNED_SLOT.sub(_slot_of, newer)
    if of_form == newer:
        return None
    # read owner-first, only a value swapped in the slot tells ("The server room is now locked" fills none)
    slot = _words_judged(older, of_form)
    return slot if slot is not None and _DIFFERENT.match(slot[0]) else None


# a sentence opening with the noun of an attribute after its owner, then change words: "Marta's location is now",
# "The office location was changed", "The wiki host moved" (not "The US region has 6 zones": a sibling, not a change)
_SLOT_NOUNS = "|".join(sorted(ASKED_KINDS.keys() | ATTRIBUTES.keys(), key=len, reverse=True))
_OWNED_SLOT = re.compile(rf"(?:^|(?<=[.!?;]\s))(?:(the|our|their|its|my|your)\s+)?([\w-]+?)(?:'s|’s)?\s+"
                         rf"({_SLOT_NOUNS})\s+(?=(?:(?:is|was|are|were|has been|have been)\s+)?"
                         rf"(?:now|moved|changed|updated)\b)", re.IGNORECASE)


def _slot_of(match: re.Match[str]) -> str:
    """"The location of Marta " for "Marta's location ", "The host of the wiki " for "The wiki host ": the slot
    ``attribute_changed`` reads, named before its owner."""
    owner = f"{match[1]} {match[2]}" if match[1] else match[2]
    return f"The {match[3]} of {owner} "


def _words_judged(older: str, newer: str) -> tuple[str, int] | None:
    """``judge`` of the two texts as written."""
    flipped = _reversed(older, newer)
    if flipped is not None:
        return flipped, 1
    known = inner_names(older) | inner_names(newer)  # "Alice drinks tea." / "Since May Alice drinks coffee."
    lower = lower_names(older) | lower_names(newer)  # "Our CI runs on jenkins" / "We retired jenkins"
    old, new = (_read(text, openers(text) & known, lower) for text in (older, newer))
    keys_old, keys_new = {t.key for t in old.sequence}, {t.key for t in new.sequence}
    moved_on = _moves_on(old, new)  # a change of where the older's change went: as strong as a change verb
    if moved_on is not None:
        return moved_on, 2
    found = _agreeing_not(old, new)
    if found is not None and _numbered_apart(old, new, _words(older), _words(newer)):
        return None
    # "instead of" what the older denies too changes nothing ("tea, not coffee" / "tea instead of coffee").
    # A name's end said with "no longer", "anymore" is read as its denial only ("We no longer use pip for scripts").
    changes = [w for w in new.changes if w != "instead"] if new.contrasted and new.contrasted <= old.negated \
        else new.changes
    # so is the end of a value the older lacks ("The v2 API is rate limited" / "The v1 API is no longer supported")
    denied = {v for v in values_of(new) - values_of(old) if _denied(new, v)}
    changes = [w for w in changes if w not in _ENDED] if new.ended or new.practices or denied else changes
    changes = [w for w in changes if w not in LEAVING or leaves_held(old, new)]
    changes = [w for w in changes if w not in _SAID_NOW or not _adds_one_more(old, new)]  # "now likes techno"
    # a change of a value the older does not state: none at all where it names a word the older lacks ("We lowered
    # the memory alert from 95 to 85" / "The disk alert fires at 90"), else the values alone tell ("is 45 minutes")
    if changes and another_slot(old, new):
        if names_more(old, new):
            return None
        # one slot where it names nothing more ("from cdn1.example.com" / "now served by Cloudflare")
        changes = changes if not another_slot(old, new, akin=True) else []
    # a hand-over of something the older does not name, or of another thing of it, changes none of its holders
    # ("handed the report to Priya", "The API gateway docs were handed to Nils" / "Anna owns the API gateway")
    changes = [w for w in changes if w.split()[0] not in GIVING and w not in HANDING or not hands_another(old, new)]
    attribute = attribute_changed(old, new)
    # an owner said to hold another thing changes no holder of the older's ("Priya now manages the documentation of
    # the API gateway" / "Anna manages the API gateway")
    changing = bool(changes and not old.changes) and _shares_subject(old, new, attribute) \
        and not holds_another(old, new) and not another_attribute(old, new)
    added = new.words - old.words
    # change words alone tell a change of the older's subject only where the newer's subject is it, not a thing
    # it names ("the password policy is now strict" beside "the password is kept in the safe") nor where it goes
    # to every value of the older and another beside them ("The iOS app supports iOS 16" / "We switched the iOS
    # build to Xcode 16")
    held = values_of(old)
    kept = bool(held) and held < new.targets
    changed = changing and bool(added) and not new.addition and not _announced(old, new) \
        and _shares_subject(old, new, attribute, head=True) and not kept and not part_left(old, new) \
        and not numbered_apart(old, new) and not thing_replaced(older, old, new)
    if found is None and not changed and not (0 < len(keys_old - keys_new) <= 2 >= len(keys_new - keys_old) > 0):
        return None  # nothing disagrees and no lone swap: no alignment needed (most pairs)
    diffs = _differences(old, new)
    swaps = [(o, n) for o, n in diffs if o and n]
    # one of a closed set for another beside what else differs names a sibling, not a change of one subject
    # ("Deploys to staging happen on Monday" / "Deploys to production now happen on Thursday")
    if len(diffs) > 1 and any(len(o) == len(n) == 1 and alternatives(o[0].shown, n[0].shown) for o, n in swaps):
        return None
    lone = len(diffs) == 1 and len(swaps) == 1 and len(swaps[0][0]) <= 2 and len(swaps[0][1]) <= 2
    # The clauses of the older text where the newer says something else: a value, a state replaced.
    told = {t.clause for o, n in swaps for t in o if t.key not in keys_new and (t.shown in _STATE_GROUP or (
        t.kind != "word" and any(u.kind == t.kind and u.key not in keys_old for u in n)))}
    # a subject told apart there, or where a value's replacement aligns apart from it, the older holding the new
    # value in another slot ("The kiln room number 0 seats 3" / "The quartz room number 3 seats 6")
    came = {u.kind for _, n in diffs for u in n if u.key not in keys_old}
    moved = told | {t.clause for o, _ in diffs for t in o
                    if t.key not in keys_new and t.kind != "word" and not t.subject and t.kind in came}
    parallel = _parallel(older, newer)
    # a subject told apart, but for the noun of the attribute a change goes to ("The rotation period was changed ...")
    placed = parallel and not attribute and any(_swapped(o, keys_new, True, moved) and _swapped(
        tuple(t for t in n if t.key not in new.targets), keys_old, True) for o, n in swaps)
    # (the words of the newer's end are no rewording: "We use Jenkins for CI" / "We ditched Jenkins for CircleCI")
    reworded = parallel and any(_swapped(o, keys_new, False, told) and _swapped(
        tuple(t for t in n if t.key not in new.spoken), keys_old, False) for o, n in swaps)
    gone, came = len(values_of(old) - values_of(new)), len(values_of(new) - values_of(old))
    said = brief(older) and brief(newer) and any(w not in _WHEN_CHANGED for w in changes)  # "relocated"
    refilled = lone and _refilled(older, newer, old, new, swaps[0])
    tiny = max(len(_words(older)), len(_words(newer))) <= TINY
    strong = 3 if refilled and tiny else 2 if changing and said and _changes_subject(old, new, attribute) \
        or refilled else int(lone or (changing and 1 <= gone <= 2 and 1 <= came <= 2))  # one thing for another
    if found is not None and not placed and not (reworded and not changing):
        # a denial the newer says has ended ("We don't use Poetry anymore") is one thing for another, and
        # the end of a name the older holds ("We retired Jenkins") a change verb said of it (2: ``_changes_subject``)
        denied = found.startswith("negation: ") and bool(new.negated) and brief(older) and brief(newer)
        ended = denied and _ends_held(old, new)
        return found, max(strong, 2 * ended or int(denied and not old.negated and not old.changes
                                                   and (not _ENDED.isdisjoint(changes) or bool(new.practices))))
    # a change going where the older already is ("We use pnpm" / "We switched from npm to pnpm") swaps no word of it
    one_word = lone and len(swaps[0][0]) == len(swaps[0][1]) == 1 and not (changes and _announced(old, new))
    if one_word and parallel and _choices(old, swaps[0][0][0]) and _choices(new, swaps[0][1][0]) \
            and not (_swapped(swaps[0][0], keys_new, True) or _swapped(swaps[0][1], keys_old, True)):
        was, now = swaps[0][0][0], swaps[0][1][0]
        if all(t.kind == "word" or t.shown in LOWER_NAMES for t in (was, now)) \
                and not (was.determined or now.determined) and not (was.key in old.adding and now.key in new.adding) \
                and _SAME_STATE.get(was.shown, was.shown) != _SAME_STATE.get(now.shown, now.shown):  # "off", "disabled"
            return f"different word: {was.shown} → {now.shown}", 1
    if changed and not placed:
        return f"change words: {changes[0]}", strong
    if refilled:  # "We switched to Jenkins" / "We switched to GitHub Actions": no value's slot beside them
        return "different name: " + " → ".join(" ".join(t.shown for t in side) for side in swaps[0]), strong
    return None


_SAID_NOW = _WHEN_CHANGED - _ENDED - {"instead"}  # "now", "these days": when, not what ended


def _adds_one_more(old: _Read, new: _Read) -> bool:
    """Whether each clause of ``new`` saying a change has a verb of ``ADDING`` and ``old`` one too: "Maya now likes
    techno" adds a liking to "Maya likes jazz" and ends none ("no longer likes" says an end; "Ana is vegetarian" /
    "Ana now eats fish" has no such verb in the older, "Ana eats no meat" denies one)."""
    def adding(read: _Read) -> set[int]:
        return {t.clause for t in read.sequence
                if t.kind == "word" and t.shown in ADDING and not (t.subject or t.determined)}
    return bool(new.change_clauses) and new.change_clauses <= adding(new) and bool(adding(old)) and not old.negated


def _undated(older: str, newer: str) -> tuple[str, int] | None:
    """``judge`` of the two texts without the time phrase dating either (``dating.split``: "Since October the team
    lead is Tomás" read as "the team lead is Tomás"), None when neither is dated; as strong as a change verb (2:
    ``CHANGED_SUBJECT``) for one value for another in two brief texts with the newer alone dated, whose time phrase
    lowers their cosine."""
    (when_old, rest_old), (when_new, rest_new) = dating.split(older), dating.split(newer)
    if not (when_old or when_new):
        return None
    judged = judge(rest_old, rest_new)
    if judged is None or not when_new or when_old or not (brief(older) and brief(newer)):
        return judged
    old, new = values(rest_old), values(rest_new)
    one_for_one = len(old - new) == 1 == len(new - old)  # "Tomás is the team lead" / "The team lead is Maria"
    return (judged[0], max(2, judged[1])) if judged[1] == 1 or one_for_one else judged


def disagreement(older: str, newer: str) -> str | None:
    """Why ``newer`` contradicts ``older`` (a short phrase naming the kind: ``"different time: 09:15 → 10:30"``,
    ``"opposite state: open → closed"``, ``"negation: not drink"``, ``"different word: tabs → spaces"``, ``"change
    words: moved"``), or None when nothing in their words disagrees, or when they are about different subjects: a word
    the other lacks stands where a subject stands in each ("staging cluster" / "production cluster", "my daughter" /
    "my son"), or, without change words, other words replaced besides ("we use Python 3.11" / "drop Python 3.9")."""
    judged = judge(older, newer)
    return None if judged is None else judged[0]


def newer_in_meaning(text: str, other: str, later: bool) -> bool:
    """Whether memory ``text`` is the newer of two in meaning, ``later`` saying whether it was observed
    after ``other``: when observed later, unless it restates what ``other``, a change, left; when observed
    earlier, if ``other`` restates what ``text`` changed (``_told_before``)."""
    return not _told_before(other, text) if later else _told_before(text, other)


def _told_before(older: str, newer: str) -> bool:
    """Whether ``newer``, with no change words, restates what ``older``, a change, left: "Our CI runs on Jenkins"
    stored after "We switched from Jenkins to GitHub Actions" is, in meaning, the older of the two (read as the newer
    of them it disagrees with ``older``, and it adds no value ``older`` lacks, or nothing else disagrees). It must
    hold, other than as its subject, a value the change names, not as where it went nor as its subject: "The API
    gateway is maintained by the security team" stored after "Ownership of the API gateway went to Nils" is no state
    that change replaced."""
    old = _read(older)
    if not old.changes:  # most memories: the newer is not read
        return False
    new = _read(newer)
    left = old.left | {t.key for t in old.sequence if t.kind != "word" and not t.subject} - old.targets
    if new.changes or left.isdisjoint(t.key for t in new.sequence if t.kind != "word" and not t.subject) \
            or judge(newer, older) is None:
        return False
    return judge(older, newer) is None or values_of(new) <= values_of(old)


def contradicts(older: str, newer: str, cosine: float, gate: float) -> str | None:
    """``disagreement`` of two memories whose vectors' cosine is ``cosine``: at ``gate`` or more,
    or at ``STRONG_SUBJECT`` (strong evidence), ``CHANGED_SUBJECT`` (change words on the older's
    subject) or ``REFILLED_SUBJECT`` (a name slot of two tiny texts refilled) or more (``judge``)."""
    if not may_contradict(older, newer, cosine, gate):
        return None
    judged = judge(older, newer)
    if judged is None or cosine < min(gate, (gate, STRONG_SUBJECT, CHANGED_SUBJECT, REFILLED_SUBJECT)[judged[1]]):
        return None
    return judged[0]


def may_contradict(older: str, newer: str, cosine: float, gate: float) -> bool:
    """Whether two texts at ``cosine`` reach a gate :func:`contradicts` with ``gate`` may apply to them (the lower
    ones are for two brief ones, the lowest for two of at most ``TINY`` words), known without reading their words."""
    if cosine >= min(gate, STRONG_SUBJECT):
        return True
    return brief(older) and brief(newer) and (cosine >= min(gate, CHANGED_SUBJECT) or cosine >= least_cosine(gate)
                                              and max(len(_words(older)), len(_words(newer))) <= TINY)


def least_cosine(gate: float) -> float:
    """The lowest cosine at which :func:`contradicts` with ``gate`` can find a contradiction."""
    return min(gate, STRONG_SUBJECT, CHANGED_SUBJECT, REFILLED_SUBJECT)


def names_subject(question: str, older: str, newer: str) -> bool:
    """Whether ``question`` names a word or name that only ``older`` holds where ``newer`` holds
    another word or name (the subject telling them apart: "how many nodes has staging?"), in two
    texts worded in parallel; never when the newer says its change of the older's subject itself
    ("The mobile app was rewritten in Flutter": ``judge``'s strongest evidence), nor by a value the newer replaced
    (:func:`replaced`: "pagerduty" of "do alerts go to PagerDuty?" beside "Alerts now go to Opsgenie")."""
    judged = judge(older, newer)
    if not _parallel(older, newer) or judged is not None and judged[1] >= 2:
        return False
    asked = _read(question).words - replaced(older, newer)
    old, new = _read(older), _read(newer)
    keys_new = {t.key for t in new.sequence}
    keys_old = {t.key for t in old.sequence}
    return any(t.key in asked and t.key not in keys_new and t.kind not in _POINT_VALUES
               for o, n in _differences(old, new)
               if any(u.key not in keys_old and u.kind in ("word", "name") for u in n) for t in o)


def asks_the_part_left(question: str, older: str, newer: str) -> bool:
    """Whether ``older`` says two things in parts joined by "and", ";", "," or "but" ("The web app and the API both
    run in eu-west-1", "The production API runs in eu-west-1; the staging API runs in us-east-2"), ``newer`` is about
    another part than the one ``question`` asks about by a word ``newer`` lacks ("where does the web app run?" for
    "The API runs in us-east-1"): what the newer says leaves that part of the older as it was. The part asked about
    shares no word with ``newer`` that the other part lacks ("The daily standup meeting is at 9:15, and we run it in
    room B" is outdated by "We now run the standup at 10:30" for "when is the daily standup meeting?")."""
    parts = [_content(part) for part in _JOINTS.split(older[:ALIGNED * 40])]
    if len(parts) < 2:
        return False
    new = _content(newer)
    left_out = (_content(question) & set().union(*parts)) - new
    return any(one & left_out and other & new and one & new <= other
               for i, one in enumerate(parts) for j, other in enumerate(parts) if i != j)


_JOINTS = re.compile(r"[;,]|\b(?:and|but|while)\b", re.IGNORECASE)


def _content(text: str) -> set[str]:
    return {stem(w) for w in _words(text) if w not in STOP}


_DIFFERENT = re.compile(r"different (\w+):")
# Words asking for a kind only together: "how long" (until a date, or a duration), "which year"; "month", "year"
# or "long" alone are as often the question's context ("the plan for next month", "the long-term plan").
_ASKED_PHRASES = ((re.compile(r"\bhow\s+long\b"), _WHEN_KINDS | {"number"}),
                  (re.compile(r"\b(?:which|what)\s+(?:year|month|week)\b"), _WHEN_KINDS | {"number"}))


def about_another_value(question: str, reason: str) -> bool:
    """Whether ``reason`` (of :func:`disagreement`) is a value of a kind ``question`` does not ask for
    (``ASKED_KINDS``): "different number: 8443 → 9443" for "which host runs payments-api?". False when
    the question names no such word or the reason is no changed value (a negation, change words)."""
    changed = _DIFFERENT.match(reason)
    if changed is None:
        return False
    lowered = question.lower()
    asked = set().union(*(ASKED_KINDS.get(w, ()) for w in re.findall(r"[a-z]+", lowered)),
                        *(kinds for phrase, kinds in _ASKED_PHRASES if phrase.search(lowered)))
    return bool(asked) and changed.group(1) not in asked
