"""Sessions and turns, the episodic tier (issue 26): order, isolation, idempotent retries,
concurrent appends, redaction before storage, token budgets and the digest."""

from __future__ import annotations

import threading

import pytest
from fakes import Clock, FakeEmbedder

from memvault.storage import maintenance
from memvault.storage.errors import Conflict, InvalidInput, NotFound
from memvault.storage.limits import CONTENT_MAX_CHARS, DIGEST_MAX_TOKENS, TURN_MAX_CHARS, TURNS_PER_CALL_MAX
from memvault.storage.literal import literal_tokens
from memvault.storage.records import NewTurn
from memvault.storage.store import Store
import raw

pytestmark = pytest.mark.contract

GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLQ"


def append(store: Store, session: str, *turns: NewTurn, tenant: str = "a", scope: str = "proj", **kw):
    return store.episodes.append(tenant=tenant, scope=scope, session_id=session, turns=list(turns), **kw)


def said(store: Store, session: str, tenant: str = "a", **kw) -> list[tuple[int, str, str]]:
    return [(t.seq, t.role, t.text) for t in store.episodes.turns(tenant=tenant, session_id=session, **kw)]


def test_turns_read_back_in_the_order_written_with_their_roles(store: Store):
    roles = ["user", "assistant", "tool", "tool", "assistant", "user", "assistant"]
    for i, role in enumerate(roles):
        out = append(store, "s-1", NewTurn(role, f"turn {i}", tool="Bash" if role == "tool" else None))
        assert out.added == (i + 1,) and out.repeated == 0
    turns = store.episodes.turns(tenant="a", session_id="s-1")
    assert [t.role for t in turns] == roles
    assert [t.text for t in turns] == [f"turn {i}" for i in range(len(roles))]
    assert [t.seq for t in turns] == list(range(1, len(roles) + 1))
    assert [t.tool for t in turns] == ["Bash" if r == "tool" else None for r in roles]
    session = store.episodes.session(tenant="a", session_id="s-1")
    assert (session.turns, session.tokens) == (len(roles), sum(t.tokens for t in turns))
    assert [t.tokens for t in turns] == literal_tokens([t.text for t in turns])


def test_one_call_appends_its_turns_in_order(store: Store):
    out = append(store, "s-1", *(NewTurn("user" if i % 2 else "assistant", f"t{i}") for i in range(50)))
    assert out.added == tuple(range(1, 51))
    expected = [(i + 1, "user" if i % 2 else "assistant", f"t{i}") for i in range(45, 50)]
    assert said(store, "s-1", after_seq=45) == expected
    assert [seq for seq, _, _ in said(store, "s-1", after_seq=10, limit=3)] == [11, 12, 13]


def test_two_sessions_written_in_turn_never_interleave(store: Store):
    for i in range(20):
        append(store, "left", NewTurn("user", f"left {i}"))
        append(store, "right", NewTurn("assistant", f"right {i}"))
    assert said(store, "left") == [(i + 1, "user", f"left {i}") for i in range(20)]
    assert said(store, "right") == [(i + 1, "assistant", f"right {i}") for i in range(20)]


def test_a_retried_seq_or_ref_writes_nothing(store: Store):
    append(store, "s", NewTurn("user", "one", ref="u1"), NewTurn("assistant", "two", ref="a1"))
    again = append(store, "s", NewTurn("user", "one", seq=1),
                   NewTurn("assistant", "two, sent again", ref="a1"))
    assert (again.added, again.repeated) == ((), 2)
    both = append(store, "s", NewTurn("user", "three", seq=3, ref="u3"), NewTurn("user", "three", ref="u3"))
    assert (both.added, both.repeated) == ((3,), 1)
    assert said(store, "s") == [(1, "user", "one"), (2, "assistant", "two"), (3, "user", "three")]
    assert store.episodes.session(tenant="a", session_id="s").turns == 3


def test_a_turn_once_written_cannot_be_changed_below_the_store(store: Store, db: str):
    append(store, "s", NewTurn("user", "as said"))
    with pytest.raises(Exception, match="turns are append-only"):
        raw.execute(db, "UPDATE turns SET text = 'rewritten'")
    assert said(store, "s") == [(1, "user", "as said")]


