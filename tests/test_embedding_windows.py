"""The windows a long memory is embedded in (``Embedder.windows``): they move on through any text,
start at a word's start where one is near, and never repeat. An adversarial pass (stop 47) found every
window of a text without spaces (Chinese, Japanese, minified JSON, a token repeated) to be the text's
first 128 tokens: meaning-based recall never saw the rest, and the model ran on one window up to 64 times."""

from __future__ import annotations

import json

import pytest
from memvault.storage.embeddings import WINDOW_TOKENS, Embedder, TokenCounter

NO_SPACES = {
    "chinese": "".join(f"第{i}次部署把数据库迁移到新的集群，耗时{i % 9 + 1}分钟。" for i in range(120)),
    "japanese": "".join(f"{i}回目のデプロイでデータベースを新しいクラスタへ移行した。" for i in range(120)),
    "json": json.dumps({f"service{i}": {"port": 9000 + i, "owner": f"team{i % 7}"} for i in range(200)},
                       separators=(",", ":")),
    "url": "https://example.com/" + "/".join(f"segment{i}" for i in range(600)),
}
PROSE = " ".join(f"Deploy number {i} moved the database to cluster {i % 13} in {i % 50 + 1} minutes."
                 for i in range(120))


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()  # windows need the tokenizer only: no model is loaded


@pytest.mark.parametrize("text", [*NO_SPACES.values(), PROSE], ids=[*NO_SPACES, "prose"])
def test_windows_move_on_through_the_whole_text_and_never_repeat(embedder, text):
    windows = embedder.windows(text)
    assert windows[0] == text and len(windows) > 3
    starts = [text.index(w) for w in windows[1:]]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)  # each later than the one before
    assert len(set(windows)) == len(windows)
    assert text.endswith(windows[-1])  # the last window reaches the text's end
    assert all(len(TokenCounter().offsets(w)) <= WINDOW_TOKENS for w in windows[1:])


def test_windows_of_prose_begin_at_a_word(embedder):
    assert all(PROSE[PROSE.index(w) - 1] == " " for w in embedder.windows(PROSE)[2:])


@pytest.mark.parametrize("unit", ["sk-", "word ", "The deploy runbook says to drain nodes first. "])
def test_a_text_repeating_itself_is_embedded_in_few_windows(embedder, unit):
    text = unit * (8_000 // len(unit))
    windows = embedder.windows(text)
    assert len(set(windows)) == len(windows) <= 8
