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
