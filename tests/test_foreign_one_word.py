"""A question in another language with one word of the asking table ("Wo", "Welche", "¿Dónde") is read as
asked in that language when another word writes a letter English does not ("läuft", "Jürgen") or it opens
with Spanish's "¿": the words no memory holds then cap nothing, as for two table words (trial 77: "Wo läuft
Memcached?" stayed at the cap, 0.45, over "Memcached listens on port 11211"). English questions naming an
accented name stay English."""

from __future__ import annotations

import pytest
from test_time_alone_is_no_answer import MEMORIES, over_the_tool, shared_clock  # noqa: F401 - fixture

from memvault.storage.ranking import SIBLING_CONFIDENCE
from memvault.storage.timeforeign import another_language


@pytest.mark.parametrize(("question", "foreign"), [
    ("Wo läuft Memcached?", True), ("Welche Version läuft?", True), ("Wer ist Jürgen?", True),
    ("¿Dónde corre Memcached?", True), ("Wo läuft die Datenbank?", True), ("Où tourne Memcached ?", False),
    ("Where does José work?", False), ("What does Müller own?", False), ("Was Müller promoted?", False),
    ("Who is Zoë?", False), ("Was the café open?", False), ("which café is open?", False),
    ("Who wrote Über?", False), ("Quand Memcached?", False),
])
def test_one_table_word_and_a_letter_english_does_not_write_tell_another_language(question, foreign):
    assert another_language(question) is foreign


@pytest.mark.parametrize("question", ["Wo läuft Memcached?", "¿Dónde corre Memcached?"])
def test_a_foreign_question_with_one_table_word_is_not_capped_for_its_unheard_words(shared_store, question):
    # The memory is English and the model reads English: how sure the answer is, is the signals' own
    # (0.46-0.48 here); what no longer holds it is the cap of a question whose words no memory holds.
    result = over_the_tool(shared_store, question)
    assert result.memories[0].content == "Memcached listens on port 11211", [m.content for m in result.memories]
    assert result.memories[0].confidence > SIBLING_CONFIDENCE, result.memories[0].confidence
