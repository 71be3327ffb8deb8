"""Retrieval by kind of question and memory, real model: hyphenated terms, CJK, long
memories, the hit floor, episode context, pending vectors, paraphrases, unrelated
questions, time in the question, newer-beats-older, similar memories on remember."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from conftest import AGENTIC, LOCOMO

from memvault.storage import ranking
from memvault.storage.candidates import names
from memvault.storage.store import Store

SCOPES = ["proj", "global"]

FILLER = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "Marta suggested moving the retrospective to Thursday afternoons for the whole quarter.",
    "The conference travel budget was approved with a cap on hotel nights per person.",
    "Our coffee machine on the third floor is descaled every second Monday by facilities.",
    "Quarterly planning produced eleven goals, three of them about developer experience.",
    "The mobile team prefers feature flags over long-lived branches for risky changes.",
]


def remember(store: Store, content: str, **kw) -> str:
    return store.remember(tenant="t", scope="proj", content=content, **kw).id


def top_ids(store: Store, query: str, **kw) -> list[str]:
    return [h.memory.id for h in store.recall(tenant="t", query=query, scopes=SCOPES, **kw).hits]


def with_filler(store: Store) -> None:
    for text in FILLER:
        remember(store, text)


@pytest.mark.parametrize(
    ("content", "query"),
    [
        ("Python 3.8 reached its end-of-life in October 2024; upgrade the build images.", "end-of-life"),
        ("The team calls the new tokenizer state-of-the-art for code search.", "state-of-the-art"),
        ("Alerts for the payment service go out-of-band through the pager, not chat.", "out-of-band alerts"),
        ("The warehouse sync is a run-of-the-mill cron job at 02:00.", "run-of-the-mill"),
    ],
)
def test_a_memory_containing_the_hyphenated_term_comes_first(real_store, content, query):
    with_filler(real_store)
    wanted = remember(real_store, content)
    assert top_ids(real_store, query)[:1] == [wanted]


@pytest.mark.parametrize(
    ("content", "queries"),
    [
        ("用户身份验证失败时必须记录审计日志", ["身份验证", "审计日志", "验证失败"]),
        ("データベースのバックアップは毎晩三時に実行する", ["バックアップ", "データベース"]),
        ("김지현은 다음 주에 서울 본사로 출장을 간다", ["김지현", "서울 본사"]),
    ],
)
def test_cjk_text_is_found_by_any_part_of_two_or_more_characters(real_store, content, queries):
    with_filler(real_store)
    remember(real_store, "会议室的投影仪需要新的转换器")
    wanted = remember(real_store, content)
    for query in queries:
        outcome = real_store.recall(tenant="t", query=query, scopes=SCOPES)
        assert not outcome.abstained and outcome.hits[0].memory.id == wanted, query
        assert outcome.hits[0].signals.keyword_rank == 1


@pytest.mark.parametrize(
    ("content", "query"),
    [
        ("用户身份验证失败时必须记录审计日志", "身份验证失败要记录什么？"),
        ("データベースのバックアップは毎晩三時に実行する", "バックアップはいつ実行しますか"),
        ("김지현은 다음 주에 서울 본사로 출장을 간다", "김지현의 출장은 언제야?"),
        ("生产数据库的主机是 db7.internal", "数据库主机"),
    ],
)
def test_a_cjk_question_that_is_no_substring_of_the_memory_finds_it_by_its_bigrams(real_store, content, query):
    with_filler(real_store)
    remember(real_store, "会议室的投影仪需要新的转换器")
    wanted = remember(real_store, content)
    outcome = real_store.recall(tenant="t", query=query, scopes=SCOPES)
    assert outcome.hits[0].memory.id == wanted and outcome.hits[0].signals.keyword_rank == 1


def test_accented_names_match_when_typed_without_accents(real_store):
    with_filler(real_store)
    soren = remember(real_store, "Søren Østergaard reviews every schema migration before it ships.")
    lukasz = remember(real_store, "Łukasz Wiśniewski owns the billing exports.")
    assert top_ids(real_store, "Soren migration review")[:1] == [soren]
    assert top_ids(real_store, "who is Lukasz")[:1] == [lukasz]


def _long_memory() -> str:
    body = " ".join(f"Section {i}: " + FILLER[i % len(FILLER)] for i in range(78))
    assert 6_800 < len(body) < 7_900
    return body + " Finally, the nightly backup bucket is named zephyr-archive-07 and lives in eu-west."


@pytest.mark.parametrize(
    "query", ["zephyr-archive-07", "nightly backup bucket name", "which region holds the backup bucket"]
)
def test_the_tail_of_a_long_memory_is_found(real_store, query):
    remember(real_store, "The weekly analytics export lands in the reports bucket every Monday.")
    remember(real_store, "Backups of laptops are handled by the IT department's own tool.")
    wanted = remember(real_store, _long_memory())
    outcome = real_store.recall(tenant="t", query=query, scopes=SCOPES)
    assert not outcome.abstained and outcome.hits[0].memory.id == wanted


def test_every_returned_hit_reports_its_similarity_and_passes_the_floor(real_store):
    with_filler(real_store)
    for i in range(12):
        remember(real_store, f"Service number {i} uses the shared staging database for its tests.")
    outcome = real_store.recall(tenant="t", query="which database do the services use for tests", scopes=SCOPES,
                                limit=20)
    assert outcome.hits
    best = max(h.signals.vector_similarity for h in outcome.hits)
    for hit in outcome.hits:
        similarity = hit.signals.vector_similarity
        assert similarity is not None  # every memory here has a vector
        assert (similarity >= ranking.RELATIVE_HIT_SIMILARITY * best or hit.signals.coverage >= ranking.KEEP_COVERAGE
                or hit.signals.keyword_rank == 1)
        assert 0.0 <= hit.confidence <= 1.0


def test_superseded_or_forgotten_text_never_makes_another_memory_match(real_store):
    t0 = "2026-01-05T10:00:00Z"
    old = remember(real_store, "The staging DB is db-stg-03", kind="episode", observed_at=t0)
    after = remember(real_store, "Lunch was pizza again", kind="episode", observed_at="2026-01-05T10:05:00Z")
    lost = remember(real_store, "My locker code is qq8822zz", kind="episode", observed_at="2026-01-05T10:06:00Z")
    after_lost = remember(real_store, "Noted, thanks", kind="episode", observed_at="2026-01-05T10:07:00Z")
    keyword, _ = real_store.ranked_lists(tenant="t", query="db-stg-03", scopes=SCOPES, k=10)
    assert keyword == [old, after]  # the episode context at work, before the change
    new = real_store.supersede(tenant="t", id=old, content="The staging DB is db-stg-04").id
    keyword, _ = real_store.ranked_lists(tenant="t", query="db-stg-03", scopes=SCOPES, k=10)
    assert after not in keyword
    assert new in top_ids(real_store, "db-stg-04")
    real_store.forget(tenant="t", id=lost)
    keyword, _ = real_store.ranked_lists(tenant="t", query="qq8822zz", scopes=SCOPES, k=10)
    assert keyword == [] and after_lost not in top_ids(real_store, "qq8822zz")


def test_facts_stored_minutes_apart_do_not_lend_each_other_words(real_store):
    remember(real_store, _long_memory(), observed_at="2026-01-05T10:00:00Z")
    short = remember(real_store, "Marta likes oat milk", observed_at="2026-01-05T10:01:00Z")
    keyword, _ = real_store.ranked_lists(tenant="t", query="zephyr-archive-07", scopes=SCOPES, k=10)
    assert short not in keyword


def test_a_memory_without_a_vector_does_not_stop_abstention(tmp_path, real_embedder):
    db = tmp_path / "m.db"
    healthy = Store(db, real_embedder)
    for text in FILLER:
        healthy.remember(tenant="t", scope="proj", content=text)
    without_model = Store(db, None)
    without_model.remember(tenant="t", scope="proj", content="The VPN config lives in the ops wiki")
    without_model.close()
    outcome = healthy.recall(tenant="t", query="What is the capital of Mongolia?", scopes=SCOPES)
    assert outcome.abstained and outcome.hits == []
    found = healthy.recall(tenant="t", query="VPN config", scopes=SCOPES)
    assert found.hits and found.hits[0].memory.content == "The VPN config lives in the ops wiki"
    assert found.degraded == "1 matching memory has no vector yet"
    healthy.close()


AGENT = [
    ("preference", "Dana keeps 9:00-11:30 as focus time; don't propose meetings in that block."),
    ("fact", "Credentials for every service live in Vault under kv/quorvel/<env>/<service>."),
    ("decision", "We use arq for background jobs instead of Celery because it is asyncio-native."),
    ("fact", "Production database pg-main runs PostgreSQL 15.4."),
    ("procedure", "To rotate the TLS certificate, run make cert-rotate and restart the ingress."),
    ("failure", "The March deploy broke logins because the session cookie domain was wrong."),
]


PARAPHRASES = [  # no content word shared with the memory that answers
    ("Which morning hours are off-limits for scheduling calls with me?", 0),
    ("Where do we keep secrets for the apps?", 1),
    ("What did we pick for deferred work processing?", 2),
    ("Which release of the relational engine is prod on?", 3),
    ("How do I renew the HTTPS cert?", 4),
    ("Why could nobody sign in after that spring rollout?", 5),
]


def test_reworded_questions_find_their_memory(real_store):
    ids = [remember(real_store, text, kind=kind) for kind, text in AGENT]
    with_filler(real_store)
    first = abstained = 0
    for question, wanted in PARAPHRASES:
        outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES)
        abstained += outcome.abstained
        first += bool(outcome.hits) and outcome.hits[0].memory.id == ids[wanted]
    print(f"\nparaphrases answered first: {first}/{len(PARAPHRASES)}, abstained on {abstained}")
    # MiniLM puts "relational engine" at cosine 0.23 from "PostgreSQL": that one abstains.
    assert first >= 4 and abstained <= 1


def load_eval_set(folder, store_path, embedder, conversations):
    """A store holding ``conversations`` of an evaluation folder (each in its own scope), its
    clock at the end of their timeline; memvault id -> folder id; the answerable questions."""
    with (folder / "memories.jsonl").open() as fh:
        rows = [r for r in map(json.loads, fh) if r["conversation_id"] in conversations]
    end = max(datetime.fromisoformat(r["observed_at"]) for r in rows).replace(tzinfo=UTC) + timedelta(days=1)
    store = Store(store_path, embedder, clock=lambda: int(end.timestamp() * 1000))
    ids = {}
    for r in rows:
        ids[store.remember(tenant="t", scope=r["conversation_id"], content=r["text"], kind=r.get("kind", "episode"),
                           tags=r.get("tags"), importance=r.get("importance"), source=r["speaker"],
                           observed_at=r["observed_at"] + "Z").id] = r["id"]
    with (folder / "queries.jsonl").open() as fh:
        questions = [q for q in map(json.loads, fh) if q["conversation_id"] in conversations and q["relevant_ids"]
                     and not q["expected_abstain"]]
    return store, ids, questions


@pytest.mark.slow
@pytest.mark.skipif(not (AGENTIC / "memories.jsonl").exists(), reason="agentic data folder ../shared/eval/agentic absent")
def test_reworded_agent_questions_are_not_won_by_memories_sharing_an_incidental_word(tmp_path, real_embedder):
    """The agentic set's paraphrase questions share no indexed word with their answer; other
    memories share an incidental word with them ("who can *let* us into the house if we're
    locked out?" and a pancake recipe's "*let* it rest"). Before the keyword term was trusted
    less when no memory covers much of the question, 27 of 68 came first; before a kind named
    in the question ("why was ... turned away?", "what did we choose ...?") was preferred, 31.
    Today 40 on an AVX2 machine and 37 on an AVX-512 VNNI one: onnxruntime's integer
    kernels differ by CPU (vectors at cosine 0.99 to each other), which moves a few
    close paraphrases; the bound sits below both and above the defects it guards against."""
    stores = ["store-web", "store-ml", "store-home", "store-ops"]
    store, ids, questions = load_eval_set(AGENTIC, tmp_path / "agentic.db", real_embedder, stores)
    questions = [q for q in questions if q["category"] == "paraphrase"]
    first = abstained = 0
    for q in questions:
        outcome = store.recall(tenant="t", query=q["question"], scopes=[q["conversation_id"]])
        abstained += outcome.abstained
        first += bool(outcome.hits) and ids[outcome.hits[0].memory.id] in q["relevant_ids"]
    store.close()
    print(f"\nparaphrases answered first: {first}/{len(questions)}, abstained on {abstained}")
    assert len(questions) == 68 and first >= 35 and abstained <= 2


@pytest.mark.slow
@pytest.mark.skipif(not (LOCOMO / "memories.jsonl").exists(), reason="LoCoMo data folder ../shared/eval/locomo absent")
def test_turns_of_the_conversation_that_answers_come_up_together(tmp_path, real_embedder):
    """A LoCoMo question's evidence is often several turns of one session; the turns of the
    conversation of the first hits are raised. Recall@5 on conv-26: 0.616 before, 0.656 after."""
    store, ids, questions = load_eval_set(LOCOMO, tmp_path / "locomo.db", real_embedder, ["conv-26"])
    found = 0.0
    for q in questions:
        hits = store.recall(tenant="t", query=q["question"], scopes=["conv-26"], limit=5).hits
        found += len(set(q["relevant_ids"]) & {ids[h.memory.id] for h in hits}) / len(q["relevant_ids"])
    store.close()
    print(f"\nconv-26 recall@5: {found / len(questions):.3f} over {len(questions)} questions")
    assert len(questions) == 150 and found / len(questions) >= 0.64


@pytest.mark.parametrize(
    "question",
    ["Who is the CEO of Vandelay Industries?", "What is the capital of Mongolia?", "Recipe for sourdough bread"],
)
def test_a_question_about_something_never_stored_abstains(shared_store, question):
    store, _ = shared_store(agent_memories)
    outcome = store.recall(tenant="t", query=question, scopes=SCOPES)
    assert outcome.abstained and outcome.hits == []


def agent_memories(store: Store) -> None:
    for kind, text in AGENT:
        remember(store, text, kind=kind)


def acronym_agent_and_filler(store: Store) -> list[str]:
    """:data:`ACRONYM_STORE` (their ids), the agent's memories and the filler."""
    ids = [remember(store, text) for text in ACRONYM_STORE]
    agent_memories(store)
    with_filler(store)
    return ids


ACRONYM_STORE = [
    "TLS certificates for api.example.com are renewed by cert-manager every 60 days",
    "Billing persists its invoices in PostgreSQL 16 through SQLAlchemy 2.0 models in billing/models.py",
    "The support desk answers within 4 business hours, weekends excluded",
    "Changes to the docs site are reviewed by Lea before merging",
    "The quarterly business review with the sales team is on the first Monday of each quarter",
]


@pytest.mark.parametrize(("question", "wanted"), [
    ("How do we renew the HTTPS certificates?", 0), ("How do we renew the SSL certificates?", 0),
    ("What is the SLA of the support desk?", 2), ("Who reviews PRs for the docs site?", 3),
    ("When is the QBR with the sales team?", 4),
])
def test_an_unknown_acronym_does_not_stop_a_question_the_rest_of_whose_words_a_memory_answers(
        shared_store, question, wanted):
    """New-user trial: "How do we renew the HTTPS certificates?" abstained beside a memory on
    renewing the TLS certificates: an abbreviation no memory holds was taken for an unknown
    proper name. SLA, PRs and QBR abstained the same way (best cosine 0.39-0.40)."""
    store, ids = shared_store(acronym_agent_and_filler)  # one store for every question (recall writes nothing)
    outcome = store.recall(tenant="t", query=question, scopes=SCOPES)
    assert not outcome.abstained and outcome.hits[0].memory.id == ids[wanted]


@pytest.mark.parametrize("question", [
    "Who is the CEO?", "Which CDN serves the static assets for the web app?", "When is our SOC 2 audit scheduled?",
    "Who is the CEO of Vandelay Industries?",
])
def test_an_unknown_acronym_still_stops_a_question_whose_other_words_no_memory_answers(shared_store, question):
    store, _ = shared_store(acronym_agent_and_filler)
    outcome = store.recall(tenant="t", query=question, scopes=SCOPES)
    assert outcome.abstained and outcome.hits == []


@pytest.mark.parametrize("question", ["OPS-4521", "OPS-4521 status", "K8S-77 rollout owner"])
def test_an_identifier_opening_the_question_that_no_memory_holds_abstains(real_store, question):
    """An identifier is a name wherever it stands (new-user trial: a query that was only a
    forgotten ticket id returned five unrelated memories)."""
    for kind, text in AGENT:
        remember(real_store, text, kind=kind)
    wanted = remember(real_store, "OPS-4521 and K8S-77: the rollout of the payments gateway, owned by Priya")
    assert top_ids(real_store, question)[:1] == [wanted]
    real_store.forget(tenant="t", id=wanted)
    outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES)
    assert outcome.abstained and outcome.hits == []


