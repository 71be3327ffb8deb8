"""What ``remember``'s look-alike scope check (``RememberOutcome.lookalike_scope``) costs.

    python bench/remember_scope_check.py [--scopes 1 1000] [--count 200]

A new SQLite file (fake 64-dim embedder, so that the store's own work shows) whose tenant holds one
memory in each of ``--scopes`` scopes; ``--count`` remembers of new content into one of them are timed
(median µs), and, in the same run, the check alone as it was (every scope of the tenant counted and
folded) and as it is (the scope's own counts; the others only when it holds none).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fakes import FakeEmbedder  # noqa: E402

from memvault.storage import validate  # noqa: E402
from memvault.storage.query import Filters  # noqa: E402
from memvault.storage.store import Store  # noqa: E402
from tenant_lookup import median_us  # noqa: E402  (bench/ is this script's folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scopes", type=int, nargs="+", default=[1, 1_000])
    parser.add_argument("--count", type=int, default=200)
    args = parser.parse_args()
    print(f"{'scopes':>6} {'remember µs':>11} {'check was µs':>12} {'check is µs':>11} {'ratio':>6}")
    for scopes in args.scopes:
        with tempfile.TemporaryDirectory() as folder:
            store = Store(str(Path(folder) / "m.db"), FakeEmbedder())  # type: ignore[arg-type]
            for s in range(scopes):
                store.remember(tenant="t", scope=f"scope{s}", content=f"Scope {s} holds the deploy notes")
            n = iter(range(10**9))
            remember = median_us(lambda: store.remember(  # noqa: B023
                tenant="t", scope="scope0", content=f"Note {next(n)}: the build passed"), args.count)  # noqa: B023

            def was() -> object:
                with store.backend.read("t") as tx:
                    return validate.lookalike("scope0", {s for s, _ in tx.counts(  # noqa: B023
                        Filters(tenant="t", scopes=None, now=store.clock()))})  # noqa: B023

            def now_is() -> object:
                with store.backend.read("t") as tx:
                    if tx.counts(Filters(tenant="t", scopes=["scope0"], now=store.clock())):  # noqa: B023
                        return None
                    return validate.lookalike("scope0", {s for s, _ in tx.counts(  # noqa: B023
                        Filters(tenant="t", scopes=None, now=store.clock()))})  # noqa: B023

            before, after = median_us(was, args.count), median_us(now_is, args.count)
            print(f"{scopes:>6} {remember:>11.0f} {before:>12.0f} {after:>11.0f} {before / after:>6.1f}")
            store.close()


if __name__ == "__main__":
    main()
