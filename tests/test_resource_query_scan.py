"""A resource URI's query is scanned for credentials once, whatever its number of parameters
(adversarial pass 48: each of 19,000 pieces was scanned alone, 25-29 s of CPU for one read by a
read-only key); a credential in any parameter, or split over a name and its value, is still found."""

from __future__ import annotations

import pytest

from memvault.server import checks

RESOURCES = ("memory://boot{?task,tokens}", "memory://sessions/{id}{?tokens,after}", "memory://review")


@pytest.fixture
def scans(monkeypatch):
    counted: list[int] = []
    real = checks.credentials_in

    def counting(*texts: str) -> str | None:
        counted.append(len(texts))
        return real(*texts)

    monkeypatch.setattr(checks, "credentials_in", counting)
    return counted


@pytest.mark.parametrize("query", ["&" * 18_000, "a=&" * 6_000, "&".join(f"a{i}=b{i}" for i in range(1_700))])
def test_many_parameters_are_one_scan(scans, query: str) -> None:
    assert checks.resourcerefusal(RESOURCES, "memory://sessions/x?" + query) is None
    assert scans == [1]


@pytest.mark.parametrize("where", [0, 900, 1_699])
@pytest.mark.parametrize("credential", ["token=ghp_0123456789abcdefghijABCDEFGHIJ012345", "password=Tr0ub4dor3x",
                                        "note=postgres%3A%2F%2Fapp%3AXk29slQpz%40db%2Fprod"])
def test_a_credential_among_many_parameters_is_found_wherever_it_stands(scans, where: int, credential: str) -> None:
    pieces = [f"a{i}=b{i}" for i in range(1_700)]
    pieces[where] = credential
    refusal = checks.resourcerefusal(RESOURCES, "memory://boot?" + "&".join(pieces))
    assert refusal is not None and "query parameter holds a value that looks like" in refusal
    assert credential.partition("=")[2][:12] not in refusal and scans == [1]


def test_a_parameter_the_resource_takes_is_not_scanned_as_a_credential(scans) -> None:
    assert checks.resourcerefusal(RESOURCES, "memory://boot?task=rotate+the+password+policy&tokens=800") is None


# Adversarial pass 57 F2: memory://boot?task=deploy&task=<token> was read and its result sent the URI back
# (the SDK reads a parameter's first value; the others were checked nowhere), and a failed read
# (memory://sessions/abc?tokens=5&tokens=<token>) wrote it to the SDK's log line.
SERVED = ("memory://boot", "memory://boot{?task}", "memory://memories/{memory_id}", "memory://sessions",
          "memory://sessions/{session_id}{?tokens}", "memory://review")
TAKEN = [("memory://boot", "task", "deploy"), ("memory://sessions/abc", "tokens", "5")]
TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.mark.parametrize("second", ["5", "deploy", "", TOKEN])
@pytest.mark.parametrize("positions", [(0, 1), (0, 2), (1, 2), (0, 1, 2)])
@pytest.mark.parametrize(("base", "name", "value"), TAKEN)
def test_a_parameter_the_resource_takes_given_twice_is_refused_naming_it(scans, base, name, value, positions,
                                                                         second) -> None:
    pieces = ["utm=x", "a=b", "c=d"]
    for n, at in enumerate(positions):
        pieces[at] = f"{name}={value if n == 0 else second}"
    refusal = checks.resourcerefusal(SERVED, f"{base}?{'&'.join(pieces)}")
    assert refusal == (f"uri: the query parameter {name!r} is given {len(positions)} times; the resource reads "
                       "one value of it: give it once")
    assert scans == []  # refused before any scan: nothing of it is quoted


@pytest.mark.parametrize("uri", [
    "memory://boot?t%61sk={}", "memory://boot?%74ask={}", "memory://boot?TASK={}", "memory://boot?task=deploy#{}",
    "memory://boot?task=deploy#x={}", "memory://boot?#{}", "memory://sessions/abc?tok%65ns={}",
    "memory://sessions/abc?tokens=5#{}", "memory://sessions/abc?tokens=5&tokens%20={}", "memory://review?#{}",
    "memory://sessions?#{}", "memory://memories/01a23a5b-6bd3-7276-bf85-485ed3ff6b2d?#{}",
])
def test_a_credential_the_sdk_does_not_read_as_a_taken_parameter_is_refused(uri: str) -> None:
    """The SDK names a parameter as sent (``t%61sk`` is not ``task``) and reads no fragment: both are only
    sent back, so both are scanned."""
    refusal = checks.resourcerefusal(SERVED, uri.format(TOKEN))
    assert refusal is not None and "a value that looks like a GitHub token" in refusal and TOKEN not in refusal


@pytest.mark.parametrize("uri", ["memory://boot?task=deploy", "memory://boot?task=deploy&utm=x#top",
                                 "memory://boot?task=a%26task%3Db", "memory://boot?task=deploy&t%61sk=x",
                                 "memory://sessions/abc?tokens=5&after=2", "memory://sessions/abc?tokens=5#turn-3"])
def test_a_parameter_given_once_is_still_read(uri: str) -> None:
    assert checks.resourcerefusal(SERVED, uri) is None


def test_the_team_servers_log_of_a_failed_read_never_quotes_a_credential_in_its_uri(tmp_path, caplog) -> None:
    """The SDK logs each failed read with its URI ("Resource '...' failed"): the team server's log
    shows it as messages show a value, a credential named by its kind."""
    import logging

    from memvault.server.config import Config, load_http
    from memvault.server.http import build_app

    build_app(Config(db=tmp_path / "m.db"), load_http())
    sdk = logging.getLogger("mcp.server.mcpserver.server")
    with caplog.at_level(logging.INFO, logger=sdk.name):
        for uri in (f"memory://sessions/abc?tokens=5&x={TOKEN}", f"memory://boot?task={TOKEN}",
                    "memory://sessions/" + "a" * 2_000 + TOKEN):
            sdk.info("Resource %r failed: %r", uri, "session_id: no session 'abc'")
    assert TOKEN not in caplog.text and TOKEN[:12] not in caplog.text
    assert caplog.text.count("a value that looks like a GitHub token") == 2
    assert caplog.text.count("failed: \"session_id: no session 'abc'\"") == 3  # the rest of the line as it was
