"""The PostgreSQL schema and its forward-only migrations, keyed on the ``memvault_schema`` table.
Why each migration: docs/storage-tuning.md#postgres-schema."""

from __future__ import annotations

from collections.abc import Callable

import psycopg
from psycopg import sql

from .. import validate
from ..backend import SCRUB_DUE
from ..errors import StoreError
from ..ids import new_id
from ..literal import fill_tokens
from .sql import TS_CONFIG, index_words
from .statistics import STATISTICS_DUE, UNSAMPLED, scalar, unsampled_sql

APP_ROLE = "memvault_app"
TENANT_TABLES = ("memories", "memory_tags", "idempotency_keys", "api_keys")
VECTOR_TABLES = ("memory_vectors", "memory_windows")
MIGRATION_LOCK = 0x6D656D7661756C74  # pg_advisory_xact_lock key of migrations ("memvault")
MODEL_LOCK = MIGRATION_LOCK + 1  # ... of the recorded model: shared by vector writers, taken alone by a reset
MODEL_CLAIM_LOCK = MIGRATION_LOCK + 2  # ... of recording the first model and creating the vector tables
PGVECTOR_MIN = (0, 8)  # iterative index scans

_V1 = f"""
CREATE TABLE memvault_schema (version integer NOT NULL);
INSERT INTO memvault_schema VALUES (0);

CREATE TEXT SEARCH DICTIONARY memvault_english (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION {TS_CONFIG} (COPY = pg_catalog.simple);
ALTER TEXT SEARCH CONFIGURATION {TS_CONFIG} ALTER MAPPING
    FOR asciiword, word, numword, asciihword, hword, hword_asciipart, hword_part, hword_numpart, numhword
    WITH memvault_english;

CREATE TABLE memories (
    seq               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id                text COLLATE "C" NOT NULL UNIQUE,   -- UUIDv7
    tenant            text COLLATE "C" NOT NULL,
    scope             text COLLATE "C" NOT NULL,
    kind              text COLLATE "C" NOT NULL,
    content           text,                              -- NULL once forgotten
    content_hash      text,
    importance        integer NOT NULL CHECK (importance BETWEEN 1 AND 10),
    source            text,
    observed_at       bigint NOT NULL,                   -- ms since the epoch
    recorded_at       bigint NOT NULL,
    expires_at        bigint,
    supersedes        text COLLATE "C",                  -- no foreign key: an import may name
    superseded_by     text COLLATE "C",                  -- a memory that was forgotten elsewhere
    supersede_reason  text,
    forgotten_at      bigint,
    forget_reason     text,
    confirmations     integer NOT NULL DEFAULT 0,
    last_confirmed_at bigint,
    vector_pending    boolean NOT NULL DEFAULT true,
    context_seq       bigint REFERENCES memories(seq),   -- the episode before it (its context)
    content_terms     tsvector,                          -- sql.index_words(content)
    context_terms     tsvector,                          -- sql.index_words(context's content)
    CHECK (forgotten_at IS NULL OR (content IS NULL AND content_hash IS NULL AND content_terms IS NULL))
);
CREATE INDEX memories_current ON memories(tenant, scope, content_hash)
    WHERE superseded_by IS NULL AND forgotten_at IS NULL;
CREATE INDEX memories_live ON memories(tenant, scope, expires_at, kind, observed_at)
    WHERE superseded_by IS NULL AND forgotten_at IS NULL;
CREATE INDEX memories_observed ON memories(tenant, observed_at);
CREATE INDEX memories_pending ON memories(seq) WHERE vector_pending;
CREATE INDEX memories_context ON memories(context_seq) WHERE context_seq IS NOT NULL;
CREATE INDEX memories_expiring ON memories(expires_at) WHERE forgotten_at IS NULL AND expires_at IS NOT NULL;
CREATE INDEX memories_tenant_id ON memories(tenant, id);
CREATE INDEX memories_content_terms ON memories USING gin (content_terms);
CREATE INDEX memories_context_terms ON memories USING gin (context_terms);

CREATE TABLE memory_tags (
    memory_seq bigint NOT NULL REFERENCES memories(seq),
    tenant     text COLLATE "C" NOT NULL,
    tag        text COLLATE "C" NOT NULL,
    PRIMARY KEY (memory_seq, tag)
);
CREATE INDEX memory_tags_by_tag ON memory_tags(tag, memory_seq);

CREATE TABLE idempotency_keys (
    tenant       text COLLATE "C" NOT NULL,
    key          text COLLATE "C" NOT NULL,
    memory_seq   bigint NOT NULL REFERENCES memories(seq),
    content_hash text NOT NULL,
    PRIMARY KEY (tenant, key)
);
CREATE INDEX idempotency_keys_by_memory ON idempotency_keys(memory_seq);

CREATE TABLE settings (key text COLLATE "C" PRIMARY KEY, value text NOT NULL);

-- Full-text lookups run as the owner so they can use the GIN indexes (@@ is not LEAKPROOF),
-- restricting the rows exactly as the policy does: version 6 makes those functions (versions 2
-- and 4 drop the earlier ones from a database that has them).

CREATE TABLE api_keys (
    id         text COLLATE "C" PRIMARY KEY,
    key_hash   text NOT NULL UNIQUE,                     -- hex SHA-256 of the key
    tenant     text COLLATE "C" NOT NULL,
    scope      text COLLATE "C" NOT NULL,
    name       text,
    read_only  boolean NOT NULL DEFAULT false,
    created_at bigint NOT NULL,
    expires_at bigint,
    revoked_at bigint
);
"""

# Version 2: the full-text functions take their queries built once, not per row (made by version 6).
_V2 = """
DROP FUNCTION IF EXISTS memvault_matches(tsquery, text);
DROP AGGREGATE IF EXISTS memvault_or(tsquery);
-- The number of memories with words, counted for every recall's IDF: from this index alone.
CREATE INDEX memories_with_terms ON memories(tenant) WHERE content_terms IS NOT NULL;
"""

# Version 3: idempotency keys record when they were recorded (they expire).
_V3 = """
ALTER TABLE idempotency_keys ADD COLUMN recorded_at bigint NOT NULL DEFAULT 0;
UPDATE idempotency_keys k SET recorded_at = m.recorded_at FROM memories m WHERE m.seq = k.memory_seq;
CREATE INDEX idempotency_keys_by_time ON idempotency_keys(tenant, recorded_at);
"""