@pytest.mark.parametrize("question", ["db-stg-03", "where does db-stg-03 run?", "is tern-350m-r04 still training",
                                      "what changed in v7 of the billing api"])
def test_an_identifier_in_small_letters_that_no_memory_holds_abstains(real_store, question):
    """Hosts, versions and run ids are typed in small letters: such a word with a digit is a
    name as "OPS-4521" is (it was not, so a forgotten host's question got unrelated hits)."""
    for kind, text in AGENT:
        remember(real_store, text, kind=kind)
    wanted = remember(real_store, "db-stg-03 is the staging database; tern-350m-r04 is the small model's run; "
                                  "v7 of the billing api drops the legacy invoice fields")
    assert top_ids(real_store, question)[:1] == [wanted]
    real_store.forget(tenant="t", id=wanted)
    outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES)
    assert outcome.abstained and outcome.hits == []


@pytest.mark.parametrize(("question", "found"), [
    ("When is Åsa's birthday?", ["Åsa"]), ("What is Lukasz Wisniewski's role?", ["Lukasz", "Wisniewski"]),
    ("Where is db-stg-03's backup kept?", ["db-stg-03"]), ("Ask O'Brien about it", ["O'Brien"]),
    ("Why did 8k-token inputs crash?", []), ("What did we do on the 1st?", []),
])
def test_a_possessive_is_not_part_of_the_name_and_a_quantity_is_no_identifier(question, found):
    """"Åsa's" names Åsa (a memory saying "Mum (Åsa)" holds the name); "8k" and "1st" are
    quantities, not identifiers."""
    assert names(question) == found


