"""Near misses: a memory about a sibling of what the question names ("the Q1 audit deadline" for
"when is the Q2 audit deadline?", "the Berlin office wifi" for "the Paris office wifi?"). Such a
memory matches every other word of the question, so its similarity and its lead over the rest are
high, and recall was sure of it. Read on words, no model: docs/retrieval-tuning.md#siblings."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import islice

from .contradiction_words import HEADS, REGIONS, region_us, stem
from .query import AUXILIARIES, GENERIC_WORDS, SHORT_FORMS, STOP_WORDS, asked_type, labels
from .roles import asks_for_someone, other_role
from .textindex import FOLDED_LETTERS
from .timefmt import MONTH_NAMES, WEEKDAY_NAMES

_TOKEN = re.compile(r"\w(?:[\w.:+-]*\w)?")  # a time with its offset is one word: "09:00+01:00"
_PARTS = re.compile(r"[-_.]")
_SHAPE = re.compile(r"([a-z])[a-z]*|([0-9])[0-9]*")
MONTHS, WEEKDAYS = frozenset(MONTH_NAMES), frozenset(WEEKDAY_NAMES)
# Where software runs: one of them in place of another is another system ("production" for "staging");
# a short name is its long one.
ENVIRONMENTS = {"production": "production", "prod": "production", "staging": "staging", "stage": "staging",
                "stg": "staging", "development": "development", "dev": "development", "test": "testing",
                "testing": "testing", "qa": "qa", "sandbox": "sandbox", "preview": "preview", "uat": "uat",
                "preprod": "preproduction", "preproduction": "preproduction",
                "produktion": "production", "produccion": "production", "entwicklung": "development",
                "developpement": "development", "desarrollo": "development"}  # German, French, Spanish, unaccented

# Closed sets of alternatives written as common words: one in place of another is another thing
# ("the web app" for "the mobile app", "the pro plan" for "the free plan", "gold" for "silver").
ALTERNATIVES = {
    **dict.fromkeys(("web", "mobile", "ios", "android", "desktop", "macos", "windows", "linux"), "platform"),
    **dict.fromkeys(("free", "pro", "premium", "enterprise", "starter", "basic", "trial"), "tier"),
    **dict.fromkeys(("bronze", "silver", "gold", "platinum"), "level"),
    **dict.fromkeys(REGIONS, "region"),
    # Someone of the speaker's by relation, and a pet: another is someone else ("grandma's birthday" for
    # grandpa's, "the neighbour's dog" for the cat); ``ONE_OF`` folds the words for one into one.
    **dict.fromkeys((w + s for w in """mother father grandmother grandfather son daughter brother sister
        grandson granddaughter uncle aunt nephew niece cousin husband wife boyfriend girlfriend fiance stepmother
        stepfather stepson stepdaughter stepbrother stepsister mother-in-law father-in-law son-in-law
        daughter-in-law brother-in-law sister-in-law half-brother half-sister godfather godmother godson goddaughter
        roommate landlord landlady tenant boss manager colleague""".split()
                     for s in ("", "s")), "relation"),
    **dict.fromkeys((w + s for w in """cat dog rabbit hamster guinea parrot budgie horse pony fish goldfish
        bird turtle tortoise snake lizard ferret""".split() for s in ("", "s")), "pet"),
}
ONE_OF = {**{w: "mother" for w in "mom mum mommy mummy mama".split()},
          **{w: "father" for w in "dad daddy papa".split()},
          **{w: "grandmother" for w in "grandma granny nana grandmom".split()},
          **{w: "grandfather" for w in "grandpa granddad grandad gramps grandpop".split()},
          **{w: "colleague" for w in "coworker co-worker workmate".split()},
          **{w: "roommate" for w in "flatmate housemate roomie room-mate flat-mate house-mate".split()},
          **{w: "roommates" for w in "flatmates housemates roomies".split()},
          **{"step-" + w: "step" + w for w in "mother father son daughter brother sister".split()},
          "step-mom": "stepmother", "step-dad": "stepfather",
          **{w: "dog" for w in "puppy pup doggy doggie doggo".split()},
          **{w: "dogs" for w in "puppies pups doggies doggos".split()},
          # "fiancé" is written for either and folds to "fiance" without its accent: one word with "fiancée".
          "fiancee": "fiance", "hubby": "husband", "stepmom": "stepmother", "stepdad": "stepfather",
          "kitten": "cat", "kitty": "cat", "kittens": "cats", "kitties": "cats", "bunny": "rabbit", "bunnies": "rabbits"}
SPELLED_OTHERWISE = frozenset(ONE_OF) | frozenset(ONE_OF.values())  # a memory may name it by another of them


# Words naming a plan one subscribes to: the word right before one is a tier whatever else it may mean
# ("the Team tier", "the Business plan", "the Family plan" for "the Pro tier").
PLAN_HEADS = frozenset("tier tiers plan plans edition editions subscription subscriptions license licence".split())
# Words a tier is said of: a tier asked before one stands alone ("customers on the free plan?", "free users"
# for "Enterprise customers get ...").
TIER_HEADS = PLAN_HEADS | frozenset(w + s for w in "customer user account member subscriber client".split()
                                    for s in ("", "s"))
# Roles held of something: the word after one and "of" or "for" names which, as the word before a team
# does ("the product owner of billing" for "the product owner of search", "on call for payments").
ROLES = frozenset("owner lead head manager maintainer on-call oncall call contact director sponsor champion steward"
                  " reviewer approver charge responsible".split())
# Who speaks in a transcript's turn ("Melanie: Yeah, I play clarinet!"): the speaker stands in no
# word's place.
SPEAKER = re.compile(r"\s*[A-Z][a-z]+(?: [A-Z][a-z]+)?:\s")
_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b")
# Someone of the speaker's the question asks of: the doer after "do/does/did", or an owner ("my wife's").
_OTHER_PERSON = re.compile(r"\b(?:do|does|did|will|would|can|could|should)\s+my\s+(\w+)\b|\bmy\s+(\w+)['’]s\b", re.I)
_FIRST_PERSON = frozenset({"i", "me"})
_NAMED_DOER = re.compile(r"\b(?:[Dd]o|[Dd]oes|[Dd]id)\s+([A-Z][a-z]+)\s+[a-z]")
Words = tuple[tuple[str, tuple[str, ...], str], ...]  # each word of a text: folded, its types, as written
READ_CHARS = 4096  # of a text, read for its siblings (docs/limits.md, the siblings paragraph)
NEAR = 2  # words (stop words aside) after a word, and before one of a closed set, that place it ("Berlin half marathon")


def sibling(question: str, content: str) -> tuple[str, str] | None:
    """``(question word, memory word)``: a word of ``question`` that ``content`` lacks and a word of
    ``content`` of the same type (:func:`_kinds`: a name, a code with digits of one form, a month, a
    weekday, an environment, a platform, a tier, a level, a region, a relative, a pet, the word before a
    group such as a team or an office or after a role and "of" or "for": "owner of search"), not in the
    question, in its place: both followed by the same word within
    ``NEAR`` words (stop words aside) or after the same word (within ``NEAR`` for the closed sets, the
    nearest for the rest) ("Q2 security" / "Q1 security", "Paris marathon" / "Berlin half marathon",
    "March's bill" / "February's bill", "Marco like to do code reviews" / "Priya prefers code
    reviews"), beside one of ``HEADS`` on either side ("Madrid office" / "office in Lisbon"), a
    region in a code ("US region" / "bucket webshop-assets-eu"), codes sharing their first or last
    part ("es-logs-01" / "es-logs-02"), a month or weekday the memory's name lengthens
    ("August" / "Augustin"), another first word of a noun phrase before the same noun
    (:func:`_modifier`: "the search outage" / "The checkout outage"), or someone of the speaker's
    asked of where the speaker is the memory's doer (:func:`_someone_else`: "does my wife like" / "I
    prefer"), another of a closed set anywhere in the memory when the question's stands alone or
    before a word the memory holds ("runs on prod?" / "the staging cluster"), or a month, weekday or
    season as someone in one text and a time in the other (:func:`_person_or_time`), or another role
    than the one asked (:func:`_another_role`: "on call for search" / "the tech lead of search"); None when there
    is none. Words compare without case or accents ("Soren" is "Søren"), and the words for one
    relative or pet as one (``ONE_OF``: "mom" is "mother"). Linear in the words."""
    asked, said = read_words(question), read_words(content)
    parts = {stem(ENVIRONMENTS.get(p, p)) for w, kinds, _ in said if any(k.startswith("code") for k in kinds)
             for p in _PARTS.split(w)}
    have, wanted = {stem(w) for w, _, _ in said} | parts, {stem(w) for w, _, _ in asked}
    labelled = {w for w, kinds, _ in said if w in STOP_WORDS and kinds == ("name",)}
    beside: dict[tuple[str, str, str], str] = {}  # (type, side, the stem of a word there) of typed words
    codes: dict[tuple[str, int, str], tuple[int, str]] = {}  # (type, first or last, part): the first such code
    longer: list[tuple[str, set[tuple[str, str]]]] = []  # the memory's names, with the words near them
    closed: dict[str, str] = {}  # a closed set's type: the memory's first word of it the question lacks
    opening = _openings(content)
    for at, (word, kinds, written) in enumerate(said):
        if not kinds or stem(word) in wanted:
            continue
        for kind in _CLOSED_KINDS.intersection(kinds) - _TIME_KINDS:
            closed.setdefault(kind, word)
        for kind in kinds:  # a word opening a sentence is placed by the word right after it only
            for side, other in _neighbours(said, at, kind, far=at not in opening):
                beside.setdefault((kind, side, other), word)
            if kind.startswith("code"):
                for end in (0, -1):
                    codes.setdefault((_type_of(word), end, _PARTS.split(word)[end]), (at, word))
        if "name" in kinds and written[1:].islower():
            longer.append((word, _neighbours(said, at, "name", far=True)))
        for part in (ENVIRONMENTS.get(p, p) for p in _PARTS.split(word) if any(k.startswith("code") for k in kinds)):
            kind = _closed(part)
            if kind is not None and stem(part) not in wanted:
                closed.setdefault(kind, part)
                for side, other in _neighbours(said, at, kind, far=True):
                    beside.setdefault((kind, side, other), part)
    for at, (word, kinds, written) in enumerate(asked):
        label = word in STOP_WORDS and kinds == ("name",)  # "A" of "Plan A": held only as a label ("a month": none)
        if not kinds or (word in STOP_WORDS and written != "US" and not label) or word in GENERIC_WORDS \
                or (word in labelled if label else stem(word) in have):
            continue
        for kind in kinds:
            for side, other in _neighbours(asked, at, kind):
                if other in have and (kind, side, other) in beside:
                    return word, beside[(kind, side, other)]
            parts = _PARTS.split(word)
            found = [codes[(kind, end, part)] for end, part in ((0, parts[0]), (-1, parts[-1]))
                     if len(parts) > 1 and (kind, end, part) in codes]
            if found:  # the first of the memory's codes sharing a first or last part ("es-logs-01" / "es-logs-02")
                return word, min(found)[1]
            # Another of a closed set anywhere in the memory: the question's word alone or before a noun
            # the memory holds ("runs on production?", "in prod", "staging backups" / "backups of the production"),
            # a tier before a word of ``TIER_HEADS`` too ("customers on the free plan?" / "enterprise customers");
            # not a month or weekday: a time the question names is the time rules' ("decided in March" is
            # answered by what was observed then, whatever date it names).
            if kind in closed and kind not in _TIME_KINDS \
                    and all(stem(w) in have or kind == "tier" and w in TIER_HEADS
                            for w in _unstopped(asked, range(at + 1, len(asked)), 1)):
                return word, closed[kind]
        if written[:1].isupper() and ("month" in kinds or "weekday" in kinds):
            near = _neighbours(asked, at, "name")
            for name, around in longer:
                if name.startswith(word) and len(name) > len(word) + 1 and near & around:
                    return word, name
    return _modifier(asked, said, _speaker(content), have, wanted, asked_type(question)) \
        or _someone_else(question, asked, said, have) or _name_as_word(asked, said) or _person_or_time(asked, said) \
        or _another_role(asked, said)


def _another_role(asked: Words, said: Words) -> tuple[str, str] | None:
    """``(question word, memory word)``: the role the question asks for and another the memory names in
    its place (``roles.other_role``: "on call" / "the tech lead of search")."""
    question = [(w, written) for w, _, written in asked]
    if not asks_for_someone(question):
        return None  # most questions: the memory is not read
    found = other_role(question, [(w, written) for w, _, written in said])
    return None if found is None else (asked[found[0]][0], said[found[1]][0])


# A month, weekday or season as someone: the doer after "does" and before a verb, after "ask", before "said";
# as a time: after "in", "by", "every" ..., or beside a number ("August 5", "5 August").
_ASKING = frozenset("ask asked tell told ping thank".split())
_PERSON_AFTER = frozenset("said says say thinks thought wants wanted asked told".split())
_TIME_BEFORE = frozenset("in on by until till since during before after from through every next last this each of"
                         " early mid late".split())
_TIMES = MONTHS | WEEKDAYS | frozenset("spring summer autumn winter".split())


def _person_or_time(asked: Words, said: Words) -> tuple[str, str] | None:
    """``(word, word)`` when the question uses a month, weekday or season written in both texts only as
    someone ("what does August approve?") and the memory only as a time ("no migrations in August"), or
    the reverse ("what happens in May?" / "Ask May first")."""
    for word in dict.fromkeys(w for w, _, _ in asked if w in _TIMES):
        uses = [_uses(words, word) for words in (asked, said)]
        if len(uses[0]) == len(uses[1]) == 1 and uses[0] != uses[1]:
            return word, word
    return None


def _uses(words: Words, word: str) -> set[str]:
    """How ``words`` use the month, weekday or season ``word``: "person", "time" (see ``_ASKING``)."""
    out = set()
    for at, (w, _, _) in enumerate(words):
        if w != word:
            continue
        before, after = words[at - 1][0] if at else "", words[at + 1] if at + 1 < len(words) else ("", (), "")
        if before in _ASKING or after[0] in _PERSON_AFTER \
                or before in AUXILIARIES and after[2].islower() and after[0] not in STOP_WORDS:
            out.add("person")
        elif before in _TIME_BEFORE or before.isdigit() or after[0].isdigit():
            out.add("time")
    return out


# Words opening a noun phrase: the word after one and before a noun names which ("the search outage").
_DETERMINERS = frozenset("the a an my our your his her their its this that these those which what whose".split())
_QUANTIFIERS = frozenset("all every each any some both".split())  # they open a noun phrase as a determiner does


def _modifier(asked: Words, said: Words, first: int, have: set[str], wanted: set[str],
              typed: str | None) -> tuple[str, str] | None:
    """``(question word, memory word)``: the first word of a noun phrase of two or more words (after
    one of ``_DETERMINERS`` or ``_QUANTIFIERS``, after a verb both texts hold (:func:`_opens`), or opening
    the memory) in each, the next word the same, the first
    words each only in its text ("the search outage" / "The checkout outage", "my brother's birthday" /
    "My sister's birthday"), unless two spellings of one word ("favorite" / "favourite") or the question's
    is ``typed``, the kind of thing it asks for, which the memory names ("which service listens" / "NFS
    listens": ``query.asked_type``)."""
    if sum(_content(w) and stem(w) not in have for w, _, _ in asked) != 1:
        return None  # a near miss holds every other word of the question
    heads: dict[str, str] = {}
    verbs = _before_determiners(asked) | _before_determiners(said)
    for at, (word, _, _) in enumerate(said[:-1]):
        if (at == first or at and _opens(said[at - 1], verbs, wanted)) and stem(word) not in wanted \
                and _phrase(said, at):
            heads.setdefault(stem(said[_noun(said, at)][0]), word)
    for at, (word, _, _) in enumerate(asked[:-1]):
        other = heads.get(stem(asked[_noun(asked, at)][0]))
        if other is not None and at and _opens(asked[at - 1], verbs, have) and word != typed \
                and stem(word) not in have \
                and _phrase(asked, at) and not _spelled_alike(word, other):
            return word, other
    return None


def _before_determiners(words: Words) -> set[str]:
    """The stems of the content words written in lowercase before a determiner or quantifier in
    ``words``: verbs taking an object ("reviews all ...", "owns the ...")."""
    return {stem(w) for (w, _, written), (after, _, _) in zip(words, words[1:])
            if written.islower() and _content(w) and (after in _DETERMINERS or after in _QUANTIFIERS)}


def _opens(before: tuple[str, tuple[str, ...], str], verbs: set[str], other: set[str]) -> bool:
    """Whether a noun phrase opens after the word ``before`` (an item of :data:`Words`): a determiner or
    quantifier, or one of ``verbs`` (:func:`_before_determiners` of either text) that the ``other`` text
    holds too, "reviews" of "who reviews frontend pull requests?" / "Mark reviews all infrastructure pull
    requests"; not a subject both hold ("Does Priya want tabs" / "Priya prefers tabs": a verb follows)."""
    word = before[0]
    return word in _DETERMINERS or word in _QUANTIFIERS or stem(word) in verbs and stem(word) in other


def _noun(words: Words, at: int) -> int:
    """Where the noun after the modifier at ``at`` stands, past the name of someone the modifier names
    ("my sister Ana's birthday", "my friend Luis's dog")."""
    after = at + 1
    while after + 1 < len(words) and "name" in words[after][1] and words[at][2].islower():
        after += 1
    return after


def _phrase(words: Words, at: int) -> bool:
    """Whether the words at ``at`` and after it may be a noun's modifier and the noun: content words,
    the second followed by no determiner (a verb's object: "my partner takes his coffee")."""
    return _content(words[at][0]) and _content(words[at + 1][0]) \
        and (at + 2 == len(words) or words[at + 2][0] not in _DETERMINERS)


def _someone_else(question: str, asked: Words, said: Words, have: set[str]) -> tuple[str, str] | None:
    """``(question word, memory word)``: the question asks of someone of the speaker's ("does my wife
    like", "my brother's") that the memory does not name, of no "I" or "me", and the memory speaks of
    the speaker as the doer ("I prefer dark roast coffee"); or of someone named as the doer ("does Elena
    like") where another name opens the memory before a verb ("Marco prefers ..."; not a turn's speaker)."""
    if not _FIRST_PERSON.isdisjoint(w for w, _, _ in asked):
        return None
    for m in _OTHER_PERSON.finditer(question):
        word = _folded(m.group(1) or m.group(2))
        if _content(word) and stem(word) not in have:
            return (word, "i") if "i" in have else None
    named = _NAMED_DOER.search(question)
    if named and stem(_folded(named.group(1))) not in have and len(said) > 1 and "name" in said[0][1] \
            and said[1][2].islower() and _content(said[1][0]):
        return _folded(named.group(1)), said[0][0]
    return None


def _spelled_alike(a: str, b: str) -> bool:
    """Two spellings of one word ("favorite" / "favourite", "oncall" / "on-call"): their first four letters alike."""
    a, b = (_PARTS.sub("", w) for w in (a, b))
    return len(a) > 4 and len(b) > 4 and a[:4] == b[:4]


def _content(word: str) -> bool:
    return word not in STOP_WORDS and word not in GENERIC_WORDS and not word.isdigit()


# Words after which a lowercase word is a verb or an adjective, no name: "what did we mark as done?",
# "will it be sunny?".
_NOT_BEFORE_NAMES = frozenset("i we you they be been being".split())
_NOT_AFTER_NAMES = frozenset("the a an this that these those our my your their his her its to into onto on in from"
                             " with for at by of up down out".split())


def _name_as_word(asked: Words, said: Words) -> tuple[str, str] | None:
    """``(question word, memory word)`` when the one word of the question that ``said`` holds (stop and
    generic words aside) is written in lowercase after a pronoun or "be" and is capitalised wherever
    the memory holds it: "mark" in "what did we mark as done?" is not "Mark prefers ..."."""
    have = {stem(w) for w, _, _ in said}
    shared = [(at, w) for at, (w, _, _) in enumerate(asked)
              if w not in STOP_WORDS and w not in GENERIC_WORDS and stem(w) in have]
    if len({stem(w) for _, w in shared}) != 1:
        return None
    at, word = shared[0]
    if not (at and asked[at][2].islower() and asked[at - 1][0] in _NOT_BEFORE_NAMES):
        return None
    written = [(form, said[i + 1][0] if i + 1 < len(said) else "") for i, (w, _, form) in enumerate(said)
               if stem(w) == stem(word)]
    # A name is written as asked and names a doer ("Mark prefers"); "Deployed the service" and
    # "Deploy to staging" are verbs.
    return (word, written[0][0]) if all(form[:1].isupper() and form.lower() == word and after not in _NOT_AFTER_NAMES
                                        for form, after in written) else None


def _neighbours(words: Words, at: int, kind: str, far: bool = False) -> set[tuple[str, str]]:
    """("after", stem) of the word right after ``at`` unless it is a stop word and ("before", stem) of
    the nearest before it that is none: of ``NEAR`` for a closed set's ``kind``, and after it when ``far`` (the
    memory's side: "Paris marathon" / "Berlin half marathon"); one of ``HEADS`` is on either side
    ("our Madrid office", "our office in Lisbon")."""
    wide = kind in _CLOSED_KINDS
    before = _unstopped(words, range(at - 1, -1, -1), NEAR if wide else 1)
    after = _unstopped(words, range(at + 1, len(words)), NEAR) if wide or far \
        else [w for w, _, _ in words[at + 1:at + 2] if w not in STOP_WORDS]
    out = {("before", stem(w)) for w in before} | {("after", stem(w)) for w in after}
    return out | {(side, stem(w)) for w in before + after if w in HEADS for side in ("before", "after")}


def _unstopped(words: Words, places: range, most: int) -> list[str]:
    """The first ``most`` words at ``places`` that are no stop words (reading no further: linear)."""
    return list(islice((words[at][0] for at in places if words[at][0] not in STOP_WORDS), most))


def _read(text: str) -> str:
    """What is read of ``text``: its first ``READ_CHARS`` characters, ending at a space (a long memory's
    first words; linear and bounded, however long the memory), a hyphen before a plan's or a group's word a space."""
    read = text if len(text) <= READ_CHARS else text[:READ_CHARS].rsplit(None, 1)[0]
    return _TIER_HYPHEN.sub(" ", read)


# "free-tier customers" is "free tier customers": the word before the plan's word is its tier (verify 59 N2); so is
# a group's ("Marketing-Team", "sales-team", "Berlin-office": ``HEADS``).
_TIER_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=(?:%s)s?\b)" % "|".join(sorted(HEADS | {"tier", "plan"})), re.I)


@lru_cache(maxsize=4096)
def _openings(text: str) -> frozenset[int]:
    """The positions of the words of :func:`read_words` that open a sentence of ``text``: nothing but
    space before them, or a sentence's or clause's end mark (``.!?:;``) or a quote."""
    stripped = _POSSESSIVE.sub("", _read(text))
    out, last, end = set(), "", 0  # last: the last character before the word that is no space
    for at, m in enumerate(_TOKEN.finditer(stripped)):
        gap = stripped[end:m.start()].rstrip()
        last = gap[-1] if gap else last
        if not last or last in ".!?:;\"'":
            out.add(at)
        last, end = m.group()[-1], m.end()
    return frozenset(out)


@lru_cache(maxsize=4096)  # a recall reads the question, and its hits, once for each of its hits
def read_words(text: str) -> Words:
    """Each word of ``text`` ("'s" aside; of its first ``READ_CHARS`` characters), lowercased without
    accents, with its types (:func:`_kinds`; none for a turn's speaker) and as written."""
    speaker = _speaker(text)
    written = _TOKEN.findall(_POSSESSIVE.sub("", _read(text)))
    folded = [_folded(w) for w in written]
    written = ["US" if w == "us" and region_us(folded[at - 1] if at else "", folded[at + 1] if at + 1 < len(folded)
                                              else "") else w for at, w in enumerate(written)]
    return tuple((lower, (("name",) if labels(written, at) else _kinds(  # "A" of "Plan A": a name (``query.labels``)
        word, folded[at + 1] if at + 1 < len(folded) else None, _role(folded, at))) if at >= speaker else (), word)
        for at, (word, lower) in enumerate(zip(written, folded, strict=True)))


def _role(folded: list[str], at: int) -> str | None:
    """The word of ``ROLES`` (one of it: "owners" is "owner") before "of" or "for" (and "the", "a") before
    the word at ``at``."""
    before = [w for w in folded[max(0, at - 3):at] if w not in ("the", "a", "an")][-2:]
    role = before[0].removesuffix("s") if len(before) == 2 and before[1] in ("of", "for") else None
    return role if role in ROLES else None


def _speaker(text: str) -> int:
    """How many words of ``text`` name a turn's speaker ("Melanie: ...")."""
    label = SPEAKER.match(text)
    return len(_TOKEN.findall(label.group(0))) if label else 0


def _kinds(word: str, following: str | None, role: str | None = None) -> tuple[str, ...]:
    """The types of ``word`` (:func:`_type`), and, when it is no stop or generic word or number,
    "before:<head>" when the word after it is one of ``HEADS`` ("search" in "the search team"),
    "tier" when it is one of ``PLAN_HEADS`` ("Team" in "the Team tier") and "of:<role>" after a ``role``
    ("search" in "the owner of search")."""
    kind = _type(word)
    lower = _folded(word)
    kinds = () if kind is None else (kind,)
    if lower in STOP_WORDS or lower in GENERIC_WORDS or lower.isdigit():
        return kinds
    if following in HEADS and lower not in HEADS:
        kinds += ("before:" + following,)
    if following in PLAN_HEADS and lower not in PLAN_HEADS and "tier" not in kinds:
        kinds += ("tier",)
    return kinds if role is None else (*kinds, "of:" + role)


_CLOSED_KINDS = frozenset({"month", "weekday", "environment", *ALTERNATIVES.values()})
_TIME_KINDS = frozenset({"month", "weekday"})


def _closed(lower: str) -> str | None:
    """The closed set ``lower`` is of: "month", "weekday", "environment", a set of ``ALTERNATIVES``."""
    if lower in MONTHS:
        return "month"
    if lower in WEEKDAYS or lower[-1:] == "s" and lower[:-1] in WEEKDAYS:  # "on Sundays"
        return "weekday"
    if lower in ENVIRONMENTS:
        return "environment"
    return ALTERNATIVES.get(lower)


def alternatives(a: str, b: str) -> bool:
    """Whether two words are two of one closed set other than months and weekdays (an environment, a platform, a
    tier, a level, a region, a relative, a pet): "staging" / "production", "prod" / "staging", "web" / "mobile"; not
    "prod" / "production" (one environment)."""
    one, other = _folded(a), _folded(b)
    kind = _closed(one)
    return kind is not None and kind not in _TIME_KINDS and kind == _closed(other) and one != other


@lru_cache(maxsize=1 << 16)
def _folded(word: str) -> str:
    lower = "".join(c for c in unicodedata.normalize("NFKD", word.lower().translate(FOLDED_LETTERS))
                    if not unicodedata.combining(c))
    return ENVIRONMENTS.get(lower) or ONE_OF.get(lower) or SHORT_FORMS.get(lower, lower)


def _type(word: str) -> str | None:
    """"month", "weekday", "environment", a set of ``ALTERNATIVES`` ("platform", "tier", "level"), "code:<form>" (a digit or an inner "-", "_" or "." in it:
    "Q2" and "Q7" share the form "a9", "es-logs-01" "a-a-9", "search-api" "a-a"), "acronym" (all capitals, three
    or more: "GDPR"), "name" (capitalized), or None."""
    lower = _folded(word)
    if lower == "us" and word != "US":
        return None  # the pronoun
    closed = _closed(lower)
    if closed is not None:
        return closed
    if any(c.isdigit() for c in word) or _PARTS.search(word.strip("._-")):
        return _type_of(lower)
    if word[:1].isupper() and lower not in STOP_WORDS:
        return "acronym" if len(word) > 2 and word.isupper() else "name"
    return None


def _type_of(code: str) -> str:
    return "code:" + _SHAPE.sub(lambda m: "a" if m.group(1) else "9", code)