# Version 4: each phrase match carries the columns the filters and BM25 need (version 6's
# ``memvault_phrase_hits``, whose columns differ from version 2's).
_V4 = "DROP FUNCTION IF EXISTS memvault_phrase_hits(tsquery[], text);"

# Version 5: current memories per tenant, scope and kind, kept by deferred triggers.
_V5 = """
CREATE TABLE memory_counts (
    tenant  text COLLATE "C" NOT NULL,
    scope   text COLLATE "C" NOT NULL,
    kind    text COLLATE "C" NOT NULL,
    current bigint NOT NULL,
    PRIMARY KEY (tenant, scope, kind)
);
CREATE FUNCTION memvault_count_memories() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.superseded_by IS NULL AND OLD.forgotten_at IS NULL THEN
        UPDATE memory_counts SET current = current - 1
            WHERE tenant = OLD.tenant AND scope = OLD.scope AND kind = OLD.kind;
    END IF;
    IF NEW.superseded_by IS NULL AND NEW.forgotten_at IS NULL THEN
        INSERT INTO memory_counts VALUES (NEW.tenant, NEW.scope, NEW.kind, 1)
            ON CONFLICT (tenant, scope, kind) DO UPDATE SET current = memory_counts.current + 1;
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER memory_counts_insert AFTER INSERT ON memories DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION memvault_count_memories();
CREATE CONSTRAINT TRIGGER memory_counts_update AFTER UPDATE OF superseded_by, forgotten_at, scope, kind ON memories
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.superseded_by IS DISTINCT FROM NEW.superseded_by OR OLD.forgotten_at IS DISTINCT FROM NEW.forgotten_at
          OR OLD.scope IS DISTINCT FROM NEW.scope OR OLD.kind IS DISTINCT FROM NEW.kind)
    EXECUTE FUNCTION memvault_count_memories();
INSERT INTO memory_counts SELECT tenant, scope, kind, count(*) FROM memories
    WHERE superseded_by IS NULL AND forgotten_at IS NULL GROUP BY tenant, scope, kind;
"""

# Version 6: row-level security that holds against SQL run in a serving session.
_TENANT = "current_setting('memvault.tenant', true)"


def _tenant_rows(table: str, grants: str = "SELECT, INSERT, UPDATE, DELETE") -> str:
    """The grants and row-level policies of a table of tenants' rows created after version 6: the
    serving role sees and writes its tenant's rows only, the owner every row (RLS forced)."""
    return f"""GRANT {grants} ON {table} TO {APP_ROLE};
ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;
ALTER TABLE {table} FORCE ROW LEVEL SECURITY;
CREATE POLICY memvault_tenant ON {table} TO {APP_ROLE}
    USING (tenant = {_TENANT}) WITH CHECK (tenant = {_TENANT});
DO $$ BEGIN
    EXECUTE format('CREATE POLICY memvault_owner ON {table} TO %I USING (true) WITH CHECK (true)', current_user);
END $$;
"""


# The vector tables for dim-dimensional vectors, if missing, owned by this function's owner (version 6;
# version 20 keeps ANALYZE from sampling the vectors).
_VECTOR_TABLES = f"""
CREATE OR REPLACE FUNCTION memvault_vector_tables(dim integer) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
DECLARE t text; BEGIN
    IF dim NOT BETWEEN 1 AND 2000 THEN
        RAISE EXCEPTION 'unsupported embedding dimension %: the HNSW index takes 1 to 2000', dim
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF to_regclass('memory_vectors') IS NOT NULL THEN RETURN; END IF;
    EXECUTE format('CREATE TABLE memory_vectors (memory_seq bigint PRIMARY KEY REFERENCES memories(seq),'
                   ' tenant text COLLATE "C" NOT NULL, embedding vector(%s) NOT NULL)', dim);
    CREATE INDEX memory_vectors_hnsw ON memory_vectors USING hnsw (embedding vector_cosine_ops);
    EXECUTE format('CREATE TABLE memory_windows (memory_seq bigint NOT NULL REFERENCES memories(seq),'
                   ' tenant text COLLATE "C" NOT NULL, part integer NOT NULL CHECK (part >= 1),'
                   ' embedding vector(%s) NOT NULL, PRIMARY KEY (memory_seq, part))', dim);
    FOREACH t IN ARRAY ARRAY['memory_vectors', 'memory_windows'] LOOP
        EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO {APP_ROLE}', t);
        EXECUTE format('ALTER TABLE %I ALTER COLUMN embedding SET STATISTICS 0', t);  -- statistics.UNSAMPLED
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY memvault_tenant ON %I TO {APP_ROLE}'
                       ' USING (tenant = {_TENANT.replace("'", "''")}) WITH CHECK (tenant = {_TENANT.replace("'", "''")})', t);
        EXECUTE format('CREATE POLICY memvault_owner ON %I TO %I USING (true) WITH CHECK (true)', t, current_user);
    END LOOP;
END $fn$;
"""

_HITS_V6 = f"""
    SELECT p.i::integer, m.seq, {{in_content}}, m.tenant, m.scope, m.kind, m.observed_at, m.expires_at,
        m.forgotten_at, m.superseded_by, length(m.content_terms) + coalesce(length(m.context_terms), 0)
    FROM unnest(phrases) WITH ORDINALITY AS p(q, i)
    CROSS JOIN LATERAL (SELECT * FROM memories m
        WHERE m.tenant = for_tenant AND for_tenant = {_TENANT}
        AND m.{{column}} @@ p.q) m"""
