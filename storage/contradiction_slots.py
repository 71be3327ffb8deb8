"""An attribute a newer memory names and the value an older one states with a verb: "The backup job runs at 02:00"
holds the time of the backup job, which "The backup job's schedule is now 04:30" changes; "The API listens on 8080"
its port, "Tomas works from Porto" his city, "Die Datenbank läuft auf db-alt-02" its host. The kind of the value (a
time, a port number, a place, a host name) tells which attribute it fills; an attribute of another kind ("The API's
timeout is now 30 s", "Tomas's manager is now Ana", "The backup job's retention is now 30 days") is another slot of
the same owner (``verb_slot``, ``another_attribute``); so is a thing of the owner doing something ("Marta's train
leaves at 9:00" / "Marta leaves at 8:00": ``owned_thing``). Used by ``contradiction.judge``."""

from __future__ import annotations

import re

from .contradiction_compare import _ATTRIBUTES, _attribute
from .contradiction_reading import HEDGES, _Read, _read, _Token
from .contradiction_tokens import _tokens
from .contradiction_words import NEGATIONS, STOP

# Nouns of an attribute whose value an older memory may state with a verb alone, by its kind (``_Token.kind``), as
# written, in English, German, French and Spanish; German compounds end with one ("Backupzeit", "Datenbankhost").
_TIME, _PORT, _PLACE, _HOST = "time", "port", "place", "host"
SLOT_NOUNS: dict[str, str] = {word: slot for words, slot in (
    ("""schedule time hour timing zeit uhrzeit startzeit zeitplan heure horaire hora horario""", _TIME),
    ("port ports puerto", _PORT),
    ("""city town location office place stadt ort standort büro ville lieu bureau emplacement ciudad oficina
     lugar""", _PLACE),
    ("host hostname server machine rechner hôte serveur servidor", _HOST),
) for word in words.split()}
_TAILS = sorted((w for w in SLOT_NOUNS if len(w) >= 4 and w not in ("time", "ville", "hora")), key=len, reverse=True)
# Words that may stand between the owner and the noun and name the same slot: "start time", "neue Uhrzeit".
_SAME_SLOT = frozenset("start starting run new current neue neuer nouvel nouvelle nouveau nuevo nueva".split())
# The kinds of token (``_Token.kind``) a slot's value is read as, and the words that must stand right before the
# older's value when its kind alone does not tell the slot ("on 8080", "from Porto", "auf db-alt-02").
_KINDS = {_TIME: frozenset({"time", "day"}), _PORT: frozenset({"number"}), _PLACE: frozenset({"name"}),
          _HOST: frozenset({"ident"})}
_BEFORE = {
    _TIME: None,
    _PORT: frozenset("on port auf sur en em".split()),
    _PLACE: frozenset("in from aus im à au depuis en desde em".split()),  # not "at": "works at Acme"
    _HOST: frozenset("on auf sur en em".split()),
}
_HEDGED = HEDGES | NEGATIONS | frozenset("""may vielleicht eventuell wenn falls peut-être quizás si nicht kein keine
                                          keinen pas jamais nunca""".split())
_POSSESSIVE = re.compile(r"\w(?:['’]s|s['’])\s")  # "Marta's train", "Jonas' Bruder"


def _plain(word: str) -> str:
    """A word as written without a French elision ("l'api" → "api")."""
    return word[2:] if word[:2] in ("l'", "d'", "l’", "d’") else word


def _named(new: _Read) -> tuple[str, list[tuple[str, ...]], _Token] | None:
    """(the slot, its owner's words as written, each with the forms it may take, the value) of a newer text saying
    one change of one slot of its owner: "The backup job's schedule is now 04:30" → ("time", [("backup",), ("job",)],
    04:30), "Die Berichtszeit ist jetzt 20:00" → ("time", [("berichts", "bericht")], 20:00); None for any other
    text."""
    if len(new.change_clauses) != 1:
        return None
    clause = next(iter(new.change_clauses))
    said = [t for t in new.sequence if t.clause == clause]
    subject = [t for t in said if t.subject and t.kind in ("word", "name")]
    rest = [t for t in said if not t.subject]
    if len(rest) != 1 or not subject:
        return None
    slot: str | None = None
    owner: list[tuple[str, ...]] = []
    for t in subject:
        word = _plain(t.shown)
        head, _, tail = word.rpartition("-")
        found = SLOT_NOUNS.get(word) or (SLOT_NOUNS.get(tail) if head else None)
        if found is None and t.kind == "word":
            tail = next((tail for tail in _TAILS if word.endswith(tail) and len(word) - len(tail) >= 3), "")
            head, found = word[:-len(tail)], SLOT_NOUNS.get(tail) if tail else None
        if found is not None and slot is None:
            slot = found
            if head:  # "Berichtszeit": "Bericht"
                owner.append((head, head[:-1]) if head.endswith("s") else (head,))
        elif word not in _SAME_SLOT:
            owner.append((word,))
    value = rest[0]
    if slot is None or not owner or value.kind not in _KINDS[slot] or slot == _PORT and not _port(value.key):
        return None
    return slot, owner, value


def _port(key: str) -> bool:
    return key.isdigit() and 0 < int(key) < 65536


