"""The database schema and its forward-only migrations, keyed on ``PRAGMA user_version``.
More: docs/storage-tuning.md#sqlite-schema."""

from __future__ import annotations

from collections.abc import Callable

import apsw

from .. import validate
from .cells import SEQ_MASK
from .db import write_transaction
from ..errors import StoreError
from ..literal import fill_tokens
from ..textindex import accents_folded, index_text
from ..turn_search import turn_key

VECTOR_TABLE = "memory_vectors"
# The memory seq of a row of VECTOR_TABLE: written exactly so wherever the expression
# index ``memory_vectors_seq`` must serve a lookup by seq.
VECTOR_SEQ = f"(key & {SEQ_MASK})"

_V1 = """
CREATE TABLE memories (
    seq               INTEGER PRIMARY KEY,          -- rowid shared with FTS5 and vec0
    id                TEXT NOT NULL UNIQUE,         -- UUIDv7
    tenant            TEXT NOT NULL,
    scope             TEXT NOT NULL,
    kind              TEXT NOT NULL,
    content           TEXT,                         -- NULL once forgotten
    content_hash      TEXT,                         -- duplicate detection; NULL once forgotten
    importance        INTEGER NOT NULL CHECK (importance BETWEEN 1 AND 10),
    source            TEXT,
    observed_at       INTEGER NOT NULL,             -- ms since the epoch, client clock
    recorded_at       INTEGER NOT NULL,             -- ms since the epoch, server clock
    expires_at        INTEGER,
    supersedes        TEXT REFERENCES memories(id),
    superseded_by     TEXT REFERENCES memories(id),
    supersede_reason  TEXT,
    forgotten_at      INTEGER,
    forget_reason     TEXT,
    confirmations     INTEGER NOT NULL DEFAULT 0,
    last_confirmed_at INTEGER,
    vector_pending    INTEGER NOT NULL DEFAULT 1,   -- 1 until its vector is in memory_vectors
    context_seq       INTEGER REFERENCES memories(seq), -- the memory before it in the same episode
    CHECK (forgotten_at IS NULL OR (content IS NULL AND content_hash IS NULL))
);
CREATE INDEX memories_current ON memories(tenant, scope, content_hash)
    WHERE superseded_by IS NULL AND forgotten_at IS NULL;
CREATE INDEX memories_observed ON memories(tenant, observed_at);
CREATE INDEX memories_pending ON memories(vector_pending) WHERE vector_pending = 1;
CREATE INDEX memories_context ON memories(context_seq) WHERE context_seq IS NOT NULL;

CREATE TABLE memory_tags (
    memory_seq INTEGER NOT NULL REFERENCES memories(seq),
    tag        TEXT NOT NULL,
    PRIMARY KEY (memory_seq, tag)
) WITHOUT ROWID;
CREATE INDEX memory_tags_by_tag ON memory_tags(tag, memory_seq);

-- A remember call's idempotency key and the content it carried; dropped when the
-- memory is forgotten.
CREATE TABLE idempotency_keys (
    tenant       TEXT NOT NULL,
    key          TEXT NOT NULL,
    memory_seq   INTEGER NOT NULL REFERENCES memories(seq),
    content_hash TEXT NOT NULL,
    PRIMARY KEY (tenant, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_by_memory ON idempotency_keys(memory_seq);

CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

"""

# Retrieval v2: the episode context applies only between episodes; vectors of the later
# windows of long memories (MiniLM reads 256 tokens), filled by the pending-vector pass like
# any missing vector. (Schemas 1-6 kept one FTS5 table for every tenant, made by triggers;
# schema 7 replaced it by one per tenant, filled from the memories, so a new file never makes it.)
_V2_RETRIEVAL = """
DROP TRIGGER IF EXISTS memories_fts_insert;
DROP TRIGGER IF EXISTS memories_fts_update;
DROP TABLE IF EXISTS memories_fts;
DROP VIEW IF EXISTS memories_fts_source;
UPDATE memories SET context_seq = NULL WHERE context_seq IS NOT NULL AND (kind != 'episode' OR NOT EXISTS (
    SELECT 1 FROM memories p WHERE p.seq = memories.context_seq AND p.kind = 'episode'
    AND p.superseded_by IS NULL AND p.forgotten_at IS NULL));
-- Vectors of the windows of a memory longer than the model reads (its whole-text
-- vector is its row in the vec0 table); float32 blobs, searched exactly with the
-- candidate filter.
CREATE TABLE memory_windows (
    memory_seq INTEGER NOT NULL REFERENCES memories(seq),
    part       INTEGER NOT NULL,   -- 1-based window number
    embedding  BLOB NOT NULL,
    PRIMARY KEY (memory_seq, part)
) WITHOUT ROWID;
UPDATE memories SET vector_pending = 1 WHERE content IS NOT NULL AND length(content) > 254;
"""

