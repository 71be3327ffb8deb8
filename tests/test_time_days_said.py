"""Days said as words and the preterites of other languages read as their English twins (misc77's leftovers):
the Spanish and Portuguese preterites of the table's verbs in every person ("¿Qué desplegaron ayer?",
"¿Qué hicimos el martes?", "O que a equipe implantou ontem?"), the Japanese 昨日, 今日 and 一昨日, and the
French "hier" in a question with a word only French writes: in German and Dutch "hier" is "here", and such a
question names no day."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from stores import recall_of

from memvault.storage import timeforeign
from memvault.storage.timewords import TimeParser

NOW = datetime(2026, 12, 9, 15, 0, tzinfo=UTC)  # a Wednesday: yesterday the 8th, last Tuesday the 8th, Friday the 4th
NOW_MS = int(NOW.timestamp() * 1000)


def _day(iso: str) -> tuple[int, int]:
    start = int(datetime.fromisoformat(iso).replace(tzinfo=UTC).timestamp() * 1000)
    return start, start + 86_400_000


@pytest.mark.parametrize(("question", "day"), [
    ("¿Qué desplegaron ayer?", "2026-12-08"), ("¿Qué desplegó el equipo el viernes?", "2026-12-04"),
    ("¿Qué desplegué anteayer?", "2026-12-07"), ("O que a equipe implantou ontem?", "2026-12-08"),
    ("O que implantaram na sexta?", "2026-12-04"), ("¿Qué cambió ayer?", "2026-12-08"),
    ("¿Qué lanzaron el martes?", "2026-12-08"), ("O que mudou hoje?", "2026-12-09"),
    ("¿Qué decisión se tomó ayer?", "2026-12-08"), ("O que publicaram ontem?", "2026-12-08"),
    ("¿Qué entregaron el viernes?", "2026-12-04"), ("¿Qué planearon el martes?", "2026-12-08"),
    ("¿Qué hicimos el martes?", "2026-12-08"), ("O que fizemos na terça?", "2026-12-08"),
    ("¿Qué hizo el equipo el viernes?", "2026-12-04"), ("O que fizeram ontem?", "2026-12-08"),
    ("昨日何を決めましたか", "2026-12-08"), ("今日何をリリースしましたか", "2026-12-09"),
    ("一昨日何が起きましたか", "2026-12-07"), ("昨日は何が起きましたか", "2026-12-08"),
    ("Qu'avons-nous déployé hier ?", "2026-12-08"), ("Qu'est-ce qu'on a fait hier ?", "2026-12-08"),
    ("Qu'avez-vous décidé hier ?", "2026-12-08"), ("Pourquoi le build a échoué hier ?", "2026-12-08"),
    ("Was haben wir hier gestern gemacht?", "2026-12-08"),  # "gestern" says the day, "hier" is "here"
])
def test_the_day_a_question_says_in_words_is_read(question, day):
    found = TimeParser().find(timeforeign.in_english(question), NOW_MS)
    assert found is not None and (found.start, min(found.end, _day(day)[1])) == _day(day), \
        (timeforeign.in_english(question), found)


@pytest.mark.parametrize("question", [
    "Was ist hier passiert?", "Wat is hier gebeurd?", "Wer wohnt hier?", "Welche Dienste laufen hier?",
    "Wie is hier de beheerder?", "hier ?", "Was wurde hier entschieden?",
    # a present and a past alike: no past day (test_time_tense_unsaid)
    "¿Qué desplegamos el viernes?", "O que decidimos na terça-feira?",
])
def test_hier_of_german_and_dutch_and_an_ambiguous_tense_name_no_day(question):
    assert TimeParser().find(timeforeign.in_english(question), NOW_MS) is None, timeforeign.in_english(question)


@pytest.fixture(scope="module")
def shared_clock():
    return lambda: NOW_MS


MEMORIES = (
    ("Rolled back the payments release after a spike of errors", "episode", "2026-12-08T10:00:00Z"),
    ("Rotated the staging TLS certificate", "episode", "2026-12-02T10:00:00Z"),
    ("The payments service runs on three nodes", "fact", "2026-11-02T10:00:00Z"),
)


@pytest.mark.parametrize("question", ["昨日何が起きましたか", "Qu'est-ce qui s'est passé hier ?", "¿Qué hicieron ayer?"])
def test_a_question_saying_yesterday_finds_yesterdays_episode_first(shared_store, question):
    result = recall_of(shared_store, MEMORIES, question)
    assert result.time is not None and result.hits[0].memory.content == MEMORIES[0][0], \
        [h.memory.content for h in result.hits]