def _stated(old: _Read, slot: str) -> list[str]:
    """The values of ``old`` of ``slot``'s kind standing where that slot's value stands (after a word of
    ``_BEFORE``, a port number before no word naming what it counts): "8080" of "The API listens on 8080", not of
    "The API serves 8080 users"."""
    kinds, before = _KINDS[slot], _BEFORE[slot]
    subjects = {t.key for t in old.sequence if t.subject}
    slots = old.slots
    found = []
    for at, (kind, text) in enumerate(slots):
        if kind not in kinds or text in subjects:
            continue
        if before is not None and not (at and slots[at - 1][0] == "word" and slots[at - 1][1] in before):
            continue
        if slot == _PORT and not (_port(text) and (at + 1 == len(slots) or slots[at + 1][1] in STOP)):
            continue
        found.append(text)
    return found


def verb_slot(older: str, newer: str) -> str | None:
    """"different <kind>: <old> → <new>" when ``newer`` says a change of one attribute of its owner (``SLOT_NOUNS``:
    "The API's port is now 9090") and ``older``, whose subject is that owner, states one value of the attribute's kind
    where that attribute's value stands, with a verb and no other attribute's noun ("The API listens on 8080"), and
    that value differs; else None. Neither may ask, suppose or deny ("The API's port may now be 9090?"), nor the
    older speak of a thing its owner has ("Marta's train leaves at 8:00")."""
    if "?" in older + newer or _POSSESSIVE.search(older):
        return None
    old, new = _read(older), _read(newer)
    if any(word in _HEDGED for read in (old, new) for kind, word in read.slots if kind == "word"):
        return None
    named = _named(new)
    if named is None:
        return None
    slot, owner, value = named
    written = {_plain(t.shown) for t in old.sequence} | {t.key for t in old.sequence}
    subject = {_plain(t.shown) for t in old.sequence if t.subject and t.kind in ("word", "name")}
    if not subject or not subject <= set().union(*owner) or old.changes \
            or not all(written.intersection(forms) for forms in owner):
        return None
    # a value beside another attribute's noun fills that attribute ("The API's timeout is 30 s")
    if any(t.kind == "word" and t.key in _ATTRIBUTES and SLOT_NOUNS.get(t.shown) != slot for t in old.sequence):
        return None
    stated = _stated(old, slot)
    if len(stated) != 1 or stated[0] == value.key:
        return None
    return f"different {value.kind}: {stated[0]} → {value.key}"


def another_attribute(old: _Read, new: _Read) -> bool:
    """Whether ``new`` says a change of an attribute of its subject (a noun of ``ATTRIBUTES``, ``ASKED_KINDS`` or
    ``SLOT_NOUNS`` there, or closing a compound of it) to a value of its kind, and ``old`` names no such noun and states
    values of none of its kinds: another slot of the same owner ("The backup job's retention is now 30 days" / "The
    backup job runs at 02:00", "The team's office is now Berlin" / "The team meets at 10:00"; not "The standup's time
    is now 10:30" / "The standup happens at 9:15")."""
    if len(new.change_clauses) != 1:
        return False
    clause = next(iter(new.change_clauses))
    said = [t for t in new.sequence if t.clause == clause]
    nouns = {t.key: set(_attribute(t.key)[0]) | _KINDS.get(SLOT_NOUNS.get(t.shown, ""), set())
             for t in said if t.subject and t.kind == "word"}
    nouns = {key: kinds for key, kinds in nouns.items() if kinds}
    kinds = set().union(*nouns.values())
    stated = {t.kind for t in said if not t.subject and t.kind != "word"}
    held = {t.kind for t in old.sequence if not t.subject and t.kind != "word"}
    return bool(kinds) and bool(stated) and stated <= kinds and bool(held) and held.isdisjoint(kinds) \
        and not any(t.key in nouns for t in old.sequence)


# Forms of "be" and "have" after an attribute ("Alice's manager is now Carol"), and the words that may stand before
# them or a verb ("Marta's train now leaves").
_COPULAS = frozenset("is are was were has have had remains stays ist sind war hat bleibt est sont était a es son era "
                     "está tiene".split())
_ADVERBS = frozenset("now also still jetzt nun auch noch maintenant désormais aussi encore ahora también".split())


def owned_thing(a: str, b: str) -> bool:
    """Whether ``a`` opens with a thing of a person or thing ``b`` opens with, doing something ("Marta's train leaves
    at 9:00", "Jonas' Zug fährt um 9:00"; a noun ``b`` never says), and ``b`` with that owner itself ("Marta leaves at
    8:00"): what the thing does is no change of its owner. An attribute said with a form of "be" or "have" ("Alice's
    manager is now Carol", "Anna's rent is now 900") is its owner's slot, not another thing."""
    first, second = _tokens(a), _tokens(b)
    if len(first) < 3 or not second or second[0][2] or second[0][0] != first[0][0]:
        return False
    (owner, _, possessive, ends, _), (noun, *_) = first[0], first[1]
    verb = next((raw.lower() for raw, *_ in first[2:] if raw.lower() not in _ADVERBS), "")
    said = {raw.lower() for raw, *_ in second}
    return possessive and not ends and owner[:1].isupper() and noun.lower() not in said \
        and verb not in _COPULAS and verb not in STOP and noun.lower() not in STOP
