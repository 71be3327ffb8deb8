"""Two things a comparison of two memories keeps apart before reading a change of one: a class and a kind of it
("Deploys to production now happen on Thursday" / "Hotfix deploys to production happen on Friday": :func:`qualified`),
a thing and another named through it ("The API gateway" / "The API": :func:`named_through`), a person and a relative
of theirs (:func:`another_person`), and a thing a change moves from one value to another beside a memory sharing
only one of its names or its noun ("We migrated the website from OVH to Scaleway" / "OVH support answers within 24
hours": :func:`moves_another`). Read on words (``contradiction_reading._Read``), no model."""

from __future__ import annotations

from .contradiction_ending import _HAVING
from .contradiction_reading import _Read, _Token
from .contradiction_tokens import _tokens
from .contradiction_words import (ASKED_KINDS, ATTRIBUTES, CHANGE_WORDS, HEADS, MOVING_TO, ROLES, STOP, TOWARD,
                                  _WHEN_CHANGED, Tokens)


def qualified(a: _Read, clause_a: int, b: _Read, clause_b: int) -> bool:
    """Whether clause ``clause_a`` of ``a`` speaks of a kind of the things clause ``clause_b`` of ``b`` speaks of: the
    subject opening the latter is a plural noun (a class: "deploys", "builds", "déploiements") that the former opens
    with too, written right beside one or two words ``b`` never says: before it ("Hotfix deploys to production happen
    on Friday" / "Deploys to production now happen on Thursday", "Release builds run at 02:00" / "Builds moved to
    03:00"; not "Die Aufbewahrung der Logs"), or after it where both then go on alike, ``b`` saying nothing between
    (a word, or values of one kind: "Les déploiements correctifs ont lieu ..." / "Les déploiements ont lieu ...";
    "Deploys happen ..." / "Deploys run ...", "The runners use Ubuntu" / "Runners moved to Ubuntu" are no kind): a
    sibling of the unqualified class, not a change of it. A singular subject so qualified is the one thing named more
    fully ("The daily standup is at 9:15" / "Standup moved to 10:30")."""
    first = [t for t in a.sequence if t.clause == clause_a]
    second = [t for t in b.sequence if t.clause == clause_b]
    if len(first) < 2 or not second or not first[0].subject or not _class(second[0]):
        return False
    said = {t.key for t in b.sequence} | {t.shown for t in b.sequence}
    head, then = second[0], second[1] if len(second) > 1 else None

    def alike(t: _Token) -> bool:
        return then is not None and (t.key == then.key or t.kind == then.kind != "word")

    def other(words: list[_Token]) -> bool:  # words b never says, written side by side with the head
        return all(t.kind == "word" and t.key not in said and t.shown not in said for t in words) \
            and _written_together([t.shown for t in first[:len(words) + 1]], a)
    for size in (1, 2):
        rest = first[size:]
        if rest and rest[0].key == head.key and other(first[:size]):
            return True
        if first[0].key == head.key and len(rest) > 1 and other(first[1:size + 1]) and alike(rest[1]) \
                and _next_said(b, head.shown) == then.shown:  # type: ignore[union-attr]
            return True
    return False


def _next_said(read: _Read, word: str) -> str | None:
    """The first word after ``word`` in ``read`` but stop words, as written (a change word too: "moved" of "Runners
    moved to Ubuntu 22.04")."""
    shown = _shown(read)
    at = shown.index(word) + 1 if word in shown else len(shown)
    return next((w for w in shown[at:] if w not in STOP), None)


def _written_together(words: list[str], read: _Read) -> bool:
    """Whether ``words`` (as written, lowercased) stand one right after the other in ``read``, no word between them
    ("hotfix deploys", not "Aufbewahrung der Logs", "la durée de conservation des sauvegardes")."""
    shown = _shown(read)
    return any(shown[i:i + len(words)] == words for i in range(len(shown) - len(words) + 1))


def _then_said(read: _Read, word: str) -> str | None:
    """The first word after ``word`` in ``read`` as written, but stop words and words saying when ("now", "jetzt")."""
    shown = _shown(read)
    at = shown.index(word) + 1 if word in shown else len(shown)
    return next((w for w in shown[at:] if w not in STOP and w not in _WHEN_CHANGED), None)


def _shown(read: _Read) -> list[str]:
    """The words of ``read`` as written, lowercased, stop words too (``_Read.slots``), worked out once a reading."""
    known = read.derived.get(("shown", None))
    if known is None:
        known = read.derived["shown", None] = [word for _, word in read.slots]
    return known  # type: ignore[return-value]


