"""Whether a value a credential detector found is a credential: it holds a letter and a digit
(:func:`is_value`) or reads as generated (:func:`generated`), is no placeholder or reference (:func:`is_filtered`), and, after the word naming it, no code
or description (:func:`named_value_kept`).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import re2

from .secret_plain import HASHED, after_change, placeholder, plain_assigned, plain_password, plain_unverbed
from .secret_re2 import OPTIONS, Detector, compile_linear

# Values longer than this are no placeholder, reference, code or description: the filters that say so
# (``secret_plain.placeholder``, ``_CODE``, ``_DESCRIBED``, ``_reference``) never read more of a value than
# this, whatever length a detector found (each is linear, and a detector's value is unbounded).
FILTERED_MAX_CHARS = 256
_LETTER, _DIGIT = re.compile(r"[^\W\d_]"), re.compile(r"\d")
# A plain word between tags is no value ("<password>required</password>"): one with a digit, a symbol or
# mixed cases is.
_WORD = re.compile(r"[A-Za-z][a-z]*")
# A word and digits, or a camelCase name: no password after only a space ("pass Gandalf2", "pass userId2").
_WORDLIKE = re.compile(r"[A-Za-z][a-z]+[0-9]{1,4}|[a-z]+(?:[A-Z][a-z]+)+[0-9]{0,4}")
# Words that describe a credential rather than being one: "the id token is RS256-signed", "base64url-encoded".
# Python's re (Unicode's \w), linear: the repeat before "-" cannot take a "-", so one split is tried.
_DESCRIBED = re.compile(r"[\w.]+-(?:[a-z]+(?:ed|ing)|based|only|like|style|wide|safe|free|less|aware|ready"
                       r"|compatible)")
# Code on the right of "=" that names a value instead of being one: a call or a subscript
# (``get_key(env2)``, ``Token.objects.get(id=k2)``, ``tokens[i]``), an attribute (``self.secret_v2``,
# ``form.password2``), a snake_case or CONSTANT_CASE name (``next_token2``, ``API_KEY_2``), a word for a
# credential and one digit (``password2``, ``token2``). Another name without "_" or "." ("hunter22",
# "Zq81kkLm", "secret123") is a value.
_ASSIGNED = re.compile(r"=|\bto\s*$")  # "token = next_token2", "pass the token to next_handler2"
# Python's re (Unicode's \w), linear: adjacent repeats take disjoint characters (".", "_" and a bracket
# part them), so a failing match gives back each character once; values over FILTERED_MAX_CHARS skip it.
_CODE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*[(\[].*|[a-z_]\w*(?:\.[A-Za-z_]\w*)+"
                   r"|_*[a-z][a-z0-9]*(?:_+[a-z0-9]+)+_*|_*[A-Z][A-Z0-9]*(?:_+[A-Z0-9]+)+_*"
                   r"|(?:password|passwd|pwd|pw|token|secret|key)[0-9]")


# A camelCase or PascalCase name of words, perhaps numbered: on the right of "=" it names a value in code
# only, where the name assigned is declared or an attribute (``const authToken = refreshToken2;``,
# ``let accessToken = NextPageToken``, ``this.token = nextToken2``). Elsewhere it is how a password is
# written down (``password = secretGarden1``, ``pwd=superSecret1``, ``--password=PassWord1``,
# ``API_KEY=nextToken2``): the same text reads both ways, and a credential stored is the worse mistake.
# Digits inside ("Zq81kkLm", "myApp2Secret") or a one-letter part ("aB3xY9") make a value anyway.
_CAMEL = re.compile(r"[a-z]{2,}(?:[A-Z][a-z]{2,})+[0-9]{0,3}|(?:[A-Z][a-z]{2,}){2,}[0-9]{0,3}")
# Before the name assigned, on its line: a declaration's word, or an object whose attribute it is.
_DECLARATION = re.compile(r"(?:^|[\s;{(])(?:const|let|var|val|final|auto|static|private|public|protected)\s+"
                          r"(?:[A-Za-z_$][\w$<>\[\]]*\s+)?$|(?:^|[^\w.])(?:this|self)\.$")


def _declared(text: str, start: int) -> bool:
    """Whether the name assigned at ``start`` of ``text`` is declared or an attribute there (``_DECLARATION``)."""
    head = text[max(0, start - 120):start + 8]  # bounded: a scan calls this once per value
    at = min(start, 120)
    while at < len(head) and not (head[at].isalnum() or head[at] in "_$"):  # a match opens on a boundary
        at += 1
    while at and (head[at - 1].isalnum() or head[at - 1] in "_$"):  # the whole name ("authToken")
        at -= 1
    return bool(_DECLARATION.search(head[head.rfind("\n", 0, at) + 1:at]))


def is_value(text: str) -> bool:
    """Whether ``text`` holds a letter and a digit, its escapes read (``secrets.unformatted``: the hex
    digits of ``f\\u00fcr`` and ``%C3%A9`` are no digits of the word they write), and is no hash's name ("sha256",
    "argon2id": ``HASHED``)."""
    if "\\" in text or "%" in text:
        from .secrets import unformatted  # (secrets imports this module)

        text = unformatted(text)
    return bool(_LETTER.search(text) and _DIGIT.search(text)) and not HASHED.fullmatch(text)


# A generated value without a digit (a password manager's letters, or letters and symbols): this many
# characters or more, capitals inside it (not only a word's first letter) or symbols, and not a name of
# words: few vowels (a name's words hold a third or more; random letters a fifth), or few words of three
# letters or more. Measured in docs/limits.md ("Secret detection").
GENERATED_MIN_CHARS = 10
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Z][a-z][A-Z]")
_SYMBOL = re.compile(r"[!@#$%^&*+=?~|]")
_ACRONYM = re.compile(r"[A-Z]{2,}(?![a-z])")  # "SQL" in "PostgreSQL": no vowels to count
_WORD_PARTS = re.compile(r"[A-Z][a-z]{2,}|[a-z]{3,}")  # "Git", "Hub", "actions": a name's words
VOWELS_SHARE_MAX = 0.25  # of the letters outside acronyms ("McDonaldsRules" has 0.29)
WORDS_SHARE_MAX = 0.6  # of the value's characters, that words take


def generated(value: str) -> bool:
    """Whether ``value``, holding no digit, reads as generated rather than as a word, a name or a
    placeholder: ``GENERATED_MIN_CHARS`` or more ASCII characters, no space, "/" or ":" (a path or an ARN's
    parts, "prod/db-AbCdEf"), capitals inside it
    (``_INNER_CAPITAL`` twice: "tRoUbAdOuR", not "Postgres" or "Password") or two symbols among letters
    ("gr^c$bxd*u&y"), and under ``VOWELS_SHARE_MAX`` of vowels among the letters outside acronyms or under
    ``WORDS_SHARE_MAX`` of it in words (``_WORD_PARTS``): "CorrectHorseBatteryStaple", "GitHubActions",
    "your-password-here" and "ChangeMeNow!" are names. Linear."""
    if not GENERATED_MIN_CHARS <= len(value) <= FILTERED_MAX_CHARS or not value.isascii():
        return False
    if any(c.isspace() or c.isdigit() or c in "/:" for c in value):  # a path, a URL, an ARN's parts
        return False
    if len(_INNER_CAPITAL.findall(value)) < 2 and len(_SYMBOL.findall(value)) < 2:
        return False
    letters = [c for c in _ACRONYM.sub("", value) if c.isalpha()]
    vowels = sum(c in "aeiouyAEIOUY" for c in letters)
    return vowels < VOWELS_SHARE_MAX * len(letters) or \
        sum(len(word) for word in _WORD_PARTS.findall(value)) < WORDS_SHARE_MAX * len(value)


# Only the detectors that read a password out of free text; key formats are never placeholders.
PASSWORD_DETECTORS = ("BasicAuthDetector", "UrlPasswordDetector", "NamedCredentialDetector")


# A reference or placeholder stands for a value and holds none: ``$DB_PASSWORD``, ``${token}``, ``$env:API_KEY``,
# ``%DB_PASSWORD%``, ``<your-password>``, ``{{ secret }}``. A value in the same wrapping that mixes cases and
# digits (``$ecretPa55w0rd``, ``{Xk29slQpz}``) is a value.
# What ``secrets.redact`` writes in a credential's place (``[GitHub token]``) is one too.
# So is code that makes or fetches one: a call of a lower-case name (``generate_secret(32)``,
# ``secrets.token_hex(16)``, ``os.urandom(24)``). RE2 (``[\pL\pN_]`` is Python's ``\w``): Python's ``re`` takes
# cubic time on a quoted value of spaces (docs/storage-tuning.md#the-credential-scans-regular-expressions).
@functools.cache
def _reference() -> Any:
    """The pattern of a reference or placeholder (above), compiled when a value is first found: most texts
    hold none (docs/hooks.md#speed)."""
    return compile_linear(r"\$\{?(?:[A-Z0-9_]+|[a-z_]+)\}?|\$\([\pL\pN_]+\)|\$env:[\pL\pN_]+|%[A-Za-z_][A-Za-z0-9_]*%"
                          # a command's output in its place: "$(op read op://dev/x/key)", "$(cat ~/.pw)"
                          r"|\$\([^()\n]{1,200}\)?"
                          # an encrypted value's envelope: Ansible Vault's header, SOPS' "ENC[AES256_GCM,...]"
                          r"|\$ANSIBLE_VAULT;[\d.]+;[\pL\pN_]+(?:;[\pL\pN_.-]+)?"
                          r"|(?:sops:)?ENC\[(?:AES256_GCM|PGP|AGE|KMS)\b[^\]\n]*\]?"
                          r"|[{<]{1,2}[ ]*[A-Za-z_ .-]*[ ]*[}>]{1,2}|\[[A-Za-z][A-Za-z .-]*\]"
                          r"|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*\([\pL\pN_., =]*\)?"
                          # where a secret is kept, as the refusal asks ("describe where the secret is
                          # kept"): a CI expression ("${{ secrets.DB_PASSWORD }}"), CloudFormation's
                          # "{{resolve:secretsmanager:...}}", Ansible's "{{ lookup('env', ...) }}" (cut
                          # at its quote), an ARN of a secret store, "op://vault/item/field", "vault:path#key",
                          r"|\$\{\{[ ]*(?:secrets|vars|env|inputs|steps|needs)\.[\pL\pN_.-]+[ ]*\}\}"
                          r"|\{\{-?[ ]*resolve:(?:secretsmanager|ssm-secure|ssm):[^{}\s]+[ ]*\}\}"
                          r"|\{\{-?[ ]*(?:lookup|query|q)\([^{}\n]*(?:\)[ ]*-?\}\})?"
                          r"|arn:aws[a-z-]*:(?:secretsmanager|ssm|kms):[a-z0-9-]*:\d{12}:[\pL\pN_/+=.@:-]+"
                          r"|(?:op|vault|ref\+[a-z0-9]+)://[^\s/\"'`]+/[^\s/\"'`]+(?:/[^\s\"'`]+)?"
                          r"|vault:[\pL\pN_.-]+/[\pL\pN_/.-]+(?:#[\pL\pN_.-]+)?"
                          # a file holding it ("--from-file=password=./pw2.txt", "/run/secrets/db2")
                          r"|(?:file://)?(?:(?:\.{1,2}|~)/|/(?:run|var/run|etc|dev)/)[\pL\pN_./-]+")


# A key's placeholder written in a key's format: one character repeated in its random part
# ("ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "AKIAXXXXXXXXXXXXXXXX", "sk-proj-000000000000...").
_MASKED = re2.compile(r"(?i)(?:x{8,}|\*{8,}|0{8,}|\.{8,}|#{8,})", OPTIONS)
# A vendor's documented sample key says EXAMPLE in its random part (AWS's "AKIAIOSFODNN7EXAMPLE" and
# "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"): seven given capitals no generated key holds by chance.
_DOCUMENTED = "EXAMPLE"
# Keys their vendor publishes with the page or app, whose formats the key table leaves out: Stripe's
# publishable keys (docs.stripe.com/keys: "publishable keys ... can be publicly accessible"; gitleaks'
# stripe rule takes only sk_ and rk_), Mapbox's public tokens (docs.mapbox.com/accounts/guides/tokens:
# pk.), PostHog's project key (posthog.com/docs: phc_ is public). A value of one is no credential.
_PUBLIC = re.compile(r"(?:pk_(?:test|live)_|pk\.eyJ|phc_)[A-Za-z0-9_.-]+")
MASKED_SHARE = 0.5  # of a value's characters a run of one such character takes in a placeholder
# A command substitution that only prints its text holds the value: "$(echo Xk29slQpz)".
_ECHOED = re.compile(r"\$\([ \t]*(?:echo|printf)\b")


def masked(value: str) -> bool:
    """Whether ``value`` is a key's placeholder: runs of x, X, "*", 0, "." or "#" make half of it or more
    (Slack's documented webhook ".../T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"), or it says EXAMPLE (a
    vendor's documented sample key). Linear."""
    return _DOCUMENTED in value or sum(run.end() - run.start() for run in _MASKED.finditer(value)) >= \
        MASKED_SHARE * len(value)


def is_filtered(value: str, detector: Detector) -> bool:
    """Whether ``value``, found by ``detector``, is no credential: detect-secrets' sequence filter (its
    ``filters.heuristic``), a key's placeholder (:func:`masked`), punctuation only (digits are a value: a PIN), a password placeholder
    (``secret_plain.placeholder``, from a detector of ``PASSWORD_DETECTORS``), a reference or placeholder
    (:func:`_reference`), the last two on values of at most ``FILTERED_MAX_CHARS``; a vendor's public key
    (``_PUBLIC``). A UUID is a value: every
    detector finds it where a credential is named ("HEROKU_API_KEY=<uuid>", a URL's password)."""
    from detect_secrets.filters import heuristic

    short = len(value) <= FILTERED_MAX_CHARS
    placed = short and type(detector).__name__ in PASSWORD_DETECTORS and placeholder(value)
    referred = short and bool(_reference().fullmatch(value)) and not _ECHOED.match(value)
    return (heuristic.is_sequential_string(value) or referred or masked(value)
            or not any(c.isalnum() for c in value) or placed or bool(_PUBLIC.fullmatch(value)))


# Bits per character a generated key's characters reach at least (Shannon entropy of their counts): a
# base64 key of 24 characters or more scores 4 or more; "AAAAAAAAAAAAAAAAAAAAAAAAb1" about 0.5.
KEY_ENTROPY_MIN = 3.5
_WORDS_IN = re.compile(r"[A-Z]?[a-z]{3,}")  # the words of a name written in camelCase or PascalCase


def key_shaped(value: str) -> bool:
    """Whether ``value`` looks generated: a digit, "/" or "+" among letters of both cases, no name of
    words (``_CAMEL``, ``_CODE``, mostly words of three letters or more: ``_WORDS_IN``), and its characters' entropy at least ``KEY_ENTROPY_MIN`` bits each.
    Linear."""
    import math
    from collections import Counter

    if value.lower() == value or value.upper() == value or not (_DIGIT.search(value) or "/" in value
                                                                 or "+" in value):
        return False
    if len(value) <= FILTERED_MAX_CHARS and (_CAMEL.fullmatch(value) or _CODE.fullmatch(value)):
        return False
    if sum(len(word) for word in _WORDS_IN.findall(value)) >= len(value) * 0.6:  # "Base64EncodedSigningKey"
        return False
    counts = Counter(value).values()
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts) >= KEY_ENTROPY_MIN


