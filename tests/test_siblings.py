"""Near misses (trial 50): a memory about a sibling of what the question names (another quarter,
tier, city, person, service, environment, host) is never a sure answer, and the caller's other
scope holding the real answer is named. Real model, both backends, and the words alone."""

from __future__ import annotations

import pytest

from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.siblings import sibling
from memvault.storage.store import Store
from memvault.tools import handlers

# A name, a code of one form, a month, a weekday, an environment, a platform, a plan's tier or a level in
# place of another. Other common words in place of others are not read (docs/limits.md).
NEAR_MISSES = [
    ("when is the Q2 security audit deadline?", "The Q1 security audit deadline is 2027-03-15."),
    ("what is our SLA for priority-2 incidents?", "Our SLA for priority-1 incidents is a 15 minute response."),
    ("when is the Frankfurt datacenter migration planned?", "The Munich datacenter migration is planned for April 2027."),
    ("is the office closed on 2026-12-31?", "The office is closed on 2026-12-24 for the holidays."),
    ("what is the Paris office wifi?", "The Berlin office wifi network is called MV-Guest."),
    ("does Maria prefer Slack or email?", "Kenji prefers Slack over email for urgent issues."),
    ("how many days of logs does es-logs-01 keep?", "Elasticsearch cluster es-logs-02 stores 30 days of logs."),
    ("which host runs the search-api?", "The payments-api service runs on host pay-prod-01.internal, port 8443."),
    ("what port does the staging database use?", "The production database is db-prod-01.internal on port 5432."),
    ("what is planned for May 2027?", "The Munich datacenter migration is planned for April 2027."),
    ("what did we decide on Tuesday morning?", "On Monday morning we decided to freeze the API schema."),
    # common words of a closed set (siblings.ALTERNATIVES): a platform, a plan's tier, a level
    ("what framework does the mobile app use?", "The web app uses Next.js with server components."),
    ("what is the rate limit on the free plan?", "The enterprise plan allows 10,000 requests a minute."),
    ("what do silver members get?", "Gold members get free shipping and early access."),
    ("how do we sign the Android build?", "The iOS build is signed with the distribution certificate."),
    # a possessive, a word two places away, another word order (trial 51 #6, trial 52 #1)
    ("what was June's electricity bill?", "May's electricity bill was 310 EUR."),
    ("where is Uncle Tom's cabin key?", "Aunt Mia's cabin key is under the mat."),
    ("what was my Lisbon marathon time?", "Ran the Porto half marathon in 3:41."),
    ("when does our Oslo office close?", "Our office in Dublin closes at 18:00."),
    ("Which Redis version runs in staging?", "Redis runs 7.2 in production and 7.0 in development."),
    ("what did we decide about the v3 endpoint?", "We will deprecate the v2 public endpoint in June."),
    # the word before a team, an office, an app ... (siblings.HEADS), a region in a code, a longer name
    ("who leads the billing team?", "Sara leads the platform team."),
    ("which channel does the data squad use?", "The mobile squad uses the #mobile-dev channel."),
    ("which bucket holds the UK region's backups?", "Backups go to the bucket acme-backups-eu."),
    ("what does August review?", "Augustine reviews the deploy scripts."),
    ("what does the Business plan cost?", "The Pro plan costs 20 EUR a month."),
    # a common word before a plan's word is a tier whatever else it means (issue 25 §2: "Team" is a group too)
    ("How many seats does the Team tier allow?", "The Pro tier allows 50 seats and SSO."),
    ("what does the Business plan include?", "The Starter plan includes 3 projects."),
    ("is SSO in the Plus tier?", "The Free tier has no SSO."),
    ("what does the Family plan cost?", "The Personal plan costs 5 EUR a month."),
    ("how much storage does the Growth plan give?", "The Scale plan gives 1 TB of storage."),
    ("how many seats does the Pro tier allow?", "The Team tier allows 10 seats."),
    ("what is the rate limit of the Basic plan?", "The Enterprise plan has a rate limit of 10,000 requests a minute."),
    # an acronym in place of another before or after the same word (trial 55 #7: "CCPA" for "GDPR" at 0.59-0.68)
    ("Who handles CCPA requests?", "Grace handles GDPR requests."),
    ("Who handles DSAR requests?", "Grace handles GDPR requests."),
    ("which vendor runs our SOX audit?", "Our HIPAA audit is run by Bright Compliance."),
    ("where do SLA breaches get reported?", "SLO breaches get reported in the ops channel."),
]
# Another word before the same noun, each the first of its noun phrase, the rest of the question held (trial 54
# #3); someone of the speaker's asked of, a memory of the speaker ("I"); a weekday in the plural.
MODIFIED = [
    ("where is the key for the front door?", "The key for the back door is in the blue drawer."),
    ("when does the kitchen renovation start?", "The bathroom renovation starts on May 4."),
    ("what caused the billing outage?", "The login outage was caused by a bad certificate."),
    ("when is the water bill due?", "The phone bill is due on the 5th."),
    ("what colour is the guest bedroom?", "The master bedroom colour is a pale blue."),
    ("when is my brother's birthday?", "My sister's birthday is on June 3."),
    ("what does my husband drink in the morning?", "I drink green tea in the morning."),
    ("which shoes does my daughter wear for running?", "I wear Asics shoes for running."),
    ("is the pool open on Mondays?", "The pool is closed on Tuesdays."),
    ("when does Elena like to do code reviews?", "Marco prefers code reviews in the morning before 11am."),
    ("what does Omar want for lunch?", "Lena wants sushi for lunch."),
]
ANSWERS = [
    ("where is the team lunch?", "The team lunch is at the café on Rue Saint-Honoré."),
    ("which host is the staging database?", "Staging DB host: db-stg-03.internal"),
    ("what is the staging DB host?", "The staging database host is db-stg-03."),
    ("what is the prod database port?", "The production database listens on port 5432."),
    ("how many days of logs does es-logs-02 keep?", "Elasticsearch cluster es-logs-02 stores 30 days of logs."),
    ("What did Melanie paint recently?", "Melanie: I painted a lake sunrise last week."),
    ("What does Caroline think about the new policy?", "Caroline believes the new policy is good."),
    ("when is the Q1 security audit deadline?", "The Q1 security audit deadline is 2027-03-15."),
    ("What does Soren want to see in migration PRs?", "Søren Holm wants to review any large migration."),
    ("How does Kenji like code reviews?", "Kenji prefers written, asynchronous review comments."),
    ("Which Sentry project receives frontend errors?", "Backend errors go to the Sentry project quorvel-backend."),
    ("What did we find out in the April 2024 long-context experiment?", "exp-0419: 500k. Long-context retrieval held."),
    ("what did we decide on 2026-11-27T09:00+01:00?", "We decided to move the nightly backup to 02:00 UTC"),
    ("what framework does the web app use?", "The web app uses Next.js with server components."),
    ("do I have free time on Friday?", "I have free time on Friday afternoon."),
    ("how do I reset the password on the pro plan?", "To reset a password on any plan, use the account page."),
    ("who leads the billing team?", "Sara leads the billing team."),
    ("when does our Dublin office close?", "Our office in Dublin closes at 18:00."),
    ("what was May's electricity bill?", "The electricity bill for May was 310 EUR."),
    ("which bucket holds the EU backups?", "Backups go to the bucket acme-backups-eu."),
    ("what does Anna's team own?", "Anna's team owns the search service."),
    ("How does Kenji like code reviews?", "Kenji prefers written review comments, not calls."),
    ("what do we tell us customers?", "We tell customers about outages within the hour."),
    ("What is Tim's favorite book?", "Tim: Harry Potter is my favorite book."),
    ("What did Gina say about the store?", "Jon: Hey Gina! How is the store doing?"),
    ("How many seats does the Team tier allow?", "The Team tier allows 10 seats."),
    ("what does the team plan to ship next?", "The team plans to ship the importer in March."),
    ("what does the Family plan cost?", "The family plan costs 15 EUR a month."),
    # the slot left open, the same word, another spelling, a verb after the person, the speaker asking
    ("what caused the outage on Nov 27?", "The checkout outage on Nov 27 was caused by an expired Redis password."),
    ("which services are written in Java?", "The catalog service is written in Java."),
    ("when is my car insurance renewal?", "Car insurance renewal is due in March."),
    ("where is the prod db?", "The production database is db-prod-01."),
    ("what is my favourite colour?", "My favorite colour is green."),
    ("how does my partner take his coffee?", "Tomás takes his coffee black."),
    ("what does my wife like to drink?", "My wife likes green tea."),
    ("what coffee do I like?", "I prefer dark roast coffee, no sugar."),
    ("is the gym open on Sundays?", "The gym is closed on Sundays."),
    ("which test runner does the team prefer?", "The team now prefers Vitest over Jest."),
    ("what does Dana think about the migration?", "Dana thinks the migration is risky."),
    ("What did Melanie paint?", "Caroline: Wow Mel, I love the lake you painted!"),
    ("who handles GDPR requests?", "Grace handles GDPR requests."),
    ("who handles GDPR and CCPA requests?", "Grace handles GDPR requests."),
    ("What does the QBR deck cover?", "The QBR deck covers revenue and churn."),
    ("WHO HANDLES GDPR REQUESTS?", "Grace handles GDPR requests."),
]


