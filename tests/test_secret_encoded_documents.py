"""Base64 said to be base64 by the document or the command rather than by a word before it (issue 25 §1.8, kind
2): a Kubernetes Secret's ``data`` values (YAML or JSON, whatever their keys), a ``.dockerconfigjson``'s
``auth``, a run piped to ``base64 -d`` / ``--decode`` or given to ``atob()``: decoded, refused and redacted when
the decoded text holds a credential; the same shapes holding none are stored."""

from __future__ import annotations

import base64
import json

import pytest

from memvault.storage.secrets import find_secrets, redact


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


GITHUB = "ghp_Zk9x2mQ7Lp4RbT8vN3cW6yA1sD5fG0hJ2kL4"
SLACK = "xoxb-1234567890-1234567890123-Zk9x2mQ7Lp4RbT8vN3cW6yA1"
DB_URL = "postgres://app:Zk9x2mQ7Lp4R@db.internal:5432/app"
DOCKER = json.dumps({"auths": {"ghcr.io": {"auth": b64("alice:Zk9x2mQ7Lp4R")}}})

REFUSED = [
    (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: gh\ntype: Opaque\ndata:\n  foo: {b64(GITHUB)}\n", b64(GITHUB)),
    (f"kind: Secret\ndata:\n  bar: {b64(SLACK)}\n  baz: {b64(DB_URL)}\n", b64(SLACK)),
    (f"kind: Secret\ndata:\n  conn: \"{b64(DB_URL)}\"\n", b64(DB_URL)),
    (json.dumps({"apiVersion": "v1", "kind": "Secret", "data": {"x": b64(GITHUB)}}, indent=2), b64(GITHUB)),
    (f"kind: Secret\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {b64(DOCKER)}\n", b64(DOCKER)),
    (f"echo {b64(GITHUB)} | base64 -d", b64(GITHUB)),
    (f"echo '{b64(SLACK)}' | base64 --decode > token.txt", b64(SLACK)),
    (f"printf %s \"{b64(DB_URL)}\" | base64 -D", b64(DB_URL)),
    (f"export DB=$(echo {b64(DB_URL)} | base64 -d)", b64(DB_URL)),
    (f'const url = atob("{b64(DB_URL)}");', b64(DB_URL)),
    (f"token = window.atob('{b64(GITHUB)}')", b64(GITHUB)),
]


@pytest.mark.parametrize(("text", "run"), REFUSED)
def test_base64_the_document_or_command_says_is_base64_is_decoded_refused_and_redacted(text: str, run: str) -> None:
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert run not in redacted and kinds


STORED = [
    f"kind: ConfigMap\ndata:\n  foo: {b64('hello world, nothing secret')}\n",
    f"kind: Secret\ndata:\n  username: {b64('administrator')}\n  note: {b64('nothing to see here at all')}\n",
    f"echo {b64('hello world, nothing secret')} | base64 -d",
    f'const s = atob("{b64("just a harmless string")}");',
    "kind: Secret\ndata:\n  password: ${DB_PASSWORD}\n",
]


@pytest.mark.parametrize("text", STORED)
def test_the_same_shapes_holding_no_credential_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]
    assert redact(text) == (text, ())
