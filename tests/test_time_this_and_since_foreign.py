""""This week", "since Monday" and "until Friday" in other languages read as their English twins (new-user
trial 79): "Was ist seit Montag passiert?", "depuis lundi", "desde el lunes" were read as the Monday alone (and
abstained), "diese Woche", "cette semaine", "esta semana", "今週" named no time at all."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from stores import recall_of
from test_time_days_said import MEMORIES, NOW_MS, shared_clock  # noqa: F401 - fixture

from memvault.storage import timeforeign
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.timewords import TimeParser

# test_time_days_said's clock (Wednesday 9 December 2026: this week from Monday the 7th) and memories
DAY_MS = 86_400_000


def _at(iso: str) -> int:
    return int(datetime.fromisoformat(iso).replace(tzinfo=UTC).timestamp() * 1000)


def _read(question: str):  # type: ignore[no-untyped-def]
    return TimeParser().find(timeforeign.in_english(question), NOW_MS)


@pytest.mark.parametrize(("question", "since"), [
    ("Was ist seit Montag passiert?", "2026-12-07"), ("Qu'est-ce qui s'est passé depuis lundi ?", "2026-12-07"),
    ("¿Qué pasó desde el lunes?", "2026-12-07"), ("O que aconteceu desde segunda-feira?", "2026-12-07"),
    ("Wat is er sinds maandag gebeurd?", "2026-12-07"), ("Was wurde seit Dienstag entschieden?", "2026-12-08"),
    ("¿Qué desplegaron desde el viernes?", "2026-12-04"), ("Qu'avons-nous livré depuis vendredi ?", "2026-12-04"),
    ("Was haben wir diese Woche gemacht?", "2026-12-07"), ("Qu'avons-nous fait cette semaine ?", "2026-12-07"),
    ("¿Qué hicimos esta semana?", "2026-12-07"), ("O que fizemos esta semana?", "2026-12-07"),
    ("Wat hebben we deze week gedaan?", "2026-12-07"), ("Cosa abbiamo fatto questa settimana?", "2026-12-07"),
    ("今週何をしましたか", "2026-12-07"), ("Was haben wir diesen Monat entschieden?", "2026-12-01"),
    ("今月何が起きましたか", "2026-12-01"), ("¿Qué decidimos este mes?", "2026-12-01"),
    # adversarial pass 83: Italian "since" ("da", "dal", "dalla", "dall'") was read as "of": the day alone
    ("Cosa è cambiato da lunedì?", "2026-12-07"), ("Cosa è successo da ieri?", "2026-12-08"),
    ("Cosa abbiamo deciso dal 3 dicembre?", "2026-12-03"), ("Cosa è successo dalla settimana scorsa?", "2026-11-30"),
    ("Cosa abbiamo rilasciato a partire da martedì?", "2026-12-08"), ("Cosa è cambiato dall'altro ieri?", "2026-12-07"),
    ("Cosa è cambiato dal mese scorso?", "2026-11-01"),
    # German "last" declined after "seit" (dative) as after a bare weekday
    ("Was haben wir seit letztem Mittwoch beschlossen?", "2026-12-02"),
    ("Was wurde seit vergangenem Mittwoch entschieden?", "2026-12-02"),
    ("Was ist seit vorigem Montag passiert?", "2026-12-07"), ("Was ist seit letztem Freitag passiert?", "2026-12-04"),
])
def test_this_and_since_run_from_their_start_to_now(question, since):
    found = _read(question)
    assert found is not None and found.start == _at(since) and found.end >= NOW_MS, \
        (timeforeign.in_english(question), found)


@pytest.mark.parametrize(("question", "until"), [
    ("Was ist bis Freitag passiert?", "2026-12-05"), ("¿Qué pasó hasta el viernes?", "2026-12-05"),
    ("O que mudou até sexta-feira?", "2026-12-05"),
])
def test_until_runs_up_to_the_days_end(question, until):
    found = _read(question)
    assert found is not None and found.end == _at(until), (timeforeign.in_english(question), found)


@pytest.mark.parametrize(("question", "start"), [
    ("先週何が起きましたか", "2026-11-30"), ("Was haben wir letzte Woche gemacht?", "2026-11-30"),
    ("Wat hebben we vorige week gedaan?", "2026-11-30"),
])
def test_last_week_alone_is_the_week_before(question, start):
    found = _read(question)
    assert found is not None and (found.start, found.end) == (_at(start), _at(start) + 7 * DAY_MS), \
        (timeforeign.in_english(question), found)


@pytest.mark.parametrize("question", [
    "Diese Datenbank läuft auf db-7", "Cette machine est lente", "Esta máquina es lenta",
    "Ce serveur tourne depuis longtemps", "Seit wann läuft der Server?", "We deploy this week's build",
    "Il pacco arriva da Milano", "Cosa ha detto Dal Monte?", "Il treno da 3 vagoni parte presto",
])
def test_words_for_this_and_since_without_a_time_name_none(question):
    """"this" before no week or month, "seit wann" (since when), English left as written."""
    found = _read(question)
    assert found is None or question.endswith("build") and found.text == "this week", \
        (timeforeign.in_english(question), found)


@pytest.mark.parametrize("question", ["Was ist seit Montag passiert?", "¿Qué pasó desde el lunes?",
                                      "Qu'est-ce qui s'est passé cette semaine ?", "今週何が起きましたか"])
def test_a_question_since_monday_finds_this_weeks_episode_first_and_sure(shared_store, question):
    result = recall_of(shared_store, MEMORIES, question)
    assert result.time is not None and result.hits[0].memory.content == MEMORIES[0][0], \
        [(h.memory.content, h.confidence) for h in result.hits]
    assert result.hits[0].confidence >= SURE_CONFIDENCE
