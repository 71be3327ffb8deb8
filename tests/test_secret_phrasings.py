"""Everyday phrasings of a password whose value is key-like (issue 25 §1.8): glued to its word
("mypasswordisX"), after a question ("the db's password? it's X"), written one character at a time
("password: Z k 9 x ..."), a Wi-Fi network then its password ("WiFi: ACME-Guest / X") and a user "and" its
password ("creds are admin and X") are refused, and redaction takes the value; prose about passwords,
code names and placeholders are stored."""

from __future__ import annotations

import pytest

from memvault.storage.secrets import find_secrets, redact

REFUSED = [
    # glued to the word
    ("mypasswordisboiAzX7DOcZ4", "boiAzX7DOcZ4"), ("thewifipasswordisHq7Lm2Np9R", "Hq7Lm2Np9R"),
    ("mypasswordwas:Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"), ("adminpassword=Zk9x2mQ7Lp4R!", "Zk9x2mQ7Lp4R"),
    ("mypassword boiAzX7DOcZ4", "boiAzX7DOcZ4"),
    # a question, then the value
    ("the db's password? it's Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"), ("wifi password? Hq7Lm2Np9R", "Hq7Lm2Np9R"),
    ("what's the root password? It is 8Hq2LmN0pQ", "8Hq2LmN0pQ"), ("the passcode? that's 8Hq2LmN0pQ.", "8Hq2LmN0pQ"),
    ("the db password... it's Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"), ("password?? it's Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"),
    # one character at a time
    ("password: Z k 9 x 2 m Q 7 L p 4 R", "Z k 9 x 2 m Q 7 L p 4 R"),
    ("the password is h u n t e r 2", "h u n t e r 2"),
    ("Passwort: Z k 9 x 2 m", "Z k 9 x 2 m"), ("pwd = a 1 b 2 c 3, then press enter", "a 1 b 2 c 3"),
    ("password - Z k 9 x 2 m Q 7", "Z k 9 x 2 m Q 7"),
    # a Wi-Fi network, then its password
    ("WiFi: ACME-Guest / Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"), ("wifi ACME-Guest / sunflower2024", "sunflower2024"),
    ("Wi-Fi network Home5G / Hq7Lm2Np9R", "Hq7Lm2Np9R"), ("SSID ACME-Guest / Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"),
    # a user, then its password
    ("creds are admin and Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"), ("login: admin & Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"),
    ("credentials are root and Hq7Lm2Np9R", "Hq7Lm2Np9R"), ("login admin / Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"),
]


@pytest.mark.parametrize(("text", "value"), REFUSED)
def test_an_everyday_phrasing_of_a_password_is_refused_and_its_value_redacted(text: str, value: str) -> None:
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert value not in redacted and kinds


@pytest.mark.parametrize("text", [
    "passwordIsValid2 and passwordWasChanged2024 and userPasswordIsSet2",
    "the password? it's on the sticky note", "forgot your password? Reset it at example.com/reset2",
    "https://example.com/reset-password?next=/home2", "password: a b c d e f g",
    "the password policy: 1 2 3 4 5 6", "WiFi: ACME-Guest / guest network for visitors",
    "wifi network 5GHz / 2.4GHz", "credentials are stored and rotated2024", "creds are admin and changeme",
    "Home Wi-Fi network name: Lindgarden-5G; guests use Lindgarden-Guest.", "mypasswordis<your-password>",
    "the password? it's xxxxxxxx", "resetpassword ForgotPassword2 and changepassword Button3",
    "the password... it's complicated", "password - a b c",
    "SSID ACME-Guest / 5GHz band", "passwordhash=ab12CD34ef56 is a column", "wifi: see the card / ask reception",
])
def test_prose_code_names_and_placeholders_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.contract
@pytest.mark.parametrize("text", [
    "mypasswordisboiAzX7DOcZ4", "the db's password? it's Zk9x2mQ7Lp4R", "password: Z k 9 x 2 m Q 7 L p 4 R",
    "WiFi: ACME-Guest / Zk9x2mQ7Lp4R", "creds are admin and Zk9x2mQ7Lp4R",
    "KwdMAjGmerYanjeui5SHS7JkmpZvVipYvB2LJGU1ZxJwYvP98617",
    "https://b.s3.amazonaws.com/a.txt?X-Amz-Expires=86400&X-Amz-Signature=" + "ab12" * 16,
])
def test_remember_refuses_and_a_turn_redacts_each_new_kind(store, text: str) -> None:
    from memvault.storage.errors import InvalidInput
    from memvault.storage.records import NewTurn

    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=f"note: {text}")
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    kept = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    assert kept != text and "Zk9x2mQ7Lp4R" not in kept and "boiAzX7DOcZ4" not in kept and "ab12ab12" not in kept


