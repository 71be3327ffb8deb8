"""``memvault setup`` for Codex (TOML), Windsurf, Gemini CLI and Zed, and the Claude Desktop extension
bundle: the printed entry parses in the client's format, ``--write`` merges into the real file and
keeps everything else, a second run changes nothing, and unreadable files are refused untouched."""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
import zipfile
from pathlib import Path

import anyio
import pytest
from conftest import server_env
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from memvault.server import cli, setup
from memvault.storage.store import Store

NEW = ("codex", "windsurf", "gemini-cli", "zed")
KEY = {"codex": "mcp_servers", "windsurf": "mcpServers", "gemini-cli": "mcpServers", "zed": "context_servers"}


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A fresh home folder, the clients' folders under it (Linux rules)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    return home


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def parse(client: str, text: str) -> dict:
    return tomllib.loads(text) if client == "codex" else json.loads(text)


def expected_path(client: str, home: Path) -> Path:
    return {"codex": home / ".codex" / "config.toml",
            "windsurf": home / ".codeium" / "windsurf" / "mcp_config.json",
            "gemini-cli": home / ".gemini" / "settings.json",
            "zed": home / ".config" / "zed" / "settings.json"}[client]


@pytest.mark.parametrize("client", NEW)
def test_the_printed_entry_parses_in_the_clients_format_and_starts_this_memvault(client, home, capsys):
    code, out, _ = run(capsys, "setup", client, "--db", "m.db", "--scope", "personal")
    head, snippet, note = out.split("\n\n", 2)
    assert code == 0 and head.startswith(f"Add this to {expected_path(client, home)} ")
    entry = parse(client, snippet)[KEY[client]]["memvault"]
    command, args = setup.launcher()
    assert entry == {"command": command, "args": args,
                     "env": {"MEMVAULT_DB": str(home.parent / "m.db"), "MEMVAULT_SCOPE": "personal"}}
    assert Path(entry["command"]).is_absolute() and note.strip()


def test_codex_home_moves_the_codex_file(home, monkeypatch, capsys):
    monkeypatch.setenv("CODEX_HOME", str(home / "elsewhere"))
    code, out, _ = run(capsys, "setup", "codex", "--json")
    assert code == 0 and json.loads(out)["path"] == str(home / "elsewhere" / "config.toml")


def test_zed_keeps_its_settings_in_dot_config_on_macos_too(home, monkeypatch, capsys):
    monkeypatch.setattr(setup.sys, "platform", "darwin")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))  # not read on macOS
    path = setup.for_client("zed", cli.config_module.load()).path
    assert path == home / ".config" / "zed" / "settings.json"


EXISTING = {
    "codex": ('# my Codex settings\nmodel = "o3"  # the one I pay for\n\n[mcp_servers.other]\n'
              'command = "npx"\nargs = ["-y", "other-server"]\n\n[profiles.fast]\nmodel = "o4-mini"\n'),
    "windsurf": json.dumps({"mcpServers": {"other": {"command": "other-server"}}, "theme": "dark"}),
    "gemini-cli": json.dumps({"mcpServers": {"other": {"command": "other-server"}},
                              "general": {"vimMode": True}}),
    "zed": json.dumps({"context_servers": {"other": {"command": "other-server"}}, "theme": "One Dark"}),
}


@pytest.mark.parametrize("client", NEW)
def test_write_merges_keeps_everything_else_backs_up_and_a_second_run_changes_nothing(client, home, capsys):
    path = expected_path(client, home)
    path.parent.mkdir(parents=True)
    path.write_text(EXISTING[client])
    code, out, _ = run(capsys, "setup", client, "--db", "m.db", "--json")
    entry = json.loads(out)[KEY[client]]["memvault"]
    code, _, err = run(capsys, "setup", client, "--db", "m.db", "--write")
    written = path.read_text()
    merged, before = parse(client, written), parse(client, EXISTING[client])
    assert code == 0 and merged[KEY[client]]["memvault"] == entry
    del merged[KEY[client]]["memvault"]
    assert merged == before  # every other key and server as it was
    backups = list(path.parent.glob(path.name + ".*.bak"))
    assert [b.read_text() for b in backups] == [EXISTING[client]] and str(backups[0]) in err
    code, _, err = run(capsys, "setup", client, "--db", "m.db", "--write")
    assert code == 0 and "nothing changed" in err and path.read_text() == written
    assert len(list(path.parent.glob(path.name + ".*.bak"))) == 1


