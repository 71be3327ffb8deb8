"""The named-credential detector: a credential after the word naming it, in prose of some 70
languages, command lines, code, configuration and markup (:class:`NamedCredentialDetector`; the list
shapes are ``secret_lists``'). It replaces detect-secrets' keyword plugin, whose patterns need
back-references RE2 cannot run.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from typing import Any

from .regex_cover import holding
from .secret_code import _VALUE, code_sources, code_values
from .secret_documents import PROPERTIES
from .secret_encoded import user_password
from .secret_kinds import named_kind
from .secret_lists import (
    CODE_RUN,
    LIST_NAMED,
    PAIR_LIST,
    VALUE_LIST,
    VALUE_RUN,
    codes,
    csv_secrets,
    csv_source,
    listed_secrets,
    listed_values,
    spaced_values,
    table_secrets,
    table_source,
)
from .secret_phrases import passphrase
from .secret_changes import ARROW, MODIFIER_AFTER, bridges, change_sources, old_value, verbless_change
from .secret_plain import CLAUSE_WORDS, plain_changed, plain_phrase, plain_word
from .secret_re2 import GRAMMAR_OPTIONS, OPTIONS, TABLE_OPTIONS, Detector, compile_linear
from .secret_tables import AFTER, languages_of, packaged_covers, tsv_rows, words
from .secret_values import is_value, named_value_kept

# A credential's value after its word (``secret_code._VALUE``) must hold a letter and a digit (:func:`is_value`), so
# "is rotated", "is 12 characters" and "is JWT-based" are not values. A shorter one, 3 to 5 letters or digits ("the
# password is Paris.", "DB_PASS=kiwi7"): only where it ends its clause, sentence or line (after a word for password
# the pattern says so, else "is going to be X" would stop at "going"), judged by ``secret_values.named_value_kept``.
_SHORT = r"[\pL\pN]{3,5}"
# What ends a short value's clause ("is kiwi, don't share it", "is tulip which nobody changed", "is kiwi (temp)"):
# ``secret_plain._CLAUSE_END``'s ends, which ``secret_plain.plain_password`` reads again.
_SHORT_END = (r"(?:[ \t]*(?:[.!?…,;()\[\]{}]|\r?\n|$)|[ \t]+(?:-{1,2}|[–—])(?:[ \t]|$)"
              f"|[ \\t]+(?:{CLAUSE_WORDS})(?:[^\\pL\\pN'’-]|$))")
# The same after a word for password written without spaces around it (Chinese, Japanese, ...):
# printable ASCII, so the sentence that goes on after it is not taken for the value. Case-sensitive:
# under (?i) the class would also leave out k and s (U+212A KELVIN SIGN folds to k, U+017F to s).
_ASCII_VALUE = r"(?-i:([^\s\"'`\x{80}-\x{10FFFF}]{5,}[^\s\"'`.,;:!?)\]\x{80}-\x{10FFFF}]))"
# The same holding no "/" or "\": no URL, path or secret store's reference (where a secret is kept).
_UNPLACED = r"[^\s\"'`/\\]{5,}[^\s\"'`/\\.,;:!?)\]]"
# A password after its user ("admin:X", "admin / X"): not a path or a URL's rest ("login: https://x/y2").
_PAIRED = r"[^\s\"'`/][^\s\"'`]{4,}[^\s\"'`.,;:!?)\]]"
# What digits after a word for password count when they are no password ("2024年", "8位", "4桁").
_COUNTERS = "年月日桁位個个回号號時时分秒件人字円元歳岁%"
# A value in quotes of any kind is a value whatever it holds ("correct horse battery staple").
_QUOTE = "[\"'`“‘«„‹「『]"
_QUOTED = _QUOTE + "(?P<whole>[^\n]{4,200}?)[\"'`”’“»›」』]"
# detect-secrets' keyword plugin's words (plugins/keyword.py DENYLIST), for quoted values.
_CODE_WORDS = (r"api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|private_?key"
               r"|client_?key|db_?pass|database_?pass|key_?pass|password|passwd|passphrase|pwd|secret|token"
               r"|contrase[ñn]a")
# An attribute naming a credential: key="DbPassword", name='api_key'.
_NAMED_ATTRIBUTE = f"\\b(?:key|name)[ \\t]*=[ \\t]*[\"'][^\"'\\n]*(?:{_CODE_WORDS})[^\"'\\n]*[\"']"
# Typing a password, what it does and where: "type", "enter", "key in"; "to unlock", "to log into"; "at the login
# prompt", "on the lock screen", "when prompted".
_TYPING = r"(?:type|enter|use|key[ \t]+in|input|put[ \t]+in|punch[ \t]+in)"
_UNLOCKING = (r"(?:unlock|log[ -]?(?:in|on)(?:to)?|login|sign[ -]?(?:in|on)(?:to)?|authenticate|get[ \t]+in(?:to)?"
              r"|access)")
_AT_PROMPT = (r"(?:at|on|in|into)[ \t]+(?:the|a|your|my|our)[ \t]+(?:[\pL-]+[ \t]+){0,2}?(?:login|log-?in|logon|sign-?in"
              r"|lock|unlock|password|passcode|boot|bios|disk|encryption)[ \t-]*(?:prompt|screen|page|box|field|window"
              r"|dialog)|when[ \t]+(?:prompted|asked)")
# What a lock's code opens (a code's value first: "4471 is the code to the front door", "the gate opens with 4471").
_LOCKS = (r"(?:door|gate|safe|locker|padlock|garage|lockbox|key[ ]?box|alarm|keypad|entrance|entry|building|apartment"
          r"|flat|house|shed|mailbox|vault)s?")
# The words of English prose that names a credential after its value.
_PROSE_WORDS = r"password|passphrase|passcode|passwd|pwd|api[ _-]?key|secret[ _-]?key|access[ _-]?token|token"


# Code that passes a user and a password to a call or a keyword named for authentication: ``auth=('alice', 'X')``,
# ``HTTPBasicAuth("alice", "X")``, ``new PasswordAuthentication("alice", "X".toCharArray())``, ``new
# NetworkCredential("alice", "X")``, ``Credentials.basic("alice", "X")``, ``smtp.login("me@x.org", "X")``. Two string
# literals: the second whatever it holds (as ``password = "X"``); a name then a literal: a literal holding a letter and
# a digit.
_STRING = r"""(?:"[^"\n]{0,100}"|'[^'\n]{0,100}'|`[^`\n]{0,100}`)"""
_AUTH_CALL = (r"(?i)(?:auth(?:entication|enticate|orization)?(?:token)?|credentials?(?:\.basic)?|creds|log_?in"
              r"|sign_?in)[\"']?"
              r"[ \t]*(?::|=>?)?[ \t]*(?:new[ \t]+[\w.$]+[ \t]*)?[(\[][ \t]*"
              f"(?:{_STRING}[ \\t]*,[ \\t]*[\"'`](?P<whole_auth>[^\"'`\\n]{{1,200}})"
              r"|[\w.$]+(?:\[[^\]\n]{0,40}\])?[ \t]*,[ \t]*[\"'`](?P<auth_value>[^\"'`\n]{4,200}))"
              r"[\"'`][ \t]*(?:[)\],]|\.\w)")
