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


@pytest.mark.parametrize("query", ["&" * 18_000, "a=&" * 6_000, "&".join(f"a{i}=b{i}" for i in range(1_700)),
                                   "&".join("tokens=5" for _ in range(2_000))])
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
