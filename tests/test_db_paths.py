"""A relative database path: refused where the folder it is read from is chosen by
whoever starts the process (MEMVAULT_DB, ``serve --db``), read from the shell's folder
for a command a person types; a refused path creates no file anywhere."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

MEMVAULT = [sys.executable, "-m", "memvault.server"]


def run(cwd, *argv: str, db: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env["HOME"] = str(cwd)
    if db is not None:
        env["MEMVAULT_DB"] = db
    return subprocess.run([*MEMVAULT, *argv], cwd=cwd, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=180)


@pytest.fixture
def here(cli_here):  # type: ignore[no-untyped-def]
    """:func:`run` in this process (conftest's ``cli_here``), for how a path is read; a process refusing one
    is :func:`test_serve_refuses_a_relative_db_flag`'s."""

    def run_here(cwd, *argv: str, db: str | None = None) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
        env["HOME"] = str(cwd)
        if db is not None:
            env["MEMVAULT_DB"] = db
        return cli_here(list(argv), env, cwd=cwd)

    return run_here


RELATIVE = ["memvault.db", "./memvault.db", "data/memvault.db", "../memvault.db", " memvault.db"]


@pytest.mark.parametrize("relative", RELATIVE)
@pytest.mark.parametrize("argv", [["serve"], ["remember", "The build runs on Fridays"], ["list"], []])
def test_a_relative_memvault_db_is_refused_and_creates_nothing(tmp_path, relative, argv, here):
    where = tmp_path / "client-folder"
    where.mkdir()
    refused = here(where, *argv, db=relative)
    assert refused.returncode == 2, refused.stderr
    assert "MEMVAULT_DB: " in refused.stderr and "is a relative path" in refused.stderr
    # the absolute path it would have been, written plainly (trial verify66 N11: ".../rel/../rel/rel.db")
    assert repr(os.path.normpath(os.path.join(where, relative.strip()))) in refused.stderr, refused.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["client-folder"]


@pytest.mark.parametrize("relative", RELATIVE[:3])
def test_serve_refuses_a_relative_db_flag(tmp_path, relative):
    refused = run(tmp_path, "serve", "--db", relative)
    assert refused.returncode == 2 and "--db: " in refused.stderr and "is a relative path" in refused.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_command_typed_with_a_relative_db_flag_uses_the_shell_s_folder_and_says_where(tmp_path, here):
    stored = here(tmp_path, "remember", "The build runs on Fridays", "--db", "mine.db")
    assert stored.returncode == 0 and str(tmp_path / "mine.db") in stored.stderr
    assert (tmp_path / "mine.db").is_file()


def test_a_path_under_home_in_memvault_db_is_absolute(tmp_path, here):
    (tmp_path / "notes").mkdir()  # remember makes a database, not its folders
    stored = here(tmp_path, "remember", "The build runs on Fridays", db="~/notes/memvault.db")
    assert stored.returncode == 0, stored.stderr
    assert (tmp_path / "notes" / "memvault.db").is_file()


def test_serve_logs_the_absolute_database_path(tmp_path):
    db = tmp_path / "m.db"
    served = subprocess.run([*MEMVAULT, "serve"], env={**os.environ, "MEMVAULT_DB": str(db)}, input="",
                            capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert f"database {db}" in served.stderr


@pytest.mark.parametrize("argv", [["remember", "x"], ["import", "-"], ["setup", "claude-code", "--write"]])
def test_a_path_through_a_missing_folder_is_refused_and_that_folder_is_not_made(tmp_path, argv, here):
    """``nope/../real/m.db`` needs ``nope`` to be opened: it is refused as a missing folder, not made."""
    (tmp_path / "real").mkdir()
    db = tmp_path / "nope" / ".." / "real" / "m.db"
    result = here(tmp_path, *argv, "--db", str(db))
    assert result.returncode == 2 and f"the folder '{tmp_path / 'nope'}' does not exist" in result.stderr
    assert not (tmp_path / "nope").exists() and list((tmp_path / "real").iterdir()) == []


def test_a_hook_given_a_path_through_a_missing_folder_makes_nothing(tmp_path):
    (tmp_path / "real").mkdir()
    db = tmp_path / "nope" / ".." / "real" / "m.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env["HOME"] = str(tmp_path)
    result = subprocess.run([*MEMVAULT, "hook", "claude-code", "SessionStart", "--db", str(db)], cwd=tmp_path,
                            env=env, input='{"session_id": "s1"}', capture_output=True, text=True, timeout=180)
    assert result.returncode == 1 and "does not exist, and a hook makes no database" in result.stderr
    assert not (tmp_path / "nope").exists() and list((tmp_path / "real").iterdir()) == []


def test_the_default_databases_folder_is_the_one_made(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data" / "share"))
    result = subprocess.run([*MEMVAULT, "keys", "create", "--tenant", "t"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=180)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "data" / "share" / "memvault" / "memvault.db").is_file()


def _unfollowed(folder, case: str) -> str:
    """A database path the system cannot look up: through a symbolic link loop, or with a name too long."""
    (folder / "loop").symlink_to(folder / "loop")
    return {"a link loop": str(folder / "loop"), "a folder that is a link loop": str(folder / "loop" / "m.db"),
            "a name too long": str(folder / ("a" * 300 + ".db")),
            "a path too long": str(folder / "/".join(["b" * 200] * 25) / "m.db")}[case]


UNFOLLOWED = {"a link loop": "leads back to itself", "a folder that is a link loop": "leads back to itself",
              "a name too long": "longer than the file system allows",
              "a path too long": "longer than the file system allows"}


@pytest.mark.parametrize("case", UNFOLLOWED)
@pytest.mark.parametrize("argv", [["doctor"], ["recall", "printer"], ["remember", "The printer is on floor 3."],
                                  ["serve", "--transport", "http", "--port", "9"], ["serve"]])
def test_a_path_the_system_cannot_follow_is_refused_by_every_command_saying_why(tmp_path, case, argv, here):
    """A link loop was "no database yet" to doctor and recall and a RuntimeError traceback to remember; a
    name too long a traceback to every command, serve included. Nothing is made beside them."""
    db = _unfollowed(tmp_path, case)
    result = here(tmp_path, *argv, db=db)
    assert result.returncode == 2, result.stderr
    assert f"MEMVAULT_DB: {db!r} cannot be opened: " in result.stderr and UNFOLLOWED[case] in result.stderr
    assert "Traceback" not in result.stderr and sorted(p.name for p in tmp_path.iterdir()) == ["loop"]