# A key of letters and digits of one case (hex, base36): 16 characters or more, 3 digits and 3 letters or more
# (a UUID, written in groups, is none: an id far more often than a key).
_SINGLE_CASE_KEY = re.compile(r"[a-z0-9]{16,}|[A-Z0-9]{16,}")
SINGLE_CASE_MIN_DIGITS = SINGLE_CASE_MIN_LETTERS = 3
# Bits a character such a key reaches at least: 99.9% of random 32 hex digits do (a hex digit's at most 4 bits),
# "ab12ab12ab12ab12" (2 bits) does not.
SINGLE_CASE_ENTROPY_MIN = 3.0
# Words of letters and digits ("release2024candidate") hold a third of vowels or more among their letters and
# are mostly runs of three letters or more; random letters (a sixth to a fifth of vowels) rarely both.
SINGLE_CASE_VOWELS_SHARE = 0.3


def _entropy(value: str) -> float:
    """Bits per character of ``value``'s characters (Shannon entropy of their counts)."""
    import math
    from collections import Counter

    return -sum(n / len(value) * math.log2(n / len(value)) for n in Counter(value).values())


def generated_key(value: str) -> bool:
    """Whether ``value`` reads as a generated key under a name that says only "key" (``{"key": "..."}``,
    ``jwtSigningKey: ...``): :func:`key_shaped`, or letters and digits of one case (``_SINGLE_CASE_KEY``: a
    Kaggle key's 32 hex digits) not read as words (``SINGLE_CASE_VOWELS_SHARE`` of vowels among its letters
    and ``WORDS_SHARE_MAX`` of it in runs of letters) and at least ``SINGLE_CASE_ENTROPY_MIN`` bits
    a character. Linear."""
    if key_shaped(value):
        return True
    if len(value) > FILTERED_MAX_CHARS or not _SINGLE_CASE_KEY.fullmatch(value):
        return False
    digits = sum(c.isdigit() for c in value)
    if digits < SINGLE_CASE_MIN_DIGITS or len(value) - digits < SINGLE_CASE_MIN_LETTERS:
        return False
    letters = [c for c in value.lower() if c.isalpha()]
    wordy = sum(c in "aeiouy" for c in letters) >= SINGLE_CASE_VOWELS_SHARE * len(letters) and \
        sum(len(word) for word in _WORDS_IN.findall(value.lower())) >= len(value) * WORDS_SHARE_MAX
    return not wordy and _entropy(value) >= SINGLE_CASE_ENTROPY_MIN


