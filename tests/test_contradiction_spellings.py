"""One name or value written two ways is no contradiction: an acronym and the words whose capitals
spell it ("NYC" / "New York City", "GH Actions" / "GitHub Actions"), a numeronym and its word ("k8s" /
"Kubernetes"), a time range with a dash or in words ("14:00-16:00" / "from 14:00 to 16:00"); another
acronym, other times, or a run of words spelling more than the acronym still are (finding N8 of a
new-user trial on main). Word tests at the packaged model's cosine, then through remember and recall."""

from __future__ import annotations

import pytest
from stores import assert_apart, flagged

from memvault.storage.spellings import one_way
from memvault.storage.store import Store

SHORT_LONG = [("NYC", "New York City"), ("AWS", "Amazon Web Services"), ("GCP", "Google Cloud Platform"),
              ("GH Actions", "GitHub Actions"), ("SF", "San Francisco"), ("LA", "Los Angeles"),
              ("k8s", "Kubernetes"), ("K8s", "Kubernetes"), ("i18n", "internationalization"),
              ("a11y", "accessibility"), ("o11y", "observability")]
FRAMES = ["The office is in {}", "We host on {}", "Our CI runs on {}", "The team works on {}"]
TIMES = [("Deploy window is 14:00-16:00 UTC", "The deploy window is from 14:00 to 16:00 UTC"),
         ("Standup is 9:30-9:45", "Standup is from 9:30 to 9:45"),
         ("Support hours are 9am-5pm", "Support hours are between 9am and 5pm"),
         ("The freeze runs 22:00-06:00", "The freeze runs from 22:00 until 06:00")]
STILL = [("We host on AWS", "We host on GCP"), ("The office is in NYC", "The office is in LA"),
         ("Our CI runs on GH Actions", "Our CI runs on GitLab CI"),
         ("Deploy window is 14:00-16:00 UTC", "Deploy window is 15:00-17:00 UTC"),
         ("Deploy window is 14:00-16:00 UTC", "The deploy window is from 15:00 to 17:00 UTC"),
         ("We host on AWS", "We host on Amazon Web Services Europe"),
         ("Our region is EU", "Our region is Eastern US"),
         ("Our cluster runs k8s", "Our cluster runs Kafka"),
         ("Standup is at 9:30-9:45", "Standup moved from 9:45 to 10:00")]


@pytest.mark.parametrize(("old", "new"), [(f.format(s), f.format(lo)) for s, lo in SHORT_LONG for f in FRAMES] + TIMES)
def test_a_name_or_time_range_written_another_way_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None
    assert flagged(real_embedder, new, old) is None


@pytest.mark.parametrize(("old", "new"), STILL)
def test_another_acronym_other_times_or_a_longer_name_still_contradict(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize("text", ["We grew from 3 to 5 nodes", "Prices rose from 10 to 12", "Meet between 2 and 3",
                                  "We use GCP and k8s", "Ask AWSE about it",
                                  "Standup moved from 14:00 to 16:00", "The window is between 14:00 and 17:00"])
def test_texts_with_no_other_spelling_beside_them_come_back_unchanged(text):
    other = "We host on Amazon Web Services, 14:00-16:30"
    assert one_way(text, other) == (text, other)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("The office is in NYC", "The office is in New York City", "where is the office?"),
    ("We host on AWS", "We host on Amazon Web Services", "where do we host?"),
    ("Builds run on GitHub Actions", "Builds run on GH Actions", "where do builds run?"),
    ("We use k8s", "We use Kubernetes", "what do we use?"),
    ("Deploy window is 14:00-16:00 UTC", "The deploy window is from 14:00 to 16:00 UTC", "when is the deploy window?"),
])
def test_remember_and_recall_leave_one_thing_written_two_ways_alone(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question, "2026-05-01T10:00:00Z")
