"""Another thing than the older's subject, however it is named, changes nothing the older says: a thing named through
the older's subject ("The API gateway" / "The API", "La salle du serveur de fichiers" / "Le serveur de fichiers",
``contradiction_things.named_through``), a kind of a class holding a value of its own, a name too ("Board meetings
are now on Teams" / "Meetings are on Zoom", ``contradiction_things.qualified``), and a replacement of one name by
another on a thing it names ("I replaced Postfix with Exim on the mail relay") beside a memory of the replaced name's
own ("Postfix logs go to /var/log/mail.log", ``contradiction_things.moves_another``). The subject itself changed, the
class changed as such and the thing's slot held by the replaced name still contradict. Word tests at the packaged
model's cosine, then remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

REPLACED = "I replaced Postfix with Exim on the mail relay."

APART = [  # (older, newer)
    # a thing named through the older's subject: a noun after it, or before it and "of"
    ("The API listens on 8080.", "The API gateway now listens on 9090."),
    ("The API gateway listens on 8080.", "The API now listens on 9090."),
    ("The database runs on db-01.", "The database proxy now runs on db-02."),
    ("The web server uses port 80", "The web server cache now uses port 6379"),
    ("The cache runs on redis-01.", "The cache exporter now runs on redis-02."),
    ("The file server is in Lyon.", "The file server room is now locked."),
    ("The file server is in Lyon.", "The room of the file server is now locked."),
    ("Le serveur de fichiers est à Lyon.", "La salle du serveur de fichiers est maintenant fermée."),
    ("Le serveur est dans la baie 4.", "La salle du serveur est maintenant fermée."),
    ("La base de données tourne sur db-01.", "Le proxy de la base de données tourne maintenant sur db-02."),
    ("L'API écoute sur le port 8080.", "La passerelle de l'API écoute maintenant sur le port 9090."),
    ("Der Dateiserver steht in Lyon.", "Der Raum des Dateiservers ist jetzt abgeschlossen."),
    ("Die Datenbank läuft auf db-01.", "Der Proxy der Datenbank läuft jetzt auf db-02."),
    # a kind of a class holding a name of its own
    ("Meetings are on Zoom.", "Board meetings are now on Teams."),
    ("Board meetings are on Teams.", "Meetings are now on Zoom."),
    ("Calls are on Zoom.", "Sales calls are now on Google Meet."),
    ("Reviews happen in Gerrit.", "Design reviews now happen in Figma."),
    ("Les réunions sont sur Zoom.", "Les réunions du conseil sont maintenant sur Teams."),
    ("Meetings sind auf Zoom.", "Vorstandsmeetings sind jetzt auf Teams."),
    # a replacement on a thing beside what the replaced name does of its own
    ("Postfix logs go to /var/log/mail.log.", REPLACED),
    ("Postfix keeps its queue in /var/spool/postfix.", REPLACED),
    ("Postfix logs go to /var/log/mail.log.", "We swapped Postfix for Exim in the mail relay."),
    ("Postfix logs go to /var/log/mail.log.", "Postfix was replaced by Exim for the mail relay."),
    ("Nginx caches static files for 10 minutes.", "We replaced Nginx with Caddy on the web frontend."),
    ("Redis keeps snapshots every 5 minutes.", "We swapped Redis for Valkey in the session store."),
]
CHANGED = [  # (older, newer)
    ("The API listens on 8080.", "The API now listens on 9090."),
    ("The database runs on db-01.", "The database now runs on db-02."),
    ("The web server uses port 80", "The web server now uses port 8080"),
    ("The wiki runs on wiki-01.", "The wiki host is now wiki-02."),
    ("Le serveur de fichiers est à Lyon.", "Le serveur de fichiers est maintenant à Paris."),
    ("La base de données tourne sur db-01.", "La base de données tourne maintenant sur db-02."),
    ("Die Datenbank läuft auf db-01.", "Die Datenbank läuft jetzt auf db-02."),
    ("The office is in Lyon.", "The office is now in Paris."),
    ("Meetings are on Zoom.", "Meetings are now on Teams."),
    ("Board meetings are on Zoom.", "Board meetings are now on Teams."),
    ("Calls are on Zoom.", "Calls are now on Google Meet."),
    ("Les réunions sont sur Zoom.", "Les réunions sont maintenant sur Teams."),
    ("The mail relay runs Postfix.", REPLACED),
    ("The mail relay runs Postfix.", "We swapped Postfix for Exim in the mail relay."),
    ("The mail relay uses Postfix.", "Postfix was replaced by Exim for the mail relay."),
    ("The web frontend runs Nginx.", "We replaced Nginx with Caddy on the web frontend."),
    ("The session store is Redis.", "We swapped Redis for Valkey in the session store."),
    ("Le relais de messagerie utilise Postfix.", "J'ai remplacé Postfix par Exim sur le relais de messagerie."),
    ("Das Mail-Relay nutzt Postfix.", "Ich habe Postfix auf dem Mail-Relay durch Exim ersetzt."),
    ("We use Postfix.", "I replaced Postfix with Exim."),
    ("Our CI runs on Jenkins.", "We replaced Jenkins with GitHub Actions."),
]


@pytest.mark.parametrize(("old", "new"), APART)
def test_another_thing_than_the_older_subject_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_the_subject_or_its_slot_changed_still_contradicts(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("The API listens on 8080.", "The API gateway now listens on 9090.", "Which port does the API listen on?"),
    ("Le serveur de fichiers est à Lyon.", "La salle du serveur de fichiers est maintenant fermée.",
     "Où est le serveur de fichiers ?"),
    ("Meetings are on Zoom.", "Board meetings are now on Teams.", "Where are meetings held?"),
    ("Postfix logs go to /var/log/mail.log.", REPLACED, "Where do Postfix logs go?"),
])
def test_remember_and_recall_leave_the_older_alone(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("The API listens on 8080.", "The API now listens on 9090.", "Which port does the API listen on?"),
    ("Meetings are on Zoom.", "Meetings are now on Teams.", "Where are meetings held?"),
    ("The mail relay runs Postfix.", REPLACED, "What does the mail relay run?"),
])
def test_remember_and_recall_mark_the_older_changed(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