@pytest.mark.parametrize(("question", "content"), NEAR_MISSES)
def test_a_word_of_the_question_replaced_by_a_sibling_is_read(question, content):
    assert sibling(question, content) is not None


@pytest.mark.parametrize(("question", "content"), MODIFIED)
def test_another_word_before_the_same_noun_or_someone_else_of_the_speakers_is_read(question, content):
    assert sibling(question, content) is not None


@pytest.mark.parametrize(("question", "content"), ANSWERS)
def test_an_answer_in_other_words_or_a_shortened_word_is_no_sibling(question, content):
    assert sibling(question, content) is None


@pytest.fixture
def store(made_db, real_embedder):
    s = Store(made_db, real_embedder)
    for text in ["The design review covered the onboarding flow.", "Quarterly planning produced eleven goals."]:
        s.remember(tenant="t", scope="p", content=text)
    yield s
    s.close()


@pytest.mark.parametrize(("question", "content"), NEAR_MISSES[:6])
def test_a_near_miss_is_unsure_and_the_answer_itself_is_sure(store: Store, question, content):
    missed = store.remember(tenant="t", scope="p", content=content).id
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == missed), hits[:1]
    asked = store.recall(tenant="t", query=content.rstrip("."), scopes=["p"]).hits  # the owner finds its own
    assert asked[0].memory.id == missed and asked[0].confidence >= SURE_CONFIDENCE