@pytest.mark.parametrize("question", ["NEAR(Kafka", "NEAR Kafka", "NOT Kafka", "consumers NEAR spring"])
def test_query_syntax_words_in_capitals_are_plain_words_not_names(real_store, question):
    """New-user trial: "NEAR Kafka" abstained (NEAR was taken for an identifier no memory
    holds) while "near Kafka" found the memory."""
    wanted = remember(real_store, "We moved the event pipeline from RabbitMQ to Kafka last spring; the consumers "
                                  "were rewritten in Go")
    remember(real_store, "The staging API listens on port 8443")
    assert top_ids(real_store, question)[:1] == [wanted]


def test_a_question_written_in_capitals_is_not_a_list_of_unknown_identifiers(real_store):
    wanted = remember(real_store, "We moved the event pipeline from RabbitMQ to Kafka last spring; the consumers "
                                  "were rewritten in Go")
    assert top_ids(real_store, "WHO REWROTE THE KAFKA CONSUMERS")[:1] == [wanted]
    real_store.forget(tenant="t", id=wanted)
    outcome = real_store.recall(tenant="t", query="WHAT IS THE STATUS OF OPS-4521", scopes=SCOPES)
    assert outcome.abstained  # an identifier (a digit) is still a name no memory holds


@pytest.mark.parametrize(("question", "month"), [
    ("What broke in March?", "03"), ("what went wrong in March 2026", "03"), ("What broke in November?", "11"),
    ("which failures did we hit in March", "03"),
])
def test_a_time_in_the_question_outweighs_its_words_matched_at_another_time(real_store, question, month):
    """New-user trial: "What broke in March?" put November's "the build broke" first, with the
    highest confidence of the session: the time the question names counts in its coverage."""
    march = [remember(real_store, "The nightly S3 sync failed because the bucket policy denied PutObject",
                      kind="failure", observed_at="2026-03-09T10:00:00Z"),
             remember(real_store, "Redis ran out of memory and evicted session keys during the load test",
                      kind="failure", observed_at="2026-03-22T10:00:00Z")]
    november = remember(real_store, "The CI pipeline broke when Docker Hub rate-limited anonymous pulls, "
                        "something went wrong with every build", kind="failure", observed_at="2026-11-26T10:00:00Z")
    remember(real_store, "We decided to move staging to Kubernetes 1.30", kind="decision",
             observed_at="2026-08-22T10:00:00Z")
    outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES, until="2026-11-30T00:00:00Z")
    first = outcome.hits[0]
    assert first.memory.id in (march if month == "03" else [november])
    others = [h for h in outcome.hits if h.memory.observed_at != first.memory.observed_at
              and h.memory.id not in (march if month == "03" else [november])]
    assert all(h.confidence < first.confidence for h in others)