_V6 = f"""
GRANT SELECT ON memvault_schema TO PUBLIC;  -- the version, read by every role before it starts
DO $$ DECLARE t text; BEGIN
    FOREACH t IN ARRAY ARRAY['memories', 'memory_tags', 'idempotency_keys', 'api_keys', 'memory_counts',
                             'memory_vectors', 'memory_windows'] LOOP
        CONTINUE WHEN to_regclass(t) IS NULL;
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY memvault_owner ON %I TO %I USING (true) WITH CHECK (true)',
                       t, (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = t::regclass));
    END LOOP;
END $$;
CREATE OR REPLACE FUNCTION memvault_phrase_hits(phrases tsquery[], for_tenant text)
RETURNS TABLE (phrase integer, seq bigint, in_content boolean, tenant text, scope text, kind text,
    observed_at bigint, expires_at bigint, forgotten_at bigint, superseded_by text, terms integer)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 1000 SET search_path FROM CURRENT AS $fn$
{_HITS_V6.format(in_content="true", column="content_terms")}
    UNION ALL
{_HITS_V6.format(in_content="false", column="context_terms")}
$fn$;
CREATE OR REPLACE FUNCTION memvault_term_documents(terms text[], for_tenant text)
RETURNS TABLE (term text, documents bigint)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 10 SET search_path FROM CURRENT AS $fn$
    SELECT t.term, (SELECT count(*) FROM memories m
        WHERE m.tenant = for_tenant AND for_tenant = {_TENANT} AND m.content_terms @@ t.q)
    FROM (SELECT u.term, plainto_tsquery('simple', u.term) AS q FROM unnest(terms) AS u(term) OFFSET 0) t
$fn$;
-- The key whose hash is given (a SHA-256 of 32 random bytes: knowing it is holding the key).
CREATE FUNCTION memvault_api_key(wanted text)
RETURNS TABLE (key_hash text, id text, tenant text, scope text, name text, read_only boolean,
    created_at bigint, expires_at bigint, revoked_at bigint)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 1 SET search_path FROM CURRENT AS $fn$
    SELECT key_hash, id, tenant, scope, name, read_only, created_at, expires_at, revoked_at
    FROM api_keys WHERE api_keys.key_hash = wanted
$fn$;
{_VECTOR_TABLES}"""


# Version 7: indexes for listings, one bounded range per scope and kind.
_V_LISTING = """
CREATE INDEX memories_recent ON memories(tenant, scope, kind, observed_at DESC, seq DESC)
    WHERE superseded_by IS NULL AND forgotten_at IS NULL;
CREATE INDEX memories_important ON memories(tenant, scope, kind, importance DESC, observed_at DESC, seq DESC)
    WHERE superseded_by IS NULL AND forgotten_at IS NULL;
"""

# Version 8: BM25's N per tenant, kept by a trigger.
_V_DOCUMENTS = """
CREATE TABLE keyword_documents (tenant text COLLATE "C" PRIMARY KEY, documents bigint NOT NULL);
CREATE FUNCTION memvault_count_documents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.content_terms IS NOT NULL THEN
        UPDATE keyword_documents SET documents = documents - 1 WHERE tenant = OLD.tenant;
    END IF;
    IF NEW.content_terms IS NOT NULL THEN
        INSERT INTO keyword_documents VALUES (NEW.tenant, 1)
            ON CONFLICT (tenant) DO UPDATE SET documents = keyword_documents.documents + 1;
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER keyword_documents_insert AFTER INSERT ON memories DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.content_terms IS NOT NULL) EXECUTE FUNCTION memvault_count_documents();
CREATE CONSTRAINT TRIGGER keyword_documents_update AFTER UPDATE OF content_terms, tenant ON memories
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN ((OLD.content_terms IS NULL) IS DISTINCT FROM (NEW.content_terms IS NULL) OR OLD.tenant IS DISTINCT FROM NEW.tenant)
    EXECUTE FUNCTION memvault_count_documents();
INSERT INTO keyword_documents SELECT tenant, count(*) FROM memories WHERE content_terms IS NOT NULL GROUP BY tenant;
DROP INDEX memories_with_terms;
CREATE INDEX memories_kept ON memories(tenant, scope, kind, expires_at) WHERE forgotten_at IS NULL;
ALTER TABLE keyword_documents FORCE ROW LEVEL SECURITY;
DO $$ BEGIN
    EXECUTE format('CREATE POLICY memvault_owner ON keyword_documents TO %I USING (true) WITH CHECK (true)',
                   (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'keyword_documents'::regclass));
END $$;
"""



def _v_tokens(conn: psycopg.Connection) -> None:
    """Version 9: each memory's size as shown, counted once when written."""
    conn.execute("ALTER TABLE memories ADD COLUMN tokens integer")  # NULL once forgotten
    fill_tokens(lambda after: conn.execute("SELECT seq, content FROM memories WHERE seq > %s AND content IS NOT NULL"
                                           " ORDER BY seq LIMIT 5000", (after,)).fetchall(),
                lambda pairs: conn.cursor().executemany("UPDATE memories SET tokens = %s WHERE seq = %s", pairs))


# Sessions and their turns, as on SQLite (its ``_V12_SESSIONS``): each turn carries its tenant
# for the row-level policy; turns are never updated (a trigger, and the serving role may only
# read and insert them).
_QUOTED_TENANT = _TENANT.replace("'", "''")  # inside a quoted format string
_SESSIONS = f"""
CREATE TABLE sessions (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant     text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    scope      text COLLATE "C" NOT NULL,
    client     text,
    cwd        text,
    started_at bigint NOT NULL,                  -- ms since the epoch
    last_at    bigint NOT NULL,                  -- the newest turn's time (or the start)
    ended_at   bigint,                           -- NULL while open
    turns      integer NOT NULL DEFAULT 0,
    tokens     bigint NOT NULL DEFAULT 0,
    digest_id  text COLLATE "C",                 -- its `episode` memory
    UNIQUE (tenant, id)
);
CREATE INDEX sessions_recent ON sessions(tenant, last_at DESC, id);
CREATE TABLE turns (
    session_seq   bigint NOT NULL REFERENCES sessions(seq),
    seq           integer NOT NULL CHECK (seq > 0),
    tenant        text COLLATE "C" NOT NULL,
    role          text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
    text          text NOT NULL,
    tool          text,
    call_id       text,
    ref           text COLLATE "C",
    tokens        integer NOT NULL,
    tokens_before bigint NOT NULL,               -- the session's tokens before this turn
    at            bigint NOT NULL,
    redacted      text[] NOT NULL DEFAULT '{{}}',  -- the kinds replaced
    PRIMARY KEY (session_seq, seq)
);
CREATE UNIQUE INDEX turns_ref ON turns(session_seq, ref) WHERE ref IS NOT NULL;
CREATE INDEX turns_budget ON turns(session_seq, tokens_before);
CREATE OR REPLACE FUNCTION memvault_turns_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'turns are append-only';
END $$;
REVOKE ALL ON FUNCTION memvault_turns_append_only() FROM PUBLIC;
CREATE TRIGGER turns_append_only BEFORE UPDATE ON turns FOR EACH ROW
    EXECUTE FUNCTION memvault_turns_append_only();
GRANT SELECT, INSERT, UPDATE ON sessions TO {APP_ROLE};
GRANT SELECT, INSERT ON turns TO {APP_ROLE};
DO $$ DECLARE t text; BEGIN
    FOREACH t IN ARRAY ARRAY['sessions', 'turns'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY memvault_tenant ON %I TO {APP_ROLE}'
                       ' USING (tenant = {_QUOTED_TENANT}) WITH CHECK (tenant = {_QUOTED_TENANT})', t);
        EXECUTE format('CREATE POLICY memvault_owner ON %I TO %I USING (true) WITH CHECK (true)',
                       t, current_user);
    END LOOP;
END $$;
"""