# A word naming what identifies or describes a credential, not the credential, right before ":" or "=" ("encryption
# key id: alias/app-2024", "API key name: ci-2024", "token type: Bearer1", "secret arn = arn:aws:...").
_NAMING = re.compile(r"(?i)(?<![\w-])(?:ids?|identifier|names?|arn|alias|label|type|kind|version|prefix|suffix|path"
                     r"|file(?:name)?|url|uri|length|size|format|scope|owner|expir\w*|created|updated|hint|policy"
                     r"|rotation|reference|ref)[ \t]*:?=?[ \t]*\r?\n?[ \t]*$")


# reCAPTCHA's site key, published in every page that shows the widget (developers.google.com/recaptcha/docs/display:
# ``data-sitekey``); its secret key is not ("site key: 6Le...", "sitekey = ..."; not "site key and secret: ...").
_SITE_KEY = re.compile(r"(?i)(?<![a-z])site[ _-]?key(?:[^\n]*secret)?")


# The groups of a password named only by where it stands in prose ("use X to log in", "my pass is X", "sign in with
# ci-bot and X", "Jenkins: ci-bot / X", "the panel takes X"), whose value must read as typed (:func:`typed`), and the
# symbols that make a value typed ("uses OAuth2+PKCE" and "node@18" name things).
_TYPED = ("spaced_use", "pass_said", "login_and", "login_with", "service_pair", "takes")
# The groups whose value may be a plain word ending its sentence (``secret_plain``): after a word for password and its
# verb or ":", after a login's user and "/" or ":", after a user and "pass".
_PLAIN = ("said", "pair", "user_pass")
_TYPED_SYMBOL = re.compile(r"[!#$%^&*?~]")
_PARTED = re.compile(r"[,;:/]")  # punctuation parting a network's name from its key's word


