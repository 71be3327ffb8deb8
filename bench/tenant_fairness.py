"""One tenant's load against another tenant's writes on the team server.

    python bench/tenant_fairness.py [--keys 2] [--calls-per-key 2] [--rounds 20] [--memvault PATH]

Starts ``memvault serve --transport http`` (API keys, no rate limit; ``--memvault``: another
checkout's ``memvault`` executable, to compare two versions) on a new SQLite file. Tenant
"heavy" gets ``--keys`` keys, each sending ``--calls-per-key`` remembers at once, without
pause, of long punctuation-dense text (many embedding windows each); tenant "light" sends one
short remember at a time. Reports light's remember latency p50/p95 alone, then under heavy's
load, and their ratio (measured in the same run). The adversarial pass of stop 47 measured
6-11 times with two keys before a tenant's callers shared its turns (``server/runtime.py``).
``--load keys``: heavy's calls are instead ``recall`` bodies of 20,000 unknown argument keys
(243 KiB), whatever the answer (adversarial pass 57 F3: work before the caller's turn).
``--load arrays``: ``ping`` bodies whose ``_meta`` holds 85,000 empty arrays (255 KB, no key;
adversarial pass 59 F1: parsed on the event loop before the 2,000-key limit could count them).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from httpwire import new_key  # noqa: E402

HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
_ids = itertools.count(1)


def _remember(client: httpx.Client, url: str, key: str, content: str) -> float:
    """Seconds one remember took (raises on a non-200 answer or a tool error)."""
    body = {"jsonrpc": "2.0", "id": next(_ids), "method": "tools/call",
            "params": {"name": "remember", "arguments": {"content": content}}}
    start = time.perf_counter()
    answer = client.post(url, json=body, headers={**HEADERS, "authorization": f"Bearer {key}"}, timeout=300)
    took = time.perf_counter() - start
    answer.raise_for_status()
    if answer.json().get("result", {}).get("isError"):
        raise RuntimeError(answer.text[:300])
    return took


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _light(url: str, key: str, rounds: int, tag: str) -> list[float]:
    with httpx.Client() as client:
        return [_remember(client, url, key, f"Light note {tag} {i}: the cache on host c{i} was warmed.")
                for i in range(rounds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=2)
    parser.add_argument("--calls-per-key", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--memvault", default=str(Path(sys.executable).parent / "memvault"))
    parser.add_argument("--load", choices=["remember", "keys", "arrays"], default="remember")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "m.db"
        light = new_key(db, "light")
        heavy = [new_key(db, "heavy") for _ in range(args.keys)]
        port = _free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        env = {**os.environ, "MEMVAULT_DB": str(db), "HOME": folder}
        log = (Path(folder) / "server.log").open("w")
        server = subprocess.Popen([args.memvault, "serve", "--transport", "http", "--port", str(port)],
                                  env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        stop = threading.Event()
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    sys.exit(f"the server did not start: {(Path(folder) / 'server.log').read_text()[-2000:]}")
                time.sleep(0.3)
            _light(url, light, 3, "warm")
            alone = _light(url, light, args.rounds, "alone")
            # a long text of short punctuated tokens: the most windows per character
            dense = " ".join(f"k{i}=v{i};" for i in range(4000))[:7900]  # under the 8,000-character limit
            sent, failed = [0], []

            keys_body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "name": "recall", "arguments": {"query": "x", **{f"k{i}": 0 for i in range(20_000)}}}})
            if args.load == "arrays":
                keys_body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping",
                                        "params": {"_meta": {"x": [[]] * 85_000}}}, separators=(",", ":"))

            def hammer(key: str) -> None:
                with httpx.Client() as client:
                    while not stop.is_set():
                        try:
                            if args.load in ("keys", "arrays"):  # any answer: refused or not, it was read
                                client.post(url, content=keys_body, timeout=300,
                                            headers={**HEADERS, "authorization": f"Bearer {key}"})
                            else:
                                _remember(client, url, key, f"{sent[0]} {dense}"[:7990])
                        except Exception as exc:  # said below: a bench whose load failed measures nothing
                            failed.append(exc)
                            return
                        sent[0] += 1

            workers = [threading.Thread(target=hammer, args=(k,), daemon=True)
                       for k in heavy for _ in range(args.calls_per_key)]
            for worker in workers:
                worker.start()
            time.sleep(3)
            loaded = _light(url, light, args.rounds, "loaded")
        finally:
            stop.set()
            server.terminate()
            server.wait(60)
            log.close()

    def p(xs: list[float], q: float) -> float:
        return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] * 1000

    if failed:
        sys.exit(f"heavy's remembers failed: {failed[0]}")
    print(f"heavy: {args.keys} keys x {args.calls_per_key} calls at once, {sent[0]} {args.load} bodies sent")
    print(f"light remember alone:  p50 {p(alone, 0.5):8.1f} ms  p95 {p(alone, 0.95):8.1f} ms")
    print(f"light remember loaded: p50 {p(loaded, 0.5):8.1f} ms  p95 {p(loaded, 0.95):8.1f} ms")
    print(f"ratio loaded/alone: p50 {statistics.median(loaded) / statistics.median(alone):.1f}x")


if __name__ == "__main__":
    main()