def test_a_month_in_the_question_prefers_decisions_made_then(real_store):
    """A decision is made at a time (new-user trial: "what did we decide in March 2026?"
    answered with a November decision)."""
    march = remember(real_store, "Chose Stripe over Adyen for card payments because of the better API",
                     kind="decision", observed_at="2026-03-12T10:00:00Z")
    remember(real_store, "Decided to move the nightly batch jobs to Kubernetes CronJobs", kind="decision",
             observed_at="2026-11-25T10:00:00Z")
    june = remember(real_store, "We picked PostgreSQL 18 for the new billing database", kind="decision",
                    observed_at="2026-06-02T10:00:00Z")
    remember(real_store, "Releases ship on Tuesdays after the code freeze", kind="fact", observed_at="2026-03-10T10:00:00Z")
    assert top_ids(real_store, "what did we decide in March 2026?")[:1] == [march]
    assert top_ids(real_store, "what did we decide in June 2026")[:1] == [june]
    # Generic words alone are weak evidence; the time they name is not: no abstention.
    for question in ("what decisions were made in March 2026?", "which choices did we make in June 2026"):
        assert (march if "March" in question else june) in top_ids(real_store, question)[:2]


def test_a_month_in_the_question_prefers_memories_observed_then(real_store):
    feb = remember(real_store, "The nightly import failed because the disk was full.", kind="failure",
                   observed_at="2025-02-11T08:00:00Z")
    march = remember(real_store, "The nightly import failed because the API token had expired.", kind="failure",
                     observed_at="2025-03-18T08:00:00Z")
    may = remember(real_store, "The nightly import failed because of a schema change upstream.", kind="failure",
                   observed_at="2025-05-02T08:00:00Z")
    assert top_ids(real_store, "what broke the nightly import in March 2025?")[:1] == [march]
    assert top_ids(real_store, "why did the nightly import fail in February 2025")[:1] == [feb]
    assert top_ids(real_store, "nightly import failure May 2025")[:1] == [may]


