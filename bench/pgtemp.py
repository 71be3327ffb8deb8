"""PostgreSQL databases for the benchmarks: on a server you name, or on a temporary
one started with ``pgserver`` (the test extra's PostgreSQL + pgvector, no root).

    with databases(url_or_none) as new:
        url = new("bench_locomo")   # a new, empty database; dropped at the end
"""

from __future__ import annotations

import contextlib
import tempfile
import warnings
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit, urlunsplit


@contextlib.contextmanager
def databases(url: str | None) -> Iterator[Callable[[str], str]]:
    """A function making a new empty database per call (its ``postgresql://`` URL);
    the databases are dropped, and a temporary server stopped, at the end."""
    import psycopg

    with contextlib.ExitStack() as stack:
        if url is None:
            import pgserver

            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="memvault-bench-pg-"))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
                server = pgserver.get_server(folder, cleanup_mode="stop")
            stack.callback(server.cleanup)
            url = server.get_uri()
        made: list[str] = []

        def new(name: str) -> str:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{name}"')
            made.append(name)
            return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))

        try:
            yield new
        finally:
            with psycopg.connect(url, autocommit=True) as conn:
                for name in made:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
