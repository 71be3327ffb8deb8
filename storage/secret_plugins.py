"""detect-secrets plugins and a filter of memvault's own, loaded by detect-secrets from this file.

detect-secrets (1.5) loads custom plugins and filters from a file named in its
settings (``plugins_used`` entries with ``"path": "file://..."``, ``filters_used``
entries ``"file://...::function"``) and executes it as a module of its own, so
this file imports nothing from memvault.

The patterns cover key formats its built-in plugins miss, each a provider's
published prefix followed by the length and alphabet its keys have; the filter
keeps documentation placeholders such as ``postgres://USER:PASSWORD@HOST/DB``
from being taken for credentials. Each plugin's ``secret_type`` is what a refusal
calls the credential (``secrets.LABELS`` names detect-secrets' own), except those
that find a value after the word naming it, which :func:`named_kind` labels by that word.
"""

from __future__ import annotations

import re

from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector


class AnthropicKeyDetector(RegexBasedDetector):
    """Anthropic API and admin keys: ``sk-ant-api03-...``, ``sk-ant-admin01-...``."""

    secret_type = "Anthropic API key"
    denylist = [re.compile(r"\bsk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{32,}")]


class OpenAIProjectKeyDetector(RegexBasedDetector):
    """OpenAI project, service-account and admin keys: ``sk-proj-...``, ``sk-svcacct-...``, ``sk-admin-...``."""

    secret_type = "OpenAI project key"
    denylist = [re.compile(r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}")]


class SkKeyDetector(RegexBasedDetector):
    """``sk-`` and 40 or more letters and digits with no hyphen: OpenAI's user keys before
    project keys, and the providers that copied their shape (DeepSeek, Moonshot and others)."""

    secret_type = "OpenAI-style API key"
    denylist = [re.compile(r"\bsk-[A-Za-z0-9]{40,}(?![A-Za-z0-9_-])")]


class GoogleApiKeyDetector(RegexBasedDetector):
    """Google API keys: ``AIza`` and 35 more characters."""

    secret_type = "Google API key"
    denylist = [re.compile(r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])")]


class HuggingFaceTokenDetector(RegexBasedDetector):
    """Hugging Face access tokens: ``hf_`` and 34 or more letters and digits."""

    secret_type = "Hugging Face token"
    denylist = [re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")]


class NpmAccessTokenDetector(RegexBasedDetector):
    """npm access tokens on their own (the built-in plugin needs an ``.npmrc`` line): ``npm_`` and 36 characters."""

    secret_type = "npm access token"
    denylist = [re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")]


class GitHubFineGrainedTokenDetector(RegexBasedDetector):
    """GitHub fine-grained personal access tokens: ``github_pat_`` then two runs of letters and digits (22 and 59 long today)."""

    secret_type = "GitHub fine-grained token"
    denylist = [re.compile(r"\bgithub_pat_[A-Za-z0-9]{20,}_[A-Za-z0-9]{50,}")]


class UrlPasswordDetector(RegexBasedDetector):
    """A password in a URL's user information, ``scheme://user:password@host``, written with
    characters detect-secrets' Basic Auth plugin leaves out: RFC 3986 (section 3.2.1) lets
    user information hold its sub-delimiters (``! $ & ' ( ) * + , ; =``), and generated
    passwords hold them and ``#`` written raw. A password ends at white space, ``/``, ``?``
    or ``@``, so ``http://host:8080/a@b`` and ``http://host:8080?to=a@b`` are not taken."""

    secret_type = "password in a URL"
    denylist = [re.compile(r"://[^\s:/?#\[\]@]*:([^\s/?@]+)@")]


# A credential's value as people write it after a credential word: 6 to 200 characters
# without white space or quotes, holding a letter and a digit (so "is rotated", "is 12
# characters" and "is JWT-based" are not values), not ending in sentence punctuation.
_VALUE = r"((?=[^\s\"'`]*[A-Za-z])(?=[^\s\"'`]*\d)[^\s\"'`]{5,199}[^\s\"'`.,;:!?)\]])"


class UnquotedCredentialDetector(RegexBasedDetector):
    """A credential written without quotes, the forms detect-secrets' keyword plugin leaves
    out of plain text (it needs ``password = "..."``):

    - prose: a credential word, perhaps a phrase saying whose (``for``, ``of``, ``to``, ``on``,
      ``at``, ``in``, ``from`` or ``with`` and up to three words), then ``is``, ``was``, ``:``
      or ``=`` and the value: "my password is hunter2", "the staging DB password for admin
      is Xk29slQpz". A credential word that qualifies another noun ("password hint",
      "token budget") is not followed by its value, so "the password hint is blue-kiwi-44"
      is stored;
    - ``.env`` and shell lines: an upper-case name holding PASSWORD, PASS, PWD, SECRET,
      TOKEN, API_KEY, ACCESS_KEY or PRIVATE_KEY, ``=`` or ``:``, the value;
    - HTTP ``Authorization: Bearer <token>`` (RFC 6750 section 2.1), 16 characters or more.

    The value must hold a letter and a digit (see ``_VALUE``), so sentences about
    credentials ("the password policy is 12 characters", "the token was rotated") pass.
    Refusals name what was found by its word (:func:`named_kind`), never by this type.
    """

    secret_type = "Named credential"
    denylist = [
        re.compile(
            r"(?i)(?<![a-z])(?:password|passwd|passphrase|passcode|pwd|pw|secret(?:[ _-]?(?:access[ _-]?)?key)?"
            r"|(?:api|access|auth|private)[ _-]?(?:key|token)|token)(?![a-z])"
            r"(?:[ \t]+(?:for|of|to|on|at|in|from|with)(?:[ \t]+[\w'.-]+){1,3}?)?"
            r"(?:[ \t]+(?:is|was)[ \t]+|[ \t]*[:=][ \t]*)[\"'`]?" + _VALUE
        ),
        re.compile(
            r"(?<![A-Za-z0-9])[A-Z0-9_]*(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY)"
            r"[A-Z0-9_]*[ \t]*[=:][ \t]*[\"'`]?" + _VALUE
        ),
        re.compile(r"(?i)\bbearer[ \t]+((?=[\w.~+/-]*\d)[\w.~+/-]{16,}=*)"),
    ]


# The words naming a credential, by kind. Checked in this order at each position, so
# "SECRET_ACCESS_KEY" is a secret key, not an access key.
_KIND_WORDS = re.compile(
    r"(?i)(?P<bearer>bearer)|(?P<password>pass(?:word|wd|phrase|code)?|pwd|pw)"
    r"|(?P<secret>secret(?:[ _-]?(?:access[ _-]?)?key)?)|(?P<private>private[ _-]?key)"
    r"|(?P<api>(?:api|access|auth)[ _-]?key)"
    r"|(?P<token>(?:(?:api|access|auth|private)[ _-]?)?token)"
)
_KIND_NAMES = {"bearer": "bearer token", "password": "password", "secret": "secret key", "private": "private key",
               "api": "API key", "token": "access token"}


def named_kind(before: str) -> str:
    """What a credential found after the word naming it is ("password", "API key",
    "secret key", "private key", "access token", "bearer token"), by the last such word in ``before``
    (the line up to the value): ``DB_PASSWORD=`` holds a password, ``Authorization:
    Bearer`` a bearer token. "credential" when no word names it."""
    found = None
    for found in _KIND_WORDS.finditer(before):
        pass
    return "credential" if found is None else _KIND_NAMES[found.lastgroup or ""]


_PLACEHOLDER = re.compile(r"[A-Z][A-Z_]*|[xX*.#-]+|(?i:pass(?:word|wd)?|pwd|secret|token)")
# Only the plugins that read a password out of free text; key formats are never placeholders.
_PASSWORD_PLUGINS = {"BasicAuthDetector", "UrlPasswordDetector", "KeywordDetector", "UnquotedCredentialDetector"}


def is_placeholder(secret: str, plugin: BasePlugin) -> bool:
    """A filter: True for a password value that stands for a credential instead of being one.

    Upper-case names (``PASSWORD``, ``DB_PASS``), runs of ``x``, ``*`` or dots,
    and the bare words password/passwd/pass/pwd/secret/token, found by the
    connection-string and ``password = ...`` plugins.
    """
    return type(plugin).__name__ in _PASSWORD_PLUGINS and bool(_PLACEHOLDER.fullmatch(secret))
