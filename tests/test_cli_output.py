"""The command line's output and arguments, as a person's shell runs it: any console
encoding, a reader that stops early, ``--json`` on every command, memvault's own words
for bad numbers, and no flag silently ignored."""

from __future__ import annotations

import fcntl
import io
import json
import os
import subprocess
import sys

import pytest
from conftest import server_env
from fakes import FakeEmbedder

from memvault.server import cli
from memvault.storage.store import Store

MEMVAULT = [sys.executable, "-m", "memvault.server"]
WORLD = "Привет мир 🚀 café ✓ Ω 東京"


def memvault(db, *argv: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*MEMVAULT, *argv], env=server_env(db, **env), capture_output=True, timeout=180)


def fill(db, n: int, size: int = 0) -> None:
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        for i in range(n):
            store.remember(tenant="default", scope="default", content=f"{WORLD} number {i} " + "word " * size)
    finally:
        store.close()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("encoding", ["cp1252", "ascii", "latin-1"])
def test_export_writes_utf8_json_lines_whatever_the_console_encoding(db_path, tmp_path, encoding, capsys):
    fill(db_path, 3)
    piped = memvault(db_path, "export", PYTHONIOENCODING=encoding)
    assert piped.returncode == 0 and b"Traceback" not in piped.stderr
    lines = piped.stdout.decode("utf-8").splitlines()  # strict: valid UTF-8 or this fails
    assert len(lines) == 3 and all(WORLD in json.loads(line)["content"] for line in lines)
    assert run(capsys, "export", "--db", str(db_path), "-o", str(tmp_path / "b.jsonl"))[0] == 0
    assert (tmp_path / "b.jsonl").read_text(encoding="utf-8").splitlines() == lines


def narrow(monkeypatch, db, encoding: str, *argv: str) -> tuple[int, bytes]:
    """``memvault *argv`` run in this process with stdout a console of ``encoding`` (as
    PYTHONIOENCODING makes it: errors strict): (exit code, the bytes written)."""
    written = io.BytesIO()
    console = io.TextIOWrapper(written, encoding=encoding, errors="strict", write_through=True)
    monkeypatch.setattr(sys, "stdout", console)
    monkeypatch.setenv("MEMVAULT_DB", str(db))
    code = cli.main(list(argv))
    console.flush()
    return code, written.getvalue()


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_text_output_degrades_and_json_stays_exact_on_a_narrow_console_encoding(db_path, encoding, monkeypatch,
                                                                               one_model):
    # In this process (a subprocess per command took 13 s per encoding); a real console's
    # encoding is read by the process below and by the export test above.
    code, stored = narrow(monkeypatch, db_path, encoding, "remember", WORLD, "--json")
    assert code == 0
    memory_id = json.loads(stored)["id"]
    for argv in (["recall", "Привет"], ["list"], ["show", memory_id], ["remember", WORLD], ["stats"]):
        code, shown = narrow(monkeypatch, db_path, encoding, *argv)
        assert code == 0, argv
        assert shown.decode(encoding)  # written in the console's own encoding
        code, as_json = narrow(monkeypatch, db_path, encoding, *argv, "--json")
        assert code == 0
        document = json.loads(as_json.decode("ascii"))  # escapes: the same document on any console
        if argv[0] in ("recall", "list"):
            assert document["memories"][0]["content"] == WORLD
        if argv[0] == "show":
            assert document["memory"]["content"] == WORLD
    assert narrow(monkeypatch, db_path, encoding, "list")[1].decode(encoding).count("\\u") > 3
    process = memvault(db_path, "list", PYTHONIOENCODING=encoding)  # the console a process starts with
    assert process.returncode == 0 and b"Traceback" not in process.stderr, process.stderr
    assert process.stdout.decode(encoding).count("\\u") > 3