def _v_sessions(conn: psycopg.Connection) -> None:
    """Version 10: sessions and turns (``_SESSIONS``); kept when present (a database set back to
    redo an earlier step has them)."""
    if not scalar(conn, "SELECT to_regclass('sessions') IS NOT NULL"):
        conn.execute(_SESSIONS)


# Runs of procedures, as on SQLite (its ``_V13_RUNS``), each with its tenant for the
# row-level policy; the serving role never deletes one (a forget empties the note).
_RUNS = f"""
CREATE TABLE runs (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    memory_seq bigint NOT NULL REFERENCES memories(seq),
    tenant     text COLLATE "C" NOT NULL,
    at         bigint NOT NULL,                  -- ms since the epoch
    outcome    text NOT NULL CHECK (outcome IN ('success', 'failure')),
    note       text                              -- the failure mode; NULL once forgotten
);
CREATE INDEX runs_by_memory ON runs(memory_seq, at);
""" + _tenant_rows("runs", "SELECT, INSERT, UPDATE")



def _v_runs(conn: psycopg.Connection) -> None:
    """Version 11: runs (``_RUNS``); kept when present (a database set back to redo an earlier step
    has them)."""
    if not scalar(conn, "SELECT to_regclass('runs') IS NOT NULL"):
        conn.execute(_RUNS)


# A session and its turns can be forgotten (storage/episodes.py): the serving role deletes them.
_V_FORGET_SESSIONS = f"GRANT DELETE ON sessions, turns TO {APP_ROLE};"



def _v_turn_terms(conn: psycopg.Connection) -> None:
    """Version 13: turn search. Each turn's index words (``sql.index_words`` of its stored, redacted
    text) as a tsvector written by the append, with a GIN index; ``ts_rank`` scores a turn alone, so
    no tenant's turns weigh another's. The turns stored before are filled here, the append-only
    trigger set aside for it (the serving role still may not update a turn); kept when present (a
    database set back to redo an earlier step has it)."""
    conn.execute("ALTER TABLE turns ADD COLUMN IF NOT EXISTS terms tsvector")
    conn.execute("ALTER TABLE turns DISABLE TRIGGER turns_append_only")
    after = (0, 0)
    while rows := conn.execute("SELECT session_seq, seq, text FROM turns WHERE (session_seq, seq) > (%s, %s)"
                               " AND terms IS NULL ORDER BY session_seq, seq LIMIT 5000", after).fetchall():
        conn.cursor().executemany(
            f"UPDATE turns SET terms = to_tsvector('{TS_CONFIG}', %s) WHERE session_seq = %s AND seq = %s",
            [(index_words(text), key, seq) for key, seq, text in rows])
        after = rows[-1][:2]
    conn.execute("ALTER TABLE turns ENABLE TRIGGER turns_append_only")
    conn.execute("ALTER TABLE turns ALTER COLUMN terms SET NOT NULL")
    conn.execute("CREATE INDEX IF NOT EXISTS turns_terms ON turns USING gin (terms)")
    conn.execute(_TURN_HITS)


# The turns of ``for_tenant`` matching ``q`` (``session_rows.TURN_COLUMNS``), with their ``ts_rank``, as the schema's owner, so the
# GIN index serves the match (under row-level security a non-leakproof ``@@`` is no index condition),
# and only for the tenant the serving session names (as ``memvault_phrase_hits``).
_TURN_HITS = f"""
CREATE OR REPLACE FUNCTION memvault_turn_hits(q tsquery, for_tenant text)
RETURNS TABLE (session_seq bigint, seq integer, role text, text text, tool text, call_id text, tokens integer,
    at bigint, redacted text[], ref text, score real)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 100 SET search_path FROM CURRENT AS $fn$
    SELECT t.session_seq, t.seq, t.role, t.text, t.tool, t.call_id, t.tokens, t.at, t.redacted, t.ref,
        ts_rank(t.terms, q) FROM turns t
    WHERE t.terms @@ q AND t.tenant = for_tenant AND for_tenant = {_TENANT}
$fn$;
"""


# What ``keyword_terms`` holds, counted from the memories (version 14; ``doctor`` compares, ``--repair`` rewrites).
TERM_COUNTS = """SELECT d.tenant, d.term, count(*) FILTER (WHERE d.content), count(*) FILTER (WHERE NOT d.content)
    FROM (SELECT m.tenant, t, true FROM memories m, unnest(tsvector_to_array(m.content_terms)) t
          UNION ALL SELECT m.tenant, t, false FROM memories m, unnest(tsvector_to_array(m.context_terms)) t)
        d(tenant, term, content)
    GROUP BY d.tenant, d.term"""
