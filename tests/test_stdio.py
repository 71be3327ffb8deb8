"""memvault as clients run it: ``memvault serve`` in a subprocess, spoken to over stdio."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from conftest import SERVE_AS_SHIPPED as SERVE, names_field, server_env
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

pytestmark = pytest.mark.slow


def stdio(db, errlog, **env: str) -> Client:
    params = StdioServerParameters(command=SERVE[0], args=SERVE[1:], env=server_env(db, **env))
    return Client(stdio_client(params, errlog=errlog))


def cli(cli_here, db, *args: str) -> subprocess.CompletedProcess[str]:
    """``memvault ARGS`` on ``db``, run in this process (the server under test is the other process)."""
    done = cli_here(list(args), server_env(db))
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.contract
@pytest.mark.asyncio
async def test_memory_survives_a_restart_into_another_process(db, tmp_path, cli_here):
    stored = json.loads(cli(cli_here, db, "remember", "The on-call rota changes every Monday", "--tag", "ops",
                            "--json").stdout)
    assert stored["created"] is True
    with open(tmp_path / "server.log", "w") as log:
        async with stdio(db, log) as c:
            r = await c.call_tool("recall", {"query": "when does the on-call rota change"})
    assert r.structured_content["memories"][0]["id"] == stored["id"]
    assert r.structured_content["memories"][0]["tags"] == ["ops"]


@pytest.mark.contract
@pytest.mark.asyncio
async def test_every_tool_and_resource_works_over_stdio_and_bad_input_is_survived(db, tmp_path):
    with open(tmp_path / "server.log", "w") as log:
        async with stdio(db, log) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            assert set(tools) == {"remember", "recall", "supersede", "forget", "confirm"}
            assert all(t.annotations is not None and t.output_schema for t in tools.values())
            for tool, args, field, says in [
                ("remember", {"content": ""}, "content", "is empty; it must be 1-8,000 characters"),
                ("remember", {"content": "x", "importance": 11}, "importance", "10"),
                ("remember", {"content": "x", "kind": "rumour"}, "kind", "'rumour'"),
                ("remember", {"content": "x", "expires_at": "2024-02-30"}, "expires_at", "February 2024 has 29 days"),
                ("supersede", {"content": "x"}, "id", "required"),
                ("forget", {}, "id", "required"),
                ("forget", {"id": "0123abcd-0000"}, "id", "no memory with id '0123abcd-0000'"),
                ("confirm", {"id": "0123abcd-0000"}, "id", "no memory with id '0123abcd-0000'"),
                ("confirm", {"id": "0123abcd-0000", "outcome": "maybe"}, "outcome", "'maybe'"),
            ]:
                r = await c.call_tool(tool, args)
                text = r.content[0].text
                assert r.is_error and names_field(text, field) and says in text, (tool, args, text)
            r = await c.call_tool("remember", {"content": "Secrets live in Vault at vault.internal:8200"})
            first = r.structured_content["id"]
            r = await c.call_tool("recall", {"query": "where are secrets kept", "limit": 3})
            assert r.structured_content["memories"][0]["id"] == first
            r = await c.call_tool("supersede", {"id": first, "content": "Secrets live in Vault at vault.corp:8200"})
            second = r.structured_content["id"]
            boot = (await c.read_resource("memory://boot")).contents[0].text
            shown = re.findall(r"^- \[([0-9a-f-]+)\]", boot, flags=re.M)
            assert len(shown) == 1 and second.startswith(shown[0]) and not first.startswith(shown[0])
            doc = json.loads((await c.read_resource(f"memory://memories/{second}")).contents[0].text)
            assert [m["id"] for m in doc["history"]] == [first, second]
            r = await c.call_tool("forget", {"id": second})
            assert r.structured_content["forgotten_ids"] == [second]
            templates = (await c.list_resource_templates()).resource_templates
            assert [t.uri_template for t in templates] == [
                "memory://boot{?task}", "memory://memories/{memory_id}", "memory://sessions/{session_id}{?tokens}"]


@pytest.mark.contract
@pytest.mark.asyncio
async def test_model_that_cannot_load_degrades_visibly(db, tmp_path, cli_here):
    empty_model_dir = tmp_path / "no-model"
    empty_model_dir.mkdir()
    # Files onnxruntime cannot load (a folder without them is refused at start: test_edges25_settings.py).
    (empty_model_dir / "model.onnx").write_bytes(b"not a model")
    (empty_model_dir / "tokenizer.json").write_text("{}")
    with open(tmp_path / "server.log", "w") as log:
        async with stdio(db, log, MEMVAULT_MODEL_DIR=str(empty_model_dir)) as c:
            r = await c.call_tool("remember", {"content": "Nightly backups run at 02:00 UTC"})
            assert r.structured_content["created"] and "model" in r.structured_content["degraded"]
            r = await c.call_tool("recall", {"query": "nightly backups"})
            assert r.structured_content["memories"][0]["content"] == "Nightly backups run at 02:00 UTC"
            assert "keyword" in r.structured_content["degraded"]
    done = cli(cli_here, db, "reindex", "--json")
    assert json.loads(done.stdout)["reindexed"] == 1
    assert json.loads(cli(cli_here, db, "stats", "--json").stdout)["vectors_pending"] == 0


def test_stdout_carries_only_json_rpc(db_path):
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "remember", "arguments": {"content": "stdout hygiene check"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "recall", "arguments": {"query": "hygiene", "limit": 99}}},
        {"jsonrpc": "2.0", "id": 5, "method": "resources/read", "params": {"uri": "memory://boot"}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {
            "name": "forget", "arguments": {"id": "missing"}}},
    ]
    wire = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.Popen(
        SERVE, env=server_env(db_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    out_lines: list[str] = []
    assert proc.stdin is not None and proc.stdout is not None
    for request in wire.splitlines(keepends=True):
        proc.stdin.write(request)
        proc.stdin.flush()
        if "id" in json.loads(request):
            out_lines.append(proc.stdout.readline())
    proc.stdin.close()
    out_lines += proc.stdout.readlines()
    proc.wait(timeout=30)
    proc.stderr.close()  # type: ignore[union-attr]
    proc.stdout.close()
    messages = [json.loads(line) for line in out_lines if line.strip()]
    assert all(m["jsonrpc"] == "2.0" for m in messages) and len(messages) == len(out_lines)
    by_id = {m["id"]: m for m in messages if "id" in m}
    assert set(by_id) == {1, 2, 3, 4, 5, 6}
    assert by_id[3]["result"]["structuredContent"]["created"] is True
    assert by_id[4]["result"]["isError"] is True and "limit" in by_id[4]["result"]["content"][0]["text"]
    assert by_id[6]["result"]["isError"] is True


def test_ctrl_c_stops_the_server_at_once(db_path):
    import signal
    import time

    proc = subprocess.Popen(SERVE, env=server_env(db_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    first = proc.stderr.readline()
    assert "serving MCP on stdio" in first
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} memvault INFO ", first)  # a server's log is stamped
    time.sleep(1.0)  # let the background warm-up start too
    proc.send_signal(signal.SIGINT)
    try:
        assert proc.wait(timeout=10) == 130
    finally:
        proc.kill()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()  # type: ignore[union-attr]


@pytest.mark.parametrize("stream", ["stdin", "stdout"])
def test_ctrl_c_leaves_stdin_and_stdout_blocking_for_the_next_program(db_path, stream):
    """Serving reads stdin and writes stdout without blocking; a terminal or pipe left that way made
    the next program's reads (or writes) fail ("Resource temporarily unavailable"). The pipe's end is
    shared with the server's stream, so its mode is the one the next program would get."""
    import os
    import signal

    read_end, write_end = os.pipe()
    shared = read_end if stream == "stdin" else write_end
    if stream == "stdin":
        proc = subprocess.Popen(SERVE, env=server_env(db_path), stdin=read_end, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        out, send = proc.stdout, lambda data: os.write(write_end, data)
    else:
        proc = subprocess.Popen(SERVE, env=server_env(db_path), stdin=subprocess.PIPE, stdout=write_end,
                                stderr=subprocess.DEVNULL)
        out = os.fdopen(os.dup(read_end), "rb")

        def send(data: bytes) -> None:
            proc.stdin.write(data)  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
    try:
        ping = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
        send((json.dumps(ping) + "\n").encode())
        assert out is not None and b'"id":1' in out.readline()  # it is reading stdin and has written stdout
        assert not os.get_blocking(shared)  # the server's mode, seen through the shared pipe
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 130
        assert os.get_blocking(shared)
    finally:
        proc.kill()
        out.close()  # type: ignore[union-attr]
        if proc.stdin is not None:
            proc.stdin.close()
        os.close(read_end)
        os.close(write_end)


def test_stdin_that_cannot_be_polled_is_served_without_a_traceback(db_path):
    """nohup, systemd's StandardInput=null or docker without -i give the server /dev/null:
    the event loop cannot poll it (epoll refuses), so it is read on a thread like a file."""
    with open("/dev/null", "rb") as stdin:
        proc = subprocess.run(SERVE, env=server_env(db_path), stdin=stdin, capture_output=True, timeout=60)
    assert b"Traceback" not in proc.stderr, proc.stderr.decode(errors="replace")
    assert proc.returncode == 0 and proc.stdout == b""
