"""The words the contradiction test reads (``contradiction``), lowercase: function words, days, months and
number words, states and their opposites, negations, change words, owners' verbs, tools' names written in lower case,
the sizes of a statement in words and the shapes of its tokens and slots; ``stem``, a word's key."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .timefmt import MONTH_NAMES, WEEKDAY_NAMES

# Shapes: a text's tokens (token, opens a sentence, was possessive, ends a clause, a question mark follows),
# its slots (type or "word", normal form or lowercase word, unit) and their marks (possessive, ends a clause, sentence).
Tokens = tuple[tuple[str, bool, bool, bool, bool], ...]
Slots = list[tuple[str, str, str | None]]
Marks = list[tuple[bool, bool, int]]
# Words whose full stop ends no sentence (a title, a company's form, Latin); consolidation's first sentences too.
ABBREVIATIONS = frozenset({"dr.", "mr.", "mrs.", "ms.", "prof.", "st.", "mt.", "jr.", "sr.", "inc.", "corp.", "ltd.",
                           "e.g.", "i.e.", "vs.", "etc.", "approx.", "cf.", "al."})
# Opposite states: a word of a group in each text, a different one.
STATES = ({"enabled", "disabled"}, {"open", "closed"}, {"optional", "required", "mandatory"},
          {"allowed", "forbidden", "banned"}, {"public", "private"}, {"active", "inactive"},
          {"online", "offline"}, {"resolved", "unresolved"}, {"available", "unavailable"},
          {"passing", "failing"}, {"healthy", "unhealthy"}, {"approved", "rejected"}, {"true", "false"},
          {"supported", "unsupported", "deprecated"}, {"locked", "unlocked"}, {"paid", "unpaid"},
          {"frozen", "lifted"}, {"paused", "resumed"}, {"blocked", "unblocked"}, {"suspended", "reinstated"})
# Words saying a state of a group in other words: "off" is "disabled", "unfrozen" "lifted" ("on" only
# ending its clause: "the flag is on", not "on Friday"); an outcome: "succeeded" is "passing", "failed" "failing".
_SAME_STATE = {"off": "disabled", "on": "enabled", "unfrozen": "lifted", "thawed": "lifted",
               "passed": "passing", "succeeded": "passing", "successful": "passing",
               "failed": "failing", "unsuccessful": "failing"}
_STATE_GROUP = {word: i for i, group in enumerate(STATES) for word in group}
_STATE_GROUP |= {word: _STATE_GROUP[same] for word, same in _SAME_STATE.items()}
NEGATIONS = frozenset({"not", "no", "never", "none", "nothing", "nobody", "cannot", "avoid", "avoids"})
# An arrow between two values is a change from the one before it to the one after ("Hugo 0.110 -> 0.125").
ARROWS = frozenset({"->", "-->", "=>", "→", "⇒", "⟶", "➜", "➔"})
# Change verbs whose object is what the change leaves ("We upgraded PostgreSQL 14 to PostgreSQL 16", "Bumped Node
# from 18 to 20", "pinned terraform to 1.6.2"), arrows, and "went from": change words only beside a value of the
# older's they leave or go to, or a number of the thing whose number the older holds (``contradiction_compare.
# leaves_held``; not a cluster's node count, not Kibana's version beside Elasticsearch's).
LEAVING = frozenset({"upgraded", "downgraded", "bumped", "pinned", "went from", "goes from"}) | ARROWS


class Moves(NamedTuple):
    """One language's words of a value moved (``MOVES``), each a space-separated string."""

    moving: str  # verbs moving a value to another: "rescheduled", "verschoben", "reportée", "aplazada"
    moving_to: str  # verbs moving one only beside a word of ``toward`` and a value: "extended to 90 days"
    giving: str  # verbs handing over what they say, as those of ``moving_to`` move it: "handed", "confiée"
    handing: str  # verbs moving one as those of ``moving_to`` do, after a noun of ``roles`` only: "went", "ging"
    roles: str  # nouns of a role or holding: "ownership", "Zuständigkeit", "responsabilité", "manos"
    toward: str  # words before where the value goes or whence it comes: "to", "an", "à", "a"
    being: str  # forms of "be" making the passive of a verb of giving: "were", "wurde", "été", "fue"


