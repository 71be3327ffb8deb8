"""Text inside <private>...</private> is never stored (issue 26): remember, supersede and import drop
those spans as the hooks do, say so in their result, and refuse content that is nothing else.
Asserted on the store and on what the CLI prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memvault.server import cli
from memvault.storage import transfer
from memvault.storage.errors import InvalidInput
from memvault.tools import handlers, text
from memvault.tools.caller import Caller

CALLER = Caller(tenant="default", scope="default")

# (content as sent, content stored): where a span was, no space is left at a line's start or end or
# before punctuation, and one where two would meet
DROPPED = [
    ("<private>secret plan</private> public part", "public part"),
    ("public part <PRIVATE note=1>secret plan</PRIVATE> and more", "public part and more"),
    ("public part\n<private>\nsecret plan\nline two\n</private>\nlast line", "public part\n\nlast line"),
    ("public part <private>secret plan", "public part"),  # unclosed: to the end, as the hooks do
    ("a <private>secret <private>plan</private> still</private> b", "a b"),  # nested: the outer span whole
    ("public < private >secret plan< /private > part", "public part"),
    ("Deploy window is Tuesday <private>my phone is secret plan</private> 14:00-16:00 UTC.",
     "Deploy window is Tuesday 14:00-16:00 UTC."),
    ("public part <private>secret plan</private>, and more", "public part, and more"),
    ("public part <private>secret plan</private>.", "public part."),
    ("public part\n<private>secret plan</private> next line", "public part\nnext line"),
    ("public part <private>secret plan</private>\nnext line", "public part\nnext line"),
    ("  indented <private>secret</private> <private>plan</private>\ttabbed", "  indented tabbed"),
    ("glued<private>secret plan</private>word", "gluedword"),
]
# Spaces away from a span are kept as given.
KEPT = ["two  spaces stay", "  indented line", "tab\tbetween", "a\n\n  b"]
EMPTY = ["<private>secret plan</private>", "  <private>secret plan</private>\n  ", "<private>secret plan",
         "<private>a</private>\u200b<private>b</private>"]


@pytest.mark.parametrize("sent,kept", DROPPED)
def test_remember_drops_private_spans_and_says_so(store, sent, kept):
    result = handlers.remember(store, CALLER, content=sent)
    stored = store.get(tenant="default", id=result.id).content
    assert stored == kept and "secret" not in stored and "plan" not in stored
    assert result.redacted == ["private"] and result.model_dump()["redacted"] == ["private"]
    assert "Redacted: the text inside <private>...</private> was removed" in text.render(result)


@pytest.mark.parametrize("sent", KEPT)
def test_spaces_away_from_a_private_span_are_kept(store, sent):
    assert store.get(tenant="default", id=handlers.remember(store, CALLER, content=sent).id).content == sent
    result = handlers.remember(store, CALLER, content=f"{sent} <private>secret plan</private> then:{sent}")
    assert store.get(tenant="default", id=result.id).content == f"{sent} then:{sent}"


def test_remember_without_private_spans_says_nothing_of_them(store):
    result = handlers.remember(store, CALLER, content="a plain memory about the <b>private</b> beach")
    assert result.redacted == [] and "Redacted" not in text.render(result)
    assert store.get(tenant="default", id=result.id).content == "a plain memory about the <b>private</b> beach"


@pytest.mark.parametrize("sent", EMPTY)
def test_content_that_is_only_private_is_refused_naming_the_field(store, sent):
    with pytest.raises(InvalidInput) as refused:
        handlers.remember(store, CALLER, content=sent)
    assert refused.value.field == "content" and "<private>" in refused.value.reason
    assert store.count_memories(tenant="default", scopes=["default"]) == 0


def test_a_credential_inside_a_private_span_is_dropped_not_refused(store):
    token = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
    result = handlers.remember(store, CALLER, content=f"the deploy token is in the vault <private>{token}</private>")
    assert store.get(tenant="default", id=result.id).content == "the deploy token is in the vault"


@pytest.mark.parametrize("sent,kept", DROPPED[:3])
def test_supersede_drops_private_spans_and_says_so(store, sent, kept):
    old = handlers.remember(store, CALLER, content="the old plan")
    result = handlers.supersede(store, CALLER, id=old.id, content=sent)
    assert store.get(tenant="default", id=result.id).content == kept and result.redacted == ["private"]
    assert "Redacted" in text.render(result)
    with pytest.raises(InvalidInput) as refused:
        handlers.supersede(store, CALLER, id=result.id, content=EMPTY[0])
    assert refused.value.field == "content"


def test_import_drops_private_spans_names_the_lines_and_refuses_a_line_of_private_only(store):
    # each its own memory, with a span after "0: "
    dropped = [(f"{i}: {sent}", f"{i}: {kept}") for i, (sent, kept) in enumerate(DROPPED)]
    lines = [json.dumps({"content": sent}) for sent, _ in dropped] + [json.dumps({"content": EMPTY[0]}),
                                                                      json.dumps({"content": "plain"})]
    report = transfer.import_lines(store, lines, tenant="default", scope="default")
    assert report.imported == len(dropped) + 1 and report.private_removed == tuple(range(1, len(dropped) + 1))
    assert [(e.line, e.field) for e in report.failed] == [(len(dropped) + 1, "content")]
    contents = {m.content for m in store.list_memories(tenant="default", scopes=["default"], limit=50)}
    assert contents == {kept for _, kept in dropped} | {"plain"}


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_cli_says_what_was_dropped_and_refuses_private_only_content(tmp_path: Path, capsys):
    db = str(tmp_path / "m.db")
    code, out, _ = _cli(capsys, "remember", "<private>secret plan</private> public part", "--db", db, "--json")
    assert code == 0 and json.loads(out)["redacted"] == ["private"]
    code, out, _ = _cli(capsys, "remember", "second <private>secret</private> note", "--db", db)
    assert code == 0 and "Redacted: the text inside <private>" in out
    code, out, err = _cli(capsys, "remember", "<private>secret plan</private>", "--db", db)
    assert code == 2 and "CONTENT: is empty once its <private>...</private> spans are removed" in err
    code, out, _ = _cli(capsys, "list", "--db", db, "--json")
    assert "secret" not in out and "public part" in out and "second note" in out