def test_the_scope_holding_the_answer_is_named_beside_a_near_miss(store: Store):
    store.remember(tenant="t", scope="default", content="The Berlin office wifi network is called MV-Guest.")
    store.remember(tenant="t", scope="paris-team", content="The Paris office wifi network is called PARIS-5G.")
    found = handlers.recall(store, handlers.Caller(tenant="t", scope="default"), query="what is the Paris office wifi?")
    assert [(o.scope, o.matches) for o in found.other_scopes] == [("paris-team", 1)]
    assert all(m.confidence < SURE_CONFIDENCE for m in found.memories)


@pytest.mark.parametrize(("question", "content"), NEAR_MISSES[15:] + MODIFIED)
def test_a_near_miss_by_possessive_word_order_group_region_or_longer_name_is_unsure(store: Store, question, content):
    missed = store.remember(tenant="t", scope="p", content=content).id
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == missed), hits[:1]


@pytest.mark.parametrize(("asked", "other"), [("Team", "Pro"), ("Business", "Starter"), ("Plus", "Free")])
def test_the_tier_asked_is_first_and_sure_and_another_tier_unsure(store: Store, asked, other):
    right = store.remember(tenant="t", scope="p", content=f"The {asked} tier allows 10 seats.").id
    wrong = store.remember(tenant="t", scope="p", content=f"The {other} tier allows 50 seats and SSO.").id
    hits = store.recall(tenant="t", query=f"How many seats does the {asked} tier allow?", scopes=["p"]).hits
    assert hits[0].memory.id == right and hits[0].confidence >= SURE_CONFIDENCE, hits[:2]
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == wrong), hits[:2]
    store.forget(tenant="t", id=right)
    hits = store.recall(tenant="t", query=f"How many seats does the {asked} tier allow?", scopes=["p"]).hits
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == wrong), hits[:2]


@pytest.mark.parametrize(("right", "near", "question"), [
    ("Priya prefers async reviews over meetings.", "Marco prefers code reviews in the morning before 11am.",
     "when does Priya like to do code reviews?"),
    ("Staging deploys happen every Tuesday.", "Production deploys happen every Thursday.", "when do staging deploys happen?"),
    ("The Lisbon office opens at 8:00.", "The Oslo office opens at 9:00.", "when does the Lisbon office open?"),
])
def test_a_near_miss_after_the_answer_takes_none_of_its_lead(store: Store, right, near, question):
    """A memory about a sibling of what the first hit and the question name is no other answer to it."""
    store.remember(tenant="t", scope="p", content=right)
    store.remember(tenant="t", scope="p", content=near)
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.content == right and hits[0].confidence >= SURE_CONFIDENCE, hits[:2]
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.content == near), hits[:2]


