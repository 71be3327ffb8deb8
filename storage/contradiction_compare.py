"""The comparisons of two readings (``contradiction_reading._Read``) that ``contradiction.judge`` weighs: a value
replaced in its slot, a negation or an end of what the other holds, subjects told apart, two texts worded in
parallel, one name slot refilled."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from difflib import SequenceMatcher
from functools import lru_cache

from .contradiction_ending import ENDS, STOPPING
from .contradiction_reading import _Read, _Token, _read, values_of
from .contradiction_things import kinds_apart, moves_another, things_apart
from .contradiction_tokens import _words, brief
from .contradiction_words import (ALIGNED, ASKED_KINDS, ATTRIBUTES, BEING, CHANGE_WORDS, DETERMINERS, HEADS,
                                  INTERJECTIONS, MEASURES, NUMBER_WORDS, PERIOD_WORDS, PRONOUNS, REPLACING, ROLES,
                                  SHORT, STOP, VERBS, _POINT_VALUES, _RELATIVE, _SAME_STATE, _STATE_GROUP, _WHEN,
                                  _WHEN_KINDS, stem)
from .query import LABEL
from .timefmt import YEAR


PARALLEL = 0.35  # difflib ratio of two texts' words from which they are worded in parallel (docs/benchmarks.md)
# Value types whose one-for-one swap is a change even without a shared neighbour word;
# a number needs one ("4 nodes" → "6 nodes", not "4 nodes" → "36 hours").
_SWAPPABLE = frozenset({"time", "day", "month", "date", "ident", "path", "name"})
# Verbs that say only that a name is had, not which slot it fills: "We use Docker" and "We use Slack" are two
# tools side by side as often as one for the other, and the packaged model's cosine does not tell which.
_BARE = frozenset("use uses using used have has had like likes liked love loves need needs needed want wants "
                  "try tries tried get gets got own owns enjoy enjoys".split())
# Words that put two things in an order or a choice: "tabs over spaces", "pnpm instead of npm", "staging
# before production", "from MySQL to Postgres" (the last two: "to" only after "from", below).
_PERIODIC = frozenset(PERIOD_WORDS.values())  # periods a practice recurs in, as stemmed ("week" of "weekly")
_ORDERING = frozenset({"over", "instead", "rather", "than", "vs", "versus", "not", "before", "after", "then"})


def _same_name(a: str, b: str) -> bool:
    """"postgres" and "postgresql": one name spelt out further (but "lindgarden-mesh" is another); "jonas" and
    "jonas berg", "github" and "github actions": a name and one written side by side with it (``_whole_names``);
    "ludwig beethoven" and "ludwig van beethoven": one without its particles."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short) and long[len(short):].isalpha() or set(short.split()) <= set(long.split())


def _spelt_further(same: Callable[[str, str], bool], a: str, read_a: _Read, b: str, read_b: _Read) -> bool:
    """Whether ``a`` of ``read_a`` and ``b`` of ``read_b`` are one name or host written out further
    (``same``: "Jo" / "Joanna"), unless the text of the longer says the shorter too: "CircleCI" of
    "Our CI runs on CircleCI" is no "CI" written longer ("GitHub" of "GitHub Actions" is part of it)."""
    (short, _), (longer, long) = sorted(((a, read_a), (b, read_b)), key=lambda side: len(side[0]))
    return same(a, b) and (short not in long.words or short in longer.split())


def _whole_names(read: _Read, found: dict[str, set[str]]) -> dict[str, set[str]]:
    """``found`` (a text's names and the words beside them) with the names written side by side (``_Read.runs``)
    read as one: {"github actions": {"run"}} of "Our CI runs on GitHub Actions", not {"github": {"run", "actions"},
    "actions": {"github"}}; a change to "GitLab" beside "GitHub" then replaces no name of it."""
    if not read.runs:
        return found
    whole = dict(found)
    for run in read.runs:
        if not all(name in whole for name in run):
            continue
        beside = set().union(*(whole.pop(name) for name in dict.fromkeys(run))) - set(run)  # "Orion Orion": once
        whole.setdefault(" ".join(run), set()).update(beside)
    return whole


_DOMAIN_TAIL = re.compile(r"(?:\.[a-z][a-z0-9-]*)+")


