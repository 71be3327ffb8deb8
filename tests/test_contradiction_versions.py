"""A change of a bare version number ("Bumped Hugo 0.110 -> 0.125", "Upgraded Traefik v2 → v3", "The minimum iOS
went from 16 to 17", "pinned terraform to 1.6.2") or a hand-over of a role ("We handed the role from Jonas to Priya")
contradicts the older memory through ``remember``: it names the older in ``contradicts``, recall puts the newer
first and marks the older possibly outdated. Two tools' versions, a version and a port, versions side by side, counts
of different units ("4 nodes" / "3 GPUs") and numbered notes ("memory number 3" / "memory number 8") do not
(issue 27 §2)."""

from __future__ import annotations

import pytest
from mcp import Client
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.store import Store

VERSIONS = [  # (older, newer, ...: a fact's versions oldest first; a question about it)
    (("The site builds with Hugo 0.110", "Bumped Hugo 0.110 -> 0.125"), "Which Hugo version does the site build with?"),
    (("Traefik v2 is the ingress", "Upgraded Traefik v2 → v3"), "Which Traefik version is the ingress?"),
    (("The minimum iOS version is 16", "The minimum iOS went from 16 to 17"), "What is the minimum iOS version?"),
    (("terraform required_version = 1.5.7", "pinned terraform to 1.6.2", "Terraform bumped to 1.7.0"),
     "Which terraform version do we require?"),
    (("The service runs on Python 3.11", "Upgraded Python from 3.11 to 3.12"),
     "Which Python version does the service run on?"),
    (("We run Elasticsearch 7", "Elasticsearch was upgraded from 7 to 8"), "Which Elasticsearch version do we run?"),
    (("CI uses Node 18", "Bumped Node from 18 to 20"), "Which Node version does CI use?"),
    (("The API is built with Go 1.21", "Bumped Go from 1.21 to 1.22"), "Which Go version is the API built with?"),
    (("Our Postgres is 15.4", "Postgres upgraded to 16.2"), "Which Postgres version do we run?"),
    (("The Android app targets API level 33", "Bumped the Android target API from 33 to 34"),
     "Which API level does the Android app target?"),
    (("The backend uses Java 17", "Moved the backend to Java 21"), "Which Java version does the backend use?"),
    (("We are on Rails 7.0", "Rails 7.0 -> 7.1"), "Which Rails version are we on?"),
    (("The frontend uses React 17", "We went from React 17 to 18"), "Which React version does the frontend use?"),
    (("The dashboard runs Angular v16", "Angular v16 → v17 done"), "Which Angular version does the dashboard run?"),
    (("The Helm chart version is 4.2.0", "Bumped the Helm chart to 4.3.1"), "What is the Helm chart version?"),
    (("The IDE is PyCharm 2023.3", "PyCharm bumped to 2024.1"), "Which PyCharm version do we use?"),
    (("Servers run Node 18 LTS", "Servers now run Node 20 LTS"), "Which Node version do servers run?"),
    (("The build image is Ubuntu Jammy", "Upgraded the build image from Ubuntu Jammy to Noble"),
     "Which Ubuntu release is the build image?"),
    (("The base image is Debian Bullseye", "Bumped the base image from Debian Bullseye to Bookworm"),
     "Which Debian release is the base image?"),
    (("Kubernetes is at 1.27", "Kubernetes 1.27 → 1.29"), "Which Kubernetes version are we at?"),
    (("Redis 6.2 backs the cache", "Redis bumped to 7.2"), "Which Redis version backs the cache?"),
    (("The docs use Sphinx 6", "Sphinx upgraded from 6 to 7"), "Which Sphinx version do the docs use?"),
    (("We deploy with Helm 3.12", "Helm went from 3.12 to 3.14"), "Which Helm version do we deploy with?"),
    (("The mobile app is built with Flutter 3.16", "Bumped Flutter 3.16 => 3.19"),
     "Which Flutter version builds the mobile app?"),
    (("The database is MySQL 5.7", "MySQL 5.7 → 8.0 upgrade finished"), "Which MySQL version is the database?"),
    (("Our Kafka brokers run 3.5", "Kafka brokers bumped from 3.5 to 3.7"), "Which version do the Kafka brokers run?"),
    (("The Terraform AWS provider is pinned at 4.67", "Pinned the AWS provider to 5.31"),
     "Which AWS provider version is pinned?"),
    (("The runners use Ubuntu 20.04", "Runners moved to Ubuntu 22.04", "Runners bumped to Ubuntu 24.04"),
     "Which Ubuntu do the runners use?"),
    (("We use TypeScript 4.9", "TypeScript 4.9 -> 5.3"), "Which TypeScript version do we use?"),
    (("The cluster runs Istio 1.18", "Istio was bumped to 1.20"), "Which Istio version does the cluster run?"),
]