@pytest.mark.parametrize("shape", ["codes", "names", "codes-parts"])
def test_comparing_two_long_memories_takes_linear_time(shape: str) -> None:
    """Adversarial pass 55 F1: recall compares its first hit with the others (whole memories of up to
    8,000 characters): short codes on both sides took 15 s at 8,000 characters (every code of one
    compared with every code of the other; each word's neighbours read from a copy of all the words)."""
    from test_secret_scan import _grows_linearly

    def text(size: int, lead: str) -> str:
        words = {"codes": lambda i: f"{lead}{i}", "names": lambda i: f"{lead.upper()}{i:x}".translate(
            str.maketrans("0123456789", "bcdfghjklm")), "codes-parts": lambda i: f"{lead}-{i}-x{i % 7}"}[shape]
        out, n, i = [], 0, 0
        while n < size:
            out.append(words(i))
            n, i = n + len(out[-1]) + 1, i + 1
        return " ".join(out)

    assert _grows_linearly(lambda size: text(size, "k"), lambda t: sibling(t, t.replace("k", "m").replace("K", "M"))) \
        is None


# A name of someone the relation word names stands between it and the noun (trial 56 #2: "my sister Ana's
# birthday" answered "my mother's birthday?" at 0.58, "my friend Luis's dog" "my sister's dog?" at 0.76).
NAMED_RELATIVES = [
    ("When is my mother's birthday?", "My sister Ana's birthday is March 3"),
    ("When is my brother's birthday?", "My sister Ana's birthday is March 3"),
    ("What is my sister's dog called?", "My friend Luis's dog is called Pepper"),
    ("Where does my uncle work?", "My aunt Rosa works at the harbour office"),
    ("Where is my cousin's flat?", "My neighbour Tom Berg's flat is on Elm Street"),
]


@pytest.mark.parametrize(("question", "content"), NAMED_RELATIVES)
def test_another_relation_before_a_name_and_the_same_noun_is_read(question, content):
    assert sibling(question, content) is not None


@pytest.mark.parametrize(("question", "content"), [
    ("When is my sister's birthday?", "My sister Ana's birthday is March 3"),
    ("When is Ana's birthday?", "My sister Ana's birthday is March 3"),
    ("What is my friend's dog called?", "My friend Luis's dog is called Pepper"),
    ("What is Luis's dog called?", "My friend Luis's dog is called Pepper"),
])
def test_the_relation_or_the_name_asked_is_no_sibling(question, content):
    assert sibling(question, content) is None


@pytest.mark.parametrize(("question", "content"), NAMED_RELATIVES[:3])
def test_another_relatives_memory_is_unsure(store: Store, question, content):
    missed = store.remember(tenant="t", scope="p", content=content).id
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == missed), hits[:1]
    right = question.replace("When is my", "My").replace("What is my", "My").rstrip("?")
    asked = store.recall(tenant="t", query=content, scopes=["p"]).hits
    assert asked[0].memory.id == missed and asked[0].confidence >= SURE_CONFIDENCE, right