def test_the_newer_of_two_memories_on_the_same_subject_comes_first(real_store):
    remember(real_store, "The office Wi-Fi network is called Lindgarden.", observed_at="2024-01-10T09:00:00Z")
    newer = remember(real_store, "The office Wi-Fi network is now called Lindgarden-Mesh.",
                     observed_at="2024-06-01T09:00:00Z")
    remember(real_store, "Parallel memory number 17 is about the printer.", observed_at="2024-02-01T09:00:00Z")
    remember(real_store, "Parallel memory number 18 is about the printer.", observed_at="2024-07-01T09:00:00Z")
    assert top_ids(real_store, "What is the name of the office Wi-Fi network?")[:1] == [newer]
    # a newer memory that answers much worse does not jump ahead
    first = top_ids(real_store, "parallel memory number 17")[0]
    assert real_store.get(tenant="t", id=first).content.startswith("Parallel memory number 17")


def test_remember_names_similar_current_memories_and_can_ask_first(real_store):
    old = remember(real_store, "The office Wi-Fi network is called Lindgarden.")
    with_filler(real_store)
    stored = real_store.remember(tenant="t", scope="proj", content="The office Wi-Fi network is now Lindgarden-Mesh.")
    assert stored.created and stored.similar[:1] == (old,)
    asked = real_store.remember(tenant="t", scope="proj", content="The office Wi-Fi network is called Lindgarden-5G.",
                                check_similar=True)
    assert not asked.created and old in asked.similar and asked.id == asked.similar[0]
    assert "Lindgarden-5G" not in [h.memory.content for h in real_store.recall(
        tenant="t", query="Lindgarden-5G", scopes=SCOPES).hits]
    unrelated = real_store.remember(tenant="t", scope="proj", content="Marta's dog is called Pixel.",
                                    check_similar=True)
    assert unrelated.created and unrelated.similar == ()


def test_confidence_is_high_for_a_clear_answer_and_lower_down_the_list(real_store):
    for kind, text in AGENT:
        remember(real_store, text, kind=kind)
    with_filler(real_store)
    hits = real_store.recall(tenant="t", query="which PostgreSQL version does pg-main run", scopes=SCOPES).hits
    assert hits[0].memory.content.startswith("Production database pg-main")
    assert hits[0].confidence >= 0.6
    assert all(0.0 <= h.confidence < hits[0].confidence for h in hits[1:])
    assert all(h.confidence < 0.3 for h in hits[1:])  # the rest share at most a word or two



