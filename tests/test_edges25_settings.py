"""A model folder the user names that cannot work is refused at start, naming the setting and the
missing file; without the setting the packaged model is used as before (issue 25, round 3)."""

from __future__ import annotations

import subprocess

import pytest
from conftest import SERVE, server_env

from memvault.server import config


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
def test_a_model_folder_without_its_files_is_refused_naming_the_variable(tmp_path, monkeypatch, files, said):
    monkeypatch.setenv("MEMVAULT_MODEL_DIR", str(folder(tmp_path, files)))
    with pytest.raises(ValueError, match="^MEMVAULT_MODEL_DIR: ") as refused:
        config.load(db=str(tmp_path / "m.db"))
    assert said in str(refused.value)


def test_a_model_folder_with_both_files_and_no_setting_are_accepted(tmp_path, monkeypatch):
    made = folder(tmp_path, {"model.onnx": b"x", "tokenizer.json": b"{}"})  # loading it says more, later
    assert config.load(db=str(tmp_path / "m.db"), model_dir=str(made)).model_dir == made
    monkeypatch.delenv("MEMVAULT_MODEL_DIR", raising=False)
    assert config.load(db=str(tmp_path / "m.db")).model_dir is None  # the packaged model, as before


def test_the_flag_is_named_and_the_server_does_not_start(tmp_path):
    made = folder(tmp_path, {})
    done = subprocess.run([*SERVE, "--model-dir", str(made)], env=server_env(tmp_path / "m.db"),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--model-dir: " in done.stderr and "has no model.onnx" in done.stderr
    assert done.stdout == "" and not (tmp_path / "m.db").exists()  # stdio clean, nothing made