def test_a_seq_beyond_the_next_is_refused_and_nothing_is_written(store: Store):
    append(store, "s", NewTurn("user", "one"))
    with pytest.raises(InvalidInput, match=r"turns\[1\]\.seq: is 5 but the session's next turn is 3"):
        append(store, "s", NewTurn("user", "two"), NewTurn("user", "five", seq=5))
    assert said(store, "s") == [(1, "user", "one")]


def test_concurrent_appends_to_one_session_get_distinct_consecutive_seqs(db: str, clock: Clock):
    stores = [Store(db, None, clock=clock) for _ in range(2)]  # two stores: two connections
    added: list[int] = []
    lock = threading.Lock()
    try:
        def writer(w: int) -> None:
            for i in range(15):
                out = append(stores[w % 2], "busy", *(NewTurn("user", f"w{w} {i} {j}") for j in range(2)))
                with lock:
                    added.extend(out.added)

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(added) == list(range(1, 121))
        turns = stores[0].episodes.turns(tenant="a", session_id="busy")
        assert [t.seq for t in turns] == list(range(1, 121))
        for w in range(4):  # each writer's turns in the order it wrote them, each call's pair together
            mine = [t for t in turns if t.text.startswith(f"w{w} ")]
            assert [t.text for t in mine] == [f"w{w} {i} {j}" for i in range(15) for j in range(2)]
            assert all(b.seq == a.seq + 1 for a, b in zip(mine[::2], mine[1::2]))
        assert stores[1].episodes.session(tenant="a", session_id="busy").turns == 120
    finally:
        for s in stores:
            s.close()


def test_another_tenant_never_sees_a_session(store: Store):
    append(store, "shared-id", NewTurn("user", "tenant a's words"), client="claude-code")
    assert [s.id for s in store.episodes.sessions(tenant="a")] == ["shared-id"]
    assert store.episodes.sessions(tenant="b") == []
    with pytest.raises(NotFound, match="session_id: no session 'shared-id'"):
        store.episodes.session(tenant="b", session_id="shared-id")
    with pytest.raises(NotFound):
        store.episodes.turns(tenant="b", session_id="shared-id")
    with pytest.raises(NotFound):
        store.episodes.end(tenant="b", session_id="shared-id")
    # The same id in tenant b is another session.
    append(store, "shared-id", NewTurn("user", "tenant b's words"), tenant="b")
    assert said(store, "shared-id", tenant="b") == [(1, "user", "tenant b's words")]
    assert said(store, "shared-id", tenant="a") == [(1, "user", "tenant a's words")]


def test_a_session_stays_in_its_scope(store: Store):
    append(store, "s", NewTurn("user", "in proj"), scope="proj")
    with pytest.raises(Conflict, match="scope: session s belongs to scope 'proj'"):
        append(store, "s", NewTurn("user", "elsewhere"), scope="other")
    append(store, "t", NewTurn("user", "in other"), scope="other")
    assert [s.id for s in store.episodes.sessions(tenant="a", scopes=["other"])] == ["t"]
    assert {s.id for s in store.episodes.sessions(tenant="a", scopes=["proj", "other"])} == {"s", "t"}


def test_sessions_are_listed_newest_activity_first(store: Store, clock: Clock):
    for name in ("first", "second", "third"):
        append(store, name, NewTurn("user", name))
        clock.advance(60)
    append(store, "first", NewTurn("user", "back to the first"))
    assert [s.id for s in store.episodes.sessions(tenant="a")] == ["first", "third", "second"]
    assert [s.id for s in store.episodes.sessions(tenant="a", limit=2)] == ["first", "third"]