@pytest.mark.parametrize(("old", "new", "query"), [
    ("The staging database is db-stg-03.", "The staging database is db-stg-07 (moved in March).",
     "Which host is the staging database?"),
    ("The team standup is at 9:30 every morning.", "The team standup is at 10:00 every morning.", "When is standup?"),
    ("Deploys happen on Tuesdays.", "Deploys happen on Thursdays.", "What day do we deploy?"),
    ("The user prefers tabs for indentation.", "The user prefers 4 spaces for indentation.", "tabs or spaces?"),
])
def test_a_successor_is_as_sure_with_its_history_recalled_as_without(real_store, old, new, query):
    """New-user trial: after supersede, the new answer came with confidence 0.401. Recalled
    with the history, its superseded version (pushed just below it, and often closer to the
    question's words) counted as a rival: no lead, a similarity gap. History is no rival."""
    with_filler(real_store)
    successor = real_store.supersede(tenant="t", id=remember(real_store, old), content=new).id
    alone = real_store.recall(tenant="t", query=query, scopes=SCOPES).hits
    with_history = real_store.recall(tenant="t", query=query, scopes=SCOPES, include_history=True).hits
    assert alone[0].memory.id == with_history[0].memory.id == successor
    assert with_history[1].memory.superseded_by == successor
    assert with_history[0].confidence >= max(0.6, alone[0].confidence - 0.05)
    assert with_history[1].confidence < 0.3


NEAR_MISS_STORE = [
    "The staging database runs on pg-staging-01, port 5433; connect through the bastion.",
    "The Lisbon trip is booked: 14-28 July, flying out on a morning flight from Arlanda.",
    "The kestrel cluster has 24 CPU nodes and 16 GPU nodes; jobs are submitted with Slurm.",
    "The office Wi-Fi network is called Lindgarden-Mesh since the mesh was installed.",
    "The backup disk in the hall cupboard is encrypted and holds the photo archive.",
]


@pytest.mark.parametrize(
    "question",
    [
        "What is the password for the staging database on pg-staging-01?",
        "What is the login password for the kestrel cluster?",
        "Which passphrase unlocks the encrypted backup disk?",
        "Tell me the passcode of the office Wi-Fi network.",
    ],
)
def test_a_question_asking_for_a_password_no_memory_mentions_abstains(real_store, question):
    for text in NEAR_MISS_STORE:
        remember(real_store, text)
    with_filler(real_store)
    outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES)
    assert outcome.abstained and outcome.hits == []


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("What is the port of the staging database on pg-staging-01?", 0),
        ("What are the dates for the Lisbon trip?", 1),
        ("What is the name of the office Wi-Fi network?", 3),
    ],
)
def test_a_question_about_something_stored_on_the_same_subject_is_answered(real_store, question, wanted):
    ids = [remember(real_store, text) for text in NEAR_MISS_STORE]
    with_filler(real_store)
    outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES)
    assert not outcome.abstained and outcome.hits[0].memory.id == ids[wanted]


@pytest.mark.parametrize(
    ("where", "question"),
    [
        ("The staging database password is kept in Vault under kv/staging/db.",
         "What is the password for the staging database on pg-staging-01?"),
        ("The passphrase of the encrypted backup disk is in the family password manager.",
         "Which password unlocks the encrypted backup disk?"),
    ],
)
def test_a_memory_saying_where_a_password_is_kept_answers_a_password_question(real_store, where, question):
    for text in NEAR_MISS_STORE:
        remember(real_store, text)
    wanted = remember(real_store, where)
    with_filler(real_store)
    outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES)
    assert not outcome.abstained and wanted in [h.memory.id for h in outcome.hits[:2]]


def test_memories_observed_in_the_time_named_are_candidates_beyond_the_closest_ones(real_store):
    """More memories are closer to the question's words than the candidate pool holds;
    the one observed in the month the question names is still found, and first."""
    for day in range(1, 29):
        for hour in (6, 18):
            remember(real_store, f"Nightly import report {day}-{hour}: the import failed and was retried.",
                     kind="failure", observed_at=f"2025-02-{day:02d}T{hour:02d}:00:00Z")
    march = remember(real_store, "The heat pump stopped with alarm code A11 during the cold snap.", kind="failure",
                     observed_at="2025-03-12T08:00:00Z")
    hits = real_store.recall(tenant="t", query="What failed in March 2025?", scopes=SCOPES, limit=5).hits
    assert hits and hits[0].memory.id == march


def test_a_newer_episode_outdates_an_older_fact_on_the_same_subject(real_store):
    remember(real_store, "Training environment: conda env 'tern' with PyTorch 2.3.1 and CUDA 12.1.", kind="fact",
             observed_at="2024-03-01T09:00:00Z")
    newer = remember(real_store, "Rebuilt the conda env 'tern' on PyTorch 2.5.1 and CUDA 12.4 for the move to FSDP2.",
                     kind="episode", observed_at="2024-11-20T09:00:00Z")
    remember(real_store, "The office printer on floor two is out of toner again.", kind="episode",
             observed_at="2024-12-01T09:00:00Z")
    assert top_ids(real_store, "Which PyTorch version does the tern env use?")[:1] == [newer]