@pytest.mark.parametrize("argv", [["export"], ["export", "--tenant", "default"]])
def test_a_reader_that_stops_early_ends_the_command_quietly(db_path, argv):
    fill(db_path, 60, size=100)
    read, write = os.pipe()
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)  # Linux: the output is far more than the pipe holds
    with subprocess.Popen([*MEMVAULT, *argv], env=server_env(db_path), stdout=write, stderr=subprocess.PIPE) as proc:
        os.close(write)
        with os.fdopen(read, "rb") as out:
            assert out.readline()
        # as `| head -1` does: the reader is gone
        err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 141 and err == b""


def test_keys_commands_print_one_json_document_with_json(db_path, capsys):
    db = ["--db", str(db_path)]
    code, out, err = run(capsys, "keys", "create", "--tenant", "acme", "--name", "Zoë's bot", "--read-only", "--json",
                         *db)
    assert code == 0, err
    key = json.loads(out)
    assert key["key"].startswith("mvk_") and key["tenant"] == "acme" and key["name"] == "Zoë's bot"
    assert key["read_only"] is True and key["state"] == "active" and key["revoked_at"] is None
    listed = json.loads(run(capsys, *db, "--json", "keys", "list")[1])
    assert [k["id"] for k in listed] == [key["id"]] and "key" not in listed[0]
    revoked = json.loads(run(capsys, "keys", "revoke", key["id"][:12], "--json", *db)[1])
    assert revoked["id"] == key["id"] and revoked["state"] == "revoked" and revoked["revoked_at"]
    assert json.loads(run(capsys, "keys", "list", "--json", *db)[1])[0]["state"] == "revoked"


def test_keys_list_json_of_no_keys_is_an_empty_list(db_path, capsys):
    fill(db_path, 1)
    code, out, err = run(capsys, "keys", "list", "--db", str(db_path), "--json")
    assert code == 0 and json.loads(out) == [] and "no API keys" in err


@pytest.mark.parametrize(("argv", "named"), [
    (["recall", "x", "--limit", "1.5"], "--limit: must be an integer from 1 to 50; got '1.5'"),
    (["recall", "x", "--limit", "five"], "--limit: must be an integer from 1 to 50; got 'five'"),
    (["list", "--limit", "2e1"], "--limit: must be an integer from 1 to 50; got '2e1'"),
    (["list", "--offset", "-0.5"], "--offset: must be an integer from 0 to 1,000,000,000; got '-0.5'"),
    (["remember", "x", "--importance", "7.0"], "--importance: must be an integer from 1 to 10; got '7.0'"),
    (["supersede", "01a2", "x", "--importance", "high"], "--importance: must be an integer from 1 to 10"),
    (["keys", "create", "--tenant", "t", "--expires", "1.5"], "--expires: must be an integer from 1 to 3,650 days"),
    (["serve", "--boot-tokens", "2k"], "--boot-tokens: must be an integer from 200"),
    (["serve", "--transport", "http", "--port", "80.5"], "--port: must be an integer from 1 to 65,535"),
    (["serve", "--transport", "http", "--rate-limit", "ten"], "--rate-limit: must be an integer"),
])
def test_a_bad_number_is_refused_in_memvault_s_words_with_its_range(db_path, capsys, argv, named):
    fill(db_path, 1)
    code, out, err = run(capsys, *argv, "--db", str(db_path))
    assert code == 2 and out == "" and named in err and "invalid int value" not in err


def test_a_bad_number_in_a_subprocess_names_the_flag_and_its_range(db_path):
    fill(db_path, 1)
    refused = memvault(db_path, "list", "--limit", "1.5")
    assert refused.returncode == 2 and refused.stderr.decode() == (
        "memvault: --limit: must be an integer from 1 to 50; got '1.5'\n")


