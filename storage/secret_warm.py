"""Warming the credential check up in small steps, off the request path.

On a cold process RE2 compiles the named-credential patterns (the largest some 350,000 instructions) and builds
their first DFA states when a text first names a credential: seconds on a loaded machine for a server's first
``remember``. The server's worker runs :func:`steps` in turns (``maintenance.Upkeep.start_warm_up``), serving its
queue between two; what a check needs before its step ran is compiled by that check, as without the warm-up (the
caches are the modules' own). RE2 holds the GIL while it compiles, so a step under way stalls every thread: the
programs that the most of ``FIRST_MEMORIES`` need come first (the smaller first among as many), then the others
from the smallest (the misspelled words' last), so that a first ``remember`` seldom waits behind a step it does not
need.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

# Memories as an agent's first ones are: the programs the most of them need are compiled first.
FIRST_MEMORIES = ("The team lead is Maria", "Releases ship on Tuesdays after the standup",
                  "The staging database listens on port 5433", "The VPN gateway is vpn2.corp.example",
                  "Prefer pytest fixtures over setUp methods", "We decided to round the cart total once",
                  "Rotate the API key before Friday's release", "Deploys go out via a pipeline",
                  "The new staging cluster runs on ARM")
# Texts naming credentials as the largest programs read them (the prose grammar, the misspelled words, a
# document's key, another language): their searches build those programs' first DFA states.
WARM_TEXTS = ("The admin password is Warm2up!x", "db:\n  password: Warm2up!x\n", "export API_KEY=sk-Warm2up0x",
              "Das Passwort ist Warm2up!x", "the pasword for the vpn is Warm2up!x")


def steps() -> Iterator[str]:
    """The warm-up, one step a ``next()``, each yielding what it did: detect-secrets' filters imported, the
    detectors built (their small patterns), each named-credential pattern compiled and then searched over
    ``WARM_TEXTS`` (two steps: RE2 compiles a program's reversed program at its first match), those needed by the
    most of ``FIRST_MEMORIES`` first, then by the length of their sources; then the check and the redaction of each of
    ``WARM_TEXTS``. Fills caches only; stops where its caller stops asking."""
    from detect_secrets.filters import heuristic  # noqa: F401  # what secret_values.is_filtered imports

    yield "detect-secrets' filters imported"
    from .secret_named import named_pattern, named_sources, needed
    from .secret_re2 import utf8
    from .secrets import detectors, find_secrets, redact

    detectors()
    yield "detectors built"
    sources, wanted = named_sources(), Counter(n for text in FIRST_MEMORIES for n in needed(text))
    for number in sorted(range(len(sources)), key=lambda n: (-wanted[n], len(sources[n]))):
        pattern = named_pattern(number)
        yield f"named pattern {number} compiled"
        for text in WARM_TEXTS:
            pattern.search(utf8(text)[0])
        yield f"named pattern {number} searched"
    for text in WARM_TEXTS:
        find_secrets(text)
        redact(text)
        yield f"checked {text!r}"
