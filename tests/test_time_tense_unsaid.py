"""A verb form that is a present and a past alike (Spanish and Brazilian "desplegamos": we deploy, or we deployed)
makes no weekday a past day: "¿Desplegamos el viernes?" asks of a habit or a plan, as "do we deploy on Friday?"
does, and finds "Nunca desplegamos los viernes" first, not what happened last Friday (issue 25 §2: a time
counts only where it is unambiguously one). A word that tells the time ("pasado", "ayer", "gestern", a
perfect, a preterite of one form) still reads it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from stores import recall_of

from memvault.storage import timeforeign
from memvault.storage.timewords import TimeParser

NOW = datetime(2026, 12, 9, 15, 0, tzinfo=UTC)  # a Wednesday: last Friday is 4 December, yesterday the 8th
NOW_MS = int(NOW.timestamp() * 1000)
HABIT = "Nunca desplegamos los viernes"
MEMORIES = (
    (HABIT, "fact", "2026-11-02T10:00:00Z"),
    ("We never deploy on Fridays", "fact", "2026-11-02T10:00:00Z"),
    ("Hablamos con el cliente cada lunes", "fact", "2026-11-02T10:00:00Z"),
    ("Rotated the staging TLS certificate", "episode", "2026-12-04T11:00:00Z"),
    ("Fixed the flaky login test", "episode", "2026-12-04T15:00:00Z"),
    ("Desplegamos la versión 2.3 a producción", "episode", "2026-12-08T10:00:00Z"),
)


def _day(iso: str) -> tuple[int, int]:
    start = int(datetime.fromisoformat(iso).replace(tzinfo=UTC).timestamp() * 1000)
    return start, start + 86_400_000


@pytest.mark.parametrize("question", [
    "¿Desplegamos el viernes?", "Desplegamos el viernes", "¿Qué desplegamos el viernes?",
    "¿Qué decidimos el martes?",
    "¿Lanzamos el lunes?", "¿Cambiamos algo el lunes?", "¿Nos reunimos el jueves?", "¿Entregamos el miércoles?",
    "¿Tomamos la decisión el martes?", "¿Planeamos el sprint el lunes?", "Publicamos el viernes",
    "O que decidimos na terça-feira?", "Nós mudamos a senha na segunda-feira?",
    # already none: no word of the table, or English not in the past
    "¿Vivimos en Madrid el martes?", "¿Hablamos el lunes?", "do we deploy on Friday?",
])
def test_a_weekday_beside_a_verb_of_either_tense_is_no_past_day(question):
    assert TimeParser().find(timeforeign.in_english(question), NOW_MS) is None


@pytest.mark.parametrize("word", sorted(w for w in timeforeign._asked() if w.endswith("amos")))
def test_no_first_person_plural_in_amos_of_the_table_reads_as_a_past(word):
    # Spanish -ar verbs write their present and preterite alike, and so does Brazil; -er and -ir verbs write
    # no past in -amos: no such word may make "el martes" last Tuesday.
    assert TimeParser().find(timeforeign.in_english(f"¿Qué {word} el martes?"), NOW_MS) is None


@pytest.mark.parametrize(("question", "day"), [
    ("desplegamos el viernes pasado", "2026-12-04"), ("¿Qué decidimos el martes pasado?", "2026-12-08"),
    ("¿Qué hemos desplegado el viernes?", "2026-12-04"), ("¿Qué se decidió el martes?", "2026-12-08"),
    ("O que lançámos na terça-feira?", "2026-12-08"),  # Portugal's preterite, accented
    ("¿Desplegamos el viernes 4 de diciembre?", "2026-12-04"), ("did we deploy on Friday?", "2026-12-04"),
    ("¿qué desplegamos ayer?", "2026-12-08"), ("¿Qué pasó ayer?", "2026-12-08"),
    ("Was ist gestern passiert?", "2026-12-08"), ("Wat hebben we gisteren besloten?", "2026-12-08"),
    ("O que decidimos ontem?", "2026-12-08"), ("Cosa abbiamo deciso ieri?", "2026-12-08"),
    ("Cosa abbiamo deciso l'altro ieri?", "2026-12-07"), ("Was haben wir vorgestern entschieden?", "2026-12-07"),
    ("¿Qué decidimos hoy?", "2026-12-09"), ("Qu’avons-nous décidé aujourd’hui ?", "2026-12-09"),
])
def test_a_word_that_tells_the_time_still_reads_that_day(question, day):
    found = TimeParser().find(timeforeign.in_english(question), NOW_MS)
    assert found is not None and (found.start, min(found.end, _day(day)[1])) == _day(day)


@pytest.mark.parametrize("question", ["what did Ayer write about logic?", "Was haben wir hier entschieden?",
                                      "hoy", "Heute Show notes"])
def test_a_day_s_word_outside_a_question_of_that_language_is_no_time(question):
    assert TimeParser().find(timeforeign.in_english(question), NOW_MS) is None


@pytest.fixture(scope="module")
def shared_clock():
    return lambda: NOW_MS


@pytest.mark.parametrize("question", ["¿Desplegamos el viernes?", "Desplegamos el viernes",
                                      "¿Qué desplegamos el viernes?"])
def test_a_question_of_either_tense_finds_the_habit_first_and_reads_no_time(shared_store, question):
    result = recall_of(shared_store, MEMORIES, question)
    assert result.time is None and not result.abstained
    assert result.hits[0].memory.content == HABIT


@pytest.mark.parametrize(("question", "day", "first"), [
    ("¿qué desplegamos ayer?", "2026-12-08", "Desplegamos la versión 2.3 a producción"),
    ("desplegamos el viernes pasado", "2026-12-04", None),
])
def test_a_question_that_tells_the_past_is_asked_of_that_day(shared_store, question, day, first):
    result = recall_of(shared_store, MEMORIES, question)
    assert result.time is not None and result.time.start == _day(day)[0]
    assert first is None or result.hits[0].memory.content == first
