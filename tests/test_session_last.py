"""The last session (issue 26): a session without a captured turn is none (no row, no digest) on every
path that makes sessions; the boot and the prompt hook name the working directory's last session, else
the newest anywhere, saying which; the questions that speak of it; a digest says where it left off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from memvault.server import hooks
from memvault.server.capture import capture
from memvault.server.config import Config
from memvault.storage.errors import NotFound
from memvault.storage.query import asks_for_last_session, refers_to_last_session
from memvault.storage.records import NewTurn
from memvault.storage.session_transfer import import_session
from memvault.storage.store import Store
from memvault.tools.boot import LAST_ELSEWHERE, LAST_HERE, boot_context
from memvault.tools.caller import Caller

SHOP, BLOG = "/home/dev/proj/shop", "/home/dev/proj/blog"
CALLER = Caller(tenant="default", scope="default")


class _Transcript:
    """A transcript in Claude Code's format: user and assistant entries of one session."""

    def __init__(self, path: Path, session_id: str, cwd: str, hour: int = 9) -> None:
        self.path, self.session_id, self.cwd, self.n, self.hour = path, session_id, cwd, 0, hour

    def _write(self, kind: str, content: object) -> None:
        self.n += 1
        entry = {"type": kind, "uuid": f"{self.session_id}-{self.n}", "sessionId": self.session_id,
                 "timestamp": f"2025-12-01T{self.hour:02d}:00:{self.n:02d}Z", "cwd": self.cwd,
                 "message": {"role": kind, "content": content}}
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")

    def user(self, text: str) -> None:
        self._write("user", text)

    def assistant(self, text: str) -> None:
        self._write("assistant", [{"type": "text", "text": text}])


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Config:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # where the transcript offsets are kept
    return Config(db=tmp_path / "m.db")


def _store(config: Config) -> Store:
    return Store(config.db, FakeEmbedder())  # type: ignore[arg-type]


def _session(store: Store, config: Config, tmp_path: Path, session_id: str, cwd: str, asked: str,
             reply: str, hour: int = 9) -> None:
    """A session captured and ended as the hooks do it (Stop, then SessionEnd), its turns at ``hour``."""
    transcript = _Transcript(tmp_path / f"{session_id}.jsonl", session_id, cwd, hour)
    transcript.user(asked)
    transcript.assistant(reply)
    data = {"session_id": session_id, "transcript_path": str(transcript.path), "cwd": cwd}
    capture(store, config, "claude-code", data, end=False)
    capture(store, config, "claude-code", data, end=True)


# -- 1. no turn, no session ------------------------------------------------------------------------

@pytest.mark.parametrize("transcript", ["missing", "empty", "other-session"])
def test_a_session_end_without_a_captured_turn_leaves_no_session_and_no_digest(config, tmp_path, caplog, transcript):
    store = _store(config)
    try:
        _session(store, config, tmp_path, "real-0001", SHOP, "Add a retry to the webhook handler", "Done.")
        path = tmp_path / "t.jsonl"
        if transcript == "empty":
            path.write_text("")
        elif transcript == "other-session":
            _Transcript(path, "someone-else", SHOP).user("a turn of another session")
        capture(store, config, "claude-code", {"session_id": "empty-0004", "transcript_path": str(path),
                                               "cwd": SHOP}, end=True)
        with pytest.raises(NotFound):
            store.episodes.session(tenant="default", session_id="empty-0004")
        sessions = store.episodes.sessions(tenant="default")
        boot = boot_context(store, CALLER, 2_000, cwd=SHOP)
    finally:
        store.close()
    assert [s.id for s in sessions if s.id != "someone-else"] == ["real-0001"]  # its turn was captured
    assert all(s.turns for s in sessions)
    assert "no turn of it was captured" in caplog.text and "empty-0004" not in boot
    assert "real-0001" in boot.split(f"## {LAST_HERE}")[1]


def test_an_append_of_no_turns_makes_no_session_and_an_end_of_a_session_without_turns_writes_no_digest(store):
    outcome = store.episodes.append(tenant="t", scope="s", session_id="none-1", turns=[])
    assert (outcome.added, outcome.repeated) == ((), 0)
    with pytest.raises(NotFound):
        store.episodes.session(tenant="t", session_id="none-1")
    with pytest.raises(NotFound):
        store.episodes.end(tenant="t", session_id="none-1")
    assert store.episodes.sessions(tenant="t") == []


@pytest.mark.parametrize("texts", [["<private>just my notes</private>"],
                                   ["<private>notes</private>", "  <PRIVATE>reply</private>\n"],
                                   ["\uff1cprivate\uff1emine\uff1c/private\uff1e"]])
