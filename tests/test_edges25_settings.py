"""A model folder the user names that cannot work is refused at start, naming the setting and the
missing file; without the setting the packaged model is used as before (issue 25, round 3)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import SERVE, server_env

MEMVAULT = [sys.executable, "-m", "memvault.server"]


def folder(tmp_path, files: dict[str, bytes]):
    made = tmp_path / "model"
    made.mkdir()
    for name, data in files.items():
        (made / name).write_bytes(data)
    return made


CASES = [
    ({}, "has no model.onnx and no tokenizer.json"),
    ({"model.onnx": b"x"}, "has no tokenizer.json"),
    ({"tokenizer.json": b"{}"}, "has no model.onnx"),
    ({"model.onnx": b"", "tokenizer.json": b"{}"}, "holds an empty model.onnx"),
]


@pytest.mark.parametrize("files, said", CASES)
@pytest.mark.parametrize("command", [["recall", "deploy"], ["remember", "a fact"]])
def test_a_model_folder_without_its_files_is_refused_naming_the_variable(tmp_path, files, said, command):
    made = folder(tmp_path, files)
    db = tmp_path / "memvault.db"
    done = subprocess.run([*MEMVAULT, *command], env=server_env(db, MEMVAULT_MODEL_DIR=str(made)),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("memvault: MEMVAULT_MODEL_DIR: ") and said in done.stderr
    assert not db.exists()  # nothing written in keyword-only mode


def test_the_flag_is_named_when_the_folder_came_from_it_and_the_server_does_not_start(tmp_path):
    made = folder(tmp_path, {})
    done = subprocess.run([*SERVE, "--model-dir", str(made)], env=server_env(tmp_path / "m.db"),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--model-dir: " in done.stderr and "has no model.onnx" in done.stderr
    assert done.stdout == ""  # stdio stays clean: the client sees the process end, the log says why