# Expiry erasure and Unicode normalisation (storage/store.py, storage/validate.py):
# memories past their expiry are found by an index; tags, scopes, idempotency keys
# and content hashes written before normalisation are brought to the forms that
# validate now produces (a tag that folds onto one already there is dropped; content hashes: ``_V17_HASHES``).
_V2_STATE = """
CREATE INDEX memories_expiring ON memories(expires_at) WHERE forgotten_at IS NULL AND expires_at IS NOT NULL;
UPDATE OR IGNORE memory_tags SET tag = memvault_tag(tag) WHERE tag <> memvault_tag(tag);
DELETE FROM memory_tags WHERE tag <> memvault_tag(tag);
UPDATE memories SET scope = memvault_nfc(scope) WHERE scope <> memvault_nfc(scope);
UPDATE OR IGNORE idempotency_keys SET key = memvault_nfc(key) WHERE key <> memvault_nfc(key);
"""

# API keys of the HTTP team server (storage/keys.py): only a SHA-256 of each key is kept.
_V3_KEYS = """
CREATE TABLE api_keys (
    id          TEXT PRIMARY KEY,                   -- UUIDv7, shown by `memvault keys list`
    key_hash    TEXT NOT NULL UNIQUE,               -- hex SHA-256 of the key
    tenant      TEXT NOT NULL,
    scope       TEXT NOT NULL,
    name        TEXT,
    read_only   INTEGER NOT NULL DEFAULT 0 CHECK (read_only IN (0, 1)),
    created_at  INTEGER NOT NULL,                   -- ms since the epoch
    expires_at  INTEGER,
    revoked_at  INTEGER
);
"""


def _v4_vector_cells(conn: apsw.Connection) -> None:
    """The vector index becomes an inverted file (``cells``): window 0 vectors move
    from the vec0 table (an exact scan per search) to a plain table keyed by cell,
    every existing one into cell 0 (no cell yet) until the background pass trains
    centroids and moves them. Float32 blobs, unchanged."""
    conn.execute(
        "CREATE TABLE memory_vectors_by_cell (\n"
        "    key       INTEGER PRIMARY KEY,  -- cell << 40 | memory seq (cells.key)\n"
        "    embedding BLOB NOT NULL         -- float32, window 0 of the memory\n"
        ")"
    )
    if conn.execute(f"SELECT 1 FROM sqlite_master WHERE name = '{VECTOR_TABLE}'").fetchone():
        conn.execute(f"INSERT INTO memory_vectors_by_cell(key, embedding) SELECT rowid, embedding FROM {VECTOR_TABLE}")
        conn.execute(f"DROP TABLE {VECTOR_TABLE}")
    conn.execute(f"ALTER TABLE memory_vectors_by_cell RENAME TO {VECTOR_TABLE}")
    conn.execute(f"CREATE UNIQUE INDEX memory_vectors_seq ON {VECTOR_TABLE}({VECTOR_SEQ})")
    conn.execute(
        "CREATE TABLE vector_cells (\n"
        "    cell       INTEGER PRIMARY KEY,\n"
        "    generation INTEGER NOT NULL,\n"
        "    centroid   BLOB NOT NULL  -- float32, unit length\n"
        ")"
    )


# Idempotency keys expire (limits.IDEMPOTENCY_KEY_TTL_MS): each records when it was
# recorded; a key written before counts from its memory's recording.
_V5_KEY_TIMES = """
ALTER TABLE idempotency_keys ADD COLUMN recorded_at INTEGER NOT NULL DEFAULT 0;  -- ms since the epoch
UPDATE idempotency_keys SET recorded_at = (SELECT m.recorded_at FROM memories m WHERE m.seq = memory_seq);
CREATE INDEX idempotency_keys_by_time ON idempotency_keys(recorded_at);
"""