KINDS_STORE = [
    ("decision", "We moved the nightly batch jobs from cron on a VM to Kubernetes CronJobs."),
    ("decision", "Chose Stripe over Adyen for card payments because its API is simpler."),
    ("failure", "The billing export crashed on the 1st because the disk of the worker was full."),
    ("failure", "Logins broke after the deploy: the session cookie domain was set to the staging host."),
    ("preference", "I like pull requests under 400 lines and reviews within one working day."),
    ("preference", "Keep status updates short, in bullet points, without emoji."),
    ("procedure", "To rotate the TLS certificate, run make cert-rotate and restart the ingress pods."),
    ("procedure", "Releasing: tag the commit, wait for CI, then promote the image in Argo CD."),
    ("episode", "Pair-debugged the flaky checkout test with Omar; it was a timezone assumption."),
    ("episode", "Ran the quarterly game day: the replica failover took four minutes."),
    ("fact", "The staging database is pg-staging-01 on port 5433."),
    ("fact", "Omar Haddad owns the mobile app and its release calendar."),
]

KIND_QUESTIONS = [
    ("decision", "what decisions did we make?"),
    ("decision", "list our decisions"),
    ("decision", "what did we decide?"),
    ("failure", "which failures did we hit?"),
    ("failure", "what broke?"),
    ("failure", "what went wrong recently?"),
    ("preference", "what are my preferences?"),
    ("preference", "what do I prefer?"),
    ("procedure", "list the procedures"),
    ("procedure", "which runbooks do we have?"),
    ("episode", "what happened?"),
    ("episode", "show me the episodes"),
    ("fact", "what facts do you know?"),
]


@pytest.mark.parametrize(("kind", "question"), KIND_QUESTIONS)
def test_a_question_naming_a_kind_of_memory_is_answered_with_that_kind_first(real_store, kind, question):
    """A question that names a kind and nothing else has only generic words: it is answered
    with the memories of that kind (first, not alone), never abstained on."""
    for k, text in KINDS_STORE:
        real_store.remember(tenant="t", scope="proj", content=text, kind=k)
    outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES)
    assert not outcome.abstained
    kinds = [h.memory.kind for h in outcome.hits]
    assert kinds[:2] == [kind, kind], kinds


def test_a_kind_named_in_the_question_is_a_preference_not_a_filter(real_store):
    """"What did we decide about the staging database?" when only a fact is stored about it:
    the fact comes first, above decisions about other things."""
    ids = {text: real_store.remember(tenant="t", scope="proj", content=text, kind=k).id for k, text in KINDS_STORE}
    staging = ids["The staging database is pg-staging-01 on port 5433."]
    assert top_ids(real_store, "what did we decide about the staging database port?")[:1] == [staging]
    # ... and with only other kinds in scope, a kind question on a stored subject is answered.
    outcome = real_store.recall(tenant="t", query="which procedure covers the staging database?", scopes=SCOPES,
                                kinds=["fact"])
    assert [h.memory.id for h in outcome.hits][:1] == [staging]


def test_a_kind_question_without_memories_of_that_kind_in_scope_is_not_forced_to_answer(real_store):
    for k, text in KINDS_STORE:
        if k != "preference":
            real_store.remember(tenant="t", scope="proj", content=text, kind=k)
    outcome = real_store.recall(tenant="t", query="what are my preferences?", scopes=SCOPES)
    assert all(h.memory.kind != "preference" for h in outcome.hits)
    assert outcome.abstained or outcome.hits[0].confidence < 0.5



INVOICE_JOB = [
    ("episode", "The invoice job ran last night from 02:00 to 02:10 on worker-3."),
    ("failure", "The invoice job ran out of memory at 02:10 and the kernel killed it."),
    ("decision", "The invoice job runs on the batch queue with 8 GB of memory from now on."),
    ("procedure", "To rerun the invoice job: clear its lock in Redis, then trigger it from the admin page."),
    ("fact", "The invoice job is owned by the billing team and writes to the invoices bucket."),
]


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Why was the invoice job stopped?", "failure"),
        ("Why did the invoice job stop at 02:10?", "failure"),
        ("Why don't we run the invoice job on a worker any more?", "decision"),
        ("What caused the invoice job to stop?", "failure"),
        ("What's the plan for the invoice job?", "decision"),
        ("How do I get the invoice job going again?", "procedure"),
    ],
)
def test_a_question_asking_why_or_how_prefers_the_kind_of_memory_that_says_it(real_store, question, kind):
    """Five memories on one job, each close to the question: asking why something happened
    prefers the failure (it records the cause), what the plan is the decision, how to do
    something the procedure; the episode that merely shares the words comes after."""
    for k, text in INVOICE_JOB:
        real_store.remember(tenant="t", scope="proj", content=text, kind=k)
    hits = real_store.recall(tenant="t", query=question, scopes=SCOPES).hits
    assert hits[0].memory.kind == kind, [h.memory.kind for h in hits]


@pytest.mark.parametrize("question", ["what happened last week?", "So, what happened last week at work?",
                                      "which episodes happened last week"])