def test_private_spans_and_credentials_never_reach_the_database(store: Store, db: str, backend: str):
    out = append(
        store, "s",
        NewTurn("user", "deploy with <private>the staging password is hunter2-staging</private> "
                        f"then {GITHUB_TOKEN}"),
        NewTurn("tool", f"env:\nAWS_ACCESS_KEY_ID={AWS_KEY}\nok", tool="Bash"),
        NewTurn("assistant", "Noted. <PRIVATE>my own notes\nacross lines, never closed"),
    )
    assert out.redacted == ("AWS access key", "GitHub token", "private")
    turns = store.episodes.turns(tenant="a", session_id="s")
    assert turns[0].text == "deploy with then [GitHub token]"
    assert turns[0].redacted == ("GitHub token", "private")
    assert turns[1].text == "env:\nAWS_ACCESS_KEY_ID=[AWS access key]\nok"
    assert turns[1].redacted == ("AWS access key",)
    assert turns[2].text == "Noted." and turns[2].redacted == ("private",)
    stored = " ".join(text for (text,) in raw.execute(db, "SELECT text FROM turns"))
    for secret in ("hunter2", GITHUB_TOKEN, AWS_KEY, "my own notes"):
        assert secret not in stored
    if backend == "sqlite":
        store.close()
        from conftest import file_bytes

        data = file_bytes(__import__("pathlib").Path(db))
        for secret in ("hunter2", GITHUB_TOKEN, AWS_KEY, "my own notes"):
            assert secret.encode() not in data


def test_a_long_turn_is_cut_with_a_marker_and_a_key_across_the_cut_is_still_replaced(store: Store):
    text = "x " * (TURN_MAX_CHARS // 2 - 10) + f"key {GITHUB_TOKEN} and more " + "y " * 5000
    append(store, "s", NewTurn("tool", text, tool="Read"))
    stored = store.episodes.turns(tenant="a", session_id="s")[0].text
    assert stored.startswith("x x ") and GITHUB_TOKEN[:12] not in stored
    assert stored.endswith(f"\n[cut: the turn had {len(text):,} characters; {TURN_MAX_CHARS:,} kept]")
    assert len(stored) < TURN_MAX_CHARS + 100


def test_the_token_budget_returns_the_newest_turns_that_fit_oldest_first(store: Store):
    texts = [f"turn number {i} " + "word " * (i % 7) for i in range(40)]
    append(store, "s", *(NewTurn("user", t) for t in texts))
    tokens = literal_tokens(texts)
    for budget in (0, 5, 17, 60, 200, sum(tokens), sum(tokens) + 10):  # type: ignore[arg-type]
        got = store.episodes.turns(tenant="a", session_id="s", tokens=budget)
        fitting, total = [], 0
        for i in reversed(range(40)):
            if total + tokens[i] > budget:  # type: ignore[operator]
                break
            total += tokens[i]  # type: ignore[operator]
            fitting.insert(0, i + 1)
        assert [t.seq for t in got] == fitting
    newest = store.episodes.turns(tenant="a", session_id="s", tokens=10_000, limit=3)
    assert [t.seq for t in newest] == [38, 39, 40]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"session_id": ""}, "session_id: is empty"),
    ({"session_id": "a b"}, r"session_id: holds U\+0020 SPACE"),
    ({"session_id": "x" * 129}, "session_id: is 129 characters; the limit is 128"),
    ({"turns": [NewTurn("users", "hi")]},
     r"turns\[0\]\.role: 'users' is not one of user, assistant, tool; did you mean 'user'\?"),
    ({"turns": [NewTurn("user", "hi")] * (TURNS_PER_CALL_MAX + 1)},
     "turns: must be a list of at most 1,000 turns"),
    ({"turns": [NewTurn("user", "hi", at=-1)]}, r"turns\[0\]\.at: must be an integer from 0"),
    ({"turns": [NewTurn("user", "hi", seq=0)]}, r"turns\[0\]\.seq: must be an integer from 1"),
    ({"turns": [NewTurn("tool", "hi", tool="t" * 201)]},
     r"turns\[0\]\.tool: is 201 characters; the limit is 200"),
    ({"turns": [{"role": "user", "text": "hi"}]}, r"turns\[0\]: must be a NewTurn"),
])
def test_bad_input_names_the_field_and_the_limit(store: Store, kwargs: dict, message: str):
    args = {"tenant": "a", "scope": "proj", "session_id": "s", "turns": [NewTurn("user", "hi")], **kwargs}
    with pytest.raises(InvalidInput, match=message):
        store.episodes.append(**args)
    assert store.episodes.sessions(tenant="a") == []


class NoModel(FakeEmbedder):
    """An embedder that fails the test if anything loads or runs it."""

    def load(self) -> None:
        raise AssertionError("the model was loaded")

    def embed(self, texts):  # type: ignore[no-untyped-def]
        raise AssertionError("the model was run")


