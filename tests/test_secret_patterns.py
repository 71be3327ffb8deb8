"""detect-secrets' patterns are kept in storage/detect_secrets_patterns.json, so that scanning does
not import detect-secrets (and ``requests``) in every hook and command: the file must be what the
installed detect-secrets gives."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

WRITE = ("python -c \"import json; from memvault.storage.secrets import detect_secrets_patterns as p; "
         "open('storage/detect_secrets_patterns.json', 'w')"
         ".write(json.dumps(p(), indent=1, ensure_ascii=False) + '\\n')\"")


def test_the_kept_patterns_are_the_installed_detect_secrets_ones():
    from memvault.storage.secrets import detect_secrets_patterns

    kept = json.loads(resources.files("memvault.storage").joinpath("detect_secrets_patterns.json")
                      .read_text(encoding="utf-8"))
    assert kept == detect_secrets_patterns(), f"detect-secrets changed: write the file again ({WRITE})"


def test_a_scan_that_finds_nothing_imports_neither_detect_secrets_nor_requests():
    code = ("import sys; from memvault.storage.secrets import find_secrets, redact; "
            "assert find_secrets('deploy the shop on Friday') == [[]]; redact('nothing here'); "
            "print(sorted(m for m in ('detect_secrets', 'requests') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_json_web_token_is_still_checked_by_detect_secrets_own_decoder():
    from memvault.storage.secrets import find_secrets

    token = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0."
             "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
    assert find_secrets(f"see {token}", "eyJhbGciOiJIUzI1NiIsInR5cCI6.notjson.x") == [
        [("JSON Web Token", 1)], []]


def test_the_installed_version_is_read_without_importing_detect_secrets():
    import importlib.metadata
    import subprocess
    import sys

    from memvault.storage import installed

    assert installed.version("detect-secrets", "detect_secrets", "__version__.py", "VERSION") == \
        importlib.metadata.version("detect-secrets")
    loaded = subprocess.run([sys.executable, "-c", "import sys; from memvault.storage import secret_plugins as s; "
                             "s.builtin_detectors(); print(sorted({'detect_secrets', 'email'} & set(sys.modules)))"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"


def test_another_installed_version_is_read_from_detect_secrets_itself(monkeypatch):
    from memvault.storage import secret_plugins
    from memvault.storage.secrets import detect_secrets_patterns

    monkeypatch.setattr(secret_plugins, "version", lambda *names: "0.0-not-the-files")
    read = []
    monkeypatch.setattr("memvault.storage.secrets.detect_secrets_patterns",
                        lambda: read.append(1) or detect_secrets_patterns())
    detectors = secret_plugins.builtin_detectors()
    assert read == [1] and {type(d).__name__ for d in detectors} >= {"AWSKeyDetector", "ArtifactoryDetector"}
