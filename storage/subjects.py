"""Near misses of whom a memory tells and what it holds: the question asks of one person ("Does Alice
from accounting prefer tea?") and the memory tells of another ("Bob from accounting prefers tea over
coffee"), asks for one group ("the laptop budget for designers") and the memory holds another's ("...
for engineers"), or asks for a count or an age the memory does not hold ("How old is my daughter?" over
"My daughter's birthday is on 14 March"). :func:`near_miss` adds these to ``siblings.sibling``. Read on
words, no model: docs/retrieval-tuning.md#siblings."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import takewhile

from .contradiction_words import stem
from .query import ADVERBIAL, AUXILIARIES, STOP_WORDS
from .siblings import MONTHS, SPEAKER, WEEKDAYS, Words, read_words, sibling
from .timewords import names_as_times

# Groups of people a rule, a budget or a benefit is for: one in place of another is another audience
# ("the laptop budget for designers" / "... for engineers"). Each word and its plural.
AUDIENCES = frozenset(w + s for w in """engineer designer intern contractor manager executive director analyst
    scientist researcher marketer salesperson student teacher volunteer trainee apprentice freelancer consultant
    employee newcomer joiner hire tester admin administrator lawyer nurse""".split() for s in ("", "s")) \
    | frozenset({"staff", "salespeople", "execs", "exec", "devs"})
_AFTER_NEW = frozenset("hire hires joiner joiners".split())  # an audience only as "new hires", "new joiners"
# One audience in other words: a developer, a programmer and a software engineer are engineers
# (docs/limits.md says so; a tester or an analyst is not).
SAME_AUDIENCE = {"developer": "engineer", "developers": "engineers", "devs": "engineers",
                 "programmer": "engineer", "programmers": "engineers", "swe": "engineer", "swes": "engineers",
                 "execs": "executives", "exec": "executive", "salespeople": "salesperson",
                 "administrator": "admin", "administrators": "admins", "newcomer": "hire", "newcomers": "hires",
                 "joiner": "hire", "joiners": "hires", "freelancer": "contractor", "freelancers": "contractors"}
AUDIENCE_SPELLINGS = frozenset(SAME_AUDIENCE) | frozenset(SAME_AUDIENCE.values())  # a memory may use another
# Words before a name that make it the doer or the one a question is about ("Does Alice ...", "Is Bob ...").
_AUXILIARIES = AUXILIARIES | frozenset("is was are were has have had".split())
# Words after a name that qualify who it is ("Bob from accounting", "Bob in sales", "Bob on the infra team").
_QUALIFIERS = frozenset("from in on at".split())
_TIMES = MONTHS | WEEKDAYS
_PIECE = re.compile(r"[(),.!?;:]|[^\W_](?:[\w'’-]*\w)?")
_ENDS = frozenset(".!?;:")
# The measure a question asks for that only a number (or a number's word) gives: a count, an age.
# Asked first: "who should I consult before altering how many entries we have?" asks for someone. Times and
# spans ("how many times", "how many months passed") count events told apart, no memory's value.
_COUNT = re.compile(r"^\W*how\s+many\s+(?!(?:times|years|months|weeks|days|hours|minutes)\b)(\w+(?:\s+\w+){0,2})", re.I)
_AGE = re.compile(r"^\W*(?:how\s+old|what\s+age)\b", re.I)
# A count or a size in other words ("What's the headcount of ...?", "How big is the team?"; verify 59 N2).
_SIZE = re.compile(r"^\W*(?:how\s+(?:big|large)\s+(?:is|are|was|were)"
                   r"|what(?:['’]s|\s+is|\s+was)\s+the\s+headcount)\b", re.I)
# A birth year, which only a year (or an age) gives: "My daughter's birthday is on 14 March" holds none.
_YEAR_BORN = re.compile(r"^\W*(?:what|which)\s+year\s+(?:was|were|is)\b[^?.!]{1,60}?\bborn\b", re.I)
# Words beside which a number is an age ("7 years old", "turned 7", "born in 2019"); a year in digits is one too.
_AGE_WORDS = frozenset("old age aged born year years month months turned turns turning".split())
_NUMBER_WORDS = frozenset("""zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
    hundreds thousand thousands million millions dozen dozens single couple few several many no none unlimited
    half both first second third fourth fifth sixth seventh eighth ninth tenth""".split())
_YEAR = re.compile(r"(?:1[89]|20)\d\d")  # a year of birth in digits: from 1800, earlier than timefmt.YEAR


@lru_cache(maxsize=1024)  # a recall asks it of its top hits twice: for their rivals, then for their confidence
def near_miss(question: str, content: str) -> tuple[str, str] | None:
    """``(question word, memory word)`` when ``content`` is about a sibling of what ``question`` names
    (``siblings.sibling``), about another person (:func:`another_person`) or group
    (:func:`another_group`), names a person's name only as the time it also is (``timewords.names_as_times``:
    "in August" for "What does August do?"), or lacks the count or age asked (:func:`lacks_the_number`); None
    otherwise."""
    return sibling(question, content) or another_person(question, content) or another_group(question, content) \
        or _a_time_for_a_name(question, content) or lacks_the_number(question, content)


def _a_time_for_a_name(question: str, content: str) -> tuple[str, str] | None:
    name = names_as_times(question, content)
    return None if name is None else (name, name)


def another_person(question: str, content: str) -> tuple[str, str] | None:
    """``(asked name, memory's name)`` when ``question`` asks of someone by name (after "does", "is",
    "did" ..., as an owner, "Alice's", or with a qualifier, "Alice from accounting") whom ``content`` never
    names, and ``content``'s first sentence tells of someone else: a name opening it before a verb, an
    owner's "'s" or a qualifier ("Bob from accounting prefers", "Bob (our CTO) likes", "Bob, our CTO,
    likes"). Names are capitalised words; a month or weekday after a word for a time is a time."""
    asked = read_words(question)
    subject = _subject(content)
    if subject is None:
        return None
    have = {stem(w) for w, _, _ in read_words(content)}
    for at, (word, _, written) in enumerate(asked):
        if at and stem(word) not in have and (_named(written) and _of_someone(question, asked, at)
                                              or _named_in_lower_case(asked, at)):
            return word, subject
    return None