# Where one logs in, 1 to 4 words (after "to", "into", "for" ...: "log in to the router", "ssh into prod-db-01",
# "connect to https://admin.example.com", "the login for the staging Grafana"), none ending a clause.
_PLACE = r"(?:[ \t]+[^\s\"'`]*[^\s\"'`.,;:!?]){1,4}"
# Prose: "login with alice:X", "log in using alice / X", "sign in with the account bob:X", "log in to the router with
# admin:X"; after "/" (a service's pair, "sign in with Google/Microsoft365") only a value mixing cases and digits that
# is no word and digits.
_LOGIN_WITH = (f"(?i){AFTER}(?:(?:log(?:s|ged|ging)?[ -]?(?:in|on)|sign(?:s|ed|ing)?[ -]?(?:in|on)"
               r"|authenticat(?:e|es|ed|ing)|connect(?:s|ed|ing)?|ssh(?:ed|ing)?|access(?:es|ed|ing)?)(?:to)?"
               r"(?:(?:[ \t]+(?:to|into|onto|on|at|in|against))?" f"{_PLACE})?" r"[ \t]+(?:with|using|via|as)[ \t]+"
               r"(?:(?:the|my|your|our|this)[ \t]+)?(?:(?:credentials?|creds|account|user(?:name)?)[ \t]*:?[ \t]+)?"
               r"[\"'`]?[^\s:/\"'`]+[\"'`]?"
               f"(?::(?P<login_pair>{_PAIRED})|[ \\t]*/[ \\t]*(?P<spaced_login>{_PAIRED})"
               # "sign in with ci-bot and X", "connect to the db as app with X": a value that reads as typed
               # (``secret_values.named_value_kept``)
               f"|[ \\t]+(?:and|with|using)[ \\t]+{_QUOTE}?(?P<login_and>{_PAIRED}))"
               # "the Jenkins login is ci-bot with X", "the vpn account is ops with X", "the login for grafana: ops with
               # X"
               f"|(?:creds|credentials?|logins?|logons?|accounts?)(?:[ \\t]+(?:for|to|on|at|of|in){_PLACE})?"
               r"(?:[ \t]*[:=]|[ \t]+-|[ \t]+(?:are|is|were|was))?"
               f"[ \\t]+[\"']?[^\\s:/%\"']+[\"']?[ \\t]+with[ \\t]+{_QUOTE}?(?P<login_with>{_PAIRED}))")
# "Jenkins: ci-bot / X", "Staging DB: admin/X": a service's name, ":", a user, "/" and a value that reads as typed
# (with no space around "/", one holding a symbol: "Model: Qwen/Qwen2.5-7B" is a path).
_SERVICE_PAIR = (r"(?:^|[\r\n;,(:]|[.!?][ \t])[ \t]*(?:[\pL\pN_.-]+[ \t]+){0,2}[\pL\pN_.-]+[ \t]*:[ \t]*[\"'`]?"
                 f"[^\\s:/\"'`]+[\"'`]?[ \\t]*/[ \\t]*{_QUOTE}?(?P<service_pair>{_PAIRED})")


# The rest of a value joined to its word (after its first character): no sentence punctuation at its end.
_JOINED = r"[A-Za-z0-9!@#$%^&*+?~._-]{4,62}[A-Za-z0-9!@#$%^&*+~_-]"
# Where a word glued or joined to its value starts: at a word's start, not inside a base64 or base64url run, a path
# or a dotted name (no letter, digit, "+", "/", "=", ".", "\\", "_" or "-" before it), perhaps after words joined by
# "_" or "-" ("DB_PASSWORD_X"); and where its value ends: not inside such a run either (no letter, digit, "+", "/",
# "=", "_", "-", "(" or "[" after it, nor "." before one). A credential's word met by chance in random base64
# (".../wwIlgOeA71u+...", adv56 F1) stands inside its run.
_GLUED_START = r"(?:^|[^\pL\pN+/=.\\_-])(?:\pL+[_-])*"
_GLUED_END = r"(?:$|[^A-Za-z0-9+/=_.(\[-]|\.(?:$|[^A-Za-z0-9+/=_-]))"
_ENDS = r"[ \t]*(?:$|[,;)]|[.!?](?:[ \t]|$))"  # a value that ends its line, clause or sentence
# a value may start the next line, or the one after a blank line ("password:", then the value below)
_NEXT_LINE = r"(?:\r?\n[ \t]*){0,2}"
_KEY_SHAPED = r"[A-Za-z0-9/+_=.-]{24,}"  # a generated key's alphabet (base64, base64url, hex), 24 or more
# One or two bare words saying whose or which credential, between its word and ":" or " =" ("password root:", "API
# key prod =", "пароль администратора:", "mot de passe admin :"), each starting with a letter, after spaces (a tab
# separates a table's cells); only before ":" or " =", never a verb ("password hint is ..." stays prose) nor a
# flag's "id=" ("--secret id=npmrc2"); "key id:" and the like are judged by ``secret_values``.
_QUALIFIER = r"(?: +\pL[\pL\pN_.@-]{0,29}){1,2}(?: *:=? *| +=)"


@functools.cache
def key_words() -> str:
    """The words for a key or token (``key`` and ``token`` in ``secret_words.tsv``) and a service's name (``provider``)
    before key, secret or token, "api" perhaps between: "the Stripe key", "OpenAI API key", "GitHub token"."""
    return f"{words('key')}|{words('token')}|(?:{words('provider')})[ _-]?(?:api[ _-]?)?(?:keys?|secret|token)"


@functools.cache
def _languages() -> tuple[str, ...]:
    """The languages of ``secret_words.tsv``, in its order."""
    return tuple(dict.fromkeys(lang for lang, *_ in tsv_rows("secret_words.tsv")))


# Verbs of other languages that are English words a credential's word is followed by in English prose ("the password
# on Server2024"): not read after a borrowed English word.
ENGLISH_HOMOGRAPHS = frozenset({"on"})


@functools.cache
def _loan_verbs() -> str:
    """The verbs of every language but English (``secret_words.tsv``), as one alternation, less those written as an
    English word (``ENGLISH_HOMOGRAPHS``): what may follow a borrowed English word for password."""
    kept = [alternative for lang in _languages() if lang != "en" for alternative in alternatives(words("verb", lang))
            if alternative and alternative not in ENGLISH_HOMOGRAPHS]
    return "|".join(dict.fromkeys(kept))


def alternatives(regex: str) -> list[str]:
    """The top-level alternatives of ``regex`` (``a|b(?:c|d)`` gives ``a`` and ``b(?:c|d)``), unwrapped from the
    ``(?:...)`` groups :func:`words` puts around each row."""
    out, depth, start = [], 0, 0
    for at, char in enumerate(regex):
        escaped = at and regex[at - 1] == "\\"
        depth += (char == "(" and not escaped) - (char == ")" and not escaped)
        if char == "|" and depth == 0:
            out.append(regex[start:at])
            start = at + 1
    out.append(regex[start:])
    flat: list[str] = []
    for part in out:
        inner = part[3:-1] if part.startswith("(?:") and part.endswith(")") and _alternatives_closed(part) else None
        flat += alternatives(inner) if inner is not None else [part]
    return flat


def _alternatives_closed(part: str) -> bool:
    """Whether the ``(`` opening ``part`` closes at its last character."""
    depth = 0
    for at, char in enumerate(part):
        escaped = at and part[at - 1] == "\\"
        depth += (char == "(" and not escaped) - (char == ")" and not escaped)
        if depth == 0 and at < len(part) - 1:
            return False
    return True


def _clause(stops: str) -> str:
    """A character of an aside between commas or dashes: none of ``stops`` (a character class's body), no line break
    and no sentence's end (". ", "! "), so that its own punctuation bounds it, whatever its length ("as of release
    3.2" keeps its ".")."""
    return f"(?:[^{stops}.!?\\n]|[.!?]+[^{stops}.!?\\s])"