# Scale. The log the in-memory copy of the vector index follows (``vector_cache``): the key of every
# vector written or removed, in the same transaction, keeping the last VECTOR_LOG_KEEP changes.
# AUTOINCREMENT: a change number is never used twice.
VECTOR_LOG_KEEP = 10_000
_V6_VECTOR_LOG = f"""
CREATE TABLE vector_changes (
    change INTEGER PRIMARY KEY AUTOINCREMENT,
    key    INTEGER NOT NULL  -- a {VECTOR_TABLE} key written or removed
);
CREATE TRIGGER vector_changes_insert AFTER INSERT ON {VECTOR_TABLE} BEGIN
    INSERT INTO vector_changes(key) VALUES (new.key);
    DELETE FROM vector_changes WHERE change <= last_insert_rowid() - {VECTOR_LOG_KEEP};
END;
CREATE TRIGGER vector_changes_delete AFTER DELETE ON {VECTOR_TABLE} BEGIN
    INSERT INTO vector_changes(key) VALUES (old.key);
    DELETE FROM vector_changes WHERE change <= last_insert_rowid() - {VECTOR_LOG_KEEP};
END;
CREATE TRIGGER vector_changes_update AFTER UPDATE ON {VECTOR_TABLE} BEGIN
    INSERT INTO vector_changes(key) VALUES (old.key), (new.key);
    DELETE FROM vector_changes WHERE change <= last_insert_rowid() - {VECTOR_LOG_KEEP};
END;
-- A tenant's ids in order (history.resolve's prefixes, short ids): without it SQLite
-- walked every memory of the tenant (memories_observed), 70-150 ms at 100,000.
CREATE INDEX memories_tenant_id ON memories(tenant, id);
"""

# Each tenant's keyword index is its own FTS5 table, so BM25's N and n (and the coverage
# IDF) count that tenant's memories only: one tenant's writes change no other tenant's
# ranking or the figures it shows. Contentless (FTS5 keeps no copy of the text; a delete
# repeats the indexed values, ``SqliteTransaction._index``) with FTS5's secure-delete, so
# a forget leaves no entry in its segments. ``documents``: the tenant's memories in its
# index (BM25's N for the coverage IDF), kept in each write transaction.
KEYWORD_TOKENIZER = "porter unicode61 remove_diacritics 2"


def keyword_table(number: int) -> str:
    """The FTS5 table of the tenant numbered ``number`` in ``keyword_tenants`` (its
    fts5vocab table: this name + ``_terms``)."""
    return f"memories_fts_{int(number)}"


def create_keyword_index(conn: apsw.Connection, tenant: str) -> int:
    """Number ``tenant`` and create its empty keyword index (inside a write); its number."""
    conn.execute("INSERT INTO keyword_tenants(tenant) VALUES (?)", (tenant,))
    number = conn.last_insert_rowid()
    table = keyword_table(number)
    conn.execute(
        f"CREATE VIRTUAL TABLE {table} USING fts5(content, context, content='', tokenize='{KEYWORD_TOKENIZER}');"
        f"INSERT INTO {table}({table}, rank) VALUES ('secure-delete', 1);"
        f"CREATE VIRTUAL TABLE {table}_terms USING fts5vocab({table}, 'col');"
    )
    return number


def fill_keyword_index(conn: apsw.Connection, tenant: str, number: int) -> None:
    """Index every memory of ``tenant`` with content into its (empty) keyword index."""
    rows = conn.execute(
        "SELECT m.seq, m.content, p.content FROM memories m LEFT JOIN memories p ON p.seq = m.context_seq"
        " WHERE m.tenant = ? AND m.content IS NOT NULL", (tenant,)).fetchall()
    conn.executemany(f"INSERT INTO {keyword_table(number)}(rowid, content, context) VALUES (?, ?, ?)",
                     [(seq, index_text(content), index_text(context)) for seq, content, context in rows])
    conn.execute("UPDATE keyword_tenants SET documents = ? WHERE number = ?", (len(rows), number))