@pytest.mark.parametrize("flags", [
    ["--port", "9000"], ["--host", "0.0.0.0"], ["--auth", "none"], ["--rate-limit", "5"],
    ["--allowed-host", "memory.example.com"], ["--allowed-origin", "https://x.example"],
    ["--trusted-proxy", "127.0.0.1"],
    ["--oauth-issuer", "https://id.example"], ["--oauth-resource", "https://m.example/mcp"],
    ["--oauth-jwks-url", "https://id.example/jwks"], ["--oauth-tenant-claim", "org"],
    ["--oauth-jwks-max-age", "5"], ["--oauth-max-token-lifetime", "600"],
    ["--transport", "stdio", "--port", "9000"], ["--port", "9000", "--host", "::1"],
])
def test_an_http_flag_without_transport_http_is_refused_not_ignored(db_path, flags, capsys):
    with pytest.raises(SystemExit) as refused:  # argparse's refusal, as a bad flag's
        cli.main(["serve", "--db", str(db_path), *flags])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    named = [f for f in flags if f.startswith("--") and f != "--transport"]
    assert all(f in err for f in named) and "add --transport http" in err
    assert not db_path.exists()  # nothing was opened


FULL = "memvault: could not write the output: No space left on device\n"
CLOSED = "memvault: could not write the output: standard output is closed\n"


def _to(target, db, *argv: str) -> subprocess.CompletedProcess[str]:
    """``memvault argv`` with stdout on ``target``: a path (opened for writing), or None for no
    stdout at all (as `>&-` starts it: Python then has sys.stdout None)."""
    closed = target is None
    with open(os.devnull if closed else target, "w") as sink:
        return subprocess.run([*MEMVAULT, *argv], env=server_env(db), stdout=sink, stderr=subprocess.PIPE,
                              text=True, timeout=180, preexec_fn=(lambda: os.close(1)) if closed else None)


def _full_here(monkeypatch, capsys, db, *argv: str) -> tuple[int, str]:
    """:func:`_to` ``/dev/full`` in this process (``cli.main``): the exit code and stderr."""
    with open("/dev/full", "w") as sink, monkeypatch.context() as m:
        m.setattr(sys, "stdout", sink)
        code = cli.main([*argv, "--db", str(db)])
    return code, capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("argv", [["export"], ["list", "--json"]])
def test_output_to_a_full_disk_is_one_line_naming_the_failure_and_exit_1(db_path, argv):
    """`memvault export > /dev/full` (a backup to a full disk) ended in an OSError traceback."""
    fill(db_path, 60, size=40)  # more than one buffer of output
    failed = _to("/dev/full", db_path, *argv)
    assert failed.returncode == 1 and failed.stderr == FULL


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize(("argv", "said"), [
    (["remember", "Written with stdout on a full disk."], "the memory was stored as "),
    (["remember", "Written with stdout on a full disk.", "--json"], "the memory was stored as "),
    (["forget", "FIRST"], "memory FIRST was forgotten"),
    (["supersede", "FIRST", "Replaced with stdout on a full disk."], "memory FIRST was superseded by "),
])
def test_a_write_whose_result_cannot_be_printed_says_it_was_written(db_path, argv, said, monkeypatch, capsys,
                                                                   one_model):
    """`memvault remember ... > /dev/full` said only that the output failed: the memory was stored."""
    from memvault.tools import handlers

    fill(db_path, 1)
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        first = handlers.list_memories(store, handlers.Caller("default", "default")).memories[0].id
    finally:
        store.close()
    argv = [first if a == "FIRST" else a for a in argv]
    code, stderr = _full_here(monkeypatch, capsys, db_path, *argv)  # a process's: test_output_to_a_full_disk
    said = said.replace("FIRST", first)
    assert code == 1 and said in stderr, stderr
    assert stderr.endswith(", but its result could not be printed: No space left on device\n")
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        current = [m.content for m in handlers.list_memories(store, handlers.Caller("default", "default")).memories]
    finally:
        store.close()
    written = {"remember": 2, "forget": 0, "supersede": 1}[argv[0]]
    assert len(current) == written and (argv[0] != "remember" or argv[1] in current)


