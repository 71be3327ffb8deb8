"""Tenant isolation, property-based: random operations across tenants and scopes
against an oracle of what each tenant may see."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import HEAVY, figure
from fakes import FakeEmbedder
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from memvault.storage.errors import Conflict, InvalidInput, NotFound
from memvault.storage.store import Store
from memvault.tools.boot import boot_context
from memvault.tools.handlers import Caller, memory_document

TENANTS = ["acme", "globex", "initech"]
SCOPES = ["alpha", "beta", "global"]
WORDS = ["deploy", "invoice", "secret", "router", "coffee", "budget", "token", "launch"]
COUNTS = {"operations": 0, "leaks": 0}


class Isolation(RuleBasedStateMachine):
    """Random operations on a store made on a new database from ``new_db()``."""

    new_db: Callable[[], str]

    def __init__(self) -> None:
        super().__init__()
        self.store = Store(self.new_db(), FakeEmbedder())  # type: ignore[arg-type]
        self.owner: dict[str, str] = {}  # memory id -> tenant
        self.current: set[str] = set()  # ids neither superseded nor forgotten
        self.scope: dict[str, str] = {}  # memory id -> scope
        self.label: dict[str, str] = {}  # memory id -> the unique start of its content
        self.n = 0

    def teardown(self) -> None:
        self.store.close()

    def leak(self, what: str) -> None:
        COUNTS["leaks"] += 1
        raise AssertionError(what)

    @rule(tenant=st.sampled_from(TENANTS), scope=st.sampled_from(SCOPES), words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4))
    def remember(self, tenant: str, scope: str, words: list[str]) -> None:
        COUNTS["operations"] += 1
        self.n += 1
        content = f"{tenant} memory {self.n}: {' '.join(words)}"
        out = self.store.remember(tenant=tenant, scope=scope, content=content)
        self.label[out.id] = f"{tenant} memory {self.n}:"
        self.owner[out.id] = tenant
        self.scope[out.id] = scope
        self.current.add(out.id)
        found = self.store.recall(tenant=tenant, query=content, scopes=SCOPES, limit=50)
        assert out.id in [h.memory.id for h in found.hits], f"{tenant} cannot recall its own {out.id}"

    @precondition(lambda self: self.owner)
    @rule(data=st.data(), tenant=st.sampled_from(TENANTS))
    def supersede_or_forget(self, data: st.DataObject, tenant: str) -> None:
        COUNTS["operations"] += 1
        memory_id = data.draw(st.sampled_from(sorted(self.owner)))
        forget = data.draw(st.booleans())
        mine_and_current = self.owner[memory_id] == tenant and memory_id in self.current
        try:
            if forget:
                out = self.store.forget(tenant=tenant, id=memory_id, include_history=data.draw(st.booleans()))
                self.current -= set(out.forgotten_ids)
            else:
                self.n += 1
                new_id = self.store.supersede(tenant=tenant, id=memory_id, content=f"{tenant} memory {self.n}: update").id
                self.label[new_id] = f"{tenant} memory {self.n}:"
                self.owner[new_id] = tenant
                self.scope[new_id] = self.scope[memory_id]
                self.current = (self.current - {memory_id}) | {new_id}
        except (NotFound, Conflict, InvalidInput) as exc:
            assert not mine_and_current, f"{tenant} could not change its own current {memory_id}: {exc}"
            return
        if self.owner[memory_id] != tenant:
            self.leak(f"{tenant} changed {self.owner[memory_id]}'s memory {memory_id}")

    @rule(tenant=st.sampled_from(TENANTS), words=st.lists(st.sampled_from(WORDS + TENANTS), min_size=1, max_size=3), history=st.booleans())
    def recall(self, tenant: str, words: list[str], history: bool) -> None:
        COUNTS["operations"] += 1
        found = self.store.recall(tenant=tenant, query=" ".join(words), scopes=SCOPES, limit=50, include_history=history)
        for hit in found.hits:
            if self.owner.get(hit.memory.id) != tenant or hit.memory.tenant != tenant:
                self.leak(f"{tenant} recalled {hit.memory.id}")

    @precondition(lambda self: self.owner)
    @rule(data=st.data(), tenant=st.sampled_from(TENANTS))
    def read_resource(self, data: st.DataObject, tenant: str) -> None:
        COUNTS["operations"] += 1
        memory_id = data.draw(st.sampled_from(sorted(self.owner)))
        try:
            document = memory_document(self.store, Caller(tenant=tenant, scope="alpha"), memory_id)
        except NotFound:
            assert self.owner[memory_id] != tenant, f"{tenant} cannot read its own {memory_id}"
            return
        if self.owner[memory_id] != tenant:
            self.leak(f"{tenant} read {memory_id}")
        assert memory_id in document
        assert all(f"{t} memory" not in document for t in TENANTS if t != tenant)

    @invariant()
    def boot_shows_own_current_memories_and_no_others(self) -> None:
        for tenant in TENANTS:
            text = boot_context(self.store, Caller(tenant=tenant, scope="alpha"), 100_000)
            # The boot context shows short ids, so memories are told apart by their content.
            for memory_id, owner in self.owner.items():
                if owner != tenant and self.label[memory_id] in text:
                    self.leak(f"{tenant}'s boot context shows {memory_id}")
                if owner == tenant and memory_id in self.current and self.scope[memory_id] in ("alpha", "global"):
                    assert self.label[memory_id] in text, f"{tenant}'s boot context lacks its own {memory_id}"


@pytest.fixture
def migrated_db(backend: str, new_db: Callable[[], str], request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """A function that makes a new database holding memvault's schema and no memories on
    each call: a copy of one database migrated once (``CREATE DATABASE ... TEMPLATE`` on
    PostgreSQL), instead of migrating a new database in each of the examples."""
    first = new_db()
    Store(first, FakeEmbedder()).close()  # type: ignore[arg-type]
    if backend == "postgresql":
        server = request.getfixturevalue("pg_server")
        return lambda: server.new_database(template=server.dbname(first))
    copies = iter(range(1_000_000))

    def copy() -> str:
        path = tmp_path / f"copy-{next(copies)}.db"
        shutil.copyfile(first, path)  # a closed store leaves no -wal or -shm file beside it
        return str(path)

    assert not Path(f"{first}-wal").exists()
    return copy


@pytest.mark.contract
def test_no_operation_of_one_tenant_sees_or_changes_another_tenants_memories(
        migrated_db: Callable[[], str], backend: str) -> None:
    machine = type("BoundIsolation", (Isolation,), {"new_db": staticmethod(migrated_db)})
    # PostgreSQL's round trips made its 10 examples 27 s of the suite: it runs 5, SQLite 10.
    examples = 200 if HEAVY else 5 if backend == "postgresql" else 10
    run_state_machine_as_test(
        machine, settings=settings(max_examples=examples, stateful_step_count=30, deadline=None)
    )


@pytest.fixture(scope="module", autouse=True)
def report_isolation_figure() -> Iterator[None]:
    """Reports after this module's tests, whatever order they run in (leaks fail the test itself)."""
    yield
    figure(f"tenant isolation (hypothesis): {COUNTS['operations']} operations, {COUNTS['leaks']} leaks")
