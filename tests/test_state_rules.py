"""Exact data and state rules: times to the millisecond, Unicode forms, ids in any
case or by prefix, duplicates that say what they kept, supersede and expiry rules,
bounded walks over damaged histories (issue 7, items 7-15 and 26)."""

from __future__ import annotations

import json
import threading
import time
import unicodedata

import apsw
import pytest
from conftest import file_bytes
from fakes import Clock, FakeEmbedder
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import maintenance, transfer
from memvault.storage.sqlite import schema
from memvault.storage import store as store_module
from memvault.storage.errors import Conflict, InvalidInput, ModelUnavailable, NotFound
from memvault.storage.store import Store
from memvault.storage.maintenance import EXPIRY_GRACE_MS
from memvault.storage.timefmt import MAX_MS, MIN_MS, format_ms, now_ms, parse_iso
from memvault.tools import handlers
import raw

SCOPES = ["proj", "global"]
CALLER = handlers.Caller(tenant="a", scope="proj")
DAY_MS = 86_400_000


def remember(store: Store, content: str, tenant: str = "a", scope: str = "proj", **kw):
    return store.remember(tenant=tenant, scope=scope, content=content, **kw)


pytestmark = pytest.mark.contract


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def current_count(store: Store) -> int:
    return maintenance.stats(store)["current"]  # type: ignore[return-value]


# -- 7: milliseconds ---------------------------------------------------------------


@given(st.integers(min_value=MIN_MS, max_value=MAX_MS))
def test_every_millisecond_instant_round_trips_exactly(ms):
    assert parse_iso("observed_at", format_ms(ms) or "") == ms


