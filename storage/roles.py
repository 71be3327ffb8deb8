"""Roles held of something: "the tech lead of search", "Dana owns search", "on call for payments". The
roles are a closed set: a memory naming only another role than the one a question asks for ("Who is on
call for search?" over "Dana is the tech lead of search") answers who holds that other role, not the one
asked. Read on words, no model: docs/retrieval-tuning.md#siblings."""

from __future__ import annotations

from collections.abc import Sequence

from .query import STOP_WORDS

# Each word naming a role, as a noun or a verb: the role ("owns" and "owner" are one).
_ROLE_WORDS = {
    **dict.fromkeys("owner owners own owns owned owning".split(), "owner"),
    **dict.fromkeys("lead leads leader leaders leading led head heads".split(), "lead"),
    **dict.fromkeys("manager managers manage manages managed managing".split(), "manager"),
    **dict.fromkeys("maintainer maintainers maintain maintains maintained maintaining".split(), "maintainer"),
    **dict.fromkeys("reviewer reviewers reviews reviewed reviewing".split(), "reviewer"),
    **dict.fromkeys("approver approvers approve approves approved approving".split(), "approver"),
    **dict.fromkeys(("on-call", "oncall", "on-duty"), "on call"),
    **dict.fromkeys(("dri", "dris"), "dri"),
    **dict.fromkeys(("director", "directors"), "director"),
    **dict.fromkeys(("sponsor", "sponsors"), "sponsor"),
    **dict.fromkeys(("steward", "stewards"), "steward"),
    **dict.fromkeys(("architect", "architects"), "architect"),
    **dict.fromkeys(("admin", "admins", "administrator", "administrators"), "admin"),
    **dict.fromkeys(("commander", "commanders"), "commander"),
}
# Nouns a word before names a kind of ("the product owner", "the engineering manager"); a verb has none.
_NOUNS = frozenset("owner owners lead leads leader leaders manager managers".split())
# The words naming a kind of owner, lead or manager, one word for the words of one kind.
_KINDS = {"product": "product", "tech": "tech", "technical": "tech", "team": "team", "engineering": "engineering",
          "project": "project", "program": "program", "programme": "program", "release": "release",
          "code": "code", "delivery": "delivery", "account": "account", "people": "people"}
# Plurals of nouns that are also verbs ("sales leads", "code reviews", "a heads-up"): a role only after a
# name or a word a verb follows ("Dana leads search", "who reviews it?").
_NOUN_OR_VERB = frozenset("leads reviews heads".split())
_BEFORE_VERBS = frozenset("who he she they also now still currently usually always that which".split())
# A role's noun right before a thing's noun names that thing ("the on-call rotation", "the owners file"), not
# someone; before a word naming someone ("the on-call engineer") or a time ("on call today") it is a role.
# Only nouns that are no verb are read so ("will lead search", "Dana owns search").
_ONLY_NOUNS = frozenset("""owner owners leader leaders manager managers maintainer maintainers reviewer reviewers
    approver approvers on-call oncall on-duty call dri dris director directors sponsor sponsors steward stewards
    architect architects admin admins administrator administrators commander commanders""".split())
_NOT_A_THING = frozenset("""today tonight tomorrow now again until till every next during all over through after
    before since week weekend weekends nights""".split())
# "my own", "on their own": no verb.
_POSSESSIVES = frozenset("my your his her its our their on".split())
# "led to", "managed to finish": no role.
_NOT_BEFORE = frozenset({"to"})


def roles(words: Sequence[tuple[str, str]]) -> list[tuple[str | None, str, int]]:
    """``(kind, role, position)`` of each role ``words`` name, in order; ``words`` are ``(lowercase, as
    written)``: "product owner" is ``("product", "owner", at)``, "owns" ``(None, "owner", at)``, "on call"
    ``(None, "on call", at)``, "directly responsible" ``(None, "dri", at)``. Linear in the words."""
    out: list[tuple[str | None, str, int]] = []
    for at, (word, _) in enumerate(words):
        before, written_before = words[at - 1] if at else ("", "")
        after, written_after = words[at + 1] if at + 1 < len(words) else ("", "")
        if _before_a_thing(word, after, written_after):
            continue
        if word == "call" and before == "on" or word == "responsible" and before == "directly":
            out.append((None, "on call" if word == "call" else "dri", at))
            continue
        role = _ROLE_WORDS.get(word)
        if role is None or after in _NOT_BEFORE or word in ("head", "heads") and after == "up" \
                or word == "head" and after != "of" or word == "own" and before in _POSSESSIVES \
                or word in _NOUN_OR_VERB and not (written_before[:1].isupper() or before in _BEFORE_VERBS):
            continue
        kind = _KINDS.get(before) if word in _NOUNS else None
        out.append((kind, role, at))
    return out


def _before_a_thing(word: str, after: str, written: str) -> bool:
    """Whether the role's noun ``word`` names a thing as the word ``after`` it (``written`` so) does:
    a lowercase word no stop word, none naming someone or a time ("rotation" after "on-call")."""
    return word in _ONLY_NOUNS and written[:1].islower() and after not in STOP_WORDS \
        and after not in _SOMEONE and after not in _NOT_A_THING


# A question asks for someone: "who ...?", "whom ...?", "which engineer ...?"; in others ("when does the
# on-call rotation change?") a role word may name what is asked about, not whom.
_WHO = frozenset("who whom whose".split())
_SOMEONE = frozenset("engineer engineers person people developer developers team teams individual teammate".split())


def asks_for_someone(words: Sequence[tuple[str, str]]) -> bool:
    """Whether ``words`` (``(lowercase, as written)``) ask who: "who", "whom", "whose", or "which" or "what"
    before a word naming someone ("which engineer", "what team")."""
    return any(w in _WHO or w in ("which", "what") and at + 1 < len(words) and words[at + 1][0] in _SOMEONE
               for at, (w, _) in enumerate(words))


def other_role(asked: Sequence[tuple[str, str]], said: Sequence[tuple[str, str]]) -> tuple[int, int] | None:
    """``(position in asked, position in said)`` of the first role ``asked``, a question asking for someone
    (:func:`asks_for_someone`), names and the first ``said`` names when ``said`` names roles and none is it: another role ("on call" / "tech lead"), or another
    kind of it ("product manager" / "engineering manager": the positions of the kinds). A role in fewer
    words is the same role in either direction ("owns" / "product owner", "leads" / "tech lead")."""
    asks = roles(asked) if asks_for_someone(asked) else []
    if not asks:
        return None
    holds = roles(said)
    kind, role, at = asks[0]
    if not holds or any(r == role and (kind is None or k is None or k == kind) for k, r, _ in holds):
        return None
    same = next(((k, where) for k, r, where in holds if r == role), None)
    if same is not None and kind is not None and same[0] is not None:
        return at - 1, same[1] - 1  # the kinds: "product" / "engineering" (manager)
    return at, holds[0][2]