HANDOVERS = [  # (holder, hand-over, a question about the role)
    (("The release manager is Jonas", "We handed the release manager role from Jonas to Priya"),
     "Who is the release manager?"),
    (("The release manager role is held by Jonas", "We handed the role from Jonas to Priya"),
     "Who holds the release manager role?"),
    (("Jonas is the release manager", "Jonas handed the release manager role to Priya"), "Who is the release manager?"),
    (("Ana is on call this week", "Ana handed the on call shift to Ben"), "Who is on call?"),
    (("The on-call pager is with Ana", "The pager was handed from Ana to Ben"), "Who has the on-call pager?"),
    (("Marta runs the team standup", "Marta handed the standup to Luis"), "Who runs the team standup?"),
    (("Sofia owns the billing service", "Sofia handed the billing service to Omar"), "Who owns the billing service?"),
    (("The tech lead of search is Kim", "Kim handed the search tech lead role over to Sam"),
     "Who is the tech lead of search?"),
    (("Priya leads the platform team", "Priya handed off the platform team to Diego"), "Who leads the platform team?"),
    (("The incident commander is Lena", "Lena handed incident command to Raj"), "Who is the incident commander?"),
    (("Tomás chairs the architecture review", "Tomás handed the architecture review chair to Yuki"),
     "Who chairs the architecture review?"),
    (("The product owner for checkout is Ines", "The checkout product owner role was handed from Ines to Paul"),
     "Who is the product owner for checkout?"),
    (("Carlos maintains the docs site", "Carlos handed the docs site over to Mei"), "Who maintains the docs site?"),
    (("Hannah is the security champion", "Hannah handed the security champion role to Felix"),
     "Who is the security champion?"),
    (("The scrum master is Olga", "Olga handed scrum master duties to Ravi"), "Who is the scrum master?"),
    (("Nina holds the admin keys", "Nina handed the admin keys to Victor"), "Who holds the admin keys?"),
    (("The release captain for 4.2 is Aiko", "The release captain role was handed from Aiko to Bilal"),
     "Who is the release captain?"),
    (("Lucas runs the hiring loop", "Lucas handed the hiring loop off to Emma"), "Who runs the hiring loop?"),
    (("The team lead is Zora", "Zora handed the team lead role to Teo"), "Who is the team lead?"),
    (("Farah manages the vendor contracts", "Farah handed the vendor contracts to Goran"),
     "Who manages the vendor contracts?"),
    (("Keiko coordinates the offsite", "Keiko handed coordination of the offsite to Lars"),
     "Who coordinates the offsite?"),
    (("The DBA on duty is Wen", "Wen handed DBA duty to Xenia"), "Who is the DBA on duty?"),
]