def test_codex_write_keeps_the_files_comments_and_order(home, capsys):
    path = expected_path("codex", home)
    path.parent.mkdir()
    path.write_text(EXISTING["codex"])
    code, _, _ = run(capsys, "setup", "codex", "--write")
    lines = path.read_text().splitlines()
    old = EXISTING["codex"].splitlines()
    positions = [lines.index(line) for line in old if line]
    assert code == 0 and positions == sorted(positions)  # every old line kept, in its order
    assert lines.index("[mcp_servers.memvault]") < lines.index("[profiles.fast]")


@pytest.mark.parametrize("client", ["codex", "zed"])
def test_a_config_file_kept_elsewhere_through_a_link_stays_a_link(client, home, tmp_path, capsys):
    path, kept = expected_path(client, home), tmp_path / "dotfiles" / "config"
    kept.parent.mkdir()
    kept.write_text(EXISTING[client])
    path.parent.mkdir(parents=True)
    path.symlink_to(kept)
    code, _, _ = run(capsys, "setup", client, "--write")
    assert code == 0 and path.is_symlink() and path.resolve() == kept
    assert "memvault" in parse(client, kept.read_text())[KEY[client]]
    assert [b.read_text() for b in kept.parent.glob("config.*.bak")] == [EXISTING[client]]


def test_codex_write_into_an_inline_servers_table_stays_valid_toml(home, capsys):
    path = expected_path("codex", home)
    path.parent.mkdir()
    path.write_text('mcp_servers = { other = { command = "other-server" } }\n')
    code, _, _ = run(capsys, "setup", "codex", "--db", "m.db", "--write")
    servers = tomllib.loads(path.read_text())["mcp_servers"]
    assert code == 0 and servers["other"] == {"command": "other-server"}
    assert servers["memvault"]["env"] == {"MEMVAULT_DB": str(home.parent / "m.db")}


@pytest.mark.parametrize("client", NEW)
def test_write_creates_a_missing_file_without_a_backup(client, home, capsys):
    code, _, err = run(capsys, "setup", client, "--write")
    path = expected_path(client, home)
    assert code == 0 and "memvault" in parse(client, path.read_text())[KEY[client]]
    assert "kept as" not in err and not list(path.parent.glob("*.bak"))


REFUSED = [
    ("zed", "// Zed settings\n{\n  \"theme\": \"One Dark\",\n}\n", "not plain JSON"),
    ("gemini-cli", '{"mcpServers": ["not", "a", "table"]}', "is not a table of servers"),
    ("codex", '[mcp_servers.other]\ncommand = "npx\n', "not valid TOML"),
    ("codex", 'mcp_servers = "npx"\n', "is not a table of servers"),
]


@pytest.mark.parametrize(("client", "text", "reason"), REFUSED)
def test_a_file_it_cannot_merge_is_refused_untouched_naming_it_and_what_to_paste(client, text, reason, home,
                                                                                capsys):
    path = expected_path(client, home)
    path.parent.mkdir(parents=True)
    path.write_text(text)
    code, _, err = run(capsys, "setup", client, "--write")
    assert code == 1 and path.read_text() == text and not list(path.parent.glob("*.bak"))
    assert str(path) in err and reason in err
    pasted = parse(client, err.split("):\n", 1)[1])
    assert pasted[KEY[client]]["memvault"]["args"][-1] == "serve"