@pytest.mark.parametrize("filler", ["Routine notes follow. ", "The rollout went fine, nothing to add here. "])
def test_a_long_memory_is_read_for_its_siblings_up_to_its_read_part(filler):
    """A long memory's siblings are read in its first READ_CHARS characters, whatever follows them
    (docs/limits.md: a recall over long memories stays bounded)."""
    from memvault.storage.siblings import READ_CHARS

    padding = filler * (READ_CHARS // len(filler) + 1)
    question = "which Kubernetes version runs on the production cluster?"
    early = "We run Kubernetes 1.29 on the staging cluster. " + padding + padding
    late = padding + "We run Kubernetes 1.29 on the staging cluster. " + padding
    assert len(early) > 2 * READ_CHARS and sibling(question, early) == ("production", "staging")
    assert sibling(question, late) is None


# Another environment or closed-set word anywhere in either text, alone or before a noun the memory holds
# (trial 57 #3: "runs on production?" and "in prod" were sure of the staging memory, "the production cluster" not).
KUBERNETES = "We run Kubernetes 1.29 on the staging cluster."
BACKUPS = "Backups of the production database run nightly at 02:00 UTC and are kept 35 days."
ANOTHER_OF_A_SET = [
    *((f"which Kubernetes version runs on {env}?", KUBERNETES)
      for env in ("production", "prod", "dev", "development", "QA", "test", "UAT", "sandbox", "preprod")),
    *((question.format(env), KUBERNETES) for env in ("production", "prod", "dev", "uat") for question in (
        "which Kubernetes version do we run in {}?", "what Kubernetes version is {} on?",
        "{}: which Kubernetes version?", "which Kubernetes version runs on the {} cluster?")),
    *((f"how long are {env} backups kept?", BACKUPS) for env in ("staging", "stage", "dev", "QA", "sandbox")),
    ("how long are backups of the staging database kept?", BACKUPS),
    ("where are the Android crash reports sent?", "Crash reports from iOS are sent to Sentry."),
    ("Which storage bucket do we use in the EU?", "The storage bucket in the US is acme-us-prod."),
    ("which features are in Enterprise?", "Pro includes SSO and audit logs."),
    ("which Postgres version runs in production?", "The staging Postgres is db-stg-03 and runs version 16."),
]
SAME_OR_NO_SET = [
    *((f"which Kubernetes version runs on {env}?", KUBERNETES)
      for env in ("staging", "stage", "stg", "the staging cluster")),
    ("which Kubernetes version do we run?", KUBERNETES),
    ("what version of Kubernetes is used?", KUBERNETES),
    ("which Kubernetes version runs on production?", "We run Kubernetes 1.29 on the prod cluster."),
    ("how long are prod backups kept?", BACKUPS),
    ("what is the production database host?", "The database host is db-prod-2.internal."),
    ("what test framework does the team prefer?", "The team runs Vitest on the staging runners."),
    ("what web framework does the storefront use?", "The storefront runs Next.js on the mobile team's cluster."),
    ("which Kubernetes version runs on staging and production?", KUBERNETES),
]


@pytest.mark.parametrize(("question", "content"), ANOTHER_OF_A_SET)
def test_another_environment_or_closed_set_word_anywhere_is_read(question, content):
    assert sibling(question, content) is not None


@pytest.mark.parametrize(("question", "content"), SAME_OR_NO_SET)
def test_the_same_environment_in_other_words_or_none_asked_is_no_sibling(question, content):
    assert sibling(question, content) is None


# A month, weekday or season as someone in one text and as a time in the other (trial 57 #9: "what does
# August approve?" was sure of "August is our peak season; no schema migrations in August.").
PERSON_OR_TIME = [
    ("what does August approve?", "August is our peak season; no schema migrations in August."),
    ("what did June say about the rollout?", "The rollout is planned for early June."),
    ("what does April want for the launch?", "The launch is scheduled in April."),
    ("what does Summer prefer for standups?", "In summer standups move to 9:00."),
    ("what does Sunday think of the release notes?", "Release notes go out every Sunday."),
    ("what happens in May?", "Ask May before merging migrations."),
    ("what did we ship in June?", "June said we ship the importer next."),
    ("when is the deploy freeze in August?", "Ask August about the deploy freeze."),
]
SAME_USE = [
    ("what happens in August?", "August is our peak season; no schema migrations in August."),
    ("what does August approve?", "August approves refunds over 500 EUR."),
    ("what did May say about the launch?", "May said the launch moves to Friday."),
    ("what did we ship in June?", "We shipped the importer on 3 June."),
    ("may we ship the importer in June?", "We ship the importer in June."),
]


@pytest.mark.parametrize(("question", "content"), PERSON_OR_TIME)
def test_a_month_weekday_or_season_as_someone_in_one_text_and_a_time_in_the_other_is_read(question, content):
    assert sibling(question, content) is not None


@pytest.mark.parametrize(("question", "content"), SAME_USE)
def test_a_month_used_alike_in_both_texts_is_no_sibling(question, content):
    assert sibling(question, content) is None


INFRA = [  # the trial's store: among a dozen memories the near miss leads the rest
    "The staging Postgres is db-stg-03.internal; production is db-prod-2.internal.",
    "Port 8443 is used by the internal admin API.", "Grafana alerts go to the #ops-alerts channel.",
    "To rotate the TLS certificate: run certbot renew on proxy-1, then reload nginx.",
    "Terraform state lives in the S3 bucket acme-tfstate in us-east-1.",
    "The on-call handover is every Monday at 10:00.",
    "Rate limit on the public API is 100 requests per minute per token.",
]


@pytest.mark.parametrize(("question", "content"), ANOTHER_OF_A_SET[:3] + ANOTHER_OF_A_SET[9:10]
                         + ANOTHER_OF_A_SET[25:27]
                         + PERSON_OR_TIME[:1] + PERSON_OR_TIME[5:6])
def test_another_environment_or_a_month_as_someone_is_unsure(store: Store, question, content):
    missed = store.remember(tenant="t", scope="p", content=content).id
    for other in INFRA:
        store.remember(tenant="t", scope="p", content=other)
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == missed), hits[:1]