@functools.cache
def said(role: str, language: str | None = None) -> str:
    """The grammar of a credential named in prose (``secret_words.tsv``): a word of ``role``, perhaps
    a possessive or a label of the old or new value after it ("parola mea", "password nuevo"), perhaps a phrase
    saying whose (a preposition or a relative word, "that", "we", "used", and up to twelve words), then perhaps
    asides in brackets, between commas or between dashes, each as long as its clause (:func:`_clause`: "password
    for the NAS (ask Tom) is X", "password, as of Monday, (prod) is X") or a note after a comma ("password, prod:
    X"), then a verb (perhaps then an adverb, "is currently", or ``:``; English's "was changed to", "will be", "has
    been reset to"), ``'s``, ``'ll be`` (not after a word for a key: "the token's scope2 field"), or ``:``, ``=``,
    ``:=``, an arrow, a dash (after a verb, ``:`` or ``=``, the value may start the next line); the prepositions
    and verbs of English and of the languages that have a word of ``role`` (of ``language`` alone when given)."""
    langs = dict.fromkeys(["en", *languages_of(role)])
    if language is not None:
        langs = {language: None}
    whose, verb = ("|".join(filter(None, (words(r, lang) for lang in langs))) for r in ("whose", "verb"))
    # English's words are borrowed ("Ang password ay X", "password adalah X", "password jest X"): after them the
    # verb and the unmarked possessor of every language (``_loan_verbs``)
    loan = role in ("password-strict", "password-typo") and language is None
    if loan:
        verb = f"{verb}|{_loan_verbs()}"
        whose = "|".join(dict.fromkeys(filter(None, (words("whose", lang) for lang in _languages()))))
    # a change's verb and its word for the new value ("was changed from X to", "a été changé en": ``secret_changes``)
    changes = bridges(None if loan else tuple(langs))
    # (first: "was changed to X", not "was" and X), perhaps after ":" or a dash ("password: changed from X --> Y",
    # "password - old: X, new: Y"); with no verb, an old value and an arrow, a left arrow or labels ("pw: X → Y",
    # "password ← Y", "password: old X, new Y": ``verbless_change``)
    # where a noun's modifier follows it, one word naming whose before the change ("mot de passe wifi changé de X à
    # Y"; English's is a qualifier: "password hint changed: X → Y")
    after = bridges(tuple(lang for lang in MODIFIER_AFTER if loan or lang in langs))
    verb = ((f"(?:[ \\t]*[:—–][ \\t]*|[ \\t]+(?:-[ \\t]+)?)(?:{changes})|" if changes else "")
            + (f"[ \\t]+[^\\s:=,;.!?()\\[\\]]+[ \\t]+(?:{after})|" if after else "")
            + f"[ \\t]+(?:{verb})|{verbless_change()}")
    # between the word and the verb: "for the NAS", "that Tom set last week", then perhaps "(ask Tom if it stops
    # working)", ", which I changed yesterday,", " — the one Bob set —" or ", prod"
    phrase = f"[ \\t]+(?:{whose})(?:[ \\t]+|['’])[^\\s:=]+(?:[ \\t]+[^\\s:=]+){{0,11}}?"
    inserted = (r"[ \t]*[(\[][^()\[\]\n]+[)\]]"
                f"|[ \\t]*,[ \\t]*[^\\s,:=()\\[\\]]{_clause(',:=')}*?,"
                f"|[ \\t]+(?:[—–]|--)[ \\t]*{_clause('—–')}+?[ \\t]*(?:[—–]|--)"
                r"|[ \t]*,[ \t]*[^\s,:=()\[\]][^,:=\n]{0,30}?")
    # an adverb between the verb and the value ("is currently X", "is actually X"; the ``adverb`` rows)
    adverb = "|".join(filter(None, (words("adverb", lang) for lang in langs)))
    adverb = f"(?:[ \\t]+(?:{adverb}))?" if adverb else ""
    # "my password's X", "the password's been changed to X", "the password'll be X"; not after a word for a key: "the
    # token's scope2 field"
    owned = (f"|['’](?:s|(?:s|ve|d)[ \\t]+been|(?:ll|d)[ \\t]+be)(?:[ \\t]+(?:{bridges(('en',))}))?{adverb}[ \\t]+"
             if role != "key" else "")
    named = key_words() if role == "key" else words(role, language)
    # a possessive after the word, before what may follow it ("parola mea pentru router este X", "passordet mitt er X")
    mine = "|".join(filter(None, (words("possessive", lang) for lang in langs))) if role != "key" else ""
    if mine:
        named = f"(?:{named})(?:[ \\t]+(?:{mine}))?"
    # Languages whose possessor follows the noun unmarked ("kata sandi server adalah X", "mật khẩu máy chủ là
    # X"): their ``owner`` words between the word and the verb, perhaps then a possessive of the owner ("parola
    # contului meu este X").
    owning = _languages() if loan else langs
    # a label of the old or the new value after the word ("El password nuevo de la base es X", ``change-old`` and
    # ``change-new`` rows)
    aged = "|".join(filter(None, (words(r, lang) for lang in owning for r in ("change-old", "change-new"))))
    # (lazy: "password old: X new: Y" is a change; apart from the word, whose spellings the prefilter reads)
    aged = f"(?:[ \\t]+(?:{aged}))??" if aged and role != "key" else ""
    bare = "|".join(f"(?:{words(role, lang) or words(role)})[ \\t]+(?:{words('owner', lang)})[ \\t]+"
                    + (f"(?:(?:{words('possessive', lang)})[ \\t]+)?" if words("possessive", lang) else "")
                    + f"(?:{words('verb', lang)})[ \\t]+"
                    for lang in owning if role != "key" and words("owner", lang) and (loan or words(role, lang)))
    return (f"(?:{bare}|" if bare else "(?:") + (f"(?:{named}){aged}(?:(?:{phrase})?(?:{inserted})*"
            f"(?:(?:{verb}){adverb}"
            f"(?:[ \\t]*[:=][ \\t]*{_NEXT_LINE}|[ \\t]*\\r?\\n[ \\t]*|[ \\t]+){owned}"
            f"|[ \\t]*(?::=|{ARROW}|[:=—–])[ \\t]*{_NEXT_LINE}|[ \\t]+--?[ \\t]+)"
            f"|{_QUALIFIER}[ \\t]*{_NEXT_LINE}))")