def test_turns_that_were_only_private_text_are_no_turns_and_make_no_session(store, texts):
    """A session whose only prompt was private is as empty as one that captured nothing: it never
    becomes the next boot's last session (a recheck found an empty "redacted private" turn kept)."""
    turns = [NewTurn(role=role, text=text) for role, text in zip(("user", "assistant"), texts)]
    outcome = store.episodes.append(tenant="t", scope="s", session_id="priv-1", turns=turns)
    assert outcome.added == () and "private" in outcome.redacted
    with pytest.raises(NotFound):
        store.episodes.session(tenant="t", session_id="priv-1")
    kept = store.episodes.append(tenant="t", scope="s", session_id="priv-2", turns=[
        *turns, NewTurn(role="user", text="Fix the login <private>my notes</private> bug")])
    assert len(kept.added) == 1
    assert [t.text.strip() for t in store.episodes.turns(tenant="t", session_id="priv-2")] == ["Fix the login bug"]


@pytest.mark.parametrize("ended", [None, "2025-12-01T09:00:00Z"])
def test_an_imported_session_line_without_turns_makes_no_session(store, ended):
    record = {"session_id": "imp-1", "scope": "s", "turns": [], "ended_at": ended, "digest_id": None}
    assert import_session(store, record, tenant="t", scope="s") == (0, 0)
    import_session(store, {**record, "turns": []}, tenant="t", scope="s")  # the import's second pass
    assert store.episodes.sessions(tenant="t") == []


def test_an_imported_session_with_turns_is_still_ended_by_its_last_line(store):
    turn = {"seq": 1, "role": "user", "text": "hello there", "at": "2025-12-01T09:00:00Z"}
    import_session(store, {"session_id": "imp-2", "scope": "s", "turns": [turn]}, tenant="t", scope="s", end=False)
    import_session(store, {"session_id": "imp-2", "scope": "s", "turns": [], "ended_at": "2025-12-01T09:01:00Z",
                           "digest_id": None}, tenant="t", scope="s")
    assert store.episodes.session(tenant="t", session_id="imp-2").ended_at is not None


# -- 2. this folder's last session -----------------------------------------------------------------

def _two_projects(config: Config, tmp_path: Path) -> None:
    store = _store(config)
    try:
        _session(store, config, tmp_path, "blog-1", BLOG, "Add an RSS feed to the blog", "The feed is at /rss.xml.")
        _session(store, config, tmp_path, "shop-1", SHOP, "Migrate the shop checkout to Stripe",
                 "Next: add a retry to the webhook handler.", hour=10)
    finally:
        store.close()


@pytest.mark.parametrize(("cwd", "title", "shown", "hidden"), [
    (BLOG, LAST_HERE, "blog-1", "shop-1"),
    (BLOG + "/", LAST_HERE, "blog-1", "shop-1"),
    (SHOP, LAST_HERE, "shop-1", "blog-1"),
    ("/home/dev/proj/new", LAST_ELSEWHERE, "shop-1", "blog-1"),  # none here: the newest, said as such
])
def test_session_start_shows_the_working_directorys_last_session(config, tmp_path, cwd, title, shown, hidden):
    _two_projects(config, tmp_path)
    out = hooks.run(config, "claude-code", "SessionStart", {"session_id": "next-1", "cwd": cwd})
    assert out is not None
    context = out["hookSpecificOutput"]["additionalContext"]
    sections = {part.split("\n", 1)[0]: part for part in context.split("\n## ")[1:]}
    last = [title for title in sections if title.startswith("Last session")]
    # shown once: under the task's heading when recall finds it relevant to the folder's name
    where = sections[last[0]] if last else sections["Relevant to the task"]
    assert last in ([title], []) and shown in where and hidden not in where
    assert last or title == LAST_HERE


def test_the_boot_resource_without_a_folder_shows_the_newest_session_anywhere(config, tmp_path):
    _two_projects(config, tmp_path)
    store = _store(config)
    try:
        boot = boot_context(store, CALLER, 2_000)
    finally:
        store.close()
    assert "shop-1" in boot.split("## Last session\n")[1]


