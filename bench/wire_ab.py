"""Two codes' ``memvault serve`` side by side over raw JSON-RPC stdio, each request sent to both in
alternating order (load drifts alike for both): p50 ms per call, the servers' CPU over the run, and
how many replies differ.

Usage: python bench/wire_ab.py PYTHON_A PYTHON_B DB [ROUNDS]

PYTHON_A / PYTHON_B: the interpreters of two environments (each runs its own memvault, e.g. a
checkout of main and this one); DB: a store (``bench/scale.py``'s), copied for each server; the
environment variables EXTRA_A / EXTRA_B: ``K=V,K=V`` added to that server's environment (e.g.
``MEMVAULT_CONSOLIDATE_HOURS=0,MEMVAULT_CONSOLIDATE_AFTER_WRITES=0``: without background consolidation,
whose pace differs between two servers, every boot reply is the same too). A round: (boot, listing,
``server/discover``) four times and five LoCoMo-like recalls, five times over, then 10 remember and 10 forget.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "bench-raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}}
QUESTIONS = ["When did Caroline go to the LGBTQ support group?", "What did Melanie paint recently?",
             "Where did Jon travel in May?", "What is Gina's favourite dance style?",
             "Which book did Tim recommend?"]


class Server:
    def __init__(self, python, db, extra):
        env = {**os.environ, "MEMVAULT_DB": db, "MEMVAULT_TENANT": "bench", "MEMVAULT_SCOPE": "s",
               "MEMVAULT_BOOT_TOKENS": "1500"}
        env.update(dict(kv.split("=", 1) for kv in extra.split(",") if kv))
        args = [python, "-m", "memvault.server", "serve"]
        self.p = subprocess.Popen(args, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.n = 0
        self.times, self.cpus, self.replies = {}, {}, {}

    def cpu(self):
        f = open(f"/proc/{self.p.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) * 1000 / os.sysconf("SC_CLK_TCK")

    def req(self, name, method, params=None, keep=True):
        self.n += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method,
                           "params": {**(params or {}), "_meta": META}}).encode() + b"\n"
        t = time.perf_counter()
        self.p.stdin.write(line)
        self.p.stdin.flush()
        while True:
            r = json.loads(self.p.stdout.readline())
            if r.get("id") == self.n:
                break
        ms = (time.perf_counter() - t) * 1000
        if "error" in r or r.get("result", {}).get("isError"):
            raise RuntimeError(r)
        if keep:
            self.times.setdefault(name, []).append(ms)
            self.replies.setdefault(name, []).append(r["result"])
        return r["result"]


python_a, python_b, db = sys.argv[1:4]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 4
dbs = []
for tag in "ab":
    copy = os.path.join(tempfile.mkdtemp(prefix="wire_ab"), f"{tag}.db")
    shutil.copy(db, copy)
    dbs.append(copy)
servers = [Server(python_a, dbs[0], os.environ.get("EXTRA_A", "")),
           Server(python_b, dbs[1], os.environ.get("EXTRA_B", ""))]
for s in servers:
    s.req("warm", "server/discover", keep=False)
    s.req("warm", "tools/call", {"name": "recall", "arguments": {"query": QUESTIONS[0], "limit": 5}}, keep=False)
time.sleep(float(os.environ.get("SETTLE", "5")))

calls = [("boot", "resources/read", {"uri": "memory://boot"}),
         ("listing", "tools/call", {"name": "recall", "arguments": {"query": "", "kinds": ["fact"], "limit": 10}}),
         ("discover", "server/discover", None)] * 4 + [
    ("recall", "tools/call", {"name": "recall", "arguments": {"query": q, "limit": 5}}) for q in QUESTIONS]
cpu0 = [s.cpu() for s in servers]
for r in range(rounds):
    for k in range(5):
        for name, method, params in calls:
            order = servers if (r + k) % 2 == 0 else servers[::-1]
            for s in order:
                s.req(name, method, params)
    ids = [[], []]
    for i in range(10):
        order = [0, 1] if (r + i) % 2 == 0 else [1, 0]
        for j in order:
            ids[j].append(servers[j].req("remember", "tools/call", {"name": "remember", "arguments": {
                "content": f"ab note {r} {i}"}})["structuredContent"]["id"])
    for i in range(10):
        order = [0, 1] if (r + i) % 2 == 0 else [1, 0]
        for j in order:
            servers[j].req("forget", "tools/call", {"name": "forget", "arguments": {"id": ids[j][i]}})
cpu = [s.cpu() - c for s, c in zip(servers, cpu0)]
for s in servers:
    s.p.stdin.close()
    s.p.wait(30)
a, b = servers
print(f"{'call':9s} {'A p50':>7s} {'B p50':>7s} {'B/A':>5s}   n")
for name in a.times:
    pa, pb = statistics.median(a.times[name]), statistics.median(b.times[name])
    print(f"{name:9s} {pa:7.2f} {pb:7.2f} {pb / pa:5.2f}   {len(a.times[name])}")
print(f"server CPU ms, whole run: A {cpu[0]:.0f}  B {cpu[1]:.0f}  B/A {cpu[1] / max(cpu[0], 1):.3f}")


def same(x, y):
    x = json.loads(json.dumps(x).replace(dbs[0], "DB"))
    y = json.loads(json.dumps(y).replace(dbs[1], "DB"))
    return x == y


diff = {n: sum(not same(x, y) for x, y in zip(a.replies[n], b.replies[n])) for n in a.replies
        if n not in ("remember", "forget")}
print("replies differing (of each kind):", diff)
for copy in dbs:
    shutil.rmtree(os.path.dirname(copy), ignore_errors=True)