def typed(value: str, after_network_key: bool = False) -> bool:
    """Whether ``value`` reads as a password someone typed rather than a name, a label or a product, where only its
    place says it is one ("use X to log in", "my pass is X": ``_TYPED``): 8 characters or more, mixed cases or a typed
    symbol (``_TYPED_SYMBOL``), a letter and a digit (:func:`is_value`), and no word and digits (``_WORDLIKE``:
    "Windows11"), camelCase name (``_CAMEL``) nor mostly words (``WORDS_SHARE_MAX`` of it in ``_WORD_PARTS``:
    "GoogleSSO2") unless a typed symbol inside parts them ("Kangaroo!Jump55", "tag77#blue"). ``after_network_key``
    (a network's key word just before it in a run of words, "wifi guest key X": ``wifi_key``) asks only the first two
    and a letter and a digit or a generated look (:func:`generated`): that word names the key, and a key is often a
    word and digits ("Sunflower88", "Rack12Shelf"). Linear."""
    one_case = value.lower() == value or value.upper() == value
    if len(value) < 8 or one_case and not _TYPED_SYMBOL.search(value):
        return False
    if after_network_key:
        return is_value(value) or generated(value)
    if not is_value(value):
        return False
    wordy = sum(len(word) for word in _WORD_PARTS.findall(value)) >= WORDS_SHARE_MAX * len(value)
    parted = _TYPED_SYMBOL.search(value.strip("!#$%^&*?~"))
    return not (_WORDLIKE.fullmatch(value) or _CAMEL.fullmatch(value) or wordy and not parted)