# Per language, the words of a value moved: verbs moving one ("The backup was rescheduled to 04:30", "The limit was
# raised to 250"); verbs moving one only where a word of ``toward`` and a value follow them, or, said last in the
# clause, stand right before them ("Log retention was extended to 90 days", "The certificate was renewed until 2028",
# "The database was transferred to db-07", "Die Zuständigkeit wurde an Nils übertragen"; not "our extended family",
# "I went to the gym": "extended" in conversation is mostly a word of kinship, bench/contradiction_alarms.py), among
# them those giving what they say to another ("The API gateway was handed to Nils", "La passerelle API a été confiée à
# Nils"), and those handing something over only after a noun of a role too, or into someone's hands ("Billing service
# ownership passed to Carol", "El API gateway pasó a manos de Nils"; ``contradiction_reading._moves_value``), not of a
# person ("The bakery owner went to Lyon", "The club lead went to Denver"). German, French and Spanish as the day names
# are read.
MOVES = {
    "en": Moves("""rescheduled postponed delayed shifted raised lowered increased decreased reduced lengthened
                shortened doubled halved tripled""", "extended transferred renewed updated", "handed",
                "passed went given fell",
                """ownership leadership responsibility responsibilities on-call oncall rotation role duty duties pager
                maintainership stewardship command custody hands""", "to from by until",
                "is are was were been"),
    "de": Moves("""verschoben verlegt geändert erhöht gesenkt reduziert verlängert verkürzt umbenannt umgezogen
                umgestiegen umgestellt migriert gewechselt""",
                "übertragen erneuert aktualisiert", "übergeben", "ging überging fiel",
                """zuständigkeit verantwortung leitung rolle rufbereitschaft bereitschaft eigentümerschaft pflege
                wartung betreuung hände""", "an auf zu bis von",
                "ist sind war waren wird werden wurde wurden worden"),
    "fr": Moves("""déplacé déplacée déplacés reporté reportée reportés avancé avancée changé changée
                augmenté augmentée réduit réduite prolongé prolongée renommé renommée migré migrée migrés déménagé
                déménagée déménagés basculé basculés""",
                "transféré transférée renouvelé renouvelée", "confié confiée remis remise", "passé passée",
                "responsabilité propriété direction gestion astreinte rôle maintenance mains",
                "à au aux vers par de jusqu'à jusqu'au jusqu'en",
                "est sont était étaient été"),
    "es": Moves("""movido movida trasladado trasladada cambiado cambiada cambió aplazado aplazada pospuesto pospuesta
                adelantado adelantada aumentado aumentada reducido reducida ampliado ampliada renombrado renombrada
                movió trasladó aplazó pospuso adelantó aumentó redujo amplió renombró migrado migrada migramos migró
                cambiamos""",
                "transferido transferida transfirió renovado renovada actualizado actualizada", "entregado entregada",
                "pasó pasada",
                "responsabilidad propiedad dirección liderazgo guardia rol mantenimiento gestión manos",
                "a al hasta por de", "es son era eran fue fueron sido"),
}
MOVING, _MOVING_TO, GIVING, HANDING, ROLES, TOWARD, BEING = (
    frozenset(w for moves in MOVES.values() for w in moves[at].split()) for at in range(len(Moves._fields)))
# Words of ``TOWARD`` before where a change goes, not whence or by how much ("from", "by", "von", "de", "par", "por").
ONWARD = TOWARD - frozenset("from by von de par por".split()) | {"nach"}  # "an", "à", "a", "nach"
MOVING_TO = _MOVING_TO | GIVING | HANDING
# Change verbs whose object, or passive subject, is what the change left ("Jenkins was replaced by GitHub
# Actions", "GitHub Actions replaced Jenkins", "We swapped Kong for Traefik"; ``query.PASSIVE`` before them), in
# English, German, French and Spanish ("Nous avons remplacé Jenkins par GitHub Actions").
REPLACING = frozenset("""replaced swapped ersetzt remplacé remplacée remplacés sustituido sustituida sustituyó
sustituimos reemplazado reemplazada reemplazó reemplazamos""".split())
# German, French and Spanish verbs of taking a role over, read as "took over" is ("Bob übernahm das Payments-Team von
# Anna", "Bob a repris l'équipe d'Alice", "Bob asumió la dirección"; German's perfect is a phrase of ``HOLDING``).
TAKING = frozenset("übernahm übernimmt übernommen repris reprend asumió asume".split())
CHANGE_WORDS = frozenset({"now", "moved", "switched", "changed", "instead", "anymore", "replaced", "migrated",
                          "renamed", "nowadays", "relocated", "rewritten", "rewrote", "ported",
                          "swapped", "reassigned", "upgraded", "downgraded", "bumped", "pinned",
                          "jetzt", "désormais", "maintenant", "ahora"})  # "now" in de, fr, es