def _v7_keyword_per_tenant(conn: apsw.Connection) -> None:
    """The one keyword index of every tenant (and its triggers) becomes one per tenant."""
    conn.execute(
        "DROP TRIGGER IF EXISTS memories_fts_insert; DROP TRIGGER IF EXISTS memories_fts_update;"
        "DROP TRIGGER IF EXISTS memories_fts_supersede; DROP TABLE IF EXISTS memories_fts_terms;"
        "DROP TABLE IF EXISTS memories_fts; DROP VIEW IF EXISTS memories_fts_source;"
        "CREATE TABLE keyword_tenants (\n"
        "    number    INTEGER PRIMARY KEY,\n"
        "    tenant    TEXT NOT NULL UNIQUE,\n"
        "    documents INTEGER NOT NULL DEFAULT 0  -- the tenant's memories in its keyword index\n"
        ")"
    )
    for (tenant,) in conn.execute("SELECT DISTINCT tenant FROM memories WHERE content IS NOT NULL").fetchall():
        fill_keyword_index(conn, tenant, create_keyword_index(conn, tenant))


# Current memories (neither superseded nor forgotten) per tenant, scope and kind, kept by
# triggers in the writing transaction, so the counts a recall's hint and the boot context
# show are read, not counted over the tenant's memories. Expired memories not yet erased
# are subtracted when read (``SqliteTransaction.counts``).
_V8_COUNTS = """
CREATE TABLE memory_counts (
    tenant  TEXT NOT NULL,
    scope   TEXT NOT NULL,
    kind    TEXT NOT NULL,
    current INTEGER NOT NULL,
    PRIMARY KEY (tenant, scope, kind)
) WITHOUT ROWID;
CREATE TRIGGER memory_counts_insert AFTER INSERT ON memories
WHEN new.superseded_by IS NULL AND new.forgotten_at IS NULL BEGIN
    INSERT INTO memory_counts VALUES (new.tenant, new.scope, new.kind, 1)
        ON CONFLICT DO UPDATE SET current = current + 1;
END;
CREATE TRIGGER memory_counts_update AFTER UPDATE OF superseded_by, forgotten_at, scope, kind ON memories
WHEN old.superseded_by IS NOT new.superseded_by OR old.forgotten_at IS NOT new.forgotten_at
    OR old.scope IS NOT new.scope OR old.kind IS NOT new.kind BEGIN
    UPDATE memory_counts SET current = current - 1 WHERE old.superseded_by IS NULL AND old.forgotten_at IS NULL
        AND tenant = old.tenant AND scope = old.scope AND kind = old.kind;
    INSERT INTO memory_counts SELECT new.tenant, new.scope, new.kind, 1
        WHERE new.superseded_by IS NULL AND new.forgotten_at IS NULL
        ON CONFLICT DO UPDATE SET current = current + 1;
END;
INSERT INTO memory_counts SELECT tenant, scope, kind, count(*) FROM memories
    WHERE superseded_by IS NULL AND forgotten_at IS NULL GROUP BY tenant, scope, kind;
"""

# Listings and boot sections read one bounded range per scope and kind (``sql.listing_sql``),
# newest first or most important first, never sorting everything a scope holds; the
# memories passing a recall's filter are found by scope, expiry and kind with the history
# admitted too (``memories_kept`` replaces ``memories_live``, which held current ones only and
# which a new file never makes, so a recall that admitted the history read every memory of the tenant).
_V10_LISTING = """
DROP INDEX IF EXISTS memories_live;
CREATE INDEX memories_kept ON memories(tenant, scope, expires_at, kind, observed_at) WHERE forgotten_at IS NULL;
CREATE INDEX memories_recent ON memories(tenant, scope, kind, observed_at)
    WHERE superseded_by IS NULL AND forgotten_at IS NULL;
CREATE INDEX memories_important ON memories(tenant, scope, kind, importance, observed_at)
    WHERE superseded_by IS NULL AND forgotten_at IS NULL;
"""



