"""A change said of an attribute by its noun ("The backup schedule was changed to 4:00", "frequency", "timezone",
"quota", "region", "owner" ...; ``contradiction_words.ATTRIBUTES``, in English, German, French and Spanish) goes to
the slot of the value the older states of that thing, and contradicts it; German function words are read as
English's, its capitalised nouns after an article as words, and a compound ending in an attribute's noun as that
attribute of the word before it ("Die Uhrzeit des Backups wurde auf 4:00 geändert", "Die Backupzeit ...") (issue 27
§2). An attribute of another thing, or another attribute, changes nothing. Word tests at the packaged model's
cosine, then remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

CHANGED = [  # (older, newer): the newer changes the attribute the older states
    ("Backups run nightly at 2:00", "The backup schedule was changed to 4:00"),
    ("Backups run nightly at 2:00", "The backup schedule changed to weekly"),
    ("The backup schedule is nightly at 2:00", "The backup schedule changed to weekly"),
    ("The cache is flushed every 6 hours", "The flush frequency was changed to 12 hours"),
    ("The cache is flushed every 6 hours", "The flush interval was changed to 12 hours"),
    ("Metrics are scraped every 15 seconds", "The scrape interval was changed to 30 seconds"),
    ("Anna owns the billing service", "The owner of the billing service was changed to Nils"),
    ("The office is in Lisbon", "The office location was changed to Porto"),
    ("The server runs in UTC", "The server timezone was changed to CET"),
    ("Logs are kept for 14 days", "The log retention was changed to 30 days"),
    ("Uploads are capped at 10 MB", "The upload quota was changed to 25 MB"),
    ("Builds time out after 30 minutes", "The build timeout was changed to 60 minutes"),
    ("Reports are sent on Mondays", "The report day was changed to Friday"),
    ("Backups are stored in eu-west-1", "The backup region was changed to eu-central-1"),
    ("Sessions expire after 30 minutes", "The session lifetime was changed to 60 minutes"),
    ("The standup is at 9:15", "The standup slot moved to 10:30"),
    ("The newsletter goes out every Monday", "The newsletter cadence changed to every Friday"),
    ("The database is in Frankfurt", "The database location changed to Dublin"),
    ("The cron job runs at 3:00", "The cron schedule was updated to 5:00"),
    # German, French, Spanish
    ("Das Backup läuft um 2:00", "Die Uhrzeit des Backups wurde auf 4:00 geändert"),
    ("Das Backup läuft um 2:00", "Die Backupzeit wurde auf 4:00 geändert"),
    ("Das Standup ist um 9:15", "Die Standupzeit wurde auf 10:30 verschoben"),
    ("Der Cache wird alle 6 Stunden geleert", "Das Intervall des Caches wurde auf 12 Stunden geändert"),
    ("Die Logs werden 14 Tage aufbewahrt", "Die Aufbewahrung der Logs wurde auf 30 Tage erhöht"),
    ("Der Server steht in Frankfurt", "Der Standort des Servers wurde nach Dublin verlegt"),
    ("Le cache est vidé toutes les 6 heures", "La fréquence du cache a été changée à 12 heures"),
    ("Les journaux sont conservés 14 jours", "La rétention des journaux a été augmentée à 30 jours"),
    ("La sauvegarde a lieu à 2h00", "L'horaire de la sauvegarde a été changé à 4h00"),
    ("La caché se vacía cada 6 horas", "La frecuencia de la caché se cambió a 12 horas"),
    ("Los registros se guardan 14 días", "La retención de los registros se aumentó a 30 días"),
    ("La copia de seguridad se hace a las 2:00", "El horario de la copia de seguridad se cambió a las 4:00"),
]
APART = [  # (older, newer): the attribute of another thing, or another attribute
    ("Backups run nightly at 2:00", "The restore schedule was changed to 4:00"),
    ("Backups run nightly at 2:00", "The backup size limit was changed to 50 GB"),
    ("The cache is flushed every 6 hours", "The cache size was changed to 2 GB"),
    ("Logs are kept for 14 days", "The metrics retention was changed to 90 days"),
    ("The office is in Lisbon", "The warehouse location was changed to Porto"),
    ("Uploads are capped at 10 MB", "The download quota was changed to 25 GB"),
    ("The standup is at 9:15", "The retro slot moved to 16:00"),
    ("Reports are sent on Mondays", "The invoice day was changed to Friday"),
    ("Das Backup läuft um 2:00", "Die Uhrzeit des Restores wurde auf 4:00 geändert"),
    ("Das Backup läuft um 2:00", "Die Restorezeit wurde auf 4:00 geändert"),
    ("Das Backup läuft um 2:00", "Die Backupgröße wurde auf 50 GB erhöht"),
    ("Le cache est vidé toutes les 6 heures", "La taille du cache a été changée à 2 Go"),
    ("La copia de seguridad se hace a las 2:00", "El horario de la reunión se cambió a las 4:00"),
]


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_a_change_of_the_attribute_by_its_noun_contradicts_the_older(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_an_attribute_of_another_thing_or_another_attribute_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Backups run nightly at 2:00", "The backup schedule was changed to 4:00", "When do backups run?"),
    ("Das Backup läuft um 2:00", "Die Uhrzeit des Backups wurde auf 4:00 geändert", "Wann läuft das Backup?"),
])
def test_recall_puts_the_changed_attribute_first_and_marks_the_older(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