def test_a_codex_entry_holding_a_password_is_readable_by_its_owner_only(home, capsys):
    previous = os.umask(0o022)
    try:
        code, _, err = run(capsys, "setup", "codex", "--db", "postgresql://u:s3cretPW@db.example/m",
                           "--write")
    finally:
        os.umask(previous)
    path = expected_path("codex", home)
    assert code == 0, err
    assert "s3cretPW" in path.read_text() and stat.S_IMODE(path.stat().st_mode) == 0o600


# The MCPB manifest spec 0.3 (github.com/modelcontextprotocol/mcpb, MANIFEST.md): its required fields,
# its server types and its user_config option types.
REQUIRED = ("manifest_version", "name", "version", "description", "author", "server")
SERVER_TYPES = {"node", "python", "binary", "uv"}
OPTION_TYPES = {"string", "number", "boolean", "directory", "file"}
SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")


def unzip(bundle: Path, into: Path) -> dict:
    with zipfile.ZipFile(bundle) as z:
        z.extractall(into)
    return json.loads((into / "manifest.json").read_text())


def test_the_bundle_holds_a_manifest_with_every_field_the_mcpb_spec_requires(home, tmp_path, capsys):
    code, out, err = run(capsys, "setup", "claude-desktop", "--bundle", "memvault.mcpb", "--db", "m.db",
                         "--scope", "work", "--json")
    manifest = unzip(tmp_path / "memvault.mcpb", tmp_path / "unzipped")
    assert code == 0 and json.loads(out)["manifest"] == manifest and "memvault.mcpb" in err
    assert all(manifest.get(field) for field in REQUIRED) and manifest["manifest_version"] == "0.3"
    assert SEMVER.match(manifest["version"]) and manifest["author"]["name"]
    server = manifest["server"]
    assert server["type"] in SERVER_TYPES and (tmp_path / "unzipped" / server["entry_point"]).is_file()
    config = server["mcp_config"]
    assert Path(config["command"]).is_absolute() and Path(config["command"]).exists()
    assert config["args"] == ["${__dirname}/" + server["entry_point"]]
    used = set(re.findall(r"\$\{user_config\.(\w+)\}", json.dumps(config)))
    options = manifest["user_config"]
    assert used == set(options) == {"database", "tenant", "scope"}
    assert all(o["type"] in OPTION_TYPES and o["title"] and o["description"] for o in options.values())
    assert options["database"]["default"] == str(tmp_path / "m.db") and options["scope"]["default"] == "work"
    assert [t["name"] for t in manifest["tools"]] == ["remember", "recall", "supersede", "forget", "confirm"]


def test_a_bundle_never_carries_a_database_password(home, tmp_path, capsys):
    code, _, err = run(capsys, "setup", "claude-desktop", "--bundle", "m.mcpb", "--db",
                       "postgresql://u:s3cretPW@db.example/m")
    assert code == 1 and "password" in err and "s3cretPW" not in err and not (tmp_path / "m.mcpb").exists()


def test_hooks_are_never_written_with_a_database_password(home, tmp_path, capsys):
    code, _, err = run(capsys, "setup", "claude-code", "--hooks", "--db", "postgresql://u:s3cretPW@db.example/m")
    assert code == 1 and "--db: the database URL holds a password" in err and "Traceback" not in err
    assert "s3cretPW" not in err and not (home / ".claude" / "settings.json").exists()


def test_bundle_is_for_claude_desktop_only(home, tmp_path, capsys):
    code, _, err = run(capsys, "setup", "cursor", "--bundle", "m.mcpb")
    assert code == 2 and "claude-desktop" in err and not (tmp_path / "m.mcpb").exists()


