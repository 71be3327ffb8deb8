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
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import NamedTuple

from . import dating
from .config_blocks import configure_other_things
from .query import PASSIVE
from .spellings import one_way

# One character class repeated: linear in the text's length.
_TOKEN = re.compile(r"[^\s;()\[\]{}\"“”!?]+|[;!?]")
_EDGE = ".,:'’\"*`…™®~"  # trial 54 #6: "ArgoCD…", "ArgoCD™" were another name than "ArgoCD"
_CLOCK = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?(am|pm|a\.m|p\.m)?")
_HOUR = re.compile(r"(\d{1,2})h(\d{2})?")
_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|\d{4}/\d{1,2}/\d{1,2}"
                   r"|(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?:19|20)\d\d")  # "20.12.2026", "2026/12/20"
_NUMBER = re.compile(r"v?(\d{1,3}(?:,\d{3})+|\d+)((?:\.\d+)*)(%?)([a-z]{0,3})")
_DIGIT = re.compile(r"\d")
# A base64 run (a key's or a certificate's body, a random token) or an armour checksum ("=+6Im"): no word
# or value whose swap is a change, when of mixed case with digits (lowercase hex stays a value: a commit id).
_BLOB = re.compile(r"=[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{20,}={0,2}")
_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
# An OpenSSH key's type ("ssh-ed25519", "ecdsa-sha2-nistp256", "sk-ssh-ed25519@openssh.com").
_KEY_TYPE = re.compile(r"(?i)(?:sk-)?(?:(?:ssh-)?(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d{3}|rsa-sha2-\d{3})"
                       r"(?:-cert-v0\d)?(?:@openssh\.com)?")
_LETTER = re.compile(r"[^\W\d_]")
_MERIDIEM = {"am": "am", "pm": "pm", "a.m": "am", "p.m": "pm"}
# Words whose full stop ends no sentence (a title, a company's form, Latin); consolidation's first sentences too.
ABBREVIATIONS = frozenset({"dr.", "mr.", "mrs.", "ms.", "prof.", "st.", "mt.", "jr.", "sr.", "inc.", "corp.", "ltd.",
                           "e.g.", "i.e.", "vs.", "etc.", "approx.", "cf.", "al."})
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Days in the other languages whose words the test reads (French, German, Spanish), as English's.
_DAY_WORDS = dict(zip("""lundi mardi mercredi jeudi vendredi samedi dimanche montag dienstag mittwoch donnerstag freitag
samstag sonntag lunes martes miércoles jueves viernes sábado domingo""".split(), DAYS * 3))
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")
_MONTH_SHORT = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split())
_ORDINAL = frozenset({"st", "nd", "rd", "th"})
_DAY_MONTH = re.compile(r"(\d{1,2})[/.-](\d{1,2})")  # "20/12", "12/20", "12-20": a day and month
_DATED_BY = frozenset("on since until till by from before after".split())
_YEAR_BY = _DATED_BY | {"in"}  # "due in 2027", "by 2028": a year alone
_CURRENCY = "$€£¥"
# Opposite states: a word of a group in each text, a different one.
STATES = ({"enabled", "disabled"}, {"open", "closed"}, {"optional", "required", "mandatory"},
          {"allowed", "forbidden", "banned"}, {"public", "private"}, {"active", "inactive"},
          {"online", "offline"}, {"resolved", "unresolved"}, {"available", "unavailable"},
          {"passing", "failing"}, {"healthy", "unhealthy"}, {"approved", "rejected"}, {"true", "false"},
          {"supported", "unsupported", "deprecated"}, {"locked", "unlocked"}, {"paid", "unpaid"},
          {"frozen", "lifted"}, {"paused", "resumed"}, {"blocked", "unblocked"}, {"suspended", "reinstated"})
# Words saying a state of a group in other words: "off" is "disabled", "unfrozen" "lifted" ("on" only
# ending its clause: "the flag is on", not "on Friday").
_SAME_STATE = {"off": "disabled", "on": "enabled", "unfrozen": "lifted", "thawed": "lifted"}
_SWITCHED = frozenset("is are was were turned switched set stays remains now still".split())  # before "on"/"off"
_STATE_GROUP = {word: i for i, group in enumerate(STATES) for word in group}
_STATE_GROUP |= {word: _STATE_GROUP[same] for word, same in _SAME_STATE.items()}
NEGATIONS = frozenset({"not", "no", "never", "none", "nothing", "nobody", "cannot", "avoid", "avoids"})
CHANGE_WORDS = frozenset({"now", "moved", "switched", "changed", "instead", "anymore", "replaced", "migrated",
                          "renamed", "nowadays", "relocated", "rewritten", "rewrote", "ported",
                          "swapped", "reassigned"})
# Change verbs whose object, or passive subject, is what the change left ("Jenkins was replaced by GitHub
# Actions", "GitHub Actions replaced Jenkins", "We swapped Kong for Traefik"; ``query.PASSIVE`` before them).
REPLACING = frozenset({"replaced", "swapped"})
# "X instead of Y", "X rather than Y" deny Y as "X, not Y" does ("We use pnpm instead of npm" agrees
# with "we use pnpm, never npm").
_CONTRASTS = {"instead": "of", "rather": "than"}
_CONTRAST_NOT = frozenset({"not", "never"})  # after a comma and what it contrasts: "Use pnpm, not npm"
CHANGE_PHRASES = (("no", "longer"), ("from", "now", "on"), ("any", "more"), ("these", "days"), ("took", "over"),
                  ("taken", "over"), ("handed", "over"), ("takes", "over"), ("in", "favour", "of"),
                  ("in", "favor", "of"), ("is", "back", "from"), ("are", "back", "from"))
# Change verbs whose particle may follow their object ("Priya handed the platform team over to Jonas", "Ana
# started eating fish again"): the particle within ``_PARTICLE_GAP`` words after the verb, in one short
# statement (``brief``; a chat turn's "started ... again" tells a story: bench/contradiction_alarms.py).
SPLIT_PHRASES = {"handed": "over", "took": "over", "taken": "over", "takes": "over", "started": "again",
                 "starts": "again", "began": "again"}
_PARTICLE_GAP = 5
# Phrases dating a change when they open the text ("As of this week the lead is Priya"); later in it they
# date a state ("three refills left as of March").
OPENING_CHANGE_PHRASES = (("as", "of"), ("starting", "from"), ("effective",))
_PHRASE_STARTS = frozenset(p[0] for p in CHANGE_PHRASES + OPENING_CHANGE_PHRASES) | frozenset(SPLIT_PHRASES)
# Change words telling when rather than what changed ("now", "these days"): no evidence beyond the cosine gates.
_WHEN_CHANGED = frozenset({"now", "instead", "anymore", "nowadays", "no longer", "from now on", "any more",
                           "these days", "as of", "starting from", "effective"})
_ENDED = frozenset({"anymore", "any more", "no longer"})  # change words saying a denial has begun
# Verbs ending the name after them, or before them in the passive ("We retired Jenkins", "We ditched Jenkins for
# CircleCI", "PagerDuty was sunset"), some only with their particle ("stopped using", "moved off", "phased out"):
# read as a denial of the name from then on (``_ending``).
ENDING = REPLACING | frozenset("""retired dropped ditched abandoned decommissioned sunset sunsetted scrapped dumped
discontinued deprecated removed killed quit cancelled canceled uninstalled axed""".split())
ENDING_PHRASES = (("stopped", "using"), ("stopped", "paying", "for"), ("quit", "using"), ("moved", "off"),
                  ("moved", "away", "from"), ("switched", "away", "from"), ("migrated", "off"),
                  ("migrated", "away", "from"), ("phased", "out"), ("got", "rid", "of"), ("gotten", "rid", "of"),
                  ("shut", "down"), ("turned", "off"), ("switched", "off"), ("no", "longer", "use"),
                  ("no", "longer", "using"), ("no", "more"))
_ENDING_FROM: dict[str, tuple[tuple[str, ...], ...]] = {  # ENDING_PHRASES by first word, in order: a word is
    first: tuple(p for p in ENDING_PHRASES if p[0] == first) for first, *_ in ENDING_PHRASES}  # tried on its own
# Verbs ending the name after them only when what replaces it follows ("We left Jenkins for Buildkite"; not "We
# left Jenkins running").
_ENDING_FOR = frozenset({"left", "traded"})
_PARTICLES = {"phased": "out", "shut": "down", "turned": "off", "switched": "off"}
_PASSIVE_ENDING = ENDING | frozenset(_PARTICLES)  # "Jenkins was phased out"
# Predicates ending the name before them after a form of "be" or "got", as a participle of ``_PASSIVE_ENDING``
# does: "Jenkins is no longer used", "PagerDuty is gone", "Jenkins got the axe" (trial verify62 N1).
_PASSIVE_PHRASES = (("gone",), ("the", "axe"), ("the", "ax"), ("the", "boot"), ("the", "chop"),
                    ("no", "longer", "used"), ("no", "longer", "needed"), ("no", "longer", "supported"),
                    ("no", "longer", "maintained"), ("no", "longer", "in", "use"))
# Beside an end, words saying the name whole: what it is held as ("We cancelled our PagerDuty subscription") and,
# after "from", what holds every tool ("Vault was removed from the stack"; not "from the staging cluster").
_HELD_AS = frozenset("subscription subscriptions account accounts plan plans contract contracts license licence "
                     "licenses seats".split())