# What ``keyword_documents`` holds, counted from the memories (version 8).
DOCUMENT_COUNTS = "SELECT tenant, count(*) FROM memories WHERE content_terms IS NOT NULL GROUP BY tenant"
# Version 14: the keyword search bounded as on SQLite (docs/storage-tuning.md#bounding-the-keyword-search).
# ``keyword_terms``: per tenant and index term, the memories holding it in their content and in their
# episode context, kept by deferred triggers (after keyword_documents': a tenant's writers meet there
# first, so they take the term rows in turn). ``memvault_bounded_hits``: the (phrase, memory) matches,
# as ``memvault_phrase_hits``, of the phrases ranked ``whole``, and of the others those among the
# memories read for them and the tenant's ``newest`` newest (by id: UUIDv7, time-sortable).
_ROW = ("m.seq, m.tenant, m.scope, m.kind, m.observed_at, m.expires_at, m.forgotten_at, m.superseded_by,"
        " length(m.content_terms) + coalesce(length(m.context_terms), 0) AS terms,"
        " m.content_terms, m.context_terms")
_POOLED = "k.tenant, k.scope, k.kind, k.observed_at, k.expires_at, k.forgotten_at, k.superseded_by, k.terms"
_OWN = f"m.tenant = for_tenant AND for_tenant = {_TENANT}"
_V_BOUNDED_KEYWORD = f"""
CREATE TABLE IF NOT EXISTS keyword_terms (
    tenant  text COLLATE "C" NOT NULL,
    term    text COLLATE "C" NOT NULL,
    content bigint NOT NULL,
    context bigint NOT NULL,
    PRIMARY KEY (tenant, term)
);
CREATE OR REPLACE FUNCTION memvault_count_terms() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_content tsvector := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.content_terms END;
    old_context tsvector := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.context_terms END;
    old_tenant text := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.tenant END;
    new_content tsvector := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.content_terms END;
    new_context tsvector := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.context_terms END;
    new_tenant text := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.tenant END;
BEGIN
    INSERT INTO keyword_terms AS k (tenant, term, content, context)
    SELECT d.tenant, d.term, sum(d.content), sum(d.context) FROM (
        SELECT new_tenant, t, 1, 0 FROM unnest(tsvector_to_array(new_content)) t
        UNION ALL SELECT new_tenant, t, 0, 1 FROM unnest(tsvector_to_array(new_context)) t
        UNION ALL SELECT old_tenant, t, -1, 0 FROM unnest(tsvector_to_array(old_content)) t
        UNION ALL SELECT old_tenant, t, 0, -1 FROM unnest(tsvector_to_array(old_context)) t
    ) d(tenant, term, content, context)
    GROUP BY d.tenant, d.term HAVING sum(d.content) <> 0 OR sum(d.context) <> 0 ORDER BY d.tenant, d.term
    ON CONFLICT (tenant, term) DO UPDATE
        SET content = k.content + EXCLUDED.content, context = k.context + EXCLUDED.context;
    -- A term no memory holds any more leaves no row (a forgotten memory's words; the scrub
    -- rewrites the table).
    DELETE FROM keyword_terms k WHERE k.tenant = old_tenant AND k.content = 0 AND k.context = 0
        AND k.term = ANY(tsvector_to_array(old_content) || tsvector_to_array(old_context));
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS keyword_terms_insert ON memories;
DROP TRIGGER IF EXISTS keyword_terms_update ON memories;
DROP TRIGGER IF EXISTS keyword_terms_delete ON memories;
CREATE CONSTRAINT TRIGGER keyword_terms_insert AFTER INSERT ON memories DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.content_terms IS NOT NULL OR NEW.context_terms IS NOT NULL)
    EXECUTE FUNCTION memvault_count_terms();
CREATE CONSTRAINT TRIGGER keyword_terms_update AFTER UPDATE OF content_terms, context_terms, tenant
    ON memories DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.content_terms IS DISTINCT FROM NEW.content_terms
          OR OLD.context_terms IS DISTINCT FROM NEW.context_terms OR OLD.tenant IS DISTINCT FROM NEW.tenant)
    EXECUTE FUNCTION memvault_count_terms();
CREATE CONSTRAINT TRIGGER keyword_terms_delete AFTER DELETE ON memories DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (OLD.content_terms IS NOT NULL OR OLD.context_terms IS NOT NULL)
    EXECUTE FUNCTION memvault_count_terms();
DELETE FROM keyword_terms;
INSERT INTO keyword_terms {TERM_COUNTS};
-- Granted as _grants grants a tenant table, in a form that may run again (tests re-run migrations).
GRANT SELECT, INSERT, UPDATE, DELETE ON keyword_terms TO {APP_ROLE};
ALTER TABLE keyword_terms ENABLE ROW LEVEL SECURITY;
ALTER TABLE keyword_terms FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS memvault_tenant ON keyword_terms;
CREATE POLICY memvault_tenant ON keyword_terms TO {APP_ROLE}
    USING (tenant = {_TENANT}) WITH CHECK (tenant = {_TENANT});
DROP POLICY IF EXISTS memvault_owner ON keyword_terms;
DO $do$ BEGIN
    EXECUTE format('CREATE POLICY memvault_owner ON keyword_terms TO %I USING (true) WITH CHECK (true)',
                   (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'keyword_terms'::regclass));
END $do$;
CREATE OR REPLACE FUNCTION memvault_bounded_hits(
    phrases tsquery[], whole boolean[], newest integer, for_tenant text)
RETURNS TABLE (phrase integer, seq bigint, in_content boolean, tenant text, scope text, kind text,
    observed_at bigint, expires_at bigint, forgotten_at bigint, superseded_by text, terms integer)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 1000 SET search_path FROM CURRENT AS $fn$
    WITH p AS MATERIALIZED (SELECT u.q, u.i::integer AS i, coalesce(whole[u.i], false) AS w
        FROM unnest(phrases) WITH ORDINALITY AS u(q, i)),
    found AS MATERIALIZED ({" UNION ALL ".join(
        f"SELECT p.i, {flag} AS in_content, {_ROW} FROM p CROSS JOIN LATERAL (SELECT * FROM memories m"
        f" WHERE {_OWN} AND m.{column} @@ p.q) m WHERE p.w"
        for flag, column in (("true", "content_terms"), ("false", "context_terms")))}),
    recent AS MATERIALIZED (SELECT {_ROW} FROM memories m WHERE {_OWN} ORDER BY m.id DESC LIMIT newest),
    pool AS MATERIALIZED (SELECT DISTINCT ON (k.seq) k.* FROM (
        SELECT {_POOLED}, k.content_terms, k.context_terms, k.seq FROM found k
        UNION ALL SELECT {_POOLED}, k.content_terms, k.context_terms, k.seq FROM recent k) k ORDER BY k.seq)
    SELECT k.i, k.seq, k.in_content, {_POOLED} FROM found k
    UNION ALL SELECT p.i, k.seq, true, {_POOLED} FROM p JOIN pool k ON k.content_terms @@ p.q WHERE NOT p.w
    UNION ALL SELECT p.i, k.seq, false, {_POOLED} FROM p JOIN pool k ON k.context_terms @@ p.q WHERE NOT p.w
$fn$;
"""

