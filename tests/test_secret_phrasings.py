"""Everyday phrasings of a password whose value is key-like (issue 25 §1.8): glued to its word
("mypasswordisX"), after a question ("the db's password? it's X"), written one character at a time
("password: Z k 9 x ..."), a Wi-Fi network then its password ("WiFi: ACME-Guest / X") and a user "and" its
password ("creds are admin and X"), and a value joined to any word for a credential by one punctuation or by
nothing ("password-X", "DB_PASSWORD_X", "token.X", "passwordR7q...") are refused, and redaction takes the value;
prose about passwords, code names and placeholders are stored."""

from __future__ import annotations

import pytest

from memvault.storage.secrets import find_secrets, redact

REFUSED = [
    # glued to the word
    ("mypasswordisboiAzX7DOcZ4", "boiAzX7DOcZ4"), ("thewifipasswordisHq7Lm2Np9R", "Hq7Lm2Np9R"),
    ("mypasswordwas:Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"), ("adminpassword=Zk9x2mQ7Lp4R!", "Zk9x2mQ7Lp4R"),
    ("mypassword boiAzX7DOcZ4", "boiAzX7DOcZ4"),
    # joined to any word for a credential by one punctuation, perhaps spaced, or by nothing (adv56 F1)
    *((f"{before}{word}{joint}{value}{after}", value)
      for before, joint, after in [("The staging db ", "-", " works again."), ("Grafana admin ", "_", ""),
                                   ("kiosk ", ".", ""), ("share ", "/", ""), ("note ", "#", ""), ("it's ", "~", ""),
                                   ("set ", ">", " today"), ("VPN ", "- ", ""), ("Jenkins ", ", ", ""),
                                   ("NAS ", "; ", ""), ("SFTP ", " :: ", ""), ("router ", "", ""), ("", "-", ".")]
      for word, value in [("password", "Zk9x2mQ7Lp4R"), ("pwd", "8Hq2LmN0pQx"), ("secret", "Zk9x2mQ7Lp4Rx"),
                          ("Passwort", "Hq7Lm2Np9Rv"), ("api_key", "Rw4kT9zQp2Lm")]
      if len(word) >= 5 or joint not in ("/", "")),  # "pwd/X", "pwdX": ``test_secret_key_bodies``
    *((f"the {word}-Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R") for word in [
        "contraseña", "senha", "wachtwoord", "passphrase", "passcode", "access_token", "client_secret", "token",
        "apikey", "Serverpasswort", "hasło", "пароль", "pw", "GitHub token"]),
    ("export DB_PASSWORD_Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"), ("the mypassword-R7qZk9x2mQ7 note", "R7qZk9x2mQ7"),
    ("tag pw-Zk9x2mQ7Lp4R, done", "Zk9x2mQ7Lp4R"), ("password_Zk9x2mQ7Lp4R!", "Zk9x2mQ7Lp4R"),
    # the same at a line's or a quote's start or end, after a word joined by "_" or "-", in other languages and
    # with other words (adv56 F1: the boundary that keeps base64 out keeps these)
    *((text.format(word=word, joint=joint), "Zk9x2mQ7Lp4R")
      for text in ["{word}{joint}Zk9x2mQ7Lp4R", "notes:\n{word}{joint}Zk9x2mQ7Lp4R\nend", '"{word}{joint}Zk9x2mQ7Lp4R"',
                   "(the {word}{joint}Zk9x2mQ7Lp4R)", "staging_{word}{joint}Zk9x2mQ7Lp4R: rotated",
                   "db-{word}{joint}Zk9x2mQ7Lp4R... done"]
      for word, joint in [("password", "-"), ("PASSWORD", "_"), ("passwd", "."), ("pw", "-"), ("mdp", "_"),
                          ("token", "#"), ("secret", ", "), ("contraseña", "-"), ("Kennwort", "~"), ("salasana", "."),
                          ("пароль", "-"), ("密码", "-"), ("access_token", " :: "), ("passphrase", "/"),
                          ("Passwort", ""), ("client_secret", "")]),
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
    # the word split by a space or a hyphen (verify59 N4)
    ("the pass-word is Wombat!Run77", "Wombat!Run77"), ("the pass word is Wombat!Run77", "Wombat!Run77"),
    ("pass-word: Wombat!Run77", "Wombat!Run77"), ("my pass-phrase is Wombat!Run77", "Wombat!Run77"),
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
    # a word for a credential joined to a name, not to a value (adv56 F1)
    "the password-reset flow", "the password_hash column", "password-less login", "the password.txt file",
    "token-based auth", "the api_key-rotation job", "DB_PASSWORD_FILE", "passwordless", "secret-santa",
    "the pass-word field is required", "the pass word field is required", "the pass-word is required",
    "the pwd-changed event", "password, username and email are required", "wrong password; then retry",
    "PASSWORD_MIN_LENGTH=12", "deploy token-refresh-v2", "password_MinLength=12", "token_count=1024",
    "TOKEN_TTL_SECONDS=3600", "getPasswordResetTokenV2()", "password_reset_token_v2", "tokenizer v2",
    "the secret-Santa2024 party", "the passwordPolicy2 module", "Password.Reset2 event", "api_key-Rotation2",
    "password-v2-Migration", "the passwords-2024Q4 report", "pw-Reset2 flow", "token/API2 docs",
    "see password#section2", "https://example.com/password/reset2", "keyboard-Layout2", "monkeyPatch3D",
    "passwordIsValid2 or passwordWasChanged2024", "passwordIsSet2 and token-Limit2 hit", "the token-v2Refresh call",
    # a word for a credential inside an identifier, a path, a URL or a dotted name, its "value" glued to more
    # (adv56 F1, the base64 boundary): no letter, digit, "+", "/", "=", ".", "\\" before the word, nothing of a
    # base64 run after the value
    "getPasswordR7q2", "getPasswordR7qZk9x2mQ7()", "setTokenZk9x2mQ7Lp4R(x)", "var passwordR7qZk9x2mQ7=1",
    "function passwordR7qZk9x2mQ7(a){}", "x.passwordR7qZk9x2mQ7Lp4R", "cfg.pw-Zk9x2mQ7Lp4R", "/home/u/passwordStore2X/",
    "/home/u/passwordR7qZk9x2mQ7/notes", "C:\\Users\\me\\pw-Zk9x2mQ7Lp4R\\x", "https://example.com/password/Reset2x9q",
    "https://example.com/u/pw-Zk9x2mQ7Lp4R/x", "KRdm/wwIlgOeA71u+IjYg6H", "ZcbNNs4tw/pwdR7qZk9x2mQ7+x", "a+pw-Zk9x2mQ7Lp4R",
    "a=tokenZk9x2mQ7Lp4R", "Xk9pwZk9x2mQ7Lp4R", "Zk9_x2m-pw-Zk9x2mQ7Lp4R", "eyJhbGciOiJIUzI1NiJ9.pw-Zk9x2mQ7Lp4R.sig",
    "data:text/plain;base64,Zk9/pw-Zk9x2mQ7Lp4R", "password-Zk9x2mQ7Lp4R/Ab3", "pw_Zk9x2mQ7Lp4R=",
    "pwR7qZk9x2mQ7Lp4R", "pwdR7qZk9x2mQ7Lp4R", "pskR7qZk9x2mQ7Lp4R", "pw/R7qZk9x2mQ7Lp4R",
])
def test_prose_code_names_and_placeholders_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.contract
@pytest.mark.parametrize("text", [
    "mypasswordisboiAzX7DOcZ4", "the db's password? it's Zk9x2mQ7Lp4R", "password: Z k 9 x 2 m Q 7 L p 4 R",
    "WiFi: ACME-Guest / Zk9x2mQ7Lp4R", "creds are admin and Zk9x2mQ7Lp4R",
    "KwdMAjGmerYanjeui5SHS7JkmpZvVipYvB2LJGU1ZxJwYvP98617",
    "https://b.s3.amazonaws.com/a.txt?X-Amz-Expires=86400&X-Amz-Signature=" + "ab12" * 16,
    "The staging db password-Zk9x2mQ7Lp4R works again.", "export DB_PASSWORD_Zk9x2mQ7Lp4R",
    "Grafana admin password_Zk9x2mQ7Lp4R", "router passwordR7qZk9x2mQ7Lp4R", "VPN password- Zk9x2mQ7Lp4R",
    "Jenkins password, Zk9x2mQ7Lp4R", "NAS password; Zk9x2mQ7Lp4R", "SFTP password :: Zk9x2mQ7Lp4R",
    "wiki secret-Zk9x2mQ7Lp4Rx", "mail pwd-Zk9x2mQ7Lp4Ry", "kiosk password.Zk9x2mQ7Lp4Rz",
    "the new Passwort-Zk9x2mQ7Lp4R\nand the contraseña_Zk9x2mQ7Lp4R", "(token: see vault) token-Zk9x2mQ7Lp4R",
])
def test_remember_refuses_and_a_turn_redacts_each_new_kind(store, text: str) -> None:
    from memvault.storage.errors import InvalidInput
    from memvault.storage.records import NewTurn

    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=f"note: {text}")
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    kept = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    assert kept != text and "Zk9x2mQ7Lp4R" not in kept and "boiAzX7DOcZ4" not in kept and "ab12ab12" not in kept