def _v11_tokens(conn: apsw.Connection) -> None:
    """Each memory's size as shown (``literal.literal_tokens``), counted once when written, so the
    boot context never tokenizes on a read."""
    conn.execute("ALTER TABLE memories ADD COLUMN tokens INTEGER")  # NULL once forgotten
    fill_tokens(lambda after: conn.execute("SELECT seq, content FROM memories WHERE seq > ? AND content IS NOT NULL"
                                           " ORDER BY seq LIMIT 5000", (after,)).fetchall(),
                lambda pairs: conn.executemany("UPDATE memories SET tokens = ? WHERE seq = ?", pairs))


# Sessions and their turns: an append-only log of what a client's session did. A session
# row is keyed (tenant, id) and its counts, times and digest change; a turn is keyed
# (session, seq), never updated. ``tokens_before``, the session's tokens before the
# turn, finds the newest turns within a budget by one range.
_V12_SESSIONS = """
CREATE TABLE IF NOT EXISTS sessions (
    seq        INTEGER PRIMARY KEY,
    tenant     TEXT NOT NULL,
    id         TEXT NOT NULL,
    scope      TEXT NOT NULL,
    client     TEXT,
    cwd        TEXT,
    started_at INTEGER NOT NULL,                 -- ms since the epoch
    last_at    INTEGER NOT NULL,                 -- the newest turn's time (or the start)
    ended_at   INTEGER,                          -- NULL while open
    turns      INTEGER NOT NULL DEFAULT 0,
    tokens     INTEGER NOT NULL DEFAULT 0,
    digest_id  TEXT REFERENCES memories(id),     -- its `episode` memory
    UNIQUE (tenant, id)
);
CREATE INDEX IF NOT EXISTS sessions_recent ON sessions(tenant, last_at DESC, id);
CREATE TABLE IF NOT EXISTS turns (
    session_seq   INTEGER NOT NULL REFERENCES sessions(seq),
    seq           INTEGER NOT NULL CHECK (seq > 0),
    role          TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
    text          TEXT NOT NULL,
    tool          TEXT,
    call_id       TEXT,
    ref           TEXT,
    tokens        INTEGER NOT NULL,
    tokens_before INTEGER NOT NULL,
    at            INTEGER NOT NULL,
    redacted      TEXT NOT NULL DEFAULT '[]',  -- JSON array of the kinds replaced
    PRIMARY KEY (session_seq, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS turns_ref ON turns(session_seq, ref) WHERE ref IS NOT NULL;
CREATE INDEX IF NOT EXISTS turns_budget ON turns(session_seq, tokens_before);
CREATE TRIGGER IF NOT EXISTS turns_append_only BEFORE UPDATE ON turns BEGIN
    SELECT RAISE(ABORT, 'turns are append-only');
END;
"""

# Runs of procedures: each ``confirm`` with an outcome. A run's note (the failure mode) is
# emptied when its procedure is forgotten, in the same transaction. Kept when present (a
# database set back to redo an earlier step has it).
_V13_RUNS = """
CREATE TABLE IF NOT EXISTS runs (
    seq        INTEGER PRIMARY KEY,
    memory_seq INTEGER NOT NULL REFERENCES memories(seq),
    at         INTEGER NOT NULL,                 -- ms since the epoch
    outcome    TEXT NOT NULL CHECK (outcome IN ('success', 'failure')),
    note       TEXT                              -- the failure mode; NULL once forgotten
);
CREATE INDEX IF NOT EXISTS runs_by_memory ON runs(memory_seq, at);
"""

# Turn search: each tenant's turns in its own contentless FTS5 table, as its memories are
# (``keyword_table``: BM25's statistics count that tenant's turns only), written in the append's
# transaction and emptied of a session's rows in its forget's. A row's rowid is
# ``turn_search.turn_key``. Contentless with secure-delete, as the memories' index: a forget repeats
# each turn's indexed text (``sessions.delete_session``), so its words leave the index's pages.
def turn_index_table(number: int) -> str:
    """The FTS5 table of the tenant numbered ``number`` in ``turn_index_tenants``."""
    return f"turns_fts_{int(number)}"