# Version 15: each tenant's own state (its review pairs, ``consolidate.REVIEW_KEY``) under the tenant
# policy, moved out of the untenanted ``settings``, whose keys ``review:<tenant>`` named every tenant
# to every serving session. The functions' search path is pinned by ``migrate``.
_TENANT_SETTINGS = f"""
CREATE TABLE tenant_settings (
    tenant text COLLATE "C" NOT NULL,
    key    text COLLATE "C" NOT NULL,
    value  text NOT NULL,
    PRIMARY KEY (tenant, key)
);
""" + _tenant_rows("tenant_settings")


def _v_tenant_settings(conn: psycopg.Connection) -> None:
    """Version 15: ``_TENANT_SETTINGS`` (kept when present: a database set back to redo an earlier
    step has it), then the review states of ``settings`` moved into it."""
    if not scalar(conn, "SELECT to_regclass('tenant_settings') IS NOT NULL"):
        conn.execute(_TENANT_SETTINGS)
    conn.execute("INSERT INTO tenant_settings SELECT substr(key, 8), 'review', value FROM settings"
                 " WHERE key LIKE 'review:%' ON CONFLICT (tenant, key) DO NOTHING")
    conn.execute("DELETE FROM settings WHERE key LIKE 'review:%'")


# Version 16: whether a memory passing a recall's filters holds one of the phrases (the check of
# names a question asks for), stopping at the first such memory: EXISTS over ``memvault_phrase_hits``
# read every match of a common name first (a definer function's rows are all made before its caller
# reads one). The filter is ``sql.filter_sql``'s, its parameters null when not given, applied above a
# fence (OFFSET 0), and the tenant compared as an expression, so that the memories are found through
# the GIN indexes alone, in bitmap scans: not through an index of the tenant or scope filtered by the
# words (chosen on a small tenant: it reads every memory there when none holds the name).
_OWN_EXPRESSION = f"(m.tenant || '') = for_tenant AND for_tenant = {_TENANT}"  # _OWN, no index condition
_V_HOLDS = f"""
CREATE OR REPLACE FUNCTION memvault_holds(phrases tsquery[], for_tenant text, scopes text[], kinds text[],
    tags text[], now_ms bigint, history boolean, since_ms bigint, until_ms bigint)
RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER
SET enable_indexscan = off SET enable_seqscan = off SET search_path FROM CURRENT AS $fn$
    SELECT EXISTS (SELECT 1 FROM unnest(phrases) AS p(q) CROSS JOIN LATERAL (
        {" UNION ALL ".join(f"(SELECT m.* FROM memories m WHERE {_OWN_EXPRESSION}"
                            f" AND m.{column} @@ p.q OFFSET 0)"
                            for column in ("content_terms", "context_terms"))}) m
        WHERE m.forgotten_at IS NULL AND (m.expires_at IS NULL OR m.expires_at > now_ms)
        AND (scopes IS NULL OR m.scope = ANY(scopes)) AND (history OR m.superseded_by IS NULL)
        AND (kinds IS NULL OR m.kind = ANY(kinds))
        AND (tags IS NULL OR (SELECT count(DISTINCT t.tag) FROM memory_tags t
                              WHERE t.memory_seq = m.seq AND t.tag = ANY(tags)) = cardinality(tags))
        AND (since_ms IS NULL OR m.observed_at >= since_ms)
        AND (until_ms IS NULL OR m.observed_at < until_ms))
$fn$;
"""


def _v_hashes(conn: psycopg.Connection) -> None:
    """Every content hash made again, and each idempotency key's: duplicates are read anew
    (``validate.content_hash``; SQLite's ``_V17_HASHES``)."""
    after = 0
    while rows := conn.execute("SELECT seq, content FROM memories WHERE seq > %s AND content IS NOT NULL"
                               " ORDER BY seq LIMIT 5000", (after,)).fetchall():
        conn.cursor().executemany("UPDATE memories SET content_hash = %s WHERE seq = %s",
                                  [(validate.content_hash(content), seq) for seq, content in rows])
        after = rows[-1][0]
    conn.execute("UPDATE idempotency_keys k SET content_hash = m.content_hash FROM memories m"
                 " WHERE m.seq = k.memory_seq AND m.content IS NOT NULL")

# Whether a tenant holds keys, and which tenants do, by index (``tenants_beside``: each OAuth token's check).
_V_KEYS_BY_TENANT = "CREATE INDEX IF NOT EXISTS api_keys_by_tenant ON api_keys(tenant);"

# Version 19: contradicting pairs kept for review (``consolidate``) a row each, out of the tenant's
# review setting (JSON): recall looks up its hits' pairs by the primary key, where it parsed the
# whole state (up to 1,000 pairs, 87 KB) every time (SQLite's ``_V19_REVIEW_PAIRS``).
_REVIEW_PAIRS = f"""
CREATE TABLE review_pairs (
    tenant text COLLATE "C" NOT NULL,
    older  text COLLATE "C" NOT NULL,
    newer  text COLLATE "C" NOT NULL,
    PRIMARY KEY (tenant, older, newer)
);
""" + _tenant_rows("review_pairs")


def _v_review_pairs(conn: psycopg.Connection) -> None:
    """Version 19: ``_REVIEW_PAIRS`` (kept when present, as ``_v_tenant_settings``), then the pairs of
    each review setting moved into it."""
    if not scalar(conn, "SELECT to_regclass('review_pairs') IS NOT NULL"):
        conn.execute(_REVIEW_PAIRS)
    conn.execute("INSERT INTO review_pairs SELECT s.tenant, p ->> 0, p ->> 1 FROM tenant_settings s,"
                 " jsonb_array_elements(s.value::jsonb -> 'pairs') p WHERE s.key = 'review'"
                 " ON CONFLICT DO NOTHING")
    conn.execute("UPDATE tenant_settings SET value = (value::jsonb - 'pairs')::text WHERE key = 'review'"
                 " AND value::jsonb ? 'pairs'")


