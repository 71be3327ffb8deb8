"""Which contradicting pairs are kept for review (``remember``, consolidation), beside the test of the words
(``contradiction.contradicts``): the scopes a memory is compared with. More: docs/how-memory-works.md#contradictions."""

from __future__ import annotations

from .limits import GLOBAL_SCOPE


def compared_scopes(scope: str) -> list[str]:
    """The scopes a memory of ``scope`` is compared with: its own and ``global``, which recall, boot and review
    read with it (a project's "We phased out Fluentd" changes the global "Our log shipper is Fluentd" for that
    project: trial verify63 N4); a ``global`` memory, ``global``'s only."""
    return [scope] if scope == GLOBAL_SCOPE else [scope, GLOBAL_SCOPE]


def kept_across(older_scope: str, newer_scope: str) -> bool:
    """Whether a pair of these scopes (the older's in meaning, the newer's) is kept: of one scope, or a scope's
    change of a ``global`` memory. Never a global memory outdating a scope's: a project's exception to a global
    rule stays current ("one approval" beside the global "two"); the global memory stays unmarked in the other
    scopes, which do not read the scope's (``consolidate.kept_newer`` wants both read)."""
    return older_scope in (newer_scope, GLOBAL_SCOPE)