def _named_in_lower_case(asked: Words, at: int) -> bool:
    """Whether the word at ``at`` of ``asked`` is someone's name written in lower case: after "does",
    "did", or "is", "was", "has" opening the question or after "where", "when", "why", "how", and before a
    qualifier and its word ("does alice from accounting prefer tea?"; verify 59 N2), no stop word, group
    ("staff") or word for anyone ("does anyone in sales ..."). After "what is", "who was", "which team has"
    the asked word is the subject and the next is its verb or state ("what was chosen on Tuesday?", "who is
    working in March?", "what is due on Friday?"): no name."""
    word, _, written = asked[at]
    before = asked[at - 1][0]
    return written.isalpha() and written.islower() and word not in STOP_WORDS and word not in _ANYONE \
        and word not in AUDIENCES and (before in _DO_AUXILIARIES or before in _BE_AUXILIARIES and (
            at == 1 or asked[at - 2][0] in ADVERBIAL)) \
        and at + 2 < len(asked) and asked[at + 1][2] in _QUALIFIERS


_DO_AUXILIARIES = frozenset("does did".split())  # a subject always follows: "what does alice ... prefer?"
_BE_AUXILIARIES = frozenset("is was has".split())
_ANYONE = frozenset("anyone someone everyone anybody somebody nobody everybody one each team people".split())


def _named(written: str) -> bool:
    """Whether a word as written may be someone's name: capitalised, the rest lowercase letters ("CoreDNS",
    "GitHub" and "SLA" are things), no stop word but "Will"."""
    return written[:1].isupper() and written[1:].islower() and written.isalpha() \
        and (written.lower() not in STOP_WORDS or written == "Will")


