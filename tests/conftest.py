"""Shared fixtures: stores on temporary files, a fake and the real embedder, helpers."""

from __future__ import annotations

import glob
import io
import logging
import os
import re
import shutil
import subprocess
import sys
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fakes import Clock, FakeEmbedder

from memvault.storage import embeddings, int8model
from memvault.storage.embeddings import MODEL_SHA256, Embedder
from memvault.storage.location import is_url
from memvault.storage.sqlite import crypto
from memvault.storage.store import Store
from memvault.storage.timefmt import now_ms

pytest_plugins = ["pg"]  # the pg_server and pg_url fixtures (PostgreSQL)

REPO = Path(__file__).resolve().parent.parent
# The shared evaluation data sits beside the project (../shared), or beside the folder of
# worktrees when the tests run in a git worktree.
SHARED = next((p / "shared" for p in REPO.parents if (p / "shared" / "eval").is_dir()), REPO.parent / "shared")
LOCOMO = SHARED / "eval" / "locomo"
AGENTIC = SHARED / "eval" / "agentic"

# The integer model is derived once into the user cache (storage/int8model.py). Tests that
# give a process another HOME keep that cache where it is, instead of deriving it again;
# tests of the derivation itself set XDG_CACHE_HOME.
if "XDG_CACHE_HOME" not in os.environ:
    os.environ["XDG_CACHE_HOME"] = str(Path.home() / ".cache")


@pytest.fixture(scope="session", autouse=True)
def prepared_model() -> None:
    """Derive the model's integer variant first when this machine's cache lacks it, so
    servers that tests start do not answer their first calls while still preparing it."""
    if not int8model.intact(int8model.cached_path(MODEL_SHA256)):
        Embedder().load()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memvault.db"


BACKENDS = ("sqlite", "postgresql")


def pytest_xdist_auto_num_workers(config) -> int:  # type: ignore[no-untyped-def]
    """``-n auto``: one worker more than the machine's cores (at most 4, ``--maxprocesses``): many
    tests wait on a subprocess, a server or PostgreSQL, and the last clean CI kept two cores 73 %
    busy with one worker each (stop 44's note)."""
    return (os.cpu_count() or 1) + 1


def pytest_generate_tests(metafunc) -> None:  # type: ignore[no-untyped-def]
    """Tests marked ``contract`` that use a database run once per backend."""
    definition = metafunc.definition
    if (
        "backend" in metafunc.fixturenames
        and definition.get_closest_marker("contract")
        and not definition.get_closest_marker("sqlite_only")
    ):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request) -> str:  # type: ignore[no-untyped-def]
    """The backend a test runs on: "sqlite" unless the test is a ``contract`` test."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def db(backend: str, request, db_path: Path) -> str:  # type: ignore[no-untyped-def]
    """Where the test's database lives: ``db_path`` on SQLite (no file yet), on PostgreSQL a fresh
    database's URL, memvault's schema in it (``pg_store_url``; ``pg_url`` for an empty one)."""
    return request.getfixturevalue("pg_store_url") if backend == "postgresql" else str(db_path)


@pytest.fixture
def new_db(backend: str, request, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A function that makes a new, empty database of the test's backend on each call."""
    made = iter(range(1_000_000))
    if backend == "sqlite":
        return lambda: str(tmp_path / f"db-{next(made)}.db")
    server = request.getfixturevalue("pg_server")
    return lambda: server.new_database()


@pytest.fixture(scope="session")
def empty_sqlite(tmp_path_factory) -> Path:
    """A SQLite file holding memvault's schema and nothing else, made once per worker."""
    path = tmp_path_factory.mktemp("empty") / "m.db"
    Store(path).close()
    return path


@pytest.fixture
def made_db(db: str, request) -> str:  # type: ignore[no-untyped-def]
    """``db``, on SQLite a copy of :func:`empty_sqlite` (its mode too) when the test has no file there
    yet and no key configured: what a new store's schema run would write, without its CPU and fsyncs
    on each of thousands of tests. Making a new file stays covered by the tests that open ``db_path``."""
    keyed = crypto.KEY_FILE in os.environ or crypto.KEYRING in os.environ
    if not is_url(db) and not keyed and not os.path.exists(db):
        shutil.copy(request.getfixturevalue("empty_sqlite"), db)
    return db


