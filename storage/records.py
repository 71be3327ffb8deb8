"""The values the store returns: frozen dataclasses, no behaviour. A recall's are in ``hits``, what its
writes did in ``outcomes``."""

from __future__ import annotations

from dataclasses import dataclass

from .timefmt import format_ms


@dataclass(frozen=True)
class Memory:
    """One memory; times in ms since the epoch. A tombstone (forgotten) has no content,
    source, tags or ``tokens`` (the content's size as shown: ``literal.literal_tokens``)."""

    id: str
    tenant: str
    scope: str
    kind: str
    content: str | None
    tags: tuple[str, ...]
    importance: int
    source: str | None
    observed_at: int
    recorded_at: int
    expires_at: int | None
    supersedes: str | None
    superseded_by: str | None
    supersede_reason: str | None
    forgotten_at: int | None
    forget_reason: str | None
    confirmations: int
    last_confirmed_at: int | None
    vector_pending: bool
    tokens: int | None


@dataclass(frozen=True)
class DueWork:
    """What ``Upkeep.run_due`` did: expired memories erased, and whether a scrub is still due."""

    purged_ids: list[str]
    scrub_pending: bool


@dataclass(frozen=True)
class ApiKey:
    """One key's metadata (never the key): times in ms since the epoch."""

    id: str
    tenant: str
    scope: str
    name: str | None
    read_only: bool
    created_at: int
    expires_at: int | None
    revoked_at: int | None

    def refusal(self, now: int) -> str | None:
        """``"revoked on <time>"``, ``"expired on <time>"`` at ``now`` (ms), or None."""
        if self.revoked_at is not None:
            return f"revoked on {format_ms(self.revoked_at)}"
        if self.expires_at is not None and self.expires_at <= now:
            return f"expired on {format_ms(self.expires_at)}"
        return None


@dataclass(frozen=True)
class NewTurn:
    """One turn to append to a session (``Episodes.append``): ``role`` one of ``limits.ROLES``;
    ``tool``/``call_id``, the tool's name and the client's id of that call; ``at`` ms since
    the epoch (None: now); ``seq`` given: a retry of that (session, seq) writes nothing;
    ``ref``, the source's own id of the entry: a second turn with a ref the session has writes nothing;
    ``redacted``, the kinds an earlier redaction took out of ``text`` (an exported turn's; kept when
    their marker ``[kind]`` is in the text)."""

    role: str
    text: str
    tool: str | None = None
    call_id: str | None = None
    at: int | None = None
    seq: int | None = None
    ref: str | None = None
    redacted: tuple[str, ...] = ()


@dataclass(frozen=True)
class Turn:
    """A stored turn: ``seq`` 1, 2, 3 ... in the order written; ``text`` as stored (``<private>``
    spans removed, credentials replaced by ``[kind]``, cut to ``limits.TURN_MAX_CHARS``);
    ``tokens`` its ``literal.literal_tokens``; ``redacted``, the kinds replaced (and "private"
    when a span was removed); ``ref`` as appended."""

    session_id: str
    seq: int
    role: str
    text: str
    tool: str | None
    call_id: str | None
    tokens: int
    at: int
    redacted: tuple[str, ...]
    ref: str | None = None


@dataclass(frozen=True)
class Session:
    """A session of one client (times in ms): ``ended_at`` None while open (an append after the
    end reopens it); ``turns``/``tokens`` what it holds; ``digest_id`` its ``episode`` memory."""

    id: str
    tenant: str
    scope: str
    client: str | None
    cwd: str | None
    started_at: int
    last_at: int
    ended_at: int | None
    turns: int
    tokens: int
    digest_id: str | None


@dataclass(frozen=True)
class AppendOutcome:
    """What ``Episodes.append`` did: ``added``, the seqs written; ``repeated``, turns already
    there (same seq or ref); ``redacted``, the kinds replaced across the call (sorted, unique)."""

    session_id: str
    added: tuple[int, ...]
    repeated: int
    redacted: tuple[str, ...]