def _same_host(a: str, b: str) -> bool:
    """"stg-db-07" and "stg-db-07.lan": one host named with its domain, not "kong-3.6" and
    "kong-3.6.1" (a version spelt further is another)."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short) and _DOMAIN_TAIL.fullmatch(long[len(short):]) is not None


def _changed_value(old: _Read, new: _Read) -> str | None:
    """"different <type>: <old> → <new>" for a value of one type replaced in the same slot."""
    for kind in sorted(old.values.keys() & new.values.keys()):
        olds, news = old.values[kind], new.values[kind]
        if kind == "name" and max(len(old.sequence), len(new.sequence)) <= 2 * SHORT:
            # "GitHub Actions": one name in a short statement (a chat turn's stay apart: bench/contradiction_alarms.py)
            olds, news = _whole_names(old, olds), _whole_names(new, news)
        # A name standing where a subject stands names the subject, not a value in a slot.
        # (a name written side by side with others, by each of its parts: ``_whole_names``)
        gone = [norm for norm in olds if norm not in news
                and not (kind == "name" and any(_subject(old, part) for part in norm.split(" ")))]
        came = [norm for norm in news if norm not in olds
                and not (kind == "name" and any(_subject(new, part) for part in norm.split(" ")))]
        counted = len(gone), len(came)
        if kind == "name":  # a name denied is in no slot: "We do not use MySQL" / "We do not use Postgres"
            gone = [g for g in gone if all(_in_slot(old, part, new) and part not in old.negated
                                           for part in g.split(" "))]
            came = [c for c in came if all(_in_slot(new, part, old) and part not in new.negated
                                           for part in c.split(" "))]
        elif old.adding | new.adding and _names_in(old, old.adding) != _names_in(new, new.adding):
            # "met Bob on Monday" / "met Carol on Tuesday": two meetings, not one moved
            gone = [g for g in gone if g not in old.adding]
            came = [c for c in came if c not in new.adding]
        if not new.changes:  # values the newer adds leave the older's as they were ("Node 18 and 20 are supported")
            came = [c for c in came if not new.added.issuperset(c.split(" "))]
        # a value one text denies or ends and the other states is no change of one slot: "We no longer ship a 32-bit
        # build" / "The 64-bit build is shipped nightly" agree ("Don't deploy after 16:00" / "... 15:00" change)
        was = {g: _denied(old, g) for g in olds if g not in news}
        now = {c: _denied(new, c) for c in came}
        gone = [g for g in gone if was[g] in now.values()]
        came = [c for c in came if now[c] in was.values()]
        lone = counted == (len(gone), len(came))  # one for one only when no value was set aside
        same = _same_name if kind == "name" else _same_host if kind == "ident" else None
        if same is not None and len(gone) * len(came) <= 64:
            gone = [g for g in gone if not any(_spelt_further(same, g, old, c, new) for c in came)]
            came = [c for c in came if not any(_spelt_further(same, g, old, c, new) for g in olds)]
        if not gone or not came:
            continue
        counts = kind == "number"  # "4 nodes" / "3 GPUs": two slots
        came = [c for c in came if not all(_elsewhere(old, g, new, c) or counts and _counts_apart(old, g, new, c)
                                           or kinds_apart(old, g, new, c) for g in gone)]
        gone = [g for g in gone if not all(_elsewhere(new, c, old, g) or counts and _counts_apart(old, g, new, c)
                                           or kinds_apart(old, g, new, c) for c in came)]
        if not gone or not came:
            continue
        anchors = {a for norm in gone for a in olds[norm]}
        shared = [norm for norm in came if not news[norm].isdisjoint(anchors)
                  or kind == "name" and any(_held_alike(old, g, new, norm) for g in gone)]
        # a lone swap in two texts sharing a word or saying a change: "ok a6" / "ok b1" say nothing of one
        # slot; "We switched to Poetry" / "We switched to uv" do
        if shared or (kind in _SWAPPABLE and lone and len(gone) == 1 and len(came) == 1
                      and bool(old.words & new.words - INTERJECTIONS or old.changes or new.changes)
                      and not _told_apart(old, gone[0], new, came[0])
                      and not _beside_apart(olds[gone[0]], new, news[came[0]], old)):
            return f"different {kind}: {', '.join(sorted(gone)[:3])} → {', '.join(sorted(shared or came)[:3])}"
    return None


def _denied(read: _Read, value: str) -> bool:
    """Whether ``read`` holds ``value`` (a normal form) only where it denies or ends it: ``value`` is what a negation
    or an end names ("We dropped x86"), or each clause holding it has the word a negation names, a verb of
    ``STOPPING``, or a verb of ``ENDS`` beside no other value of its kind ("The v1 API is no longer supported", "We
    never deploy on Friday", "We retired the v1 API"; not "CircleCI" of "We ditched Jenkins for CircleCI")."""
    known = read.derived.get(("denied", value))
    if known is None:
        known = read.derived["denied", value] = _denies(read, value)
    return bool(known)


def _denies(read: _Read, value: str) -> bool:
    """:func:`_denied`, worked out."""
    if value in read.negated - read.contrasted:
        return True
    held = {t.clause for t in read.sequence if t.key == value}
    kinds = {t.kind for t in read.sequence if t.key == value}
    values = [t.clause for t in read.sequence if t.kind in kinds]
    first = {t.key: t.clause for t in reversed(read.sequence)}  # where a negation names a word: its first place
    ending = {t.clause for t in read.sequence if t.kind == "word" and (
        t.shown.endswith(("n't", "n’t")) or t.shown in STOPPING or t.shown in ENDS and values.count(t.clause) == 1)}
    denying = {first[key] for key in read.negated - read.contrasted if key in first} | ending
    return bool(held) and held <= denying


def _units(read: _Read, value: str | None = None) -> set[str]:
    """The measures (``MEASURES``) of the words or names right after ``value`` (any number when None) in its clauses
    of ``read``: its units ("nod" of "4 nodes", "time" of "30 seconds")."""
    sequence = read.sequence
    return {MEASURES.get(sequence[at + 1].key, sequence[at + 1].key) for at in range(len(sequence) - 1)
            if (sequence[at].key == value or value is None and sequence[at].kind == "number")
            and sequence[at + 1].kind in ("word", "name") and sequence[at + 1].clause == sequence[at].clause}


def _counts_apart(old: _Read, was: str, new: _Read, now: str) -> bool:
    """Whether the numbers ``was`` of ``old`` and ``now`` of ``new`` count different things: each has a unit
    (:func:`_units`) that no number of the other text has: "4 nodes" / "3 GPUs" of one cluster are two slots; "30
    seconds" / "2 minutes" one, "4 nodes and 2 GPUs" / "2 nodes and 8 GPUs" a change."""
    mine, theirs = _units(old, was), _units(new, now)
    return bool(mine) and bool(theirs) and mine.isdisjoint(_units(new)) and theirs.isdisjoint(_units(old))


def _beside_apart(was: set[str], new: _Read, now: set[str], old: _Read) -> bool:
    """Whether two values stand beside words (``was`` in ``old``, ``now`` in ``new``) that the other
    text never says: each in a slot the other does not name ("its repository is git.example.com/x" /
    "exposes metrics on port 9104 under /metrics"), not one slot refilled ("Standup is at 9:15" /
    "Standup now happens at 10:30": "standup" is in both)."""
    return bool(was) and bool(now) and was.isdisjoint(new.words) and now.isdisjoint(old.words)


def _subject(read: _Read, name: str) -> bool:
    """Whether the name ``name`` is what ``read`` is about, not a value in a slot: standing where a
    subject stands, or assigned (``SVC=auth-svc``) where the text also says it as a word ("To debug
    auth-svc locally ... SVC=auth-svc": a runbook written for each service)."""
    assigned = name.partition("=")[2]
    return name in read.subjects or bool(assigned) and any(
        t.kind == "word" and t.shown == assigned for t in read.sequence)


def _in_slot(read: _Read, name: str, other: _Read) -> bool:
    """Whether ``name`` in ``read`` can be one value of a single-valued slot that ``other`` fills:
    not the object of a verb that adds (``ADDING``: "speaks French"), and, as an owner, holding in a
    plain present statement the very thing (the same words) that owners in ``other`` hold so ("Bob
    owns the billing service", not its tests, "the new billing service", "... too", "If Bob owns")."""
    if name in read.adding:
        return False
    held = {h for owners, h, plain in read.owned if name in owners}
    if not held:
        return True
    mine = {h for owners, h, plain in read.owned if name in owners and plain}
    if not mine.isdisjoint(h for owners, h, plain in other.owned if plain and owners):
        return True
    # "Tomás is the team lead" / "The team lead is Maria": what it holds is the other's subject.
    said = _by_clause(t for t in other.sequence if t.subject and t.kind in ("word", "name"))
    return any(frozenset(subject) in mine for subject in said.values())


def _held_alike(old: _Read, was: str, new: _Read, now: str) -> bool:
    """Whether the owner ``was`` of ``old`` and ``now`` of ``new`` hold the same thing in plain present statements,
    whatever verb says so: one slot ("Anna owns the API gateway" / "Nils is now responsible for the API gateway")."""
    held = {h for owners, h, plain in old.owned if was in owners and plain}
    return not held.isdisjoint(h for owners, h, plain in new.owned if now in owners and plain)


def _by_clause(tokens: Iterable[_Token]) -> dict[int, set[str]]:
    """The keys of ``tokens`` by their clause."""
    found: dict[int, set[str]] = {}
    for t in tokens:
        found.setdefault(t.clause, set()).add(t.key)
    return found


def _names_in(read: _Read, norms: frozenset[str]) -> frozenset[str]:
    return frozenset(norms & read.values.get("name", {}).keys())


def _told_apart(old: _Read, was: str, new: _Read, now: str) -> bool:
    """Whether the clauses holding value ``was`` in ``old`` and ``now`` in ``new`` have subjects and
    neither text holds the other's ("The admin UI talks to Postgres through the API" / "The API talks
    to Postgres through PgBouncer"; a name the other holds after its verb does not count, as in
    ``_shares_subject``), or one's is the other's narrowed after its noun by words the other never says ("Le serveur
    de sauvegarde est à Dublin" / "Le serveur est à Francfort", "The server of the backup team"): then the values are
    in the slots of two subjects, not one."""
    ordered, held = [], []
    for read, value in ((old, was), (new, now)):
        clauses = {t.clause for t in read.sequence if t.key == value}
        ordered.append([t.key for t in read.sequence
                        if t.clause in clauses and t.subject and t.kind not in _POINT_VALUES and t.key != value])
        held.append({t.key for t in read.sequence if t.subject or t.kind == "word"})
    subjects = [set(keys) for keys in ordered]
    narrowed = any(keys[:1] and keys[0] in subject and subject < set(keys) and (set(keys) - subject).isdisjoint(words)
                   for keys, subject, words in ((ordered[0], subjects[1], held[1]), (ordered[1], subjects[0], held[0])))
    return all(subjects) and (subjects[0].isdisjoint(held[1]) and subjects[1].isdisjoint(held[0]) or narrowed)


def _subjects_at(read: _Read, value: str) -> set[str]:
    """The subject's words of the clauses of ``read`` holding ``value`` (``_Token.subject``), point values aside."""
    clauses = {t.clause for t in read.sequence if t.key == value}
    return {t.key for t in read.sequence
            if t.clause in clauses and t.subject and t.kind not in _POINT_VALUES and t.key != value}


def _elsewhere(old: _Read, was: str, new: _Read, now: str) -> bool:
    """Whether ``now`` stands in a clause of ``new`` whose subject lacks a word of the subject of the clause of ``old``
    holding ``was`` and has one ``old`` never says, while another clause of ``new`` has every word of it: "Postgres 16"
    is production's in "Production runs Postgres 16 and staging runs Redis 7", no change of "Staging runs Postgres
    15"."""
    mine, theirs = _subjects_at(old, was), _subjects_at(new, now)
    if not mine or not theirs or mine <= theirs or theirs <= old.words:  # "and closes at 22:00": the gate's
        return False
    at = {t.clause for t in new.sequence if t.key == now}
    return any(mine <= subject for clause, subject in
               _by_clause(t for t in new.sequence if t.subject and t.kind not in _POINT_VALUES).items()
               if clause not in at)


def _swapped(side: tuple[_Token, ...], other: set[str], placed: bool,
             clauses: set[int] | None = None) -> bool:
    """Whether ``side`` of a replaced stretch holds a word the other text lacks (in one of ``clauses``
    when given): one standing where a subject stands (``placed``; a name or identifier too), else any
    content word but a state's."""
    return any(t.key not in other and (clauses is None or t.clause in clauses) and (
        t.subject and t.kind not in _POINT_VALUES if placed
        else t.kind == "word" and t.shown not in _STATE_GROUP) for t in side)


def _differences(old: _Read, new: _Read) -> list[tuple[tuple[_Token, ...], tuple[_Token, ...]]]:
    """The stretches of content in which the two texts differ, (older's, newer's), by alignment."""
    a, b = old.sequence[:ALIGNED], new.sequence[:ALIGNED]
    matcher = SequenceMatcher(None, [t.key for t in a], [t.key for t in b], autojunk=False)
    return [(a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _refilled(older: str, newer: str, old: _Read, new: _Read,
              swap: tuple[tuple[_Token, ...], tuple[_Token, ...]]) -> bool:
    """Whether two brief texts say the same frame with one slot refilled by another name or identifier ("Our CI runs
    on Jenkins" / "... on GitHub Actions", "We use Poetry for packaging" / "... uv ...", "Rosa heads the platform
    group" / "Karim heads ..."), ``swap`` being their one difference, in a frame (no interjection: "ok a6" / "ok b1")
    naming the slot (:func:`_slot_named`) or beside a change word both say: as strong evidence as a change verb (2:
    ``CHANGED_SUBJECT``), since a rare name alone pulls two such texts' vectors apart (docs/benchmarks.md). Not where
    the swap stands as a subject, is what a verb of ``ADDING`` adds, or beside "also", "too" ..."""
    tokens = swap[0] + swap[1]
    keys = {t.key for t in new.sequence}  # the frame: a content word of the swap's clause in both ("use"), or
    framed = any(t.clause == swap[0][0].clause and t not in swap[0] and t.key in keys and t.key not in INTERJECTIONS
                 for t in old.sequence) \
        or not set(old.changes).isdisjoint(new.changes)  # a change word ("We switched to Poetry")
    named = [all(t.kind in ("name", "ident") for t in side) for side in swap]  # a name, or one word for it
    return framed and brief(older) and brief(newer) and not (old.addition or new.addition) and any(named) \
        and all(ok or len(side) == 1 for ok, side in zip(named, swap, strict=True)) \
        and not any(_spelt_further(same, x.key, old, y.key, new) for x in swap[0] for y in swap[1]
                    for same in (_same_name, _same_host)) \
        and not any(t.subject or t.key in old.adding | new.adding for t in tokens) \
        and all(_in_slot(old, t.key, new) for t in swap[0]) and all(_in_slot(new, t.key, old) for t in swap[1]) \
        and _choices(old, swap[0][-1]) and _choices(new, swap[1][-1]) \
        and _same_frame(older, newer, swap) and (_slot_named(older, newer, swap) or not set(old.changes).isdisjoint(
            new.changes))


def _slot_named(older: str, newer: str, swap: tuple[tuple[_Token, ...], tuple[_Token, ...]]) -> bool:
    """Whether the frame the two texts share names the slot ``swap`` refills with a word beyond a bare verb
    of having (``_BARE``) and stop words: "Our CI runs on ...", "... for packaging", "..., not webpack",
    "We deploy with ...", not "We use ..." alone."""
    swapped = {t.shown for side in swap for t in side}
    return any(w not in STOP and w not in _BARE and w not in swapped and w.isalnum()
               for w in set(_words(older)) & set(_words(newer)))


def _same_frame(older: str, newer: str, swap: tuple[tuple[_Token, ...], tuple[_Token, ...]]) -> bool:
    """Whether the two texts, word for word, differ only in ``swap``, stop words ("we", "the") aside:
    "We use Terraform for infrastructure" / "Use OpenTofu for infrastructure", not
    "We moved CI from Jenkins to GitHub Actions" / "Our CI runs on GitHub Actions"."""
    a, b = _words(older), _words(newer)
    opcodes = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    content = [[[w for w in words if w not in STOP] for words in (a[i1:i2], b[j1:j2])]
               for tag, i1, i2, j1, j2 in opcodes if tag != "equal" and not STOP.issuperset(a[i1:i2] + b[j1:j2])]
    return content == [[[w for t in side for w in t.shown.split(" ") if w not in STOP] for side in swap]]


def _choices(read: _Read, swapped: _Token) -> bool:
    """Whether a word swapped in ``read`` may be read as a choice changed: it denies nothing, or only
    contrasts what it keeps with what it rejects and ``swapped`` is what it keeps ("pnpm" of "Use
    pnpm, not npm"; not "prefers" of "Priya prefers tea, not coffee")."""
    return not read.negated or not read.negated - read.contrasted and swapped.key in read.chosen


def _shares_subject(old: _Read, new: _Read, attribute: bool, head: bool = False) -> bool:
    """Whether the newer text's change words can act on the older: half the words of the subject of a clause holding
    them (``_Token.subject``: "The API now uses gRPC", "Zoë's swimming group now meets") are among the older's words
    (not "The API rate limit is now 250" beside "The SLO for the public API"), or the whole subject of a clause of the
    older among the newer's ("the billing service", not "billing" alone: "Now Bob is on the billing team" changes no
    owner of the billing service), or either has none (a pronoun leads: "We moved builds to Buildkite"), or it changes
    a number of a thing whose number the older holds (:func:`versioned`: "Upgraded Python from 3.11 to 3.12" / "The
    service runs on Python 3.11"), or hands over what the older names (``_hands_over``: "Lena handed incident command
    to Raj" / "The incident commander is Lena"), or ``attribute`` (:func:`attribute_changed` of the pair). A value
    standing elsewhere than a subject does not count otherwise ("... through the API" is no memory about the API)."""
    told = _by_clause(t for t in new.sequence
                      if t.subject and t.kind not in _POINT_VALUES and t.clause in new.change_clauses)
    was = _by_clause(t for t in old.sequence if t.subject and t.kind not in _POINT_VALUES)
    # a time leading a clause is no word of its subject, unless the clause names nothing else
    told = {clause: words - _WHEN or words for clause, words in told.items()}
    was = {clause: words - _WHEN or words for clause, words in was.items()}
    # a change of another thing, or of a class beside a kind of it holding a value of its own ("Nightly builds run at
    # 02:00" / "Builds now run at 03:00"), or of a kind holding a name of its own ("Board meetings are now on Teams" /
    # "Meetings are on Zoom"; not "Feature flags ... are managed with LaunchDarkly" / "Switched flags from LaunchDarkly
    # to Unleash", nor "Metrics dashboards are built by each team" / "Dashboards are now owned by the observability
    # team": the class changed as a whole)
    shared = old.values.keys() & new.values.keys()
    point = not shared.isdisjoint(_POINT_VALUES | _WHEN_KINDS)
    if moves_another(old, new) or things_apart(old, set(was), new, set(told), every=True,
                                               kinds=(point, point or bool(shared))):
        return False
    if not told or not was:
        return _names_alike(old, new)
    had = {t.key for t in old.sequence if t.subject or t.kind == "word"}
    keys = {t.key for t in new.sequence}
    return any(2 * len(subject & had) > len(_headless(subject, had)) for subject in told.values()) or \
        any(_in_order(_headless(subject, keys), new.sequence, head) for subject in was.values()) \
        or _replaces(old, new) \
        or versioned(old, new) or _hands_over(old, new, had, was.values()) or attribute


def _names_alike(old: _Read, new: _Read) -> bool:
    """Whether two readings name a content word alike (its stem, or as written: "packaging" opening a sentence is
    read as a name), or hold values of one kind other than a name (a time for a time: "Now at 10:00"). Where a pronoun
    or nothing leads the clause of a change, this is all that ties it to the older text ("We migrated the website
    ..." / "The office is in Lyon" share nothing)."""
    def said(read: _Read) -> set[str]:
        return set(read.words) | {t.shown.lower() for t in read.sequence}
    return bool(said(old) & said(new)) or bool(set(old.values) & set(new.values) - {"name"})


def _headless(subject: set[str] | frozenset[str], other: set[str] | frozenset[str]) -> set[str] | frozenset[str]:
    """``subject`` (keys) without the head nouns (``HEADS``: "team", "service" ...) that ``other`` (keys) lacks, when a
    word remains and ``other`` names no other head: one thing named with or without its head ("the payments team" /
    "payments"; not "the billing team" / "the billing service")."""
    rest = {key for key in subject if key not in _HEADS or key in other}
    return rest if rest and _HEADS.isdisjoint(other - subject) else subject


_HEADS = frozenset(stem(word) for word in HEADS)
_ROLES = frozenset(stem(word) for word in ROLES)
# by stem, as ``_Read.values`` has words
_ATTRIBUTES = {stem(word): kinds for word, kinds in (ASKED_KINDS | ATTRIBUTES).items()}


def attribute_changed(old: _Read, new: _Read) -> bool:
    """Whether a noun of an attribute (``ATTRIBUTES``, ``ASKED_KINDS``: "time", "schedule", "port", "limit" ...) in the
    subject of a clause of ``new`` holding change words, or closing a compound of it (``_attribute``: "Backupzeit"),
    names the slot of a value ``old`` holds, and the change goes to a value of its kind: the subject's other words are
    the older's (by their first five letters: "rotation" of "rotated"), or, with none, that value stands beside the noun
    ("The backup time was changed to 4:00" / "Backups run every night at 2:00", "The rotation period was changed to 60
    days" / "Passwords must be rotated every 90 days", "The port was changed to 9090" / "The API listens on port 8080").
    A value beside another attribute's noun is in its slot, not this one ("The API rate limit was changed to 500" / "The
    API listens on port 8080")."""
    kinds = {kind for kind, found in new.values.items() if not found.keys().isdisjoint(new.targets)}
    for clause in new.change_clauses:
        subject = [t for t in new.sequence if t.clause == clause and t.subject and t.kind in ("word", "name")]
        for noun in subject:
            attribute, of = _attribute(noun.key) if noun.kind == "word" else ((), "")
            held = set(attribute) & kinds
            slots = [beside for kind in held for beside in old.values.get(kind, {}).values()
                     if all(word == noun.key or word not in _ATTRIBUTES or word in _WHEN | _RELATIVE
                            for word in beside)]
            rest = [t.key for t in subject if t is not noun] + ([of] if of else [])
            if slots and all(k in old.words or len(k) >= 5 and any(k[:5] == w[:5] for w in old.words) for k in rest) \
                    and (rest or any(noun.key in beside for beside in slots)):
                return True
    return False


def _attribute(key: str) -> tuple[frozenset[str] | set[str], str]:
    """The kinds of value a noun of an attribute (``_ATTRIBUTES``, by its stem ``key``) holds, and the word it is an
    attribute of when it closes a compound written as one word ("backupzeit": the "zeit" of "backup"); no kinds when
    ``key`` is none."""
    if key in _ATTRIBUTES:
        return _ATTRIBUTES[key], ""
    tail = next((tail for tail in _COMPOUNDED if key.endswith(tail) and len(key) - len(tail) >= 3), None)
    return (_ATTRIBUTES[tail], key[:-len(tail)].rstrip("-")) if tail is not None else ((), "")


_COMPOUNDED = sorted((key for key in _ATTRIBUTES if len(key) >= 4), key=len, reverse=True)  # "uhrzeit" before "zeit"


def _hands_over(old: _Read, new: _Read, had: set[str], subjects: Iterable[set[str]]) -> bool:
    """Whether the hand-over ``new`` says hands what ``old`` names (``had``: its words and subjects): a word of it
    ("incident command" / "The incident commander is Lena"), or a whole subject of it ("Ownership of the SDK went to
    Lena" / "The SDK is maintained by Omar"; not "the API docs" beside "The API gateway")."""
    words = {t.key for t in old.sequence if t.kind == "word"}
    return not (new.handed & had).isdisjoint(words) or any(subject <= new.handed for subject in subjects)


def hands_another(old: _Read, new: _Read) -> bool:
    """Whether the hand-over ``new`` says hands nothing ``old`` names ("handed the report to Priya" / "Anna owns the
    API gateway"), or another thing of a subject of it: that subject's words, then a word of what it hands that ``old``
    lacks, but a role's noun or a form of "be" ("The API gateway docs were handed to Nils", "Ownership of the API
    gateway docs went to Nils"; not "The API gateway was handed to Nils", "Billing service ownership passed to Carol",
    "Das API-Gateway wurde an Nils übergeben")."""
    if new.handed.isdisjoint(old.words):
        return True
    sequence = new.sequence
    for subject in _by_clause(t for t in old.sequence if t.subject and t.kind not in _POINT_VALUES).values():
        size = len(subject)
        if any({t.key for t in sequence[i:i + size]} == subject and sequence[i + size].kind == "word"
               and sequence[i + size].key in new.handed - old.words and sequence[i + size].shown not in BEING | ROLES
               and sequence[i + size].clause == sequence[i].clause
               for i in range(len(sequence) - size)):
            return True
    return False


def holds_another(old: _Read, new: _Read) -> bool:
    """Whether owners in plain present statements of both texts hold things told apart, what ``new``'s hold naming a
    word (values aside) that what each of ``old``'s lacks: "the documentation of the API gateway" / "the API gateway";
    not "Data platform is now led by Karim" / "Rosa leads the data platform team", "CTO from Ana" / "the CTO"."""
    named = values_of(old) | values_of(new)
    mine, theirs = ({held - named for owners, held, plain in read.owned if owners and plain} for read in (old, new))
    # a role's noun, or its word the older says too ("took over as lead of the payments team", "asumió la dirección
    # del equipo" / "Alice leads the payments team"), and a head noun one of them drops (``_headless``: "payments" /
    # "the payments team"), name no other thing
    return bool(mine) and bool(theirs) and not any(
        _headless(held, had) - _ROLES <= had | old.words for held in theirs for had in mine)


def _replaces(old: _Read, new: _Read) -> bool:
    """Whether a replacement (``REPLACING``) in ``new`` leaves a name or identifier ``old`` holds
    where no subject stands: one of the replacing clauses that is no target ("jenkins" of "Jenkins was
    replaced by GitHub Actions for CI" beside "Our CI runs on Jenkins")."""
    if REPLACING.isdisjoint(new.changes):
        return False
    left = {t.key for t in new.sequence if t.clause in new.change_clauses and t.kind in ("name", "ident")}
    return not (left - new.targets).isdisjoint(values_of(old) - old.subjects)


def _parts(old: _Read, new: _Read) -> set[str]:
    """The names ``old`` writes side by side as one (``_Read.runs``) that ``new`` does not write whole: "github",
    "actions" of "Our CI runs on GitHub Actions" beside "We migrated the repo from GitHub to GitLab"."""
    return {name for run in old.runs if not set(run) <= new.words for name in run}


def part_left(old: _Read, new: _Read) -> bool:
    """Whether the change ``new`` says leaves only parts of names ``old`` writes whole (``_parts``), naming no word of
    the older's subject: the repo moved from GitHub is no change of "Our CI runs on GitHub Actions"; "We moved the
    release manager role from Jonas to Priya" changes "The release manager is Jonas Berg"."""
    parts = _parts(old, new)
    said = {t.key for t in new.sequence if t.clause in new.change_clauses}
    return not new.left.isdisjoint(parts) and new.left.isdisjoint(values_of(old) - parts) \
        and said.isdisjoint(t.key for t in old.sequence if t.subject and t.key not in parts)


def _owner(read: _Read, at: int) -> str | None:
    """The key of the word or name the number at ``at`` of ``read.sequence`` stands after in its clause, past other
    numbers, signs ("=") and the word "version": what it is the number of ("node" of "Node 18" and of "Bumped Node
    from 18 to 20", "terraform" of "terraform required_version = 1.5.7"); None when none is."""
    for t in reversed(read.sequence[:at]):
        if t.clause != read.sequence[at].clause:
            return None
        if t.kind != "number" and t.key != "version" and not t.key.endswith("_version") and any(
                c.isalpha() for c in t.key):
            return t.key
    return None


def _owned(read: _Read) -> dict[str, set[str | None]]:
    """The numbers of ``read`` and what each is the number of (``_owner``)."""
    found: dict[str, set[str | None]] = {}
    for at, t in enumerate(read.sequence):
        if t.kind == "number":
            found.setdefault(t.key, set()).add(_owner(read, at))
    return found


def versioned(old: _Read, new: _Read) -> bool:
    """Whether the change ``new`` says leaves or goes to a number of a thing ``old`` names in a clause holding a
    number: a version, a count of that thing ("Terraform bumped to 1.7.0" / "pinned terraform to 1.6.2", "Kafka
    brokers bumped from 3.5 to 3.7" / "Our Kafka brokers run 3.5"; not "Kibana was upgraded from 7 to 8" / "We run
    Elasticsearch 7")."""
    owned = _owned(new)
    owners = {o for n in new.left | new.targets for o in owned.get(n, ())}
    numbered = {t.clause for t in old.sequence if t.kind == "number"}
    return any(t.key in owners and t.clause in numbered for t in old.sequence)


def leaves_held(old: _Read, new: _Read) -> bool:
    """Whether the change ``new`` says leaves or goes to a value ``old`` holds (a number only when of no thing in
    ``new``, else of a thing: :func:`versioned`): "We upgraded PostgreSQL 14 to PostgreSQL 16" after "We run
    PostgreSQL 14", not "We upgraded the laptops to macOS 14" after "We run Node 18"."""
    owned = {n for n, owners in _owned(new).items() if owners != {None}}
    return not (new.left | new.targets).isdisjoint(values_of(old) - owned) or versioned(old, new)


def another_slot(old: _Read, new: _Read, akin: bool = False) -> bool:
    """Whether the change ``new`` says is of a value in another slot than the ones ``old`` fills: ``old`` states
    values, ``new`` neither leaves nor goes to one of them, and it says it leaves a value of the kind it goes to
    ("from 8 to 12 characters" beside "Password reset emails expire after 1 hour"), or every value it goes to is of a
    kind ``old`` holds none of (with ``akin``, nor one filling the same slots: :func:`_slot_kinds`), or a number
    counting another thing (:func:`_counts_apart`: "to 12 characters" / "after 1 hour")."""
    if not values_of(old) or not (new.left | new.targets).isdisjoint(values_of(old)):
        return False
    kinds = {norm: kind for kind, found in new.values.items() for norm in found}
    went = [(norm, kinds[norm]) for norm in new.targets if norm in kinds]
    if any(kinds.get(norm) in {kind for _, kind in went} for norm in new.left - new.ended):
        return True
    held = _slot_kinds(old) if akin else set(old.values)
    return bool(went) and all(kind not in held or kind == "number" and "number" in old.values and all(
        _counts_apart(old, was, new, norm) for was in old.values["number"]) for norm, kind in went)


_YEAR = re.compile(YEAR)  # a date read alone as a year (``contradiction_tokens._calendar``: 1900-2099)


def _slot_kinds(read: _Read) -> set[str]:
    """The kinds of value ``read`` holds, and the kinds that fill the same slots as one of them: a host and a name
    (served "from cdn1.example.com" / "by Cloudflare"), a year read as a date and as a number (valid "until 2026" /
    extended "to 2028")."""
    kinds = set(read.values)
    if kinds & {"ident", "name"}:
        kinds |= {"ident", "name"}
    if any(_YEAR.fullmatch(norm) for norm in read.values.get("date", ())):
        kinds.add("number")
    return kinds


# Words saying a rule: a duty ("must be rotated") or a recurrence ("every 90 days", "each year"; not "each team").
_DUTY = frozenset("must should shall needs required".split())
_EVERY = frozenset({"every", "each"})


def thing_replaced(older: str, old: _Read, new: _Read) -> bool:
    """Whether ``new`` reports a change going to no value (none but when it happened: "The wifi password was changed
    yesterday"): it replaces the thing it names, not what ``older`` (read as ``old``) says of it when the older's
    values, if any, are all its subject's or a rule's period ("The password must be rotated every 90 days": a duty or a
    recurrence), or, where ``new`` says nothing but its subject and when, what the older states of the thing by a word
    of its predicate (:func:`_stated`: "Passwords are hashed with argon2id", "must be at least 12 characters"). "was
    changed to tiger99", "now every 60 days", "The wifi password is hunter22" (the thing itself) stay changes."""
    if new.targets or any(kind not in _WHEN_KINDS and found.keys() - new.subjects
                          for kind, found in new.values.items()):
        return False
    words = _words(older)
    periods = {NUMBER_WORDS.get(after, after) for w, after in zip(words, words[1:]) if w in _EVERY and (
        NUMBER_WORDS.get(after, after).isdigit() or stem(after) in _WHEN or MEASURES.get(stem(after)) == "time")}
    bare = all(t.subject or _dating(new.sequence, at) for at, t in enumerate(new.sequence))
    kept = periods | _stated(old) if bare else periods
    return (bool(kept) or not _DUTY.isdisjoint(words)) and values_of(old) - old.subjects <= kept


def _stated(read: _Read) -> set[str]:
    """The values and words of ``read`` right after a word of its predicate in their clause (no subject's word): what
    it states of a thing ("argon2id" of "Passwords are hashed with argon2id", "bcrypt" of "... with bcrypt", "12" of
    "at least 12 characters"), not the thing's own value ("hunter22" of "The wifi password is hunter22")."""
    sequence = read.sequence
    return {t.key for before, t in zip(sequence, sequence[1:]) if before.kind == "word"
            and not before.subject and before.clause == t.clause}


def names_more(old: _Read, new: _Read) -> bool:
    """Whether a clause of ``new`` holding change words has a word ``old`` lacks, times aside: what it changes is
    another thing ("the memory alert" beside "The disk alert fires at 90 percent")."""
    return any(t.clause in new.change_clauses and t.kind == "word" and t.key not in old.words
               and t.key not in _WHEN | _RELATIVE for t in new.sequence)


def numbered_apart(old: _Read, new: _Read) -> bool:
    """Whether every number the change ``new`` goes to is one ``old`` holds after a word ``new`` never says, where
    ``new`` holds it after a name ``old`` never says: two things at one number ("The Android app targets API level
    34" / "We switched the Android build to Gradle 34"), not one replaced ("We use Python 3.12" / "We switched to
    PyPy 3.12": a name before each)."""
    shared = [n for n in new.targets if n in old.values.get("number", {})]
    return bool(shared) and all(_before(old, n, "word", new.words) and _before(new, n, "name", old.words)
                                for n in shared)


def _before(read: _Read, value: str, kind: str, other: frozenset[str]) -> bool:
    """Whether each ``value`` of ``read`` follows a token of ``kind`` that is not among ``other``."""
    at = [i for i, t in enumerate(read.sequence) if t.key == value]
    return all(i and read.sequence[i - 1].kind == kind and read.sequence[i - 1].key not in other for i in at)


def _changes_subject(old: _Read, new: _Read, attribute: bool) -> bool:
    """Whether a clause of the newer holding change words names most words of the older's subject ("We relocated the
    office to Porto" / "The office is in Lisbon", not "The staging database is refreshed ..." / "We migrated the
    database to Postgres"), or, when a pronoun leads the older, of the things it names ("the webshop"), or a name the
    older holds ("We swapped Kong for Traefik" / "The API gateway is Kong"), or every word of the older naming the
    slot its name fills (but a bare verb, ``_BARE``) when the change goes to another name ("Packaging was migrated to
    bun" / "We use Poetry for packaging"), or the slot of a value the older holds by its attribute's noun
    (``attribute``, :func:`attribute_changed` of the pair: "The port was changed to 9090" / "The API listens on port
    8080")."""
    said = {t.key for t in new.sequence if t.clause in new.change_clauses and t.kind not in _POINT_VALUES}
    subject = {t.key for t in old.sequence if t.subject and t.kind not in _POINT_VALUES} or {
        t.key for t in old.sequence if t.kind not in _POINT_VALUES and (t.kind != "word" or t.determined)}
    names = old.values.get("name", {}).keys() - _parts(old, new)  # "GitHub" is no name "GitHub Actions" holds
    slot = {t.key for t in old.sequence if t.kind == "word" and t.shown not in _BARE}
    stems = said | {stem(t.shown) for t in new.sequence if t.clause in new.change_clauses}  # "Packaging was": a name
    return 2 * len(said & subject) > len(subject) or not said.isdisjoint(names) or bool(names) and bool(slot) \
        and slot <= stems and not new.targets <= names or attribute


def _in_order(subject: set[str], sequence: tuple[_Token, ...], head: bool = False) -> bool:
    """Whether the words of ``subject`` stand together in ``sequence`` ("the analytics replica", not "the
    analytics role ... on the ledger replica"); with ``head``, as the head of what they name there: no
    common word of a subject follows them in their clause ("the password", not "the password policy", which
    names a policy). A name counts with a word beside it ("the API gateway"), a value standing elsewhere alone not
    ("... through the API")."""
    worded = any(t.kind == "word" and t.key in subject for t in sequence)
    keys = [t.key if t.subject or t.kind == "word" or worded and t.kind == "name" else "" for t in sequence]
    size = len(subject)
    return any(set(keys[i:i + size]) == subject and not (
        head and i + size < len(sequence) and sequence[i + size].subject and sequence[i + size].kind == "word"
        and sequence[i + size - 1].subject
        and sequence[i + size].clause == sequence[i + size - 1].clause) for i in range(len(keys) - size + 1))


def _reversed(older: str, newer: str) -> str | None:
    """``reversed: tabs over spaces → spaces over tabs`` when the newer text is the older with two of its words
    exchanged across a word of order or choice (``_ORDERING``, or "from ... to"), change words ("now") aside; else
    None. The same words in another order and nothing else: no other test sees a difference."""
    a, b = ([w for w in _words(text) if w not in CHANGE_WORDS or w == "instead"] for text in (older, newer))
    if len(a) != len(b):
        return None
    apart = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(apart) != 2:
        return None
    i, j = apart
    if a[i] != b[j] or a[j] != b[i] or a[i] in STOP or a[j] in STOP:
        return None
    between = a[i + 1:j]
    if not (_ORDERING & set(between) or ("to" in between and "from" in a[max(0, i - 2):i])):
        return None
    return f"reversed: {' '.join(a[i:j + 1])} → {' '.join(b[i:j + 1])}"


@lru_cache(maxsize=4096)
def _parallel(older: str, newer: str) -> bool:
    """Whether two texts are worded in parallel (``PARALLEL``; two of at most ``SHORT`` words: their
    content words, values by type, half alike): only then does a word one replaces tell their
    subjects apart; a restatement in other words keeps the value test alone."""
    a, b = (_words(text) for text in (older, newer))
    if _alike(a, b, PARALLEL):
        return True
    if max(len(a), len(b)) > SHORT:
        return False
    kinds = ([t.key if t.kind == "word" else t.kind for t in _read(text).sequence] for text in (older, newer))
    return _alike(*kinds, 0.5)


def _alike(a: list[str], b: list[str], least: float) -> bool:
    """Whether ``SequenceMatcher(None, a, b, autojunk=False).ratio()`` is ``least`` or more; its bounds from above
    (``real_quick_ratio``, ``quick_ratio``: the same 2 * matches / total, matches counted without order) first, as
    difflib's documentation suggests, so most pairs are told apart without an alignment."""
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.real_quick_ratio() >= least and matcher.quick_ratio() >= least and matcher.ratio() >= least


def _numbered_apart(old: _Read, new: _Read, old_words: list[str], new_words: list[str]) -> bool:
    """Whether two texts are about two numbered subjects, not a change of one: the label right after both texts'
    first words differs ("Service 28", "On floor 4", "Host web-01", "Worker pool A"), and each gives it a value
    of its own after it ("... port 9028" / "... 9029"), or it is a whole number not led by a pronoun or verb that
    ends its clause ("Minor style note 0: ..."), or precedes a stop word but a verb ("note number 1 about") or a
    verb in "-s" and its object ("Module 3 uses f-strings"). Still a change: "Postgres 15" → "Postgres 16 is
    used", "We are on step 4", "Keep 3 replicas". ``*_words``: each text's ``_words``."""
    a, b = old.sequence, new.sequence
    at = next((i for i, t in enumerate(a[:4]) if t.kind != "word"), 0)  # the label's value: after its words
    if not at or min(len(a), len(b)) <= at + 1 or [t.key for t in a[:at]] != [t.key for t in b[:at]]:
        return False
    named = True  # a whole number ending its clause, or followed by a stop word or a verb and its object
    for side, words in ((a, old_words), (b, new_words)):  # the label's words and number lead the text
        lead = next((i for i, word in enumerate(words) if word not in STOP), len(words))  # "The", "On"
        if words[lead:lead + at + 1] != [t.shown for t in side[:at + 1]]:
            return False
        after = words[lead + at + 1:lead + at + 3] + ["", ""]
        named = named and side[at].key.isdigit() and (VERBS | PRONOUNS).isdisjoint(words[:lead]) and (
            side[at + 1].clause != side[at].clause or after[0] in STOP and after[0] not in VERBS
            or after[0].endswith("s") and after[0] not in STOP and after[1][:1].isalpha()
            and (after[1] not in STOP or after[1] in DETERMINERS))
    label = a[at].kind == b[at].kind and a[at].key != b[at].key and (
        a[at].kind in ("number", "ident") or a[at].kind == "name" and all(  # "Pool A", "Phase II" (``query.LABEL``)
            LABEL.fullmatch(side[at].key.upper()) for side in (a, b)))
    valued = all(any(t.kind != "word" for t in side[at + 1:]) for side in (a, b))
    return label and a[at].clause == b[at].clause == 0 and (valued or named)


def _announced(old: _Read, new: _Read) -> bool:
    """Whether every value of the newer text, or every value its change goes to (``_Read.targets``), is one the older
    already names: its change words report what the older planned or did ("Decided to migrate the staging database to
    stg-db-07" / "The staging database is now stg-db-07.lan"), not a value replaced."""
    was = values_of(old)
    held = {t.key for t in old.sequence if not t.subject}  # "to the afternoon" after "The standup is in the afternoon"
    if _replaces(old, new):  # "We replaced Poetry with uv" after "We use Poetry"
        return False
    # a hand-over of what another owner holds, to a name the older says elsewhere: "Ownership of the API gateway went
    # to Nils" after "Nils' colleague Anna owns the API gateway"
    if any(owners and held <= new.handed and owners.isdisjoint(new.targets) for owners, held, plain in old.owned
           if plain):
        return False
    now = values_of(new) - new.subjects  # "The API now uses gRPC": the API is what changed

    def named(values: set[str] | frozenset[str], said: set[str] | frozenset[str]) -> bool:
        return bool(values) and all(v in said or any(_same_host(v, w) for w in was) for v in values)

    # or where the change goes ("We moved CI from Jenkins to GitHub Actions" after "Our CI runs on
    # GitHub Actions": what it left is no value it states; "... to the afternoon": a word it says)
    return named(now, was) or named(new.targets, was | held)


def _agreeing_not(old: _Read, new: _Read) -> str | None:
    """A value changed in its slot, a state swapped for its opposite, or a negation (see ``disagreement``)."""
    changed = _changed_value(old, new)
    if changed is not None:
        return changed
    old_states = dict(old.states)
    held = {_SAME_STATE.get(w, w) for _, w in old.states}
    for group, word in new.states:
        if group in old_states and _SAME_STATE.get(word, word) not in held:
            return f"opposite state: {old_states[group]} → {word}"
    # One text denies, the other does not; or only one denies outright and the other only rejects an alternative ("Use
    # pnpm, not npm" / "We do not use pnpm"). Or the newer ends a name the older holds and does not deny: "We ditched
    # CircleCI for Buildkite" after "We ditched Jenkins for CircleCI".
    outright = [bool(read.negated - read.contrasted) for read in (old, new)]
    # An end of a name the older holds shares that name, even one written as an identifier ("socket.io").
    ends = _ends_held(old, new)
    if (bool(old.negated) != bool(new.negated) or outright[0] != outright[1] or ends) \
            and (ends or not _named_apart(old, new)):
        for negated, plain in ((new, old), (old, new)):
            hit = sorted(negated.negated & (plain.words - plain.negated))
            if hit and not _object_denied(negated, plain, hit):
                continue
            if hit:  # as written, not its stem ("not coffee", not "not coffe"; "rather than spaces")
                return "negation: " + dict(reversed(negated.denials))[hit[0]]
    return None


def _ends_held(old: _Read, new: _Read) -> bool:
    """Whether ``new`` ends a name ``old`` holds and denies none of: "We retired Jenkins" after "Our CI runs on
    Jenkins", or "We ditched CircleCI for Buildkite" after "We ditched Jenkins for CircleCI"."""
    return not new.ended.isdisjoint(old.words) and new.ended.isdisjoint(old.negated)


def _moves_on(old: _Read, new: _Read) -> str | None:
    """``moved on: salt → pulumi`` when the older is a change and the newer leaves where it went (``_Read.left``)
    for another value, saying nothing else the older lacks: "We moved from Ansible to Salt" / "We dropped Salt for
    Pulumi", "We migrated ... to PostgreSQL 14" / "We upgraded PostgreSQL 14 to PostgreSQL 16"; not "We moved the
    docs from Salt to GitHub" (docs: another subject). None otherwise."""
    went = old.targets | (values_of(old) & old.spoken) - old.ended
    gone = new.left & went
    if not gone:
        return None
    clauses = {t.clause for t in new.sequence if t.key in gone}
    said = [(at, t) for at, t in enumerate(new.sequence) if t.clause in clauses]
    to = sorted(new.targets - new.left - went or {t.key for _, t in said if t.kind != "word" and t.key not in new.left
                                                  and t.key not in went and t.kind not in _WHEN_KINDS})
    other = [t for at, t in said if t.kind == "word" and t.key not in old.words and t.key not in new.spoken
             and t.key != "back" and not _dating(new.sequence, at)]  # "We moved back from Salt to Ansible"
    return None if not to or other else f"moved on: {', '.join(sorted(gone - new.targets))} → {', '.join(to)}"


def _object_denied(negated: _Read, plain: _Read, hit: list[str]) -> bool:
    """Whether a denial hits ``plain`` where it says it: on a word it denies itself, or on the object
    of a verb it denies or a name it ends ("We are not using Poetry" / "We use Poetry", "We retired Jenkins"
    / "Our CI runs on Jenkins") when ``plain`` holds that object and the denial says nothing else ``plain``
    lacks but its own words and what replaces the name ("We ditched Jenkins for CircleCI"; not "We don't use
    Jenkins for deploys", nor "We don't use Poetry for scripts" beside "We use Poetry for packaging")."""
    # a practice's end denies the practice as the older does it: "We stopped sending the monthly report" is no end of
    # "We send a weekly newsletter"
    verbs = {verb for verb, _ in negated.reached} | negated.practices
    objects = {held for _, held in negated.reached} | negated.practices
    # a denial beside a value whose place ``plain`` fills with another of its kind denies none of it ("We never
    # deploy on Friday" / "We deploy on Tuesday")
    clauses = {t.clause for t in negated.sequence if t.key in hit}
    beside = [t for t in negated.sequence if t.clause in clauses and t.kind != "word"]
    if beside and all(t.key not in plain.words and any(u.kind == t.kind and u.key not in negated.words
                                                       for u in plain.sequence) for t in beside):
        return False
    # so does one beside a period ``plain`` says another of ("We discontinued the monthly report" / "We send a weekly
    # report")
    periods = {t.key for t in negated.sequence if t.clause in clauses and t.key in _PERIODIC}
    if periods and periods.isdisjoint(plain.words) and not _PERIODIC.isdisjoint(plain.words - negated.words):
        return False
    if not set(hit) <= verbs | objects:
        return True
    # of a denial in one short statement, its clause: "We no longer use Sentry; errors go to Rollbar", "We dropped iOS
    # 15 support; the app supports iOS 16 and 17" (a chat turn: all its words)
    short = len(negated.sequence) <= 2 * SHORT
    clauses = {t.clause for t in negated.sequence if t.key in objects or not short}
    sequence = negated.sequence
    return objects <= plain.words and all(t.key in plain.words or t.key in negated.spoken or _dating(sequence, at)
                                          for at, t in enumerate(sequence) if t.clause in clauses)


def _dating(sequence: tuple[_Token, ...], at: int) -> bool:
    """Whether ``sequence[at]`` dates what its text says rather than adding to it: a date, day, month or time,
    a word of a relative time, or a number before one ("We retired Jenkins last month / two weeks ago / on
    2026-10-01")."""
    token = sequence[at]
    if token.kind == "number":
        return at + 1 < len(sequence) and sequence[at + 1].key in _WHEN | _RELATIVE
    return token.kind in _WHEN_KINDS or token.kind == "word" and token.key in _WHEN | _RELATIVE


def _named_apart(old: _Read, new: _Read) -> bool:
    """Whether both texts name someone or something and share no name: "Bob doesn't own the billing
    service" denies nothing "Alice owns the billing service" states."""
    a, b = old.values.get("name", {}).keys(), new.values.get("name", {}).keys()
    return bool(a) and bool(b) and a.isdisjoint(b)