CHANGE_WORDS |= ARROWS | MOVING | REPLACING | TAKING
# "X instead of Y", "X rather than Y" deny Y as "X, not Y" does ("We use pnpm instead of npm" agrees
# with "we use pnpm, never npm").
_CONTRASTS = {"instead": "of", "rather": "than"}
# Change words telling when rather than what changed ("now", "these days"): no evidence beyond the cosine gates.
_WHEN_CHANGED = frozenset({"now", "jetzt", "désormais", "maintenant", "ahora", "instead", "anymore",
                           "nowadays", "no longer", "from now on", "any more",
                           "these days", "as of", "starting from", "effective"})
CHANGE_VERBS = CHANGE_WORDS - _WHEN_CHANGED  # "moved", "switched": a change said with a verb
_ENDED = frozenset({"anymore", "any more", "no longer"})  # change words saying a denial has begun
ADDITION_WORDS = frozenset({"also", "too", "additionally", "addition", "plus"})
STOP = frozenset("""a an the is are was were be been being am has have had do does did to of in on at for from by
with and or but as it its this that these those there here we our us i my me you your he she his her they their
them who which what when where how per each every all any some about after before into onto than then so if will
would should can could may might must just very more most up out set get gets got via until since one while
during""".split())
# German, French and Spanish function words read as English's ("Die Uhrzeit des Backups wurde auf 4:00 geändert", "Le
# serveur de sauvegarde est à Dublin"): articles, prepositions, and the forms of "be" (``MOVES``', "está", but those
# that are English words: "war", "son", "era"), verbs of ``VERBS`` too. A capitalised word after a German article is a
# noun, no name (German alone writes its nouns so: ``contradiction_reading``).
GERMAN_ARTICLES = frozenset("der die das des dem den ein eine einen einem einer eines".split())
_FOREIGN_PRONOUNS = frozenset("wir ich er sie ihr nous je il elle ils elles vous nosotros nosotras yo él ella ellos "
                              "ellas".split())
_FOREIGN_BEING = frozenset(w for language in ("de", "fr", "es") for w in MOVES[language].being.split()) | {
    "está", "están", "se"} - {"war", "son", "era"}  # "se": "La contraseña se cambió"
