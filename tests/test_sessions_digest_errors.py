"""The session digest's "Errors:" line quotes the line of a tool's output that says the error: a
traceback's exception, else the first line with an error word; not the mark a failed result starts
with, nor the output's first line. Asserted on the digest stored."""

from __future__ import annotations

import pytest

from memvault.storage.digest import FAILED_MARK
from memvault.storage.records import NewTurn

MIGRATION = "Error: migration 42 failed: column users.email already exists"
OUTPUTS = {
    # the trial's case: a failed result (marked), the error on the output's 4th line
    "marked-4th-line": (FAILED_MARK + "Deploying...\nbuilding image\npushing image\n" + MIGRATION + "\nrolled back",
                        MIGRATION),
    "unmarked-4th-line": ("Deploying...\nbuilding image\npushing image\n" + MIGRATION, MIGRATION),
    "traceback": ("running job\nTraceback (most recent call last):\n  File \"job.py\", line 3, in <module>\n"
                  "    main()\n  File \"job.py\", line 2, in main\n    raise KeyError('email')\nKeyError: 'email'\n",
                  "KeyError: 'email'"),
    "chained-traceback": ("Traceback (most recent call last):\n  File \"a.py\", line 1\nValueError: first\n\n"
                          "During handling of the above exception, another exception occurred:\n\n"
                          "Traceback (most recent call last):\n  File \"a.py\", line 4\n"
                          "RuntimeError: migration 42 failed", "RuntimeError: migration 42 failed"),
    "rust": ("   Compiling app v0.1.0\nerror[E0308]: mismatched types\n --> src/main.rs:4:5",
             "error[E0308]: mismatched types"),
    "npm": ("> build\n> tsc\nnpm ERR! code ELIFECYCLE\nnpm ERR! errno 2", "npm ERR! code ELIFECYCLE"),
    "marked-no-word": (FAILED_MARK + "\nexit status 3\n", "error: exit status 3"),
    "pytest": ("collected 3 items\n\nFAILED tests/test_a.py::test_b - AssertionError", "FAILED tests/test_a.py::test_b"),
}


@pytest.mark.parametrize("name", list(OUTPUTS))
def test_the_errors_line_quotes_the_line_that_says_the_error(store, name):
    output, quoted = OUTPUTS[name]
    store.episodes.append(tenant="default", scope="default", session_id="s1", turns=[
        NewTurn("user", "deploy it"),
        NewTurn("tool", "command: ./deploy.sh", tool="Bash", call_id="c1"),
        NewTurn("tool", output, tool="Bash", call_id="c1"),
    ])
    ended = store.episodes.end(tenant="default", session_id="s1")
    digest = store.get(tenant="default", id=ended.digest_id).content or ""
    errors = [line for line in digest.splitlines() if line.startswith("Errors:")]
    assert len(errors) == 1 and errors[0].startswith(f'Errors: Bash (turn 3): "{quoted[:40]}'), digest
    assert "Deploying" not in errors[0] and "running job" not in errors[0]


@pytest.mark.parametrize("output", ["3 passed in 0.2s", "all good",
                                    "mirror updated; terror.txt renamed"])
def test_output_that_says_no_error_gives_no_errors_line(store, output):
    store.episodes.append(tenant="default", scope="default", session_id="s2", turns=[
        NewTurn("tool", output, tool="Bash", call_id="c1")])
    ended = store.episodes.end(tenant="default", session_id="s2")
    assert "Errors:" not in (store.get(tenant="default", id=ended.digest_id).content or "")