@pytest.mark.parametrize("argv", [["keys", "list"], ["remember", "Written with stdout closed."]])
def test_a_closed_stdout_is_said_before_the_command_runs(db_path, argv):
    """`memvault list >&-` ended in an AttributeError traceback; nothing is written when the
    answer cannot be given."""
    from memvault.tools import handlers

    fill(db_path, 2)
    failed = _to(None, db_path, *argv)
    assert failed.returncode == 1 and failed.stderr == CLOSED
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        assert len(handlers.list_memories(store, handlers.Caller("default", "default")).memories) == 2
    finally:
        store.close()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_new_key_that_cannot_be_shown_is_revoked_at_once(db_path):
    fill(db_path, 1)
    failed = _to("/dev/full", db_path, "keys", "create", "--tenant", "acme")
    assert failed.returncode == 1 and failed.stderr.endswith(FULL)
    [key] = json.loads(memvault(db_path, "keys", "list", "--json").stdout)
    assert key["state"] == "revoked" and f"revoked the new key {key['id']} at once" in failed.stderr


@pytest.mark.parametrize(("argv", "env", "named"), [
    (["--auth", "keys", "--oauth-issuer", "http://x", "--oauth-jwks-url", "http://evil.example/",
      "--oauth-tenant-claim", "org"], {},
     "--oauth-issuer, --oauth-jwks-url, --oauth-tenant-claim: have no effect with --auth keys (given by "
     "--auth)"),
    (["--oauth-resource", "https://m.example/mcp"], {},
     "--oauth-resource: has no effect with --auth keys (the default)"),
    (["--oauth-jwks-max-age", "5", "--oauth-max-token-lifetime", "600"], {"MEMVAULT_AUTH": "keys"},
     "--oauth-jwks-max-age, --oauth-max-token-lifetime: have no effect with --auth keys (given by "
     "MEMVAULT_AUTH)"),
    ([], {"MEMVAULT_OAUTH_ISSUER": "https://id.example"},
     "MEMVAULT_OAUTH_ISSUER: has no effect with --auth keys"),
    (["--auth", "none", "--rate-limit", "5"], {},
     "--rate-limit: has no effect with --auth none (given by --auth)"),
    (["--auth", "none"], {"MEMVAULT_OAUTH_TENANT_CLAIM": "org"},
     "MEMVAULT_OAUTH_TENANT_CLAIM: has no effect with --auth none"),
])
def test_a_setting_the_auth_mode_ignores_is_refused_naming_it_and_the_mode(db_path, capsys, monkeypatch, argv,
                                                                          env, named):
    """`--auth keys --oauth-issuer ... --oauth-jwks-url http://evil.example/` started silently."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, out, err = run(capsys, "serve", "--transport", "http", "--db", str(db_path), *argv)
    assert code == 2 and out == "" and named in err and "refused rather than ignored" in err
    assert not db_path.exists()  # nothing was opened


def test_no_control_character_reaches_the_terminal_from_stored_text(db_path, capsys, one_model):
    """Adversarial pass 50: ESC was escaped but the C1 controls were printed raw (U+009B opens a
    control sequence and U+009D a window title in xterm and VTE); DEL too."""
    stored = "Deploy note \x9d0;OWNED\x9c \x9b2J \x1b[31mred\x1b[0m \x7f done"
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        old = store.remember(tenant="default", scope="default", content=stored, source="src \x1b[31m\x9b2J").id
        new = store.supersede(tenant="default", id=old, content=stored + " again", reason="why \x9d0;T\x9c \x1b]0;x\a").id
    finally:
        store.close()
    for argv in (["list"], ["recall", "deploy note"], ["show", new]):
        out = run(capsys, *argv, "--db", str(db_path))[1]
        for line in out.splitlines():
            assert not any(0x7f <= ord(c) <= 0x9f or ord(c) < 0x20 and c != "\t" for c in line), repr(line)
        assert "\\u009b2J" in out and "\\u001b[31m" in out  # shown, escaped
    assert "\\u009d0;T" in out  # the reason of the version it replaced
