"""The words the contradiction test reads (``contradiction``), lowercase: function words, days, months and
number words, states and their opposites, negations, change words and phrases (tuples of words), owners' verbs,
the sizes of a statement in words and the shapes of its tokens and slots; ``stem``, a word's key."""

from __future__ import annotations

from functools import lru_cache

from .timefmt import MONTH_NAMES, WEEKDAY_NAMES

# Shapes: a text's tokens (token, opens a sentence, was possessive, ends a clause, a question mark follows),
# its slots (type or "word", normal form or lowercase word, unit) and their marks (possessive, ends a clause, sentence).
Tokens = tuple[tuple[str, bool, bool, bool, bool], ...]
Slots = list[tuple[str, str, str | None]]
Marks = list[tuple[bool, bool, int]]
# Words whose full stop ends no sentence (a title, a company's form, Latin); consolidation's first sentences too.
ABBREVIATIONS = frozenset({"dr.", "mr.", "mrs.", "ms.", "prof.", "st.", "mt.", "jr.", "sr.", "inc.", "corp.", "ltd.",
                           "e.g.", "i.e.", "vs.", "etc.", "approx.", "cf.", "al."})
# Days in the other languages whose words the test reads (French, German, Spanish), as English's.
_DAY_WORDS = dict(zip("""lundi mardi mercredi jeudi vendredi samedi dimanche montag dienstag mittwoch donnerstag freitag
samstag sonntag lunes martes miércoles jueves viernes sábado domingo""".split(), WEEKDAY_NAMES * 3))
_MONTH_SHORT = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split())
_ORDINAL = frozenset({"st", "nd", "rd", "th"})
_DATED_BY = frozenset("on since until till by from before after".split())
_YEAR_BY = _DATED_BY | {"in"}  # "due in 2027", "by 2028": a year alone
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
CHANGE_VERBS = CHANGE_WORDS - _WHEN_CHANGED  # "moved", "switched": a change said with a verb
_ENDED = frozenset({"anymore", "any more", "no longer"})  # change words saying a denial has begun
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
DETERMINERS = frozenset("the my our your his her their its this that these those".split())
CLAUSE_WORDS = frozenset({"and", "but", "while", "whereas", "so"})
# Capitalised words opening a sentence that are never read as names, even before "is" (``_names_at``).
NOT_NAMES = STOP | DETERMINERS | PRONOUNS | CLAUSE_WORDS | NEGATIONS | frozenset(NUMBER_WORDS) | frozenset(
    WEEKDAY_NAMES + MONTH_NAMES) | frozenset("""today yesterday tomorrow tonight now currently recently lately
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
ALIGNED = 64  # words of each text aligned at most (difflib is quadratic: docs/benchmarks.md#contradictions)
PARALLEL = 0.35  # difflib ratio of two texts' words from which they are worded in parallel (docs/benchmarks.md)
SHORT = 8  # words of a one-line memory ("We use Python 3.11" / "Drop Python 3.9")
TINY = 6  # words of a memory whose vector is mostly its names' (``contradiction.REFILLED_SUBJECT``)
# Value types whose one-for-one swap is a change even without a shared neighbour word;
# a number needs one ("4 nodes" → "6 nodes", not "4 nodes" → "36 hours").
_SWAPPABLE = frozenset({"time", "day", "month", "date", "ident", "path", "name"})
_ANCHORING = frozenset({"name", "day", "month"})  # values that also name a slot for their neighbours
_NO_SLOT = frozenset("under over above below within through till around across along among between behind beyond"
                     " near".split())  # content words (not in ``STOP``) naming no value's slot (``_read``)


# Tools' names written in lower case, read as names where a name stands (``_name_slot``).
LOWER_NAMES = frozenset("""uv pip pipx npm pnpm yarn bun deno make cmake ninja bazel conda mamba poetry tox nox pytest
ruff black mypy pyright eslint prettier biome webpack vite esbuild rollup nginx caddy git kubectl helm""".split())


_OBJECTS = PRONOUNS | DETERMINERS | {"a", "an", "me", "us", "him", "them", "some", "more"}  # "to make it", "to make a"


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


# Words of a span of time, as stemmed, besides ``_WHEN``'s: "for the day", "for a while".
_SPANS = frozenset({"day", "hour", "minute", "while", "moment", "sprint", "holiday", "vacation"})


# Words before what a change goes to: "to GitHub Actions", "replaced Jenkins with ...", "swapped Kong for
# Traefik", "was replaced by Rollbar", "in favour of Yarn".
_TO = frozenset({"to", "into", "onto", "with", "for", "by", "of"})


# Words answering or greeting, as stemmed: they name no value's slot ("ok a6" / "ok b1": trial verify63 N8).
INTERJECTIONS = frozenset(stem(word) for word in "ok okay yes yeah yep yup thanks thx hi hello hey alright ack".split())


# Verbs that say only that a name is had, not which slot it fills: "We use Docker" and "We use Slack" are two
# tools side by side as often as one for the other, and the packaged model's cosine does not tell which.
_BARE = frozenset("use uses using used have has had like likes liked love loves need needs needed want wants "
                  "try tries tried get gets got own owns enjoy enjoys".split())


# Words of a time leading a clause, no subject's ("From this autumn Zoë's swimming group meets"), as stemmed
# (not "fall", "spring", "term": a verb, a framework, a word)
_WHEN = frozenset({"autumn", "summer", "winter", "week", "month", "year", "quarter", "today", "tomorrow", "tonight",
                   "morn", "even", "weekend", "season", "semester", *WEEKDAY_NAMES})


# Words that put two things in an order or a choice: "tabs over spaces", "pnpm instead of npm", "staging
# before production", "from MySQL to Postgres" (the last two: "to" only after "from", below).
_ORDERING = frozenset({"over", "instead", "rather", "than", "vs", "versus", "not", "before", "after", "then"})


# Words of a relative time, as stemmed, besides ``_WHEN``'s: "last month", "two weeks ago", "yesterday".
_RELATIVE = frozenset({"last", "ago", "yesterday", "earlier", "past", "previous", "day", "hour"})


# What a question asks for, by its words, as the kinds of value an answer holds ("which host ..." wants a
# host, "what port ..." a number): a memory changing a value of another kind does not outdate an older one
# for that question (trial 50: "The payments-api port is 9443" outdated the host's memory for "which host").
_WHEN_KINDS = frozenset({"time", "day", "month", "date"})  # "20 December" is a date (``_calendar``)