class NamedCredentialDetector(Detector):
    """A credential after the word naming it:

    - prose, in English and some 70 other languages and scripts (``secret_words.tsv``, :func:`said`):
      the word (password, pwd, API key, token, Passwort, пароль, a compound such as Serverpasswort),
      perhaps "(prod)" or a phrase saying whose, then its verb, ``:``, ``=`` or a dash and the
      value: "my password is hunter2", "the staging DB password for admin is Xk29slQpz",
      "Passwort für den Server lautet Zq81kk", "password (prod) = Zq81kk", "密码是Zq81kk". After only
      a space: a value after the word for password in other languages ("мой пароль Zq81kk"), one
      mixing cases and digits after an English one ("root password Zq81kkLm", not "password
      sha256"), a key-like one of 20 characters or more ("AWS secret access key wJalrXUtnF...").
      A value holds a letter and a digit (after a word written without spaces, printable ASCII),
      or is quoted after a word for password; a word that qualifies another noun ("password
      hint", "token budget") is not followed by a value;
    - a PIN (``pin`` words, a safe's combination among them): "card PIN: 4821", "PIN ist 4821", 4 to 8 digits or
      3 to 5 groups parted by dashes, dots or spaces ("the safe combination is 12-34-56", "the safe code is 7 3 9 1"); 6 digits or more after
      the prose grammar ("my password is 19871203"), 4 to 12 after a word written without spaces
      ("暗証番号は4821です", not "2024年");
    - the word alone on its line, the value alone on the next ("Password", then "Xk29slQpz");
    - command lines: ``mysql -pX``, ``sshpass -p X``, ``docker login -p X``, ``redis-cli -a X``,
      ``--password X`` (``--db-password=X``), ``curl -u user:X``, ``-pass pass:X``, ``zip -P X``,
      ``7z -pX``, ``smbclient -U user%X``, ``net user NAME X``, ``htpasswd -b FILE USER X``,
      ``echo X | sudo -S``, ``ldapsearch -w X``, ``xfreerdp /p:X``, and a ``.pgpass`` line;
    - markup (``<password>X</password>``, not a plain word), a .NET ``<add key="…Password"
      value="X"/>``, ``pass: X``, ``creds: user:X``, ``login: user / X``, "login with user:X";
    - everyday phrasings: a value glued to its word ("mypasswordisX", mixed cases and digits) or joined to any word for a
      credential by one punctuation or nothing ("password-X", "DB_PASSWORD_X", "token.X"), after a question
      ("the db's password? it's X"), spelled one character at a time ("password: Z k 9 x 2 m"), after a Wi-Fi
      network and "/" ("WiFi: ACME-Guest / X") or a user and "and" ("creds are admin and X"); a typed value (mixed
      cases and digits, mostly no words) after "pass is" ("my pass is X"), a login word, perhaps a place, a user and
      "with" or "and" ("log in to the router with ci-bot and X", "the vpn account is ops with X"), a service's name,
      a user and "/" ("Jenkins: ci-bot / X") or "takes";
    - lists: user/secret pairs under a header ("Logins", "password list:"), a Markdown table's rows
      under a head naming a password column (``| user | pass |``), several values after a plural
      word ("the passwords are X, Y and Z"), one-time codes after their name ("recovery codes: X Y"), each
      taken whole;
    - code passing a user and a password to a call or keyword for authentication (``auth=("u", "X")``,
      ``HTTPBasicAuth("u", "X")``), and ``-p'X'`` / ``-u USER -pX`` without a command's name;
    - ``.env`` and shell lines: an upper-case name holding PASSWORD, PASS, PWD, SECRET, TOKEN,
      API_KEY, ACCESS_KEY or PRIVATE_KEY, ``=`` or ``:``, the value (a letter and a digit);
    - code and command lines (``secret_code``): SQL's ``IDENTIFIED BY 'X'`` and ``PASSWORD 'X'``, ``config
      set`` of a credential's name, a flag named for one (``-Password X``), a value piped to
      ``--password-stdin``, a DSN's ``user:X@host``, ``getConnection(url, "u", "X")``, ``setPassword("X")``,
      ``put-parameter --name /db/password --value X``, ``INSERT INTO users (name, password) VALUES (...)``,
      ``admin:X`` with X shaped like a password;
      a credential's name as an identifier (``pass_word``, ``dbPassword``, ``rootpw``, ``pwd2``) and
      ``p`` beside a user key;
    - HTTP ``Authorization: Bearer <token>`` (RFC 6750 section 2.1), 16 characters or more with a
      digit, and a ``.netrc`` entry's password;
    - whole, whatever the value: ``Authorization: Basic <base64>`` (RFC 7617; without the colon,
      a value that is not a plain word), a Docker ``config.json`` ``"auth": "<base64>"`` (after any ``auth`` and
      without its closing quote, base64 of ``user:password``: ``secret_encoded.user_password``), and
      code and configuration: a name holding one of detect-secrets' keyword plugin's words, an
      assignment or comparison and a quoted value (``password = "bar"``, ``"api_key": "..."``).

    Refusals name what was found by its word (:func:`named_kind`), never by this type.
    """

    secret_type = "Named credential"

    def __init__(self) -> None:
        self._names: dict[str, dict[int, str]] = {}  # each pattern's group names by number, read when it matches

    @property
    def denylist(self) -> list[Any]:  # type: ignore[override]  # built from the word table, not a class constant
        return _named_patterns()

    def patterns(self, text: str) -> list[Any]:
        """The patterns that can match in ``text``, in order: those whose cover (``regex_cover``, the
        words naming a credential and what may follow them) ``text`` casefolded holds, compiled when first
        needed. A pattern left out matches nowhere in ``text``, so the others find the same values
        (docs/hooks.md#speed)."""
        return [named_pattern(i) for i in needed(text)]

    def values(self, match: Any) -> Iterator[tuple[str | None, str]]:
        """The value of a match (labelled by ``secret_kinds.named_kind``): a ``whole`` group's as it is, a
        list's when one of its secrets is a value (``secret_lists``), another's when it is a credential
        (``secret_values.named_value_kept``); a URL query's parameter's to its ``&`` or ``#``
        (:func:`query_value`)."""
        for kind, value in self._values(match):
            cut = query_value(match.string, match.start() + match.group(0).find(value), value)
            if cut == value or is_value(cut):  # what the next parameter held made it a value: it is none
                yield kind, cut

    @staticmethod
    def _old(match: Any) -> Iterator[tuple[str | None, str]]:
        """The old value of a change whose new value ``match`` found ("changed from X to Y"), when it is one."""
        old = old_value(match.string, match.start(), match.start(match.lastindex))
        if old is not None and (is_value(old) or plain_changed(old)):
            yield None, old

    def _values(self, match: Any) -> Iterator[tuple[str | None, str]]:
        value = match.group(match.lastindex)  # no group holds another: the last is the one that matched
        names = self._names.get(match.re.pattern)
        if names is None:
            names = self._names[match.re.pattern] = {i: name for name, i in match.re.groupindex.items()}
        name = names.get(match.lastindex, "")
        if name.startswith("code_"):  # code and command lines (``secret_code``)
            yield from code_values(name, value, match)
            return
        if name.startswith("whole"):
            if name == "whole":  # "changed from 'X' to 'Y'": X is a password too (``secret_changes.old_value``)
                yield from self._old(match)
            # a pair's second: its password; a lock's code before its words, or after "opens with": a PIN
            yield {"whole_auth": "password", "whole_first": "PIN", "whole_opens": "PIN"}.get(name), value
            return
        if name == "encoded_pair":  # named by what it is, HTTP Basic's credential (RFC 7617)
            if user_password(value):
                yield "Basic authentication credential", value
            return
        if name == "pair_list":  # taken whole when one of its secrets is a value; named by its header
            if listed_secrets(value):
                before = match.string[match.start():match.start(match.lastindex)]
                yield (named_kind(before) if "\n" in before else None), value
            return
        if name in ("table_rows", "csv_rows", "value_list", "value_run", "recovery_codes"):  # whole when one's a value
            before = match.string[match.start():match.start(match.lastindex)]
            judged = {"table_rows": table_secrets, "csv_rows": csv_secrets}.get(name)
            listed = {"value_run": spaced_values, "recovery_codes": codes}.get(name, listed_values)
            if judged(before.split("\n", 1)[0], value) if judged else listed(value):
                yield named_kind(before), value
            return
        if name == "phrase":  # four words or more; two to five after ":" or "passphrase" (``secret_plain``)
            at = match.start(match.lastindex)
            if (passphrase(value) or plain_phrase(value, match.string, match.start(), at)) \
                    and not _HASHED_BEFORE.search(match.string, match.start(), at):
                yield named_kind(match.string[match.start():at]), value
            return
        if name == "pair" and LIST_NAMED.match(match.string, match.start(), match.start(match.lastindex)):
            return  # "login list: alice:2024-01-03" is a list's first pair, judged as a list's (``PAIR_LIST``)
        at = match.start(match.lastindex)
        if name == "spelled":  # one character at a time: the characters joined are the value
            if is_value(value.replace(" ", "")):
                yield "password", value
            return
        if name.startswith("said"):  # "changed from X to Y": X is a password too (``secret_changes.old_value``)
            yield from self._old(match)
        if named_value_kept(name, value, match.string, match.start(), at):
            before = match.string[match.start():at]  # its word on the line above: named from there
            paired = name.startswith(("cmd", "auth", "login", "typo", "spaced_login", "spaced_use", "wifi", "glued", "asked",
                                      "pair", "pass_said", "service_pair", "takes", "user_pass"))  # by where it stands
            joined = name in ("glued_joined", "glued_bare")  # after any word for a credential: named by it
            paired = paired or name == "said_changed"  # (after a word for password: ``secret_changes``)
            kind = named_kind(before) if joined else "password" if paired else named_kind(before) if "\n" in before else None
            # a note in brackets against it is no part of it ("letmein(temporary)", ``secret_plain.plain_word``)
            yield kind, plain_word(value, match.string, at) if name.startswith("said") else value


# A hash's name before a passphrase's words: they describe how it is kept ("password hash is bcrypt with cost twelve").
_HASHED_BEFORE = re.compile(r"(?i)hash|digest|sha|md5|bcrypt|argon|scrypt|pbkdf")


# Where a URL query's parameter's value ends: the next parameter, the fragment (RFC 3986 section 3.4).
_QUERY_END = re.compile(r"[&#]")
# The next parameter of a query written without its "?" ("token=X&page=2"): "&", a name and "=".
NEXT_PARAMETER = re.compile(r"&[A-Za-z_][\w.-]{0,63}=")
_MARKER = re.compile(r"\[[^\[\]\n]{1,80}\]")  # a redaction's marker ("[access token]"; "[-----]" read again)


