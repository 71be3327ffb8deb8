"""Time written in other forms (new-user trial 60): dates in digits in any order with dashes, slashes or
dots, ISO weeks, "the 1st", "a fortnight ago", "the end of the month", and the time words of other
languages; a date read as no time, or unread words, never make recall answer nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from stores import recall_of

from memvault.storage.timeforeign import in_english
from memvault.storage.timewords import TimeParser

NOW = datetime(2026, 12, 5, 15, 0, tzinfo=UTC)  # a Saturday
NOW_MS = int(NOW.timestamp() * 1000)
DROP, RUFF, FREEZE = ("We decided to drop Python 3.9 support", "We decided to adopt Ruff instead of flake8",
                      "We decided to freeze deploys over the holidays")
MEMORIES = [
    (DROP, "decision", "2026-12-01T10:00:00Z"),  # last Tuesday
    (RUFF, "decision", "2026-11-24T10:00:00Z"),  # the Tuesday before
    (FREEZE, "decision", "2026-11-13T10:00:00Z"),
    ("Migrated the search cluster to OpenSearch 2.11", "episode", "2026-10-15T10:00:00Z"),
    ("The release 4.2 shipped", "episode", "2026-03-03T09:00:00Z"),
    ("Build 2026.11.13 failed on the ARM runners", "failure", "2026-06-01T09:00:00Z"),
]


def day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).date().isoformat()


@pytest.mark.parametrize(("question", "since", "until"), [
    ("what did we decide on 13-11-2026?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 2026/11/13?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 13.11.2026?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 2026.11.13?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 1.12.2026?", "2026-12-01", "2026-12-02"),
    ("what did we decide on 01.12.2026?", "2026-12-01", "2026-12-02"),  # dots: day first
    ("what did we decide on 11-13-2026?", "2026-11-13", "2026-11-14"),
    ("what did we decide in week 48?", "2026-11-23", "2026-11-30"),
    ("what did we decide in W48?", "2026-11-23", "2026-11-30"),
    ("what did we decide in KW 48?", "2026-11-23", "2026-11-30"),
    ("what did we decide in week 50?", "2025-12-08", "2025-12-15"),  # ahead this year: last year's
    ("what did we decide in week 48 of 2025?", "2025-11-24", "2025-12-01"),
    ("what did we decide on the 1st?", "2026-12-01", "2026-12-02"),
    ("what did we decide on the 31st?", "2026-10-31", "2026-11-01"),  # the latest month with one
    ("what did we decide a fortnight ago?", "2026-11-16", "2026-11-23"),
    ("what did we decide two weeks ago?", "2026-11-16", "2026-11-23"),
    ("what did we decide at the beginning of the month?", "2026-12-01", "2026-12-05"),
    ("what did we decide at the start of the month?", "2026-12-01", "2026-12-05"),
    ("what did we decide at the end of the month?", "2026-11-21", "2026-12-01"),  # this month's is ahead
    # must stay as they were
    ("what did we decide on 2026-12-01?", "2026-12-01", "2026-12-02"),
    ("what happened on 15/10?", "2026-10-15", "2026-10-16"),
    ("what did we decide on 11/13?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 27/11/2026?", "2026-11-27", "2026-11-28"),
    ("what did we decide on Friday the 13th?", "2026-11-13", "2026-11-14"),
    ("what did we decide on the 1st of December?", "2026-12-01", "2026-12-02"),
    ("what did we decide in the 2nd quarter?", "2026-04-01", "2026-07-01"),
])
def test_a_date_form_is_the_time_it_names(question, since, until):
    found = TimeParser().find(in_english(question), NOW_MS)
    assert found is not None and (day(found.start), day(found.until)) == (since, until)


@pytest.mark.parametrize("question", [
    "what changed in version 13.11.2026?", "what failed in build 2026.11.13?", "what did we decide on 30/02/2026?",
    "what did we do in week 3 of the sprint?", "who won the 2nd round?",
])
def test_a_version_a_date_that_is_no_day_or_a_week_of_something_else_is_no_time(question):
    assert TimeParser().find(question, NOW_MS) is None


@pytest.mark.parametrize(("question", "english"), [
    ("was haben wir am letzten Dienstag entschieden?", "what have we on last Tuesday decided?"),
    ("qu'avons-nous décidé mardi dernier ?", "what have-we decided last Tuesday ?"),
    ("¿qué decidimos el martes pasado?", "¿what decide the last Tuesday?"),
    ("o que decidimos na terça-feira passada?", "the what decide na last Tuesday?"),
    ("cosa abbiamo deciso martedì scorso?", "what have decided last Tuesday?"),
    ("wat hebben we afgelopen dinsdag besloten?", "what have we last Tuesday decided?"),
    ("was ist letzte Woche passiert?", "what has last Week happened?"),
    ("Was haben wir am 1. Dezember entschieden?", "what have we on 1 December decided?"),
    ("Was haben wir am 24. November entschieden?", "what have we on 24 November decided?"),
    ("Qu'avons-nous décidé le 1er décembre ?", "what have-we decided on 1 December ?"),
    ("Qu’est-ce qu’on a décidé le 1er décembre ?", "what has-it what on a decided on 1 December ?"),
    ("¿Qué decidimos el 1 de diciembre de 2026?", "¿what decide on 1 December 2026?"),
    ("Wat hebben we op 24 november besloten?", "what have we on 24 november decided?"),  # "op": Dutch
    ("what did we decide on 1 Dezember?", "what did we decide on 1 December?"),
    ("12月1日に何を決めましたか?", " December 1   what   decided  ?"),
    ("Was haben wir am 1. Dez. entschieden?", "what have we on 1 December decided?"),
    ("Was haben wir am 3. Okt. 2026 entschieden?", "what have we on 3 October 2026 decided?"),
    ("Was haben wir im Dez. 2026 entschieden?", "what have we in December 2026 decided?"),
    ("Was haben wir am 4. Mrz. entschieden?", "what have we on 4 March decided?"),
    ("Was haben wir am 24.11. entschieden?", "what have we on 24 November decided?"),
    ("what did we decide on 24.11.?", "what did we decide on 24 November?"),
    ("先週の火曜日に何を決めましたか?", " Tuesday last week   what   decided  ?"),
    ("今週の月曜日に何を決めましたか?", " Monday this week   what   decided  ?"),
    # must stay unchanged: no time, English, or a name
    ("Domingo said the deploy was fine", "Domingo said the deploy was fine"),
    ("Mai approved the budget", "Mai approved the budget"),
    ("what did we decide last Tuesday?", "what did we decide last Tuesday?"),
    ("we moved 3 ago", "we moved 3 ago"),
    ("¿Qué decidimos sobre Jenkins?", "¿Qué decidimos sobre Jenkins?"),  # its question words: only beside a time
    ("was the van at the depot on 24 November?", "was the van at the depot on 24 November?"),
    ("what did the team decide at 10 am 24 November?", "what did the team decide at 10 am 24 November?"),
    ("we upgraded to OpenSearch 2.11.", "we upgraded to OpenSearch 2.11."),  # a version, no day
    ("what changed in 2.11.?", "what changed in 2.11.?"), ("what did we decide on 24.11.2026?",
                                                          "what did we decide on 24.11.2026?"),
    ("we moved 3 ago.", "we moved 3 ago."), ("was the set 2026 ready?", "was the set 2026 ready?"),
    ("the Dez team shipped on 3 Dec.", "the Dez team shipped on 3 Dec."),
])
def test_time_words_of_other_languages_are_written_in_english(question, english):
    assert in_english(question) == english


# A day and month in each language's forms, the month as dateparser's data names it (German "November"
# as English does: "am 24. November" was read as no time while "am 1. Dezember" was 1 December).
_DAY_FORMS = {"de": ("Was haben wir am {day}. {month} entschieden?",
                     "Was haben wir am {day}. {month} 2026 entschieden?"),
              "fr": ("Qu'avons-nous décidé le {day} {month} ?", "Qu'avons-nous décidé le {first} {month} 2026 ?"),
              "es": ("¿Qué decidimos el {day} de {month}?", "¿Qué decidimos el {first} de {month} de 2026?"),
              "pt": ("O que decidimos em {day} de {month}?", "O que decidimos no dia {day} de {month} de 2026?"),
              "it": ("Cosa abbiamo deciso il {day} {month}?", "Cosa abbiamo deciso il {first} {month} 2026?"),
              "nl": ("Wat hebben we op {day} {month} besloten?", "Wat hebben we op {day} {month} 2026 besloten?")}
_FIRST = {"fr": "1er", "es": "1º", "it": "1º"}


def _day_questions() -> list[tuple[str, str]]:
    from importlib import import_module

    from memvault.storage.timefmt import MONTH_NAMES

    cases = []
    for language, forms in _DAY_FORMS.items():
        info = import_module(f"dateparser.data.date_translation_data.{language}").info
        for number, month in enumerate(MONTH_NAMES[:11], start=1):
            name = max(info[month], key=len).title()
            for day in (1, 24):
                for form in forms:
                    first = _FIRST.get(language, "1") if day == 1 else str(day)
                    cases.append((form.format(day=day, first=first, month=name), f"2026-{number:02d}-{day:02d}"))
    return cases


@pytest.mark.parametrize(("question", "since"), [
    *_day_questions(),
    ("11月24日に何を決めましたか?", "2026-11-24"), ("2026年3月4日に何を決めましたか?", "2026-03-04"),
    ("Was haben wir am 24. Nov. entschieden?", "2026-11-24"),
    *((f"Was haben wir am {day}. {month} entschieden?", f"2026-{number:02d}-{day:02d}")
      for number, forms in enumerate(("Jan.", "Feb.", "Mär.|Mrz.", "Apr.", "Mai", "Jun.", "Jul.", "Aug.", "Sep.",
                                      "Okt.", "Nov."), start=1)
      for month in forms.split("|") for day in (1, 24)),
    ("Was haben wir im Nov. 2025 entschieden?", "2025-11-01"), ("Was haben wir am 1.12. entschieden?", "2026-12-01"),
    *((f"Was haben wir am {day}.{month}. entschieden?", f"2026-{month:02d}-{day:02d}")
      for month in range(1, 12) for day in (1, 24)),
    ("what did we decide on 24.11.?", "2026-11-24"), ("24.11.: was haben wir entschieden?", "2026-11-24"),
    ("先週の火曜日に何を決めましたか?", "2026-11-24"), ("先週火曜日に何を決めましたか?", "2026-11-24"),
    ("今週の月曜日に何を決めましたか?", "2026-11-30"), ("先週の日曜日に何を決めましたか?", "2026-11-29"),
    *((f"先週の{kanji}曜日に何を決めましたか?", f"2026-11-{day}") for day, kanji in enumerate("月火水木金土日", start=23)),
    *((f"今週の{kanji}曜日に何を決めましたか?", f"2026-{day}") for day, kanji in zip(
        ("11-30", "12-01", "12-02", "12-03", "12-04", "12-05"), "月火水木金土")),
    # English as it was
    ("what did we decide on 24 November?", "2026-11-24"), ("what did we decide on November 24?", "2026-11-24"),
    ("what did we decide in November 2025?", "2025-11-01"),
])
def test_a_day_in_every_month_of_another_language_is_that_day(question, since):
    found = TimeParser().find(in_english(question), NOW_MS)
    assert found is not None and day(found.start) == since


@pytest.fixture(scope="module")
def shared_clock():
    return lambda: NOW_MS


@pytest.mark.contract
@pytest.mark.parametrize(("question", "answer"), [
    ("what did we decide on 13-11-2026?", FREEZE),
    ("what did we decide on 2026/11/13?", FREEZE),
    ("what did we decide on 13.11.2026?", FREEZE),
    ("what did we decide on 01.12.2026?", DROP),
    ("what did we decide on 1.12.2026?", DROP),
    ("what did we decide in week 48?", RUFF),
    ("what did we decide in KW 48?", RUFF),
    ("what did we decide on the 1st?", DROP),
    ("what did we decide at the beginning of the month?", DROP),
    ("what did we decide at the end of the month?", RUFF),
    ("what did we decide on 1 Dezember?", DROP),
    ("what did we decide on 2026年12月1日?", DROP),
    ("Was haben wir am 1. Dez. entschieden?", DROP), ("Was haben wir am 24. Nov. entschieden?", RUFF),
    ("Was haben wir am 1.12. entschieden?", DROP), ("Was haben wir am 24.11. entschieden?", RUFF),
    ("Was haben wir am 13.11. entschieden?", FREEZE), ("what did we decide on 13.11.?", FREEZE),
    ("Was ist am 15. Okt. passiert?", "Migrated the search cluster to OpenSearch 2.11"),
    ("先週の火曜日に何を決めましたか?", RUFF), ("今週の火曜日に何を決めましたか?", DROP),
    ("what failed in build 2026.11.13?", "Build 2026.11.13 failed on the ARM runners"),
])
def test_a_date_form_finds_the_memory_of_that_time_first(shared_store, question, answer):
    outcome = recall_of(shared_store, MEMORIES, question)
    assert not outcome.abstained and outcome.hits[0].memory.content == answer


@pytest.mark.contract
@pytest.mark.parametrize(("question", "answer"), [
    ("was haben wir am letzten Dienstag entschieden?", DROP),
    ("qu'avons-nous décidé mardi dernier ?", DROP),
    ("¿qué decidimos el martes pasado?", DROP),
    ("Was haben wir am 1. Dezember entschieden?", DROP),
    ("Qu'avons-nous décidé le 1er décembre ?", DROP),
    ("¿Qué decidimos el 1 de diciembre?", DROP),
    ("12月1日に何を決めましたか?", DROP),
])
def test_a_question_in_another_language_or_with_an_unread_date_still_answers(shared_store, question, answer):
    outcome = recall_of(shared_store, MEMORIES, question)
    assert not outcome.abstained and answer in [hit.memory.content for hit in outcome.hits]


_ASKED = {"de": "Was haben wir am {day}. {month} entschieden?", "fr": "Qu'avons-nous décidé le {first} {month} ?",
          "es": "¿Qué decidimos el {day} de {month}?", "pt": "O que decidimos em {day} de {month}?",
          "it": "Cosa abbiamo deciso il {first} {month}?", "nl": "Wat hebben we op {day} {month} besloten?",
          "en": "what did we decide on {day} {month}?"}


def _asked_of_days() -> list[tuple[str, str]]:
    from importlib import import_module

    from memvault.storage.timefmt import MONTH_NAMES

    cases = []
    for number, day, answer in ((12, 1, DROP), (11, 24, RUFF), (11, 13, FREEZE)):
        for language, form in _ASKED.items():
            names = [MONTH_NAMES[number - 1]] if language == "en" else \
                import_module(f"dateparser.data.date_translation_data.{language}").info[MONTH_NAMES[number - 1]]
            first = _FIRST.get(language, "1") if day == 1 else str(day)
            cases.append((form.format(day=day, first=first, month=max(names, key=len).title()), answer))
        cases.append((f"{number}月{day}日に何を決めましたか?", answer))
    return cases


@pytest.mark.contract
@pytest.mark.parametrize(("question", "answer"), [
    *_asked_of_days(),
    ("was haben wir am letzten Dienstag entschieden?", DROP), ("qu'avons-nous décidé mardi dernier ?", DROP),
    ("¿qué decidimos el martes pasado?", DROP), ("cosa abbiamo deciso martedì scorso?", DROP),
    ("wat hebben we afgelopen dinsdag besloten?", DROP), ("what did we decide last Tuesday?", DROP),
    ("Was haben wir am 1. Dez. entschieden?", DROP), ("Was haben wir am 24.11. entschieden?", RUFF),
    ("先週の火曜日に何を決めましたか?", RUFF), ("今週の火曜日に何を決めましたか?", DROP),
    ("Was ist am 15. Oktober passiert?", "Migrated the search cluster to OpenSearch 2.11"),
    ("Qu'est-ce qui s'est passé le 15 octobre ?", "Migrated the search cluster to OpenSearch 2.11"),
    ("what happened on 15 October?", "Migrated the search cluster to OpenSearch 2.11"),
])
def test_a_day_asked_in_another_language_is_answered_as_its_english_twin(shared_store, question, answer):
    """Verify 60: "qu'avons-nous décidé le 1er décembre ?" put the 13 November decision first (0.73), and
    the Spanish, Italian and Japanese twins found the right one unsure (0.20-0.27): their question words
    were read as a subject no memory holds."""
    hits = recall_of(shared_store, MEMORIES, question).hits
    assert hits and hits[0].memory.content == answer and hits[0].confidence >= 0.5
    assert all(hit.confidence < 0.5 for hit in hits[1:])


@pytest.mark.contract
@pytest.mark.parametrize("question", ["Qu'avons-nous décidé sur le Kubernetes le 1er décembre ?",
                                      "Was haben wir am 1. Dezember über Kubernetes entschieden?",
                                      "what did we decide about Kubernetes on 1 December?"])
def test_a_subject_no_memory_holds_stays_unsure_in_any_language(shared_store, question):
    assert all(hit.confidence < 0.5 for hit in recall_of(shared_store, MEMORIES, question).hits)