@pytest.mark.slow
def test_the_bundle_runs_memvault_as_claude_desktop_starts_it(home, tmp_path, capsys):
    """The manifest's command with its variables replaced as the spec says Claude Desktop does
    (``${__dirname}``, ``${user_config.KEY}``), on a database the user chose at install."""
    run(capsys, "setup", "claude-desktop", "--bundle", "memvault.mcpb")
    folder = tmp_path / "installed"
    manifest = unzip(tmp_path / "memvault.mcpb", folder)
    text = "The bundle's database is the chosen one"
    chosen = {"database": str(tmp_path / "chosen.db"), "tenant": "acme", "scope": "desk"}

    def filled(value: str) -> str:
        value = value.replace("${__dirname}", str(folder))
        return re.sub(r"\$\{user_config\.(\w+)\}", lambda m: chosen[m.group(1)], value)

    config = manifest["server"]["mcp_config"]
    env = {k: v for k, v in server_env(tmp_path / "unused.db").items() if not k.startswith("MEMVAULT_")}
    env.update({k: filled(v) for k, v in config["env"].items()})
    args = [filled(a) for a in config["args"]]
    params = StdioServerParameters(command=config["command"], args=args, env=env)

    async def remember() -> str:
        with open(tmp_path / "server.log", "w") as log:
            async with Client(stdio_client(params, errlog=log)) as client:
                stored = await client.call_tool("remember", {"content": text})
        return stored.structured_content["id"]

    memory_id = anyio.run(remember)  # cli.main above runs its own event loop: this test is not async
    store = Store(tmp_path / "chosen.db")
    try:
        memory = store.get(tenant="acme", id=memory_id)
    finally:
        store.close()
    assert memory.content == text and memory.scope == "desk"


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o400])
def test_a_written_config_and_its_backup_keep_the_files_mode(tmp_path: Path, mode: int):
    path = tmp_path / "settings.json"
    path.write_text('{"env": {"ANTHROPIC_API_KEY": "kept private"}}\n', encoding="utf-8")
    path.chmod(mode)
    written = setup.merge_json(path, lambda document: document.setdefault("hooks", {}) == {})
    assert written.changed and written.backup is not None
    assert stat.S_IMODE(path.stat().st_mode) == mode and stat.S_IMODE(written.backup.stat().st_mode) == mode
    assert json.loads(path.read_text(encoding="utf-8"))["env"] == {"ANTHROPIC_API_KEY": "kept private"}


def test_a_loop_of_symbolic_links_is_refused_with_nothing_written(tmp_path: Path):
    path = tmp_path / "settings.json"
    path.symlink_to(path)
    with pytest.raises(ValueError, match="cannot be followed"):
        setup.merge_json(path, lambda document: True)
    assert path.is_symlink() and list(tmp_path.iterdir()) == [path]


# -- setup claude-code --hooks prints unless --write; a bad --db is refused before anything ---------------


@pytest.fixture
def claude_dir(home, monkeypatch) -> Path:
    folder = home / ".claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    return folder


@pytest.mark.parametrize("extra", [[], ["--json"], ["--scope", "work"]])
def test_setup_hooks_without_write_prints_the_merged_settings_and_writes_nothing(claude_dir, tmp_path, capsys, extra):
    claude_dir.mkdir()
    settings = claude_dir / "settings.json"
    theirs = {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "their-linter"}]}]}
    settings.write_text(json.dumps({"model": "opus", "hooks": theirs}))
    before = settings.read_bytes()
    code, out, err = run(capsys, "setup", "claude-code", "--hooks", "--db", str(tmp_path / "m.db"), *extra)
    assert code == 0 and settings.read_bytes() == before and list(claude_dir.iterdir()) == [settings]
    if "--json" in extra:
        document = json.loads(out)
        assert document["path"] == str(settings) and document["written"] is False
        hooks = document["hooks"]
    else:
        assert str(settings) in out and "--write" in out
        hooks = json.loads(out[out.index("{"):out.rindex("}") + 1])["hooks"]
    assert hooks["PostToolUse"][0] == theirs["PostToolUse"][0]  # theirs kept, first
    commands = [h["command"] for groups in hooks.values() for g in groups for h in g["hooks"]]
    assert sum("hook claude-code" in c for c in commands) == 6 and "their-linter" in commands
    assert all(str(tmp_path / "m.db") in c for c in commands if "hook claude-code" in c)
    assert ("--scope work" in " ".join(commands)) == ("--scope" in extra)