@pytest.mark.parametrize(
    ("given_text", "shown"),
    [
        ("2004-09-23T15:54:43.735Z", "2004-09-23T15:54:43.735Z"),
        ("2004-09-23T17:54:43.735+02:00", "2004-09-23T15:54:43.735Z"),
        ("2021-03-14T01:59:26.535-07:30", "2021-03-14T09:29:26.535Z"),
        ("1969-07-20T20:17:40.001Z", "1969-07-20T20:17:40.001Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
        ("1901-02-03T04:05:06.007+05:45", "1901-02-02T22:20:06.007Z"),
        ("2004-09-23T15:54:43.735999Z", "2004-09-23T15:54:43.735Z"),  # below the ms: dropped, never rounded up
    ],
)
def test_stored_times_come_back_to_the_millisecond(store, clock: Clock, given_text, shown):
    clock.now = parse_iso("now", "2026-01-01T00:00:00Z")
    out = remember(store, f"observed at {given_text}", observed_at=given_text, expires_at="2030-01-01T00:00:00.123Z")
    shaped = handlers.memory_out(store.get(tenant="a", id=out.id))
    assert shaped.observed_at == shown and shaped.expires_at == "2030-01-01T00:00:00.123Z"


def test_the_server_clock_is_whole_milliseconds_of_the_real_time():
    before = time.time_ns() // 1_000_000
    now = now_ms()
    assert isinstance(now, int) and before <= now <= time.time_ns() // 1_000_000


# -- 8: Unicode forms --------------------------------------------------------------


@pytest.mark.parametrize("text", ["café in Zürich", "한국어 메모: 회의는 화요일", "Ångström, naïve, São Paulo"])
def test_content_in_another_normal_form_is_a_duplicate(store, text):
    first = remember(store, text)
    again = remember(store, nfd(text))
    assert nfd(text) != text and again.duplicate_of == first.id and not again.created
    assert current_count(store) == 1


def test_tags_compare_case_folded_and_normalised(store):
    out = remember(store, "Street names in Bern", tags=["straße", "café", "ΣΟΦΊΑ"])  # a new name is NFKC
    assert sorted(store.get(tenant="a", id=out.id).tags) == ["café", "strasse", "σοφία"]
    for tags in (["STRASSE"], ["Straße"], ["CAFÉ"], [nfd("café")], ["σοφι\u0301α"]):
        hits = store.recall(tenant="a", query="street names", scopes=SCOPES, tags=tags).hits
        assert [h.memory.id for h in hits] == [out.id], tags


@pytest.mark.parametrize("pasted", [
    "Rotate the pass\u200bword every month",  # zero-width space inside a word (web pages)
    "\ufeffRotate the password every month",  # a byte-order mark before the first word
    "Rotate the pass\u00adword every\u2060 month",  # soft hyphen, word joiner
])
def test_content_with_invisible_characters_is_a_duplicate_and_stays_as_given(store, pasted):
    first = remember(store, "Rotate the password every month")
    again = remember(store, pasted)
    assert again.duplicate_of == first.id and not again.created
    assert current_count(store) == 1
    kept = remember(store, pasted, scope="other")  # a memory of its own keeps its characters
    assert store.get(tenant="a", id=kept.id).content == pasted.strip()


@pytest.mark.parametrize("invisible", ["\u200b", "\ufeff", " \u200b\u00ad\u2060 "])
def test_content_of_invisible_characters_only_is_refused_as_empty(store, invisible):
    with pytest.raises(InvalidInput, match="^content: is only white space"):
        remember(store, invisible)
    assert current_count(store) == 0


def test_tag_filters_and_queries_ignore_invisible_characters_and_new_tags_refuse_them(store):
    out = remember(store, "Rotate the password every month", tags=["security"])
    assert [m.id for m in store.list_memories(tenant="a", scopes=SCOPES, tags=["\ufeffsecurity"])] == [out.id]
    hits = store.recall(tenant="a", query="pass\u200bword", scopes=SCOPES).hits
    assert [h.memory.id for h in hits] == [out.id] and hits[0].signals.keyword_rank == 1
    for tag in ("sec\u200burity", "\u200b"):  # a new name holding one would look like another (validate.name)
        with pytest.raises(InvalidInput, match=r"^tags\[0\]: holds U\+200B ZERO WIDTH SPACE"):
            remember(store, "Another memory", tags=[tag])


def test_scope_and_idempotency_key_in_another_normal_form_are_the_same(store):
    scope = "équipe-café"
    first = remember(store, "Standup at nine", scope=scope, idempotency_key="clé-réunion")
    replay = remember(store, "Standup at nine", scope=scope, idempotency_key=nfd("clé-réunion"))
    assert replay.id == first.id and not replay.created and replay.duplicate_of is None
    assert store.get(tenant="a", id=first.id).confirmations == 0  # a replay, not a confirmation
    # A name is written in its one form (validate.name), and read as written: a filter naming it in another
    # form is refused as remember refuses it (trial verify62 N8), the form written reads it.
    with pytest.raises(InvalidInput, match=r"^scope: is not in Unicode normalization form NFKC"):
        remember(store, "Standup at nine", scope=nfd(scope))
    caller = handlers.Caller(tenant="a", scope="default")
    with pytest.raises(InvalidInput, match=r"^scope: is not in Unicode normalization form NFKC"):
        handlers.list_memories(store, caller, scope=nfd(scope))
    assert [m.id for m in handlers.list_memories(store, caller, scope=scope).memories] == [first.id]


@pytest.mark.sqlite_only
def test_a_version_1_database_is_brought_to_the_normal_forms(db_path):
    conn = apsw.Connection(str(db_path))
    conn.execute(schema._V1 + "PRAGMA user_version = 1;")
    old_hash = __import__("hashlib").sha256(nfd("café crème").encode()).hexdigest()
    conn.execute(
        "INSERT INTO memories(id, tenant, scope, kind, content, content_hash, importance, observed_at, recorded_at)"
        " VALUES ('0190aaaa-0000-7000-8000-000000000001', 'a', ?, 'fact', ?, ?, 5, 0, 0)",
        (nfd("proj-é"), nfd("café crème"), old_hash),
    )
    conn.execute("INSERT INTO memory_tags VALUES (1, 'straße'), (1, 'strasse')")
    conn.close()
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        again = remember(store, "café crème", scope="proj-é")
        assert again.duplicate_of == "0190aaaa-0000-7000-8000-000000000001"
        assert store.get(tenant="a", id=again.id).tags == ("strasse",)
        maintenance.fill_pending(store)  # a v1 row has no vector yet, as any server would find it
        assert maintenance.check(store) == []
    finally:
        store.close()


# -- 9: ids in any case, or a unique prefix -------------------------------------------


def test_ids_are_accepted_in_any_letter_case_everywhere(store):
    out = remember(store, "Backups run at 02:00")
    loud = f"  {out.id.upper()} "
    assert store.get(tenant="a", id=loud).id == out.id
    assert [m.id for m in store.history(tenant="a", id=loud)] == [out.id]
    assert json.loads(handlers.memory_document(store, CALLER, loud))["memory"]["id"] == out.id
    new = store.supersede(tenant="a", id=loud, content="Backups run at 03:00")
    assert new.superseded_id == out.id
    assert store.forget(tenant="a", id=new.id.upper()).forgotten_ids == [new.id]


def test_a_unique_prefix_of_eight_characters_names_a_memory(store, monkeypatch):
    # Two UUIDv7 ids made within the same ~65 s share 8 or more characters; fixed here, so
    # that the test does not depend on when it runs (made across a boundary they shared 6).
    made = iter(["019ae0b3-4c5d-7000-8000-000000000001", "019ae0b3-4c5e-7000-8000-000000000002"])
    monkeypatch.setattr(store_module, "new_id", lambda: next(made))
    first = remember(store, "first memory")
    second = remember(store, "second memory")
    common = next(i for i, (x, y) in enumerate(zip(first.id, second.id, strict=True)) if x != y)
    assert common >= 8
    unique = second.id[: common + 1].upper()
    assert store.get(tenant="a", id=unique).id == second.id
    assert store.forget(tenant="a", id=unique).forgotten_ids == [second.id]
    with pytest.raises(InvalidInput, match="several memory ids") as err:
        store.get(tenant="a", id=first.id[:common])
    assert err.value.field == "id"
    with pytest.raises(InvalidInput, match="too short: give at least 8 characters"):
        store.get(tenant="a", id=first.id[:7])
    with pytest.raises(NotFound):
        store.get(tenant="a", id="ff" + first.id[2:])
    with pytest.raises(InvalidInput, match="is not a memory id: an id is 36 hex digits and hyphens"):
        store.get(tenant="a", id="zz" + first.id[2:])


def test_short_ids_are_the_shortest_unique_prefixes_and_resolve(store, monkeypatch):
    made = iter(["01a2aaaa-0001-7000-8000-000000000001", "01a2aaaa-0002-7000-8000-000000000002",
                 "01a2aaaa-0002-7000-8000-000000000003", "01a2bbbb-0000-7000-8000-000000000004",
                 "01a2aaab-0000-7000-8000-000000000005"])
    monkeypatch.setattr(store_module, "new_id", lambda: next(made))
    ids = [remember(store, f"note {i}").id for i in range(4)]
    remember(store, "another tenant's note", tenant="b")  # 01a2aaab...: not a neighbour for tenant a
    short = store.short_ids(tenant="a", ids=ids)
    assert list(short.values()) == ["01a2aaaa-0001", "01a2aaaa-0002-7000-8000-000000000002",
                                    "01a2aaaa-0002-7000-8000-000000000003", "01a2bbbb"]
    for memory_id, prefix in short.items():
        assert store.get(tenant="a", id=prefix).id == memory_id
        if len(prefix) > 8:
            with pytest.raises(InvalidInput, match="several"):
                store.get(tenant="a", id=prefix[:-1])


def test_a_prefix_of_another_tenants_memory_looks_like_an_unknown_id(store):
    mine = remember(store, "mine", tenant="a")
    theirs = remember(store, "theirs", tenant="b")
    shared = next(i for i, (x, y) in enumerate(zip(mine.id, theirs.id, strict=True)) if x != y)
    prefix = mine.id[:shared]
    assert theirs.id.startswith(prefix) and len(prefix) >= 8
    assert store.get(tenant="a", id=prefix).id == mine.id  # b's memory makes it neither ambiguous
    assert store.get(tenant="b", id=prefix).id == theirs.id  # nor found for the other tenant
    unknown = str(pytest.raises(NotFound, store.get, tenant="c", id="0123abcd").value)
    foreign = str(pytest.raises(NotFound, store.get, tenant="c", id=prefix).value)
    assert foreign.replace(prefix, "X") == unknown.replace("0123abcd", "X")


@pytest.mark.anyio
async def test_the_memory_resource_takes_an_upper_case_id(db, one_model):
    async with Client(build_server(Config(db=db, tenant="default", scope="proj"))) as c:
        first = (await c.call_tool("remember", {"content": "The wiki lives at wiki.internal"})).structured_content
        doc = json.loads((await c.read_resource(f"memory://memories/{first['id'].upper()}")).contents[0].text)
        assert doc["memory"]["id"] == first["id"]
        again = await c.call_tool("remember", {"content": "The wiki lives at wiki.internal", "importance": 9,
                                               "tags": ["docs"], "kind": "decision"})
        assert again.structured_content["not_applied"] == ["kind", "tags", "importance"]


# -- 10: a duplicate says which fields it did not apply --------------------------------


def test_a_duplicate_with_other_fields_names_them_and_keeps_the_stored_ones(store, clock: Clock):
    first = remember(store, "Deploys need two approvals", tags=["ops"], importance=6, kind="procedure")
    clock.advance(10)
    again = remember(store, "Deploys need two approvals", tags=["OPS", "release"], importance=9, kind="decision",
                     source="review", expires_at="2027-01-01T00:00:00Z", observed_at="2025-12-31T00:00:00Z")
    assert again.duplicate_of == first.id
    assert again.not_applied == ("kind", "tags", "importance", "source", "observed_at", "expires_at")
    kept = store.get(tenant="a", id=first.id)
    assert (kept.kind, kept.tags, kept.importance, kept.source, kept.expires_at) == ("procedure", ("ops",), 6, None, None)
    same = remember(store, "Deploys need two approvals", tags=["Ops"], importance=6)
    assert same.duplicate_of == first.id and same.not_applied == ()
    shaped = handlers.remember(store, CALLER, content="Deploys need two approvals", importance=2)
    assert shaped.not_applied == ["importance"] and shaped.duplicate_of == first.id


def test_an_idempotent_replay_with_other_fields_names_them(store):
    first = remember(store, "Queue size is 500", idempotency_key="k-1", tags=["queue"])
    replay = remember(store, "Queue size is 500", idempotency_key="k-1", tags=["limits"])
    assert replay.id == first.id and replay.not_applied == ("tags",)


# -- 11: supersede never creates an expired memory ------------------------------------------


def test_supersede_refuses_a_memory_that_would_already_be_expired(store, clock: Clock):
    old = remember(store, "Promo code SPRING runs this week", expires_at="2026-01-08T00:00:00Z")
    clock.now = parse_iso("now", "2026-01-09T00:00:00Z")
    with pytest.raises(Conflict, match="expired"):
        store.supersede(tenant="a", id=old.id, content="Promo code SPRING2 runs", observed_at="2026-01-05T00:00:00Z")
    clock.now = parse_iso("now", "2026-01-07T12:00:00Z")
    with pytest.raises(InvalidInput) as err:  # inherited expiry before the new observed_at
        store.supersede(tenant="a", id=old.id, content="Promo code SPRING3 runs", observed_at="2026-01-08T06:00:00Z")
    assert err.value.field == "expires_at"
    assert maintenance.stats(store)["current"] == 1
    assert store.get(tenant="a", id=old.id).superseded_by is None


# -- 12: a forgotten or expired newest version ends the history --------------------------


def test_a_forgotten_newest_version_ends_the_history_and_both_messages_say_so(store):
    a = remember(store, "Lead is Ana")
    b = store.supersede(tenant="a", id=a.id, content="Lead is Ben").id
    store.forget(tenant="a", id=b)
    with pytest.raises(Conflict) as older:
        store.supersede(tenant="a", id=a.id, content="Lead is Cy")
    assert b in str(older.value) and "forgotten" in str(older.value) and "no current version" in str(older.value)
    with pytest.raises(Conflict, match="forgotten.*remember"):
        store.supersede(tenant="a", id=b, content="Lead is Cy")
    assert remember(store, "Lead is Cy").created


def test_a_forgotten_middle_version_leaves_the_newest_current(store):
    a = remember(store, "Port is 8080")
    b = store.supersede(tenant="a", id=a.id, content="Port is 8081").id
    c = store.supersede(tenant="a", id=b, content="Port is 8082").id
    store.forget(tenant="a", id=b)
    with pytest.raises(Conflict, match=f"current version is {c}"):
        store.supersede(tenant="a", id=a.id, content="Port is 8083")
    assert store.supersede(tenant="a", id=c, content="Port is 8083").superseded_id == c


def test_an_expired_newest_version_ends_the_history(store, clock: Clock):
    a = remember(store, "On call: Dee")
    b = store.supersede(tenant="a", id=a.id, content="On call: Eli", expires_at="2026-01-02T00:00:00Z").id
    clock.now = parse_iso("now", "2026-01-03T00:00:00Z")
    with pytest.raises(Conflict, match=f"{b} expired at 2026-01-02"):
        store.supersede(tenant="a", id=a.id, content="On call: Fay")


# -- 13: never two current copies ------------------------------------------------------------


def test_supersede_with_the_same_content_changes_nothing_unless_a_field_changes(store):
    a = remember(store, "Retention is 30 days", importance=5)
    with pytest.raises(Conflict, match=a.id):
        store.supersede(tenant="a", id=a.id, content="Retention  is 30 days ")
    with pytest.raises(Conflict, match=a.id):
        store.supersede(tenant="a", id=a.id, content="Retention is 30 days", importance=5)
    new = store.supersede(tenant="a", id=a.id, content="Retention is 30 days", importance=9)
    assert store.get(tenant="a", id=new.id).importance == 9 and current_count(store) == 1


@pytest.mark.parametrize("copy", ["Region is eu-west-1", " Region  is eu-west-1", "Région is eu-west-1"])
def test_supersede_to_the_content_of_another_current_memory_is_refused(store, copy):
    other = remember(store, unicodedata.normalize("NFC", copy).strip().replace("  ", " "))
    old = remember(store, "Region is us-east-1")
    with pytest.raises(Conflict, match=other.id):
        store.supersede(tenant="a", id=old.id, content=nfd(copy))
    assert current_count(store) == 2 and store.get(tenant="a", id=old.id).superseded_by is None
    elsewhere = remember(store, "Region is ap-south-1", scope="other")
    assert store.supersede(tenant="a", id=elsewhere.id, content=copy).id  # another scope: allowed


# -- 14: expired memories are never returned, and are erased after the grace period ------------


def test_an_expired_memory_is_returned_by_no_read_path(store, clock: Clock):
    out = remember(store, "Temp password hint is blue-kiwi-44", tags=["hint"], source="ops",
                   expires_at="2026-01-02T00:00:00Z")
    keep = remember(store, "Office opens at 8")
    clock.now = parse_iso("now", "2026-01-02T00:00:00Z")
    seen = store.get(tenant="a", id=out.id)
    assert (seen.content, seen.tags, seen.source) == (None, (), None)
    assert all(m.content is None for m in store.history(tenant="a", id=out.id))
    doc = handlers.memory_document(store, CALLER, out.id)
    assert "blue-kiwi" not in doc and json.loads(doc)["memory"] == {"id": out.id, "expired_at": "2026-01-02T00:00:00.000Z"}
    assert [json.loads(line)["id"] for line in transfer.export_lines(store, "a")] == [keep.id]
    stats = maintenance.stats(store)
    assert (stats["current"], stats["expired"]) == (1, 1)
    assert store.get(tenant="a", id=keep.id).content == "Office opens at 8"


def test_expired_content_is_erased_from_the_files_after_the_grace_period(store, clock: Clock, db, backend):
    out = remember(store, "Door code is 7cq9marker", expires_at="2026-01-02T00:00:00Z")
    clock.now = parse_iso("now", "2026-01-02T00:00:00Z") + EXPIRY_GRACE_MS - 1
    remember(store, "A write inside the grace period")
    assert backend != "sqlite" or b"7cq9marker" in file_bytes(db)  # hidden, not yet erased
    clock.advance(0.001)
    remember(store, "The next write after the grace period")
    assert store.upkeep.scrub()  # (the erase is committed; the scrub runs on the background thread)
    assert backend != "sqlite" or b"7cq9marker" not in file_bytes(db)  # (PostgreSQL: test_postgres_backend)
    tomb = store.get(tenant="a", id=out.id)
    assert tomb.forgotten_at == clock.now and tomb.forget_reason == "expired at 2026-01-02T00:00:00.000Z"
    assert store.upkeep.scrub() and maintenance.check(store) == []


def test_expired_content_is_erased_when_the_store_opens(db, backend, clock: Clock):
    first = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    out = first.remember(tenant="a", scope="s", content="Visitors sign in at desk fz81marker", expires_at="2026-01-01T01:00:00Z")
    first.close()
    clock.now += 2 * DAY_MS
    second = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        assert second.upkeep.scrub() and (backend != "sqlite" or b"fz81marker" not in file_bytes(db))
        assert second.get(tenant="a", id=out.id).forgotten_at is not None
        assert second.upkeep.run_due().purged_ids == []  # nothing left to do
    finally:
        second.close()


# -- 15: supersession cycles ----------------------------------------------------------------


def make_cycle(store: Store, db: str) -> tuple[str, str]:
    """Two versions whose links point at each other both ways (damage or a hand edit)."""
    a = remember(store, "Version one")
    b = store.supersede(tenant="a", id=a.id, content="Version two").id
    raw.execute(db, "UPDATE memories SET superseded_by = ?, supersedes = ? WHERE id = ?", a.id, a.id, b)
    raw.execute(db, "UPDATE memories SET supersedes = ? WHERE id = ?", b, a.id)
    return a.id, b


def finishes(fn):
    """Run ``fn`` on a thread and return or raise what it does; AssertionError when it is
    still looping after 60 s (a hang guard, not a timing check)."""
    outcome: list[tuple[bool, object]] = []

    def run() -> None:
        try:
            outcome.append((True, fn()))
        except Exception as exc:
            outcome.append((False, exc))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    assert outcome, "still walking the history"
    ok, value = outcome[0]
    if not ok:
        raise value  # type: ignore[misc]
    return value


def test_walks_over_a_supersession_cycle_end_and_doctor_reports_it(store, db):
    a, b = make_cycle(store, db)
    assert sorted(m.id for m in finishes(lambda: store.history(tenant="a", id=a))) == sorted([a, b])
    problems = maintenance.check(store)
    assert any("cycle" in p for p in problems)
    with pytest.raises(Conflict, match="cycle"):
        finishes(lambda: store.supersede(tenant="a", id=a, content="Version three"))
    forgotten = finishes(lambda: store.forget(tenant="a", id=b, include_history=True))
    assert sorted(forgotten.forgotten_ids) == sorted([a, b])


def test_doctor_reports_a_longer_cycle_in_one_direction_only(store, db):
    ids = [remember(store, "v1").id]
    for n in (2, 3):
        ids.append(store.supersede(tenant="a", id=ids[-1], content=f"v{n}").id)
    raw.execute(db, "UPDATE memories SET superseded_by = ? WHERE id = ?", ids[0], ids[2])
    problems = maintenance.check(store)
    assert any("3 memories are in a supersession cycle" in p for p in problems)
    assert len(finishes(lambda: store.history(tenant="a", id=ids[1]))) == 3


# -- 26: degraded supersede, last confirmation (model dimension: test_store.py) ---------------------


class Broken(FakeEmbedder):
    def load(self) -> None:
        raise ModelUnavailable("model folder is empty")


def test_supersede_says_when_the_new_memory_has_no_vector(db):
    store = Store(db, Broken())  # type: ignore[arg-type]
    try:
        old = remember(store, "Cache TTL is 60 s")
        shaped = handlers.supersede(store, CALLER, id=old.id, content="Cache TTL is 90 s")
        assert "model folder is empty" in (shaped.degraded or "")
        assert store.get(tenant="a", id=shaped.id).vector_pending
    finally:
        store.close()


def test_the_last_confirmation_time_is_shown(store, clock: Clock):
    out = remember(store, "Lunch is at noon")
    assert handlers.memory_out(store.get(tenant="a", id=out.id)).last_confirmed_at is None
    clock.advance(90)
    remember(store, "Lunch is at noon")
    doc = json.loads(handlers.memory_document(store, CALLER, out.id))
    assert doc["memory"]["last_confirmed_at"] == format_ms(clock.now) == "2026-01-01T00:01:30.000Z"