@pytest.mark.parametrize("question", ["which Kubernetes version runs on staging?", "what happens in August?"])
def test_the_environment_or_month_asked_stays_sure(store: Store, question):
    for content in (KUBERNETES, "August is our peak season; no schema migrations in August.", *INFRA):
        store.remember(tenant="t", scope="p", content=content)
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].confidence >= SURE_CONFIDENCE, hits[:1]


# Relatives, landlords, bosses and pets as a closed set (trial 58 #4: grandpa's birthday answered by
# grandma's at 0.65, the neighbour's dog for the cat at 0.72); the same one in other words is the same.
RELATIVES_AND_PETS = [
    # another relative before the same noun ("grandpa's birthday" / "Grandma's birthday")
    ("When is grandpa's birthday?", "Grandma's birthday is on March 3"),
    ("When is my grandmother's birthday?", "My grandfather's birthday is on June 9"),
    ("What is my landlady's phone number saved as?", "My landlord's phone number is saved as 'Flat Berlin'"),
    ("When is my aunt's flight?", "My uncle's flight leaves at 7:40 on Sunday"),
    ("What is my stepson's shoe size?", "My stepdaughter's shoe size is 36"),
    ("Where is my father-in-law's house?", "My mother-in-law's house is in Leiria"),
    ("What is my girlfriend's favourite flower?", "My boyfriend's favourite flower is the tulip"),
    ("When is my wife's dentist appointment?", "My husband's dentist appointment is on the 14th"),
    ("What is my cousin's email address?", "My nephew's email address is in the shared contacts"),
    ("When is my granddaughter's recital?", "My grandson's recital is on Friday evening"),
    # another relative doing the same ("my nephew is allergic" / "My niece is allergic")
    ("What is my nephew allergic to?", "My niece is allergic to cats"),
    ("What does my granny like to read?", "My granddad likes to read crime novels"),
    ("Which team does my brother-in-law support?", "My sister-in-law supports Benfica"),
    ("What does the tenant pay for parking?", "The landlord pays 40 EUR a month for parking"),
    ("What does my coworker drink in the morning?", "My boss drinks espresso in the morning"),
    ("Where does my stepbrother live?", "My stepsister lives in Ghent"),
    # another relative or pet after the same verb
    ("Who picks up my son from school?", "Anna picks up my daughter from school"),
    ("Who feeds the cat when we travel?", "The neighbour feeds the dog when we travel"),
    ("Who takes grandma to the doctor?", "My sister takes grandpa to the doctor"),
    ("Which vet treats our rabbit?", "Dr Costa treats our hamster"),
    # another pet or relative of the same third party ("our neighbour's cat" / "Our neighbour's dog")
    ("What is our neighbour's cat called?", "Our neighbour's dog is called Bruno"),
    ("What is my sister's parrot called?", "My sister's budgie is called Kiwi"),
    ("How old is Tom's horse?", "Tom's pony is 12 years old"),
    ("What does Ana's son study?", "Ana's daughter studies law in Coimbra"),
    ("What breed is my friend's puppy?", "My friend's kitten is a Maine Coon"),
    ("What does our turtle eat?", "Our goldfish eats flakes twice a day"),
    ("When does Maria's husband land?", "Maria's wife lands at 16:20"),
    ("Where does my mom's cousin live?", "My mom's aunt lives in Faro"),
    ("What is the landlady's email?", "The tenant's email is ana@example.org"),
    ("How does my manager prefer updates?", "My colleague prefers updates by email"),
]
THE_SAME_RELATIVE = [
    ("When is grandpa's birthday?", "My grandfather's birthday is on March 3"),
    ("When is my grandmother's birthday?", "Grandma's birthday is on March 3"),
    ("When does my mother's flight land?", "My mom's flight lands at 18:40 on Friday"),
    ("When does my dad's flight land?", "My father's flight lands at 18:40"),
    ("What is our dog called?", "My dog is called Bruno"),
    ("What is our puppy called?", "Our dog is called Bruno"),
    ("What does my coworker drink?", "My colleague drinks espresso"),
    ("When is grandpa's birthday?", "Grandma's birthday is March 3 and grandpa's is June 9"),
    ("What is my niece allergic to?", "My niece and my nephew are allergic to cats"),
    ("What do the cats eat?", "The cats eat dry food; the dog gets leftovers"),
    ("When is my granny's birthday?", "Nana's birthday is on May 2"),
    ("What does my hubby like for breakfast?", "My husband likes porridge for breakfast"),
    ("What does my mum do on Sundays?", "Mom goes swimming on Sundays"),
]


