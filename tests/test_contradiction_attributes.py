"""A change said of an attribute of the older's subject ("The backup time was changed to 4:00"), a validity renewed
("was renewed until 2028"), an end in one clause of a longer statement ("We dropped iOS 15 support; the app supports
iOS 16 and 17") and an owner's verb in German, French or Spanish ("Priya leitet jetzt das Plattform-Team") contradict
the older; a change with no new value replaces the thing it names, not what the older states of it ("The wifi password
was changed yesterday" / "Passwords are hashed with argon2id"), and a hand-over of another thing of the older's subject
changes none of its holders ("The API gateway docs were handed to Nils") (issue 27 §2)."""

from __future__ import annotations

import pytest
from mcp import Client
from stores import assert_apart, assert_outdates, flagged

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.store import Store

CHANGED = [  # (older, newer): the newer contradicts the older
    # an attribute's noun names the slot a change goes to
    ("Backups run every night at 2:00", "The backup time was changed to 4:00"),
    ("Passwords must be rotated every 90 days", "The rotation period was changed to 60 days"),
    ("The API listens on port 8080", "The API port was changed to 9090"),
    ("The API listens on port 8080", "The port was changed to 9090"),
    ("The standup is at 9:15", "The standup time was changed to 10:30"),
    ("The cache is flushed every 6 hours", "The flush interval was changed to 12 hours"),
    ("Uploads are capped at 10 MB", "The upload limit was changed to 25 MB"),
    ("The release is planned for 2026-03-01", "The release date was changed to 2026-04-15"),
    ("The job queue holds 500 messages", "The queue size was changed to 1000 messages"),
    ("La sauvegarde a lieu chaque nuit à 2h00", "L'heure de la sauvegarde a été changée à 4h00"),
    ("La copia de seguridad se hace cada noche a las 2:00", "La hora de la copia de seguridad se cambió a las 4:00"),
    # a validity renewed
    ("The certificate is valid until 2026", "The certificate was renewed until 2028"),
    ("The support contract runs until 2025-12-31", "The support contract was renewed until 2027-12-31"),
    ("The domain is registered until 2027", "The domain was renewed until 2030"),
    ("The TLS certificate expires in March", "The TLS certificate was renewed until September"),
    ("Das Zertifikat ist bis 2026 gültig", "Das Zertifikat wurde bis 2028 erneuert"),
    ("Le certificat est valable jusqu'en 2026", "Le certificat a été renouvelé jusqu'en 2028"),
    ("El certificado es válido hasta 2026", "El certificado fue renovado hasta 2028"),
    # an end in one clause of a statement longer than eight words
    ("The app supports iOS 15", "We dropped iOS 15 support; the app supports iOS 16 and 17"),
    ("The library supports Python 3.8", "We dropped Python 3.8 support; the library supports Python 3.9 and 3.10"),
    ("Our CI runs on Jenkins", "We retired Jenkins last month; our CI now runs on GitHub Actions and Buildkite"),
    ("We use Poetry for packaging", "We no longer use Poetry; packaging is done with uv and hatch in every repo"),
    # owners' verbs and phrases in German, French and Spanish
    ("Anna leitet das Plattform-Team", "Priya leitet jetzt das Plattform-Team"),
    ("Anna betreut das API-Gateway", "Priya betreut jetzt das API-Gateway"),
    ("Anna ist für das API-Gateway zuständig", "Priya ist jetzt für das API-Gateway zuständig"),
    ("Anna dirige l'équipe plateforme", "Priya dirige désormais l'équipe plateforme"),
    ("Anna gère la passerelle API", "Priya gère maintenant la passerelle API"),
    ("Anna dirige el equipo de plataforma", "Priya dirige ahora el equipo de plataforma"),
    ("Anna gestiona el API gateway", "Priya gestiona ahora el API gateway"),
    # still changes: the thing itself replaced, the thing handed over
    ("The wifi password is hunter22", "The wifi password was changed yesterday"),
    ("The door code is 4711", "The door code was changed on Monday"),
    ("Anna owns the API gateway", "The API gateway was handed to Nils"),
    ("Anna owns the billing service", "The billing service was handed over to Nils"),
]
APART = [  # (older, newer): no change of what the older says
    # a change with no new value replaces the thing it names, not what the older states of it
    ("Passwords are hashed with argon2id", "The wifi password was changed yesterday"),
    ("Passwords must be at least 12 characters", "The wifi password was changed yesterday"),
    ("API keys are stored in Vault", "The staging API key was changed yesterday"),
    # a hand-over of another thing of the older's subject
    ("Anna owns the API gateway", "The API gateway docs were handed to Nils"),
    ("Anna owns the billing service", "The billing service runbook was handed to Nils"),
    ("Anna owns the API gateway", "Ownership of the API gateway docs went to Nils"),
    ("Anna owns the API gateway", "Nils handed the API gateway docs over to Priya"),
    # an attribute of another thing, or another attribute
    ("Backups run every night at 2:00", "The restore time was changed to 4:00"),
    ("The API listens on port 8080", "The API rate limit was changed to 500"),
    ("Backups run every night at 2:00", "The backup size limit was changed to 50 GB"),
    ("The standup is at 9:15", "The retro time was changed to 16:00"),
    ("The cache is flushed every 6 hours", "The cache size was changed to 2 GB"),
    ("The API listens on port 8080", "The database port was changed to 5433"),
    # a renewal with no new end, or of another thing
    ("The certificate is valid until 2026", "The certificate was renewed yesterday"),
    ("The certificate is valid until 2026", "The domain was renewed until 2028"),
    ("The certificate is valid until 2026", "We renewed our interest in the certificate"),
    # an end of another value, or of the same one for another thing
    ("The app supports iOS 16", "We dropped iOS 15 support; the app supports iOS 16 and 17"),
    ("Our CI runs on Jenkins", "We don't use Jenkins for deploys; deploys go through Argo CD and Flux now"),
    ("The app supports iOS 15",
     "We dropped iOS 15 support for the watch app; the phone app supports iOS 15 and 16"),
    # another team led, or one more led
    ("Anna leitet das Plattform-Team", "Priya leitet jetzt das Design-Team"),
    ("Anna dirige l'équipe plateforme", "Priya dirige désormais l'équipe design"),
    ("Anna dirige el equipo de plataforma", "Priya dirige ahora el equipo de diseño"),
    ("Anna leitet das Plattform-Team", "Anna leitet jetzt auch das Design-Team"),
    ("Anna gestiona el API gateway", "Priya gestiona ahora la documentación del API gateway"),
]


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_a_changed_attribute_renewal_end_or_owner_contradicts_the_older(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_valueless_change_another_thing_handed_or_another_slot_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Backups run every night at 2:00", "The backup time was changed to 4:00", "When do backups run?"),
    ("Anna leitet das Plattform-Team", "Priya leitet jetzt das Plattform-Team", "Wer leitet das Plattform-Team?"),
    ("The app supports iOS 15", "We dropped iOS 15 support; the app supports iOS 16 and 17",
     "Which iOS versions does the app support?"),
])
def test_recall_puts_the_newer_first_and_marks_the_older(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Passwords are hashed with argon2id", "The wifi password was changed yesterday",
     "How are passwords hashed?"),
    ("Anna owns the API gateway", "The API gateway docs were handed to Nils", "Who owns the API gateway?"),
])
def test_remember_and_recall_leave_the_older_current(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)


@pytest.mark.asyncio
async def test_a_changed_attribute_crosses_the_wire_as_contradicts_and_possibly_outdated_by(db, one_model):
    async with Client(build_server(Config(db=db, tenant="default", scope="proj"))) as c:
        first = await c.call_tool("remember", {"content": "The API listens on port 8080",
                                               "observed_at": "2026-10-01T09:00:00Z"})
        old = first.structured_content["id"]
        second = await c.call_tool("remember", {"content": "The API port was changed to 9090",
                                                "observed_at": "2026-11-01T09:00:00Z"})
        assert [item["id"] for item in second.structured_content["contradicts"]] == [old]
        found = await c.call_tool("recall", {"query": "Which port does the API listen on?"})
        marks = {m["id"]: m["possibly_outdated_by"] for m in found.structured_content["memories"]}
        assert marks[old] == second.structured_content["id"]
        assert marks[second.structured_content["id"]] is None
