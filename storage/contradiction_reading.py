"""What the contradiction test compares of one text (``_Read``): its values and the words beside them, its
negations and denials, states, change words, ends, subjects and owners, and its content in order (``_Token``).
Cached: recall compares the same memories again and again."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from typing import NamedTuple

from .contradiction_ending import (_LIGHT, _ending, _lower_name, _name_slot, bounded, infinitive_ended, may_end,
                                   practice_ends)
from .contradiction_tokens import (_KEY_TYPE, _MERIDIEM, _blob, _calendar, _lower_words, _names_at, _short_month,
                                   _tokens, _value)
from .contradiction_words import (ADDITION_WORDS, ARROWS, CHANGE_VERBS, CHANGE_WORDS, CLAUSE_WORDS, DETERMINERS,
                                  GERMAN_ARTICLES, GIVING, HANDING, INTERJECTIONS, LEAVING, LOWER_NAMES, MOVING_TO,
                                  NEGATIONS, ONWARD, OWNING, PERIOD_WORDS, PRONOUNS, REGIONS, REPLACING, ROLES, SHORT,
                                  STOP, TAKING, TOWARD, VERBS, _BEFORE_VERB, _CONTRASTS, _ENDED, _STATE_GROUP, _TO,
                                  Marks, Slots, holding, region_us, stem)
from .query import PASSIVE, labels

_SWITCHED = frozenset("is are was were turned switched set stays remains now still".split())  # before "on"/"off"
_CONTRAST_NOT = frozenset({"not", "never"})  # after a comma and what it contrasts: "Use pnpm, not npm"
CHANGE_PHRASES = (("no", "longer"), ("from", "now", "on"), ("any", "more"), ("these", "days"), ("took", "over"),
                  ("taken", "over"), ("handed", "over"), ("takes", "over"), ("in", "favour", "of"),
                  ("in", "favor", "of"), ("is", "back", "from"), ("are", "back", "from"), ("went", "from"),
                  ("goes", "from"), ("pushed", "back"), ("pushed", "out"), ("brought", "forward"),
                  ("pulled", "forward"), ("moved", "up"), ("took", "charge"), ("takes", "charge"),
                  ("hizo", "cargo"), ("hace", "cargo"), ("pris", "en", "charge"),  # "se hizo cargo": took charge
                  ("passé", "de"), ("passée", "de"), ("passés", "de"), ("passées", "de"), ("pasamos", "de"),
                  ("pasaron", "de"), ("pasó", "de"))  # "Nous sommes passés de Jenkins à GitHub Actions"
# Change verbs whose particle may follow their object ("Priya handed the platform team over to Jonas", "We handed
# the role from Jonas to Priya", "Ana started eating fish again"): a particle within ``_PARTICLE_GAP`` words after
# the verb, in one short statement (``brief``; a chat turn's "started ... again" tells a story:
# bench/contradiction_alarms.py).
SPLIT_PHRASES = {"handed": ("over", "to"), "took": ("over",), "taken": ("over",), "takes": ("over",),
                 "started": ("again",), "starts": ("again",), "began": ("again",)}
_PARTICLE_GAP = 8
# Phrases dating a change when they open the text ("As of this week the lead is Priya"); later in it they
# date a state ("three refills left as of March").
OPENING_CHANGE_PHRASES = (("as", "of"), ("starting", "from"), ("effective",))
_PHRASE_STARTS = frozenset(p[0] for p in CHANGE_PHRASES + OPENING_CHANGE_PHRASES) | frozenset(SPLIT_PHRASES)
# An owner's slot holds one name only in a plain present statement: "owned", "managed" and "was the"
# tell the past; a sentence with one of ``HEDGES``, a negation, an addition ("too", "as well") or a
# question mark supposes, denies, adds or asks ("If Bob owns the billing service, ask him").
PAST_OWNING = frozenset({"owned", "managed", "was"})
HEDGES = frozenset("""if unless whether when whenever maybe perhaps probably suppose supposing assuming
might could would should""".split())
# Passive ownership: "The billing service is (now) owned by Bob".
PASSIVE_OWNING = frozenset("owned managed led maintained headed chaired overseen supervised coordinated run".split())
_ANCHORING = frozenset({"name", "day", "month"})  # values that also name a slot for their neighbours
_NO_SLOT = frozenset("under over above below within through till around across along among between behind beyond"
                     " near".split())  # content words (not in ``STOP``) naming no value's slot (``_read``)
# Verbs whose object is one of many: one speaks French and German, meets Bob and Carol, likes tea and biscuits. What
# a clause holding one says is no value in a single-valued slot (``_Read.adding``), in English, German, French
# and Spanish (and Portuguese's "gosta"), "gern" ("Anna trinkt gern Tee") too. Forms as written, but nouns ("reviews",
# "plays" read as verbs only where no subject stands; "called" renames: "The service is called Helix"). "prefers" is
# no such verb: a preference names one of alternatives ("Ana prefiere el té" / "... las galletas" is a change).
ADDING = frozenset("""speak speaks spoke know knows knew visited visits met meet meets emailed messaged pinged
phoned texted thanked reviewed like likes liked love loves loved adores enjoy enjoys enjoyed learned learns
studied plays played watches watched reads eats collects mentioned helped contacted
invited interviewed hired trained mentored saw sees joined
mag mögen liebt lieben spielt spielen spricht sprechen kennt kennen liest lesen isst essen besucht besuchen gern gerne
aime aiment adore adorent joue jouent parle parlent connaît connaissent lisent mange mangent visite visitent
gusta gustan encanta encantan ama aman juega juegan habla hablan conoce conocen lee leen comen visita visitan
disfruta disfrutan gosta gostam""".split())
_READING = frozenset("reads liest lisent lee leen".split())  # of ``ADDING``: one source each, after ``_SOURCE``
_SOURCE = frozenset("from von aus desde".split())
Owned = tuple[tuple[frozenset[str], frozenset[str], bool], ...]  # of each clause naming owners (``_Read.owned``)


class _Token(NamedTuple):
    key: str  # stem of a content word, or a value's normal form
    kind: str  # "word" or the value's type
    shown: str  # as written, lowercased
    # Where a subject stands: possessive ("Anna's"), before its clause's verb ("The staging cluster
    # has"), or, in a clause without one, its first content word unless a pronoun leads it; after
    # names and a verb of ``OWNING`` (or "is the"), what they hold ("Alice owns | the billing service").
    subject: bool
    determined: bool = False  # just after "the", "my" ...: a thing named ("deploy the api")
    clause: int = 0  # which clause of its text (split at , ; : . and "and", "but" ...)


@dataclass(frozen=True)
class _Read:
    values: dict[str, dict[str, set[str]]]  # type -> normal form -> the words beside it
    words: frozenset[str]  # stems of the content words (values and names included, lowercased)
    negated: frozenset[str]  # stems of the first content word after each negation
    states: tuple[tuple[int, str], ...]
    changes: tuple[str, ...]
    addition: bool
    sequence: tuple[_Token, ...]  # the content words and values in order (``_sequence``)
    change_clauses: frozenset[int]  # the clauses holding a change word
    subjects: frozenset[str]  # names only standing where a subject stands ("Marta's train", "Helix is")
    # Of each clause naming owners (``_Token.subject``): (the owners' names, the keys of what they hold,
    # whether it is a plain present statement: ``PAST_OWNING``, ``HEDGES``).
    owned: Owned = ()
    adding: frozenset[str] = frozenset()  # content of a clause with a verb of ``ADDING`` or "also", "too", but those
    contrasted: frozenset[str] = frozenset()  # of ``negated``, those after "instead of", "rather than"
    denials: tuple[tuple[str, str], ...] = ()  # of ``negated``: (key, as written: "rather than spaces")
    targets: frozenset[str] = frozenset()  # values a change goes to: "moved CI from Jenkins to GitHub Actions"
    chosen: frozenset[str] = frozenset()  # what a contrast keeps: "pnpm" of "Use pnpm, not npm" (``contrasted``)
    reached: frozenset[tuple[str, str]] = frozenset()  # of ``negated``, (verb, its object): "not using Poetry"
    ended: frozenset[str] = frozenset()  # names it says have ended: "We retired Jenkins", "no longer use uv"
    spoken: frozenset[str] = frozenset()  # the words of its denials and ends, and the names replacing what ended
    left: frozenset[str] = frozenset()  # values a change leaves: "ansible" of "moved from Ansible to Salt" (``_left``)
    runs: tuple[tuple[str, ...], ...] = ()  # names written side by side, one name: ("github", "actions") (``_runs``)
    handed: frozenset[str] = frozenset()  # what a hand-over hands, its words: "platform", "team" of "handed the
    # platform team over to Jonas" (a hand-over changes its holder only: ``contradiction.judge``)
    added: frozenset[str] = frozenset()  # values it adds: beside "also", "as well", "both" ..., or listed ("18", "20"
    # of "Node 18 and 20 are supported"; ``_added``)
    practices: frozenset[str] = frozenset()  # of ``negated``, verbs of a practice said to have ended: "deploy" of
    # "We stopped deploying on Fridays", "We no longer deploy on Fridays", "Friday deploys were discontinued"
    # every word and value in order, stop words too: (type or "word", normal form or the word lowercased)
    slots: tuple[tuple[str, str], ...] = ()
    # what the comparisons derive from this reading alone, kept for the next pair: (function, argument) -> result
    derived: dict[tuple[str, object], object] = field(default_factory=dict, init=False, repr=False, compare=False)


def _read(text: str, known: frozenset[str] = frozenset(), lower: frozenset[str] = frozenset()) -> _Read:
    """What the word test compares of one text (see the module doc); ``known``: words opening a
    sentence that the other text writes as names (``_names_at``); ``lower``: lower-case words it reads as
    names (``lower_names``: "Our CI runs on jenkins" beside "We retired jenkins"). Cached: recall compares the
    same memories again and again (one entry with or without ``known`` given empty, or given words
    that name nothing more in ``text``: ``_naming``; ``lower`` kept only where ``text`` writes one)."""
    return _reading(text, _naming(text, known) if known else known, lower & _lower_words(text) if lower else lower)


@lru_cache(maxsize=4096)
def _naming(text: str, known: frozenset[str]) -> frozenset[str]:
    """``known``, or none when it makes no more words of ``text`` names (``_names_at``): a reading
    depends on ``known`` only through them, so both are one reading, read once."""
    tokens = _tokens(text)
    return known if _names_at(tokens, known)[0] != _names_at(tokens, frozenset())[0] else frozenset()


@lru_cache(maxsize=1024)
def _reading(text: str, known: frozenset[str], lower_named: frozenset[str] = frozenset()) -> _Read:
    tokens = _tokens(text)
    named, particles = _names_at(tokens, known)
    blobs: set[int] = set()  # the tokens after a base64 run
    slots: Slots = []  # (type or "word", text, unit)
    marks: Marks = []  # of each slot: (possessive, ends a clause, sentence)
    skip = False
    sentence = -1
    hedged: set[int] = set()  # sentences that ask, suppose, deny or add (``HEDGES``)
    ending = may_end(tokens)
    joined: list[str] = []  # the particles since the last name ("de" of "Anne de Vries": ``_names_at``)
    for i, (raw, initial, owner, ends, asked) in enumerate(tokens):
        sentence += initial
        lower = raw.lower()
        if raw == "us" and region_us(tokens[i - 1][0].lower() if i else "", tokens[i + 1][0].lower()
                                     if i + 1 < len(tokens) else ""):
            lower = "US"  # the region, no stop word
        if asked or lower in HEDGES or lower in NEGATIONS or lower.endswith(("n't", "n’t")) or lower in ADDITION_WORDS \
                or (lower == "well" and i and tokens[i - 1][0].lower() == "as"):
            hedged.add(sentence)
        if skip:
            skip = False
            marks[-1] = (marks[-1][0], ends, sentence)
            continue
        if _KEY_TYPE.fullmatch(raw) and i + 1 < len(tokens) and _blob(tokens[i + 1][0], False):
            continue  # a key's type before its body: part of the key
        if _blob(raw, i in blobs):
            blobs.add(i + 1)
            continue
        if i in particles:
            joined.append(lower)
            continue
        following = tokens[i + 1][0].lower().rstrip(".") if i + 1 < len(tokens) else ""
        meridiem = _MERIDIEM.get(following)
        found = _value(raw, lower, meridiem, initial and i not in named)
        if raw == "I" and i and not initial and not tokens[i - 1][3] and labels([tokens[i - 1][0], raw], 1):
            found = "name", lower, None  # "Phase I": a label (``query.labels``), not the pronoun
        if lower == "one" and (following in STOP or not following):
            found = None  # "one of", "the new one": no count
        if found is not None and found[0] == "name" and raw.isupper() and slots and slots[-1][0] == "number":
            found = None  # a unit: "420 GB"
        if found is not None and found[0] == "name" and raw.isalpha() and raw[1:].islower() and i \
                and tokens[i - 1][0].lower() in GERMAN_ARTICLES and not {i - 2, i - 1} <= particles:  # "van der"
            found = None  # a German noun: "Die Uhrzeit des Backups"
        if found is None and (raw in LOWER_NAMES and _name_slot(tokens, i) or ending and _lower_name(tokens, i)
                              or raw in lower_named):
            found = "name", raw, None
        if found is None:
            slots.append(("word", lower, None))
            marks.append((owner, ends, sentence))
            continue
        kind, norm, unit = found
        if joined and kind == "name" and slots and slots[-1][0] == "name":
            # "Anne de Vries": one name, its particles kept, as "Anne Vries" would be another's
            slots[-1] = ("name", " ".join((slots[-1][1], *joined, norm)), None)
            marks[-1] = (owner, ends, sentence)
            joined = []
            continue
        joined = []
        month = _short_month(tokens, i) if kind == "name" and i + 1 not in particles else None  # "Jan van der Berg"
        if month is not None:
            kind, norm = "month", month  # "Dec 20" → "Jan 4": another month, as "December" → "January" is
        elif kind in ("number", "ident") and _calendar(tokens, i, kind, norm, unit):
            kind, norm, unit = "date", norm, None  # "20 December", "the 20th", "Dec 20, 2026": a date's part
        skip = kind == "time" and meridiem is not None
        slots.append((kind, norm, None))
        marks.append((owner and not unit, ends and not unit, sentence))
        if unit:
            slots.append(("word", unit, None))
            marks.append((owner, ends, sentence))
    lowered = [t for _, t, _ in slots]
    anchor = [infinitive_ended(lowered, i) or PERIOD_WORDS.get(t) or stem(t)
              if k == "word" and t not in STOP and t not in CHANGE_WORDS else t if k in _ANCHORING else None
              for i, (k, t, _) in enumerate(slots)]
    # A preposition names no slot: "port 9104 under /metrics" and "latency under 180 ms" share no value's slot.
    slotted = [None if a in _NO_SLOT else a for a in anchor]
    before: list[str | None] = []
    last = None
    for a in slotted:
        before.append(last)
        last = a if a is not None else last
    after: list[str | None] = [None] * len(slots)
    last = None
    for i in range(len(slots) - 1, -1, -1):
        after[i] = last
        last = slotted[i] if slotted[i] is not None else last
    values: dict[str, dict[str, set[str]]] = {}
    for i, (k, t, _) in enumerate(slots):
        if k != "word":
            beside = values.setdefault(k, {}).setdefault(t, set())
            if not (k == "number" and i and slots[i - 1][1] == "number"):  # "memory number 3" says which, in no slot
                beside.update(a for a in (before[i], after[i]) if a and a not in INTERJECTIONS)
    words = frozenset(a for a in anchor if a is not None) | frozenset(t for k, t, _ in slots if k != "word")
    moving = [i for i, t in enumerate(lowered) if t in MOVING_TO and _moves_value(slots, lowered, marks, i)]
    negated, changes = set(), [t for i, t in enumerate(lowered) if t in CHANGE_WORDS or i in moving]
    contrasted: set[str] = set()
    rejected: set[int] = set()  # the slots of what a contrast rejects: no part of what the text states
    paused: set[int] = set()  # the slots of what a negation bounded in time denies: no part of it either
    chosen: set[str] = set()  # what a contrast keeps: "pnpm" of "Use pnpm, not npm"
    ended, spoken, denials, reached = _ending(slots, lowered, anchor, marks)
    phrases: set[int] = set(moving)
    practices: set[str] = set()  # what a practice's end denies: "deploy" of "stopped deploying"
    verbs_denied: set[str] = set()  # verbs a negation denies without a name after them, and its words: "don't deploy"
    for said, at in practice_ends(slots, lowered, anchor, marks):  # read as "no longer deploy"
        practice = anchor[at]
        assert practice is not None
        practices.add(practice)
        denials.append((practice, " ".join(lowered[j] for j in sorted({*said, at}))))
        spoken.update(anchor[j] or lowered[j] for j in range(said[0] + 1, at) if lowered[j] in _LIGHT)  # "doing"
        changes.append("no longer")
        phrases.update(said)
    handed: set[str] = set()
    for i, word in enumerate(lowered):
        if word in _PHRASE_STARTS:
            found = [p for p in CHANGE_PHRASES + (OPENING_CHANGE_PHRASES if i == 0 else ())
                     if tuple(lowered[i:i + len(p)]) == p]
            changes += [" ".join(p) for p in found]
            phrases.update(range(i, i + max((len(p) for p in found), default=0)))
            particle = next((j for j in range(i + 2, min(len(slots), i + _PARTICLE_GAP + 1))
                             if lowered[j] in SPLIT_PHRASES.get(word, ())), None) \
                if not found and len(tokens) <= 2 * SHORT else None
            if particle is not None and not any(marks[j][1] for j in range(i, particle)):
                changes.append(f"{word} … {lowered[particle]}")
                phrases.update((i, particle))
        if word == "handed" or i in moving and (word in GIVING or word in HANDING):
            # what changes hands: its words and names up to "to" ("à" ...) or "over" ("handed over the team to"),
            # or, with none there (the passive) or after a role, its clause's before it ("The pager was handed
            # from Ana to Ben", "La passerelle a été confiée à Nils", "Ownership of the SDK went to Lena"), up to
            # where it goes ("Das Gateway wurde an Nils übergeben")
            first = j = i + 1 + (lowered[i + 1:i + 2] == ["over"])
            while j < len(slots) and lowered[j] not in TOWARD and lowered[j] != "over" and not marks[j - 1][1]:
                j += 1
            start, end = i, i - 2 if i > 1 and lowered[i - 2] in TOWARD else i
            while start and (first == j or word not in GIVING) and not marks[start - 1][1]:
                start -= 1
            handed.update(anchor[k] for k in (*range(start, end), *range(first, j))
                          if slots[k][0] in ("word", "name") and anchor[k] is not None)
        # "over" after "prefers": "prefers tabs over spaces" denies spaces as "rather than" does
        contrast = word in _CONTRASTS and i + 1 < len(lowered) and lowered[i + 1] == _CONTRASTS[word] or \
            word == "over" and any(w.startswith(("prefer", "favo")) for w in lowered[max(0, i - 4):i]) or \
            word in _CONTRAST_NOT and i > 0 and marks[i - 1][1] and marks[i - 1][2] == marks[i][2] \
            and lowered[i - 1] not in NEGATIONS | CLAUSE_WORDS  # "Use pnpm, not npm"; not "life and not take"
        if word in NEGATIONS or word.endswith(("n't", "n’t")) or contrast:
            # The first content word or value after it: "not drink", "not 15:45".
            at = next((j for j in range(i + 1, min(len(slots), i + 5))
                       if (anchor[j] is not None or slots[j][0] != "word") and lowered[j] != "longer"), None)
            if at is not None and not contrast and bounded(slots, lowered, anchor, marks, i):
                paused.add(at)  # "We don't deploy on Fridays this week": a pause, neither denied nor stated
                at = None
            if at is not None:
                target = anchor[at] or lowered[at]
                said = " ".join(lowered[i:i + 2] if word in _CONTRASTS else [word]) + " " + lowered[at]
                # and a verb's object, when a name or identifier: "We are not using Poetry" denies Poetry
                # ("no access to the NAS" denies a noun: "no" only before "longer")
                verb = slots[at][0] == "word" and not contrast and (word != "no" or lowered[i + 1:i + 2] == ["longer"])
                held = next((j for j in range(at + 1, min(len(slots), at + 4)) if slots[j][0] in ("name", "ident")),
                            None) if verb and word not in ("none", "nothing", "nobody") else None
                if held is not None and not any(marks[j][1] for j in range(at, held)):
                    negated.add(slots[held][1])
                    denials.append((slots[held][1], f"{said} {lowered[held]}"))
                    reached.add((target, slots[held][1]))
                    spoken.update(anchor[j] or lowered[j] for j in range(i, held + 1))
                elif verb and anchor[at] is not None:  # "We no longer deploy on Fridays": a practice's end, below
                    verbs_denied.update(anchor[j] or lowered[j] for j in range(i, at + 1))
                negated.add(target)
                denials.append((target, said))
                if contrast:
                    contrasted.add(target)
                    rejected.update((at, i) if word != "not" else (at,))  # "rather", "instead": no content
                    kept = next((j for j in range(i - 1, max(-1, i - 4), -1)
                                 if anchor[j] is not None or slots[j][0] != "word"), None)
                    chosen.update([anchor[kept] or lowered[kept]] if kept is not None else [])
    states = tuple((_STATE_GROUP[t], t) for i, t in enumerate(lowered) if t in _STATE_GROUP and (
        t not in ("on", "off") or i and lowered[i - 1] in _SWITCHED
        and (marks[i][1] or i + 1 == len(lowered) or lowered[i + 1] in ("for", "in", "by"))))
    if not _ENDED.isdisjoint(changes):  # "We don't use Poetry anymore": a denial said to have begun
        ended.update(held for _, held in reached)
        if not ended:  # "We don't deploy on Fridays anymore"; not "Jenkins is no longer used"
            practices.update(verbs_denied & negated)
            spoken.update(verbs_denied)
    negated.update(ended | practices)
    spoken.update(practices)
    words -= {anchor[j] or lowered[j] for j in paused}
    sequence, changed, owned = _sequence(slots, anchor, marks, phrases, hedged, rejected | paused)
    subjects = {t.key for t in sequence if t.kind == "name" and t.subject}
    subjects -= {t.key for t in sequence if t.kind == "name" and not t.subject}
    # a source read from is one: "The worker reads jobs from Redis" / "... from RabbitMQ" (not "Nina reads novels")
    at_clause = list(accumulate((ends for _, ends, _ in marks), initial=0))
    sourced = {at_clause[i] for i, word in enumerate(lowered) if word in _SOURCE and any(
        lowered[j] in _READING and at_clause[j] == at_clause[i] for j in range(i))}
    adding_clauses = {t.clause for t in sequence if t.kind == "word" and (  # "also", or a verb (not "the review")
        t.shown in ADDITION_WORDS or t.shown in ADDING and not (t.subject or t.determined or t.clause in sourced))}
    adding = {t.key for t in sequence if t.clause in adding_clauses and t.shown not in ADDING | ADDITION_WORDS}
    return _Read(values, words, frozenset(negated), states, tuple(changes),
                 any(t in ADDITION_WORDS for t in lowered), sequence, changed, frozenset(subjects), owned,
                 frozenset(adding), frozenset(contrasted), tuple(denials),
                 _targets(slots, lowered, anchor, marks) if changes else frozenset(), frozenset(chosen),
                 frozenset(reached), frozenset(ended), frozenset(spoken),
                 (_left(slots, lowered) if changes else frozenset()) | frozenset(ended), _runs(slots, marks),
                 frozenset(handed), _added(slots, lowered, marks), frozenset(practices),
                 tuple((k, t) for k, t, _ in slots))


_ELIDED = re.compile(r"^[a-z]['’]")  # an article joined to its noun: "l'astreinte"


def _moves_value(slots: Slots, lowered: list[str], marks: Marks, i: int) -> bool:
    """Whether the verb at slot ``i`` (one of ``MOVING_TO``) moves a value: a word of ``TOWARD`` ("to", "an", "à"
    ...) and a value, or a word and a value, follow it in its clause ("extended to 90 days", "extended to version
    3.4"), or a word of it and a value stand right before it, said last ("wurde an Nils übertragen"); and, for one
    of ``HANDING``, a noun of a role (``ROLES``) stands among the six words before it in its sentence ("ownership
    passed to Carol", "Leadership of the search team went to Bob", "La responsabilité est passée à Nils") or right
    after its word of ``TOWARD`` ("El API gateway pasó a manos de Nils")."""
    role = i + 2 < len(slots) and lowered[i + 2] in ROLES
    at = next((j for j in range(i + 2 + role, min(len(slots), i + 4 + role)) if slots[j][0] != "word"), None)
    after = at is not None and lowered[i + 1] in TOWARD and not any(marks[j][1] for j in range(i, at))
    last = i > 1 and lowered[i - 2] in TOWARD and slots[i - 1][0] != "word" \
        and not any(marks[j][1] for j in range(i - 2, i))
    if not (after or last):
        return False
    return lowered[i] not in HANDING or after and role or any(
        _ELIDED.sub("", lowered[k]) in ROLES and marks[k][2] == marks[i][2] for k in range(max(0, i - 6), i))


def _added(slots: Slots, lowered: list[str], marks: Marks) -> frozenset[str]:
    """The values a text adds (``_Read.added``): in a clause saying "also", "too", "as well", "both" ..., or in a
    sentence opening with one ("In addition, ..."), the values of a list (``_listed``), and the names of a list one
    of them is added with ("Mastercard" of "We accept Mastercard and Amex too"; "Weights and Biases" is one name)."""
    clause = [0] * len(slots)
    for i in range(1, len(slots)):
        clause[i] = clause[i - 1] + marks[i - 1][1]
    said = [at for at, word in enumerate(lowered) if word in ADDITION_WORDS or word == "both"
            or word == "well" and at and lowered[at - 1] == "as"]
    opening = {marks[at][2] for at in said if all(lowered[j] in STOP for j in range(at) if marks[j][2] == marks[at][2])}
    found = {i for i, (kind, _, _) in enumerate(slots)
             if kind != "word" and (marks[i][2] in opening or any(clause[at] == clause[i] for at in said))}
    joined = _listed(slots, lowered, marks)
    for i, j in joined + joined[::-1]:  # along the list both ways
        if slots[i][0] != "name" or not found.isdisjoint((i, j)):
            found.update((i, j))
    return frozenset(slots[i][1] for i in found)


_LISTING = frozenset({"and", "or", "&", "und", "oder", "et", "ou", "y"})


def _listed(slots: Slots, lowered: list[str], marks: Marks) -> list[tuple[int, int]]:
    """The slots of values of one kind written one after the other in a list, joined by "and", "or" or a comma, the
    word before each repeated or not: "18", "20" of "Node 18 and 20", "17", "18" of "iOS 17 and iOS 18"; not a range
    ("between 9:00 and 17:00") nor a date's parts ("Dec 20, 2026")."""
    found: list[tuple[int, int]] = []
    for i, (kind, _, _) in enumerate(slots):
        j = i + 1
        if kind == "word" or j >= len(slots) or i and lowered[i - 1] == "between":
            continue
        if lowered[j] in _LISTING:
            j += 1
        elif not marks[i][1] or marks[i][2] != marks[j][2] or kind == "date":  # a comma in one sentence
            continue
        if j < len(slots) and i and slots[j] == slots[i - 1]:
            j += 1  # "iOS 17 and iOS 18"
        if j < len(slots) and slots[j][0] == kind:
            found.append((i, j))
    return found


def _runs(slots: Slots, marks: Marks) -> tuple[tuple[str, ...], ...]:
    """The names written side by side in one clause, two or more: one name ("GitHub Actions", "Jonas Berg")."""
    runs: list[tuple[str, ...]] = []
    run: list[str] = []
    for (kind, norm, _), (_, ends, _) in zip(slots, marks, strict=True):
        if kind == "name":
            run.append(norm)
        if kind != "name" or ends:
            runs.extend([tuple(run)] if len(run) > 1 else [])
            run = []
    return tuple(runs + ([tuple(run)] if len(run) > 1 else []))


def _targets(slots: Slots, lowered: list[str], anchor: list[str | None], marks: Marks) -> frozenset[str]:
    """The values right after a word of ``_TO``, or of ``ONWARD`` after a verb of ``MOVING_TO`` or a change verb
    ("renewed until 2028", "changée à 2 Go"), after values after a word of ``_FROM`` ("von München nach Berlin", "de
    Jenkins a GitHub Actions") or before a change verb ("auf 4:00 geändert"), determiners aside, in a
    text holding change words: where the change goes ("github", "actions" of "We moved CI from Jenkins to GitHub
    Actions"), or, with none there and a change verb in the text, one content word ending its clause or before a stop
    word, by its stem ("afternoon" of "We moved the standup to the afternoon")."""
    found: set[str] = set()
    moving = not CHANGE_VERBS.isdisjoint(lowered)
    for i, word in enumerate(lowered):
        if word in REPLACING and lowered[max(0, i - 1)] not in PASSIVE:  # "GitHub Actions replaced Jenkins"
            j = i - 1 - (lowered[max(0, i - 1)] in ("has", "have", "had"))
            while j >= 0 and slots[j][0] != "word":
                found.add(slots[j][1])
                j -= 1
        if word not in ONWARD and word not in _TO:
            continue
        start, j = _values_after(slots, lowered, i)
        k = i  # the values right before it, after a word of ``_FROM``: "de Jenkins à GitHub Actions"
        while k and slots[k - 1][0] != "word":
            k -= 1
        # "renewed until 2028", or the verb said last: "auf 4:00 geändert"
        # (not Spanish's "a" of a person replaced: "Bob sustituyó a Alice")
        toward = word in ONWARD and (i and lowered[i - 1] in (MOVING_TO | CHANGE_VERBS) - REPLACING
                                     or 0 < k < i and lowered[k - 1] in _FROM
                                     or start < j < len(slots) and lowered[j] in CHANGE_VERBS)
        if not toward and (word not in _TO or word == "of" and lowered[max(0, i - 1)] not in ("favour", "favor")):
            continue
        found.update(slots[k][1] for k in range(start, j))
        if moving and j == start < len(slots) and anchor[j] is not None and (
                marks[j][1] or j + 1 == len(slots) or lowered[j + 1] in STOP):
            found.add(anchor[j])  # type: ignore[arg-type]
    return frozenset(found)


def _values_after(slots: Slots, lowered: list[str], i: int) -> tuple[int, int]:
    """``(start, end)``: the slots of values right after slot ``i``, determiners and "every", "each" aside ("to every
    Friday"; ``end`` is the next word's)."""
    j = i + 1
    while j < len(slots) and (lowered[j] in DETERMINERS or lowered[j] in ("every", "each")):
        j += 1
    start = j
    while j < len(slots) and slots[j][0] != "word":
        j += 1
    return start, j


_FROM = frozenset({"from", "off", "von", "de", "desde"})  # before what a change leaves: "migrated the repo off GitHub"


def _left(slots: Slots, lowered: list[str]) -> frozenset[str]:
    """The values a change leaves, in a text holding change words: right after "from", "off" or the object of a verb of
    ``LEAVING`` (determiners aside), or right before an arrow: "ansible" of "We moved from Ansible to Salt",
    "postgresql", "14" of "We upgraded PostgreSQL 14 to PostgreSQL 16" (what goes on is in ``_targets`` too), "0.110"
    of "Hugo 0.110 -> 0.125", not "python" of "We upgraded Python from 3.10 to 3.12"."""
    found: set[str] = set()
    for i, word in enumerate(lowered):
        if word in ARROWS:  # "Hugo 0.110 -> 0.125": the values right before it
            j = i
            while j and slots[j - 1][0] != "word":
                j -= 1
            found.update(slots[k][1] for k in range(j, i))
        if word not in _FROM and word not in LEAVING or word in ARROWS:
            continue
        start, j = _values_after(slots, lowered, i)
        if word in _FROM or j == len(slots) or lowered[j] not in _FROM:  # "upgraded Python from 3.10": Python stays
            found.update(slots[k][1] for k in range(start, j))
    return frozenset(found)


def _dated(slots: Slots, at: int) -> bool:
    """Whether slot ``at`` says from when ("since March", "as of today"): no part of what is held."""
    return slots[at - 1][1] == "since" or [t for _, t, _ in slots[max(0, at - 2):at]] == ["as", "of"]


def _taken_from(slots: Slots, at: int) -> bool:
    """Whether slot ``at`` is a name after "from" ("von", "de"), a name after it too: whom something was taken
    from, no part of what is held ("Bob took over payments from Alice", "das Marketing von Frau Müller")."""
    k = at
    while k and slots[k - 1][0] == "name":
        k -= 1
    return slots[at][0] == "name" and k > 0 and slots[k - 1][1] in ("from", "von", "de")


def _sequence(slots: Slots, anchor: list[str | None], marks: Marks, phrases: set[int], hedged: set[int],
              rejected: set[int]) -> tuple[tuple[_Token, ...], frozenset[int], Owned]:
    """The content words and values of a text in order (but the words of change phrases at
    ``phrases`` and what a contrast rejects at ``rejected``: "npm" of "Use pnpm, not npm"), each marked
    where it stands (``_Token``), the clauses holding a change word, and what the owners a clause
    names hold (``_Read.owned``; ``hedged``: sentences that are no plain statement)."""
    out: list[_Token] = []
    owned: list[tuple[frozenset[str], frozenset[str], bool]] = []
    passive = None  # the slot of "by" in "is owned by", after the clause's verb
    clause: list[int] = []  # slot indexes of the content of the clause being read
    verb = None  # the clause's first verb slot
    owning = None  # the slot of an ``OWNING`` verb (or "is the", "took over") right after the clause's names
    pronoun = None  # whether the clause opens with a pronoun (its subject)
    clauses = 0
    changed: set[int] = set()
    lowered = [text for _, text, _ in slots]
    for i, (kind, text, _) in enumerate(slots):
        if pronoun is None:
            # Spanish says "we" in its verb: "Usamos Jenkins", "Migramos la CI" lead with their subject unsaid
            pronoun = text in PRONOUNS or kind == "word" and len(text) > 5 and text.endswith(("amos", "emos", "imos"))
        following = slots[i + 1][1] if i + 1 < len(slots) else ""
        held_at = holding(lowered, i) if owning is None and verb is None and clause else i  # "is responsible for"
        # whose the owner is leads them: "Nils' colleague Anna owns the API gateway"
        lead = next((n for n, at in enumerate(clause) if n and slots[at][0] == "name"), len(clause)) \
            if clause and marks[clause[0]][0] else 0
        if owning is None and verb is None and lead < len(clause) and (
                # "runs" owns too after a name read on other evidence ("CircleCI runs our CI"), but is none of
                # its own ("Pool A runs 4 replicas": no name verb)
                (text in OWNING or text in ("runs", "is", "was")) and following in DETERMINERS
                or (text in ("took", "taken", "takes") and following == "over") or text in TAKING or held_at > i) \
                and all(slots[at][0] == "name" and not marks[at][0] or slots[at][1] in _BEFORE_VERB
                        for at in clause[lead:]):
            owning = max(i, held_at - 1)
        if kind == "word" and text in VERBS and verb is None:
            verb = i
            k = i + 1
            while k < len(slots) and slots[k][1] in _BEFORE_VERB:
                k += 1
            if text in ("is", "are", "was", "were") and k + 1 < len(slots) and slots[k][1] in PASSIVE_OWNING \
                    and slots[k + 1][1] == "by":
                passive = k + 1
        if kind == "word" and (text in CHANGE_WORDS or i in phrases):
            changed.add(clauses)
        if (anchor[i] is not None and text not in NEGATIONS and i not in phrases or kind != "word") \
                and i not in rejected:
            clause.append(i)
        if marks[i][1] or i == len(slots) - 1:
            for n, at in enumerate(clause):
                if owning is not None:
                    # what the names hold stands where the subject does; not whom they took it from ("Bob took over
                    # payments from Alice", "... von Frau Müller übernommen")
                    before = at > owning and not _taken_from(slots, at)
                else:
                    # "Support for APAC"; a name labelling the first word before the clause's verb: "Team Alpha
                    # deploys", "L'équipe Alpha déploie" (not the object of "Use Vite, not webpack")
                    before = at < verb if verb is not None else (n == 0 or n == 1 and (
                        slots[at][1].lower() in REGIONS or slots[at][0] == "name" and at == clause[0] + 1
                        and not marks[at][1] and at + 1 in clause and slots[at + 1][0] == "word")) and not pronoun
                determined = at > 0 and slots[at - 1][1] in DETERMINERS
                kind, text, _ = slots[at]
                subject = marks[at][0] or before
                out.append(_Token(anchor[at] or text, kind, text, subject, determined, clauses))
            if owning is not None or passive is not None:
                mine = out[len(out) - len(clause):]
                if owning is not None:
                    owners = {t.key for t, at in zip(mine, clause)
                              if at < owning and t.kind == "name" and not marks[at][0]}
                    held = {t.key for t, at in zip(mine, clause)
                            if at > owning and not (_dated(slots, at) or _taken_from(slots, at))}
                    past = slots[owning][1] in PAST_OWNING
                else:
                    owners = {t.key for t, at in zip(mine, clause) if at > passive and t.kind == "name"}
                    held = {t.key for t, at in zip(mine, clause) if at < verb}  # type: ignore[operator]
                    past = slots[verb][1] in ("was", "were")  # type: ignore[index]
                plain = not past and marks[i][2] not in hedged
                owned.append((frozenset(owners), frozenset(held), plain))
            clause, verb, owning, pronoun, passive, clauses = [], None, None, None, None, clauses + 1
    return tuple(out), frozenset(changed), tuple(owned)


@lru_cache(maxsize=1024)
def values(text: str) -> frozenset[str]:
    """The normal forms of the values ``text`` states ("09:15", "db-stg-03", "helix" ...)."""
    return frozenset(values_of(_read(text)))


def values_of(read: _Read) -> set[str]:
    """The normal forms of the values ``read`` holds, of every type."""
    return {norm for found in read.values.values() for norm in found}
