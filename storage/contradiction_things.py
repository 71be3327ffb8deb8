"""What a comparison of two memories keeps apart before reading a change of one: a thing a change moves from one
value to another beside a memory sharing only one of its names or its noun ("We migrated the website from OVH to
Scaleway" / "OVH support answers within 24 hours": :func:`moves_another`). Read on words
(``contradiction_reading._Read``), no model."""

from __future__ import annotations

from .contradiction_ending import _HAVING
from .contradiction_reading import _Read
from .contradiction_words import TOWARD


def moves_another(old: _Read, new: _Read) -> bool:
    """Whether the change ``new`` says, from one value to another, of a thing it names apart from them ("the website"
    of "We migrated the website from OVH to Scaleway", "the API" of "We switched the API from REST to GraphQL") is of
    no slot ``old`` fills: without naming that thing, ``old`` holds a value it left only as its subject ("OVH support
    answers within 24 hours"), or it holds none and names the thing beside no value of their kind but a name ("Le site
    web utilise React": a name in a slot of the thing may be any of its names, not the one moved). A change naming no
    thing apart from its values moves its subject ("Upgraded Traefik v2 to v3", "Switched from Jenkins to GitHub
    Actions") and acts on any memory of it; so does a change whose value left the older holds in a slot, of whatever
    it names ("We host on OVH", "Our code is hosted on GitHub" / "... the repo from GitHub to GitLab"), or as its
    subject beside the thing ("OVH hosts the website")."""
    left = new.left - new.targets - new.ended
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
