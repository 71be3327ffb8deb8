"""A verb moving a value to another ("rescheduled", "postponed", "pushed back", "raised", "reduced", "verschoben",
"reportée", "aplazada") changes the older memory's value; a change of another value (its "from" one the older does
not state, or its subject another thing than the older's) and a newer that adds values ("also", "as well", "both",
"18 and 20") beside the older's change nothing (issue 27 §2, new-user trial T4-T6)."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, flagged

from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

MOVED = [  # (older, newer): a value moved by a change verb
    ("The nightly backup runs at 02:00 UTC", "The nightly backup was rescheduled to 04:30 UTC"),
    ("The nightly backup runs at 02:00 UTC", "The nightly backup was pushed back to 04:30 UTC"),
    ("The weekly sync is on Tuesday", "The weekly sync was rescheduled to Thursday"),
    ("The release is planned for 12 March", "The release was postponed to 26 March"),
    ("The launch date is 3 June", "The launch was pushed back to 17 June"),
    ("The demo is on Friday", "The demo was brought forward to Wednesday"),
    ("The sprint review is at 15:00", "The sprint review was moved up to 13:00"),
    ("The API rate limit is 100 requests per minute", "The API rate limit was raised to 250 requests per minute"),
    ("The upload size limit is 50 MB", "The upload size limit was lowered to 20 MB"),
    ("The connection pool size is 20", "We increased the connection pool size to 40"),
    ("The session timeout is 30 minutes", "The session timeout was reduced to 15 minutes"),
    ("The cache TTL is 60 seconds", "We decreased the cache TTL to 30 seconds"),
    ("The trial period is 14 days", "The trial period was extended to 30 days"),
    ("The retention window is 90 days", "The retention window was shortened to 30 days"),
    ("The trial period is 14 days", "The trial period was lengthened to 30 days"),
    ("The warranty lasts 12 months", "We extended the warranty to 24 months"),
    ("The staging bucket is called assets-old", "The staging bucket was renamed to assets-v2"),
    ("The support team sits in Dublin", "The support team was relocated to Cork"),
    ("The orders table lives on db-01", "The orders table was migrated to db-07"),
    ("The build servers run Ubuntu 20.04", "The build servers were upgraded to Ubuntu 22.04"),
    ("The runner image uses Java 21", "The runner image was downgraded to Java 17"),
    ("The on-call rotation for payments is owned by Priya", "The payments on-call rotation was reassigned to Tomás"),
    ("The quarterly planning is on 10 January", "Quarterly planning got delayed to 24 January"),
    ("The board meeting is on Monday", "The board meeting was shifted to Tuesday"),
    ("The price of the pro plan is 20 dollars", "The pro plan price was bumped to 25 dollars"),
    ("Max replicas for the API is 6", "The API max replicas were doubled to 12"),
    ("The memory alert fires at 95 percent", "We lowered the memory alert from 95 to 85 percent"),
    ("The session timeout is 45 minutes", "We reduced the session timeout from 30 to 15 minutes"),
    ("The API rate limit is 100 requests per minute", "We raised the API rate limit from 100 to 500 requests"),
    ("Das Backup läuft um 02:00 Uhr", "Das Backup wurde auf 04:30 Uhr verschoben"),
    ("Das Meeting ist am Montag", "Das Meeting wurde auf Dienstag verlegt"),
    ("Die Obergrenze liegt bei 100 Anfragen", "Die Obergrenze wurde auf 250 Anfragen erhöht"),
    ("La sauvegarde a lieu à 02:00", "La sauvegarde a été déplacée à 04:30"),
    ("La réunion est le lundi", "La réunion a été reportée au mardi"),
    ("La copia de seguridad es a las 02:00", "La copia de seguridad se cambió a las 04:30"),
    ("La reunión es el lunes", "La reunión fue aplazada al martes"),
]

SAME_SLOT = [  # (older, newer): a change of the value the older states, its "from" or its subject the older's
    ("The password policy requires 8 characters", "We changed the password policy from 8 to 12 characters"),
    ("The password policy requires 8 characters", "We changed the password policy to 12 characters"),
    ("Passwords must be at least 8 characters", "We changed the minimum password length from 8 to 12 characters"),
    ("The deploy window is Friday", "We moved the deploy window from Friday to Tuesday"),
    ("The standup is at 9:15", "We moved the standup from 9:15 to 10:30"),
    ("The staging database runs Postgres 14", "We migrated the staging database from Postgres 14 to Postgres 16"),
    ("Payments go through Stripe", "We switched the billing service from Stripe to Adyen"),
    ("The office is in Lisbon", "We relocated the office from Lisbon to Porto"),
    ("The frontend is built with webpack", "We switched the build from webpack to Vite"),
    ("The release train leaves on Thursday", "We moved the release from Thursday to Tuesday"),
    ("The cluster runs Kubernetes 1.27", "We upgraded the cluster from Kubernetes 1.27 to 1.29"),
    ("The nightly report runs at 06:00", "We moved the nightly report from 06:00 to 07:00"),
    ("The nightly report runs at 06:00", "We moved the nightly report to 07:00"),
    ("The docs site is hosted on Netlify", "Moved the docs site to Vercel"),
    ("The standup is at 9:30", "We moved the standup from 9:15 to 10:30"),
]

OTHER_SLOT = [  # (older, newer): change words sharing a noun with the older, changing another value
    ("password reset emails expire after 1 hour", "we changed the password policy from 8 to 12 characters"),
    ("Password reset emails expire after 1 hour", "We changed the password policy to 12 characters"),
    ("The password must be rotated every 90 days", "We changed the password length from 8 to 12 characters"),
    ("Deploy logs are kept for 30 days", "We moved the deploy window from Friday to Tuesday"),
    ("The API is written in Go", "We raised the API rate limit from 100 to 500 requests"),
    ("The standup notes live in Notion", "We moved the standup from 9:15 to 10:30"),
    ("Staging database backups run at 03:00", "We migrated the staging database from Postgres 14 to Postgres 16"),
    ("The billing service has 4 replicas", "We switched the billing service from Stripe to Adyen"),
    ("The office wifi password rotates every 90 days", "We relocated the office from Lisbon to Porto"),
    ("The build cache is stored in S3", "We switched the build from webpack to Vite"),
    ("The support inbox is checked every 2 hours", "We changed the support hours from 9-17 to 8-18"),
    ("The checkout page loads in 2 seconds", "We changed the checkout provider from Stripe to Adyen"),
    ("The cluster has 6 nodes", "We upgraded the cluster from Kubernetes 1.27 to 1.29"),
    ("The design review meets on Wednesday", "We moved the design files from Figma to Penpot"),
    ("The VPN certificate expires in 365 days", "We changed the VPN provider from OpenVPN to WireGuard"),
    ("Customer invoices are sent on the 1st", "We switched the invoice template from PDF to HTML"),
    ("The mobile app targets iOS 16", "We migrated the mobile app analytics from Mixpanel to Amplitude"),
    ("The disk alert fires at 90 percent", "We lowered the memory alert from 95 to 85 percent"),
    ("The session cookie lasts 7 days", "We reduced the session timeout from 30 to 15 minutes"),
    ("The nightly backup runs at 02:00", "We moved the nightly report from 06:00 to 07:00"),
    ("The test suite takes 12 minutes", "We increased the test parallelism from 4 to 8 workers"),
    ("The docs site is hosted on Netlify", "We moved the docs search from Algolia to Typesense"),
    ("The API is written in Go", "We raised the API rate limit to 500 requests"),
    ("The standup notes live in Notion", "We moved the standup to 10:30"),
    ("The test suite takes 12 minutes", "We increased the test parallelism to 8 workers"),
]

ADDED = [  # (older, newer): the newer adds values beside the older's, leaving none
    ("The web app supports Node 16", "Node 18 and 20 are both supported"),
    ("The web app supports Node 16", "The web app also supports Node 18"),
    ("The web app supports Node 16", "The web app supports Node 18 as well"),
    ("The API supports Python 3.10", "Python 3.11 and 3.12 are both supported by the API"),
    ("The office is in Lisbon", "We also have an office in Porto"),
    ("Deploys happen on Tuesday", "Deploys also happen on Thursday"),
    ("The standup is at 9:15", "There is also a standup at 16:00 for the EU team"),
    ("Our CI runs on Jenkins", "Our CI runs on GitHub Actions as well"),
    ("The backup runs at 02:00", "In addition, the backup runs at 14:00"),
    ("The support team speaks English", "The support team speaks Spanish and Portuguese as well"),
    ("Alerts go to PagerDuty", "Alerts also go to Slack"),
    ("The cluster runs in eu-west-1", "The cluster runs in eu-west-1 and us-east-1"),
    ("The app is available in English", "The app is also available in German and French"),
    ("The mobile app supports iOS 16", "The mobile app supports both iOS 17 and iOS 18"),
    ("We accept Visa", "We accept Mastercard and Amex too"),
    ("The service listens on port 8080", "The service also listens on port 9090 for metrics"),
    ("Reports are sent on Monday", "Reports are sent on Wednesday too"),
    ("The library supports Java 11", "Java 17 and Java 21 are supported as well"),
    ("The SDK ships for Linux", "Both macOS and Windows builds of the SDK ship too"),
    ("The warehouse is in Rotterdam", "We opened a second warehouse in Hamburg as well"),
    ("The web app supports Node 16", "Node 18, 20 and 22 are supported"),
]

REPLACED = [  # (older, newer): the newer's values take the older's place, or it leaves the older's
    ("The web app supports Node 16", "The web app now supports Node 18 and 20, not 16"),
    ("The web app supports Node 16", "The web app supports Node 18"),
    ("The web app supports Node 16", "The web app now supports only Node 18"),
    ("The web app supports Node 16", "The web app supports Node 18 and 20 instead of 16"),
    ("The API supports Python 3.10", "The API supports Python 3.12"),
    ("Deploys happen on Tuesday", "Deploys happen on Thursday"),
    ("The standup is at 9:15", "The standup is at 10:30"),
    ("Our CI runs on Jenkins", "We switched CI from Jenkins to GitHub Actions and Buildkite"),
    ("The backup runs at 02:00", "The backup now runs at 04:30 and the report at 06:00"),
    ("The cluster runs in eu-west-1", "The cluster runs in us-east-1"),
    ("Support hours are 8:00 to 16:00", "Support hours are now between 9:00 and 17:00"),
    ("The ML team's tracking server is MLflow.", "The ML team's tracking server is Weights & Biases."),
    ("The ML team's tracking server is MLflow.", "The ML team's tracking server is Weights and Biases."),
    ("The release ships on Dec 20, 2026", "The release ships on Dec 20, 2027"),
]


@pytest.mark.parametrize(("old", "new"), MOVED + SAME_SLOT + REPLACED)
def test_a_value_moved_or_replaced_contradicts_the_older(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), OTHER_SLOT + ADDED)
def test_a_change_of_another_value_or_values_added_contradict_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), OTHER_SLOT + ADDED)
def test_the_word_test_finds_no_change_in_another_value_or_values_added(old, new):
    assert disagreement(old, new) is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("The nightly backup runs at 02:00 UTC", "The nightly backup was rescheduled to 04:30 UTC",
     "When does the nightly backup run?"),
    ("The release is planned for 12 March", "The release was postponed to 26 March", "When is the release?"),
    ("The session timeout is 30 minutes", "The session timeout was reduced to 15 minutes",
     "How long is the session timeout?"),
    ("La réunion est le lundi", "La réunion a été reportée au mardi", "Quand est la réunion ?"),
])
def test_recall_puts_the_moved_value_first_and_marks_the_older_outdated(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("password reset emails expire after 1 hour", "we changed the password policy from 8 to 12 characters",
     "When do password reset emails expire?"),
    ("The web app supports Node 16", "Node 18 and 20 are both supported", "Which Node versions are supported?"),
    ("Deploys happen on Tuesday", "Deploys also happen on Thursday", "When do deploys happen?"),
])
def test_remember_and_recall_leave_the_older_current_beside_another_value_or_an_addition(
        real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)