def test_a_kind_only_question_naming_a_time_asks_for_what_happened_then(real_store, question):
    """Second new-user trial: "what happened last week?" put June's episodes above last week's
    failure: a question naming only a kind and a time asks for what happened in that time."""
    week = [remember(real_store, "Onboarded the new intern and set up her laptop", kind="episode",
                     observed_at="2026-11-27T10:00:00Z"),
            remember(real_store, "Redis logins failed for an hour: the session store ran out of memory",
                     kind="failure", observed_at="2026-11-26T10:00:00Z")]
    for text, when in (("Ran the disaster recovery drill; the restore took 40 minutes", "2026-06-22T10:00:00Z"),
                       ("Profiled the search API and found the N+1 query", "2026-06-03T10:00:00Z")):
        remember(real_store, text, kind="episode", observed_at=when)
    found = top_ids(real_store, question, until="2026-11-30T12:00:00Z")
    if "episodes" in question:
        assert found[:1] == week[:1]
    else:
        assert set(found[:2]) == set(week)


RECENT_CHANGES = [  # (kind, text, days before 2026-11-30)
    ("decision", "Switched the CI runners from x86 to ARM instances to cut the build bill", 4),
    ("episode", "Moved the nightly backups from 02:00 to 04:00 so they stop overlapping the ETL job", 19),
    ("episode", "Changed the default branch of every repository from master to main", 200),
    ("decision", "Replaced Jenkins with GitHub Actions for all pipelines", 120),
    ("fact", "The office Wi-Fi network is called Lindgarden-Mesh", 2),
]


@pytest.mark.parametrize(("question", "recent"), [
    ("what did we change recently?", 2), ("What changed lately?", 2), ("which changes did we make in recent weeks", 2),
    ("what have we been changing these days?", 2), ("what did we change in the past few weeks?", 2),
    ("what did we change in recent days?", 1),
])
def test_recently_names_the_days_up_to_now_as_a_preference(real_store, question, recent):
    """New-user trial: "what did we change recently?" was not read as a time, so the change
    made 200 days before, which says "changed", came first. "Recently", "lately", "these days"
    and "in recent weeks" name the last 30 days; "in recent days" the last 7."""
    until = datetime(2026, 11, 30, tzinfo=UTC)
    ids = [remember(real_store, text, kind=kind, observed_at=(until - timedelta(days=days)).isoformat())
           for kind, text, days in RECENT_CHANGES]
    outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES, until=until.isoformat())
    assert outcome.time is not None and outcome.time.end > until.timestamp() * 1000
    assert (until.timestamp() * 1000 - outcome.time.start) / 86_400_000 == (7 if recent == 1 else 30)
    assert set(h.memory.id for h in outcome.hits[:recent]) == set(ids[:recent])
    assert ids[2] in [h.memory.id for h in outcome.hits]  # a preference, not a filter


@pytest.mark.parametrize(("question", "wanted"), [
    ("What did Melanie paint recently?", 0), ("How quickly does a login session expire these days?", 1),
])
def test_recently_in_a_question_with_a_subject_of_its_own_is_not_read_as_the_last_days(real_store, question, wanted):
    """In "what did Melanie paint recently?" the word is relative to Melanie's story: read as
    the last 30 days, it put the turns of the last weeks first (LoCoMo R@5 on its "recently"
    questions 0.76 -> 0.46)."""
    until = datetime(2026, 11, 30, tzinfo=UTC)
    ids = [remember(real_store, "Melanie: I just finished painting a sunset over the lake!", kind="episode",
                    observed_at=(until - timedelta(days=90)).isoformat()),
           remember(real_store, "Login sessions expire after 12 hours of inactivity", kind="fact",
                    observed_at=(until - timedelta(days=300)).isoformat())]
    for days, text in ((3, "Melanie: We went camping with the kids at the weekend"),
                       (5, "Melanie: I signed up for a pottery class on Thursdays"),
                       (9, "Rotated the signing keys of the login service after the audit")):
        remember(real_store, text, kind="episode", observed_at=(until - timedelta(days=days)).isoformat())
    outcome = real_store.recall(tenant="t", query=question, scopes=SCOPES, until=until.isoformat())
    assert outcome.time is None and outcome.hits[0].memory.id == ids[wanted]



def test_confidence_counts_what_the_ranking_weighs_the_time_named(real_store):
    """Trial report: the right answer to a time question got confidence 0.23, a weak lead, for
    it shares no word with the question ("what broke in March?"): confidence now counts the
    hit's lead in the fused score, where the time the question names weighs."""
    march = remember(real_store, "The nightly S3 sync failed because the bucket policy denied PutObject",
                     kind="failure", observed_at="2026-03-09T10:00:00Z")
    remember(real_store, "Redis ran out of memory and evicted session keys during the load test",
             kind="failure", observed_at="2026-06-22T10:00:00Z")
    remember(real_store, "We decided to move staging to Kubernetes 1.30", kind="decision",
             observed_at="2026-08-22T10:00:00Z")
    with_filler(real_store)
    hits = real_store.recall(tenant="t", query="What went wrong in March?", scopes=SCOPES,
                             until="2026-11-30T00:00:00Z").hits
    assert hits[0].memory.id == march
    assert hits[0].confidence >= 0.5 and all(h.confidence < 0.2 for h in hits[1:])