# Trial 57 (issue 25 §1.8): "pass" as a credential word before a typed value, a user and a password after a login
# or sign-in word and "with" or "and", a service's name then "user / password", a typed value after "takes" or
# "uses", and base64 of user:password after an "auth" key or word, its closing quote or not.
def _b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


PROSE_REFUSED = [
    # "pass" before a value mixing cases and digits
    ("my pass is Mx3&Lk9Pq", "Mx3&Lk9Pq"), ("the VPN pass was Hq7Lm2Np9R", "Hq7Lm2Np9R"),
    ("pass for the staging admin panel: Mx3&Lk9Pq", "Mx3&Lk9Pq"), ("pass to the vault = Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"),
    ("our shared pass is: 'Tq5*Vb8Rn2Lw'", "Tq5*Vb8Rn2Lw"), ("pass for grafana prod is Xw3Kd9Lp2M", "Xw3Kd9Lp2M"),
    # a user and a password after a login or sign-in word
    ("sign in with ci-bot and Qp4$Wn8Zr2", "Qp4$Wn8Zr2"), ("the Jenkins login is ci-bot with Qp4$Wn8Zr2", "Qp4$Wn8Zr2"),
    ("log in with jdoe and Hq7Lm2Np9R", "Hq7Lm2Np9R"), ("authenticate with svc-ci and Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"),
    ("Grafana login: admin with Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"),
    ("signed on with ops@acme.io and Vb7#Kq2Lm9", "Vb7#Kq2Lm9"),
    ("the VPN logins are alice with Rn4Tz8Wq2Kx", "Rn4Tz8Wq2Kx"),
    # a service's name, a user and "/"
    ("Jenkins: ci-bot / Qp4$Wn8Zr2", "Qp4$Wn8Zr2"), ("Staging DB: app_rw / Hq7Lm2Np9R", "Hq7Lm2Np9R"),
    ("Grafana: admin/Gr4f#na2024x", "Gr4f#na2024x"), ("notes; Nexus repo: deployer / Wx8Lq3Zt5N, ask Bo", "Wx8Lq3Zt5N"),
    ("Datenbank: root / Kx7Qm2Zp9Lw", "Kx7Qm2Zp9Lw"), ("Base de données : admin / Tz4Lq8Wn2Rk", "Tz4Lq8Wn2Rk"),
    # a typed value after "takes", "uses" or "accepts"
    ("the staging admin panel takes Mx3&Lk9Pq", "Mx3&Lk9Pq"), ("the router uses Zk9#x2mQ7L now", "Zk9#x2mQ7L"),
    ("the kiosk accepts Wq8!nP2vLx", "Wq8!nP2vLx"),
]


@pytest.mark.parametrize(("text", "value"), PROSE_REFUSED)
def test_a_password_in_casual_prose_is_refused_and_its_value_redacted(text: str, value: str) -> None:
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert value not in redacted and kinds == ("password",)


ENCODED_PAIRS = ["deploy:Vq9#Lm2Xz7Pk", "ci-bot:Hq7Lm2Np9R", "acmebot:dckr_pat_Xw2Lp9Kd4Vb8Tn3Mh6Rj1Fc5Gy0",
                 "me@acme.io:Zk9x2mQ7Lp4R"]


