"""Passwords written as plain words (trial 60 findings 6 and 7, ``storage/secret_plain.py``): a word of letters right
after a word for password and its verb or ":", ending its sentence, in any language of the word table, a short
passphrase after ":" or "passphrase", and a user's password after "user X pass"; refused and redacted on both
backends. A word saying something about the password (``predicate`` rows) and prose are stored."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secret_tables import tsv_rows
from memvault.storage.secret_typos import expansions
from memvault.storage.secret_named import alternatives
from memvault.storage.secrets import find_secrets, redact

REFUSED = [
    ("The admin password is letmein", "letmein"), ("the root password on staging is sunflower", "sunflower"),
    ("Das Passwort ist sonnenblume", "sonnenblume"), ("le mot de passe est soleil", "soleil"),
    ("la contraseña es girasol", "girasol"), ("a senha do wifi é abacaxi", "abacaxi"),
    ("het wachtwoord is tulpen", "tulpen"), ("my password is sunshine.", "sunshine"),
    ("Password: letmein", "letmein"), ("password: hunter", "hunter"),
    ("the wifi password is Marmalade! Ask me if it fails.", "Marmalade"),
    ("The passphrase is: purple monkey dishwasher", "purple monkey dishwasher"),
    ("pass phrase: velvet lantern", "velvet lantern"), ("our shared login is ops / summer", "summer"),
    ("the password for the router is the same as the SSID plus 2024: AcmeNet2024", "AcmeNet2024"),
    ("SMTP: smtp.acme.com, user alerts@acme.com, pass Mailer2024!", "Mailer2024"),
    ("SMTP user alerts@acme.com pass Mailer2024!", "Mailer2024"), ("user alice pass letmein", "letmein"),
    ("login ops / password Mailer2024", "Mailer2024"), ("username: ops password: Mailer2024", "Mailer2024"),
    ("u: ops p: Mailer2024", "Mailer2024"), ("user: deploy, pwd: Kestrel2024", "Kestrel2024"),
    ("account ci-bot pw Mailer2024", "Mailer2024"), ("le mot de passe est soleil42", "soleil42"),
    ("login admin pass hunter2", "hunter2"), ("user deploy, pass sunflower", "sunflower"),
    ("The password is correcthorsebatterystaple", "correcthorsebatterystaple"), ("the password is Hunter.", "Hunter"),
    ("The password is CorrectHorseBatteryStaple", "CorrectHorseBatteryStaple"),
    ("the password is Summer2024!", "Summer2024"),
    ("the password is monkey", "monkey"), ("DB_PASSWORD: McDonaldsRules", "McDonaldsRules"),
    # a chosen word of 3 to 5 letters (perhaps then digits), a noun the vocabulary holds with an adjective's ending
    ("the password is Paris", "Paris"), ("the password is tulip.", "tulip"), ("the password is kiwi7", "kiwi7"),
    ("Password: tulip", "tulip"), ("the wifi password is blue!", "blue"), ("Das Passwort ist Tulpe", "Tulpe"),
    ("the password is lightning", "lightning"), ("the password is darling.", "darling"),
    ("the password is king", "king"), ("my password is spring", "spring"),
    # Polish "to" is a verb after its word for password ("hasło to X"), English "to" is not ("set to expire")
    ("hasło to sunflower", "sunflower"), ("hasło to słonecznik", "słonecznik"),
    ("hasło do serwera to tulipan", "tulipan"), ("haslo to kiwi", "kiwi"),
    ("the password is going to be kiwi.", "kiwi"), ("the new password is going to be Tr0ub4dor3x", "Tr0ub4dor3x"),
    # Cyrillic and Greek words after ":", a dash or a verb, where the table holds the language's predicate words
    ("пароль: ромашка", "ромашка"), ("пароль — ромашка", "ромашка"), ("Пароль: ромашка.", "ромашка"),
    ("мой пароль: подсолнух", "подсолнух"), ("пароль є ромашка", "ромашка"), ("паролата е лайка", "лайка"),
    ("ο κωδικός είναι ηλιοτρόπιο", "ηλιοτρόπιο"), ("κωδικός: ηλιοτρόπιο", "ηλιοτρόπιο"),
    ("the password — letmein", "letmein"),
]
# Placeholders and defaults, where a password is kept, names of products and descriptions (the older tests' cases):
# stored after "is" and ":" alike.
NOT_CHOSEN = [
    "changeme", "ChangeMeNow", "password", "YourPasswordHere", "yourpassword", "mypassword", "placeholder", "secret",
    "REDACTED", "default", "none", "empty", "blank", "unset", "undefined", "administrator", "refreshToken", "apiKey",
    "PostgreSQL", "JavaScript", "GitHubActions", "XMLHttpRequest", "OpenTelemetry", "Bitwarden", "Kubernetes", "strict",
    "required", "rotated",
]
PLACED = [
    "password: <password>", "password: xxx", "password: ***", "password: TODO", "password: op://Prod/db/password",
    "password: vault:secret/db#password", "password: $DB_PASS", "password: %DB_PASSWORD%",
    "the password is in 1Password", "the password is in the vault", "the password is stored in PostgreSQL",
    "password: https://vault.example.com/db", "password: /run/secrets/db_password",
    "the password is the same as staging", "the password is rotated monthly",
    "the password policy is strict", "the password is strict", "the password is 12 characters long",
    "password: !!str changeme", "the root password on staging is changeme",
]
STORED = [
    "The password is required", "the password is wrong again", "Das Passwort ist falsch",
    "le mot de passe est incorrect",
    "my password is long", "the pass is closed for winter", "the mountain pass is Stelvio",
    "user research pass completed", "my password is the name of my dog", "The password is compromised.",
    "the password is missing.", "the password was set to expire.", "Password: Rotation Policy",
    "Password: not required",
    "the password is expired", "la contraseña es incorrecta", "Login: Google / GitHub", "password = prompt",
    "The password is in the vault.", "the password is different.", "Password: required", "the password is encrypted",
    "the password is useless.", "the password is annoying", "the password is obvious.", "the password is guessable.",
    "the password is unchanged.", "My password is forgotten.", "the password is hashed", "the password is plaintext.",
    "the password is mandatory.", "the password is optional.", "the password is temporary", "the password is secure.",
    "the password is stored in Bitwarden", "Password: Bitwarden", "the password is something else",
    "the password is correct, the user is wrong", "Das Passwort ist abgelaufen.", "Das Passwort ist geändert.",
    "le mot de passe est obligatoire.", "le mot de passe est expiré", "la contraseña es obligatoria",
    "a senha é obrigatória.", "a senha está errada", "het wachtwoord is verlopen", "het wachtwoord is ongeldig.",
    "la password è sbagliata", "la password è scaduta.", "the password policy is strict", "the password is\nrequired",
    "password hint: sunshine", "user testing pass rate improved", "the user list passes review",
    "user alice passed the exam", "the password is the same as the username", "logins: daily / weekly",
    # short words saying something, defaults, settings, counts
    "the password is admin", "the password is root", "the password is guest", "the password is none",
    "the password is empty", "the password is 1234", "the password is fine.", "the password is good.",
    "the password is here.", "the password is this.", "the password is what?", "the password is true",
    "the password is set.", "the password is weak.", "the password is gone.", "the password is mine.",
    "the password is new.", "the password is old.", "password: foo", "password: TBD", "the password is 2fa",
    "the password is working", "the password is amazing", "the password is missing", "the password is expiring",
    "hasło to nowe.", "hasło to tajne", "hasło jest wymagane", "the password was set to expire.",
    "password: ditto", "Password: TBA", "password: blah", "the password is cool.", "the password is free.",
    "the password is SSO.", "the password is USB.",
    "пароль: неверный", "пароль: обязателен", "Пароль — новый.", "пароль: изменён", "пароль: устарел",
    "пароль є неправильний", "паролата е грешна", "паролата е нова.", "ο κωδικός είναι λάθος",
    "ο κωδικός είναι αλλαγμένος", "ο κωδικός είναι λανθασμένος.", "ο κωδικός είναι σωστός",
    "the password — rotated monthly", "Password — Bitwarden",
]


# An environment or configuration line: an upper-case name ending in a word for a credential, "=" or ":", a plain word
# ending the line (perhaps before a comment); after "=", whatever follows (test_secret_plain_trailing.py).
ASSIGNED = [
    ("DB_PASSWORD=sunshine", "sunshine"), ("SMTP_PASS=letmein", "letmein"),
    ("export ADMIN_PASSWORD=sonnenblume", "sonnenblume"), ("POSTGRES_PASSWORD: tulips", "tulips"),
    ("services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: tulips\n", "tulips"),
    ("REDIS_PASSWORD=kiwi7", "kiwi7"), ("JWT_SECRET=marmalade", "marmalade"), ("DB_PASS=tulip # prod", "tulip"),
    ("MYSQL_ROOT_PASSWORD=Paris", "Paris"), ("API_TOKEN: Xk29slQpz1Vb", "Xk29slQpz1Vb"),
]
# Code passing or assigning a variable, a reference, a setting's word, a placeholder or default, a name saying
# something about a password.
ASSIGNED_STORED = [
    "password=hunter", "connect(password=pw)", "password=password", "password = get_password()",
    'password=os.environ["X"]', "PASSWORD=$DB_PASS", "PASSWORD=${DB_PASS}", "DB_PASSWORD = config",
    "f(DB_PASSWORD=sunshine)", "ALLOW_EMPTY_PASSWORD=yes", "MYSQL_ALLOW_EMPTY_PASSWORD=true", "PASSWORD_HASHER=bcrypt",
    "DB_PASSWORD=changeme", "DB_PASSWORD_FILE=/run/secrets/db", "DB_PASSWORD=%DB_PASSWORD%", "SESSION_TOKEN=none",
    "CACHE_KEY=users", "SORT_KEY=name", "TOKEN_TTL=1h30m", "POSTGRES_PASSWORD=postgres", "DB_PASSWORD=",
    "API_KEY=empty", "password: op://Prod/db/password", "echo $PASS | sudo -S ls", "echo $DB_PASSWORD: ready",
]


@pytest.mark.parametrize(("text", "value"), ASSIGNED)
def test_a_plain_word_assigned_in_an_environment_line_is_refused_and_redacted(text: str, value: str) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(f"before\n{text}\nafter")
    assert value not in redacted and kinds and redacted.startswith("before\n") and redacted.endswith("\nafter")
    assert text.replace(value, "").rstrip(" #prod\n") in redacted  # the name stays: only its value is replaced


@pytest.mark.parametrize("text", ASSIGNED_STORED)
def test_a_variable_a_reference_or_a_setting_assigned_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.parametrize(("text", "value"), REFUSED)
def test_a_plain_word_password_or_a_users_pass_is_refused_and_redacted(text: str, value: str) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(f"before\n{text}\nafter")
    assert value not in redacted and kinds and redacted.startswith("before\n") and redacted.endswith("\nafter")


@pytest.mark.parametrize("text", STORED)
def test_a_word_about_the_password_or_prose_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.parametrize("word", NOT_CHOSEN)
@pytest.mark.parametrize("shape", ["the password is {w}", "Password: {w}", "the admin password is {w}."])
def test_a_placeholder_a_products_name_or_a_description_is_stored(shape: str, word: str) -> None:
    text = shape.format(w=word)
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


# A clause after the word ends it as a sentence does (verify 61 N2: "the VPN password is bluemoon, don't share it").
CLAUSES = [", don't share it", "; rotate it monthly", ", ask Bob if you forget", ", then change it"]


@pytest.mark.parametrize("clause", CLAUSES)
@pytest.mark.parametrize("word", ["bluemoon", "letmein", "sonnenblume", "sunflower2", "correcthorsebatterystaple"])
def test_a_plain_word_password_before_a_clause_is_refused_and_redacted(clause: str, word: str) -> None:
    text = f"The VPN password is {word}{clause}"
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert word not in redacted and kinds and redacted.endswith(clause)


@pytest.mark.parametrize("clause", CLAUSES)
@pytest.mark.parametrize("word", NOT_CHOSEN[::3])
def test_a_placeholder_or_a_description_before_a_clause_is_stored(clause: str, word: str) -> None:
    text = f"The VPN password is {word}{clause}"
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.parametrize("text", PLACED)
def test_where_a_password_is_kept_or_what_it_is_like_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


def _plain(regex: str) -> list[str]:
    return [word for alternative in alternatives(regex) for word in expansions(alternative)[:1]
            if word.isalpha() and len(word) >= 6]


# Each language with a word for password, a verb and predicate words: "<word> <verb> <predicate>." is stored,
# "<word> <verb> <a made-up word>." refused.
_ROWS = tsv_rows("secret_words.tsv")
GRAMMARS = sorted({(lang, _plain(pw)[0], alternatives(verbs)[0])
                   for lang, role, pw, *_ in _ROWS if role in ("password", "password-tail") and _plain(pw)
                   for lang2, role2, verbs, *_ in _ROWS if lang2 == lang and role2 == "verb"
                   and alternatives(verbs)[0].isalpha()})
PREDICATES = [(lang, pw, verb, word) for lang, pw, verb in GRAMMARS
              for l2, role, regex, *_ in _ROWS if l2 == lang and role == "predicate" for word in _plain(regex)[:6]]


# A short one (3 to 5 letters: "lykilorðið er gott", "Das Passwort ist gut") too, now that a short word is judged.
SHORT_PREDICATES = [(lang, pw, verb, word) for lang, pw, verb in GRAMMARS
                    for l2, role, regex, *_ in _ROWS if l2 == lang and role == "predicate"
                    for alternative in alternatives(regex) for word in expansions(alternative)[:1]
                    if word.isalpha() and 3 <= len(word) <= 5]


@pytest.mark.parametrize(("lang", "word", "verb", "predicate"), PREDICATES + SHORT_PREDICATES)
def test_each_languages_predicate_words_after_its_password_word_are_stored(lang: str, word: str, verb: str,
                                                                            predicate: str) -> None:
    text = f"{word} {verb} {predicate}."
    assert find_secrets(text) == [[]], text


@pytest.mark.parametrize(("lang", "word", "verb"), GRAMMARS)
def test_a_made_up_word_after_each_languages_password_word_and_verb_is_refused(lang: str, word: str, verb: str) -> None:
    text = f"{word} {verb} zorbaklint."
    assert find_secrets(text) != [[]] and "zorbaklint" not in redact(text)[0], text


@pytest.mark.contract
@pytest.mark.parametrize(("text", "value"), REFUSED[::4])
def test_remember_refuses_naming_the_kind_never_the_value_and_a_captured_turn_loses_it(store, text: str,
                                                                                       value: str) -> None:
    with pytest.raises(InvalidInput, match=r"looks like it contains a credential \((password|credential)") as refused:
        store.remember(tenant="t", scope="s", content=text)
    assert refused.value.field == "content" and value not in str(refused.value)
    assert store.scope_counts(tenant="t") == {}
    store.episodes.append(tenant="t", scope="s", session_id="plain-1", turns=[NewTurn("user", f"note\n{text}\nthanks")])
    [turn] = store.episodes.turns(tenant="t", session_id="plain-1")
    assert value not in turn.text and turn.text.startswith("note\n") and turn.text.endswith("\nthanks")


@pytest.mark.contract
def test_remember_stores_words_about_a_password(store) -> None:
    for text in STORED[:10]:
        assert store.remember(tenant="t", scope="s", content=text).created
