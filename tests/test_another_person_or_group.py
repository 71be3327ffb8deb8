"""Near misses of trial 59 #2 and #3: a memory about another person ("Bob from accounting prefers tea" for
"Does Alice from accounting prefer tea?"), another group of people ("the laptop budget for engineers" for
"... for designers?"), another plan's tier asked after its customers ("customers on the free plan") or
holding no count or age asked ("How old is my daughter?" over her birthday) is never a sure answer; the
person's, group's or tier's own memory stays sure. Real model, both backends, and the words alone."""

from __future__ import annotations

import pytest

from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store
from memvault.storage.subjects import near_miss

TEA = "Bob from accounting prefers tea over coffee"
LAPTOPS = "The laptop budget for engineers is 2500 euros"
SLA = "Our SLA promises 99.9% uptime for enterprise customers"

# Another person asked of, by name, with or without a qualifier, in every question form (trial 59 #2:
# 0.64-0.88); each was sure before.
ANOTHER_PERSON = [
    ("Does Alice from accounting prefer tea?", TEA),
    ("Does Alice from accounting prefer tea over coffee?", TEA),
    ("What does Alice from accounting prefer?", TEA),
    ("Does Alice prefer tea?", TEA),
    ("Which drink does Alice prefer?", TEA),
    ("Does Alice in sales prefer tea?", TEA),
    ("Is Alice from accounting a tea person?", TEA),
    ("Does Will prefer tea?", TEA),
    ("Does May from accounting prefer green tea?", "Grace from accounting prefers green tea"),
    ("Does Mark prefer green tea?", "Jun in finance prefers green tea"),
    ("What coffee does Alice like?", "Bob (our CTO) likes dark roast coffee"),
    ("What coffee does Alice like?", "Bob, our CTO, likes dark roast coffee"),
    ("Does Tom review vendor contracts?", "May from legal reviews all vendor contracts"),
    ("Where does Carlos from marketing sit?", "Dana from marketing sits by the window on the third floor"),
    ("Has Priya approved the Q3 budget?", "Marco in finance has approved the Q3 budget"),
    ("Does Alice from accounting drink coffee?", "Bob from accounting drinks coffee with oat milk"),
    ("Is Grace on the infra team on call this week?", "Jun on the infra team is on call this week"),
    ("Who does Kenji from design report to?", "Lena from design reports to the head of product"),
    # a name in lower case before a qualifier (verify 59 N2: 0.74-0.87)
    ("does alice from accounting prefer tea?", TEA),
    ("is alice in accounting a tea person?", TEA),
    ("where is alice from accounting on Mondays?", "Bob from accounting is in the office on Mondays"),
    ("how was ben in accounting doing?", "Bob from accounting was doing fine after the move"),
]
# Unsure already (another rule, or abstained): kept so.
ANOTHER_PERSON_ALREADY = [
    ("Does Elena own the Terraform modules?", "Priya Sharma on the infra team owns the Terraform modules"),
    ("Does Alice (our CFO) like dark roast coffee?", "Bob (our CTO) likes dark roast coffee"),
    ("What is Anna's favourite editor?", "Mark's favourite editor is Neovim"),
    ("Is Kenji in the Berlin office on Fridays?", "Lena from design is in the Berlin office on Fridays"),
    ("What does Priya in sales think about the new CRM?", "Tom in sales thinks the new CRM is too slow"),
    ("When does Oliver (our CTO) take his vacation?", "Marco (our CFO) takes his vacation in August"),
    ("When did Sam from support join the company?", "Oliver from support joined the company in March 2023"),
]
THE_PERSON = [
    ("Does Bob from accounting prefer tea?", TEA),
    ("Does Bob prefer tea?", TEA),
    ("What does Bob from accounting prefer?", TEA),
    ("Who prefers tea over coffee?", TEA),
    ("Who in accounting prefers tea?", TEA),
    ("Does Alice prefer tea?", "Alice and Bob from accounting prefer tea over coffee"),
    ("What coffee does Bob like?", "Bob (our CTO) likes dark roast coffee"),
    ("What coffee does Bob like?", "Bob, our CTO, likes dark roast coffee"),
    ("What does Priya own?", "Priya Sharma on the infra team owns the Terraform modules"),
    ("Who owns the Terraform modules?", "Priya Sharma on the infra team owns the Terraform modules"),
    ("What is Mark's favourite editor?", "Mark's favourite editor is Neovim"),
    ("What does May review?", "May from legal reviews all vendor contracts"),
    ("Who reviews vendor contracts?", "May from legal reviews all vendor contracts"),
    ("When did Oliver join the company?", "Oliver from support joined the company in March 2023"),
    ("Where does Dana sit?", "Dana from marketing sits by the window on the third floor"),
    ("Has Marco approved the Q3 budget?", "Marco in finance has approved the Q3 budget"),
    ("What did we mark as done?", "Mark marked the migration ticket as done"),
    # the qualifier tells whom the question asks of: the person's memory without it still answers (0.45 before)
    ("Does Bob from accounting prefer tea?", "Bob prefers tea over coffee"),
    ("Does Bob in sales prefer tea?", "Bob prefers tea over coffee"),
    ("Does Marco from platform prefer morning reviews?", "Marco prefers code reviews in the morning before 11am."),
    ("Does Marco on the platform team prefer morning reviews?", "Marco prefers code reviews in the morning before 11am."),
    ("does bob from accounting prefer tea?", TEA),
    ("does anyone in accounting prefer tea?", TEA),
    ("does someone from accounting prefer tea?", TEA),
]
# Another group of people (trial 59 #3: "for designers" over "for engineers" 0.84, interns 0.75).
ANOTHER_GROUP = [
    ("What is the laptop budget for designers?", LAPTOPS),
    ("What is the laptop budget for interns?", LAPTOPS),
    ("What is the laptop budget for contractors?", LAPTOPS),
    ("What is the laptop budget for managers?", LAPTOPS),
    ("What is the laptop budget for new hires?", LAPTOPS),
    ("What is the designers' laptop budget?", LAPTOPS),
    ("What laptop budget do designers get?", LAPTOPS),
    ("What's the laptop budget for data scientists?", LAPTOPS),
    ("How many vacation days do contractors get?", "Employees get 28 vacation days a year"),
    ("What is the training budget for engineers?", "The training budget for managers is 1500 euros a year"),
    ("Who approves expenses for designers?", "Managers approve expenses for engineers"),
    ("When do students get their badges?", "Teachers get their badges on the first Monday of term"),
    # a group named with a word before it, or as a team (verify 59 N2: 0.61, 0.70)
    ("What laptop budget do product managers get?", LAPTOPS),
    ("What is the laptop budget for the sales team?", LAPTOPS),
    ("What is the laptop budget for the design department?", LAPTOPS),
]
ANOTHER_GROUP_ALREADY = [
    ("What do interns get on their first day?", "New hires get a MacBook Pro and a 500 euro desk budget"),
    ("Which VPN do interns use?", "Contractors must use the guest VPN"),
    ("What do directors approve?", "Managers approve expenses over 1000 euros"),
]
# The same audience in other words is one (docs/limits.md): developers and software engineers are engineers.
THE_GROUP = [
    ("What is the laptop budget for engineers?", LAPTOPS),
    ("What is the engineers' laptop budget?", LAPTOPS),
    ("What is the laptop budget for developers?", LAPTOPS),
    ("What is the laptop budget for software engineers?", LAPTOPS),
    ("What is the laptop budget?", LAPTOPS),
    ("What do new hires get?", "New hires get a MacBook Pro and a 500 euro desk budget"),
    ("Which VPN do contractors use?", "Contractors must use the guest VPN"),
    ("Which VPN do freelancers use?", "Contractors must use the guest VPN"),
    ("Who approves expenses for engineers?", "Managers approve expenses over 1000 euros"),
    ("How many vacation days do employees get?", "Employees get 28 vacation days a year"),
    ("What laptop budget do software engineers get?", LAPTOPS),
    ("What is the laptop budget for the engineering team?", LAPTOPS),
    ("What is the laptop budget for the team?", LAPTOPS),
]
# A tier asked after "customers on the", "users on the" ... (trial 59 #3: "on the free plan" 0.68).
ANOTHER_TIER = [
    ("What uptime do we promise customers on the free plan?", SLA),
    ("What uptime do we promise customers on the basic tier?", SLA),
    ("What uptime do we promise customers with a free subscription?", SLA),
    ("What do basic users pay a month?", "The Pro plan costs 20 EUR a month"),
    ("What backup retention do we give users on the free tier?", "Backups of enterprise users are kept 90 days"),
    # other tiers' words (verify 59 N2: 0.62, 0.76)
    ("What uptime do we promise trial users?", SLA),
    ("What uptime do we promise business-tier customers?", SLA),
    ("What uptime do we promise free-tier customers?", SLA),
]
ANOTHER_TIER_ALREADY = [
    ("What uptime do free users get?", SLA),
    ("What uptime do we promise starter accounts?", SLA),
    ("Do users on the pro plan get SSO?", "Enterprise accounts get SSO and a dedicated support engineer"),
    ("How much storage do customers on the free plan get?", "Premium customers get 1 TB of storage"),
]
THE_TIER = [
    ("What uptime do we promise enterprise customers?", SLA),
    ("What uptime do we promise customers on the enterprise plan?", SLA),
    ("Do enterprise accounts get SSO?", "Enterprise accounts get SSO and a dedicated support engineer"),
    ("How much does the Pro plan cost?", "The Pro plan costs 20 EUR a month"),
    ("How much storage do premium customers get?", "Premium customers get 1 TB of storage"),
    ("What uptime do we promise enterprise-tier customers?", SLA),
    ("How long is the trial?", "The free trial lasts 14 days"),
]
# A count or an age asked that the memory does not hold (trial 59 #3: 0.55, 0.72).
NO_NUMBER = [
    ("How many people are on the payments team?", "Maria leads the payments team"),
    ("How old is my daughter?", "My daughter's birthday is on 14 March"),
    ("What age is my son?", "My son's school starts at 8:15"),
    ("How old is our cat?", "Our cat Miso sleeps on the radiator all day"),
    # a count or a year asked in other words (verify 59 N2: 0.77, 0.79, 0.63)
    ("What's the headcount of the payments team?", "Maria leads the payments team"),
    ("How big is the payments team?", "Maria leads the payments team"),
    ("What year was my daughter born?", "My daughter's birthday is on 14 March"),
]
THE_NUMBER = [
    ("How many engineers does the payments team have?", "The payments team has 6 engineers"),
    ("How many people are on the payments team?", "The payments team has five people"),
    ("How old is my son?", "My son is 7 years old"),
    ("How old is my daughter?", "My daughter was born in 2019"),
    ("How many reports does Léa own?", "Léa owns the billing exports and the VAT report."),
    ("How many seats does the Team tier allow?", "The Team tier allows unlimited seats"),
    ("What's the headcount of the payments team?", "The payments team has 6 engineers"),
    ("How big is the payments team?", "The payments team has five people"),
    ("How big is the upload limit?", "The upload limit is 25 MB"),
    ("What year was my daughter born?", "My daughter was born in 2019"),
]
# After "what is", "who was", "which team has" the next word is the subject's verb or state, no name in lower
# case, whatever the qualifier's words ("what was chosen on Tuesday?" over Tom's decision was 0.45).
NO_NAME = [f"{wh} {verb} {qualifier}?" for wh, verb in [
    ("what was", "chosen"), ("what was", "decided"), ("who was", "chosen"), ("who is", "working"),
    ("what is", "due"), ("what was", "changed"), ("what is", "planned"), ("what was", "down"),
    ("what has", "failed"), ("what was", "new"), ("which team was", "chosen"), ("what is", "pending"),
    ("which service has", "crashed")] for qualifier in ["on Tuesday", "in October", "in March 2026",
                                                         "on November 24th", "at the offsite", "from accounting"]]