def things_apart(old: _Read, at_old: set[int], new: _Read, at_new: set[int], every: bool = False,
                 kinds: tuple[bool, bool] = (True, True)) -> bool:
    """Whether clauses ``at_old`` of ``old`` and ``at_new`` of ``new`` speak of two things: a class and a kind of it
    (:func:`qualified`; ``kinds``: whether the older, the newer may be the kind), or, either way round, a thing and
    another one named through it (:func:`named_through`); for some pair of clauses, or with ``every`` for each pair
    (False when there is none)."""
    pairs = [(c, d) for c in at_old for d in at_new]
    apart = (kinds[0] and qualified(old, c, new, d) or kinds[1] and qualified(new, d, old, c)
             or named_through(old, c, new, d) or named_through(new, d, old, c) for c, d in pairs)
    return bool(pairs) and (all(apart) if every else any(apart))


def kinds_apart(old: _Read, was: str, new: _Read, now: str) -> bool:
    """Whether the clauses holding ``was`` in ``old`` and ``now`` in ``new`` speak of two things
    (:func:`things_apart`): the values are in the slots of two subjects, not one."""
    at = [{t.clause for t in read.sequence if t.key == value} for read, value in ((old, was), (new, now))]
    return things_apart(old, at[0], new, at[1])


def named_through(a: _Read, clause_a: int, b: _Read, clause_b: int) -> bool:
    """Whether clause ``clause_a`` of ``a`` speaks of another thing than clause ``clause_b`` of ``b``, named through
    the subject opening the latter: that subject, then a noun ``b`` never says ("The API gateway now listens on 9090"
    / "The API listens on 8080", "The database proxy", "The file server room"), or a noun ``b`` never says, "of" and
    that subject ("La salle du serveur de fichiers", "The room of the file server", "Der Raum des Dateiservers"). Not
    where the noun is a head one of the two drops ("the payments team" / "payments": ``HEADS``), nor an attribute's
    noun beside a value of its kind ("The wiki host is now wiki-02" / "The wiki runs on wiki-01", "L'horaire de la
    sauvegarde a été changé à 4h00"), nor a role's ("Ownership of the API gateway went to Nils": ``ROLES``)."""
    first = [t for t in a.sequence if t.clause == clause_a]
    second = [t for t in b.sequence if t.clause == clause_b]
    lead = next((at for at, t in enumerate(second) if not t.subject), len(second))
    if not lead or len(first) < 2:
        return False
    said = {t.key for t in b.sequence} | {t.shown for t in b.sequence}
    held = {t.kind for t in first if t.kind != "word"}

    def noun(t: _Token) -> bool:
        word = t.shown.replace("’", "'").rpartition("'")[2]  # "horaire" of "l'horaire"
        slot = ATTRIBUTES.get(word, ASKED_KINDS.get(word, frozenset()))
        return t.kind == "word" and t.key not in said and t.shown not in said and word not in HEADS \
            and word not in ROLES and held.isdisjoint(slot)
    same = next((at for at, (x, y) in enumerate(zip(first, second)) if x.key != y.key), min(len(first), len(second)))
    if lead <= same < len(first) and noun(first[same]):  # "The API gateway", then as "The API" goes on
        head, verb = first[same], second[same] if same < len(second) else None
        then = _then_said(a, head.shown)
        if then in CHANGE_WORDS or then in MOVING_TO:  # "The session length was extended to": its slot
            return False
        # a verb of the other's said after the noun (a change word aside): "The API gateway now listens" / "The API
        # listens", not "Support covers version 3.2" / "Support was extended to version 3.4"
        goes_on = verb is not None and verb.kind == "word" and then == first[same + 1].shown == verb.shown \
            and _then_said(b, second[same - 1].shown) == verb.shown if same + 1 < len(first) else False
        return (head.subject or goes_on) and _written_together([first[same - 1].shown, head.shown], a)
    shown = _shown(a)
    if not (noun(first[0]) and first[0].subject and first[0].shown in shown) \
            or [t.key for t in first[1:lead + 1]] != [t.key for t in second[:lead]]:
        return False
    after = shown[shown.index(first[0].shown) + 1:][:3]  # "salle du serveur", "room of the server"
    if not after or after[0] not in _OF:
        return False
    return after[1 + (len(after) > 2 and after[1] in _ARTICLES):][:1] == [first[1].shown]


# Words joining a thing to the one it is named through ("the room of the server", "la salle du serveur", "der Raum des
# Servers"), and articles that may stand between.
_OF = frozenset("of de du des von vom der".split())
_ARTICLES = frozenset("the la le les dem den der des".split())


def _class(t: _Token) -> bool:
    """Whether ``t`` is a plural noun standing as a subject: "deploys", "builds" (not "status")."""
    return t.subject and t.kind == "word" and t.shown != t.key and t.shown.endswith("s") \
        and not t.shown.endswith(("ss", "us"))


