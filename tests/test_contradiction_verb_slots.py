"""A newer memory naming an attribute of its owner ("The backup job's schedule is now 04:30", "Der Datenbankhost ist
jetzt db-neu-05") contradicts an older one stating that attribute's value with a verb and no noun of it ("The backup
job runs at 02:00", "Die Datenbank läuft auf db-alt-02"): the value's kind (a time, a port number, a place, a host
name) tells which attribute it fills (issue 27 §2). Another attribute of the same owner ("The API's timeout is now 30
s", "Tomas's manager is now Ana", "The backup job's retention is now 30 days"), the same attribute of another owner,
or a value of the kind standing elsewhere ("serves 8080 requests", "works with Ana") contradicts nothing; nor does a
thing of the owner doing something ("Marta's train leaves at 9:00" / "Marta leaves at 8:00"). Word tests at the
packaged model's cosine, then remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

CHANGED = [  # (older, newer, the reason's kind): the older states the value of the attribute the newer names
    # a time: schedule, time, start time, hour
    ("The backup job runs at 02:00.", "The backup job's schedule is now 04:30.", "time"),
    ("The backup job runs at 02:00.", "The backup job's start time is now 04:30.", "time"),
    ("The nightly export starts at 01:00.", "The nightly export's start time is now 03:00.", "time"),
    ("The report is sent at 18:00.", "The report's schedule is now 20:00.", "time"),
    ("The report goes out on Monday.", "The report's schedule is now Tuesday.", "day"),
    ("Das Backup läuft um 2:00.", "Die Backupzeit ist jetzt 4:00.", "time"),
    ("Der Bericht wird um 18:00 verschickt.", "Die Berichtszeit ist jetzt 20:00.", "time"),
    ("Le backup tourne à 2h00.", "L'heure du backup est maintenant 4h00.", "time"),
    # a port number
    ("The API listens on 8080.", "The API's port is now 9090.", "number"),
    ("Redis listens on 6379.", "Redis's port is now 6380.", "number"),
    ("Die API lauscht auf 8080.", "Der API-Port ist jetzt 9090.", "number"),
    ("L'API écoute sur 8080.", "Le port de l'API est maintenant 9090.", None),
    # a place: city, location, office
    ("Tomas works from Porto.", "Tomas's city is now Madrid.", "name"),
    ("Lena works from Berlin.", "Lena's city is now Hamburg.", "name"),
    ("Tomas travaille depuis Porto.", "La ville de Tomas est maintenant Madrid.", "name"),
    # a host name: host, server
    ("Die Datenbank läuft auf db-alt-02.", "Der Datenbankhost ist jetzt db-neu-05.", "ident"),
    ("The wiki runs on wiki-old-01.", "The wiki's server is now wiki-new-07.", "ident"),
    ("The database runs on db-old-02.", "The database's host is now db-new-05.", "ident"),
]
APART = [  # (older, newer): another attribute of the owner, the attribute of another owner, or a value elsewhere
    ("The API listens on 8080.", "The API's timeout is now 30 s."),
    ("The API listens on 8080.", "The API's rate limit is now 100."),
    ("Tomas works from Porto.", "Tomas's manager is now Ana."),
    ("The backup job runs at 02:00.", "The backup job's retention is now 30 days."),
    ("The backup job runs at 02:00.", "The backup job's end time is now 04:30."),
    ("Das Backup läuft um 2:00.", "Die Backupdauer ist jetzt 40 Minuten."),
    ("Die Datenbank läuft auf db-alt-02.", "Der Datenbankport ist jetzt 5433."),
    ("The API listens on 8080.", "The database's port is now 5433."),
    ("Tomas works from Porto.", "Lena's city is now Madrid."),
    ("The backup job runs at 02:00.", "The report's schedule is now 04:30."),
    ("Die Datenbank läuft auf db-alt-02.", "Der Wikihost ist jetzt wiki-neu-05."),
    ("The API serves 8080 requests a second.", "The API's port is now 9090."),
    ("Tomas works with Ana.", "Tomas's city is now Madrid."),
    ("Tomas works at Acme.", "Tomas's city is now Madrid."),
    ("The API listens on 8080.", "The API's port may now be 9090?"),  # asked, not said
    ("The API listens on 8080.", "The API's port is now 8080."),  # the same value
    ("Die Wiki läuft auf wiki-alt-01.", "Der Wikiserver ist nicht mehr wiki-neu-02."),  # denied, not said
    ("The team meets at 10:00.", "The team's office is now Berlin."),  # a place for the owner of a time
    ("The standup is at 9:15.", "The standup's duration is now 30 minutes."),
]
# A thing of the owner doing something is another subject ("Marta's train leaves"); an attribute said with "is" is
# the owner's slot, and stays a change ("Anna's rent is now 900").
THING_APART = [
    ("Marta leaves at 8:00.", "Marta's train leaves at 9:00."),
    ("Marta's train leaves at 9:00.", "Marta leaves at 8:00."),
    ("Jonas fährt um 8:00.", "Jonas' Zug fährt um 9:00."),
    ("Lena starts at 9:00.", "Lena's course now starts at 10:00."),
]
THING_CHANGED = [
    ("Anna pays 800 in rent.", "Anna's rent is now 900."),
    ("Marta leaves at 8:00.", "Marta leaves at 9:00."),
    ("Marta lives in Lisbon.", "Marta's location is now Berlin."),
]


@pytest.mark.parametrize(("old", "new", "kind"), CHANGED)
def test_an_attribute_named_contradicts_its_value_stated_with_a_verb(real_embedder, old, new, kind):
    reason = flagged(real_embedder, old, new)
    assert reason is not None
    assert kind is None or reason.startswith(f"different {kind}: ")


@pytest.mark.parametrize(("old", "new"), APART)
def test_another_attribute_or_owner_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), THING_APART)
def test_a_thing_of_the_owner_doing_something_contradicts_nothing_of_the_owner(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), THING_CHANGED)
def test_an_attribute_of_the_owner_said_with_is_still_contradicts(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("The backup job runs at 02:00.", "The backup job's schedule is now 04:30.", "When does the backup job run?"),
    ("The API listens on 8080.", "The API's port is now 9090.", "Which port does the API listen on?"),
    ("Tomas works from Porto.", "Tomas's city is now Madrid.", "Where does Tomas work from?"),
    ("Die Datenbank läuft auf db-alt-02.", "Der Datenbankhost ist jetzt db-neu-05.", "Auf welchem Host läuft die "
     "Datenbank?"),
])
def test_recall_puts_the_named_attribute_first_and_marks_the_older(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("The API listens on 8080.", "The API's timeout is now 30 s.", "Which port does the API listen on?"),
    ("Tomas works from Porto.", "Tomas's manager is now Ana.", "Where does Tomas work from?"),
    ("The backup job runs at 02:00.", "The backup job's retention is now 30 days.", "When does the backup job run?"),
    ("Marta leaves at 8:00.", "Marta's train leaves at 9:00.", "When does Marta leave?"),
])
def test_recall_marks_neither_of_another_attribute(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)