def _v_unsampled(conn: psycopg.Connection) -> None:
    """Version 20: ANALYZE samples none of the columns holding what a forget removes
    (``statistics.UNSAMPLED``; the vector tables' function sets it on the tables it makes). Where
    PostgreSQL may have analyzed a table before (its ``reltuples`` is -1 until a VACUUM or ANALYZE,
    PostgreSQL 14 and later), the next scrub removes what it sampled (``statistics.clear``)."""
    for table in UNSAMPLED:
        if scalar(conn, "SELECT to_regclass(%s) IS NOT NULL", (table,)):
            for statement in unsampled_sql(table):
                conn.execute(statement)
    conn.execute(_VECTOR_TABLES)
    if scalar(conn, "SELECT EXISTS (SELECT 1 FROM pg_class WHERE reltuples >= 0"
                    " AND oid = ANY(SELECT to_regclass(t) FROM unnest(%s::text[]) t))", (list(UNSAMPLED),)):
        conn.execute("INSERT INTO settings VALUES (%s, 'true'), (%s, %s) ON CONFLICT (key) DO NOTHING",
                     (STATISTICS_DUE, SCRUB_DUE, new_id()))


# Version 22: contradicting pairs an agent judged both true (``confirm`` with ``beside``), each stored both
# ways round, read by the primary key (SQLite's ``_V21_DISMISSED_PAIRS``).
_DISMISSED_PAIRS = f"""
CREATE TABLE IF NOT EXISTS dismissed_pairs (
    tenant       text COLLATE "C" NOT NULL,
    memory       text COLLATE "C" NOT NULL,
    other        text COLLATE "C" NOT NULL,
    dismissed_at bigint NOT NULL,
    PRIMARY KEY (tenant, memory, other)
);
"""


def _v_dismissed_pairs(conn: psycopg.Connection) -> None:
    """Version 22: ``_DISMISSED_PAIRS``, with its grants and tenant policy (kept when present, as
    ``_v_review_pairs``)."""
    if not scalar(conn, "SELECT to_regclass('dismissed_pairs') IS NOT NULL"):
        conn.execute(_DISMISSED_PAIRS + _tenant_rows("dismissed_pairs"))


MIGRATIONS: tuple[str | Callable[[psycopg.Connection], None], ...] = (
    _V1, _V2, _V3, _V4, _V5, _V6, _V_LISTING, _V_DOCUMENTS, _v_tokens, _v_sessions, _v_runs,
    _V_FORGET_SESSIONS, _v_turn_terms, _V_BOUNDED_KEYWORD, _v_tenant_settings, _V_HOLDS, _v_hashes,
    _V_KEYS_BY_TENANT, _v_review_pairs, _v_unsampled,
    _v_hashes,  # again: indentation shared by every line of a text of several lines counts
    _v_dismissed_pairs)
# Functions each migration creates: only APP_ROLE may run them.
_FUNCTIONS: tuple[tuple[str, ...], ...] = (
    (),
    (),
    (),
    (),
    ("memvault_count_memories()",),
    ("memvault_phrase_hits(tsquery[], text)", "memvault_term_documents(text[], text)", "memvault_api_key(text)",
     "memvault_vector_tables(integer)"),
    (),
    ("memvault_count_documents()",),
    (),
    (),
    (),
    (),
    ("memvault_turn_hits(tsquery, text)",),
    ("memvault_count_terms()", "memvault_bounded_hits(tsquery[], boolean[], integer, text)"),
    (),
    ("memvault_holds(tsquery[], text, text[], text[], text[], bigint, boolean, bigint, bigint)",),
    (),
    (),
    (),
    (),
    (),
    (),
)
# Tenant tables each migration after the first creates (granted to APP_ROLE with the tenant policy).
_TABLES: tuple[tuple[str, ...], ...] = (
    (), (), (), (), ("memory_counts",), (), (), ("keyword_documents",), (), (), (), (), (), (), (), (), (), (), (), (), (), ())
SCHEMA_VERSION = len(MIGRATIONS)


Statement = sql.SQL | sql.Composed


def _grants(tables: tuple[str, ...]) -> list[Statement]:
    """Grants to ``APP_ROLE`` and the tenant policy on ``tables``."""
    out: list[Statement] = []
    for table in tables:
        name = sql.Identifier(table)
        out.append(sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {} TO {}").format(name, sql.Identifier(APP_ROLE)))
        if table == "settings":
            continue
        out.append(sql.SQL("ALTER TABLE {} ENABLE ROW LEVEL SECURITY").format(name))
        out.append(
            sql.SQL(
                "CREATE POLICY memvault_tenant ON {} TO {} USING (tenant = current_setting('memvault.tenant', true))"
                " WITH CHECK (tenant = current_setting('memvault.tenant', true))"
            ).format(name, sql.Identifier(APP_ROLE))
        )
    return out


def drop_vector_tables_sql() -> list[Statement]:
    """DDL removing the vector tables (``reset_vectors``)."""
    return [sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(t)) for t in VECTOR_TABLES]


def _version(conn: psycopg.Connection) -> int | None:
    """The schema version, None when the database has no memvault schema."""
    # pg_class, not to_regclass, whose cache may miss a table made while this one waited.
    exists = scalar(
        conn,
        "SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = current_schema() AND c.relname = 'memvault_schema')",
    )
    if not exists:
        return None
    return int(scalar(conn, "SELECT version FROM memvault_schema"))


def check_compatible(conn: psycopg.Connection) -> int:
    """The database's schema version (0: empty) if this memvault may use it; changes nothing.

    Raises:
        StoreError: the current schema holds tables but no memvault schema (a database
            of another program), or a newer memvault wrote it.
    """
    version = _version(conn)
    if version is None:
        tables = scalar(
            conn,
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')",
        )
        if tables:
            raise StoreError(
                "this PostgreSQL database holds tables of another program and no memvault schema; "
                "give memvault a database (or schema) of its own. Nothing was changed."
            )
        return 0
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"this database has memvault schema version {version}, written by a newer memvault; "
            f"this version understands up to {SCHEMA_VERSION}. Upgrade memvault; nothing was changed."
        )
    return version