def _unverbed(value: str, text: str, start: int, at: int) -> bool:
    """Whether ``value``, right after a word for password or "pass" and a space, is a plain-word password
    (``secret_plain.plain_unverbed``) and no hash's name ("password bcrypt", "pass sha256")."""
    return not HASHED.fullmatch(value) and plain_unverbed(value, text, start, at)


def named_value_kept(group: str, value: str, text: str, start: int, at: int) -> bool:
    """Whether ``value``, found at ``at`` of ``text`` in the group ``group`` of a named-credential match
    starting at ``start``, is a credential: a ``mixed`` group's when it holds a digit and letters of both
    cases (a ``spaced`` one's also when it is 8 characters or more and no word and digits, ``_WORDLIKE``),
    a ``spaced_use`` one's ("use X to log in", and the others of ``_TYPED``) when it reads as typed (:func:`typed`),
    after "takes" or a service's user and "/" holding a symbol, a ``wifi_key`` one's also when it reads as typed after a
    network's key word or punctuation parts its network from its word, a ``markup``
    one's when it is not a plain word, a ``said`` one's also when it is 6 digits or more,
    another's when it holds a letter and a digit or reads as generated (:func:`generated`); but not a compound that describes one (``_DESCRIBED``),
    nor after ``=`` (or ``pass:``) code that names one (``_CODE``), nor after a hash's name (``HASHED``), nor a
    value after a word naming what identifies or describes it ("key id:", ``_NAMING``), nor a vendor's public
    key (``_PUBLIC``) or one named a site key (``_SITE_KEY``).

    The value's own rules are read first, the words before it only for a value they keep: a text dense with
    values a pattern finds and these rules refuse is not searched again at each; either part only refuses,
    so the order changes nothing."""
    if group.startswith("spaced_use"):  # typed to unlock or log in, before or after the words saying so
        group = "spaced_use"
    return _value_kept(group, value, text, start, at) and not _named_otherwise(group, value, text, start, at)