def test_append_never_loads_the_model(db: str, clock: Clock):
    store = Store(db, NoModel(), clock=clock)  # type: ignore[arg-type]
    try:
        out = append(store, "s", NewTurn("user", "capture must be cheap"), NewTurn("assistant", "it is"))
        assert out.added == (1, 2)
    finally:
        store.close()


def session_of_work(store: Store) -> None:
    append(
        store, "work-1",
        NewTurn("user", "Please fix the flaky login test in the auth module and tell me why it failed",
                at=1000),
        NewTurn("assistant", "Looking at it."),
        NewTurn("tool", "pytest tests/test_login.py", tool="Bash", call_id="c1"),
        NewTurn("tool", "FAILED tests/test_login.py::test_expiry - AssertionError\n1 failed", tool="Bash",
                call_id="c1"),
        NewTurn("tool", "src/auth.py contents", tool="Read", call_id="c2"),
        NewTurn("tool", "{\"id\": \"0190a8e4-7c5b-7d2e-9f3a-1b2c3d4e5f60\", \"created\": true}",
                tool="mcp__memvault__remember", call_id="c3"),
        NewTurn("tool", "superseded 0190a8e4-7c5b-7d2e-9f3a-1b2c3d4e5f60 by "
                "0190a8e5-0000-7000-8000-000000000001", tool="supersede", call_id="c4"),
        NewTurn("user", "Thanks, now update the changelog"),
        NewTurn("tool", "Bash output fine", tool="Bash", call_id="c5"),
        client="claude-code", cwd="/home/dev/app",
    )


def test_the_digest_says_what_was_asked_which_tools_ran_what_changed_and_errors(store: Store):
    session_of_work(store)
    ended = store.episodes.end(tenant="a", session_id="work-1")
    assert ended.ended_at is not None and ended.digest_id is not None
    memory = store.get(tenant="a", id=ended.digest_id)
    assert memory.kind == "episode" and memory.tags == ("session",) and memory.source == "session work-1"
    assert memory.scope == "proj"
    lines = (memory.content or "").splitlines()
    assert lines[0].startswith("Recap of a working session (claude-code, /home/dev/app), ")
    assert lines[0].endswith(" Session work-1: 9 turns, 2 from the user, 5 tool calls.")
    assert lines[1] == ('Asked: "Please fix the flaky login test in the auth module and tell ..."; '
                        '"Thanks, now update the changelog"')
    assert lines[2] == "Tools: Bash x2, Read x1, mcp__memvault__remember x1, supersede x1."
    assert lines[3] == "Memories: remember 0190a8e4; supersede 0190a8e4 0190a8e5"
    assert lines[4] == 'Errors: Bash (turn 4): "FAILED tests/test_login.py::test_expiry - AssertionError"'
    assert lines[5] == 'Left off with: "Looking at it."'  # the last assistant message: where it left off
    assert literal_tokens([memory.content])[0] <= DIGEST_MAX_TOKENS  # type: ignore[operator]
    assert store.episodes.session(tenant="a", session_id="work-1") == ended


@pytest.mark.parametrize("ids", [True, False])
def test_the_digest_counts_each_tool_call_and_marks_one_that_got_no_result(store: Store, ids: bool):
    """A call is its request (an assistant turn naming the tool, as a transcript gives it) and its result: the
    last call before ``/exit`` got none and is counted all the same (trial 58); without call ids a result
    goes with the request before it. A request's input is no error ("grep -rn error")."""
    def call(n: int) -> str | None:
        return f"toolu_{n}" if ids else None

    append(store, "calls-1",
           NewTurn("user", "Run the tests, then write the changelog"),
           NewTurn("assistant", "command: grep -rn error src/", tool="Bash", call_id=call(1)),
           NewTurn("tool", "src/log.py: no matches", tool="Bash", call_id=call(1)),
           NewTurn("assistant", "command: pytest -q", tool="Bash", call_id=call(2)),
           NewTurn("tool", "12 passed", tool="Bash", call_id=call(2)),
           NewTurn("assistant", "Tests pass. Writing the changelog."),
           NewTurn("assistant", "file_path: CHANGELOG.md\ncontent: ## 1.4.0", tool="Write", call_id=call(3)))
    ended = store.episodes.end(tenant="a", session_id="calls-1")
    lines = (store.get(tenant="a", id=ended.digest_id or "").content or "").splitlines()
    assert lines[0].endswith(" Session calls-1: 7 turns, 1 from the user, 3 tool calls.")
    assert lines[2] == "Tools: Bash x2, Write x1 (1 with no result)."
    assert not any(line.startswith("Errors:") for line in lines)