def _ensure_pgvector(conn: psycopg.Connection) -> None:
    """Create the ``vector`` extension if it is missing (inside the migration transaction).

    Raises:
        StoreError: pgvector is not installed on the server, is older than 0.8, or
            this role may not create it.
    """
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    if row is None:
        available = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
        if available is None:
            raise StoreError(
                "the PostgreSQL server has no pgvector extension (CREATE EXTENSION vector is impossible): "
                "install pgvector 0.8 or later on the server. Nothing was changed."
            )
        try:
            with conn.transaction():  # a savepoint: the error message below is ours
                conn.execute("CREATE EXTENSION vector")
        except psycopg.errors.InsufficientPrivilege as exc:
            raise StoreError(
                "the pgvector extension is not enabled in this database and this role may not enable it: "
                f"ask an administrator to run CREATE EXTENSION vector ({exc.diag.message_primary}). "
                "Nothing was changed."
            ) from exc
        row = (scalar(conn, "SELECT extversion FROM pg_extension WHERE extname = 'vector'"),)
    version = tuple(int(p) for p in row[0].split(".")[:2])
    if version < PGVECTOR_MIN:
        raise StoreError(
            f"pgvector {row[0]} is too old: memvault needs 0.8 or later (iterative index scans). Nothing was changed."
        )


def _ensure_role(conn: psycopg.Connection) -> None:
    """Create ``APP_ROLE`` (NOLOGIN) if missing and make the connecting role able to ``SET ROLE`` to it.

    Raises:
        StoreError: this role may not create ``APP_ROLE`` or be granted it.
    """
    role = sql.Identifier(APP_ROLE)
    try:
        with conn.transaction():
            # Roles are cluster-wide and advisory locks are per database: another
            # database's migration may create it at the same moment.
            conn.execute(
                sql.SQL(
                    "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = {name}) THEN"
                    " CREATE ROLE {role} NOLOGIN; END IF;"
                    " EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
                ).format(name=sql.Literal(APP_ROLE), role=role)
            )
            if not scalar(conn, "SELECT pg_has_role(current_user, %s, 'MEMBER')", (APP_ROLE,)):
                conn.execute(sql.SQL("GRANT {} TO CURRENT_USER").format(role))
    except psycopg.errors.InsufficientPrivilege as exc:
        raise StoreError(
            f"this PostgreSQL role may not create the role {APP_ROLE} or take it on ({exc.diag.message_primary}): "
            f"ask an administrator to run CREATE ROLE {APP_ROLE} NOLOGIN; GRANT {APP_ROLE} TO <your role>. "
            "Nothing was changed."
        ) from exc


def migrate(conn: psycopg.Connection) -> int:
    """Bring the schema up to ``SCHEMA_VERSION`` in one transaction; returns the version now in force.
    Raises StoreError as :func:`check_compatible`, :func:`_ensure_pgvector`, :func:`_ensure_role`."""
    current = check_compatible(conn)
    if current == SCHEMA_VERSION:
        return current
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        current = check_compatible(conn)  # another process may have migrated meanwhile
        if current == SCHEMA_VERSION:
            return current
        _ensure_pgvector(conn)
        _ensure_role(conn)
        try:
            with conn.transaction():  # a savepoint: the error message below is ours
                while current < SCHEMA_VERSION:
                    step = MIGRATIONS[current]
                    if callable(step):
                        step(conn)
                    else:
                        conn.execute(step)
                    for statement in _grants(("settings", *TENANT_TABLES) if current == 0 else _TABLES[current]):
                        conn.execute(statement)
                    for function in _FUNCTIONS[current]:
                        conn.execute(f"REVOKE ALL ON FUNCTION {function} FROM PUBLIC")
                        conn.execute(sql.SQL("GRANT EXECUTE ON FUNCTION {} TO {}").format(
                            sql.SQL(function), sql.Identifier(APP_ROLE)))
                    current += 1
                    conn.execute("UPDATE memvault_schema SET version = %s", (current,))
                _pin_search_path(conn)
        except psycopg.errors.InsufficientPrivilege as exc:
            raise StoreError(
                f"this PostgreSQL role may not create or change memvault's schema ({exc.diag.message_primary}): "
                "run memvault once as the role that owns it (or will), then serve as this one "
                "(docs/postgresql.md, the two-role set-up). Nothing was changed."
            ) from exc
    return current


def _pin_search_path(conn: psycopg.Connection) -> None:
    """Give every memvault function (the ``SECURITY DEFINER`` ones, and the triggers alike) the search
    path of memvault's schema, then pgvector's, then ``pg_temp`` last, so no temporary table of the
    caller, nor any schema the caller may create (``"$user"`` was one), is searched before memvault's
    tables (PostgreSQL's "Writing SECURITY DEFINER Functions Safely"). Cost: docs/storage-tuning.md."""
    schemas = [s for (s,) in conn.execute(
        "SELECT current_schema() UNION ALL SELECT n.nspname FROM pg_extension e JOIN pg_namespace n"
        " ON n.oid = e.extnamespace WHERE e.extname = 'vector' AND n.nspname <> current_schema()"
    ).fetchall()]
    path = sql.SQL(", ").join([*map(sql.Identifier, schemas), sql.SQL("pg_temp")])
    for (function,) in conn.execute(
        "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
        " WHERE n.nspname = current_schema() AND left(p.proname, 9) = 'memvault_' AND p.prokind = 'f'"
    ).fetchall():
        conn.execute(sql.SQL("ALTER FUNCTION {} SET search_path = {}").format(sql.SQL(function), path))


def is_owner(conn: psycopg.Connection) -> bool:
    """Whether the connecting role has the privileges of the schema's owner (superusers do)."""
    return bool(scalar(conn, "SELECT pg_has_role(current_user, relowner, 'USAGE') FROM pg_class"
                             " WHERE oid = 'memvault_schema'::regclass"))