@pytest.mark.parametrize(("question", "content"), RELATIVES_AND_PETS)
def test_another_relative_or_pet_is_read(question, content):
    assert sibling(question, content) is not None


@pytest.mark.parametrize(("question", "content"), THE_SAME_RELATIVE)
def test_the_same_relative_or_pet_in_other_words_is_no_sibling(question, content):
    assert sibling(question, content) is None


def recalled(store: Store, question: str, content: str):  # type: ignore[no-untyped-def]
    """``content``'s id and the hits of ``question`` over it and an unrelated memory."""
    stored = store.remember(tenant="t", scope="p", content=content).id
    store.remember(tenant="t", scope="p", content="The car's next service is due at 60000 km")
    return stored, store.recall(tenant="t", query=question, scopes=["p"]).hits


@pytest.mark.parametrize(("question", "content"), RELATIVES_AND_PETS[::3])
def test_another_relatives_or_pets_memory_is_unsure(store: Store, question, content):
    missed, hits = recalled(store, question, content)
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == missed), hits[:1]


@pytest.mark.parametrize(("question", "content"), [THE_SAME_RELATIVE[i] for i in (0, 1, 2, 4, 7)])
def test_the_same_relative_or_pet_in_other_words_stays_sure(store: Store, question, content):
    wanted, hits = recalled(store, question, content)
    assert hits[0].memory.id == wanted and hits[0].confidence >= SURE_CONFIDENCE, hits[:1]


# The same relative in other words with their name after the word (verify 58: 0.45, the question's word read as
# one no memory holds: "colleague" where the memory says "coworker")
THE_SAME_RELATIVE_NAMED = [
    ("Where does my colleague Tom sit?", "My coworker Tom sits by the window"),
    ("When does my mom Lisa land?", "My mother Lisa lands at 9 on Friday"),
    ("When does my grandfather Joe take his pills?", "Grandpa Joe takes his pills at 8 pm"),
    ("What seat does my father Paul prefer?", "My dad Paul prefers aisle seats"),
    ("What does our puppy Rex eat?", "Our dog Rex eats salmon kibble twice a day"),
]


@pytest.mark.parametrize(("question", "content"), THE_SAME_RELATIVE_NAMED)
def test_the_same_relative_in_other_words_before_their_name_stays_sure(store: Store, question, content):
    wanted, hits = recalled(store, question, content)
    assert hits[0].memory.id == wanted and hits[0].confidence >= SURE_CONFIDENCE, hits[:1]


# A role of another thing: "<role> of X" / "<role> of Y" (trial 58 #5: the product owner of search answered
# "the product owner of checkout?" at 0.57).
ROLES_OF_ANOTHER = [
    ("Who is the product owner of checkout?", "Mariana is the product owner of search and owns the relevance roadmap"),
    ("Who is the product owner of billing?", "Mariana is the product owner of search and owns the relevance roadmap"),
    ("Who is the tech lead for billing?", "Priya is the tech lead for search"),
    ("Who is on call for payments this week?", "Tomasz is on call for search this week"),
    ("Who is on-call for payments?", "Tomasz is on-call for search until Friday"),
    ("Who is the head of marketing?", "Lena is the head of sales"),
    ("Who are the maintainers of the billing library?", "The maintainers of the search library are Ana and Raj"),
    ("Who is in charge of hiring?", "Sam is in charge of onboarding"),
    ("Who is responsible for invoicing?", "Priya is responsible for payroll"),
    ("Who is the owner of checkout?", "The owner of search is Mariana"),
    ("Who should I contact for billing questions?", "Contact for search questions: Mariana"),
    ("Who is the manager of logistics?", "Rui is the manager of procurement"),
    ("Who is the executive sponsor of the migration?", "Carla is the executive sponsor of the rebrand"),
    ("Who is the director of engineering?", "Jonas is the director of design"),
]
THE_SAME_ROLE = [
    ("Who is the product owner of search?", "Mariana is the product owner of search and owns the relevance roadmap"),
    ("Who owns search?", "Mariana is the product owner of search and owns the relevance roadmap"),
    ("Who is the tech lead for search?", "Priya is the tech lead for search"),
    ("Who is the head of sales?", "Lena is the head of sales"),
    ("Who is on call for payments?", "Tomasz is on call for search and payments this week"),
    ("Who leads search?", "Priya is the tech lead for search"),
    ("What is the owner of the search service called?", "Mariana owns the search service"),
]