def test_ending_again_without_change_writes_nothing_and_a_reopened_session_supersedes_its_digest(
        store: Store, clock: Clock):
    session_of_work(store)
    first = store.episodes.end(tenant="a", session_id="work-1")
    clock.advance(5)
    assert store.episodes.end(tenant="a", session_id="work-1") == first
    assert store.count_memories(tenant="a", scopes=["proj"], kinds=["episode"]) == 1
    append(store, "work-1", NewTurn("user", "One more thing: bump the version"))
    assert store.episodes.session(tenant="a", session_id="work-1").ended_at is None  # reopened
    second = store.episodes.end(tenant="a", session_id="work-1")
    assert second.digest_id != first.digest_id
    chain = store.history(tenant="a", id=second.digest_id or "")
    assert [m.id for m in chain] == [first.digest_id, second.digest_id]
    assert '"One more thing: bump the version"' in (chain[-1].content or "")
    assert store.count_memories(tenant="a", scopes=["proj"], kinds=["episode"]) == 1


def test_a_long_session_s_digest_stays_within_its_token_cap(store: Store):
    for call in range(5):
        append(store, "long", *(NewTurn("user", f"request {call}-{i}: " + "please do the thing " * 8)
                                for i in range(100)))
        append(store, "long", *(NewTurn("tool", f"error: step {call}-{i} failed", tool=f"tool{i % 30}")
                                for i in range(100)))
    ended = store.episodes.end(tenant="a", session_id="long")
    content = store.get(tenant="a", id=ended.digest_id or "").content or ""
    assert literal_tokens([content])[0] <= DIGEST_MAX_TOKENS  # type: ignore[operator]
    assert "; and " in content and " more" in content and "Session long:" in content.splitlines()[0]


@pytest.mark.parametrize("blob", ["QUJDRA" * 2000, "{\"a\":1," * 1500, "x" * 7000 + " then " + "é" * 3000])
def test_a_session_whose_turns_hold_long_runs_without_spaces_ends_with_a_digest(store: Store, blob: str):
    """A pasted blob is one "word" and few tokens: the digest must still fit a memory's characters."""
    append(store, "blobs", *(NewTurn("user", f"decode this {n}: {blob}") for n in range(3)),
           NewTurn("tool", f"error: {blob}", tool="Bash"))
    ended = store.episodes.end(tenant="a", session_id="blobs")
    content = store.get(tenant="a", id=ended.digest_id or "").content or ""
    assert 0 < len(content) <= CONTENT_MAX_CHARS and "decode this 0" in content


def test_without_a_model_the_digest_waits_for_its_vector_and_a_store_with_the_model_fills_it(
        db: str, clock: Clock):
    store = Store(db, None, clock=clock)
    try:
        session_of_work(store)
        digest_id = store.episodes.end(tenant="a", session_id="work-1").digest_id or ""
        assert store.get(tenant="a", id=digest_id).vector_pending is True
    finally:
        store.close()
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        assert maintenance.fill_pending(store) >= 1
        assert store.get(tenant="a", id=digest_id).vector_pending is False
    finally:
        store.close()