def _of_someone(question: str, asked: Words, at: int) -> bool:
    """Whether the word at ``at`` of ``asked`` stands for someone: after an auxiliary ("does Alice"), as
    an owner ("Alice's") or before a qualifier ("Alice from accounting", "Alice (our CTO)"). After an
    auxiliary the name (and a family name) comes before a verb's plain form, a qualifier, "a" or "the", or
    ends the question: "were South American users alerted?" names no one."""
    word, _, written = asked[at]
    before = asked[at - 1][0]
    if word in _TIMES and before not in _AUXILIARIES:
        return False
    if re.search(rf"\b{re.escape(written)}(?:['’]s?\b|\s*\()", question):
        return True
    end = at + 1 + (at + 1 < len(asked) and _named(asked[at + 1][2]))
    after = asked[end][2] if end < len(asked) else ""
    if after in _QUALIFIERS:
        return True
    return before in _AUXILIARIES and (after in ("", "a", "an", "the") or _verb(after) and after not in STOP_WORDS
                                       and (not after.endswith("s") or after.endswith("ss")))


def _subject(content: str) -> str | None:
    """The name (lowercase) of whom ``content``'s first sentence tells: its first word capitalised (and
    maybe a second), then "'s", a qualifier ("from accounting", "(our CTO)", ", our CTO,") or a lowercase
    word that is no stop word or "is", "was", "has"; None otherwise, and for a transcript's turn ("Nate:
    ..."), whose speaker is whom it tells of."""
    if SPEAKER.match(content):
        return None
    pieces = _PIECE.findall(content[:200])
    pieces = pieces[:next((i for i, p in enumerate(pieces) if p in _ENDS), len(pieces))]  # its first sentence
    if not pieces or not _named(_OWNER.sub("", pieces[0])) or pieces[0].endswith("ing"):
        return None
    second = pieces[1] if len(pieces) > 1 else ""
    if pieces[0].lower() in _TIMES and not (second in _QUALIFIERS or _verb(second) and second not in STOP_WORDS
                                            and second.endswith(("s", "ed"))):
        return None  # "March is busy", "Monday standups": a time; "May from legal reviews", "May prefers": someone
    name, at = pieces[0], 1
    if _OWNER.search(name):
        return _OWNER.sub("", name).lower()  # "Bob's favourite drink is tea"
    if at < len(pieces) and _named(pieces[at]):
        at += 1  # a family name
    if at >= len(pieces):
        return None
    following = pieces[at]
    if _OWNER.search(following):
        return name.lower()
    if following == "(" and ")" in pieces[at:at + 8]:
        at = pieces.index(")", at) + 1
    elif following == "," and "," in pieces[at + 1:at + 6]:
        at = pieces.index(",", at + 1) + 1
    elif following in _QUALIFIERS:
        at = next((i for i in range(at + 2, min(len(pieces), at + 6))
                   if _verb(pieces[i]) and pieces[i - 1] not in ("the", "a", "an", "our")), len(pieces))
    return name.lower() if at < len(pieces) and _verb(pieces[at]) else None


def _verb(piece: str) -> bool:
    """Whether a word may be a verb after a subject: lowercase, no stop word but "is", "was", "has" ..."""
    return piece.isalpha() and piece.islower() and (piece not in STOP_WORDS or piece in _AUXILIARIES)


_OWNER = re.compile(r"['’]s?$")


_QUALIFIED = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?(?:\s+(?:from|in|on|at)\s+(?:the\s+|our\s+)?([\w-]+)"
                        r"(?:\s+(team|department|group|squad|office|org))?|\s*\(([^()]{1,40})\))")


def qualifying(question: str) -> list[str]:
    """The words qualifying someone ``question`` names: "accounting" of "Alice from accounting", "infra"
    and "team" of "Alice on the infra team", "our" and "CTO" of "Alice (our CTO)". They tell whom it asks
    of, not what: a memory of that person without them still answers (``candidates.unheard_words``)."""
    return [w for m in _QUALIFIED.finditer(question) for part in m.groups() if part for w in part.split()]


