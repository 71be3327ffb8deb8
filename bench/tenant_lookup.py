"""What the OAuth verifier reads per token to refuse a look-alike tenant claim (``tenants.lookalike``),
with 10 and 5,000 API keys, against the scan it replaced (every tenant with memories, then every key).

    python bench/tenant_lookup.py [--rounds 300]

Keys of 20 tenants in a new SQLite file, one memory per tenant; times the lookup of a claimed tenant that
holds keys (every token of a known tenant) and of one that holds nothing (a new tenant's tokens).
Prints the median µs of each and the ratio old/new, measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fakes import FakeEmbedder  # noqa: E402

from memvault.storage import keys, tenants, validate  # noqa: E402
from memvault.storage.ids import new_id  # noqa: E402
from memvault.storage.maintenance import own  # noqa: E402
from memvault.storage.records import ApiKey  # noqa: E402
from memvault.storage.store import Store  # noqa: E402

TENANTS = 20


def scan(store: Store, tenant: str) -> str | None:
    """The lookup before: every tenant holding memories and every key read, then compared."""
    with store.backend.read(None) as tx:
        held = [k.tenant for k in tx.api_keys().values()]
    return validate.lookalike(tenant, [*own(store).tenants(), *held])


def median_us(fn: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    print(f"{'keys':>6} {'claim':>10} {'before µs':>10} {'after µs':>9} {'ratio':>6}")
    for count in (10, 5_000):
        with tempfile.TemporaryDirectory() as folder:
            store = Store(str(Path(folder) / "m.db"), FakeEmbedder())  # type: ignore[arg-type]
            for t in range(TENANTS):
                store.remember(tenant=f"tenant{t}", scope="default", content=f"Tenant {t}'s payroll vendor is Gusto")
            now = store.clock()
            with store.backend.write(None) as tx:
                for i in range(count):
                    tx.put_api_key(keys.digest(f"key{i}"), ApiKey(
                        id=new_id(), tenant=f"tenant{i % TENANTS}", scope="default", name=None, read_only=False,
                        created_at=now, expires_at=None, revoked_at=None))
            for claim in ("tenant3", "newcomer"):
                assert scan(store, claim) == tenants.lookalike(store, claim)
                before = median_us(lambda: scan(store, claim), args.rounds)  # noqa: B023
                after = median_us(lambda: tenants.lookalike(store, claim), args.rounds)  # noqa: B023
                print(f"{count:>6} {claim:>10} {before:>10.0f} {after:>9.0f} {before / after:>6.1f}")
            store.close()


if __name__ == "__main__":
    main()