def _named_otherwise(group: str, value: str, text: str, start: int, at: int) -> bool:
    """Whether the words between a match's ``start`` and its value at ``at`` name a hash, what identifies or
    describes a credential or a site key, or ``value`` is a vendor's public key (:func:`named_value_kept`)."""
    if _PUBLIC.fullmatch(value):
        return True
    # ("type" names a credential's type, "token type: Bearer1", not when it is what is typed: "type X to unlock")
    return at - start <= FILTERED_MAX_CHARS and bool(
        HASHED.search(text, start, at) or group != "spaced_use" and _NAMING.search(text[start:at]) or any(
            "secret" not in site.group(0).lower()  # its word may stand before the match ("site " before "key:")
            for site in _SITE_KEY.finditer(text, max(start - 16, text.rfind("\n", 0, start) + 1), at)))


def _value_kept(group: str, value: str, text: str, start: int, at: int) -> bool:
    """Whether ``value``, of the group ``group``, is a credential by its group's rules (:func:`named_value_kept`)."""
    mixed = value.lower() != value != value.upper()
    if group == "keyshaped":  # after the plain word "key": a generated key's shape, not a name or a word
        return key_shaped(value)
    if group in ("wifi_pair", "wifi_key") and len(value) < 8:  # a WPA passphrase is 8 to 63 characters (IEEE 802.11i)
        return False
    if group == "wifi_key" and not (typed(value, after_network_key=True) or _PARTED.search(text, start, at)):
        return False  # the network and the short word ("key") in a run of words, no punctuation between them, name no
        # password but a typed value's ("Wifi guest key fz81marker" is a label; "SSID Casa, key gato11rato" a password)
    if group in _TYPED:  # "use X to log in": typed; after "takes", with a symbol ("uses OAuth2+PKCE" names a thing);
        # after a service's user and "/", with a symbol or, with spaces around "/", two capitals ("Resolution:
        # 1920x1080 / 2560x1440Hz" is none)
        return typed(value) and (bool(_TYPED_SYMBOL.search(value)) or group not in ("takes", "service_pair") or (
            group == "service_pair" and text[at - 1:at] != "/" and sum(c.isupper() for c in value) >= 2))
    if group.startswith("glued") or group == "pair_and":  # glued or joined to its word, or after "user and": mixed
        # cases and digits, no name; joined by punctuation or nothing, mostly no words and a digit among its letters:
        # not "password-ResetToken2", "passwordIsValid2"
        if not (mixed and is_value(value)):
            return False
        wordy = sum(len(word) for word in _WORDS_IN.findall(value)) >= WORDS_SHARE_MAX * len(value)
        return not (_WORDLIKE.fullmatch(value) or _CAMEL.fullmatch(value) or group in ("glued_joined", "glued_bare")
                    and (wordy or not any(c.isdigit() for c in value.rstrip("0123456789!@#$%^&*+?~._-"))))
    if group == "markup":
        kept = not _WORD.fullmatch(value)
    elif group.startswith("spaced"):  # after only a space: 8 mixed, not a word and digits ("Gandalf2")
        kept = mixed and len(value) >= 8 and is_value(value) and not _WORDLIKE.fullmatch(value) or \
            group == "spaced" and _unverbed(value, text, start, at)
    elif group.startswith("typo"):  # after a word for password misspelled: mixed cases and a digit, or generated
        kept = mixed and is_value(value) and (group == "typo" or len(value) >= 8) or generated(value)
    elif group == "said" and value.isdigit():
        kept = len(value) >= 6  # "my password is 19871203"; shorter digits are a count ("is 12")
    elif group == "said_short":  # 3 to 5 characters: only a word (perhaps then digits) ending its sentence
        kept = plain_password(value, text, start, at)
    elif group == "said_changed":  # a change's verb before the word, or a participle after the value
        kept = after_change(value, text, start, at) and (len(value) >= 6 and (is_value(value) or generated(value))
                                                         or plain_password(value, text, start, at))
    elif group == "env":  # an upper-case name's value: a letter and a digit, or a plain word to the line's end
        kept = len(value) >= 6 and (is_value(value) or generated(value)) or plain_assigned(value, text, at)
    else:
        kept = (is_value(value) or generated(value)) and (group not in ("mixed", "described") or mixed) or \
            group in _PLAIN and plain_password(value, text, start, at, paired=group != "said") or \
            group == "mixed" and _unverbed(value, text, start, at)
    assigned = _ASSIGNED.search(text[max(start, at - 4):at]) or group == "pass"
    short = len(value) <= FILTERED_MAX_CHARS  # a longer value is no code and no description
    code = assigned and short and (_CODE.fullmatch(value) or bool(_CAMEL.fullmatch(value)) and _declared(text, start))
    return bool(kept and not code and not (short and _DESCRIBED.fullmatch(value)))
