"""Whether two source trees of memvault find and redact the same credentials in the same texts.

Usage: ``python bench/secret_identity.py OLD_TREE NEW_TREE EVAL_FOLDER...`` (a tree: a checkout's root, e.g.
``git worktree add /tmp/scan_old 8a51871``). Each tree is imported in its own subprocess; both run
``secrets.find_secrets`` and ``secrets.redact`` on every memory, tag and question of the evaluation folders
(``bench/secret_false_positives.py``), every string literal of ``tests/test_secret*.py`` and the shapes of
``bench/secret_scan.py`` at several sizes. Prints how many texts were compared and each one whose findings or
redaction differ; exits 1 when one does.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SHAPE_SIZES = (300, 6_000)  # each shape, found (6,000: past secret_re2.MANY_MATCHES_BYTES); every 10th redacted
LARGE_SIZES = (64 * 1024, 256 * 1024)  # the shapes of bench/secret_scan.py's table, found only
LARGE_SHAPES = ("code_pw_proc3q\n", "code_pw_procoldq\n", "lozinka\n", "56\n", "secret\n", "ppasswort\n",
                "parolais\n", "pasovrton\n", "aadgangskode:", "AccountKey:", "ACCA")


def _worker(tree: str, texts_file: str, out_file: str) -> None:
    """Run ``tree``'s check on the texts of ``texts_file`` (``{"redact": [...], "find": [...]}``) into ``out_file``."""
    with tempfile.TemporaryDirectory() as folder:
        package = Path(folder, "memvault")
        package.mkdir()
        for part in ("storage", "server", "tools"):
            (package / part).symlink_to(Path(tree, part))
        sys.path.insert(0, folder)
        from memvault.storage import secrets

        assert Path(secrets.__file__).resolve().is_relative_to(Path(tree).resolve()), secrets.__file__
        texts = json.loads(Path(texts_file).read_text(encoding="utf-8"))
        found = secrets.find_secrets(*texts["redact"], *texts["find"])
        redacted = [list(secrets.redact(text)) for text in texts["redact"]]
    Path(out_file).write_text(json.dumps({"found": found, "redacted": redacted}), encoding="utf-8")


def _texts(folders: list[str]) -> dict[str, list[str]]:
    sys.path.insert(0, str(Path(__file__).parent))
    from secret_false_positives import texts as eval_texts
    from secret_scan import SUFFIXES, _text

    from memvault.storage.secrets import detectors

    literals = sorted({node.value for path in sorted(Path(__file__).parent.parent.glob("tests/test_secret*.py"))
                       for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                       if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip()})
    words = sorted({w for d in detectors() for p in d.denylist for w in re.findall(r"[A-Za-z0-9_]{2,}", p.pattern)})
    units = [word + SUFFIXES[i % len(SUFFIXES)] for i, word in enumerate(words)]
    evaluated = [text for folder in folders for _, text in eval_texts(Path(folder))]
    shapes = [_text(unit, size) for unit in units for size in SHAPE_SIZES]
    large = [_text(unit, size) for unit in LARGE_SHAPES for size in LARGE_SIZES]
    print(f"{len(evaluated):,} evaluation texts, {len(literals):,} test literals, {len(shapes):,} shapes, "
          f"{len(large)} large shapes", flush=True)
    return {"redact": [*evaluated, *literals, *shapes[::10]], "find": [*shapes, *large]}


def main(old: str, new: str, folders: list[str]) -> int:
    texts = _texts(folders)
    with tempfile.TemporaryDirectory() as folder:
        texts_file = Path(folder, "texts.json")
        texts_file.write_text(json.dumps(texts), encoding="utf-8")
        outs = [Path(folder, f"out{i}.json") for i in range(2)]
        runs = [subprocess.Popen([sys.executable, __file__, "--worker", tree, str(texts_file), str(out)])
                for tree, out in zip((old, new), outs)]
        if any(run.wait() for run in runs):
            raise SystemExit("a worker failed")
        results = [json.loads(out.read_text(encoding="utf-8")) for out in outs]
    every = [*texts["redact"], *texts["find"]]
    differ = [i for i, (a, b) in enumerate(zip(results[0]["found"], results[1]["found"], strict=True)) if a != b]
    differ += [i for i, (a, b) in enumerate(zip(results[0]["redacted"], results[1]["redacted"], strict=True)) if a != b]
    for i in sorted(set(differ)):
        print(f"differs: {every[i][:120]!r}")
    print(f"compared {len(every):,} texts (findings), {len(texts['redact']):,} (redactions): "
          f"{len(set(differ))} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1] == "--worker":
        _worker(*sys.argv[2:5])
    else:
        sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