@pytest.mark.parametrize("client", ["claude-code", "codex"])
@pytest.mark.parametrize(("cwd", "label", "shown", "hidden"), [
    (BLOG, LAST_HERE, "blog-1", "shop-1"),
    (SHOP, LAST_HERE, "shop-1", "blog-1"),
    ("/elsewhere", LAST_ELSEWHERE, "shop-1", "blog-1"),
])
def test_a_prompt_about_last_time_is_answered_by_the_folders_last_session(
        config, tmp_path, monkeypatch, client, cwd, label, shown, hidden):
    _two_projects(config, tmp_path)
    monkeypatch.setattr("memvault.storage.embeddings.Embedder", lambda *a, **k: FakeEmbedder())
    for prompt in ("where did we leave off?", "continue from last time", "remind me what we did"):
        out = hooks.run(config, client, "UserPromptSubmit", {"session_id": "next-1", "cwd": cwd, "prompt": prompt})
        assert out is not None, prompt
        context = out["hookSpecificOutput"]["additionalContext"]
        first = context.splitlines()[1]
        assert first.startswith(f"- {label}: ") and shown in first, (prompt, context)
        assert hidden not in context


# -- 3. the questions that speak of the last session ---------------------------------------------------

ASKING = [
    "what did we do last time?", "where did we leave off?", "recap of the last session", "last time",
    "summarize our last conversation", "what happened last session?", "what did you do in the previous session",
    "continue from last time", "pick up where we left off", "what was I doing before?", "remind me what we did",
    "what's next from last session?", "where were we?", "Let's continue where we stopped",
    "resume from where we were", "picking things back up where we left off", "what were we working on earlier?",
    "remind me where we were", "what did we do last time we talked?", "ok, carry on from before",
    "Pick it back up where we left off, please",
]
WITH_SUBJECT = [
    "What did we do last time on the checkout test?", "what did we decide last time about the database?",
    "continue from last time with the RSS feed", "remind me what we did to the webhook handler",
]
NOT_ASKING = [
    "last time I checked the API was down", "the last session of the conference", "when was the last time we deployed?",
    "what is the latest version?", "continue the migration", "pick up the package from the depot",
    "where is the staging db?", "what did Caroline do last weekend?", "remind me to buy milk",
    "what was the last time it failed?", "Last time you ran it, did the tests pass?", "resume the download",
]


@pytest.mark.parametrize("query", ASKING)
def test_a_question_for_the_last_session_is_recognised(query):
    assert asks_for_last_session(query) and refers_to_last_session(query)


@pytest.mark.parametrize("query", WITH_SUBJECT)
def test_a_question_about_a_subject_last_time_speaks_of_the_last_session_but_names_a_subject(query):
    assert refers_to_last_session(query) and not asks_for_last_session(query)


@pytest.mark.parametrize("query", NOT_ASKING)
def test_other_uses_of_last_or_continue_are_not_about_the_last_session(query):
    assert not refers_to_last_session(query) and not asks_for_last_session(query)


def test_a_question_with_a_subject_gets_the_last_session_that_names_it(config, tmp_path, monkeypatch):
    store = _store(config)
    try:
        _session(store, config, tmp_path, "shop-2", SHOP, "Fix the flaky checkout test", "The checkout test passes now.")
    finally:
        store.close()
    monkeypatch.setattr("memvault.storage.embeddings.Embedder", lambda *a, **k: FakeEmbedder())
    out = hooks.run(config, "claude-code", "UserPromptSubmit",
                    {"session_id": "n", "cwd": SHOP, "prompt": "What did we do last time on the checkout test?"})
    assert out is not None and "shop-2" in out["hookSpecificOutput"]["additionalContext"]


# -- 5. where it left off ---------------------------------------------------------------------------

@pytest.mark.parametrize(("reply", "cut"), [("Next: add a retry to the webhook handler.", False),
                                            ("More words here. " * 80 + "Next: add a retry to the webhook handler.", True)])
def test_the_digest_quotes_the_end_of_the_last_assistant_message_cut_to_a_small_cap(store, reply, cut):
    """Where the session left off: the last message's end (a long answer ends with what comes next),
    never a tool call the assistant made after it (a recheck found "command: ./deploy.sh" quoted)."""
    store.episodes.append(tenant="t", scope="s", session_id="d-1", turns=[
        NewTurn(role="user", text="Migrate the checkout"), NewTurn(role="assistant", text="Working on it."),
        NewTurn(role="assistant", text=reply),
        NewTurn(role="assistant", text="command: ./deploy.sh", tool="Bash", call_id="c1"),
        NewTurn(role="tool", text="ok", tool="Bash", call_id="c1")])
    digest = store.get(tenant="t", id=store.episodes.end(tenant="t", session_id="d-1").digest_id).content
    line = digest.splitlines()[-1]
    assert line.endswith('Next: add a retry to the webhook handler."') and line.startswith(
        'Left off with: "... ' if cut else 'Left off with: "Next:')
    assert "Working on it" not in line and "deploy.sh" not in line and len(line) < 300