@pytest.fixture
def store(made_db: str, clock: Clock):
    s = Store(made_db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    yield s
    s.close()


@pytest.fixture(params=["noted", "consolidated"])
def way(request) -> str:  # type: ignore[no-untyped-def]
    """How contradicting pairs are kept: by remember at once, as a server's store keeps them, or by
    consolidation alone."""
    return request.param


@pytest.fixture
def keeping_store(made_db: str, real_embedder, clock, way):  # type: ignore[no-untyped-def]
    """A store (real model) keeping the pairs remember finds at once when ``way`` is "noted" (no run by writes)."""
    s = Store(made_db, real_embedder, clock=clock)
    if way == "noted":
        s.upkeep.schedule_consolidation(0, 1_000_000)
    yield s
    s.close()


@pytest.fixture(scope="module")
def one_store(tmp_path_factory):
    """One SQLite store (fake model) shared by a module's tests of what is refused or redacted."""
    s = Store(str(tmp_path_factory.mktemp("one") / "m.db"), FakeEmbedder())  # type: ignore[arg-type]
    yield s
    s.close()


class _Remembering(Embedder):
    """The packaged model, each text's vector kept for the worker's session (at most ``KEPT_MAX``): the
    integer variant embeds one text at a time (``BATCH_SIZE``), so a kept vector is the one it would make
    again, bit for bit; the other variant batches texts, and is not kept from. The suite embeds the same
    fillers and questions in test after test (about 12 ms of CPU a text). Tests of the model itself make
    an Embedder of their own."""

    KEPT_MAX = 100_000  # about 150 MB of float32 rows of 384

    def __init__(self) -> None:
        super().__init__()
        self._kept: dict[tuple[str, str], Any] = {}

    def embed_as(self, texts: list[str]) -> embeddings.Embedded:
        self.load()
        model = self.model_id
        missing = [text for text in dict.fromkeys(texts) if (model, text) not in self._kept]
        if self.variant != embeddings.INTEGER or len(self._kept) + len(missing) > self.KEPT_MAX or not texts:
            return super().embed_as(texts)
        if missing:
            made = super().embed_as(missing)
            if made.model_id != model:  # the model was followed to another meanwhile
                return super().embed_as(texts)
            self._kept.update(((model, text), vector) for text, vector in zip(missing, made.vectors, strict=True))
        import numpy as np

        return embeddings.Embedded(model, np.stack([self._kept[model, text] for text in texts]))


@pytest.fixture(scope="session")
def real_embedder() -> Embedder:
    embedder = _Remembering()
    embedder.load()
    return embedder


@pytest.fixture(scope="session")
def fleet(tmp_path_factory, real_embedder: Embedder) -> tuple[Path, str]:
    """A closed SQLite file of 300 memories of tenant acme and a key of acme (``damaged_files.fleet_file``),
    made once per worker for the tests that damage a copy of it: never to be written to."""
    from damaged_files import fleet_file

    return fleet_file(tmp_path_factory.mktemp("fleet"), real_embedder)


@pytest.fixture
def one_model(monkeypatch, real_embedder: Embedder) -> None:
    """memvault's in-process entry points (``cli.main``, ``build_server``) get the session's
    loaded packaged model instead of loading it on each call (ONNX session set-up, 2-3 s a
    call on a loaded 2-core machine); a model folder of their own still gets its own
    Embedder. Loading in a fresh process stays covered by the subprocess tests."""
    from memvault.storage import embeddings

    made = embeddings.Embedder

    def shared(model_dir=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        return real_embedder if model_dir is None and not args and not kwargs else made(model_dir, *args, **kwargs)

    monkeypatch.setattr(embeddings, "Embedder", shared)


@pytest.fixture(scope="session")
def wire_servers(tmp_path_factory):  # type: ignore[no-untyped-def]
    """A stdio server and an HTTP server without authentication (``httpwire.stdio_and_http``), one pair per
    worker for the modules that send them refusals, reads and writes of their own words only (test_edges25_wire,
    test_params_wire, test_names, test_prompt_arguments); the stdio server ends cleanly when its stdin closes, after
    every refusal sent."""
    from httpwire import stdio_and_http

    with stdio_and_http(tmp_path_factory.mktemp("wire")) as (stdio, http):
        yield stdio, http
    assert stdio.proc.returncode == 0


@pytest.fixture(scope="module")
def shared_clock():
    """The clock of the stores :func:`shared_store` fills (milliseconds since the epoch); a module overrides it."""
    return now_ms


SHARED_OPEN = 8  # stores ``shared_store`` keeps open at once per worker (each PostgreSQL one holds a connection)


@pytest.fixture(scope="module")
def shared_stores():
    """The stores :func:`shared_store` filled, newest last: {(backend, fill, args): (store, fill's result, drop)}."""
    stores: OrderedDict[tuple, tuple[Store, Any, Callable[[], None]]] = OrderedDict()
    yield stores
    while stores:
        _, (s, _, drop) = stores.popitem(last=False)
        s.close()
        drop()


@pytest.fixture
def shared_store(shared_stores, shared_clock, backend, request, real_embedder, tmp_path_factory):
    """``shared_store(fill, *args)``: a store of the test's backend (real model, the module's ``shared_clock``)
    holding what ``fill(store, *args)`` stored, and what ``fill`` returned; made once for every case of the same
    set-up (``fill`` a module-level function). Only for cases that write nothing to it (recall writes nothing):
    each case still asks its question of exactly the memories a store of its own would hold."""

    def shared_store(fill: Callable[..., Any], *args: Any) -> tuple[Store, Any]:
        key = (backend, fill, args)
        if key in shared_stores:
            shared_stores.move_to_end(key)
            return shared_stores[key][:2]
        if backend == "postgresql":
            server = request.getfixturevalue("pg_server")
            url = server.new_database(template=request.getfixturevalue("pg_migrated"))
            name = server.dbname(url)
            server.made.remove(name)  # outlives the test (each test's own databases are dropped after it)

            def drop() -> None:
                server.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        else:
            url, drop = str(tmp_path_factory.mktemp("shared") / "m.db"), lambda: None
        s = Store(url, real_embedder, clock=shared_clock)
        try:
            made = fill(s, *args)
        except BaseException:
            s.close()
            drop()
            raise
        shared_stores[key] = (s, made, drop)
        while len(shared_stores) > SHARED_OPEN:
            _, (old, _, old_drop) = shared_stores.popitem(last=False)
            old.close()
            old_drop()
        return s, made

    return shared_store


@pytest.fixture
def real_store(made_db: str, real_embedder: Embedder):
    s = Store(made_db, real_embedder)
    yield s
    s.close()


def file_bytes(db: Path) -> bytes:
    """The bytes of the database and its -wal and -shm files, concatenated."""
    return b"".join(Path(p).read_bytes() for p in sorted(glob.glob(f"{db}*")))


def names_field(text: str, field: str) -> bool:
    """Whether an error text starts with ``field`` as memvault writes it (``field: message``),
    not merely contains its letters ("validation" contains "id") or carries the SDK's
    "Error executing tool" prefix."""
    return re.match(rf"{re.escape(field)}: ", text) is not None


def server_env(db: Path, **extra: str) -> dict[str, str]:
    """Environment for a memvault subprocess on ``db``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env["MEMVAULT_DB"] = str(db)
    env.update(extra)
    return env


# ``memvault serve`` as a client runs it: the stdio suite (test_stdio), the MCP Inspector's (test_inspector) and the
# tests of servers starting together (test_first_start) use it.
SERVE_AS_SHIPPED = [sys.executable, "-m", "memvault.server", "serve"]
# ``memvault serve`` without the credential check's warm-up (``secret_warm.steps`` yields nothing): a check compiles
# what it needs at its first use, with the same results (test_secret_warm.py asserts it), so the warm-up only makes
# a first refusal sooner; it costs a server living a few seconds up to 2-3 s of CPU, which the suite's servers paid
# hundreds of times (docs/benchmarks.md#the-test-suites-servers).
_COLD_CHECK = ("from memvault.storage import secret_warm; secret_warm.steps = lambda: iter(()); "
               "from memvault.server.cli import main; raise SystemExit(main())")
SERVE = [sys.executable, "-c", _COLD_CHECK, "serve"]


@pytest.fixture
def cli_here(monkeypatch, capsys, one_model):  # type: ignore[no-untyped-def]
    """``cli_here(argv, env, stdin="", cwd=None)``: ``memvault ARGV`` run in this process (``cli.main``, the
    session's loaded model) as ``subprocess.run`` would run it with ``env`` (the whole environment) and
    ``cwd``: its exit code, and what it wrote to stdout and stderr, its log too (the command's own
    ``logging.basicConfig``). For what a command does with its input and the store; how a fresh process
    starts (its imports, its console, its signals) stays with the subprocess tests."""
    from memvault.server import cli

    def run(argv: list[str], env: dict[str, str], stdin: str = "", cwd: Path | None = None,
            ) -> subprocess.CompletedProcess[str]:
        with monkeypatch.context() as m:
            if cwd is not None:
                m.chdir(cwd)
            for name in set(os.environ) - set(env):
                m.delenv(name)
            for name, value in env.items():
                m.setenv(name, value)
            m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
            root = logging.getLogger()
            m.setattr(root, "handlers", [])  # pytest's own: the command's basicConfig then logs to its stderr
            level = root.level
            capsys.readouterr()
            try:
                code = cli.main(argv)
            finally:
                root.setLevel(level)
            out, err = capsys.readouterr()
        return subprocess.CompletedProcess(argv, code, out, err)

    return run


HEAVY = os.environ.get("MEMVAULT_HEAVY") == "1"
FIGURES: list[str] = []
_RUNNING: list[pytest.Item] = []  # the test this process runs (pytest-xdist workers run one at a time)
_FIGURE = "memvault figure"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _RUNNING[:] = [item]


def figure(text: str) -> None:
    """Record a reliability figure; all of them are printed at the end of the run. It travels
    with the test's report, so a pytest-xdist worker's figures reach the summary too."""
    _RUNNING[0].user_properties.append((_FIGURE, text))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "teardown":
        FIGURES.extend(str(value) for name, value in report.user_properties if name == _FIGURE)


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    if FIGURES:
        terminalreporter.section("memvault figures")
        for line in FIGURES:
            terminalreporter.write_line(line)