@pytest.mark.parametrize(("question", "content"), ROLES_OF_ANOTHER)
def test_the_thing_another_role_is_of_is_read(question, content):
    assert sibling(question, content) is not None


@pytest.mark.parametrize(("question", "content"), THE_SAME_ROLE)
def test_the_role_of_the_thing_asked_or_told_by_a_verb_is_no_sibling(question, content):
    assert sibling(question, content) is None


@pytest.mark.parametrize(("question", "content"), ROLES_OF_ANOTHER[::2])
def test_the_role_of_another_thing_is_unsure(store: Store, question, content):
    missed, hits = recalled(store, question, content)
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == missed), hits[:1]


@pytest.mark.parametrize(("question", "content"), THE_SAME_ROLE[:4])
def test_the_role_of_the_thing_asked_stays_sure(store: Store, question, content):
    wanted, hits = recalled(store, question, content)
    assert hits[0].memory.id == wanted and hits[0].confidence >= SURE_CONFIDENCE, hits[:1]


# Near misses of the relatives and pets sets (fixnear10 #2): godparents and godchildren, roommates, half- and
# step-siblings are relatives of their own; a flatmate is a roommate, a doggy a dog, a fiancée a fiancé.
ANOTHER_RELATIVE_NEAR = [
    ("When is my goddaughter's birthday?", "My godson's birthday is on May 4"),
    ("When is my godmother's birthday?", "My godfather's birthday is on May 4"),
    ("When is my godfather's birthday?", "My father's birthday is on May 4"),
    ("When is my godmother's flight?", "My grandmother's flight leaves at 7:40"),
    ("Who picks up my goddaughter from school?", "Anna picks up my godson from school"),
    ("When does my roommate pay rent?", "My landlord collects rent on the 1st"),
    ("What does my step-brother study?", "My stepsister studies law"),
    ("Where does my stepbrother live?", "My brother lives in Ghent"),
    ("Where does my half-sister live?", "My sister lives in Ghent"),
    ("Where does my half-brother live?", "My half-sister lives in Ghent"),
    ("Who feeds my doggo when we travel?", "Ana feeds my cat when we travel"),
    ("What does our doggy eat?", "Our cat eats tuna twice a day"),
    ("What do our puppies eat?", "Our kittens eat wet food"),
    ("When does my fiancé land?", "My husband lands at 16:20"),
]
THE_SAME_RELATIVE_OTHERWISE = [
    ("Where does my flatmate work?", "My roommate works at the bakery on Main Street"),
    ("When does my housemate pay rent?", "My roommate pays rent on the 1st"),
    ("When does my roommate pay rent?", "My flatmate pays rent on the 1st"),
    ("When does my roomie pay rent?", "My roommate pays rent on the 1st"),
    ("Where does my flatmate Joe work?", "My roommate Joe works at the bakery"),
    ("What does our doggy eat?", "Our dog eats salmon kibble"),
    ("Who feeds my doggo when we travel?", "Ana feeds my dog when we travel"),
    ("What do our puppies eat?", "Our dogs eat wet food twice a day"),
    ("What does our kitty eat?", "Our cat eats tuna twice a day"),
    ("What does my step-mom cook on Sundays?", "My stepmother cooks paella on Sundays"),
    ("When does my fiancée land?", "My fiancé lands at 16:20"),
    ("When does my fiance land?", "My fiancée lands at 16:20"),
]


@pytest.mark.parametrize(("question", "content"), ANOTHER_RELATIVE_NEAR)
def test_a_godparent_roommate_half_or_step_sibling_or_pet_in_other_words_is_another_relative(question, content):
    assert sibling(question, content) is not None


@pytest.mark.parametrize(("question", "content"), THE_SAME_RELATIVE_OTHERWISE)
def test_a_flatmate_a_doggy_or_a_fiancee_in_other_words_is_no_sibling(question, content):
    assert sibling(question, content) is None


@pytest.mark.parametrize(("question", "content"), ANOTHER_RELATIVE_NEAR)
def test_another_relative_near_in_words_is_unsure(store: Store, question, content):
    missed, hits = recalled(store, question, content)
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == missed), hits[:1]


@pytest.mark.parametrize(("question", "content"), THE_SAME_RELATIVE_OTHERWISE)
def test_the_same_roommate_pet_or_fiance_in_other_words_stays_sure(store: Store, question, content):
    wanted, hits = recalled(store, question, content)
    assert hits[0].memory.id == wanted and hits[0].confidence >= SURE_CONFIDENCE, hits[:1]
