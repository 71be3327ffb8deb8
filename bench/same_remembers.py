"""Whether a change leaves ``remember`` as it was: one sequence of memories remembered into two new
stores, by an older checkout's code and by this one's, every result and the stored rows compared.

Usage: python bench/same_remembers.py --base DIR [--turns 300] [--locomo DIR] [--agentic DIR]

The memories: the first ``--turns`` LoCoMo turns, then every memory of the agentic set (its kinds,
tags, importance and times: changes whose older versions a ``remember`` names as contradicted), each
side in a new SQLite file with the real model and one clock that moves a minute a memory. ``--base`` is a
checkout of the older code, imported by path in a subprocess (``bench/same_recalls.py``). Ids are new
on each side, so each is compared as the content it names. Compared per remember: created, similar,
contradicts (content and reason), newer, other scopes, degraded, the look-alike scope; then the stored
memories as ``memvault export`` writes them. Prints the counts and every difference; exits 1 on any.
Made for issue 28 (``remember``'s keyword candidates read while its embedding ends).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from same_recalls import LOCOMO, NOW, side_command

BENCH = Path(__file__).resolve().parent
AGENTIC = LOCOMO.parent / "agentic"


def remember_all(path: Path, memories: list[dict[str, object]]) -> dict[str, object]:
    """Each of ``memories`` remembered in order into a new store at ``path`` by the memvault this
    process imports: the results, and the export with every id written as its memory's content."""
    from memvault.storage.embeddings import Embedder
    from memvault.storage.store import Store
    from memvault.storage.transfer import export_lines

    embedder = Embedder()
    embedder.load()
    now = [NOW]
    store = Store(path, embedder, clock=lambda: now[0], upkeep=False)
    results = []
    for memory in memories:
        now[0] += 60_000
        o = store.remember(tenant="bench", scope="s", **memory)  # type: ignore[arg-type]
        results.append({"created": o.created, "id": o.id, "similar": list(o.similar),
                        "contradicts": [list(c) for c in o.contradicts], "newer": list(o.newer),
                        "other_scopes": [list(c) for c in o.other_scopes], "degraded": o.degraded,
                        "lookalike": o.lookalike_scope})
    lines = [json.loads(line) for line in export_lines(store, "bench")]
    store.close()
    content = {line["id"]: line.get("content") for line in lines if "id" in line}

    def named(value: object) -> object:
        if isinstance(value, str) and value in content:
            return f"<{content[value]}>"
        if isinstance(value, list):
            return [named(v) for v in value]
        if isinstance(value, dict):
            return {k: named(v) for k, v in value.items()}
        return value

    return {"results": named(results), "export": named(lines)}


def sequence(turns: int, locomo: Path, agentic: Path) -> list[dict[str, object]]:
    sys.path.insert(0, str(BENCH))
    from locomo_data import load

    conversations, _ = load(locomo)
    said = [t for ts in conversations.values() for t in ts][:turns]
    out: list[dict[str, object]] = [{"content": t.content, "observed_at": t.observed_at} for t in said]
    agents, _ = load(agentic)
    for t in (t for ts in agents.values() for t in ts):
        out.append({"content": t.content, "observed_at": t.observed_at, "kind": t.kind,
                    "tags": list(t.tags) or None, "importance": t.importance})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, help="a checkout of the older code")
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--agentic", type=Path, default=AGENTIC)
    parser.add_argument("--side", help=argparse.SUPPRESS)  # internal: one side's run, as JSON to stdout
    parser.add_argument("--store", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        import memvault.storage

        print(json.dumps({"code": str(Path(memvault.storage.__file__).resolve().parent),
                          **remember_all(args.store, json.loads(Path(args.side).read_text()))}))
        return
    memories = sequence(args.turns, args.locomo, args.agentic)
    with tempfile.TemporaryDirectory() as work:
        listed = Path(work) / "memories.json"
        listed.write_text(json.dumps(memories))
        sides = []
        for name, code in (("base", args.base), ("this", None)):
            command = side_command(code, Path(work) / name, __file__, "--side", str(listed),
                                   "--store", str(Path(work) / f"{name}.db"))
            sides.append(json.loads(subprocess.run(command, capture_output=True, text=True, check=True,
                                                   cwd=BENCH).stdout))
            print(f"{name}: {sides[-1]['code']}")
    found = []
    for n, (a, b) in enumerate(zip(sides[0]["results"], sides[1]["results"], strict=True)):
        if a != b:
            found.append(f"remember {n} differs: {a} / {b}")
    old, new = sides[0]["export"], sides[1]["export"]
    if len(old) != len(new):
        found.append(f"exported {len(old)} / {len(new)} lines")
    found += [f"exported line differs: {a} / {b}" for a, b in zip(old, new) if a != b]
    for line in found:
        print(line)
    results = sides[0]["results"]
    print(f"remembers {len(results)} (created {sum(r['created'] for r in results)}, naming contradictions "
          f"{sum(bool(r['contradicts']) for r in results)}, similar {sum(bool(r['similar']) for r in results)}), "
          f"exported lines {len(old)}, differences {len(found)}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