_WHOLE = frozenset("stack setup infrastructure infra toolchain tooling".split())
_AUXILIARIES = frozenset("is are was were has have had been being got gets now finally officially".split())
_BE = frozenset("is are was were been being got gets".split())  # one makes a passive: not "Alice has retired"
ADDITION_WORDS = frozenset({"also", "too", "additionally", "addition", "plus"})
STOP = frozenset("""a an the is are was were be been being am has have had do does did to of in on at for from by
with and or but as it its this that these those there here we our us i my me you your he she his her they their
them who which what when where how per each every all any some about after before into onto than then so if will
would should can could may might must just very more most up out set get gets got via until since one while
during""".split())
NUMBER_WORDS = {word: str(n) for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
NUMBER_WORDS |= {"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "hundred": "100", "dozen": "12"}
# Where the subject of a clause ends and what it says of it begins ("The staging cluster | has 4 nodes").
VERBS = frozenset("is are was were be been am has have had do does did will would shall should can could may "
                  "might must".split())
PRONOUNS = frozenset("i we you he she they it".split())
# A pronoun and its verb in one word ("we've", "they’re"): it may lead an ending verb as "we have" does (``_ending``).
_CONTRACTED = re.compile(r"^(?:i|we|you|he|she|they|it)['’](?:ve|re|d|ll|m|s)$")
DETERMINERS = frozenset("the my our your his her their its this that these those".split())
CLAUSE_WORDS = frozenset({"and", "but", "while", "whereas", "so"})
# A list marker opening a line: "-", "*", "•", "1.", "2)".
_BULLET = re.compile(r"[-*•·–—+>]|\d{1,3}[.)]")
# Capitalised words opening a sentence that are never read as names, even before "is" (``_names_at``).
NOT_NAMES = STOP | DETERMINERS | PRONOUNS | CLAUSE_WORDS | NEGATIONS | frozenset(NUMBER_WORDS) | frozenset(
    DAYS) | frozenset(MONTHS) | frozenset("""today yesterday tomorrow tonight now currently recently lately
    everything nothing something anything everyone everybody someone somebody anyone anybody nobody another both
    either neither such also still again here there please""".split())
# Verbs whose object is what a name before them holds ("Alice owns the billing service"; also "Jonas
# Berg is the release manager"): that object is the subject, the name the value in its slot.
OWNING = frozenset("""owns owned leads manages managed heads chairs maintains oversees supervises
coordinates""".split())
# Verbs of state or ownership after which a capitalised word opening a sentence is a name ("Alice owns").
NAME_VERBS = OWNING | REPLACING | {"is", "was", "has", "took"}  # "took": "Bruno took over as CTO"
# Words between a name and its verb: "Bob now owns", "Alice also leads" (not "replaced": "Jenkins replaced X").
_BEFORE_VERB = (CHANGE_WORDS - REPLACING) | ADDITION_WORDS | {"still", "currently"}
# An owner's slot holds one name only in a plain present statement: "owned", "managed" and "was the"
# tell the past; a sentence with one of ``HEDGES``, a negation, an addition ("too", "as well") or a
# question mark supposes, denies, adds or asks ("If Bob owns the billing service, ask him").
PAST_OWNING = frozenset({"owned", "managed", "was"})
HEDGES = frozenset("""if unless whether when whenever maybe perhaps probably suppose supposing assuming
might could would should""".split())
# Passive ownership: "The billing service is (now) owned by Bob".
PASSIVE_OWNING = frozenset("owned managed led maintained headed chaired overseen supervised coordinated run".split())
NAME_PARTICLES = frozenset("de da di del della der den van von la le du dos das ter ten bin ibn al".split())
_POINT_VALUES = frozenset({"number", "time", "date"})  # values that never name a subject
ALIGNED = 64  # words of each text aligned at most (difflib is quadratic at worst: 300 took 1.2 s)
# Word-for-word likeness (difflib ratio) from which two texts are read as parallel: the pairs of two
# subjects written for bench/contradiction_pairs.py are at 0.36-0.86, the agentic set's restated
# changes at 0.04-0.32 (one at 0.48): bench/contradiction_alarms.py, docs/benchmarks.md.
PARALLEL = 0.35
SHORT = 8  # words of a one-line memory ("We use Python 3.11" / "Drop Python 3.9")
STRONG_SUBJECT = 0.45  # cosine enough for a strong disagreement (bench/contradiction_pairs.py)
CHANGED_SUBJECT = 0.3  # cosine enough for change words on the older's subject (``judge``; docs/benchmarks.md)
# Cosine enough for one name slot refilled in two texts of at most ``TINY`` words ("We install with pip" / "... uv"),
# whose vectors are mostly their names' (docs/benchmarks.md, issue 27 §2).
REFILLED_SUBJECT = 0.2
TINY = 6
# Value types whose one-for-one swap is a change even without a shared neighbour word;
# a number needs one ("4 nodes" → "6 nodes", not "4 nodes" → "36 hours").
_SWAPPABLE = frozenset({"time", "day", "month", "date", "ident", "path", "name"})
_ANCHORING = frozenset({"name", "day", "month"})  # values that also name a slot for their neighbours
_NO_SLOT = frozenset("under over above below within through till around across along among between behind beyond"
                     " near".split())  # content words (not in ``STOP``) naming no value's slot (``_read``)


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
    owned: tuple[tuple[frozenset[str], frozenset[str], bool], ...] = ()
    adding: frozenset[str] = frozenset()  # values in a clause with a verb of ``ADDING`` or "also", "too"
    contrasted: frozenset[str] = frozenset()  # of ``negated``, those after "instead of", "rather than"
    denials: tuple[tuple[str, str], ...] = ()  # of ``negated``: (key, as written: "rather than spaces")
    targets: frozenset[str] = frozenset()  # values a change goes to: "moved CI from Jenkins to GitHub Actions"
    chosen: frozenset[str] = frozenset()  # what a contrast keeps: "pnpm" of "Use pnpm, not npm" (``contrasted``)
    reached: frozenset[tuple[str, str]] = frozenset()  # of ``negated``, (verb, its object): "not using Poetry"
    ended: frozenset[str] = frozenset()  # names it says have ended: "We retired Jenkins", "no longer use uv"
    spoken: frozenset[str] = frozenset()  # the words of its denials and ends, and the names replacing what ended


# Tools' names written in lower case, read as names where a name stands (``_name_slot``).
LOWER_NAMES = frozenset("""uv pip pipx npm pnpm yarn bun deno make cmake ninja bazel conda mamba poetry tox nox pytest
ruff black mypy pyright eslint prettier biome webpack vite esbuild rollup nginx caddy git kubectl helm""".split())
_NAME_SLOT = frozenset("use uses using used with via on by replaced swapped".split())


_OBJECTS = PRONOUNS | DETERMINERS | {"a", "an", "me", "us", "him", "them", "some", "more"}  # "to make it", "to make a"


def _moving(tokens: tuple[tuple[str, bool, bool, bool, bool], ...]) -> bool:
    """Whether a text says a change with a verb ("moved", "switched": ``CHANGE_WORDS`` but those telling when)."""
    return any(t[0].lower() in CHANGE_WORDS and t[0].lower() not in _WHEN_CHANGED for t in tokens)


def _ending_verb(tokens: tuple[tuple[str, bool, bool, bool, bool], ...]) -> bool:
    """Whether a text holds a verb ending a name (``ENDING``, ``_ENDING_FOR``: "We ditched npm for yarn")."""
    return any(t[0].lower() in ENDING or t[0].lower() in _ENDING_FOR for t in tokens)


def _name_slot(tokens: tuple[tuple[str, bool, bool, bool, bool], ...], at: int) -> bool:
    """Whether the word at ``at`` stands where a name does: after a form of "use" or a word of ``_NAME_SLOT``
    ("We use uv daily", "Packaging is done with uv"), after "to" or "from" in a text with a change verb
    (``_moving``) or after a contrast ("instead of npm", "not npm"), ending its clause or before a stop word
    but an object ("We switched from npm to pnpm"; not "to make sure", "moved on to make a difference"), or
    opening a sentence before a verb of ``NAME_VERBS`` or ``query.PASSIVE`` ("pip was replaced by uv"); after an
    ending verb and determiners ("We cancelled our npm subscription") or after "for", "with" in a text with one ("We
    ditched npm for yarn")."""
    before = tokens[at - 1][0].lower() if at else ""
    verb = next((tokens[k][0].lower() for k in range(at - 1, -1, -1) if tokens[k][0].lower() not in DETERMINERS), "")
    after = tokens[at + 1][0].lower() if at + 1 < len(tokens) else ""
    if tokens[at][1]:
        return after in NAME_VERBS or after in PASSIVE
    contrast = before in ("not", "never", "than") or before == "of" and tokens[at - 2][0].lower() in _CONTRASTS
    return before in _NAME_SLOT or _ended_slot(tokens, at) or (
        contrast or before in ("to", "from") and _moving(tokens) or _replacing_slot(tokens, at)) and _closing(tokens, at)


def _ended_slot(tokens: tuple[tuple[str, bool, bool, bool, bool], ...], at: int) -> bool:
    """Whether the word at ``at`` stands right after an ending verb and determiners ("We retired pip", "stopped
    using npm", "We cancelled our npm subscription")."""
    verb = next((tokens[k][0].lower() for k in range(at - 1, -1, -1) if tokens[k][0].lower() not in DETERMINERS), "")
    return verb in ENDING or verb in _ENDING_FOR or any(
        tuple(t[0].lower() for t in tokens[max(0, at - len(p)):at]) == p for p in ENDING_PHRASES)


def _replacing_slot(tokens: tuple[tuple[str, bool, bool, bool, bool], ...], at: int) -> bool:
    """Whether the word at ``at`` stands after "for", "with", "by" or "in favour of" in a text with an ending
    verb ("We ditched npm for yarn", "We replaced npm by yarn")."""
    before = tokens[at - 1][0].lower() if at else ""
    return (before in ("for", "with", "by") or before == "of" and at > 1
            and tokens[at - 2][0].lower() in ("favour", "favor")) and _ending_verb(tokens)


def _lower_name(tokens: tuple[tuple[str, bool, bool, bool, bool], ...], at: int) -> bool:
    """Whether the lower-case word at ``at`` is read as a name where a change ends one or names what replaces
    it (:func:`_ended_slot`, :func:`_replacing_slot`), ending its clause or before a stop word as a name there
    does: "We dropped pagerduty for opsgenie", "We retired jenkins" read as their capitalised forms (trial
    verify63 N6); no stop word, pronoun or determiner ("We ditched it for yarn")."""
    raw = tokens[at][0]
    return _LOWER_WORD.fullmatch(raw) is not None and raw not in STOP and raw not in _OBJECTS \
        and (_ended_slot(tokens, at) or _replacing_slot(tokens, at)) and _closing(tokens, at)


_LOWER_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")  # "opsgenie", "pre-commit"


def _closing(tokens: tuple[tuple[str, bool, bool, bool, bool], ...], at: int) -> bool:
    """Whether the word at ``at`` ends its clause or stands before a stop word but an object ("to make sure")."""
    after = tokens[at + 1][0].lower() if at + 1 < len(tokens) else ""
    return tokens[at][3] or not after or after in STOP and after not in _OBJECTS


# Words naming a group, a place or a product line: the word right before one names which ("the search
# team", "the us cluster"; ``siblings`` too).
HEADS = frozenset("team teams squad department region office branch app application cluster service repo"
                  " repository account plan tier".split())


# Regions: one right after the first word of a clause with no verb stands in its subject ("Support for
# APAC closes at 5pm" / "Support for EMEA ...": two subjects); ``siblings`` reads them as alternatives.
REGIONS = frozenset(("eu", "us", "uk", "emea", "apac", "amer", "latam"))


def region_us(before: str, after: str) -> bool:
    """Whether a lower-case "us" between the words ``before`` and ``after`` (lowercase) names the region,
    not the pronoun: after a determiner or before a word of ``HEADS`` ("the us cluster", "us region")."""
    return before in DETERMINERS or before in ("a", "an") or after in HEADS or after[:-1] in HEADS


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A crude stem of a lowercase word: "deploys", "deploying", "deployed" → "deploy"."""
    for suffix, keep, replace in (("ies", 4, "y"), ("ing", 5, ""), ("ed", 4, ""), ("es", 4, ""), ("s", 3, "")):
        if word.endswith(suffix) and len(word) > keep and not word.endswith("ss"):
            word = word[: -len(suffix)] + replace
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


# Verbs that add rather than replace: one speaks French and German, meets Bob and Carol. A name in a
# clause holding one is no value in a single-valued slot. Forms as written ("reviews", "plays" are nouns
# too; "called" renames: "The service is called Helix").
ADDING = frozenset("""speak speaks spoke know knows knew visited met meet meets emailed messaged pinged phoned
texted thanked reviewed like likes liked love loves loved enjoy enjoys enjoyed learned learns studied played
watched mentioned helped contacted invited interviewed hired trained mentored saw sees joined""".split())


def _clock(token: str, meridiem: str | None) -> str | None:
    """``token`` as a time "HH:MM" (``meridiem`` "am"/"pm" from the next word), else None."""
    match = _CLOCK.fullmatch(token)
    hour = _HOUR.fullmatch(token)  # French "14h", "9h30"
    if hour is not None and int(hour[1]) <= 23 and int(hour[2] or 0) <= 59:
        return f"{int(hour[1]):02d}:{hour[2] or '00'}"
    if match is None:
        return None
    hours, minutes, suffix = int(match[1]), match[2], _MERIDIEM.get(match[3] or "") or meridiem
    if suffix is None and (minutes is None or ":" not in token):
        return None  # "9.15" or "9" alone: a number
    if hours > 23 or (suffix and not 1 <= hours <= 12) or int(minutes or 0) > 59:
        return None
    if suffix:
        hours = hours % 12 + (12 if suffix == "pm" else 0)
    return f"{hours:02d}:{minutes or '00'}"


_CLOCK_WORDS = {"midnight": "00:00", "noon": "12:00", "midday": "12:00"}


def _value(raw: str, lower: str, meridiem: str | None, initial: bool) -> tuple[str, str, str | None] | None:
    """(type, normal form, unit word) of a token that states a value, else None."""
    if lower in NUMBER_WORDS:
        return "number", NUMBER_WORDS[lower], None
    if lower in _CLOCK_WORDS:  # "at midnight" / "at 2am": two times
        return "time", _CLOCK_WORDS[lower], None
    if raw.isalpha():
        return _word_value(raw, lower, initial)
    if "-" in lower and lower.count("-") == 1 and ":" in lower:
        parts = [_clock(p, meridiem) for p in lower.split("-")]
        if all(parts):
            return "time", "-".join(parts), None  # type: ignore[arg-type]
    time = _clock(lower, meridiem)
    if time is not None:
        return "time", time, None
    if _DATE.fullmatch(lower):
        return "date", lower, None
    number = _NUMBER.fullmatch(lower.strip(_CURRENCY)) if lower[:1] in _CURRENCY or lower[-1:] in _CURRENCY \
        else _NUMBER.fullmatch(lower)  # "$20", "20€": an amount, as "20 euros" is
    if number is not None and (not number[4] or not number[2]):
        return "number", number[1].replace(",", "") + number[2] + number[3], number[4] or None
    if lower.startswith(("/", "~/", "./")) or "://" in lower or lower.count("/") >= 2:
        return "path", lower, None
    if _KEY_TYPE.fullmatch(lower):  # "ssh-rsa" → "ssh-ed25519": no host or name
        return "key", lower, None
    named = _word_value(raw, lower, initial)
    if named is not None:
        return named
    if _DIGIT.search(lower) or ("." in lower.strip(".") and _LETTER.search(lower)):
        return "ident", lower, None
    return None


def _blob(raw: str, after_one: bool) -> bool:
    """Whether ``raw`` is a base64 run or an armour checksum (``_BLOB``), or, ``after_one``, the short
    last line of a key's body ("YyrU0b6hPJiPrVrM")."""
    if after_one and _BASE64.fullmatch(raw):
        return not raw.isalpha() or len(raw) >= 8 and raw[1:] != raw[1:].lower()
    return _BLOB.fullmatch(raw) is not None and (raw[0] == "=" or bool(_DIGIT.search(raw))
                                                 and raw.upper() != raw != raw.lower())


# Where a sentence ends for ``_keys`` (not at ":": "Deploy key for web-01: ssh-ed25519 AAAA..." is one).
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n")


@lru_cache(maxsize=1024)
def _keys(text: str) -> frozenset[str]:
    """The key bodies ``text`` holds: its base64 runs (``_blob``) of 40 characters or more (a 32-byte key's is 44)."""
    return frozenset(token for token in (raw.strip(_EDGE) for raw in _TOKEN.findall(text))
                     if len(token) >= 40 and _blob(token, False))


def _word_value(raw: str, lower: str, initial: bool) -> tuple[str, str, None] | None:
    """A day, month or name (a capitalised word not opening a sentence, but "I", "I'm", "I'd"; a short
    all-capitals word, a single letter too)."""
    bare = _DAY_WORDS.get(lower) or _DAY_WORDS.get(lower.rstrip("s")) or lower.rstrip("s")
    if bare in DAYS:
        return "day", bare, None
    if lower in MONTHS and raw[0].isupper():
        return "month", lower, None
    if raw[0].isupper() and not initial and (not raw.isupper() or len(raw) <= 6 and raw.isalpha()) \
            and raw != "I" and not lower.startswith(("i'", "i’")):  # "pool A" / "pool B": a label's letter
        return "name", lower, None
    return None


@lru_cache(maxsize=2048)
def _tokens(text: str) -> tuple[tuple[str, bool, bool, bool, bool], ...]:
    """(token, opens a sentence, was possessive, ends a clause, a question mark follows) in order, edge
    punctuation removed; "9,800" stays one token. A line opens a sentence, and a list marker opening
    it ("-", "*", "•", "1.") is no token. Cached: a text's names, reading and words each start here."""
    out: list[tuple[str, bool, bool, bool, bool]] = []
    initial = True
    end = 0
    for match in _TOKEN.finditer(text):
        raw = match.group()
        line_start = match.start() == 0 or "\n" in text[end:match.start()]
        end = match.end()
        if line_start or raw in ";!?":
            initial = True
            if out:
                out[-1] = out[-1][:3] + (True, raw == "?")
            if raw in ";!?" or _BULLET.fullmatch(raw):
                continue  # a list marker is no token, and what follows it opens a sentence
        token = raw.strip(_EDGE)
        owner = token.endswith(("'s", "’s"))
        if owner:
            token = token[:-2]
        ends = raw[-1] in ",:" or token.lower() in CLAUSE_WORDS or (
            raw[-1] == "." and raw.lower() not in ABBREVIATIONS)
        if token:
            out.append((token, initial, owner, ends, False))
        initial = raw[-1] in ".:" and raw.lower() not in ABBREVIATIONS
    return tuple(out)


def _capitalised(token: str) -> bool:
    return token[:1].isupper() and token.isalpha()


def _names_at(tokens: tuple[tuple[str, bool, bool, bool, bool], ...],
              known: frozenset[str]) -> tuple[set[int], set[int]]:
    """Which tokens opening a sentence are read as names, and which particles inside a name are no
    word of their own ("Anne de Vries"). A capitalised word opening a sentence is a name when it is
    no function word ("The", "Our", "Yesterday": ``NOT_NAMES``) and either it, with the capitalised
    words and particles after it, stands right before a verb of state or ownership ("Alice Martin
    owns", "Jonas Berg is", "Bob now leads": ``NAME_VERBS``), is possessive ("Maya's rent"), or is in
    ``known`` (written as a name inside a sentence of either text compared), or stands before a passive end
    ("Jenkins got the axe": ``_predicate``). Why these: see
    docs/how-memory-works.md#contradictions."""
    named: set[int] = set()
    particles: set[int] = set()
    count = len(tokens)
    for i, (raw, initial, owner, _, _) in enumerate(tokens):
        # Particles between two capitalised words, wherever they stand: "de" in "Anne de Vries".
        if raw in NAME_PARTICLES and i and _capitalised(tokens[i - 1][0]) and not tokens[i - 1][3]:
            k = i
            while k < count and tokens[k][0] in NAME_PARTICLES and not tokens[k][3]:
                k += 1
            if k < count and _capitalised(tokens[k][0]) and not tokens[k][1]:
                particles.update(range(i, k))
        if not initial or not _capitalised(raw) or raw.lower() in NOT_NAMES:
            continue
        if owner or raw.lower() in known or not raw[1:].islower():  # "Maya's", "CircleCI runs our CI"
            named.add(i)
            continue
        j = i  # the name's last word
        while not tokens[j][3] and not tokens[j][2] and j + 1 < count:
            k = j + 1
            while k < count and tokens[k][0] in NAME_PARTICLES and not tokens[k][3]:
                k += 1
            if k < count and _capitalised(tokens[k][0]) and not tokens[k][1]:
                j = k
                continue
            break
        k = j + 1
        while k < count and tokens[k][0].lower() in _BEFORE_VERB and not tokens[k - 1][3]:
            k += 1
        if not tokens[k - 1][3] and k < count and tokens[k][0].lower() in NAME_VERBS:
            named.add(i)
            continue
        m = k  # or before a passive end: "Jenkins got the axe"
        while m < count and tokens[m][0].lower() in _BE and not tokens[m][3]:
            m += 1
        if k < m < count and not tokens[k - 1][3] and _predicate([t[0].lower() for t in tokens[m:m + 4]], 0):
            named.add(i)
    return named, particles


@lru_cache(maxsize=1024)
def openers(text: str) -> frozenset[str]:
    """Capitalised words opening a sentence of ``text``, lowercased."""
    return frozenset(t.lower() for t, initial, _, _, _ in _tokens(text) if initial and _capitalised(t))


@lru_cache(maxsize=1024)
def inner_names(text: str) -> frozenset[str]:
    """Words ``text`` writes as names (lowercased): capitalised inside a sentence ("Helix", "Alice"), or
    opening one where ``_names_at`` reads a name ("Jenkins was retired")."""
    tokens = _tokens(text)
    return frozenset(t.lower() for t, initial, _, _, _ in tokens if not initial and _capitalised(t)) | frozenset(
        tokens[i][0].lower() for i in _names_at(tokens, frozenset())[0])


@lru_cache(maxsize=1024)
def lower_names(text: str) -> frozenset[str]:
    """Lower-case words ``text`` reads as names where a change ends one or names what replaces it
    (``_lower_name``): "pagerduty", "opsgenie" of "We dropped pagerduty for opsgenie"."""
    tokens = _tokens(text)
    return frozenset(tokens[i][0] for i in range(len(tokens)) if _lower_name(tokens, i))


@lru_cache(maxsize=1024)
def _lower_words(text: str) -> frozenset[str]:
    """The words of ``text`` written in lower case (``_LOWER_WORD``)."""
    return frozenset(t for t, _, _, _, _ in _tokens(text) if _LOWER_WORD.fullmatch(t))


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
    slots: list[tuple[str, str, str | None]] = []  # (type or "word", text, unit)
    marks: list[tuple[bool, bool, int]] = []  # of each slot: (possessive, ends a clause, sentence)
    skip = False
    sentence = -1
    hedged: set[int] = set()  # sentences that ask, suppose, deny or add (``HEDGES``)
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
            continue
        following = tokens[i + 1][0].lower().rstrip(".") if i + 1 < len(tokens) else ""
        meridiem = _MERIDIEM.get(following)
        found = _value(raw, lower, meridiem, initial and i not in named)
        if lower == "one" and (following in STOP or not following):
            found = None  # "one of", "the new one": no count
        if found is not None and found[0] == "name" and raw.isupper() and slots and slots[-1][0] == "number":
            found = None  # a unit: "420 GB"
        if found is None and (raw in LOWER_NAMES and _name_slot(tokens, i) or _lower_name(tokens, i)
                              or raw in lower_named):
            found = "name", raw, None
        if found is None:
            slots.append(("word", lower, None))
            marks.append((owner, ends, sentence))
            continue
        kind, norm, unit = found
        month = _short_month(tokens, i) if kind == "name" else None
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
    anchor = [stem(t) if k == "word" and t not in STOP and t not in CHANGE_WORDS else t if k in _ANCHORING else None
              for k, t, _ in slots]
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
            beside.update(a for a in (before[i], after[i]) if a and a not in INTERJECTIONS)
    words = frozenset(a for a in anchor if a is not None) | frozenset(t for k, t, _ in slots if k != "word")
    lowered = [t for _, t, _ in slots]
    negated, changes = set(), [t for t in lowered if t in CHANGE_WORDS]
    contrasted: set[str] = set()
    rejected: set[int] = set()  # the slots of what a contrast rejects: no part of what the text states
    chosen: set[str] = set()  # what a contrast keeps: "pnpm" of "Use pnpm, not npm"
    ended, spoken, denials, reached = _ending(slots, lowered, anchor, marks)
    phrases: set[int] = set()
    for i, word in enumerate(lowered):
        if word in _PHRASE_STARTS:
            found = [p for p in CHANGE_PHRASES + (OPENING_CHANGE_PHRASES if i == 0 else ())
                     if tuple(lowered[i:i + len(p)]) == p]
            changes += [" ".join(p) for p in found]
            phrases.update(range(i, i + max((len(p) for p in found), default=0)))
            particle = next((j for j in range(i + 2, min(len(slots), i + _PARTICLE_GAP + 1))
                             if lowered[j] == SPLIT_PHRASES.get(word)), None) \
                if not found and len(tokens) <= 2 * SHORT else None
            if particle is not None and not any(marks[j][1] for j in range(i, particle)):
                changes.append(f"{word} … {lowered[particle]}")
                phrases.update((i, particle))
        # "over" after "prefers": "prefers tabs over spaces" denies spaces as "rather than" does
        contrast = word in _CONTRASTS and i + 1 < len(lowered) and lowered[i + 1] == _CONTRASTS[word] or \
            word == "over" and any(w.startswith(("prefer", "favo")) for w in lowered[max(0, i - 4):i]) or \
            word in _CONTRAST_NOT and i > 0 and marks[i - 1][1] and marks[i - 1][2] == marks[i][2] \
            and lowered[i - 1] not in NEGATIONS | CLAUSE_WORDS  # "Use pnpm, not npm"; not "life and not take"
        if word in NEGATIONS or word.endswith(("n't", "n’t")) or contrast:
            # The first content word or value after it: "not drink", "not 15:45".
            at = next((j for j in range(i + 1, min(len(slots), i + 5))
                       if (anchor[j] is not None or slots[j][0] != "word") and lowered[j] != "longer"), None)
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
    negated.update(ended)
    sequence, changed, owned = _sequence(slots, anchor, marks, phrases, hedged, rejected)
    subjects = {t.key for t in sequence if t.kind == "name" and t.subject}
    subjects -= {t.key for t in sequence if t.kind == "name" and not t.subject}
    adding_clauses = {t.clause for t in sequence if t.kind == "word" and (  # "also", or a verb (not "the review")
        t.shown in ADDITION_WORDS or t.shown in ADDING and not (t.subject or t.determined))}
    adding = {t.key for t in sequence if t.clause in adding_clauses and t.kind != "word"}
    return _Read(values, words, frozenset(negated), states, tuple(changes),
                 any(t in ADDITION_WORDS for t in lowered), sequence, changed, frozenset(subjects), owned,
                 frozenset(adding), frozenset(contrasted), tuple(denials),
                 _targets(slots, lowered, anchor, marks) if changes else frozenset(), frozenset(chosen),
                 frozenset(reached), frozenset(ended), frozenset(spoken))


def _ending(slots: list[tuple[str, str, str | None]], lowered: list[str], anchor: list[str | None],
            marks: list[tuple[bool, bool, int]]) -> tuple[set[str], set[str], list[tuple[str, str]],
                                                          set[tuple[str, str]]]:
    """The names a text ends (``ENDING``, ``ENDING_PHRASES``): those right after an ending verb (determiners
    aside), or before one and a form of "be" in the passive ("PagerDuty was
    sunset"); with the stems of the words saying so and the names after "for", "with", "to" ... later in
    the clause (what replaces them: "We ditched Jenkins for CircleCI"), their denials and (verb, name)
    pairs, as ``_Read.ended``, ``spoken``, ``denials`` and ``reached`` hold them."""
    ended: set[str] = set()
    spoken: set[str] = set()
    denials: list[tuple[str, str]] = []
    reached: set[tuple[str, str]] = set()
    count = len(slots)

    def named(j: int, step: int) -> int:  # past the names in a row from ``j``, in one clause
        while 0 <= j < count and slots[j][0] in ("name", "ident") and not (step < 0 and marks[j][1]):
            j += step
        return j

    for i, word in enumerate(lowered):
        phrase = next((p for p in _ENDING_FROM.get(word, ()) if tuple(lowered[i:i + len(p)]) == p), None) or (
            (word,) if word in ENDING or word in _ENDING_FOR else None)
        verb_end = i + len(phrase) if phrase else i + 1  # past the verb and its particles
        start = stop = verb_end
        if phrase is not None and not any(marks[j][1] for j in range(i, verb_end - 1)):
            while start < count and lowered[start] in DETERMINERS and not marks[start - 1][1]:
                start += 1
            if not (marks[verb_end - 1][1] or start - verb_end and marks[start - 1][1]):  # no clause ends first
                stop = named(start, 1)
            if word in _ENDING_FOR and not (stop < count and not marks[stop - 1][1] and (
                    lowered[stop] == "for" or lowered[stop:stop + 2] in (["in", "favour"], ["in", "favor"]))):
                stop = start
            lead = i  # and the words leading the verb: "We have (now) stopped using", "We finally retired"
            while lead and (lowered[lead - 1] in _AUXILIARIES or _CONTRACTED.match(lowered[lead - 1])) \
                    and not marks[lead - 1][1]:  # "We've retired" (trial verify62 N1)
                lead -= 1
            said = range(lead, stop)
        size = _predicate(lowered, i) if stop == start else 0
        if size:
            aux = i - 1  # the passive: "Jenkins was retired", "... has been phased out", "... is no longer used"
            while aux >= 0 and lowered[aux] in _AUXILIARIES and not marks[aux][1]:
                aux -= 1
            if not _BE.isdisjoint(lowered[aux + 1:i]):
                start, stop = named(aux, -1) + 1, aux + 1
                verb_end = i + size  # past the particle once (a phrase may hold it)
                said = range(start, verb_end)
        if stop <= start or _bounded(lowered, anchor, marks, max(stop, verb_end)):
            continue
        after = max(stop, verb_end)
        if after < count and not marks[after - 1][1] and lowered[after] in _HELD_AS:
            said = range(said.start, after + 1)  # "our PagerDuty subscription"
        names = [slots[j][1] for j in range(start, stop)]
        ended.update(names)
        spoken.update(anchor[j] or lowered[j] for j in said)
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


# Words of a span of time, as stemmed, besides ``_WHEN``'s: "for the day", "for a while".
_SPANS = frozenset({"day", "hour", "minute", "while", "moment", "sprint", "holiday", "vacation"})


def _bounded(lowered: list[str], anchor: list[str | None], marks: list[tuple[bool, bool, int]], j: int) -> bool:
    """Whether the clause going on at ``j`` bounds an end in time ("Maria is gone until Monday", "We left Jenkins
    for the weekend"): an absence, not an end."""
    while j < len(lowered) and not marks[j - 1][1]:
        if lowered[j] in ("until", "till"):
            return True
        if lowered[j] == "for":
            k = j + 1
            while k < len(lowered) and anchor[k] is None and not marks[k - 1][1]:  # "the", "two"
                k += 1
            if k < len(lowered) and (anchor[k] in _WHEN or anchor[k] in _SPANS):
                return True
        j += 1
    return False


def _predicate(lowered: list[str], i: int) -> int:
    """How many words from ``i`` end a name before them in the passive (``_PASSIVE_ENDING`` with its particle:
    "was phased out"; ``_PASSIVE_PHRASES``: "is no longer used", "got the axe"); 0 when none do."""
    word = lowered[i]
    if word in _PASSIVE_ENDING:
        particle = _PARTICLES.get(word)
        return 1 if particle is None else 2 if lowered[i + 1:i + 2] == [particle] else 0
    return next((len(p) for p in _PASSIVE_PHRASES if tuple(lowered[i:i + len(p)]) == p), 0)


# Words before what a change goes to: "to GitHub Actions", "replaced Jenkins with ...", "swapped Kong for
# Traefik", "was replaced by Rollbar", "in favour of Yarn".
_TO = frozenset({"to", "into", "onto", "with", "for", "by", "of"})


def _targets(slots: list[tuple[str, str, str | None]], lowered: list[str], anchor: list[str | None],
             marks: list[tuple[bool, bool, int]]) -> frozenset[str]:
    """The values right after a word of ``_TO`` (determiners aside) in a text holding change words:
    where the change goes ("github", "actions" of "We moved CI from Jenkins to GitHub Actions"), or,
    with none there and a change verb in the text, one content word ending its clause or before a stop word,
    by its stem ("afternoon" of "We moved the standup to the afternoon")."""
    found: set[str] = set()
    moving = any(word in CHANGE_WORDS and word not in _WHEN_CHANGED for word in lowered)
    for i, word in enumerate(lowered):
        if word in REPLACING and lowered[max(0, i - 1)] not in PASSIVE:  # "GitHub Actions replaced Jenkins"
            j = i - 1 - (lowered[max(0, i - 1)] in ("has", "have", "had"))
            while j >= 0 and slots[j][0] != "word":
                found.add(slots[j][1])
                j -= 1
        if word not in _TO or word == "of" and lowered[max(0, i - 1)] not in ("favour", "favor"):
            continue
        j = i + 1
        while j < len(slots) and lowered[j] in DETERMINERS:
            j += 1
        start = j
        while j < len(slots) and slots[j][0] != "word":
            found.add(slots[j][1])
            j += 1
        if moving and j == start < len(slots) and anchor[j] is not None and (
                marks[j][1] or j + 1 == len(slots) or lowered[j + 1] in STOP):
            found.add(anchor[j])  # type: ignore[arg-type]
    return frozenset(found)


def _month(raw: str) -> bool:
    lower = raw.lower().rstrip(".")
    return raw[:1].isupper() and (lower in MONTHS or lower in _MONTH_SHORT)


def _calendar(tokens: tuple[tuple[str, bool, bool, bool, bool], ...], at: int, kind: str, norm: str,
              unit: str | None) -> bool:
    """Whether the number or identifier at ``at`` (read as ``kind``, ``norm``, ``unit``) is part of a date:
    a day of the month beside a month's name or a weekday ("20 December", "Dec 20", "Friday 20"), an
    ordinal day not before a noun ("the 20th", "on the 21st of"), a year after a month or its day
    ("December 2026", "Dec 20, 2026"), or a day and month in digits after "on", "since" ... ("on 20/12").
    Read as a date, a question asking when reads the change as one (trial 59: "20 → 21 December" was a
    number, which "when does the freeze start?" does not ask for)."""
    def raw(j: int) -> str:
        return tokens[j][0] if 0 <= j < len(tokens) else ""

    before, after = raw(at - 1).lower(), raw(at + 1)
    last = not after or tokens[at][3]  # nothing after it in its clause
    pair = _DAY_MONTH.fullmatch(norm) if unit is None else None
    if pair is not None and "." not in norm:  # "on 20/12", "on 12-20", "is 18/12." ("a 3/4 share": a fraction);
        # "on 20.12" stays a number: "runs on 22.04" is a version
        return (before in _DATED_BY or last and "/" in norm and before not in ("a", "an", "the")) \
            and 1 <= min(int(pair[1]), int(pair[2])) <= 12 and max(int(pair[1]), int(pair[2])) <= 31
    if not norm.isdigit() or len(norm) > 4:
        return False
    value = int(norm)
    if unit is not None:
        return unit in _ORDINAL and 1 <= value <= 31 and (
            last or after.lower() in STOP or _month(after) or after.lower() in DAYS)
    if 1 <= value <= 31 and any(_month(w) or w.lower() in DAYS for w in (raw(at - 1), after)):
        return True
    return 1900 <= value <= 2099 and (_month(raw(at - 1)) or _month(raw(at - 2)) and raw(at - 1).isdigit()
                                      or before in _YEAR_BY and (last or after.lower() in STOP))  # "in 2027"


def _short_month(tokens: tuple[tuple[str, bool, bool, bool, bool], ...], at: int) -> str | None:
    """The month a capitalised short name at ``at`` stands for ("Dec 20", "4 Jan", "in Sept", "Dec 2026"),
    read beside a day or year in digits or after "in", "on", "since" ...; else None ("Jan owns the API")."""
    raw = tokens[at][0]
    short = raw.lower().rstrip(".")
    if not raw[:1].isupper() or short not in _MONTH_SHORT:
        return None
    near = [tokens[j][0].rstrip(",.") for j in (at - 1, at + 1) if 0 <= j < len(tokens)]
    if at and tokens[at - 1][0].lower() in _YEAR_BY or any(w.isdigit() and 1 <= int(w) <= 2099 for w in near):
        return next(m for m in MONTHS if m.startswith(short[:3]))
    return None


def _dated(slots: list[tuple[str, str, str | None]], at: int) -> bool:
    """Whether slot ``at`` says from when ("since March", "as of today"): no part of what is held."""
    return slots[at - 1][1] == "since" or [t for _, t, _ in slots[max(0, at - 2):at]] == ["as", "of"]


def _sequence(slots: list[tuple[str, str, str | None]], anchor: list[str | None],
              marks: list[tuple[bool, bool, int]], phrases: set[int], hedged: set[int], rejected: set[int],
              ) -> tuple[tuple[_Token, ...], frozenset[int], tuple[tuple[frozenset[str], frozenset[str], bool], ...]]:
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
    for i, (kind, text, _) in enumerate(slots):
        if pronoun is None:
            pronoun = text in PRONOUNS
        following = slots[i + 1][1] if i + 1 < len(slots) else ""
        if owning is None and verb is None and clause and (
                # "runs" owns too after a name read on other evidence ("CircleCI runs our CI"), but is none of
                # its own ("Pool A runs 4 replicas": no name verb)
                (text in OWNING or text in ("runs", "is", "was")) and following in DETERMINERS
                or (text in ("took", "taken", "takes") and following == "over")) \
                and all(slots[at][0] == "name" and not marks[at][0] or slots[at][1] in _BEFORE_VERB
                        for at in clause):
            owning = i
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
                    before = at > owning  # what the names hold stands where the subject does
                else:
                    before = at < verb if verb is not None else (
                        n == 0 or n == 1 and slots[at][1].lower() in REGIONS) and not pronoun  # "Support for APAC"
                determined = at > 0 and slots[at - 1][1] in DETERMINERS
                kind, text, _ = slots[at]
                subject = marks[at][0] or before
                out.append(_Token(anchor[at] or text, kind, text, subject, determined, clauses))
            if owning is not None or passive is not None:
                mine = out[len(out) - len(clause):]
                if owning is not None:
                    owners = {t.key for t, at in zip(mine, clause) if at < owning and t.kind == "name"}
                    held = {t.key for t, at in zip(mine, clause) if at > owning and not _dated(slots, at)}
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
    return frozenset(norm for found in _read(text).values.values() for norm in found)


def only_older(older: str, newer: str) -> frozenset[str]:
    """``values`` of ``older`` that ``newer`` neither states nor writes as a word ("ana" of "Ana started
    eating fish again", where "Ana", opening the text with no verb of state after it, is no name), less
    the names of the older's subject when the newer says its change of it (``judge``'s 2: "ci" of "Our CI
    runs on Jenkins" beside "We retired Jenkins")."""
    left = values(older) - values(newer) - {t.shown for t in _read(newer).sequence}
    judged = judge(older, newer)
    return left - _read(older).subjects if judged is not None and judged[1] >= 2 else left


def _same_name(a: str, b: str) -> bool:
    """"postgres" and "postgresql": one name spelt out further (but "lindgarden-mesh" is another)."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short) and long[len(short):].isalpha()


def _spelt_further(same: Callable[[str, str], bool], a: str, read_a: _Read, b: str, read_b: _Read) -> bool:
    """Whether ``a`` of ``read_a`` and ``b`` of ``read_b`` are one name or host written out further
    (``same``: "Jo" / "Joanna"), unless the text of the longer says the shorter too: "CircleCI" of
    "Our CI runs on CircleCI" is no "CI" written longer."""
    short, long = (a, read_b) if len(a) < len(b) else (b, read_a)
    return same(a, b) and short not in long.words


_DOMAIN_TAIL = re.compile(r"(?:\.[a-z][a-z0-9-]*)+")


def _same_host(a: str, b: str) -> bool:
    """"stg-db-07" and "stg-db-07.lan": one host named with its domain (trial of stop 47), not
    "kong-3.6" and "kong-3.6.1" (a version spelt further is another)."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short) and _DOMAIN_TAIL.fullmatch(long[len(short):]) is not None


# Words answering or greeting, as stemmed: they name no value's slot ("ok a6" / "ok b1": trial verify63 N8).
INTERJECTIONS = frozenset(stem(word) for word in "ok okay yes yeah yep yup thanks thx hi hello hey alright ack".split())


def _changed_value(old: _Read, new: _Read) -> str | None:
    """"different <type>: <old> → <new>" for a value of one type replaced in the same slot."""
    for kind in sorted(old.values.keys() & new.values.keys()):
        olds, news = old.values[kind], new.values[kind]
        # A name standing where a subject stands names the subject, not a value in a slot.
        gone = [norm for norm in olds if norm not in news and not (kind == "name" and _subject(old, norm))]
        came = [norm for norm in news if norm not in olds and not (kind == "name" and _subject(new, norm))]
        counted = len(gone), len(came)
        if kind == "name":  # a name denied is in no slot: "We do not use MySQL" / "We do not use Postgres"
            gone = [g for g in gone if _in_slot(old, g, new) and g not in old.negated]
            came = [c for c in came if _in_slot(new, c, old) and c not in new.negated]
        elif old.adding | new.adding and _names_in(old, old.adding) != _names_in(new, new.adding):
            # "met Bob on Monday" / "met Carol on Tuesday": two meetings, not one moved
            gone = [g for g in gone if g not in old.adding]
            came = [c for c in came if c not in new.adding]
        lone = counted == (len(gone), len(came))  # one for one only when no value was set aside
        same = _same_name if kind == "name" else _same_host if kind == "ident" else None
        if same is not None and len(gone) * len(came) <= 64:
            gone = [g for g in gone if not any(_spelt_further(same, g, old, c, new) for c in came)]
            came = [c for c in came if not any(_spelt_further(same, g, old, c, new) for g in olds)]
        if not gone or not came:
            continue
        anchors = {a for norm in gone for a in olds[norm]}
        shared = [norm for norm in came if not news[norm].isdisjoint(anchors)]
        # a lone swap in two texts sharing a word or saying a change: "ok a6" / "ok b1" say nothing of one slot
        # (trial verify63 N8); "We switched to Poetry" / "We switched to uv" do
        if shared or (kind in _SWAPPABLE and lone and len(gone) == 1 and len(came) == 1
                      and bool(old.words & new.words - INTERJECTIONS or old.changes or new.changes)
                      and not _told_apart(old, gone[0], new, came[0])
                      and not _beside_apart(olds[gone[0]], new, news[came[0]], old)):
            return f"different {kind}: {', '.join(sorted(gone)[:3])} → {', '.join(sorted(shared or came)[:3])}"
    return None


def _beside_apart(was: set[str], new: _Read, now: set[str], old: _Read) -> bool:
    """Whether two values stand beside words (``was`` in ``old``, ``now`` in ``new``) that the other
    text never says: each in a slot the other does not name ("its repository is git.example.com/x" /
    "exposes metrics on port 9104 under /metrics", trial of stop 46), not one slot refilled ("Standup
    is at 9:15" / "Standup now happens at 10:30": "standup" is in both)."""
    return bool(was) and bool(now) and was.isdisjoint(new.words) and now.isdisjoint(old.words)


def _subject(read: _Read, name: str) -> bool:
    """Whether the name ``name`` is what ``read`` is about, not a value in a slot: standing where a
    subject stands, or assigned (``SVC=auth-svc``) where the text also says it as a word ("To debug
    auth-svc locally ... SVC=auth-svc": a runbook written for each service, trial of stop 46)."""
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
    said: dict[int, set[str]] = {}
    for t in other.sequence:
        if t.subject and t.kind in ("word", "name"):
            said.setdefault(t.clause, set()).add(t.key)
    return any(frozenset(subject) in mine for subject in said.values())


def _names_in(read: _Read, norms: frozenset[str]) -> frozenset[str]:
    return frozenset(norms & read.values.get("name", {}).keys())


def _told_apart(old: _Read, was: str, new: _Read, now: str) -> bool:
    """Whether the clauses holding value ``was`` in ``old`` and ``now`` in ``new`` have subjects and
    neither text holds the other's ("The admin UI talks to Postgres through the API" / "The API talks
    to Postgres through PgBouncer"; a name the other holds after its verb does not count, as in
    ``_shares_subject``): then the values are in the slots of two subjects, not one."""
    subjects, held = [], []
    for read, value in ((old, was), (new, now)):
        clauses = {t.clause for t in read.sequence if t.key == value}
        subjects.append({t.key for t in read.sequence
                         if t.clause in clauses and t.subject and t.kind not in _POINT_VALUES and t.key != value})
        held.append({t.key for t in read.sequence if t.subject or t.kind == "word"})
    return all(subjects) and subjects[0].isdisjoint(held[1]) and subjects[1].isdisjoint(held[0])


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


@lru_cache(maxsize=4096)
def judge(older: str, newer: str) -> tuple[str, int] | None:
    """(why ``newer`` contradicts ``older``, how strong the evidence is: 0, 1 or 2) or None (see
    ``disagreement``). Strong (1): the one difference of two texts otherwise alike, or change words
    beside one value replaced by one other ("Alerts go to PagerDuty" → "Alerts now go to Opsgenie").
    Stronger (2): a change verb, in two brief texts (``brief``), said of the older's subject ("The
    office is in Lisbon" → "We relocated the office to Porto"; ``_changes_subject``)."""
    if configure_other_things(older, newer):
        return None  # "Host web1 ..." / "Host db1 ...": two hosts, whatever their HostName and Port
    # one statement each; in a chat turn a rewrite only shifts how unrelated words align (bench/contradiction_alarms.py)
    if brief(older) and brief(newer):
        older, newer = one_way(older, newer)  # "NYC" / "New York City": one name written two ways
    old_keys, new_keys = _keys(older), _keys(newer)
    if old_keys and new_keys and old_keys.isdisjoint(new_keys):
        # two keys: what the sentences holding them say beside them (a host, an owner) tells them apart
        rest = ["\n".join(part for part in _SENTENCE_END.split(text) if not _keys(part)) for text in (older, newer)]
        return judge(*rest) if all(part.strip() for part in rest) else None
    found = (_undated(older, newer), _words_judged(older, newer))
    return max((j for j in found if j is not None), key=lambda j: j[1], default=None)


def _words_judged(older: str, newer: str) -> tuple[str, int] | None:
    """``judge`` of the two texts as written."""
    flipped = _reversed(older, newer)
    if flipped is not None:
        return flipped, 1
    known = inner_names(older) | inner_names(newer)  # "Alice drinks tea." / "Since May Alice drinks coffee."
    lower = lower_names(older) | lower_names(newer)  # "Our CI runs on jenkins" / "We retired jenkins"
    old, new = (_read(text, openers(text) & known, lower) for text in (older, newer))
    keys_old, keys_new = {t.key for t in old.sequence}, {t.key for t in new.sequence}
    found = _agreeing_not(old, new)
    if found is not None and _numbered_apart(old, new, _words(older), _words(newer)):
        return None
    # "instead of" what the older denies too changes nothing ("tea, not coffee" / "tea instead of coffee").
    # A name's end said with "no longer", "anymore" is read as its denial only ("We no longer use pip for scripts").
    changes = [w for w in new.changes if w != "instead"] if new.contrasted and new.contrasted <= old.negated \
        else new.changes
    changes = [w for w in changes if w not in _ENDED] if new.ended else changes
    changing = bool(changes and not old.changes) and _shares_subject(old, new)
    added = new.words - old.words
    # change words alone tell a change of the older's subject only where the newer's subject is it, not a
    # thing it names ("the password policy is now strict" beside "the password is kept in the safe")
    changed = changing and bool(added) and not new.addition and not _announced(old, new) \
        and _shares_subject(old, new, head=True)
    if found is None and not changed and not (0 < len(keys_old - keys_new) <= 2 >= len(keys_new - keys_old) > 0):
        return None  # nothing disagrees and no lone swap: no alignment needed (most pairs)
    diffs = _differences(old, new)
    swaps = [(o, n) for o, n in diffs if o and n]
    lone = len(diffs) == 1 and len(swaps) == 1 and len(swaps[0][0]) <= 2 and len(swaps[0][1]) <= 2
    # The clauses of the older text where the newer says something else: a value, a state replaced.
    told = {t.clause for o, n in swaps for t in o if t.key not in keys_new and (t.shown in _STATE_GROUP or (
        t.kind != "word" and any(u.kind == t.kind and u.key not in keys_old for u in n)))}
    parallel = _parallel(older, newer)
    placed = parallel and any(_swapped(o, keys_new, True, told) and _swapped(  # "GitHub Actions replaced ..."
        tuple(t for t in n if t.key not in new.targets), keys_old, True) for o, n in swaps)
    reworded = parallel and any(_swapped(o, keys_new, False, told) and _swapped(n, keys_old, False)
                                for o, n in swaps)
    gone, came = len(values_of(old) - values_of(new)), len(values_of(new) - values_of(old))
    said = brief(older) and brief(newer) and any(w not in _WHEN_CHANGED for w in changes)  # "relocated"
    refilled = lone and _refilled(older, newer, old, new, swaps[0])
    tiny = max(len(_words(older)), len(_words(newer))) <= TINY
    strong = 3 if refilled and tiny else 2 if changing and said and _changes_subject(old, new) or refilled else int(
        lone or (changing and 1 <= gone <= 2 and 1 <= came <= 2))  # one thing for another
    if found is not None and not placed and not (reworded and not changing):
        # a denial the newer says has ended ("We don't use Poetry anymore") is one thing for another, and
        # the end of a name the older holds ("We retired Jenkins") a change verb said of it (2: ``_changes_subject``)
        denied = found.startswith("negation: ") and bool(new.negated) and brief(older) and brief(newer)
        ended = denied and _ends_held(old, new)
        return found, max(strong, 2 * ended or int(denied and not old.negated and not old.changes
                                                   and not _ENDED.isdisjoint(changes)))
    # a change going where the older already is ("We use pnpm" / "We switched from npm to pnpm") swaps no word of it
    one_word = lone and len(swaps[0][0]) == len(swaps[0][1]) == 1 and not (changes and _announced(old, new))
    if one_word and parallel and _choices(old, swaps[0][0][0]) and _choices(new, swaps[0][1][0]) \
            and not (_swapped(swaps[0][0], keys_new, True) or _swapped(swaps[0][1], keys_old, True)):
        was, now = swaps[0][0][0], swaps[0][1][0]
        if all(t.kind == "word" or t.shown in LOWER_NAMES for t in (was, now)) \
                and not (was.determined or now.determined) \
                and _SAME_STATE.get(was.shown, was.shown) != _SAME_STATE.get(now.shown, now.shown):  # "off", "disabled"
            return f"different word: {was.shown} → {now.shown}", 1
    if changed and not placed:
        return f"change words: {changes[0]}", strong
    if refilled:  # "We switched to Jenkins" / "We switched to GitHub Actions": no value's slot beside them
        return "different name: " + " → ".join(" ".join(t.shown for t in side) for side in swaps[0]), strong
    return None


def _refilled(older: str, newer: str, old: _Read, new: _Read,
              swap: tuple[tuple[_Token, ...], tuple[_Token, ...]]) -> bool:
    """Whether two brief texts say the same frame with one slot refilled by another name or identifier
    ("Our CI runs on Jenkins" / "... on GitHub Actions", "We use Poetry for packaging" / "... uv ...", "Rosa
    heads the platform group" / "Karim heads ..."), ``swap`` being their one difference, in a frame (no interjection:
    "ok a6" / "ok b1") naming the slot (:func:`_slot_named`) or beside a change word both say: as strong evidence as a
    change verb (2: ``CHANGED_SUBJECT``), since a rare name alone pulls two such texts' vectors apart
    (new-user trial of issue 27 §2: cosine 0.36-0.42). Not where the swap stands as a subject, is
    what a verb of ``ADDING`` adds, or beside "also", "too" ..."""
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


# Verbs that say only that a name is had, not which slot it fills: "We use Docker" and "We use Slack" are two
# tools side by side as often as one for the other, and the packaged model's cosine does not tell which.
_BARE = frozenset("use uses using used have has had like likes liked love loves need needs needed want wants "
                  "try tries tried get gets got own owns enjoy enjoys".split())


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
    return content == [[[t.shown for t in side] for side in swap]]


def _undated(older: str, newer: str) -> tuple[str, int] | None:
    """``judge`` of the two texts without the time phrase dating one of them, or both alike
    (``dating.split``: "Since October the team lead is Tomás" is compared as "the team lead is
    Tomás"), when that finds a disagreement: a state dated from another time is still that state
    replaced ("Since October the team lead is Tomás" / "Since December ... Ana", trial verify62 N3); two
    different time phrases before one statement are compared as written ("since 2019" / "since 2021").
    One value for another (or the one difference: ``judge``'s 1) in two brief texts, the newer alone
    dated, is as strong evidence as a change verb (2: ``CHANGED_SUBJECT``): the time phrase lowers the
    cosine of two texts otherwise alike (new-user trial 60 #1)."""
    (when_old, rest_old), (when_new, rest_new) = dating.split(older), dating.split(newer)
    if not (when_old or when_new):
        return None
    judged = judge(rest_old, rest_new)
    if judged is None or not when_new or when_old or not (brief(older) and brief(newer)):
        return judged
    old, new = values(rest_old), values(rest_new)
    one_for_one = len(old - new) == 1 == len(new - old)  # "Tomás is the team lead" / "The team lead is Maria"
    return (judged[0], max(2, judged[1])) if judged[1] == 1 or one_for_one else judged


def _choices(read: _Read, swapped: _Token) -> bool:
    """Whether a word swapped in ``read`` may be read as a choice changed: it denies nothing, or only
    contrasts what it keeps with what it rejects and ``swapped`` is what it keeps ("pnpm" of "Use
    pnpm, not npm"; not "prefers" of "Priya prefers tea, not coffee")."""
    return not read.negated or not read.negated - read.contrasted and swapped.key in read.chosen


# Words of a time leading a clause, no subject's ("From this autumn Zoë's swimming group meets"), as stemmed
# (not "fall", "spring", "term": a verb, a framework, a word)
_WHEN = frozenset({"autumn", "summer", "winter", "week", "month", "year", "quarter", "today", "tomorrow", "tonight",
                   "morn", "even", "weekend", "season", "semester", *DAYS})


def _shares_subject(old: _Read, new: _Read, head: bool = False) -> bool:
    """Whether the newer text's change words can act on the older: half the words of the subject of a
    clause holding them (``_Token.subject``: "The API now uses gRPC", "Zoë's swimming group now
    meets") are among the older's words (not "The API rate limit is now 250" beside "The SLO for the
    public API", trial of stop 47), or the whole
    subject of a clause of the older among the newer's ("the billing service", not "billing" alone:
    "Now Bob is on the billing team" changes no owner of the billing service), or either has none (a
    pronoun leads: "We moved builds to Buildkite"). A value standing elsewhere than a subject does not
    count ("... through the API" is no memory about the API)."""
    told: dict[int, set[str]] = {}
    for t in new.sequence:
        if t.subject and t.kind not in _POINT_VALUES and t.clause in new.change_clauses:
            told.setdefault(t.clause, set()).add(t.key)
    was: dict[int, set[str]] = {}
    for t in old.sequence:
        if t.subject and t.kind not in _POINT_VALUES:
            was.setdefault(t.clause, set()).add(t.key)
    # a time leading a clause is no word of its subject, unless the clause names nothing else
    told = {clause: words - _WHEN or words for clause, words in told.items()}
    was = {clause: words - _WHEN or words for clause, words in was.items()}
    if not told or not was:
        return True
    had = {t.key for t in old.sequence if t.subject or t.kind == "word"}
    return any(2 * len(subject & had) > len(subject) for subject in told.values()) or \
        any(_in_order(subject, new.sequence, head) for subject in was.values()) or _replaces(old, new)


def _replaces(old: _Read, new: _Read) -> bool:
    """Whether a replacement (``REPLACING``) in ``new`` leaves a name or identifier ``old`` holds
    where no subject stands: one of the replacing clauses that is no target ("jenkins" of "Jenkins was
    replaced by GitHub Actions for CI" beside "Our CI runs on Jenkins")."""
    if REPLACING.isdisjoint(new.changes):
        return False
    left = {t.key for t in new.sequence if t.clause in new.change_clauses and t.kind in ("name", "ident")}
    return not (left - new.targets).isdisjoint(values_of(old) - old.subjects)


def _changes_subject(old: _Read, new: _Read) -> bool:
    """Whether a clause of the newer holding change words names most words of the older's subject
    ("We relocated the office to Porto" / "The office is in Lisbon", not "The staging database is
    refreshed ..." / "We migrated the database to Postgres"), or, when a pronoun leads the older, of
    the things it names ("the webshop"), or a name the older holds ("We swapped Kong for Traefik" /
    "The API gateway is Kong"), or every word of the older naming the slot its name fills (but a bare verb,
    ``_BARE``) when the change goes to another name ("Packaging was migrated to bun" / "We use Poetry for
    packaging")."""
    said = {t.key for t in new.sequence if t.clause in new.change_clauses and t.kind not in _POINT_VALUES}
    subject = {t.key for t in old.sequence if t.subject and t.kind not in _POINT_VALUES} or {
        t.key for t in old.sequence if t.kind not in _POINT_VALUES and (t.kind != "word" or t.determined)}
    names = old.values.get("name", {}).keys()
    slot = {t.key for t in old.sequence if t.kind == "word" and t.shown not in _BARE}
    stems = said | {stem(t.shown) for t in new.sequence if t.clause in new.change_clauses}  # "Packaging was": a name
    return 2 * len(said & subject) > len(subject) or not said.isdisjoint(names) or bool(names) and bool(slot) \
        and slot <= stems and not new.targets <= names


def _in_order(subject: set[str], sequence: tuple[_Token, ...], head: bool = False) -> bool:
    """Whether the words of ``subject`` stand together in ``sequence`` ("the analytics replica", not
    "the analytics role ... on the ledger replica": trial 48); with ``head``, as the head of what they name
    there: no common word of a subject follows them in their clause ("the password", not "the password
    policy", which names a policy: trial verify63 N8)."""
    keys = [t.key if t.subject or t.kind == "word" else "" for t in sequence]  # a value standing elsewhere: none
    size = len(subject)
    return any(set(keys[i:i + size]) == subject and not (
        head and i + size < len(sequence) and sequence[i + size].subject and sequence[i + size].kind == "word"
        and sequence[i + size - 1].subject
        and sequence[i + size].clause == sequence[i + size - 1].clause) for i in range(len(keys) - size + 1))


# Words that put two things in an order or a choice: "tabs over spaces", "pnpm instead of npm", "staging
# before production", "from MySQL to Postgres" (the last two: "to" only after "from", below).
_ORDERING = frozenset({"over", "instead", "rather", "than", "vs", "versus", "not", "before", "after", "then"})


def _reversed(older: str, newer: str) -> str | None:
    """``reversed: tabs over spaces → spaces over tabs`` when the newer text is the older with two
    of its words exchanged across a word of order or choice (``_ORDERING``, or "from ... to"), change
    words ("now") aside; else None. The same words in another order and nothing else: no other
    test sees a difference."""
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


def brief(text: str) -> bool:
    """Whether ``text`` is one short statement (at most ``2 * SHORT`` words), not a chat turn or a
    note: only there does a change verb lower the cosine gate (``CHANGED_SUBJECT``)."""
    return len(_words(text)) <= 2 * SHORT


@lru_cache(maxsize=1024)
def _words(text: str) -> list[str]:
    return [t[0].lower() for t in _tokens(text[:ALIGNED * 40])][:ALIGNED]


@lru_cache(maxsize=4096)
def _parallel(older: str, newer: str) -> bool:
    """Whether two texts are worded in parallel (``PARALLEL``; two of at most ``SHORT`` words: their
    content words, values by type, half alike): only then does a word one replaces tell their
    subjects apart; a restatement in other words keeps the value test alone."""
    a, b = (_words(text) for text in (older, newer))
    if SequenceMatcher(None, a, b, autojunk=False).ratio() >= PARALLEL:
        return True
    if max(len(a), len(b)) > SHORT:
        return False
    kinds = ([t.key if t.kind == "word" else t.kind for t in _read(text).sequence] for text in (older, newer))
    return SequenceMatcher(None, *kinds, autojunk=False).ratio() >= 0.5


def _numbered_apart(old: _Read, new: _Read, old_words: list[str], new_words: list[str]) -> bool:
    """Two numbered subjects, not a change of one: the number or identifier right after both texts'
    first words (a label: "Service 28", "On floor 4", "Host web-01", "Worker pool A"; not "The review
    is on 14 March")
    differs, and each text gives the label a value of its own after it, equal or not ("... port 9028"
    / "... 9029", "... 12 chairs" / "... 12 chairs", "... rack 3" / "... rack 1"), or the label is a
    whole number not led by a pronoun or verb that ends its clause ("Minor style note 0: prefer ..."),
    or is followed by a stop word but a verb of ``VERBS`` ("note number 1 about ...") or by a verb in
    "-s" and its object ("Module 3 uses f-strings"). A number changed with no value after it before
    "is" ("Postgres 15" → "Postgres 16 is used"), after a verb ("We are on step 4") or counting what
    follows ("Keep 3 replicas") stays a change. ``*_words``: each text's ``_words``."""
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
        a[at].kind in ("number", "ident") or a[at].kind == "name" and len(a[at].key) == len(b[at].key) == 1)
    valued = all(any(t.kind != "word" for t in side[at + 1:]) for side in (a, b))
    return label and a[at].clause == b[at].clause == 0 and (valued or named)


def values_of(read: _Read) -> set[str]:
    return {norm for found in read.values.values() for norm in found}


def _announced(old: _Read, new: _Read) -> bool:
    """Whether every value of the newer text, or every value its change goes to (``_Read.targets``),
    is one the older already names: its change words report what the older planned or did ("Decided
    to migrate the staging database to stg-db-07" / "The staging database is now stg-db-07.lan",
    trial of stop 47), not a value replaced."""
    was = values_of(old)
    held = {t.key for t in old.sequence if not t.subject}  # "to the afternoon" after "The standup is in the afternoon"
    if _replaces(old, new):  # "We replaced Poetry with uv" after "We use Poetry"
        return False
    now = values_of(new) - new.subjects  # "The API now uses gRPC": the API is what changed

    def named(values: set[str] | frozenset[str], said: set[str] | frozenset[str]) -> bool:
        return bool(values) and all(v in said or any(_same_host(v, w) for w in was) for v in values)

    # or where the change goes ("We moved CI from Jenkins to GitHub Actions" after "Our CI runs on
    # GitHub Actions": what it left is no value it states, trial 60 #3; "... to the afternoon": a word it says)
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
    # One text denies, the other does not; or only one denies outright and the other only rejects
    # an alternative ("Use pnpm, not npm" / "We do not use pnpm": trial 60 #4).
    # Or the newer ends a name the older holds and does not deny: "We ditched CircleCI for Buildkite" after "We
    # ditched Jenkins for CircleCI" (trial verify62 N4).
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
    Jenkins", or "We ditched CircleCI for Buildkite" after "We ditched Jenkins for CircleCI" (trial verify62 N4)."""
    return not new.ended.isdisjoint(old.words) and new.ended.isdisjoint(old.negated)


def _object_denied(negated: _Read, plain: _Read, hit: list[str]) -> bool:
    """Whether a denial hits ``plain`` where it says it: on a word it denies itself, or on the object
    of a verb it denies or a name it ends ("We are not using Poetry" / "We use Poetry", "We retired Jenkins"
    / "Our CI runs on Jenkins") when ``plain`` holds that object and the denial says nothing else ``plain``
    lacks but its own words and what replaces the name ("We ditched Jenkins for CircleCI"; not "We don't use
    Jenkins for deploys", nor "We don't use Poetry for scripts" beside "We use Poetry for packaging")."""
    verbs, objects = {verb for verb, _ in negated.reached}, {held for _, held in negated.reached}
    if not set(hit) <= verbs | objects:
        return True
    # of a short denial, its clause: "We no longer use Sentry; errors go to Rollbar" (a chat turn: all its words)
    short = len(negated.sequence) <= SHORT
    clauses = {t.clause for t in negated.sequence if t.key in objects or not short}
    sequence = negated.sequence
    return objects <= plain.words and all(t.key in plain.words or t.key in negated.spoken or _dating(sequence, at)
                                          for at, t in enumerate(sequence) if t.clause in clauses)


# Words of a relative time, as stemmed, besides ``_WHEN``'s: "last month", "two weeks ago", "yesterday".
_RELATIVE = frozenset({"last", "ago", "yesterday", "earlier", "past", "previous", "day", "hour"})


def _dating(sequence: tuple[_Token, ...], at: int) -> bool:
    """Whether ``sequence[at]`` dates what its text says rather than adding to it: a date, day, month or time,
    a word of a relative time, or a number before one ("We retired Jenkins last month / two weeks ago / on
    2026-10-01": trial verify62 N1)."""
    token = sequence[at]
    if token.kind == "number":
        return at + 1 < len(sequence) and sequence[at + 1].key in _WHEN | _RELATIVE
    return token.kind in _WHEN_KINDS or token.kind == "word" and token.key in _WHEN | _RELATIVE


def _named_apart(old: _Read, new: _Read) -> bool:
    """Whether both texts name someone or something and share no name: "Bob doesn't own the billing
    service" denies nothing "Alice owns the billing service" states."""
    a, b = old.values.get("name", {}).keys(), new.values.get("name", {}).keys()
    return bool(a) and bool(b) and a.isdisjoint(b)


def disagreement(older: str, newer: str) -> str | None:
    """Why ``newer`` contradicts ``older`` (a short phrase naming the kind: ``"different time:
    09:15 → 10:30"``, ``"opposite state: open → closed"``, ``"negation: not drink"``,
    ``"different word: tabs → spaces"``, ``"change words: moved"``), or None when nothing in their
    words disagrees, or when they are about different subjects: a word the other lacks stands
    where a subject stands in each ("staging cluster" / "production cluster", "my daughter" / "my
    son"), or, without change words, other words replaced besides ("we use Python 3.11" / "drop
    Python 3.9")."""
    judged = judge(older, newer)
    return None if judged is None else judged[0]


def newer_in_meaning(text: str, other: str, later: bool) -> bool:
    """Whether memory ``text`` is the newer of two in meaning, ``later`` saying whether it was observed
    after ``other``: when observed later, unless it restates what ``other``, a change, left; when observed
    earlier, if ``other`` restates what ``text`` changed (``_told_before``)."""
    return not _told_before(other, text) if later else _told_before(text, other)


def _told_before(older: str, newer: str) -> bool:
    """Whether ``newer``, with no change words, restates what ``older``, a change, left: "Our CI runs on
    Jenkins" stored after "We switched from Jenkins to GitHub Actions" is, in meaning, the older of the
    two (read as the newer of them it disagrees with ``older``, and it adds no value ``older`` lacks, or
    nothing else disagrees)."""
    old = _read(older)
    if not old.changes:  # most memories: the newer is not read
        return False
    new = _read(newer)
    if new.changes or judge(newer, older) is None:
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
    """Whether two texts at ``cosine`` reach a gate :func:`contradicts` with ``gate`` may apply to them
    (the lower ones are for two brief ones, the lowest for two of at most ``TINY`` words), known without
    reading their words."""
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
    ("The mobile app was rewritten in Flutter": ``judge``'s strongest evidence)."""
    judged = judge(older, newer)
    if not _parallel(older, newer) or judged is not None and judged[1] >= 2:
        return False
    asked = _read(question).words
    old, new = _read(older), _read(newer)
    keys_new = {t.key for t in new.sequence}
    keys_old = {t.key for t in old.sequence}
    return any(t.key in asked and t.key not in keys_new and t.kind not in _POINT_VALUES
               for o, n in _differences(old, new)
               if any(u.key not in keys_old and u.kind in ("word", "name") for u in n) for t in o)


def asks_the_part_left(question: str, older: str, newer: str) -> bool:
    """Whether ``older`` says two things in parts joined by "and", ";", "," or "but" ("The web app and
    the API both run in eu-west-1", "The production API runs in eu-west-1; the staging API runs in
    us-east-2"), ``newer`` is about another part than the one ``question`` asks about by a word
    ``newer`` lacks ("where does the web app run?" for "The API runs in us-east-1"): what the newer
    says leaves that part of the older as it was. The part asked about shares no word with ``newer``
    that the other part lacks ("The daily standup meeting is at 9:15, and we run it in room B" is
    outdated by "We now run the standup at 10:30" for "when is the daily standup meeting?")."""
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


# What a question asks for, by its words, as the kinds of value an answer holds ("which host ..." wants a
# host, "what port ..." a number): a memory changing a value of another kind does not outdate an older one
# for that question (trial 50: "The payments-api port is 9443" outdated the host's memory for "which host").
_WHEN_KINDS = frozenset({"time", "day", "month", "date"})  # "20 December" is a date (``_calendar``)
ASKED_KINDS: dict[str, frozenset[str] | set[str]] = {
    "host": {"ident", "path"}, "hostname": {"ident", "path"}, "server": {"ident", "path", "name"},
    "machine": {"ident", "path", "name"}, "node": {"ident", "path", "name"}, "ip": {"ident", "number"},
    "url": {"ident", "path"}, "endpoint": {"ident", "path"}, "domain": {"ident", "path"},
    "port": {"number"}, "many": {"number"}, "much": {"number"}, "limit": {"number"}, "size": {"number"},
    "when": _WHEN_KINDS, "time": _WHEN_KINDS, "date": _WHEN_KINDS, "day": _WHEN_KINDS,
    "version": {"number", "ident", "name"}, "price": {"number"}, "cost": {"number"}, "costs": {"number"},
    "fee": {"number"},
    "who": {"name"}, "whom": {"name"}, "owner": {"name"}, "owns": {"name"},
}
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

