"""What a recall asks, in every backend's terms: the filters a candidate must pass
and the question's words, by white-space chunk, with function words left out.

A backend turns the chunks into its own keyword query (FTS5 phrases, PostgreSQL
``tsquery`` phrases) without ever parsing the user's text as query syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .textindex import index_text

_WORD = re.compile(r"\w+")
MAX_PHRASES = 64  # chunks of a question that reach the keyword index

# Function words dropped from keyword queries: under OR-semantics they add matches
# without adding evidence ("when did X ..." matching every "did"). Only a chunk made
# of them alone is dropped: inside "end-of-life" or "state-of-the-art" they are part
# of the term. A query made only of them keeps them all. The contraction tails
# ("s", "t", "ll", ...) are what "it's" and "don't" leave behind.
STOP_WORDS = frozenset(
    "a an and are as at be been being but by can could did do does doing for from had has have having he her"
    " hers him his how i if in into is it its me my of on or our ours she so than that the their theirs them"
    " then there these they this those to too us was we were what when where which who whom whose why will"
    " with would you your yours s t d ll m re ve don"
    .split()
)
# A memory is indexed with the episode just before it in the same scope, when that
# one was observed at most this long before it (the same conversation): a reply such
# as "For walking or running?" is found through the question it answers.
EPISODE_GAP_MS = 30 * 60 * 1000
# Words asking for a password. memvault refuses to store secrets (storage/secrets.py), so a
# memory can at most say where one is kept, and would name it with one of these words:
# when no memory does, a question asking for one has no answer in the store (a near miss,
# however well the rest of the question matches). Broader words ("credentials", "key",
# "token") also reword other things ("where do we keep credentials for the apps?" asks
# where secrets live): on the agentic set they abstained on two answerable questions.
PASSWORD_WORDS = ("password", "passwords", "passphrase", "passphrases", "passcode", "passcodes")
CANDIDATES_MIN = 50


@dataclass(frozen=True)
class Filters:
    """What a memory must satisfy to be a candidate. Times are ms since the epoch.

    ``scopes``: allowed scopes; ``kinds``/``tags``: None for no filter, tags must
    all be present; ``since`` inclusive, ``until`` exclusive on ``observed_at``;
    ``now`` decides expiry; ``include_history`` admits superseded memories.
    """

    tenant: str
    scopes: list[str]
    now: int
    kinds: list[str] | None = None
    tags: list[str] | None = None
    since: int | None = None
    until: int | None = None
    include_history: bool = False


def query_chunks(query: str) -> list[list[str]]:
    """The words of ``query`` by white-space chunk, CJK runs as bigrams, stop-word-only
    chunks left out (all kept when nothing else is left); chunks without words and
    repeated chunks dropped; at most ``MAX_PHRASES``."""
    chunks = [_WORD.findall(index_text(chunk.replace("_", " ")) or "") for chunk in query.split()]
    chunks = [words for words in chunks if words]
    content = [words for words in chunks if not all(w.lower() in STOP_WORDS for w in words)]
    unique: list[list[str]] = []
    for words in content or chunks:
        if words not in unique:
            unique.append(words)
    return unique[:MAX_PHRASES]


def content_words(chunks: list[list[str]]) -> list[str]:
    """The words of ``chunks`` that are not :data:`STOP_WORDS` (all of them when every
    one is), in order: the words whose index terms weigh a question's coverage."""
    words = [w for chunk in chunks for w in chunk]
    return [w for w in words if w.lower() not in STOP_WORDS] or words


def asks_for_password(query: str) -> bool:
    """Whether ``query`` contains one of :data:`PASSWORD_WORDS`."""
    return any(w in PASSWORD_WORDS for w in _WORD.findall(query.lower()))
