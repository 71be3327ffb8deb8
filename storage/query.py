"""What a recall asks, in every backend's terms: the filters a candidate must pass and the
question's words by white-space chunk (each a phrase to the backend, never query syntax)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .textindex import index_text, is_cjk, is_symbol

_WORD = re.compile(r"\w+")
MAX_PHRASES = 64  # chunks of a question that reach the keyword index
# A phrase costs the index about (its words) x (their occurrences in each text holding them): a
# chunk is matched as phrases of at most MAX_PHRASE_WORDS words, and a question's phrases hold at most
# MAX_QUERY_WORDS words in all (docs/how-recall-works.md#long-chunks, bench/phrase_cost.py).
MAX_PHRASE_WORDS = 8
MAX_QUERY_WORDS = 64

# Function words: a chunk made only of them is dropped from keyword queries (under OR they
# add matches, not evidence); "s", "t", "ll", ... are what "it's" and "don't" leave behind.
STOP_WORDS = frozenset(
    "a am an and are as at be been being but by can could did do does doing for from had has have having he her"
    " hers him his how i if in into is it its me might must my of on or ought our ours shall she should so than"
    " that the their theirs them since then there these they this those to too us was we were what when where"
    " which who whom whose why will with would you your yours s t d ll m re ve don"
    .split()
)
# A label naming which one of its kind a capitalised word before it is: one capital letter or a Roman numeral
# ("Plan A", "Option I", "Model S", "Phase II"), a name even where it is also a function word ("A", "I", "S").
LABEL = re.compile(r"[A-Z]|[IVX]{1,4}")
# Nouns "I" labels as a Roman numeral ("Phase I"); after any other word it is the pronoun ("Glad I could help",
# "Thanks Nate I ...").
_NUMBERED = frozenset("""phase stage part chapter option type tier level class grade section volume book act season
round step appendix annex schedule exhibit figure table model plan version room wing building floor block gate hall
zone unit category group track division league war""".split())


# Verbs relating the thing a which-question asks for to what it names, which a memory states by a verb of its own
# ("which service uses port 2049?": "NFS listens on 2049", "which host runs Grafana?": "Pluto hosts Grafana"):
# they weigh in the coverage of a memory holding them only (``candidates.gather``).
RELATION_VERBS = frozenset(
    "use uses used run runs ran serve serves served host hosts hosted handle handles handled hold holds held own owns"
    " owned contain contains contained power powers powered back backs backed support supports supported".split())


def labels(written: list[str], at: int) -> bool:
    """Whether the word at ``at`` of ``written`` (words as written) labels the capitalised word before it (its
    head: "A" of "Plan A", "I" of "Phase I"): one capital letter or a Roman numeral after a capitalised word
    that is no stop word, "I" only after one of ``_NUMBERED``."""
    if not at or not LABEL.fullmatch(written[at]):
        return False
    head = written[at - 1]
    return head[:1].isupper() and head[1:].islower() and head.isalpha() and head.lower() not in STOP_WORDS \
        and (written[at] != "I" or head.lower() in _NUMBERED)


# Words by which a question asks whether an act may be done, not what it is about: "may" before its doer ("may
# I", "when may we"), but for the month after a word leading to one ("in May we"); a permission before "to" or
# "if", but for a noun after a determiner ("is it ok to", "are we allowed to", "is it okay if I"; not "the fine
# to pay"), or ending a question that opens with a form of "be" ("is deploying on a Friday permitted?", "are
# force pushes allowed?"); "go ahead and" ("can I go ahead and deploy"). "May" the person stays a word of the
# question.
_PERMISSION = r"(?:ok|okay|alright|all right|fine|cool|safe|acceptable|appropriate|advisable|wise|possible|allowed" \
    r"|permitted)"
ASKING_LEAVE = re.compile(
    r"(?:\b(\w+)\s+)?\b(?:(may)(?=\s+(?:i|we|you|they|he|she|one)\b)"
    rf"|{_PERMISSION}(?=\s+(?:(?:for|with|by)\s+\w+\s+)?(?:to|if)\s)"
    r"|go\s+ahead\s+(?:and|with)(?=\s))",
    re.IGNORECASE)
_ASKING_LEAVE_LAST = re.compile(rf"^\s*(?:is|are|was|were|am)\s.*\s({_PERMISSION})\s*[?!.]*\s*$",
                                re.IGNORECASE | re.DOTALL)
_MONTH_LEADS = frozenset(
    "in on since until till by of from during before after early mid late last this next every through".split())
# Short forms engineers write for a word or two, read both ways round as an acronym and its words are
# (``candidates.spelled_out``), and as one word by ``siblings``: "DB" and "database", "PRs" and "pull requests".
SHORT_FORMS = {
    "db": "database", "dbs": "databases", "pr": "pull request", "prs": "pull requests", "repo": "repository",
    "repos": "repositories", "env": "environment", "envs": "environments", "config": "configuration",
    "configs": "configurations", "k8s": "kubernetes", "auth": "authentication", "prod": "production",
    "infra": "infrastructure", "docs": "documentation", "deps": "dependencies", "perf": "performance",
}
# FTS5's operators: plain words to the keyword side, and no names ("NEAR(Kafka", "NOT Redis").
QUERY_OPERATORS = frozenset({"and", "or", "not", "near"})
# An episode is indexed with the one before it in its scope within this gap (one conversation).
EPISODE_GAP_MS = 30 * 60 * 1000
# Secrets are never stored, so a question for a password no memory mentions has no answer
# (docs/retrieval-tuning.md#kinds).
PASSWORD_WORDS = ("password", "passwords", "passphrase", "passphrases", "passcode", "passcodes")
# Words naming the kind a question asks for: ranking prefers it, never filters on it.
KIND_WORDS = {
    "decision": "decision decisions decide decided decides chose choose chosen choice choices settle settled agreed"
                " plan",
    "failure": "failure failures fail fails failed failing broke broken crash crashed crashes outage outages"
               " incident incidents wrong",
    "preference": "preference preferences prefer prefers preferred favour favours favourite favor favors favorite",
    "procedure": "procedure procedures step steps runbook runbooks process instructions howto",
    "episode": "episode episodes happened happen happens event events",
    "fact": "fact facts",
}
_KIND_OF_WORD = {w: kind for kind, words in KIND_WORDS.items() for w in words.split()}


def kind_of(word: str) -> str | None:
    """The kind (:data:`KIND_WORDS`) the lower-case ``word`` names, itself or as the -ing form of one of
    them ("happening", "deciding"), or None."""
    if word in _KIND_OF_WORD or not word.endswith("ing"):
        return _KIND_OF_WORD.get(word)
    return _KIND_OF_WORD.get(word[:-3]) or _KIND_OF_WORD.get(word[:-3] + "e")

# What a question's verb asks for, read only in a question naming a time: {meaning: (the kind of a
# memory of that meaning or None, words asking for it, words by which a memory of any kind is of it)}.
# "Heat pump stopped ..." answers "what broke?"; "Deployed the billing service" does not, nor a
# decision (docs/retrieval-tuning.md#time).
MEANINGS: dict[str, tuple[str | None, str, str]] = {
    "failure": ("failure", KIND_WORDS["failure"] + " break breaks error errors errored bug bugs",
                "fail failed failure broke broken crash crashed outage down error bug incident stopped stuck lost"
                " leak timeout late delayed slow spiked diverged alarm alert fired paged rollback mitigated retry"
                " fix fixed workaround restarted exhausted killed corrupt refused"),
    "decision": ("decision", KIND_WORDS["decision"] + " agree agrees approve approves approved approval pick"
                 " picked opt opted reject rejected",
                 "decide decided decision chose chosen picked agreed approved settled signed rejected adopted"),
    "release": (None, "deploy deploys deployed deploying deployment deployments ship ships shipped shipping"
                " release releases released launch launched roll rolled",
                "deploy deployed deployment release released ship shipped launch launched rolled rollout"
                " upgraded migrated published"),
    "meeting": (None, "meet meets met meeting meetings",
                "meet met meeting call sync standup interview demo visit visited"),
    # "what is due in March?" asks for a date a memory says, not what was observed in March.
    "due": (None, "due deadline deadlines scheduled planned",
            "due deadline deadlines scheduled planned schedule target expires expiry milestone cutoff"),
}
_MEANING_OF_WORD = {w: meaning for meaning, (_, asking, _) in MEANINGS.items() for w in asking.split()}
KIND_PHRASES = (
    ("procedure", re.compile(r"\bhow (?:do|can|should) (?:i|we)\b|\bhow[- ]to\b", re.IGNORECASE)),
    ("failure", re.compile(r"\bwhy (?:did|was|were)\b(?! we\b)|\bwhat caused\b", re.IGNORECASE)),
    ("decision", re.compile(r"\bwhy (?:do|don['’]t|didn['’]t|did) (?:we|our)\b", re.IGNORECASE)),
)
# With only these and kind words, a question asks for the kind itself ("list the decisions").
GENERIC_WORDS = frozenset(
    "list show give tell all any every recent latest last past new current make made hit have got get take took"
    " record recorded store stored note noted save saved remember remembered know kept keep ever far so went recently"
    " anything something everything nothing"
    .split()
)
# Words asking what went on without a subject ("what did we change recently?").
ACTIVITY_WORDS = frozenset(
    "change changes changed changing work worked working done fix fixed fixes ship shipped update updated updates"
    " going on up"
    .split()
)
CANDIDATES_MIN = 50
# A question about the last session (docs/retrieval-tuning.md#the-last-session) holds a phrase of one of
# three kinds. The previous session named ("last time", "the previous session"), unless "last time" opens a
# clause of its own ("last time I checked") or the session is a part of something ("the last session of
# the conference"); resuming it ("pick up where we left off", "continue from ...", "where were we?");
# recapping it ("remind me what we did", "what was I doing before?").
_PRONOUN = r"(?:i|we|you|he|she|they|it|that|this)"
_PREVIOUS = (
    r"\b(?:last|previous|prior|earlier|latest|recent|most recent|yesterday(?:['’]?s)?|other day['’]?s?)"
    r"\s+(?:session|sessions|time|conversation|conversations|chat|chats|meeting|sitting)\b"
    rf"(?!\s+of\b)(?!\s+{_PRONOUN}\s+(?!(?:met|talked|spoke|chatted|worked|left|stopped)\b)\w+)")
_RESUMING = (
    r"\b(?:left|leave|stopped|stop)\s+off\b|\bwhere\s+(?:were|was)\s+(?:we|i)\b"
    r"|\bwhere\s+(?:did|do|had)\s+(?:we|i)\s+(?:stop|end|get\s+to)\b"
    r"|\b(?:continue|continuing|resume|resuming|carry\s+on|pick(?:ing)?\s+(?:it\s+|things\s+|this\s+)?(?:back\s+)?up)"
    r"\s+(?:from\s+)?(?:where|before|previously)\b")
_RECAPPING = (
    r"\bremind\s+me\s+(?:of\s+)?(?:what|where)\s+(?:we|i|you)\b"
    r"|\bwhat\s+(?:was|were)\s+(?:we|i)\s+(?:doing|working\s+on|up\s+to)\s+(?:before|earlier|previously)\b"
    r"|\bwhat\s+did\s+(?:we|i|you)\s+(?:do|work\s+on|get\s+done)\s+(?:before|earlier|previously)\b")
LAST_SESSION = re.compile("|".join((_PREVIOUS, _RESUMING, _RECAPPING)), re.IGNORECASE)
SESSION_WORDS = frozenset(
    "session sessions time conversation conversations chat chats meeting sitting yesterday previous prior earlier"
    " latest recent most other day left leave stopped stop off recap summary summarise summarize summarised"
    " summarized remind reminder again talk talked talking discuss discussed discussing doing busy about catch"
    " continue continuing resume resuming carry pick picking back where next before previously"
    " please pls plz thanks thank ok okay let lets now quick quickly brief briefly short happened happen going"  # courtesy: no subject
    .split()
)
LAST_SESSION_DIGESTS = 3  # the newest digests such a question makes candidates


@dataclass(frozen=True)
class Filters:
    """What a candidate must satisfy (ms times): ``scopes`` None means all (listings only),
    every tag present, ``since`` <= ``observed_at`` < ``until``, unexpired at ``now``."""

    tenant: str
    scopes: list[str] | None
    now: int
    kinds: list[str] | None = None
    tags: list[str] | None = None
    since: int | None = None
    until: int | None = None
    include_history: bool = False


def _cjk_apart(words: list[str]) -> list[list[str]]:
    """``words`` (one white-space chunk's) with each CJK bigram a chunk of its own: a question
    written without spaces is rarely a substring of a memory, so its bigrams are OR-ed terms, as
    search engines query CJK bigrams (Lucene's CJKBigramFilter without phrase queries), and BM25
    ranks the memories holding more and rarer of them first. Each symbol is one too ("🙂🚀" finds
    a memory holding 🚀). Other words stay together."""
    parts: list[list[str]] = []
    for word in words:
        if is_cjk(word) or is_symbol(word):
            parts.append([word])
        elif parts and parts[-1] and not (is_cjk(parts[-1][-1]) or is_symbol(parts[-1][-1])):
            parts[-1].append(word)
        else:
            parts.append([word])
    return parts


def query_chunks(query: str) -> list[list[str]]:
    """The words of ``query`` by white-space chunk, CJK runs as bigrams each its own chunk, a chunk of more than
    ``MAX_PHRASE_WORDS`` words cut into consecutive chunks of that many (the last shorter);
    stop-word-only chunks left out (all kept when nothing else is left); chunks without words and
    repeated chunks dropped; at most ``MAX_PHRASES`` chunks of ``MAX_QUERY_WORDS`` words in all
    (the last cut to fit)."""
    chunks: list[list[str]] = []
    for chunk in query.split():
        for words in _cjk_apart(_WORD.findall(index_text(chunk.replace("_", " ")) or "")):
            chunks.extend(words[i:i + MAX_PHRASE_WORDS] for i in range(0, len(words), MAX_PHRASE_WORDS))
    content = [words for words in chunks if not all(w.lower() in STOP_WORDS for w in words)]
    unique: list[list[str]] = []
    left = MAX_QUERY_WORDS
    for words in content or chunks:
        if left == 0 or len(unique) == MAX_PHRASES:
            break
        if words not in unique:
            unique.append(words[:left])
            left -= len(unique[-1])
    return unique


def asking_leave_aside(query: str) -> str:
    """``query`` without the words by which it asks whether an act may be done (:data:`ASKING_LEAVE`):
    "may I deploy on a Friday?" and "is deploying on a Friday permitted?" ask what "can I deploy on a
    Friday?" does."""
    def aside(found: re.Match[str]) -> str:
        before = (found.group(1) or "").lower()
        if before in (_MONTH_LEADS if found.group(2) else _DETERMINERS):
            return found.group(0)
        return (found.group(1) or "") + " "

    last = _ASKING_LEAVE_LAST.match(query)
    if last:
        query = query[:last.start(1)] + query[last.end(1):]
    return ASKING_LEAVE.sub(aside, query)


def asked_type(query: str) -> str | None:
    """The word (lower case) after "which", "what" or "whose" opening ``query`` (after prepositions at most:
    "on which host") as the subject of the next word: the kind of thing asked for, which a memory answers with
    one in its place, not naming it ("which service listens on port 2049?": "NFS listens on port 2049"). None
    for any other question, and where an auxiliary follows: "which editor does Priya prefer?" asks of an
    editor a memory names."""
    typed = _typed(query)
    return typed[0] if typed else None


def asked_relation(query: str) -> str | None:
    """The verb (lower case) after the kind :func:`asked_type` reads when it is one of :data:`RELATION_VERBS`
    ("uses" of "which service uses port 2049?"), else None."""
    typed = _typed(query)
    return typed[1] if typed and typed[1] in RELATION_VERBS else None


def _typed(query: str) -> tuple[str, str] | None:
    """(the kind asked for, the word after it) of :func:`asked_type`, or None."""
    words = _WORD.findall(query.lower())
    lead = next((i for i, w in enumerate(words) if w not in PREPOSITIONS), len(words))
    if lead + 2 >= len(words) or words[lead] not in ("which", "what", "whose") \
            or words[lead + 1] in STOP_WORDS or words[lead + 2] in STOP_WORDS:
        return None
    return words[lead + 1], words[lead + 2]


def symbols_only(chunks: list[list[str]]) -> bool:
    """Whether the content words of ``chunks`` (:func:`content_words`) are all symbols ("😀", "is
    there a ✨?"): such a question has no meaning a model's vector carries (most symbols embed as
    one unknown token, alike), only the symbols themselves to find."""
    words = content_words(chunks)
    return bool(words) and all(is_symbol(w) for w in words)


def content_words(chunks: list[list[str]], names: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The words of ``chunks`` that are not :data:`STOP_WORDS` or are ``names`` ("Will" in "what
    does Will own?") (all of them when every one is), in order: the words whose index terms weigh a
    question's coverage."""
    words = [w for chunk in chunks for w in chunk]
    return [w for w in words if w.lower() not in STOP_WORDS or w in names] or words


def named_kinds(query: str) -> tuple[frozenset[str], bool]:
    """The memory kinds ``query`` names (:data:`KIND_WORDS`, :data:`KIND_PHRASES`), and
    whether it names nothing else: every other word is a stop word or one of
    :data:`GENERIC_WORDS` ("what decisions did we make?"). A question for the last session
    (:func:`asks_for_last_session`) names episodes and nothing else."""
    if asks_for_last_session(query):
        return frozenset({"episode"}), True
    words = _WORD.findall(query.lower())
    kinds = {kind for w in words if (kind := kind_of(w))}
    kinds.update(kind for kind, phrase in KIND_PHRASES if phrase.search(query))
    only = bool(kinds) and all(kind_of(w) or w in STOP_WORDS or w in GENERIC_WORDS for w in words)
    return frozenset(kinds), only


def asked_meanings(query: str) -> frozenset[str]:
    """The :data:`MEANINGS` whose words ``query`` asks with ("what failed?", "what did legal approve?")."""
    words = set(_WORD.findall(query.lower()))
    return frozenset(_MEANING_OF_WORD[w] for w in words if w in _MEANING_OF_WORD)


def refers_to_last_session(query: str) -> bool:
    """Whether ``query`` speaks of the last session (a phrase of :data:`LAST_SESSION`), with a subject or
    without: "what did we do last time on the checkout test?" does, "last time I checked it was down" not."""
    return LAST_SESSION.search(query) is not None


def asks_for_last_session(query: str) -> bool:
    """Whether ``query`` asks what happened in the last session: it holds a phrase of
    :data:`LAST_SESSION` and names no subject (each other word a stop word or one of
    :data:`SESSION_WORDS`, :data:`GENERIC_WORDS`, :data:`ACTIVITY_WORDS` or a kind word):
    "what did we do last time?" does, "what did we decide last time about the database?" does not."""
    if not refers_to_last_session(query):
        return False
    return all(w in STOP_WORDS or w in SESSION_WORDS or w in GENERIC_WORDS or w in ACTIVITY_WORDS
               or kind_of(w) for w in _WORD.findall(LAST_SESSION.sub(" ", query.lower())))


def asks_for_password(query: str) -> bool:
    """Whether ``query`` contains one of :data:`PASSWORD_WORDS`."""
    return any(w in PASSWORD_WORDS for w in _WORD.findall(query.lower()))


def names_no_subject(query: str) -> bool:
    """Whether every word of ``query`` is a stop word, a kind word or one of
    :data:`GENERIC_WORDS` and :data:`ACTIVITY_WORDS` ("what did we change?", "what happened?")."""
    return not subject_words(_WORD.findall(query))


# Words for a group of people, which name a subject only with another word ("the support team"): a
# memory of the data team holds "team" too.
GROUP_WORDS = frozenset(
    "team teams group groups department departments dept folks people crew squad org orgs organisation"
    " organization committee staff guys unit division".split())


def subject_words(words: list[str]) -> list[str]:
    """The ``words`` naming a question's subject: all but stop words, kind words, the words asking for
    one of :data:`MEANINGS` and those of :data:`GENERIC_WORDS`, :data:`ACTIVITY_WORDS` and
    :data:`GROUP_WORDS` ("finance" of "what did the finance team approve?")."""
    return [w for w in words if (lower := w.lower()) not in STOP_WORDS and lower not in GENERIC_WORDS
            and lower not in ACTIVITY_WORDS and not kind_of(lower) and lower not in GROUP_WORDS
            and lower not in _MEANING_OF_WORD]


def topic_words(query: str, words: list[str], names: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The ``words`` (``query``'s content words, :func:`content_words`) naming what it is about: its
    ``names`` ("IT" of "who handles IT?") and :func:`subject_words` that do not ask how (:func:`asks_how`:
    "port", "need"), but not the verb of its act (:func:`asked_verbs`: "use" of "what CI do we use?"); a
    memory holding only the others shares no subject with it."""
    verbs = {form for verb in asked_verbs(query) for form in verb_forms(verb)}
    return [w for w in words if (w in names or (subject_words([w]) and not asks_how(w))) and w.lower() not in verbs]


# Verbs a question asks what someone does by, with the words a memory answering states it by ("What does June
# prefer?": "June likes tea", "June's favourite drink is tea"; ``asked_of``). Other verbs by their own forms
# and their kind's words (:data:`KIND_WORDS`).
_LIKING = "prefer like love enjoy favourite favorite favour favor fond fan rather preference"
VERB_KIN = {
    **dict.fromkeys(("prefer", "like", "love", "enjoy"), _LIKING),
    "want": "want wish hope like love need ask request",
    "need": "need require want",
    "use": "use run rely prefer",
}
# "what/which [the kind asked for] do/does/did [a name] [its verb] [what else]" (``asked_of``)
_ASKED_OF = re.compile(r"^\W*(?i:what|which)\s+((?:[\w'-]+\s+){0,3}?)(?i:do|does|did)\s+"
                       r"((?:[A-Z][\w'-]*\s+){1,3})(?:[a-z]+ly\s+)?([a-z]+)\b(.*)$", re.DOTALL)


def asked_of(query: str) -> tuple[frozenset[str], str | None] | None:
    """What a question asks that someone named does, by its verb and the words beside it ("What does June
    prefer?", "What editor does Priya use?", "what does Marcus prefer for indentation?"): (the words of which
    a memory answering holds one: the verb's forms, its kin (:data:`VERB_KIN`), the words of its kind or
    meaning (:data:`KIND_WORDS`, :data:`MEANINGS`) and the question's other words; the kind the verb names,
    of which a memory states it). None for any other question, and where it asks for a value a memory
    states without naming it ("which port does Redis use?": :data:`MANNER_WORDS`)."""
    found = _ASKED_OF.match(query)
    if found is None:
        return None
    verb = found[3]
    others = [w for w in _WORD.findall(f"{found[1]} {found[4]}".lower())
              if w not in STOP_WORDS and w not in PREPOSITIONS and w not in _DETERMINERS]
    if any(w in MANNER_WORDS or w.endswith("ly") for w in others):
        return None
    base = lemma(verb)
    kind = kind_of(verb)
    meaning = _MEANING_OF_WORD.get(verb.lower()) or _MEANING_OF_WORD.get(base)
    kin = VERB_KIN.get(base, "").split() + (KIND_WORDS[kind].split() if kind else []) \
        + (" ".join(MEANINGS[meaning][1:]).split() if meaning else [])
    return frozenset([*verb_forms(verb), base, *kin, *others]), kind


# --- the act a question names and who does it (docs/retrieval-tuning.md#time) -------------------
# Irregular verbs by their base form: a memory saying "Built the image" holds the act of "what did we
# build?" (the index's Porter stems join the regular forms: "merged", "merging", "merge").
_IRREGULAR = (
    "be was were been|become became|begin began begun|bend bent|bind bound|break broke broken|bring brought|build built"
    "|buy bought|catch caught|choose chose chosen|come came|cut|deal dealt|dig dug|do did done|draw drew drawn"
    "|drive drove driven|eat ate eaten|fall fell fallen|feed fed|feel felt|fight fought|find found|fly flew flown"
    "|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|get got gotten|give gave given|go went gone|grow grew grown"
    "|hang hung|have had|hear heard|hide hid hidden|hit|hold held|keep kept|know knew known|lay laid|lead led"
    "|leave left|lend lent|let|lose lost|make made|mean meant|meet met|override overrode overridden|pay paid|put|quit"
    "|read|rebuild rebuilt|rewrite rewrote rewritten|ride rode ridden|ring rang rung|rise rose risen|run ran"
    "|see saw seen|seek sought|sell sold|send sent|set|shake shook shaken|shoot shot|show showed shown"
    "|shrink shrank shrunk|shut|sing sang sung|sink sank sunk|sit sat|sleep slept|slide slid|speak spoke spoken"
    "|spend spent|spin spun|split|spread|stand stood|steal stole stolen|stick stuck|strike struck"
    "|swear swore sworn|sweep swept|swim swam swum|take took taken|teach taught|tear tore torn|tell told|think thought|throw threw"
    " thrown|undo undid undone|upset|wake woke woken|wear wore worn|win won|wind wound|withdraw withdrew"
    " withdrawn|withhold withheld|write wrote written"
)
_VERB_FORMS = {forms.split()[0]: forms.split() for forms in _IRREGULAR.split("|")}
_BASE_OF = {form: base for base, forms in _VERB_FORMS.items() for form in forms}
# Verbs naming no act a memory must hold: what any memory of the time answers ("what did we change?"),
# or a saying the memory itself is ("what did Tom say on Monday?").
NO_ACT_WORDS = frozenset(
    "change work update happen go become say tell talk discuss mention ask think feel want like need"
    " try start keep get make take have do be deal handle face experience encounter find learn discover"
    " notice see hear know realise realize".split()
)
# "Do" and the modal verbs, before a doer and its verb ("does Bob own", "will Alice review").
AUXILIARIES = frozenset("do does did will would can could should".split())
_AUXILIARIES = AUXILIARIES | frozenset("has have had".split())
PASSIVE = frozenset("was were is are got get gets been be being".split())
# Words ending the clause of a doer and its verb ("what did legal approve on ...", "... by the CFO").
PREPOSITIONS = frozenset(
    "in on at since during for from to with about by into onto under after before until of than as over"
    " without via through across against around between".split()
)
_PARTICLES = frozenset("out up off down back away".split())
_DETERMINERS = frozenset("a an the our my your their his her its this that these those some all and or".split())
_PRONOUNS = frozenset("i we you they he she it me us them".split())
# A question of where, when, why or how may name an object after its verb ("where did Nate buy the game?"):
# its act is not read.
ADVERBIAL = frozenset("where when why how".split())
_WH = frozenset("what which who whom whose where when why how".split())


def lemma(word: str) -> str:
    """The base form of the verb ``word`` (lower case) when it is of an irregular verb ("sold" ->
    "sell", "choosing" -> "choose"), else ``word`` with its -s, -es, -ed or -ing stripped when that
    gives such a base, else ``word`` itself: a regular verb's forms share the index's Porter stem."""
    if word in _BASE_OF:
        return _BASE_OF[word]
    for cut, add in ((1, ""), (2, ""), (3, ""), (3, "e"), (2, "e")):
        stem = word[:-cut] + add
        if len(stem) > 2 and word.endswith(("s", "ed", "ing")) and stem in _VERB_FORMS:
            return stem
    return word


def verb_forms(word: str) -> list[str]:
    """``word`` and every written form of its verb that the index's stemming does not join to it
    ("build" -> build, built; "sold" -> sold, sell)."""
    return list(dict.fromkeys([word.lower(), *_VERB_FORMS.get(lemma(word.lower()), [])]))


@dataclass(frozen=True)
class Act:
    """What a question asks someone did: ``verbs``, the verb as written (lower case) and any joined to it
    by "and" ("watch and enjoy"), empty when it names none a memory must hold (:data:`NO_ACT_WORDS`,
    :data:`GENERIC_WORDS`, stop words, or a where/when/why/how question: :data:`ADVERBIAL`); ``doer``, the
    words naming who did it ("legal", "Lena", "infra" of "the infra team"), empty for "we" or nobody."""

    verbs: tuple[str, ...]
    doer: tuple[str, ...]


def _content(word: str) -> bool:
    lower = word.lower()
    return lower not in STOP_WORDS and lower not in _DETERMINERS and lower not in GROUP_WORDS


def _clause(words: list[str]) -> list[str]:
    """``words`` up to the first preposition (the clause of a doer and its verb)."""
    end = next((i for i, w in enumerate(words) if w.lower() in PREPOSITIONS), len(words))
    return words[:end]


def _no_act(word: str) -> bool:
    lower = word.lower()
    # A regular form of a generic verb is generic too ("what changed in November?": any act changes).
    regular = {lower[:-cut] + add for cut, add in ((1, ""), (2, ""), (3, ""), (3, "e"), (2, "e"))
               if lower.endswith(("s", "ed", "ing")) and len(lower) - cut > 2}
    return (lemma(lower) in NO_ACT_WORDS or not NO_ACT_WORDS.isdisjoint(regular | {lower}) or lower in GENERIC_WORDS
            or lower in STOP_WORDS
            or (kind_of(lower) is not None and lower not in _MEANING_OF_WORD))


# Words by which a question asks how, how much or when, not what about: a memory answering need not
# hold them ("how many", "usually", "still").
MANNER_WORDS = frozenset(
    "many much often long old far soon else also again yet just even only very quite really still now anymore"
    " nowadays ago exactly usually always never sometimes mostly should shall must might ought"
    # whether a rule forbids an act, which a memory states in negative words ("must I avoid deploying on a
    # Friday?": "Never deploy on Fridays", "Don't ...", "No deploys ...")
    " avoid avoiding refrain refraining forbid forbidden prohibit prohibited ban banned disallowed"
    # a part of a day, which a memory states by its hours ("Friday afternoon": "on Fridays after 2pm")
    " morning mornings afternoon afternoons evening evenings night nights"
    " within throughout till upon beyond near inside outside toward towards per among behind below above beside"
    " besides except despite along according regarding concerning"  # prepositions beyond those ending a clause
    # what kind of answer is asked for, which a memory states without naming it ("which PostgreSQL version
    # does pg-main run?": "pg-main runs PostgreSQL 16"; Li & Roth 2002's answer types)
    " version name number date time day year place address location port url link email phone size price cost"
    " amount value id age type status role title".split()
)


def asks_how(word: str) -> bool:
    """Whether ``word`` asks how, how much or when (:data:`MANNER_WORDS`, an adverb in -ly), is a verb
    naming no act (:data:`NO_ACT_WORDS`: "like", "think", "want") or a preposition, determiner, pronoun
    or particle: not what a question is about."""
    lower = word.lower()
    return (lower in MANNER_WORDS or (lower.endswith("ly") and len(lower) > 4) or _no_act(lower)
            or lower in PREPOSITIONS or lower in _DETERMINERS or lower in _PRONOUNS or lower in _PARTICLES)


def _as_act(verbs: list[str], doer: list[str], why: bool) -> Act:
    named = () if why or any(_no_act(v) for v in verbs) else tuple(v.lower() for v in verbs)
    return Act(named, tuple(w for w in doer if _content(w)))


def asked_verbs(query: str) -> tuple[str, ...]:
    """The verbs (lower case) of the act ``query`` asks about: a wh-question's, where/when/why/how too
    (:func:`asked_act`), or a yes/no question's after its auxiliary and a doer of one word ("use" of "should
    I use MacPorts?", "own" of "does Bob own billing?"), which a memory states by a verb of its own ("We
    install developer tools with Homebrew, never MacPorts")."""
    act = asked_act(query, adverbial=False)
    if act is not None:
        return act.verbs
    words = _WORD.findall(query)
    if len(words) < 3 or words[0].lower() not in AUXILIARIES \
            or not (words[1].lower() in _PRONOUNS or words[1][:1].isupper()):
        return ()
    return () if _no_act(words[2]) else (words[2].lower(),)


def asked_act(query: str, adverbial: bool = True) -> Act | None:
    """The act and doer a wh-question names, read from its words alone (no part-of-speech model):
    "what did legal approve?" (the verb ends the clause after "did": legal, approve), "what was sold
    by the sales team?" (passive: sold; by: sales), "who deployed the billing service?" (the first
    word in -ed or an irregular past: deployed). None for any other question. Without ``adverbial``
    a where/when/why/how question names its verbs too ("how many licences did we buy?": buy)."""
    words = [w for w in _WORD.findall(re.sub(r"['’]s\b", "", query)) if w.lower() not in _PARTICLES]
    lower = [w.lower() for w in words]
    if not lower or lower[0] not in _WH:
        return None
    why = adverbial and lower[0] in ADVERBIAL
    at = next((i for i, w in enumerate(lower) if w in _AUXILIARIES or w in PASSIVE), None)
    if at is not None and lower[at] in _AUXILIARIES and not (at + 1 < len(lower) and lower[at + 1] in PASSIVE):
        clause = [w for w in _clause(words[at + 1:]) if not w.lower().endswith("ly")
                  and (w.lower() == "and" or w.lower() not in _DETERMINERS) and w.lower() not in _PRONOUNS]
        generic = next((i for i, w in enumerate(clause) if _no_act(w) and w.lower() != "and"), None)
        if generic is not None:  # "what did Sales do?", "where did we go skiing?"
            return _as_act([clause[generic]], clause[:generic], why)
        while clause and clause[-1].lower() == "and":
            clause.pop()
        if not clause:
            return Act((), ())
        joined = len(clause) > 2 and clause[-2].lower() == "and"  # "did Nate watch and enjoy"
        verbs = clause[-3::2] if joined else clause[-1:]
        return _as_act(verbs, clause[:-3] if joined else clause[:-1], why)
    if at is not None:  # passive: "what was chosen by the board?", "what has been deployed?"
        rest = [w for w in words[at + 1:] if w.lower() not in PASSIVE]
        verb = rest[0] if rest else ""
        if not (verb.lower() in _BASE_OF or verb.lower().endswith(("ed", "en"))):
            return Act((), ())  # "why were parcel lookups slow?": no act
        by = [i for i, w in enumerate(rest) if w.lower() == "by"]
        return _as_act([verb], _clause(rest[by[0] + 1:]) if by else [], why)
    past = next((w for w in words[1:] if w.lower() in _BASE_OF or w.lower() in _MEANING_OF_WORD
                 or w.lower().endswith("ed")), None)
    return _as_act([past] if past else [], [], why)