STOP |= GERMAN_ARTICLES | _FOREIGN_BEING | frozenset("""um auf im zum zur vom beim für mit nach bei von zu le la les un
une du des au aux à de dans sur pour avec en depuis el los las una unos unas del al con por para sobre desde seit
unser unsere unseren unserem unserer notre nos nuestro nuestra nuestros nuestras""".split()) | _FOREIGN_PRONOUNS
NUMBER_WORDS = {word: str(n) for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
NUMBER_WORDS |= {"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "hundred": "100", "dozen": "12"}
# Where the subject of a clause ends and what it says of it begins ("The staging cluster | has 4 nodes").
VERBS = frozenset("is are was were be been am has have had do does did will would shall should can could may "
                  "might must".split()) | _FOREIGN_BEING
PRONOUNS = frozenset("i we you he she they it".split()) | _FOREIGN_PRONOUNS
DETERMINERS = frozenset("the my our your his her their its this that these those".split())
CLAUSE_WORDS = frozenset({"and", "but", "while", "whereas", "so", "und", "et", "y"})  # and German, French, Spanish
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
NAME_VERBS = OWNING | REPLACING | TAKING | {"is", "was", "has", "took"}  # "took": "Bruno took over as CTO"
# Words between a name and its verb: "Bob now owns", "Alice also leads" (not "replaced": "Jenkins replaced X").
_BEFORE_VERB = (CHANGE_WORDS - REPLACING - TAKING) | ADDITION_WORDS | {"still", "currently"}
# Per language, what the holder of a thing is said to do, be or have become, read as a verb of ``OWNING`` is (words of
# ``_BEFORE_VERB`` may follow its first word: ``holding``): "Nils is now responsible for the API gateway", "Nils est
# désormais responsable de la passerelle API", "Nils se hizo cargo del API gateway", "Priya leitet jetzt das
# Plattform-Team" (``OWNING`` is English: a German, French or Spanish owner's verb is a phrase of one word here); "…"
# stands for what is held, said before the phrase's last word ("Priya ist jetzt für das API-Gateway zuständig").
HOLDING = {
    "en": ("is responsible for", "are responsible for", "is in charge of", "took charge of", "takes charge of"),
    "de": ("ist verantwortlich für", "ist zuständig für", "ist für … verantwortlich", "ist für … zuständig", "leitet",
           "verantwortet", "betreut", "verwaltet", "besitzt", "hat … übernommen"),
    "fr": ("est responsable de", "est responsable du", "est responsable des", "a pris en charge", "dirige", "gère",
           "pilote", "supervise"),
    "es": ("es responsable de", "es responsable del", "está a cargo de", "está a cargo del", "se hizo cargo de",
           "se hizo cargo del", "se hace cargo de", "se hace cargo del", "dirige", "gestiona", "lidera", "coordina",
           "supervisa"),
}
_HELD = tuple(tuple(phrase.split()) for phrases in HOLDING.values() for phrase in phrases)
_HELD_WORDS = 6  # words held between a phrase's "…" and its last word at most
_HOLDING = {p[0]: tuple(q[1:] for q in _HELD if q[0] == p[0]) for p in _HELD}  # by first word, the rest of each


def holding(words: list[str], at: int) -> int:
    """Where a phrase of ``HOLDING`` starting at ``at`` in ``words`` (lowercase) ends (the index past it, words of
    ``_BEFORE_VERB`` after its first word: "is now responsible for"; what is held before its last word within
    ``_HELD_WORDS`` words: "ist für das API-Gateway zuständig"), or ``at`` where none starts."""
    rests = _HOLDING.get(words[at], ())
    k = at + 1
    while rests and k < len(words) and words[k] in _BEFORE_VERB:
        k += 1
    for rest in rests:
        cut = rest.index("…") if "…" in rest else len(rest)
        if tuple(words[k:k + cut]) == rest[:cut] and all(w in words[k + cut:k + cut + _HELD_WORDS]
                                                         for w in rest[cut + 1:]):
            return k + cut
    return at


_POINT_VALUES = frozenset({"number", "time", "date"})  # values that never name a subject
# Units of one measure, as stemmed: a count in one of them for a count in another is one slot ("30 seconds" / "2
# minutes"); other units apart are two ("4 nodes" / "3 GPUs": ``contradiction_compare._counts_apart``).
MEASURES = {unit: "time" for unit in "ms s sec second min minut h hr hour day week month year".split()} | {
    unit: "size" for unit in "b byte kb mb gb tb pb kib mib gib tib".split()}
# Words of each text aligned at most (difflib is quadratic): docs/benchmarks.md#contradictions-and-change-over-time.
ALIGNED = 64
SHORT = 8  # words of a one-line memory ("We use Python 3.11" / "Drop Python 3.9")
# Tools' names written in lower case, read as names where a name stands (``_name_slot``).
LOWER_NAMES = frozenset("""uv pip pipx npm pnpm yarn bun deno make cmake ninja bazel conda mamba poetry tox nox pytest
ruff black mypy pyright eslint prettier biome webpack vite esbuild rollup nginx caddy git kubectl helm""".split())
# Words naming a group, a place or a product line: the word right before one names which ("the search
# team", "the us cluster"; ``siblings`` too).
HEADS = frozenset("team teams squad department region office branch app application cluster service repo"
                  " repository account plan tier".split())
# Regions: one right after the first word of a clause with no verb stands in its subject ("Support for
# APAC closes at 5pm" / "Support for EMEA ...": two subjects); ``siblings`` reads them as alternatives.
REGIONS = frozenset(("eu", "us", "uk", "emea", "apac", "amer", "latam"))
# Words before what a change goes to: "to GitHub Actions", "replaced Jenkins with ...", "swapped Kong for
# Traefik", "was replaced by Rollbar", "in favour of Yarn", "0.110 -> 0.125".
_TO = frozenset({"to", "into", "onto", "with", "for", "by", "of", "durch", "par", "por"}) | ARROWS  # "par": "by"
# Periods, as stemmed, and whether each recurs: "during the week", "in the morning" say a time of every week or day,
# "over the summer", "in the quarter" bound a statement in time (``contradiction_ending.bounded``).
PERIODS = {"week": True, "weekend": True, "morn": True, "even": True, "night": True, "year": True, "month": False,
           "quarter": False, "season": False, "semester": False, "summer": False, "winter": False, "autumn": False}
# Words read as a period's noun, stemmed as ``PERIODS`` has it: its adjectives ("the quarterly archiving" as
# "archiving every quarter") and its German, French and Spanish nouns ("mois": its stem is the pronoun "moi").
PERIOD_WORDS = {"hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "monthly": "month",
                "quarterly": "quarter", "yearly": "year", "annual": "year", "annually": "year"} | {
    word: "week" for word in "woche wochen semaine semaines semana semanas".split()} | {
    word: "month" for word in "monat monate monaten mois mes meses".split()}
# Words of a time leading a clause, no subject's ("From this autumn Zoë's swimming group meets"), as stemmed
# (not "fall", "spring", "term": a verb, a framework, a word)
_WHEN = frozenset(PERIODS) | frozenset({"today", "tomorrow", "tonight", *WEEKDAY_NAMES})
# Words of a relative time, as stemmed, besides ``_WHEN``'s: "last month", "two weeks ago", "yesterday".
_RELATIVE = frozenset({"last", "ago", "yesterday", "earlier", "past", "previous", "day", "hour",
                       # and German, French, Spanish ones
                       "letzt", "letzten", "letzter", "vergangen", "vergangenen", "gestern", "dernier", "dernièr",
                       "passé", "hier", "pasado", "pasada", "última", "último", "ayer"})
_WHEN_KINDS = frozenset({"time", "day", "month", "date"})  # kinds of value telling when ("20 December": ``_calendar``)
# What a question asks for, by its words, as the kinds of value an answer holds ("which host ..." wants a
# host, "what port ..." a number): a memory changing a value of another kind does not outdate an older one
# for that question. Its nouns, and those of ``ATTRIBUTES``, name the slot of a thing a change goes to.
ASKED_KINDS: dict[str, frozenset[str] | set[str]] = {
    "host": {"ident", "path"}, "hostname": {"ident", "path"}, "server": {"ident", "path", "name"},
    "machine": {"ident", "path", "name"}, "node": {"ident", "path", "name"}, "ip": {"ident", "number"},
    "url": {"ident", "path"}, "endpoint": {"ident", "path"}, "domain": {"ident", "path"},
    "port": {"number"}, "many": {"number"}, "much": {"number"}, "limit": {"number"}, "size": {"number"},
    "when": _WHEN_KINDS, "time": _WHEN_KINDS, "date": _WHEN_KINDS, "day": _WHEN_KINDS,
    "version": {"number", "ident", "name"}, "price": {"number"}, "cost": {"number"}, "costs": {"number"},
    "fee": {"number"}, "period": {"number"}, "interval": {"number"},
    "who": {"name"}, "whom": {"name"}, "owner": {"name"}, "owns": {"name"},
}
_PLACES = frozenset({"ident", "path", "name"})
# Nouns of an attribute, by the kinds of value it holds, in English, German, French and Spanish: a change said of one
# goes to its slot ("The backup schedule was changed to 4:00" / "Backups run nightly at 2:00", "La fréquence a été
# changée à 12 heures"; ``contradiction_compare.attribute_changed``), besides those of ``ASKED_KINDS``.
ATTRIBUTES: dict[str, frozenset[str]] = {word: kinds for words, kinds in (
    ("""schedule slot hour timing deadline weekday uhrzeit zeit zeitpunkt zeitplan termin datum heure horaire jour
     hora horario fecha""", _WHEN_KINDS),
    ("""frequency interval period cadence cycle häufigkeit intervall rhythmus fréquence intervalle période
     frecuencia intervalo periodo""", _WHEN_KINDS | {"number"}),
    ("""limit size quota retention threshold timeout ttl lifetime duration count capacity price cost fee budget rate
     maximum minimum cap grenze größe kontingent aufbewahrung schwelle dauer preis kosten anzahl limite taille
     rétention seuil durée prix coût nombre límite tamaño cuota retención umbral duración precio coste costo""",
     frozenset({"number"})),
    ("""location region zone timezone address room venue directory folder bucket ort standort zeitzone adresse raum
     lieu emplacement région fuseau salle ubicación lugar región zona dirección sala""", _PLACES),
    ("owner maintainer assignee besitzer eigentümer propriétaire propietario dueño", frozenset({"name"})),
) for word in words.split()}


def region_us(before: str, after: str) -> bool:
    """Whether a lower-case "us" between the words ``before`` and ``after`` (lowercase) names the region,
    not the pronoun: after a determiner or before a word of ``HEADS`` ("the us cluster", "us region")."""
    return before in DETERMINERS or before in ("a", "an") or after in HEADS or after[:-1] in HEADS


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A crude stem of a lowercase word: "deploys", "deploying", "deployed" → "deploy"; "shipping", "shipped" →
    "ship" (a consonant doubled before "-ing", "-ed" but l, s, z: "calling", "added" keep theirs)."""
    for suffix, keep, replace in (("ies", 4, "y"), ("ing", 5, ""), ("ed", 4, ""), ("es", 4, ""), ("s", 3, "")):
        if word.endswith(suffix) and len(word) > keep and not word.endswith("ss"):
            word = word[: -len(suffix)] + replace
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


# Words answering or greeting, as stemmed: they name no value's slot ("ok a6" / "ok b1").
INTERJECTIONS = frozenset(stem(word) for word in "ok okay yes yeah yep yup thanks thx hi hello hey alright ack".split())