def test_setup_hooks_without_write_and_without_settings_prints_memvaults_alone(claude_dir, tmp_path, capsys):
    code, out, _ = run(capsys, "setup", "claude-code", "--hooks", "--json", "--db", str(tmp_path / "m.db"))
    assert code == 0 and not claude_dir.exists()
    assert sorted(json.loads(out)["hooks"]) == sorted(["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop",
                                                        "PreCompact", "SessionEnd"])


def test_setup_hooks_with_write_writes_them(claude_dir, tmp_path, capsys):
    code, _, err = run(capsys, "setup", "claude-code", "--hooks", "--write", "--db", str(tmp_path / "m.db"))
    assert code == 0 and "wrote memvault's hooks" in err
    assert len(json.loads((claude_dir / "settings.json").read_text())["hooks"]) == 6


@pytest.mark.parametrize("url", ["postgresql://u:pw123@host/db", "postgres://admin:s3cr3t%21@db.internal:5433/mem",
                                 "postgresql://host/db?user=u&password=pw123"])
@pytest.mark.parametrize("where", ["flag", "env"])
def test_setup_hooks_refuses_a_password_in_the_url_before_asking_for_the_driver(claude_dir, capsys, monkeypatch,
                                                                                url, where):
    from memvault.storage import location

    monkeypatch.setattr(location, "postgres_extra_missing", lambda: ["psycopg"])  # no driver installed
    from memvault.server import config

    monkeypatch.setattr(config, "postgres_extra_missing", lambda: ["psycopg"])
    argv = ["setup", "claude-code", "--hooks", "--write"]
    if where == "flag":
        argv += ["--db", url]
    else:
        monkeypatch.setenv("MEMVAULT_DB", url)
    code, out, err = run(capsys, *argv)
    assert code == 1 and "holds a password" in err and "nothing was written" in err
    assert "postgres extra" not in err and "pw123" not in err + out and "s3cr3t" not in err + out
    assert not claude_dir.exists()


@pytest.mark.parametrize("argv", [["setup", "claude-code", "--write"], ["setup", "claude-code", "--hooks", "--write"],
                                  ["setup", "claude-code", "--hooks"], ["setup", "codex", "--write"],
                                  ["setup", "cursor"], ["setup", "claude-desktop", "--json"]])
@pytest.mark.parametrize("where", ["flag", "env"])
@pytest.mark.parametrize("folders", [("nope",), ("nope", "deeper")])
def test_setup_refuses_a_database_whose_folder_is_missing_and_writes_nothing(home, tmp_path, capsys, monkeypatch,
                                                                            argv, where, folders):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    db = tmp_path.joinpath(*folders) / "m.db"
    if where == "env":
        monkeypatch.setenv("MEMVAULT_DB", str(db))
    before = sorted(p for p in tmp_path.rglob("*"))
    code, out, err = run(capsys, *argv, *(["--db", str(db)] if where == "flag" else []))
    given = "--db" if where == "flag" else "MEMVAULT_DB"  # named as it was given
    assert code == 2 and f"{given}: the folder '{tmp_path / 'nope'}' does not exist" in err and f"fix {given}" in err
    assert sorted(p for p in tmp_path.rglob("*")) == before  # no client file, no folder


def test_setup_takes_a_database_whose_folder_is_there(home, tmp_path, capsys):
    code, out, _ = run(capsys, "setup", "codex", "--write", "--db", str(tmp_path / "m.db"))
    assert code == 0 and (home / ".codex" / "config.toml").is_file()