NEAR = ANOTHER_PERSON + ANOTHER_GROUP + ANOTHER_TIER + NO_NUMBER
SURE = THE_PERSON + THE_GROUP + THE_TIER + THE_NUMBER


@pytest.fixture
def store(made_db, real_embedder):
    s = Store(made_db, real_embedder)
    for text in ["The design review covered the onboarding flow.", "Quarterly planning produced eleven goals."]:
        s.remember(tenant="t", scope="p", content=text)
    yield s
    s.close()


@pytest.mark.parametrize(("question", "content"), NEAR + ANOTHER_PERSON_ALREADY + ANOTHER_GROUP_ALREADY
                         + ANOTHER_TIER_ALREADY)
def test_another_person_group_tier_or_a_missing_number_is_read(question, content):
    assert near_miss(question, content) is not None


@pytest.mark.parametrize(("question", "content"), SURE)
def test_the_person_group_tier_or_number_asked_is_no_near_miss(question, content):
    assert near_miss(question, content) is None


@pytest.mark.parametrize("question", NO_NAME)
@pytest.mark.parametrize("content", [TEA, "Tom decided to drop support for Python 3.9"])
def test_a_verb_or_state_after_what_is_or_who_was_names_no_one(question, content):
    assert near_miss(question, content) is None


@pytest.mark.parametrize(("question", "content"), NEAR + ANOTHER_PERSON_ALREADY[:3] + ANOTHER_GROUP_ALREADY[:2]
                         + ANOTHER_TIER_ALREADY[:2])
def test_another_persons_groups_or_tiers_memory_or_one_without_the_number_is_unsure(store: Store, question, content):
    missed = store.remember(tenant="t", scope="p", content=content).id
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == missed), hits[:1]


@pytest.mark.parametrize(("question", "content"), SURE)
def test_the_persons_groups_or_tiers_own_memory_stays_sure(store: Store, question, content):
    right = store.remember(tenant="t", scope="p", content=content).id
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.id == right and hits[0].confidence >= SURE_CONFIDENCE, hits[:1]


@pytest.mark.parametrize(("right", "near", "question"), [
    ("Alice from accounting prefers green tea", TEA, "Does Alice from accounting prefer tea?"),
    ("The laptop budget for designers is 2000 euros", LAPTOPS, "What is the laptop budget for designers?"),
    ("Free plan customers get 99% uptime", SLA, "What uptime do we promise customers on the free plan?"),
])
def test_the_answer_beside_the_near_miss_is_first_and_sure(store: Store, right, near, question):
    store.remember(tenant="t", scope="p", content=near)
    store.remember(tenant="t", scope="p", content=right)
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.content == right and hits[0].confidence >= SURE_CONFIDENCE, hits[:2]
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.content == near), hits[:2]
