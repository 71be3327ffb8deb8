"""Refusing credentials: content is scanned with Yelp's detect-secrets before it is stored.

A memory store keeps text for a long time, copies it into indexes and shows it to
models, so a pasted API key would leak far beyond where it was typed. The
detector's pattern plugins (cloud keys, tokens, private keys, passwords in
connection strings and assignments, JWTs) are used, with memvault's own plugins
for newer key formats and a placeholder filter (``secret_plugins.py``, loaded
through detect-secrets' custom plugin and filter settings); its generic
high-entropy plugins and public-IP plugin are not, because ordinary memories
carry commit hashes, UUIDs and addresses that they would flag.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path

from .errors import InvalidInput

_EXCLUDED = {"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector"}
# What a refusal calls the credential each of detect-secrets' own plugins finds (its
# secret_type names some by how they were found: "Basic Auth Credentials" is a password
# in a URL). memvault's plugins' types are their labels already.
LABELS = {
    "Artifactory Credentials": "Artifactory token", "AWS Access Key": "AWS access key",
    "Azure Storage Account access key": "Azure Storage account key", "Basic Auth Credentials": "password in a URL",
    "Cloudant Credentials": "Cloudant password or API key", "Discord Bot Token": "Discord bot token",
    "GitHub Token": "GitHub token", "GitLab Token": "GitLab token", "IBM Cloud IAM Key": "IBM Cloud API key",
    "IBM COS HMAC Credentials": "IBM Cloud Object Storage HMAC key", "JSON Web Token": "JSON Web Token",
    "Mailchimp Access Key": "Mailchimp API key", "NPM tokens": "npm access token", "OpenAI Token": "OpenAI API key",
    "Private Key": "private key", "PyPI Token": "PyPI API token", "SendGrid API Key": "SendGrid API key",
    "Slack Token": "Slack token", "SoftLayer Credentials": "SoftLayer API key",
    "Square OAuth Secret": "Square OAuth secret", "Stripe Access Key": "Stripe API key",
    "Telegram Bot Token": "Telegram bot token", "Twilio API Key": "Twilio API key",
}
# Plugins that find a value after the word naming it ("password = ...", "DB_PASSWORD=...",
# "Bearer ..."): labelled by that word (secret_plugins.named_kind).
NAMED_BY_WORD = {"Secret Keyword", "Named credential"}
_OWN = "file://" + str(Path(__file__).with_name("secret_plugins.py").resolve())
_OWN_PLUGINS = (
    "AnthropicKeyDetector", "OpenAIProjectKeyDetector", "SkKeyDetector", "GoogleApiKeyDetector",
    "HuggingFaceTokenDetector", "NpmAccessTokenDetector", "GitHubFineGrainedTokenDetector",
    "UrlPasswordDetector", "UnquotedCredentialDetector",
)
# detect-secrets keeps its settings in process-wide state; scans are serialised.
_lock = threading.Lock()
_configured: object = None  # the detect-secrets Settings object memvault configured, once per process


def _configure() -> None:
    """Apply memvault's plugins and filters to detect-secrets' process-wide settings,
    unless they are still applied (setting them up costs ~2 ms, more than a scan, so it
    is done once; anything that replaces detect-secrets' settings makes it run again)."""
    global _configured
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.settings import Settings, cache_bust, configure_settings_from_baseline, get_settings

    if get_settings() is _configured:
        return
    plugins = [
        {"name": cls.__name__}
        for cls in get_mapping_from_secret_type_to_class().values()
        if cls.__name__ not in _EXCLUDED and cls.__module__.startswith("detect_secrets.")
    ] + [{"name": name, "path": _OWN} for name in _OWN_PLUGINS]
    filters = [{"path": path} for path in Settings().filters if path not in Settings.DEFAULT_FILTERS]
    filters.append({"path": "memvault.storage.secret_plugins.is_placeholder"})
    cache_bust()
    _configured = configure_settings_from_baseline({"plugins_used": plugins, "filters_used": filters})
    # detect-secrets caches its class mapping once; load our plugins into it the first time.
    if not set(_OWN_PLUGINS) <= {cls.__name__ for cls in get_mapping_from_secret_type_to_class().values()}:
        get_mapping_from_secret_type_to_class.cache_clear()


def label(secret_type: str, line: str, value: str | None) -> str:
    """What a refusal calls a credential of ``secret_type`` found as ``value`` in ``line``
    (see ``LABELS``, ``NAMED_BY_WORD``)."""
    from .secret_plugins import named_kind

    if secret_type in NAMED_BY_WORD:
        at = line.find(value) if value else -1
        return named_kind(line if at < 0 else line[:at])
    return LABELS.get(secret_type, secret_type)


def find_secrets(*texts: str) -> list[list[tuple[str, int]]]:
    """Credentials found in each of ``texts``, as ``(label, 1-based line)`` pairs, no
    values; the label says what the credential is (:func:`label`: "bearer token",
    "password in a URL", "AWS access key").

    A value two plugins both find on a line (a URL password is also a Basic Auth
    credential) is named once, by the first plugin that found it.

    memvault's detect-secrets configuration stays applied to the process between
    calls (see :func:`_configure`).
    """
    from detect_secrets.core.scan import scan_line

    results: list[list[tuple[str, int]]] = []
    with _lock:
        _configure()
        for text in texts:
            found: list[tuple[str, int]] = []
            values: set[tuple[str | None, int]] = set()  # one credential found by two plugins is named once
            for number, line in enumerate(text.splitlines(), start=1):
                for secret in scan_line(line):
                    kind = label(secret.type, line, secret.secret_value)
                    if (kind, number) not in found and (secret.secret_value, number) not in values:
                        found.append((kind, number))
                        values.add((secret.secret_value, number))
            results.append(found)
    return results


def scanned_fields(fields: Mapping[str, str | list[str] | None]) -> dict[str, str]:
    """The free-text fields of a memory to scan, as the caller sent them (stripped, before
    any normalisation: lower-casing would hide a key's pattern), lists by index:
    ``{"content": ..., "tags[0]": ...}``. Values that are not strings are left out."""
    texts: dict[str, str] = {}
    for field, value in fields.items():
        for i, text in enumerate(value if isinstance(value, list) else [value]):
            if isinstance(text, str):
                texts[f"{field}[{i}]" if isinstance(value, list) else field] = text.strip()
    return texts


def refusals(records: list[dict[str, str]]) -> list[InvalidInput | None]:
    """For each record (``{field: text}``), the error naming its first field that holds a
    credential, with the credential type, or None; one scan for them all. In a field of
    several lines the line within the field is named (``password in its line 3``): an
    import names its own line of the file first (``line 5: content: ...``).

    The message never repeats the secret itself.
    """
    texts = [(number, field, text) for number, fields in enumerate(records) for field, text in fields.items() if text]
    out: list[InvalidInput | None] = [None] * len(records)
    for (number, field, text), found in zip(texts, find_secrets(*(text for _, _, text in texts)), strict=True):
        if found and out[number] is None:
            if "\n" in text:
                where = "; ".join(f"{kind} in its line {line}" for kind, line in found[:5])
            else:
                where = "; ".join(dict.fromkeys(kind for kind, _ in found[:5]))
            out[number] = InvalidInput(
                field,
                f"looks like it contains a credential ({where}). memvault does not store secrets: "
                "remove it, or describe where the secret is kept instead (the server setting "
                "MEMVAULT_ALLOW_SECRETS=1, or --allow-secrets on the command line, turns this check off)",
            )
    return out


def refuse_secrets(fields: dict[str, str]) -> None:
    """Raise :class:`InvalidInput` naming the first field (of ``{field: text}``) that
    holds a credential, with the credential type and line (see :func:`refusals`)."""
    error = refusals([fields])[0]
    if error is not None:
        raise error