def another_group(question: str, content: str) -> tuple[str, str] | None:
    """``(asked group, memory's group)`` when ``question`` asks for one of ``AUDIENCES`` that ``content``
    does not hold, at the question's end or before a word ``content`` holds ("for designers?", "the
    designers' laptop budget"), and ``content`` holds another, not in ``question`` ("for engineers").
    ``SAME_AUDIENCE`` folds the words for one audience into one ("developers" are "engineers")."""
    asked, said = read_words(question), read_words(content)
    have = {stem(_audience(w)) for w, _, _ in said}
    wanted = {stem(_audience(w)) for w, _, _ in asked}
    # Asked who does something, the memory's doer may be the answer ("Managers approve expenses" for "who
    # approves expenses for engineers?"): only a group after its first two words is another audience then.
    after = 2 if asked and asked[0][0] in ("who", "whom") else 0
    other = next((w for at, (w, _, _) in enumerate(said) if at >= after and _group(said, at)
                  and stem(_audience(w)) not in wanted), None)
    if other is None:
        return None
    for at, (word, _, _) in enumerate(asked):
        if not _group(asked, at) or stem(_audience(word)) in have:
            continue
        following = next((w for w, _, _ in asked[at + 1:] if w not in STOP_WORDS), None)
        if following is None or stem(_audience(following)) in have or at and asked[at - 1][0] in _AUDIENCE_BEFORE \
                or at > 1 and asked[at - 2][0] in _AUDIENCE_BEFORE and asked[at - 1][0] not in STOP_WORDS:
            return word, other  # "do product managers get", "for data scientists"
    team = _TEAM.search(question)
    if team is not None and not {stem(w.lower()) for w in team.group(1, 2)} & have:
        return team.group(1).lower(), other  # "for the sales team?" over "for engineers"
    return None


# A group of people as a team after "for" ("the laptop budget for the sales team"; verify 59 N2).
_TEAM = re.compile(r"\bfor\s+(?:the|our)\s+([^\W\d_]+)\s+"
                   r"(team|department|org|organisation|organization|group|squad)s?\b", re.I)


_AUDIENCE_BEFORE = frozenset("for do does to".split())  # "for designers", "do designers get"


def _group(words: Words, at: int) -> bool:
    """Whether the word at ``at`` names one of ``AUDIENCES`` ("hires" only after "new": "who hires ...?")."""
    word = words[at][0]
    return word in AUDIENCES and (word not in _AFTER_NEW or at > 0 and words[at - 1][0] == "new")


def _audience(word: str) -> str:
    return SAME_AUDIENCE.get(word, word)


def _counts(said: Words) -> bool:
    """Whether words read by ``siblings.read_words`` hold a number, in digits or words ("two", "a dozen")."""
    return any(any(c.isdigit() for c in w) or w in _NUMBER_WORDS for w, _, _ in said)


def lacks_the_number(question: str, content: str) -> tuple[str, str] | None:
    """``("how many", "")`` (or the words asking an age) when ``question`` asks for a count or an age and
    ``content`` holds no number, in digits or words ("two", "a dozen"), nor what is counted, or for an
    age and ``content`` holds no word of one nor a year ("7 years old", "born in 2019"): "How many people
    are on the payments team?" over "Maria leads the payments team", "How old is my daughter?" over "My
    daughter's birthday is on 14 March"; a count asked as a headcount or a size ("How big is the payments
    team?") or a birth year ("What year was my daughter born?") the same way."""
    said = read_words(content)
    if (asking := _YEAR_BORN.search(question)) is not None:
        if not any(w in _AGE_WORDS - {"born"} or _YEAR.fullmatch(w) for w, _, _ in said):
            return "what year born", ""
        return None
    if (asking := _SIZE.search(question)) is not None:
        if not _counts(said):
            return asking.group(0).strip().lower(), ""
        return None
    if (asking := _AGE.search(question)) is not None:
        if not any(w in _AGE_WORDS or _YEAR.fullmatch(w) for w, _, _ in said):
            return asking.group(0).strip().lower(), ""
        return None
    if (asking := _COUNT.search(question)) is None:
        return None
    # A memory naming what is counted may list them ("Léa owns ... the VAT report" for "how many reports?";
    # the counted noun among the three words after "how many": "how many video game tournaments").
    counted = list(takewhile(lambda w: w not in STOP_WORDS, asking.group(1).lower().split()))
    if {stem(w) for w in counted} & {stem(w) for w, _, _ in said} \
            or _counts(said):
        return None
    return asking.group(0).strip().lower(), ""
