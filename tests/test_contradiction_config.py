"""Configuration blocks of different things (fixnear10 #3): two ssh_config ``Host`` blocks for other hosts,
nginx or Apache servers of other names, INI or git config sections of other names are two things, and
their ``HostName``, ``Port`` or ``url`` contradict nothing; the same host or server with a changed value
still contradicts. Words alone, and remember with the real model."""

from __future__ import annotations

import pytest

from memvault.storage.config_blocks import configured
from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

OTHER_THINGS = [
    ("Host bastion\n    HostName bastion.example.com\n    User ops\n    IdentityFile ~/.ssh/id_ed25519",
     "Host build-box\n    HostName build.example.com\n    User ops\n    IdentityFile ~/.ssh/id_ed25519"),
    ("Host prod-db\n  HostName 10.1.2.3\n  User postgres\n  IdentityFile ~/.ssh/prod",
     "Host staging-db\n  HostName 10.1.2.4\n  User postgres\n  IdentityFile ~/.ssh/staging"),
    ("host web\n  hostname web.example.com\n  user deploy", "host api\n  hostname api.example.com\n  user deploy"),
    ("My ssh config for the bastion:\nHost bastion\n  HostName 52.1.2.3\n  User ec2-user",
     "My ssh config for the jumpbox:\nHost jumpbox\n  HostName 52.1.2.9\n  User ec2-user"),
    ("Host web1 web1.lan\n  HostName 10.0.0.5\n  Port 22", "Host web2 web2.lan\n  HostName 10.0.0.6\n  Port 2222"),
    ("server {\n  listen 443 ssl;\n  server_name api.example.com;\n  root /srv/api;\n}",
     "server {\n  listen 443 ssl;\n  server_name www.example.com;\n  root /srv/www;\n}"),
    ("nginx: server_name shop.example.com; proxy_pass http://127.0.0.1:3000;",
     "nginx: server_name blog.example.com; proxy_pass http://127.0.0.1:4000;"),
    ("<VirtualHost *:443>\n  ServerName api.example.com\n  DocumentRoot /srv/api\n</VirtualHost>",
     "<VirtualHost *:443>\n  ServerName www.example.com\n  DocumentRoot /srv/www\n</VirtualHost>"),
    ('[remote "origin"]\n\turl = git@github.com:acme/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*',
     '[remote "upstream"]\n\turl = git@github.com:upstream/app.git\n\tfetch = +refs/heads/*:refs/remotes/upstream/*'),
    ('[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main',
     '[branch "dev"]\n\tremote = upstream\n\tmerge = refs/heads/dev'),
    ("[database-eu]\nhost = db1.eu.internal\nport = 5432\nuser = app",
     "[database-us]\nhost = db1.us.internal\nport = 5432\nuser = app"),
    ("[database]\nhost = db1.internal\nport = 5432", "[cache]\nhost = redis1.internal\nport = 6379"),
]
# The same host, server, remote or section with a value changed; and prose, no block.
THE_SAME_THING = [
    ("Host web1\n  HostName 10.0.0.5\n  User deploy\n  Port 22", "Host web1\n  HostName 10.0.0.7\n  User deploy\n  Port 22"),
    ("Host web1\n  HostName 10.0.0.5\n  User deploy\n  Port 22", "Host web1\n  HostName 10.0.0.5\n  User deploy\n  Port 2222"),
    ("Host web1 web1.lan\n  HostName 10.0.0.5", "Host web1\n  HostName 10.0.0.9"),
    ("server {\n  listen 443 ssl;\n  server_name api.example.com;\n  root /srv/api;\n}",
     "server {\n  listen 443 ssl;\n  server_name api.example.com;\n  root /srv/api-v2;\n}"),
    ("<VirtualHost *:443>\n  ServerName api.example.com\n  DocumentRoot /srv/api\n</VirtualHost>",
     "<VirtualHost *:443>\n  ServerName api.example.com\n  DocumentRoot /srv/api-v2\n</VirtualHost>"),
    ('[remote "origin"]\n\turl = git@github.com:acme/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*',
     '[remote "origin"]\n\turl = git@gitlab.com:acme/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*'),
    ("[database]\nhost = db1.internal\nport = 5432", "[database]\nhost = db2.internal\nport = 5432"),
    ("The git remote origin points to git@github.com:acme/app.git",
     "The git remote origin now points to git@gitlab.com:acme/app.git"),
]


@pytest.mark.parametrize(("older", "newer"), OTHER_THINGS)
def test_blocks_configuring_other_things_contradict_nothing(older, newer):
    assert disagreement(older, newer) is None
    assert disagreement(newer, older) is None


@pytest.mark.parametrize(("older", "newer"), THE_SAME_THING)
def test_the_same_host_server_or_section_with_a_value_changed_still_contradicts(older, newer):
    assert disagreement(older, newer) is not None


@pytest.mark.parametrize(("text", "expected"), [
    ("Host web1 web1.lan\n  HostName 10.0.0.5", {"ssh": {"web1", "web1.lan"}}),
    ("Host web1 HostName 10.0.0.5 User deploy", {"ssh": {"web1"}}),
    ("Host db1 is down since Monday", {}),  # prose: no other ssh keyword
    ("[database]\nhost = db1.internal", {"section": {"database"}}),
    ("server_name a.example.com b.example.com;", {"server": {"a.example.com", "b.example.com"}}),
    ('[remote  "Origin"]\n url = x', {"section": {'remote "origin"'}}),
])
def test_what_a_text_configures_is_read(text, expected):
    assert configured(text) == {form: frozenset(names) for form, names in expected.items()}


@pytest.fixture
def store(made_db, real_embedder):
    s = Store(made_db, real_embedder)
    yield s
    s.close()


@pytest.mark.parametrize(("older", "newer"), OTHER_THINGS[:2] + OTHER_THINGS[5:9] + OTHER_THINGS[10:11])
def test_remembering_a_block_for_another_thing_reports_no_contradiction(store: Store, older, newer):
    store.remember(tenant="t", scope="p", content=older, kind="fact")
    assert store.remember(tenant="t", scope="p", content=newer, kind="fact").contradicts == ()


@pytest.mark.parametrize(("older", "newer"), THE_SAME_THING[:2] + THE_SAME_THING[3:4] + THE_SAME_THING[5:7])
def test_remembering_the_same_block_changed_reports_the_contradiction(store: Store, older, newer):
    first = store.remember(tenant="t", scope="p", content=older, kind="fact").id
    assert [i for i, _ in store.remember(tenant="t", scope="p", content=newer, kind="fact").contradicts] == [first]


@pytest.mark.parametrize(("older", "newer", "question"), [
    (OTHER_THINGS[0][0], OTHER_THINGS[0][1], "what is in my ssh config for the bastion host?"),
    (OTHER_THINGS[5][0], OTHER_THINGS[5][1], "what is the nginx server block for api.example.com?"),
    (OTHER_THINGS[8][0], OTHER_THINGS[8][1], "what is the url of the git remote origin?"),
])
def test_recall_marks_no_block_outdated_by_a_block_for_another_thing(store: Store, older, newer, question):
    store.remember(tenant="t", scope="p", content=older, kind="fact", observed_at="2026-01-05T09:00:00Z")
    store.remember(tenant="t", scope="p", content=newer, kind="fact", observed_at="2026-02-05T09:00:00Z")
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.content == older and all(h.outdated_by is None for h in hits), hits[:2]
