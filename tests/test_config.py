"""Settings: every path setting expands variables and ``~``; every setting is checked
at start, and a bad one stops the process with a message naming it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SERVE, server_env

from memvault.server import config

MEMVAULT = [sys.executable, "-m", "memvault.server"]


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    (home / "models").mkdir(parents=True)
    for name in ("model.onnx", "tokenizer.json"):  # a folder without them is refused (test_edges25_settings.py)
        (home / "models" / name).write_text("x")
    (home / "afile").write_text("not a folder")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MV_SUB", "sub")
    for name in config.SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(home)
    return home


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("db", "$HOME/mv/m.db", "mv/m.db"), ("db", "${HOME}/m.db", "m.db"), ("db", "~/m.db", "m.db"),
        ("db", "~/$MV_SUB/${MV_SUB}.db", "sub/sub.db"), ("db", "rel/m.db", "rel/m.db"),
        ("model_dir", "$HOME/models", "models"), ("model_dir", "${HOME}/models", "models"),
        ("model_dir", "~/models", "models"),
    ],
)
def test_paths_expand_variables_and_tilde_and_are_made_absolute(home, monkeypatch, name, value, expected):
    other = {} if name == "db" else {"db": "m.db"}
    assert getattr(config.load(**other, **{name: value}), name) == Path(os.path.abspath(home / expected))
    monkeypatch.setenv(f"MEMVAULT_{name.upper()}", value)
    if name == "db" and not value.startswith(("$", "~")):  # a relative MEMVAULT_DB: refused (test_db_paths)
        with pytest.raises(ValueError, match="is a relative path"):
            config.load(**other)
        return
    assert getattr(config.load(**other), name) == Path(os.path.abspath(home / expected))


BAD_SETTINGS = [
    ("MEMVAULT_DB", "$NO_SUCH_VARIABLE/m.db", "$NO_SUCH_VARIABLE"),
    ("MEMVAULT_DB", "${NO_SUCH_VARIABLE:-x}/m.db", "is not set"),
    ("MEMVAULT_DB", "~", "is a folder"),
    ("MEMVAULT_DB", "   ", "is only white space"),
    ("MEMVAULT_DB", "~/models/../afile/sub/m.db", "is a file"),
    ("MEMVAULT_MODEL_DIR", "~/no-such-folder", "is not a folder"),
    ("MEMVAULT_MODEL_DIR", "$NOPE", "$NOPE"),
    ("MEMVAULT_SCOPE", "s" * 129, "the limit is 128"),
    ("MEMVAULT_SCOPE", "   ", "is only white space; it must be 1-128 characters"),
    ("MEMVAULT_TENANT", "t" * 200, "the limit is 128"),
    ("MEMVAULT_TENANT", " \t ", "is only white space; it must be 1-128 characters"),
    ("MEMVAULT_TENANT", "a\x00b", "NUL"),
    ("MEMVAULT_SCOPE", "lone \udcff byte", "Unicode"),
    ("MEMVAULT_BOOT_TOKENS", "lots", "must be an integer from 200 to 100,000 tokens; got 'lots'"),
    ("MEMVAULT_BOOT_TOKENS", "199", "must be an integer from 200 to 100,000 tokens; got 199"),
    ("MEMVAULT_BOOT_TOKENS", "100001", "200 to 100,000"),
    ("MEMVAULT_ALLOW_SECRETS", "maybe", "1/true/yes"),
]


@pytest.mark.parametrize(("name", "value", "says"), BAD_SETTINGS)
def test_a_bad_setting_is_refused_naming_the_variable_and_the_flag(home, monkeypatch, name, value, says):
    if "\x00" not in value:  # the environment cannot hold NUL; the flag path can
        monkeypatch.setenv(name, value)
        with pytest.raises(ValueError, match=f"^{name}: ") as caught:  # the variable, not the flag
            config.load(db=None if name == "MEMVAULT_DB" else "m.db")
        assert says in str(caught.value)
        monkeypatch.delenv(name)
    flag = {"MEMVAULT_DB": "db", "MEMVAULT_BOOT_TOKENS": "boot_tokens", "MEMVAULT_ALLOW_SECRETS": None}.get(
        name, name.removeprefix("MEMVAULT_").lower()
    )
    if flag is not None:
        kwargs = {"db": "m.db", flag: value}
        with pytest.raises(ValueError, match="^--" + flag.replace("_", "-") + ": ") as caught:
            config.load(**kwargs)
        assert says in str(caught.value)


def test_an_unknown_memvault_variable_is_reported(home, monkeypatch, caplog):
    monkeypatch.setenv("MEMVAULT_SCOPES", "typo")
    config.load(db="m.db")
    assert any("MEMVAULT_SCOPES is not a memvault setting" in r.getMessage() for r in caplog.records)


def test_good_settings_are_trimmed_and_kept(home, monkeypatch):
    monkeypatch.setenv("MEMVAULT_SCOPE", "project-x")  # a name: never trimmed (below)
    monkeypatch.setenv("MEMVAULT_TENANT", "acme")
    monkeypatch.setenv("MEMVAULT_BOOT_TOKENS", "500\t")
    monkeypatch.setenv("MEMVAULT_ALLOW_SECRETS", "Yes ")
    loaded = config.load(db="m.db")
    assert (loaded.scope, loaded.tenant, loaded.boot_tokens, loaded.allow_secrets) == ("project-x", "acme", 500, True)
    assert config.load(db="m.db", scope="flag-wins").scope == "flag-wins"


@pytest.mark.parametrize("value", ["acme ", " acme", "acme\t", "acme\n", "acme\u00a0", "\u00a0acme"])
@pytest.mark.parametrize("setting", ["tenant", "scope"])
def test_a_padded_tenant_or_written_scope_is_refused_not_trimmed(home, monkeypatch, value, setting):
    """The tools refuse "Default " (a name has no white space at its ends); a setting is not trimmed into
    another name silently either (trial verify61 N7)."""
    variable = f"MEMVAULT_{setting.upper()}"
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=f"^{variable}: "):
        config.load(db="m.db")
    monkeypatch.delenv(variable)
    with pytest.raises(ValueError, match=f"^--{setting}: "):
        config.load(db="m.db", **{setting: value})


@pytest.mark.parametrize("value", ["\uff57ork", "\u0410\u0421\u041c\u0415", "two  spaces"])
def test_a_scope_no_memory_may_be_stored_under_is_refused_where_it_would_be_written_to(home, monkeypatch, value):
    """Adversarial pass: such a default scope was accepted at start, then every remember without a
    scope failed naming the argument `scope`. A command that stores memories refuses it at once,
    naming the variable or the flag; a filter (list, recall) still reads scopes stored before."""
    monkeypatch.setenv("MEMVAULT_SCOPE", value)
    with pytest.raises(ValueError, match="^MEMVAULT_SCOPE: "):
        config.load(db="m.db")
    assert config.load(db="m.db", reading=True).scope == value  # as written: checked once the database is open
    monkeypatch.delenv("MEMVAULT_SCOPE")
    with pytest.raises(ValueError, match="^--scope: "):
        config.load(db="m.db", scope=value)


def test_a_blank_database_flag_is_refused_not_taken_for_a_file_or_the_current_folder(home):
    for value, says in (("   ", "is only white space"), ("", "is empty")):
        with pytest.raises(ValueError, match=f"^--db: {says}"):
            config.load(db=value)
    assert not [p for p in home.iterdir() if not p.name.strip()]  # no file named with blanks


@pytest.mark.slow
@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"MEMVAULT_SCOPE": "x" * 200}, "MEMVAULT_SCOPE"),
        ({"MEMVAULT_TENANT": "   "}, "MEMVAULT_TENANT"),
        ({"MEMVAULT_SCOPE": "\uff57ork"}, "MEMVAULT_SCOPE: holds U+FF57"),
        ({"MEMVAULT_BOOT_TOKENS": "2k"}, "MEMVAULT_BOOT_TOKENS"),
        ({"MEMVAULT_DB": "$UNSET_FOR_MEMVAULT/m.db"}, "$UNSET_FOR_MEMVAULT"),
    ],
)
def test_the_server_refuses_to_start_on_a_bad_setting(tmp_path, env, says):
    run = subprocess.run(SERVE, env={**server_env(tmp_path / "m.db"), **env}, input="", capture_output=True,
                         text=True, timeout=60, cwd=tmp_path)
    assert run.returncode != 0 and says in run.stderr and run.stdout == ""
    assert [p.name for p in tmp_path.iterdir()] == []  # nothing created, not even the database


@pytest.mark.slow
def test_an_unexpanded_home_creates_the_database_under_home_and_logs_its_absolute_path(tmp_path):
    home, work = tmp_path / "home", tmp_path / "work"
    (home / "mv").mkdir(parents=True)  # remember makes a database, not its folders
    work.mkdir()
    env = {**server_env(Path("unused")), "HOME": str(home), "MEMVAULT_DB": "$HOME/mv/m.db"}
    run = subprocess.run([*MEMVAULT, "remember", "stored under home"], env=env, capture_output=True, text=True,
                         timeout=120, cwd=work)
    assert run.returncode == 0, run.stderr
    assert (home / "mv" / "m.db").is_file() and list(work.iterdir()) == []
    flag = subprocess.run([*MEMVAULT, "remember", "via the flag", "--db", "~/flag.db"], env=env, capture_output=True,
                          text=True, timeout=120, cwd=work)
    assert flag.returncode == 0 and (home / "flag.db").is_file() and list(work.iterdir()) == []
    serve = subprocess.run(SERVE, env=env, input="", capture_output=True, text=True, timeout=60, cwd=work)
    assert serve.returncode == 0 and f"database {home / 'mv' / 'm.db'}" in serve.stderr


def test_sqlite_use_never_imports_the_postgresql_driver(tmp_path):
    """The default install has no psycopg: nothing on the SQLite path may import it."""
    code = (
        "import sys\n"
        "from memvault.server import cli\n"
        "from memvault.storage.store import Store\n"
        f"s = Store({str(tmp_path / 'm.db')!r})\n"
        "s.remember(tenant='t', scope='s', content='a note'); s.recall(tenant='t', query='note', scopes=['s'])\n"
        "s.close()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg_pool', 'pgvector')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]"


def test_a_postgresql_url_is_kept_as_given_and_shown_without_its_password(monkeypatch):
    monkeypatch.setenv("MEMVAULT_DB", "postgresql://memvault:s3cret@db.example:5433/memvault?sslmode=require")
    loaded = config.load()
    assert loaded.db == "postgresql://memvault:s3cret@db.example:5433/memvault?sslmode=require"
    assert loaded.db_label == "postgresql://memvault:***@db.example:5433/memvault?sslmode=require"
    assert loaded.db_exists()


def test_a_postgresql_url_without_the_postgres_extra_names_the_extra(monkeypatch):
    """Up front (exit 2 from the CLI) and from the store itself: never a bare ModuleNotFoundError."""
    import importlib.util

    from memvault.storage.errors import StoreError
    from memvault.storage.store import Store

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "psycopg" else real(name, *a))
    monkeypatch.setenv("MEMVAULT_DB", "postgresql://memvault:s3cret@db.example/memvault")
    with pytest.raises(ValueError, match=r'postgres extra, and psycopg is not installed: pip install "memvault\[postgres\]"'):
        config.load()
    monkeypatch.setitem(sys.modules, "memvault.storage.postgres", None)  # as if psycopg could not be imported
    with pytest.raises(StoreError, match=r"postgres extra .*pip install") as caught:
        Store("postgresql://memvault:s3cret@db.example/memvault")
    assert "s3cret" not in str(caught.value)


@pytest.mark.parametrize("url", ["postgressql://bob:Hunter2pw@db.example.com/mem", "mysql://root:Hunter2pw@localhost/x"])
def test_a_url_that_is_not_postgresql_is_refused_without_its_password(monkeypatch, tmp_path, url):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEMVAULT_DB", url)
    with pytest.raises(ValueError, match="neither a PostgreSQL URL") as caught:
        config.load()
    assert "Hunter2pw" not in str(caught.value) and "***" in str(caught.value)
    assert list(tmp_path.iterdir()) == []  # no folder named after the URL


@pytest.mark.parametrize("value", ["/proc/memvault.db", "/sys/kernel/memvault.db", "/dev/memvault.db", "/dev/null",
                                   "/proc/self/environ", "/dev/shm/m.db", "/dev/fd/1"])
def test_a_database_on_a_kernel_or_device_file_system_is_refused(home, monkeypatch, value):
    with pytest.raises(ValueError, match="^--db: ") as caught:
        config.load(db=value)
    assert value in str(caught.value) and "kernel or device file system" in str(caught.value)
    monkeypatch.setenv("MEMVAULT_DB", value)
    with pytest.raises(ValueError, match="^MEMVAULT_DB: .*kernel or device file system"):
        config.load()
    assert not Path("/dev/memvault.db").exists() and not Path("/dev/shm/m.db").exists()


def test_a_symbolic_link_into_proc_is_followed_and_refused(home, capsys):
    from memvault.server import cli

    (home / "state").symlink_to("/proc/self")
    with pytest.raises(ValueError, match=r"that is '/proc/\d+/m.db'.*kernel or device"):
        config.load(db="~/state/m.db")
    assert cli.main(["list", "--db", "/sys/m.db"]) == 2
    assert "--db: '/sys/m.db' is under /sys" in capsys.readouterr().err


@pytest.mark.parametrize("content", [b"just some notes\n", b"%PDF-1.7 binary", b"SQLite format 2\x00 old"])
def test_a_file_that_is_not_an_sqlite_database_is_refused_untouched(home, content):
    path = home / "notes.txt"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=r"--db: .*notes.txt' is not an SQLite database"):
        config.load(db=str(path))
    assert path.read_bytes() == content
    (home / "empty.db").touch()
    assert config.load(db=str(home / "empty.db")).db == home / "empty.db"  # an empty file becomes a new database


@pytest.mark.parametrize(("value", "got"), [("-1", "-1"), ("fast", "'fast'"), ("1000001", "1000001")])
def test_a_bad_rate_limit_is_refused_with_its_unit(monkeypatch, value, got):
    monkeypatch.setenv("MEMVAULT_RATE_LIMIT", value)
    with pytest.raises(ValueError) as caught:
        config.load_http(auth="none")
    assert str(caught.value) == (f"MEMVAULT_RATE_LIMIT: must be an integer from 0 to 1,000,000 "
                                 f"requests a minute; got {got}")