def moves_another(old: _Read, new: _Read) -> bool:
    """Whether the change ``new`` says, from one value to another, of a thing it names apart from them ("the website"
    of "We migrated the website from OVH to Scaleway", "the API" of "We switched the API from REST to GraphQL") is of
    no slot ``old`` fills: without naming that thing, ``old`` holds a value it left only as its subject ("OVH support
    answers within 24 hours"; a name it replaced there too: "I replaced Postfix with Exim on the mail relay" /
    "Postfix logs go to /var/log/mail.log"), or it holds none and names the thing beside no value of their kind but a
    name ("Le site web utilise React": a name in a slot of the thing may be any of its names, not the one moved). A
    change naming no thing apart from its values moves its subject ("Upgraded Traefik v2 to v3", "Switched from
    Jenkins to GitHub Actions") and acts on any memory of it; so does a change whose value left the older holds in a
    slot, of whatever it names ("We host on OVH", "Our code is hosted on GitHub" / "... the repo from GitHub to
    GitLab", "The mail relay runs Postfix"), or as its subject beside the thing ("OVH hosts the website")."""
    left = new.left - new.targets
    if not left or not new.targets:
        return False
    moved = left | new.targets
    thing = {t.key for t in new.sequence if t.clause in new.change_clauses and t.key not in moved
             and (t.kind == "word" and t.shown not in _AUXILIARIES or t.kind == "name" and t.determined)}
    if not thing:
        return False
    names = not thing.isdisjoint(t.key for t in old.sequence)
    held = [t for t in old.sequence if t.key in left]
    if held:
        return not names and all(t.subject for t in held)
    kinds = {t.kind for t in new.sequence if t.key in left} - {"name"}
    return not (names and any(t.kind in kinds and not t.subject for t in old.sequence))


# Auxiliaries of the perfect and words before where a change goes, read as no word of the thing it moves ("Wir haben
# die Website ... migriert", "d'OVH vers Scaleway").
_AUXILIARIES = _HAVING | TOWARD | frozenset("haben hat habe habt".split())


# People and animals of a person's life, named through that person ("Marta's brother", "der Bruder von Jonas",
# "le frère de Claire"): another one, whose facts are not the owner's. English, German, French, Spanish, Italian.
RELATIVES = frozenset("""brother brothers sister sisters sibling siblings mother mom mum father dad parents son sons
daughter daughters wife husband spouse partner girlfriend boyfriend fiance fiancé fiancee fiancée friend friends cousin
uncle aunt grandmother grandfather grandma grandpa grandparents kid kids child children baby nephew niece neighbor
neighbour roommate flatmate dog cat
bruder schwester geschwister mutter vater eltern sohn tochter ehefrau ehemann freund freundin cousine onkel tante
oma opa großeltern kinder nachbar nachbarin mitbewohner mitbewohnerin hund katze
frère sœur soeur mère père fils fille femme mari copain copine ami amie cousine oncle tante grand-mère grand-père
enfants enfant voisin voisine colocataire chien chat
hermano hermana hermanos madre padre padres hijo hija hijos esposa esposo marido mujer novio novia amigo amiga primo
prima tío tía abuela abuelo abuelos vecino vecina perro gato
fratello sorella madre padre genitori figlio figlia moglie marito fidanzato fidanzata amico amica cugino cugina zio zia
nonna nonno vicino vicina cane gatto""".split())
_WHOSE = frozenset("of de du von di del do da".split())  # "le frère de Claire": the relative, then whose


def another_person(a: str, b: str) -> bool:
    """Whether one of ``a`` and ``b`` speaks of a relative (``RELATIVES``) of a person the other names, by the
    person's name ("Marta's brother now lives in Berlin", "Jonas' Bruder", "le frère de Claire"), a word the other
    never says: another person, whose facts do not change the named one's ("Marta lives in Lisbon"). Both names kept:
    "Anna's daughter is 7" / "Anna's daughter is 8 now" is one daughter."""
    first, second = _tokens(a), _tokens(b)
    said = [{raw.lower() for raw, *_ in tokens} for tokens in (first, second)]
    return _relative_named(first, said[1]) or _relative_named(second, said[0])


def _relative_named(tokens: Tokens, said: set[str]) -> bool:
    """Whether ``tokens`` (``_tokens`` of a text) name a relative not in ``said`` through a person in ``said``."""
    for at, (raw, _, owner, _, _) in enumerate(tokens):
        word = raw.lower()
        if word not in RELATIVES or word in said:
            continue
        before = tokens[at - 1] if at else None
        after = tokens[at + 1:at + 3]
        if before is not None and before[2] and before[0][:1].isupper():  # "Marta's brother"
            whose = before[0]
        elif len(after) == 2 and after[0][0].lower() in _WHOSE and after[1][0][:1].isupper():  # "frère de Claire"
            whose = after[1][0]
        else:
            continue
        if whose.lower() in said:
            return True
    return False
