"""A server warms the credential check up at start (``Store.warm_up``): on a cold process the first
``remember`` paid RE2's compilation of the detectors and their first DFA states, about 2 s on a loaded
machine, refusals too (trial 60 #14). Each case runs in a fresh process, whose caches start empty."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
from memvault.storage import secret_named
from memvault.storage.store import Store
store = Store(sys.argv[1], None, allow_secrets=sys.argv[2] == "allow")
store.warm_up()
compiled = secret_named._named_pattern.cache_info().currsize
found = store.remember(tenant="t", scope="s", content="Warm-up leaves the store as it was.").created
store.close()
print(json.dumps({"compiled": compiled, "every": len(secret_named.named_sources()), "created": found}))
"""


@pytest.mark.parametrize("secrets", ["refuse", "allow"])
def test_warm_up_compiles_every_credential_pattern_unless_secrets_are_allowed(tmp_path, secrets):
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "m.db"), secrets], capture_output=True,
                          text=True, timeout=300, check=True)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["created"] is True
    assert seen["compiled"] == (seen["every"] if secrets == "refuse" else 0), seen