def test_a_database_from_before_sessions_keeps_its_memories_and_gains_sessions(
        db: str, clock: Clock):
    from memvault.storage.postgres import schema as pg_schema
    from memvault.storage.sqlite import schema as sqlite_schema

    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        kept = [store.remember(tenant=t, scope="proj", content=f"note {i} of {t}").id
                for t in "ab" for i in range(3)]
        store.forget(tenant="a", id=kept[0])
        before = raw.execute(db, "SELECT id, tenant, content, tokens FROM memories ORDER BY id")
    finally:
        store.close()
    raw.execute(db, "DROP TABLE turns")
    raw.execute(db, "DROP TABLE sessions")
    raw.rewind(db, sqlite_schema._V12_SESSIONS, pg_schema._v_sessions)
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        assert raw.execute(db, "SELECT id, tenant, content, tokens FROM memories ORDER BY id") == before
        assert store.get(tenant="b", id=kept[4]).content == "note 1 of b"
        assert append(store, "after-upgrade", NewTurn("user", "hello")).added == (1,)
        assert store.upkeep.scrub() and maintenance.check(store) == []  # (PostgreSQL scrubs when asked)
    finally:
        store.close()


def test_the_health_check_names_a_session_whose_counts_disagree_with_its_turns(store: Store, db: str):
    append(store, "s", NewTurn("user", "one"), NewTurn("assistant", "two"))
    assert maintenance.check(store) == []
    raw.execute(db, "UPDATE sessions SET turns = 3")
    assert maintenance.check(store) == [
        "1 sessions' turn or token counts disagree with their turns, or skip a seq"]


def test_two_ends_at_once_leave_one_current_digest(db: str, clock: Clock):
    stores = [Store(db, None, clock=clock) for _ in range(2)]
    try:
        session_of_work(stores[0])
        stores[0].episodes.end(tenant="a", session_id="work-1")
        append(stores[0], "work-1", NewTurn("user", "and one more request"))
        ended, errors = [], []

        def end(store: Store) -> None:
            try:
                ended.append(store.episodes.end(tenant="a", session_id="work-1"))
            except Exception as exc:  # reported below, with what it was
                errors.append(exc)

        threads = [threading.Thread(target=end, args=(s,)) for s in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        final = stores[1].episodes.session(tenant="a", session_id="work-1")
        assert final.ended_at is not None and {s.digest_id for s in ended} == {final.digest_id}
        assert stores[1].count_memories(tenant="a", scopes=["proj"], kinds=["episode"]) == 1
        assert '"and one more request"' in (stores[1].get(tenant="a", id=final.digest_id or "").content or "")
    finally:
        for s in stores:
            s.close()


def test_an_empty_append_makes_no_session_and_a_session_keeps_the_first_client_and_cwd_given(
        store: Store, clock: Clock):
    out = append(store, "opened", cwd="/home/dev/<private>x</private>app")
    assert (out.added, out.repeated) == ((), 0)
    with pytest.raises(NotFound):  # no turn, no session: a client that never captures leaves none
        store.episodes.session(tenant="a", session_id="opened")
    with pytest.raises(NotFound):
        store.episodes.end(tenant="a", session_id="opened")
    append(store, "opened", NewTurn("user", "hello"), cwd="/home/dev/<private>x</private>app")
    opened = store.episodes.session(tenant="a", session_id="opened")
    assert (opened.turns, opened.client, opened.cwd) == (1, None, "/home/dev/app")
    assert opened.started_at == opened.last_at == clock.now
    append(store, "opened", NewTurn("user", "again"), client="codex", cwd="/elsewhere")  # fills what it lacked
    again = store.episodes.session(tenant="a", session_id="opened")
    assert (again.client, again.cwd) == ("codex", "/home/dev/app")
    ended = store.episodes.end(tenant="a", session_id="opened")
    content = store.get(tenant="a", id=ended.digest_id or "").content or ""
    assert content.splitlines()[0] == (
        "Recap of a working session (codex, /home/dev/app), 2026-01-01T00:00:00.000Z to "
        "2026-01-01T00:00:00.000Z: what we worked on and where we left off. Session opened: "
        "2 turns, 2 from the user, 0 tool calls.")


@pytest.mark.parametrize("asked", ["Shared-Id", "shared", "SHARED-ID"])
def test_a_session_is_found_by_its_whole_id_only_and_the_refusal_says_so(store: Store, asked: str):
    append(store, "shared-id", NewTurn("user", "tenant a's words"), client="claude-code")
    for read in (store.episodes.session, store.episodes.forget):
        with pytest.raises(NotFound, match="named by its whole id, exactly as its client gave it, case included"):
            read(tenant="a", session_id=asked)
    assert store.episodes.session(tenant="a", session_id="shared-id").turns == 1