def create_turn_index(conn: apsw.Connection, tenant: str) -> str:
    """Number ``tenant`` and create its empty turn index (inside a write); the table's name."""
    conn.execute("INSERT INTO turn_index_tenants(tenant) VALUES (?)", (tenant,))
    table = turn_index_table(conn.last_insert_rowid())
    conn.execute(
        f"CREATE VIRTUAL TABLE {table} USING fts5(text, content='', tokenize='{KEYWORD_TOKENIZER}');"
        f"INSERT INTO {table}({table}, rank) VALUES ('secure-delete', 1);"
    )
    return table


def _v14_turn_index(conn: apsw.Connection) -> None:
    """Every tenant's turns already stored, indexed (:func:`rebuild_turn_index`)."""
    rebuild_turn_index(conn)


def rebuild_turn_index(conn: apsw.Connection) -> None:
    """Every tenant's turn index made anew from its stored turns (redacted text, as stored), inside a
    write: a migration, a database set back to redo an earlier step, ``memvault doctor --repair``."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'turn_index_tenants'").fetchone():
        for (number,) in conn.execute("SELECT number FROM turn_index_tenants").fetchall():
            conn.execute(f"DROP TABLE IF EXISTS {turn_index_table(number)}")
        conn.execute("DROP TABLE turn_index_tenants")
    conn.execute("CREATE TABLE turn_index_tenants (number INTEGER PRIMARY KEY, tenant TEXT NOT NULL UNIQUE)")
    for (tenant,) in conn.execute("SELECT DISTINCT tenant FROM sessions WHERE turns > 0").fetchall():
        table = create_turn_index(conn, tenant)
        rows = conn.execute("SELECT t.session_seq, t.seq, t.text FROM turns t JOIN sessions s"
                            " ON s.seq = t.session_seq WHERE s.tenant = ?", (tenant,)).fetchall()
        conn.executemany(f"INSERT INTO {table}(rowid, text) VALUES (?, ?)",
                         [(turn_key(key, seq), index_text(text)) for key, seq, text in rows])


def _v15_turn_index_deletes(conn: apsw.Connection) -> None:
    """Every turn index made anew without ``contentless_delete`` (whose deletes by rowid left a
    forgotten session's words in its pages): the words of sessions forgotten before go with the old
    pages (``secure_delete``), and a forget can now give FTS5 each turn's text to remove."""
    rebuild_turn_index(conn)


def _v16_accents_folded(conn: apsw.Connection) -> None:
    """The keyword index of each tenant holding a Greek or Cyrillic letter with an accent filled anew,
    and the turn indexes if a turn holds one: ``index_text`` now folds them
    (``textindex.accents_folded``), and a contentless index's 'delete' must repeat what was indexed."""
    letters = frozenset(map(chr, accents_folded()))
    conn.create_scalar_function("memvault_accented", lambda text: bool(text) and not letters.isdisjoint(text), 1,
                                deterministic=True)
    for tenant, number in conn.execute(
            "SELECT k.tenant, k.number FROM keyword_tenants k WHERE EXISTS (SELECT 1 FROM memories m"
            " WHERE m.tenant = k.tenant AND memvault_accented(m.content))").fetchall():
        table = keyword_table(number)
        conn.execute(f"INSERT INTO {table}({table}) VALUES ('delete-all')")
        fill_keyword_index(conn, tenant, number)
    if conn.execute("SELECT 1 FROM turns WHERE memvault_accented(text) LIMIT 1").fetchone():
        rebuild_turn_index(conn)


# Duplicates read anew (``validate.content_hash``): spaces inside quotes and tabs count, a final full stop,
# inline code's backquotes and a capitalised first word do not: every hash, and each idempotency key's, made
# again.
_V17_HASHES = """
UPDATE memories SET content_hash = memvault_hash(content) WHERE content IS NOT NULL;
UPDATE idempotency_keys SET content_hash = (SELECT m.content_hash FROM memories m WHERE m.seq = memory_seq)
WHERE EXISTS (SELECT 1 FROM memories m WHERE m.seq = memory_seq AND m.content IS NOT NULL);
"""

# Whether a tenant holds keys, and which tenants do, by index (``tenants_beside``: each OAuth token's check).
_V18_KEYS_BY_TENANT = "CREATE INDEX IF NOT EXISTS api_keys_by_tenant ON api_keys(tenant);"

# Contradicting pairs kept for review (``consolidate``) a row each, out of the tenant's review setting
# (``review:<tenant>``, JSON): recall looks up its hits' pairs by the primary key, where it parsed the
# whole state (up to 1,000 pairs, 87 KB) every time.
_V19_REVIEW_PAIRS = """
CREATE TABLE IF NOT EXISTS review_pairs (  -- kept when present: a database set back to redo an earlier step has it
    tenant TEXT NOT NULL,
    older  TEXT NOT NULL,   -- memory id
    newer  TEXT NOT NULL,   -- memory id
    PRIMARY KEY (tenant, older, newer)
) WITHOUT ROWID;
INSERT OR IGNORE INTO review_pairs SELECT substr(s.key, 8), p.value ->> 0, p.value ->> 1
FROM settings s, json_each(s.value, '$.pairs') p WHERE substr(s.key, 1, 7) = 'review:';
UPDATE settings SET value = json_remove(value, '$.pairs') WHERE substr(key, 1, 7) = 'review:';
"""

# Indentation shared by every line of a text of several lines counts (``validate.content_hash``): the
# hashes made again as in version 17.
_V20_HASHES = _V17_HASHES

# Contradicting pairs an agent judged both true (``confirm`` with ``beside``), each stored both ways round so
# that either memory's are read by the primary key. A confirmation without it dismisses no pair: none is
# carried over from before.
_V21_DISMISSED_PAIRS = """
CREATE TABLE IF NOT EXISTS dismissed_pairs (
    tenant       TEXT NOT NULL,
    memory       TEXT NOT NULL,      -- memory id
    other        TEXT NOT NULL,      -- memory id
    dismissed_at INTEGER NOT NULL,   -- ms
    PRIMARY KEY (tenant, memory, other)
) WITHOUT ROWID;
"""

MIGRATIONS: tuple[str | Callable[[apsw.Connection], None], ...] = (
    _V1, _V2_RETRIEVAL, _V2_STATE, _V3_KEYS, _v4_vector_cells, _V5_KEY_TIMES, _V6_VECTOR_LOG, _v7_keyword_per_tenant,
    _V8_COUNTS, _V10_LISTING, _v11_tokens, _V12_SESSIONS, _V13_RUNS, _v14_turn_index,
    _v15_turn_index_deletes, _v16_accents_folded, _V17_HASHES, _V18_KEYS_BY_TENANT,
    _V19_REVIEW_PAIRS, _V20_HASHES, _V21_DISMISSED_PAIRS,
)
SCHEMA_VERSION = len(MIGRATIONS)


def check_compatible(conn: apsw.Connection) -> int:
    """Return the file's schema version if this memvault may use it; change nothing.

    Raises:
        StoreError: the file belongs to another program (tables but no memvault
            schema), or was written by a newer memvault (higher ``user_version``).
    """
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    ours = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'memories'").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if (current == 0 and tables) or (current > 0 and not ours):
        raise StoreError("this file is an SQLite database of another program, not memvault's; it was not modified")
    if current > SCHEMA_VERSION:
        raise StoreError(
            f"this database has schema version {current}, written by a newer memvault; "
            f"this version understands up to {SCHEMA_VERSION}. Upgrade memvault; the file was not modified."
        )
    return current


def migrate(conn: apsw.Connection) -> int:
    """Bring the schema up to ``SCHEMA_VERSION``, one transaction per step.

    Returns the version now in force.

    Raises:
        StoreError: the file was written by a newer memvault (its
            ``user_version`` is higher than this code knows); it is left untouched.
    """
    current = check_compatible(conn)
    # The normalisations of validate, for migrations that bring old rows up to date.
    conn.create_scalar_function("memvault_nfc", validate.nfc, 1, deterministic=True)
    conn.create_scalar_function("memvault_tag", validate.fold_tag, 1, deterministic=True)
    conn.create_scalar_function("memvault_hash", validate.content_hash, 1, deterministic=True)
    while current < SCHEMA_VERSION:
        with write_transaction(conn):
            # Re-read under the write lock: another process may have migrated meanwhile.
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            if current >= SCHEMA_VERSION:
                break
            step = MIGRATIONS[current]
            if callable(step):
                step(conn)
            else:
                conn.execute(step)
            current += 1
            conn.execute(f"PRAGMA user_version = {int(current)}")
    return current