@pytest.mark.parametrize("pair", ENCODED_PAIRS)
@pytest.mark.parametrize("shape", [
    "registry auth: {}", "basic auth = {}", 'cut short: {{"auths": {{"registry.acme.example": {{"auth": "{}',
    "{{\\\"auth\\\":\\\"{}\\\"}}", "auth={} (from .npmrc)", "Authorization: {}", '{{"auth": "{}"}}'])
def test_base64_of_a_user_and_password_after_an_auth_word_is_refused_with_or_without_its_closing_quote(
        pair: str, shape: str) -> None:
    text = shape.format(_b64(pair))
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert _b64(pair) not in redacted and kinds == ("Basic authentication credential",)


@pytest.mark.parametrize("text", [
    # "pass" in everyday English, and values that are no typed password
    "I passed the exam", "boarding pass for Lisbon", "the mountain pass is closed", "pass rate is 98%",
    "we pass the token in the header", "my boarding pass is LX1234", "the pass for the museum is MuseumPass2024",
    "the museum pass is valid until 2025-06-01", "pass: see the vault", "the pass is Gandalf2",
    "the password policy needs 12 characters",
    # a login or sign-in word then "with"/"and" before names
    "login with SSO and MFA", "sign in with Google and GitHub", "log in as admin with OAuth2",
    "sign in with Google and YubiKey5NFC", "sign in with Google and Microsoft365", "login is slow with 2FA",
    # ":" then a "/" that is a path, a ratio, a pair of words or a date
    "Permissions: read/write", "repo: owner/repo", "Stack: TCP/IP", "Date: 12/05", "Throughput: 300 io/s",
    "Model: Qwen/Qwen2.5-7B", "ratio: 3 / 4", "HF: meta-llama/Llama3Instruct", "Docker image: library/Python3Slim",
    "Paths: src / lib", "Versions: v1 / v2Beta3", "Route: GET /api/v2/Users3Page",
    "Resolution: 1920x1080 / 2560x1440Hz",
    # "takes" or "uses" before what is no password
    "the build uses OAuth2+PKCE", "pnpm uses node@18.2Beta", "the test takes 12min", "the API uses HMAC-SHA256",
    "it takes Python3.11+ to run",
    # base64 after "auth" that is no user and password: text without a colon, a user and a word, image bytes
    f"registry auth: {_b64('hello:world')}", f"auth: {_b64('admin:changeme')}", f"auth: {_b64('no colon here 123')}",
    "auth: iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ", f"oauth: {_b64('deploy:Vq9#Lm2Xz7Pk')}",
])
def test_prose_paths_ratios_and_other_base64_after_auth_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.contract
@pytest.mark.parametrize("text", [
    "my pass is Mx3&Lk9Pq", "the Jenkins login is ci-bot with Qp4$Wn8Zr2", "sign in with ci-bot and Qp4$Wn8Zr2",
    "Jenkins: ci-bot / Qp4$Wn8Zr2", "the staging admin panel takes Mx3&Lk9Pq",
    f"registry auth: {_b64('deploy:Vq9#Lm2Xz7Pk')}",
    f'{{"auths": {{"registry.acme.example": {{"auth": "{_b64("deploy:Vq9#Lm2Xz7Pk")}',
])
def test_remember_refuses_and_a_captured_turn_and_its_digest_redact_each_prose_kind(store, text: str) -> None:
    from memvault.storage.errors import InvalidInput
    from memvault.storage.records import NewTurn

    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=f"note: {text}")
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    kept = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    digest = store.get(tenant="t", id=store.episodes.end(tenant="t", session_id="s-1").digest_id).content
    for secret in ("Mx3&Lk9Pq", "Qp4$Wn8Zr2", _b64("deploy:Vq9#Lm2Xz7Pk")):
        assert secret not in kept and secret not in digest
    assert "[" in kept and "[" in digest
