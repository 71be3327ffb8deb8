"""``Store.supersede`` and ``Store.forget``, above any backend: the rules of replacing
a memory by a new version (only the current version of a history, never a second copy
of current content, inherited fields and expiry) and of forgetting one (the content
erased for real, a tombstone left, the database scrubbed: ``upkeep``).
"""

from __future__ import annotations

from . import history, validate
from .errors import Conflict, InvalidInput
from .limits import REASON_MAX_CHARS, SOURCE_MAX_CHARS
from .records import ForgetOutcome, SupersedeOutcome
from .timefmt import format_ms
from .upkeep import Upkeep
from .writes import Writes, differences


class Changes(Writes, Upkeep):
    """:meth:`supersede` and :meth:`forget` (a part of ``Store``)."""

    def supersede(
        self,
        *,
        tenant: str,
        id: str,
        content: str,
        reason: str | None = None,
        kind: str | None = None,
        tags: list[str] | None = None,
        importance: int | None = None,
        source: str | None = None,
        observed_at: str | None = None,
        expires_at: str | None = None,
    ) -> SupersedeOutcome:
        """Replace memory ``id`` by a new one.

        Fields left None are inherited from the old memory (``observed_at``
        defaults to now). One transaction inserts the new memory and links both
        ways; the old one leaves recall and the boot context but stays in history.
        Only the current version of a history can be superseded. A history whose
        newest version was forgotten or has expired has no current version: it
        ends there, and new content is stored with ``remember``. No two current
        memories of a scope hold the same content, so the new content must
        differ from every other current memory of the scope, and may equal the
        old memory's only when another field changes.

        Raises:
            NotFound: no such memory in this tenant.
            Conflict: it already has a successor (the message names the current
                one, or says the history ended), it was forgotten or has expired,
                or the content repeats a current memory (named).
            InvalidInput: as for :meth:`remember`; also an inherited expiry that is already past.
        """
        text = validate.content(content)
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        new_kind = validate.kind(kind) if kind is not None else None
        new_tags = validate.tags(tags) if tags is not None else None
        new_importance = validate.importance(importance) if importance is not None else None
        new_source = validate.short_text("source", source, SOURCE_MAX_CHARS)
        self._refuse_secrets(content=content, source=source, tags=tags, reason=reason)
        content_hash = validate.content_hash(text)
        made, degraded = self.embed_memory(text, self.model_problem())
        with self.backend.write(tenant) as tx:
            now = self.clock()
            # Read under the row's lock (``backend.Writer``): of two supersedes of one memory,
            # or a supersede and a forget, the second waits, then sees the first.
            old = history.resolve(tx, tenant, id)
            history.check_supersedable(tx, old, now)
            observed, expires = validate.times(observed_at, expires_at, self.clock())
            if expires_at is None and old.expires_at is not None:
                if old.expires_at <= max(observed, now):
                    raise InvalidInput(
                        "expires_at",
                        f"the inherited expiry {format_ms(old.expires_at)} is not later than observed_at "
                        "and now: the new memory would never be shown; pass a new expires_at",
                    )
                expires = old.expires_at
            if content_hash == validate.content_hash(old.content or ""):
                given = {"kind": new_kind, "tags": new_tags, "importance": new_importance,
                         "source": new_source, "expires_at": expires_at and expires}
                if not differences(old, given):
                    raise Conflict(
                        "content", f"is the same as memory {old.id}'s and no other field changes: "
                        "nothing to supersede"
                    )
            else:
                same = tx.current_with_hash(tenant, old.scope, content_hash, now, old.id)
                if same is not None:
                    raise Conflict(
                        "content", f"memory {same} of this scope already holds this content: forget {old.id} "
                        "if it is wrong, rather than superseding it with a second copy"
                    )
            vectors, degraded = self._stored_vectors(tx, made, degraded)
            row = self._new_row(
                tx,
                tenant=tenant,
                scope=old.scope,
                kind=new_kind or old.kind,
                content=text,
                tags=new_tags if new_tags is not None else list(old.tags),
                importance=new_importance or old.importance,
                source=new_source if new_source is not None else old.source,
                observed_at=observed,
                expires_at=expires,
                vectors=vectors,
                supersedes=old.id,
            )
            tx.insert(row)
            tx.link(old.id, row.id, reason)
            due = self._due(tx)
        self._run_due(due)
        return SupersedeOutcome(id=row.id, superseded_id=old.id, degraded=degraded)

    def forget(
        self, *, tenant: str, id: str, reason: str | None = None, include_history: bool = False
    ) -> ForgetOutcome:
        """Delete a memory's content for real, leaving a tombstone (id, time, reason).

        Content, source, tags, duplicate hash, keyword entry and vectors are
        removed, and a pending scrub is recorded, in one transaction; then the
        database is scrubbed (``backend.scrub``) so the text is not recoverable
        from its files: within this call for a backend whose ``inline_scrub`` says
        so, else (SQLite, PostgreSQL) on the background thread, started at once.
        ``scrubbed`` is True only when the forgotten text is in none of the database's
        files: on SQLite once no scrub is pending any more, on PostgreSQL never (after its
        scrub the text may remain in ``pg_wal`` and vectors in the HNSW index until
        PostgreSQL reuses that space). When the scrub
        runs in the background or could not run yet (another connection held a
        lock, the disk is full) the forget still stands and the scrub is finished
        by the background thread, a later write, ``run_due_maintenance``, ``close``,
        the next start-up or ``memvault doctor``.
        ``include_history`` forgets the whole supersession chain. Forgetting a
        forgotten memory is not an error (``already_forgotten`` True).

        Raises:
            NotFound: no such memory in this tenant.
            InvalidInput: the reason is too long or contains a credential.
        """
        self._refuse_secrets(reason=reason)
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        with self.backend.write(tenant) as tx:
            # Every member is read under its row's lock (``backend.Writer``): a version a
            # concurrent supersede adds is either seen here or refused there.
            memory = history.resolve(tx, tenant, id)
            chain = history.chain(tx, memory) if include_history else [memory]
            now = self.clock()
            forgotten = [member.id for member in chain if member.forgotten_at is None]
            for member_id in forgotten:
                tx.erase(member_id, now, reason)
        # PostgreSQL's scrub (VACUUM FULL) leaves the text in pg_wal and the vectors in the
        # HNSW index's freed pages until PostgreSQL reuses them: never "scrubbed" there.
        scrubbed = self._scrub(retry_now=True) and self.backend.kind == "sqlite"
        return ForgetOutcome(
            id=memory.id,
            already_forgotten=memory.forgotten_at is not None,
            forgotten_ids=forgotten,
            scrubbed=scrubbed,
        )