APART = [  # (older, newer): no change of what the older says
    ("CI uses Node 18", "Bumped Python from 3.11 to 3.12"),
    ("We run Node 18", "Node 18 and Node 20 are both supported"),
    ("CI uses Node 18", "Node 18 and Node 20 are both supported"),
    ("The API runs on Node 18", "The API port went from 18 to 20"),
    ("The API server runs Python 3.11", "The API server listens on port 3112"),
    ("The site builds with Hugo 0.110", "Bumped Go 1.21 -> 1.22"),
    ("We run Elasticsearch 7", "Kibana was upgraded from 7 to 8"),
    ("Traefik v2 is the ingress", "Upgraded cert-manager v1.12 → v1.13"),
    ("The minimum iOS version is 16", "The minimum Android version went from 10 to 12"),
    ("terraform required_version = 1.5.7", "Bumped the AWS provider to 5.31"),
    ("The service runs on Python 3.11", "The docs site runs on Python 3.12 too"),
    ("The cluster has 4 nodes", "The cluster has 3 GPUs"),
    ("The cluster has 4 nodes", "The cluster has 3 GPUs per node"),
    ("The staging cluster has 8 CPUs", "The staging cluster has 32 GB of memory"),
    ("The office has 12 desks", "The office has 3 printers"),
    ("The team has 5 engineers", "The team has 2 designers"),
    ("This is memory number 3", "This is memory number 8"),
    ("Parallel memory number 17 is about the printer.", "Parallel memory number 18 is about the printer."),
    ("Test note number 4 covers the login page", "Test note number 9 covers the login page"),
    ("Ana is on call this week", "Ana handed the quarterly report to Ben"),
    ("Jonas is the release manager", "Jonas handed the signed contract to the lawyer"),
    ("Marta runs the team standup", "Marta handed out the new badges to the team"),
    ("Sofia owns the billing service", "Sofia handed her laptop to IT for repair"),
    ("The team lead is Zora", "Zora handed the award to Teo at the party"),
    ("Nina holds the admin keys", "Nina handed the visitor badge to the guest"),
]

FILLER = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "The staging database is refreshed from a production snapshot every Sunday.",
    "Expense reports are due by the fifth working day of each month.",
]


def _remember_in_order(store: Store, contents: tuple[str, ...]) -> list:  # type: ignore[type-arg]
    outcomes = []
    for month, content in enumerate(contents, start=10):
        outcomes.append(store.remember(tenant="t", scope="p", content=content,
                                       observed_at=f"2026-{month}-01T09:00:00Z"))
        if month == 10:
            for other in FILLER:
                store.remember(tenant="t", scope="p", content=other, observed_at="2026-10-02T09:00:00Z")
    return outcomes


@pytest.mark.parametrize(("contents", "question"), VERSIONS + HANDOVERS)
def test_a_version_bumped_or_a_role_handed_over_outdates_the_older_memory(real_store: Store, contents, question):
    outcomes = _remember_in_order(real_store, contents)
    for older, newer in zip(outcomes, outcomes[1:]):
        assert older.id in dict(newer.contradicts), (newer.contradicts, contents)
    hits = real_store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.id == outcomes[-1].id
    marks = {h.memory.id: h.outdated_by for h in hits}
    assert all(marks[o.id] is not None for o in outcomes[:-1]) and marks[outcomes[-1].id] is None


@pytest.mark.parametrize(("older", "newer"), APART)
def test_other_tools_units_labels_or_things_handed_leave_the_older_memory_current(real_store: Store, older, newer):
    first, second = _remember_in_order(real_store, (older, newer))
    assert second.contradicts == ()
    hits = real_store.recall(tenant="t", query=older, scopes=["p"]).hits
    assert first.id in [h.memory.id for h in hits]
    assert all(h.outdated_by is None for h in hits)


@pytest.mark.asyncio
async def test_a_bumped_version_crosses_the_wire_as_contradicts_and_possibly_outdated_by(db, one_model):
    async with Client(build_server(Config(db=db, tenant="default", scope="proj"))) as c:
        first = await c.call_tool("remember", {"content": "CI uses Node 18", "observed_at": "2026-10-01T09:00:00Z"})
        old = first.structured_content["id"]
        second = await c.call_tool("remember", {"content": "Bumped Node from 18 to 20",
                                                "observed_at": "2026-11-01T09:00:00Z"})
        assert [item["id"] for item in second.structured_content["contradicts"]] == [old]
        found = await c.call_tool("recall", {"query": "Which Node version does CI use?"})
        memories = {m["id"]: m for m in found.structured_content["memories"]}
        assert found.structured_content["memories"][0]["id"] == second.structured_content["id"]
        assert memories[old]["possibly_outdated_by"] == second.structured_content["id"]