@pytest.mark.parametrize("value", ["pw-Zk9x2mQ7Lp4R", "password-Zk9x2mQ7Lp4R", "token_Zk9x2mQ7Lp4R"])
def test_a_tag_or_a_scope_joined_to_a_credential_is_refused(value: str) -> None:
    from memvault.storage import validate
    from memvault.storage.errors import InvalidInput

    with pytest.raises(InvalidInput):
        validate.tags([value])
    with pytest.raises(InvalidInput):
        validate.scope(value, "default")


@pytest.mark.parametrize(("text", "kind"), [
    ("wiki secret-Zk9x2mQ7Lp4Rx", "secret key"), ("the GitHub token-Zk9x2mQ7Lp4R", "access token"),
    ("the api_key-Zk9x2mQ7Lp4R", "API key"), ("export DB_PASSWORD_Zk9x2mQ7Lp4R", "password"),
    ("Passwort-Zk9x2mQ7Lp4R", "password"),
])
def test_a_value_joined_to_its_word_is_named_by_that_word(text: str, kind: str) -> None:
    assert find_secrets(text) == [[(kind, 1)]]
    assert redact(text)[1] == (kind,)


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


# The check of 5 December after trial 57 (issue 25 §1.8): a login word followed by the place one logs in to (1 to 4
# words) before its user ("log in to the router with admin and X", "connect to the db as app with X", "ssh into
# prod-db-01 as deploy with X"), and a login's noun said of a place or an account ("the login for grafana is ops with
# X", "the vpn account is ops with X"): the value reads as typed, as without the place.
LOGIN_PLACES_REFUSED = [
    ("log in to the router with admin and Zt5&Pw9Qx", "Zt5&Pw9Qx"),
    ("sign into grafana with ops and Qp4$Wn8Zr2", "Qp4$Wn8Zr2"),
    ("connect to the db as app with Mx3&Lk9Pq7", "Mx3&Lk9Pq7"),
    ("the vpn account is ops with Hq7$Lm2Np9", "Hq7$Lm2Np9"),
    ("log on to the staging Grafana as admin using Vb7#Kq2Lm9", "Vb7#Kq2Lm9"),
    ("sign on to the HR portal with jdoe and Rn4Tz8Wq2Kx", "Rn4Tz8Wq2Kx"),
    ("ssh into prod-db-01 as deploy with Mx3&Lk9Pq7", "Mx3&Lk9Pq7"),
    ("ssh to bastion.acme.io as ops using Hq7Lm2Np9R", "Hq7Lm2Np9R"),
    ("authenticate to the vault with svc-ci and Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"),
    ("authenticated against LDAP as ldap-ro with Wq8!nP2vLx", "Wq8!nP2vLx"),
    ("access https://admin.example.com with root and Tz4Lq8Wn2Rk", "Tz4Lq8Wn2Rk"),
    ("connecting to prod-db-01 as app_rw using Xw3Kd9Lp2M", "Xw3Kd9Lp2M"),
    ("logged into the NAS with admin and Kx7Qm2Zp9Lw", "Kx7Qm2Zp9Lw"),
    ("log in to the router with admin:Zt5&Pw9Qx", "Zt5&Pw9Qx"),
    ("sign in to Jenkins using ci-bot / Qp4$Wn8Zr2", "Qp4$Wn8Zr2"),
    ("log into the old Jira server with 'admin' and 'Vb7#Kq2Lm9'", "Vb7#Kq2Lm9"),
    ("sign in with 'ci-bot' and 'Qp4$Wn8Zr2'", "Qp4$Wn8Zr2"),
    ("the login for the staging Grafana is ops with Qp4$Wn8Zr2", "Qp4$Wn8Zr2"),
    ("the account on prod-db-01 is app with Mx3&Lk9Pq7", "Mx3&Lk9Pq7"),
    ("the VPN accounts are alice with Rn4Tz8Wq2Kx", "Rn4Tz8Wq2Kx"),
    ("creds for the staging NAS: admin with Kx7Qm2Zp9Lw", "Kx7Qm2Zp9Lw"),
    ("Grafana account: admin with Zk9x2mQ7Lp4R", "Zk9x2mQ7Lp4R"),
]
LOGIN_PLACES_STORED = [
    "log in to the router with your phone", "sign into grafana with Google SSO",
    "connect to the db as app with a read-only role", "the vpn account is ops with MFA enabled",
    "log in to Jira with SSO and YubiKey5NFC", "ssh into prod-db-01 as deploy with your key",
    "connect to the cluster with kubectl and KubeConfig2", "access the dashboard with Okta and WebAuthn2",
    "sign into the portal with Google and Microsoft365", "log on to the VPN with GlobalProtect6 and MFA",
    "authenticate to the API with OAuth2 and PKCE", "connect to the db as app with pgbouncer2024",
    "the vpn account is ops with read-only access", "the account for billing is finance with a shared role",
    "ssh into web-01 as deploy using ed25519 keys", "log in to the router with admin and password123",
    "connect to the db as app with SSLmode=require", "access the staging Grafana with your Okta login",
    "the login for grafana is admin with SSO", "log in to prod with admin and Hunter2024",
    "connected to the db as app with pool size 20", "the accounts team works with Finance2024",
    "sign in to Slack with Google and then with Okta", "ssh into the box as root with sudo2 rights",
    "log in to AWS with SSO and AdministratorAccess2", "connect to Postgres 16 as app with TLS1.3",
    "connect the monitor with HDMI and DisplayPort14", "access the wiki with Chrome and Firefox128",
]


@pytest.mark.parametrize(("text", "value"), LOGIN_PLACES_REFUSED)
def test_a_password_after_a_login_word_a_place_and_a_user_is_refused_and_redacted_in_a_turn(
        one_store, text: str, value: str) -> None:
    from memvault.storage.errors import InvalidInput
    from memvault.storage.records import NewTurn

    assert redact(text) == (text.replace(value, "[password]"), ("password",))
    with pytest.raises(InvalidInput, match=r"credential \(password\)"):
        one_store.remember(tenant="t", scope="s", content=f"note: {text}")
    session = f"s-{LOGIN_PLACES_REFUSED.index((text, value))}"
    one_store.episodes.append(tenant="t", scope="s", session_id=session, turns=[NewTurn(role="user", text=text)])
    kept = one_store.episodes.turns(tenant="t", session_id=session)[-1].text
    assert value not in kept and "[password]" in kept


@pytest.mark.parametrize("text", LOGIN_PLACES_STORED)
def test_a_login_word_and_a_place_before_what_is_no_typed_password_is_stored_unchanged(one_store, text: str) -> None:
    assert find_secrets(text) == [[]]
    stored = one_store.remember(tenant="t", scope="s", content=text)
    assert one_store.get(tenant="t", id=stored.id).content == text