def query_value(text: str, at: int, value: str) -> str:
    """``value``, found at ``at`` of ``text``, cut at its first ``&`` or ``#`` when it is the value of a URL
    query's parameter ("?access_token=X&x=1": X), or at a next parameter ("&page=") after any ``name=`` when
    what comes before it is a value (``is_value``; "token=X&page=2": X) or a redaction's marker, else as it is.
    Reads at most 64 characters before it."""
    if at < 2 or text[at - 1] != "=" or not _QUERY_END.search(value):
        return value
    name = at - 1
    while name > max(0, at - 65) and (text[name - 1].isalnum() or text[name - 1] in "_.-"):
        name -= 1
    if name == 0 or text[name - 1] not in "?&;":
        # only to a value ("Ab&cd=1234" may be one password) or a marker a redaction left ("[------]")
        following = NEXT_PARAMETER.search(value)
        cut = value if following is None else value[:following.start()]
        return cut if is_value(cut) or _MARKER.fullmatch(cut) else value
    return value[:_QUERY_END.search(value).start()]  # type: ignore[union-attr]


def needed(text: str) -> list[int]:
    """The numbers of the patterns that can match in ``text`` (:meth:`NamedCredentialDetector.patterns`),
    in order, none compiled."""
    return sorted(holding(text.casefold(), _named_covers()))


def _named_patterns() -> list[Any]:
    """:class:`NamedCredentialDetector`'s patterns, each compiled once; a group's name says how its value is
    checked (:meth:`NamedCredentialDetector.values`)."""
    return [named_pattern(i) for i in range(len(named_sources()))]


# A source longer than this compiles to a program whose DFA outgrows RE2's default 8 MiB (the Wi-Fi passphrase's
# and the PIN's counted groups, the glued words' reverse DFA): without room RE2 runs its NFA on every search.
LONG_SOURCE_CHARS = 2000
# A source longer than this (the misspelled words' grammar, 225,000 characters) outgrows 32 MiB too, as the prose
# grammar does from its 20,000 characters of words (``secret_re2.GRAMMAR_OPTIONS``).
GRAMMAR_SOURCE_CHARS = 100_000


# One compile at a time: RE2 holds the GIL while it compiles, so a check needing the program the warm-up compiles
# (``secret_warm``) would only compile it again after it (a second's wait doubled); it waits for that compile
# instead and takes its result.
_COMPILING = threading.Lock()


def named_pattern(number: int) -> Any:
    """The compiled RE2 pattern of ``named_sources()[number]``, built once (compiling the largest takes
    seconds: ``secret_warm`` builds them at server start)."""
    with _COMPILING:
        return _compiled(number)


@functools.cache
def _compiled(number: int) -> Any:
    # the prose grammar's pattern (the first) needs the most (``secret_re2.GRAMMAR_OPTIONS``); test_secret_scan.py
    # asserts that no pattern runs out of DFA memory
    source = named_sources()[number]
    options = GRAMMAR_OPTIONS if number == 0 or len(source) > GRAMMAR_SOURCE_CHARS \
        else TABLE_OPTIONS if len(source) > LONG_SOURCE_CHARS else OPTIONS
    return compile_linear(source, options)


@functools.cache
def _named_covers() -> dict[str, Any]:
    return packaged_covers("named_credential_covers.json", named_sources())


