"""The backend's ``search`` and ``memories`` asked one thing at a time, for tests of a backend's answers."""

from __future__ import annotations

import numpy as np

from memvault.storage.backend import Order, Reader, Search
from memvault.storage.query import Filters
from memvault.storage.records import Memory

ANY = Filters(tenant="", scopes=[], now=0)  # for answers that no filter changes (statistics, terms)


def keyword(tx: Reader, filters: Filters, words: list[list[str]], k: int) -> list[tuple[int, float, float]]:
    return tx.search(Search(filters, k=k, words=words)).keyword


def vector(tx: Reader, filters: Filters, query: np.ndarray, k: int) -> list[tuple[int, float]]:
    return tx.search(Search(filters, k=k, vector=query)).vector


def contains(tx: Reader, filters: Filters, words: list[list[str]]) -> bool:
    return tx.search(Search(filters, exists=[words])).exists[0]


def similarity(tx: Reader, seqs: list[int], query: np.ndarray | int) -> dict[int, float]:
    return tx.search(Search(ANY, vector=query, seqs=seqs)).similarity


def pairs(tx: Reader, seqs: list[int]) -> dict[tuple[int, int], float]:
    return tx.search(Search(ANY, pairs=seqs)).pairs


def document_terms(tx: Reader, seqs: list[int]) -> dict[int, tuple[set[str], set[str]]]:
    return tx.search(Search(ANY, seqs=seqs)).terms


def query_terms(tx: Reader, words: list[str]) -> list[str]:
    return sorted({t for ts in tx.search(Search(ANY, terms=words)).lexemes.values() for t in ts})


def term_counts(tx: Reader, words: list[str]) -> tuple[int, dict[str, int]]:
    """The tenant's indexed memories and the documents of each of ``words``' index terms (none: left out)."""
    found = tx.search(Search(ANY, terms=words))
    return found.documents, {t: found.counts[t] for t in query_terms(tx, words) if t in found.counts}


def rows(tx: Reader, seqs: list[int]) -> dict[int, Memory]:
    return tx.memories(tx.tenant, seqs=seqs)  # type: ignore[attr-defined]


def by_id(tx: Reader, tenant: str, memory_id: str) -> tuple[int, Memory] | None:
    return next(iter(tx.memories(tenant, ids=[memory_id]).items()), None)


def by_prefix(tx: Reader, tenant: str, prefix: str, limit: int) -> list[Memory]:
    return list(tx.memories(tenant, prefix=prefix, limit=limit).values())


def listed(tx: Reader, filters: Filters, order: Order = "observed", limit: int | None = None) -> list[Memory]:
    return list(tx.memories(filters.tenant, filters=filters, order=order, limit=limit).values())


def count(tx: Reader, filters: Filters) -> int:
    return sum(tx.counts(filters).values())


def idempotency_key(tx: Reader, tenant: str, key: str) -> tuple[str, str] | None:
    return tx.repeats(tenant, "", "", 0, key=key).keyed


def current_with_hash(tx: Reader, tenant: str, scope: str, content_hash: str, now: int, but: str | None) -> str | None:
    return tx.repeats(tenant, scope, content_hash, now, but=but).same