@functools.cache
def named_sources() -> list[str]:
    """The sources of :class:`NamedCredentialDetector`'s patterns (for :func:`compile_linear`)."""
    named = f"{AFTER}(?:{said('password')}|{said('password-strict')})|{said('password-tail')}"
    spaced, key = f"{AFTER}(?:{words('password')})|{words('password-tail')}", r"[A-Za-z0-9/+_=.~-]{20,}"
    unspaced = f"(?:{words('password-unspaced')})(?:[ \\t]*(?:{words('verb-unspaced')}|[:=])[ \\t]*|[ \\t]+)?"
    # its value may start the next line after ":" ("パスワード:", then the value), as after "password:"
    unspaced_next = (f"(?:{words('password-unspaced')}|{words('key-unspaced')})(?:[ \\t]*(?:{words('verb-unspaced')}|[:=])[ \\t]*"
                     f"{_NEXT_LINE}|[ \\t]+)?")
    # whose, between the word and its verb ("รหัสผ่านของเซิร์ฟเวอร์คือ X"); the value before a verb ending the
    # sentence ("رمز عبور سرور X است")
    langs = dict.fromkeys(lang for lang, *_ in tsv_rows("secret_words.tsv"))
    unspaced_owned = "|".join(f"(?:{words('password-unspaced', lang)})[ \\t]*(?:{words('owner-unspaced', lang)})"
                              f"[ \\t]*(?:{words('verb-unspaced', lang)})[ \\t]*"
                              for lang in langs if words("owner-unspaced", lang))
    final = "|".join(f"(?:{words('password', lang)})[ \\t]+(?:{words('owner', lang)})[ \\t]+{_QUOTE}?({_VALUE})"
                     f"{_QUOTE}?[ \\t]+(?:{words('verb-final', lang)})" for lang in langs if words("verb-final", lang))
    # glued after a word or letters ("mypasswordisX", "Serverpasswort-X"); "pw", "pwd", "psk" (four letters or fewer)
    # open a base64 line by chance ("pw" and a capital one in some 2,000), so after "is", "/" or nothing only a longer word
    glued = f"\\pL*(?:pass(?:words?|wd|phrase|code)|{words('password-tail')})"
    long = f"pass(?:words?|wd|phrase|code)|{words('password-tail')}|{key_words()}"
    return [
        f"(?i)(?:{named})(?:{_QUOTED}|{_QUOTE}?(?:(?P<said>{_VALUE})|(?P<said_short>{_SHORT}){_SHORT_END}))"
        f"|(?:{spaced})(?:[ \\t]+(?:{words('possessive')}))?[ \\t]+{_QUOTE}?({_VALUE})"
        f"|{AFTER}(?:(?:{said('key')}){_QUOTE}?({_VALUE})"
        f"|(?:{key_words()}|{words('password-strict')})[ \\t]+({key})"
        f"|(?:{words('password-strict')})[ \\t]+(?P<mixed>{_VALUE})|{final})",
        f"(?i)(?:{unspaced_owned}|{unspaced_next}){_QUOTE}?{_ASCII_VALUE}",
        # a value shaped like a generated key after the plain word "key": "the key is \"vo/hBKq...\"", "use
        # key X to sign" (``secret_values.named_value_kept``: mixed cases and digits, no name)
        f"(?i){AFTER}key[\"']?(?:[ \\t]+(?:is|was)[ \\t]+|[ \\t]*[:=][ \\t]*|[ \\t]+){_QUOTE}?"
        f"(?P<keyshaped>{_KEY_SHAPED})",
        # a word for password misspelled ("pasword: X", "passwrod is X", ``secret_typos``), then its verb, ":" or only a
        # space: a value mixing cases and digits (``secret_values.named_value_kept``)
        f"(?i){AFTER}(?:(?:{said('password-typo')}){_QUOTE}?(?P<typo>{_VALUE})"
        f"|(?:{words('password-typo')})[ \\t]+{_QUOTE}?(?P<typo_spaced>{_VALUE}))",
        # digits after a word for password written without spaces ("暗証番号は4821です"), not a count of
        # something ("パスワードを2024年に変更", "密码至少8位")
        f"(?i){unspaced}(?P<whole>\\d{{4,12}})(?:[^\\pN{_COUNTERS}]|$)",
        # the word alone on its line, its value alone on the next ("Password", then "Xk29slQpz")
        f"(?i)^[ \\t]*(?:[\\w-]+[ \\t]+){{0,2}}"
        f"(?:{spaced}|{words('password-strict')}|{key_words()})[ \\t]*\\r?\\n"
        f"[ \\t]*{_QUOTE}?({_VALUE}){_QUOTE}?[ \\t]*$",
        # English prose with the value first: "Xk29slQpz is the root password", "use Xk29slQpz as my
        # password for staging"; and between commas: "the DB password, Xk29slQpz, rotates monthly"
        f"(?i)(?:^|[ \\t(])({_VALUE})[ \\t]+(?:is|was|as)[ \\t]+(?:(?:my|the|our|your|his|her|their"
        r"|a|an)[ \t]+)?(?:[\w-]+[ \t]+){0,3}?" f"(?:{_PROSE_WORDS})s?"
        r"(?:[ \t]*$|[ \t]*[.,;:!?)]|[ \t]+(?:for|of|on|to|in|at)\b)"
        f"|(?:{_PROSE_WORDS})[ \\t]*,[ \\t]*({_VALUE})[ \\t]*,",
        # a passphrase of words after its English word: "my gpg passphrase is correct horse battery staple" (ending
        # its line or sentence; ``secret_phrases.passphrase`` judges the words, against English prose)
        f"(?i){AFTER}(?:{said('password', 'en')}|{said('password-strict', 'en')})"
        r"(?P<phrase>[a-z]{2,12}(?:[ -][a-z]{2,12}){1,11})[ \t]*(?:[.!?;,)](?:[ \t]|$)|$)",
        f"(?i){AFTER}(?:{said('pin')}|(?:{words('pin')})[ \\t]+)[\"'`]?"
        # a combination's groups too ("12-34-56", "7 3 9 1"); no date ("2026-12-05")
        r"(?P<whole>\d{4,8}|\d{1,3}(?:[-. ]\d{1,3}){2,4})(?:[^\pL\pN./-]|[./-](?:[^\pN]|$)|$)"
        # the code first: "4471# is the code to the front door", "4471 is our gate code", "the gate opens with 4471"
        r"|(?:^|[^\pL\pN#./-])(?P<whole_first>\d{4,8})#?[ \t]+(?:is|was)[ \t]+(?:the|my|our|your)[ \t]+"
        r"(?:[\pL-]+[ \t]+){0,2}?" f"(?:{_LOCKS}[ \\t]+(?:code|combination|combo|pin)s?"
        f"|(?:code|combination|combo|pin)[ \\t]+(?:to|for)[ \\t]+(?:(?:the|my|our|your)[ \\t]+)?"
        f"(?:[\\pL-]+[ \\t]+){{0,2}}?{_LOCKS})(?:[^\\pL]|$)"
        f"|{AFTER}{_LOCKS}[ \\t]+(?:opens|unlocks|opened|unlocked)[ \\t]+(?:with|using|to)[ \\t]+(?:(?:the[ \\t]+)?code[ \\t]+)?"
        r"(?P<whole_opens>\d{4,8})(?:[^\pL\pN./-]|[./-](?:[^\pN]|$)|$)",
        # command lines: mysql's -ppassword, sshpass's and docker login's -p password, redis-cli's -a
        # password, --password password (--http-password, --db-password), curl's -u user:password
        r"(?i)(?:\b(?:mysql(?:dump|admin|import|check|sh)?|mariadb(?:-?(?:dump|admin|import|check))?)\b"
        r"[^\n]*?[ \t]-p"
        # mysql's style without its name: -u USER -pX
        r"|(?:^|[ \t])-u[ \t]*[\"']?[^\s\"'-][^\s\"']*[\"']?[ \t]+-p|\b(?:sshpass|(?:docker|podman|nerdctl)"
        r"[ \t]+login)\b[^\n]*?[ \t]-p[ \t]*|\bredis-cli\b[^\n]*?[ \t]-a[ \t]*"
        r"|[ \t]--[\w-]*pass(?:word|wd)?(?:=|[ \t]+)|\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t]*"
        r"[\"']?[^\s:\"']+:"
        # openssl's -pass pass:X and -k X, zip's -P X, 7z's and rar's -pX, Samba's -U user%X, net
        # user's password, htpasswd -b's (after the file and the user), ldapsearch's -w X,
        # xfreerdp's /p:X
        r"|[ \t]-pass(?:in|out|word)?[ \t]+pass:|\bopenssl\b[^\n]*?[ \t](?-i:-k)[ \t]+"
        r"|\b(?:un)?zip(?:cloak)?\b[^\n]*?[ \t](?-i:-P)[ \t]*"
        r"|\b(?:7z[arz]?|7zz|rar|unrar)\b[^\n]*?[ \t]-p"
        r"|[ \t](?:-U|--user(?:name)?=?)[ \t]*[\"']?[^\s%\"']+%"
        r"|\bnet[ \t]+user[ \t]+[\"']?[^\s/\"']+[\"']?[ \t]+"
        r"|\bhtpasswd\b[^\n]*?[ \t]-[a-z]*b[a-z]*(?:[ \t]+-[a-z]+)*(?:[ \t]+[^\s-]\S*){1,2}"
        r"[ \t]+"
        r"|\bldap\w*\b[^\n]*?[ \t]-w[ \t]*|\b[xw]freerdp\b[^\n]*?[ \t]/p:"
        # mongo's, PsExec's, az login's -p X, sqlcmd's -P X, ssh-keygen's -N/-P X, keytool's
        # -storepass X, gpg's --passphrase X, rabbitmqctl add_user U X, net use SHARE X
        r"|\b(?:mongo(?:sh|dump|restore|import|export)?|psexec(?:64)?|az[ \t]+login)\b[^\n]*?"
        r"[ \t]-p[ \t]+|\b(?:sqlcmd|bcp|osql)\b[^\n]*?[ \t](?-i:-P)[ \t]*"
        r"|\bssh-keygen\b[^\n]*?[ \t](?-i:-[NP])[ \t]+"
        r"|[ \t]-(?:src|dest|new)?(?:store|key)pass[ \t]+|[ \t]--passphrase[ \t=]+"
        r"|\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+"
        r"|\bnet[ \t]+use[ \t]+(?:[A-Za-z]:[ \t]+)?\\\\\S+[ \t]+"
        # net use's password after its /user: switch ("net use Z: \\\\srv\\share /user:CORP\\jdoe X")
        r"|\bnet[ \t]+use\b[^\n]*?[ \t]/u(?:ser)?:\S+[ \t]+)"
        r"[\"']?(?P<cmd>[^\s\"'*/-][^\s\"']{3,})"
        # a password quoted right after -p, whatever the command: -p'X', -p"X"
        r"|(?:^|[ \t])-p[\"'](?P<cmd_quoted>[^\s\"'*/-][^\s\"']{3,})[\"']"
        # a password piped to sudo -S: echo X | sudo -S
        r"|\b(?:echo|printf)[ \t]+[\"']?(?P<cmd_sudo>[^\s\"'|$-][^\s\"'|]{3,})[\"']?[ \t]*\|"
        r"[ \t]*sudo\b"
        r"[^\n|]*?"
        r"[ \t]-[a-zA-Z]*(?-i:S)"
        # chpasswd: echo user:X | chpasswd
        r"|\b(?:echo|printf)[ \t]+[\"']?[^\s:\"'|]+:(?P<cmd_chpasswd>[^\s\"'|]{4,})[\"']?"
        r"[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd\b",
        r"(?m)^[^\s:]+:(?:\d{2,5}|\*):[^\s:]+:[^\s:]+:(\S{4,})$",  # a .pgpass line
        r"(?:^|[^A-Za-z0-9])[A-Z0-9_]*(?:PASSWORD|P[A4@][S5$][S5$]W[O0]RD|PASSWD|PASS|PWD|SECRET"
        r"|TOKEN|API_?KEY"
        r"|ACCESS_?KEY|PRIVATE_?KEY)[A-Z0-9_]*[ \t]*[=:][ \t]*[\"'`]?" f"(?P<env>{_VALUE}|{_SHORT})",
        # after "Authorization:" whatever it holds (RFC 6750 section 2.1); in prose, with a letter and a
        # digit
        r"(?i)\bauthorization[\"']?[ \t]*[:=][ \t]*[\"']?bearer[ \t]+"
        r"(?P<whole>[\w.~+/-]{16,}=*)"
        r"|\bbearer[ \t]*:?[ \t]+(?:token[ \t]+)?([\w.~+/-]{16,}=*)",
        r"(?i)(?:^|\s)machine[ \t]+\S+\s+login[ \t]+\S+\s+password[ \t]+(\S+)",
        # an HTTP session cookie (RFC 6265): "Cookie: session=...", "Set-Cookie: sid=...; HttpOnly"
        r"(?i)\b(?:set-)?cookie[\"']?[ \t]*:[ \t]*(?:[^\s;=]+=[^\s;]*;[ \t]*){0,8}"
        r"[\w.-]*(?:sess(?:ion)?|sid|token|auth|jwt|remember)[\w.-]*=[\"']?([^\s;\"',]{16,})",
        r"(?i)\bauthorization[\"']?[ \t]*(?:[:=][ \t]*[\"']?basic[ \t]+"
        r"(?P<whole>[A-Za-z0-9+/]{8,}={0,2})|basic[ \t]+"  # no colon: not a plain word
        r"(?P<whole_b>(?-i:[A-Za-z0-9+/]*(?:[0-9+/]|[a-z][A-Z])[A-Za-z0-9+/]*)={0,2}))",
        r"(?i)\"(?:auth|identitytoken)\"[ \t]*:[ \t]*\"(?P<whole>[A-Za-z0-9+/]{12,}={0,2})\""
        # .npmrc's "_auth=<base64 of user:password>", perhaps for one registry ("//registry/:_auth=")
        r"|(?:^|[\s\"'])(?:[^\s=]*:)?_auth[ \t]*=[ \t]*[\"']?(?P<whole_npmrc>[A-Za-z0-9+/]{12,}={0,2})(?:[\s\"']|$)"
        # base64 of user:password after an "auth" key or word, its closing quote or not: a config.json cut short,
        # "registry auth: X" (``secret_encoded.user_password``)
        r"|(?:^|[^A-Za-z0-9])_?auth(?:orization)?\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?"
        r"(?P<encoded_pair>[A-Za-z0-9+/]{12,}={0,2})",
        f"(?i)(?:{_CODE_WORDS})" r"\w*(?:\\?[\]\"']){0,2}[ \t]*(?::=|=>|={1,3}|!==?|:)[ \t]*@?"
        + _QUOTED
        # the same inside a string, its quotes escaped: "... password=\"X\";" (a JAAS config, JSON in JSON)
        + f"|(?i)(?:{_CODE_WORDS})" r"\w*(?:\\[\"'])?[ \t]*(?:=|:)[ \t]*\\[\"'](?P<whole_escaped>[^\n\\\"']{4,200})\\[\"']",
        # markup: <password>X</password>, <db:apiKey id="1">X</db:apiKey>, <entry key="password">X</entry>;
        # a setting's value: <add key="DbPassword" value="X"/>, <property name="password" value="X"/>
        f"(?i)(?:<[\\w:.-]*(?:{_CODE_WORDS})(?:[_.-]?(?:key|value|text))?(?:[ \\t][^<>\\n]*)?>"
        f"|<[\\w:.-]+[ \\t][^<>\\n]*?{_NAMED_ATTRIBUTE}[^<>\\n]*>)"
        f"[ \\t]*(?:<!\\[CDATA\\[)?(?P<markup>[^<>\\s\\]]{{4,200}})(?:\\]\\]>)?[ \\t]*</"
        f"|(?:{_NAMED_ATTRIBUTE}[ \\t]+|<[\\w:.-]*(?:{_CODE_WORDS})[ \\t][^<>\\n]*?\\b)"
        f"value[ \\t]*=[ \\t]*{_QUOTED}"
        # a setting named for a key of any kind whose value is shaped like a generated one: <add key="StorageKey"
        # value="..."/> (``secret_values.key_shaped``)
        r"|\b(?:key|name)[ \t]*=[ \t]*[\"'][\w.:-]*key[\"'][ \t]+value[ \t]*=[ \t]*[\"']"
        f"(?P<keyshaped>{_KEY_SHAPED})[\"']",
        # abbreviations and pairs: "pass: X", "creds: admin:X", "creds are admin/X", "login: admin / X",
        # "user/pass: admin/X"; with only a space, a value that ends its sentence: "pass X", "login: admin X";
        # a list of pairs
        # (a YAML block scalar's first line too, perhaps after an anchor or a tag: "pass: |", "pass: &db >-", then
        # the value)
        f"(?i){AFTER}pass[ \\t]*[:=][ \\t]*(?:(?:{PROPERTIES}[ \\t]+)?[|>][-+0-9]{{0,2}}[ \\t]*\\r?\\n[ \\t]+)?"
        f"{_QUOTE}?(?P<pass>{_VALUE})"
        # a user, then "pass", "pw", "pwd" or "password" and the value: "SMTP: smtp.acme.com, user alerts@acme.com, pass
        # X", "u: alice p: X" (judged as after "password is", not as after "pass" alone)
        f"|{AFTER}(?:(?:user(?:[ _-]?name)?|usr|log(?:in|on)|acc(?:oun)?t)(?:[ \\t]*[:=][ \\t]*|[ \\t]+)"
        f"|u[ \\t]*[:=][ \\t]*)[\"']?[^\\s\"',;/]+[\"']?[ \\t]*(?:[,;/]|[ \\t]and)?[ \\t]*"
        f"(?:(?:pass(?:word|wd)?|pwd|pw)(?:[ \\t]*[:=][ \\t]*|[ \\t]+)|p[ \\t]*[:=][ \\t]*)"
        f"{_QUOTE}?(?P<user_pass>{_VALUE})"
        f"|{AFTER}pass[ \\t]+{_QUOTE}?(?P<spaced>{_VALUE}){_QUOTE}?{_ENDS}"
        # "my pass is X", "pass for the staging admin panel: X", "the admin panel takes X": a value that reads as
        # typed (``secret_values.named_value_kept``: "the mountain pass is closed", "takes 2h" are prose)
        f"|{AFTER}pass(?:[ \\t]+(?:for|to|of|on)(?:[ \\t]+[^\\s:=]+){{1,6}}?)?"
        f"(?:[ \\t]+(?:is|was)[ \\t]*:?|[ \\t]*[:=])"
        f"[ \\t]*{_QUOTE}?(?P<pass_said>{_VALUE})|{AFTER}(?:takes|uses|accepts)[ \\t]+{_QUOTE}?(?P<takes>{_VALUE})"
        # "the password is the reverse of drowssap: X", "my password is my dog's name then 1987: X": a description after
        # "password is" (perhaps "password for the router is"), then ":" and a space and a value mixing cases ending the
        # sentence; no scheme's or drive's ":" ("is op://vault/item", "is at C:\keys") nor where it is kept ("is in the
        # vault: https://vault.example.com/db2", "... 1Password: op://Prod/db2/password"): no "/" or "\" in the value
        f"|{AFTER}(?:{words('password-strict', 'en')})(?:[ \\t]+(?:for|of|on|to|at|in)(?:[ \\t]+[^\\s:=]+){{1,4}})?"
        f"[ \\t]+(?:is|was)[ \\t]+[^\\n.!?:;=]{{1,60}}:[ \\t]+{_QUOTE}?"
        f"(?P<described>{_UNPLACED}){_QUOTE}?{_ENDS}"
        f"|{AFTER}(?:creds|credentials?|logins?|logons?)[ \\t]*"
        f"(?:[:=]|[ \\t]-|[ \\t]+(?:are|is|were|was))?"
        f"[ \\t]+[\"']?[^\\s:/%\"']+[\"']?[ \\t]*(?:[:/%][ \\t]*(?P<pair>{_PAIRED})"
        # "creds are admin and X": a user and a password after "and", when the value mixes cases and digits
        f"|[ \\t]+(?:and|&)[ \\t]+{_QUOTE}?(?P<pair_and>{_PAIRED}))"
        # a Wi-Fi network and its password: "WiFi: ACME-Guest / X", "wlan Home-5G / X"
        f"|{AFTER}(?:wi-?fi|wlan|wireless|ssid)(?:[ \\t]+(?:network|ssid))?[ \\t]*[:=]?[ \\t]+[\"']?[^\\s/\"']+[\"']?"
        f"[ \\t]*/[ \\t]*{_QUOTE}?(?P<wifi_pair>{_PAIRED})"
        # a Wi-Fi network or a router, then on its line a short word naming its key and the value: "wifi: SSID HomeNet,
        # key X", "The wifi network HomeNet uses key X", "WLAN HomeNet, Schlüssel X" (the word alone names no password)
        f"|{AFTER}(?:wi-?fi|wlan|wireless|ssid|hotspot|router)(?:[ \\t]*[:,;/]?[ \\t]+[^\\s,;:/]+){{0,6}}?"
        f"[ \\t]*[,;:/]?[ \\t]+(?:(?:uses?|with|has|and)[ \\t]+(?:the[ \\t]+|a[ \\t]+)?)?(?:{words('network-key')})"
        f"(?:[ \\t]*[:=]|[ \\t]+(?:is|was))?[ \\t]+{_QUOTE}?(?P<wifi_key>{_PAIRED})"
        f"|{AFTER}(?:creds|credentials?|logins?|logons?)[ \\t]*[:=][ \\t]*"
        f"[\"']?[^\\s:/%\"'=]+[\"']?[ \\t]+{_QUOTE}?(?P<spaced_pair>{_PAIRED}){_QUOTE}?{_ENDS}"
        # "log in as admin with X", "sign in as root using X"
        f"|{AFTER}(?:log[ -]?in|logon|sign[ -]?in)[ \\t]+as[ \\t]+[^\\s\"']+[ \\t]+(?:with|using)"
        f"[ \\t]+{_QUOTE}?(?P<spaced_as>{_VALUE})"
        # "use X to log into the admin account", "enter X to sign in", "use X to unlock it"; "utilise X pour te
        # connecter", "nutze X zum Einloggen", "usa X para iniciar sesión", "usa X per accedere", "gebruik X om in
        # te loggen"
        f"|{AFTER}(?:use|enter|type|key[ \\t]+in|input|put[ \\t]+in|punch[ \\t]+in|utilise[zr]?|entrez|saisissez|nutze"
        f"|verwende|benutze|usa|usar|introduce|ingresa|utilizza|inserisci|digite|gebruik)[ \\t]+{_QUOTE}?"
        f"(?P<spaced_use>{_VALUE}){_QUOTE}?[ \\t]+"
        r"(?:(?:to|for|when)[ \t]+(?:log(?:ging)?[ -]?(?:in|on)|sign(?:ing)?[ -]?(?:in|on)|login|authenticat|unlock)"
        # "enter X at the login prompt", "type X on the lock screen", "type X when prompted"
        f"|{_AT_PROMPT}"
        r"|pour[ \t]+(?:(?:te|vous|se)[ \t]+connecter|la[ \t]+connexion|d[ée]verrouiller)"
        r"|(?:zum|um)[ \t]+(?:einloggen|anmelden|entsperren|(?:dich|sich)[ \t]+(?:anzumelden|einzuloggen))"
        r"|para[ \t]+(?:iniciar[ \t]+sesi[oó]n|entrar|acceder|acessar|desbloquear|fazer[ \t]+login)"
        r"|per[ \t]+(?:accedere|entrare|sbloccare)|om[ \t]+(?:in[ \t]+te[ \t]+loggen|aan[ \t]+te[ \t]+melden))",
        # what is typed to unlock or log in, no word naming it: "To unlock the laptop type X", "to log into the VPN,
        # enter X"; "X is what I type to unlock the laptop"; "the laptop unlocks with X", "log into Jira with X" (the
        # value ending its clause). Judged as "use X to log in" is (``secret_values.named_value_kept``).
        f"(?i){AFTER}to[ \\t]+{_UNLOCKING}(?:[ \\t]+(?:to|into|on|onto|at))?(?:{_PLACE})??[ \\t]*,?[ \\t]+"
        f"(?:(?:just|simply|you|then|always)[ \\t]+){{0,2}}{_TYPING}[ \\t]+(?:in[ \\t]+)?{_QUOTE}?"
        f"(?P<spaced_use_first>{_VALUE})"
        f"|(?:^|[ \\t(])(?P<spaced_use_before>{_VALUE})[ \\t]+(?:is|was)[ \\t]+(?:what|the[ \\t]+(?:thing|word|code|one))"
        f"[ \\t]+(?:I|you|we|they|he|she)[ \\t]+{_TYPING}(?:s|d|ed)?(?:[ \\t]+in)?[ \\t]+(?:(?:to|for|when)[ \\t]+"
        f"(?:(?:I|you|we|they)[ \\t]+)?{_UNLOCKING}|{_AT_PROMPT})"
        f"|{AFTER}(?:unlock(?:s|ed)?|log(?:s|ged)?[ -]?(?:in|on)(?:to)?|sign(?:s|ed)?[ -]?(?:in|on)(?:to)?)(?:{_PLACE})??"
        f"[ \\t]+(?:with|using)[ \\t]+(?:(?:the[ \\t]+)?(?:code|passcode|passphrase|phrase|word)[ \\t]+)?{_QUOTE}?"
        f"(?P<spaced_use_with>[^\\s\"'`:/]{{5,}}[^\\s\"'`.,;:!?)\\]]){_QUOTE}?{_ENDS}",  # (a user's pair is _LOGIN_WITH's)
        # a password written glued to its word ("mypasswordisX", "passwordwas:X"), after a question ("the db's
        # password? it's X"), or one character at a time ("password: Z k 9 x 2 m")
        f"(?i){_GLUED_START}(?:{glued}(?:is|was)[:=]?|(?:{glued}|{words('password-strict', 'en')}|{words('password', 'en')})"
        r"(?:[:=]|[ \t]+))(?P<glued>[A-Za-z0-9!@#$%^&*+=?~._-]{6,64})" f"{_GLUED_END}"
        # any word for a credential joined to its value by one punctuation, perhaps spaced ("password-X", "DB_PASSWORD_X",
        # "token.X", "password, X", "password :: X"); by "/" or nothing before a capital or a digit ("passwordR7q...",
        # then no "_", "-" or "."), only a word of five letters or more; no "=" or ":" in the value, so an
        # assignment's name ("password_hash=...") is none
        f"|{_GLUED_START}(?:{glued}|{words('password')}|{words('password-strict')}|{key_words()})"
        # (the empty class stands in no text: the prefilter's cover keys on the words, not on a joiner every text holds)
        f"[ \\t]*(?:::|[-_.#~>,;]|[^\\x00-\\x{{10FFFF}}])[ \\t]*(?P<glued_joined>[A-Za-z0-9]{_JOINED}){_GLUED_END}"
        f"|{_GLUED_START}(?:{long})/?" r"(?P<glued_bare>(?-i:[A-Z0-9])[A-Za-z0-9!@#$%^&*+?~]{5,63})" f"{_GLUED_END}"
        f"|(?:{AFTER}(?:{words('password')}|{words('password-strict')})|{words('password-tail')})"
        f"[ \\t]*(?:\\?+|\\.{{3,}}|…)[ \\t]+(?:(?:it|that)(?:['’]s|[ \\t]+(?:is|was))[ \\t]*:?[ \\t]*)?"
        f"{_QUOTE}?(?P<asked>{_VALUE})"
        f"|(?:{AFTER}(?:{words('password')}|{words('password-strict')})|{words('password-tail')})"
        f"(?:[ \\t]+(?:is|was)[ \\t]*:?|[ \\t]*[:=]|[ \\t]+[-–—][ \\t]+)[ \\t]*"
        r"(?P<spelled>(?:[^\s\"'`] ){5,63}[^\s\"'`])(?:[ \t]*(?:$|[\r\n]|[^\w\s])|[ \t]+\S\S)",
        PAIR_LIST,
        table_source(),
        csv_source(),
        _AUTH_CALL,
        _LOGIN_WITH,
        _SERVICE_PAIR,
        VALUE_LIST,
        VALUE_RUN,
        CODE_RUN,
        *code_sources(),
        # a change's verb before the word, a participle after the value (``secret_changes``)
        *change_sources(f"{AFTER}(?:{words('password')}|{words('password-strict')})|{words('password-tail')}"),
    ]
