"""Named credentials written as lists: user/secret pairs under a header naming credentials, a
Markdown table's or a CSV file's rows under a head naming a password column, several values after a
plural word. Each is matched whole (its source here, run by ``secret_named``) and kept when one of
its secrets is a value (the judges here).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from .secret_re2 import compile_linear
from .secret_tables import AFTER, words
from .secret_values import is_value

# A list of users and their secrets under a header naming credentials: the header ("password list", "user
# table", "accounts", "users", "passwords (prod)", "Passwortliste", "список паролей"), perhaps quoted, then
# ":", "=", " - " or a verb, perhaps "{", blank lines, a Markdown table's head; or the header alone on its
# line ("Logins", "## Accounts", "**Users:**"); then pairs ("admin:X", "'bob': 'Y'", "eve=Z", "root -> W",
# "| svc | V |", "admin X"), parted by commas, "|", "and", spaces or line breaks (each line perhaps a
# bullet). Taken whole, so every pair goes (:func:`listed_secrets`).
_CRED_NOUN = r"(?:passwords?|passwd|pwds?|creds|credentials?|logins?|logons?|users?|accounts?|user[ _-]?names?)"
_LIST_HEADER = (_CRED_NOUN + r"[ \t]+(?:list|table|dump|file|sheet|set|entries|pairs|combos?)s?"
                r"|passwords|pwds|creds|credentials|logins|logons|accounts|users|user[ _-]?names"
                r"|passwortliste|kennwortliste|passw[öo]rter|kennw[öo]rter|zugangsdaten"
                r"|(?:liste[ \t]+des[ \t]+)?mots[ \t]+de[ \t]+passe|(?:lista[ \t]+de[ \t]+)?contrase[ñn]as"
                r"|(?:lista[ \t]+de[ \t]+)?senhas|(?:elenco|lista)[ \t]+(?:delle[ \t]+)?password"
                r"|(?:список[ \t]+)?паролей|пароли|wachtwoorden|has[łl]a")
_LIST_USER = r"""["'`]?[^\s:/%"'`,;=|(){}\[\]<>→-][^\s:/%"'`,;=|(){}\[\]<>→]{0,63}["'`]?"""
_LIST_QUOTED = r"""["'`]({0}[^"'`\n]{{4,200}})["'`]"""  # {0}: "" for a group, "?:" for none
_LIST_BARE = r"""({0}[^\s"'`/|,;{{}}\[\]][^\s"'`|,;{{}}]{{4,}}[^\s"'`.,;:!?)\]|{{}}])"""
_LIST_JOIN = r"[ \t]*(?:[:=/%|→]|->|=>|[—–])[ \t]*|[ \t]+-[ \t]+|[ \t]+"
# One pair, its secret a group (quoted, or not), to judge each secret (:func:`listed_secrets`).
_LIST_PAIR_PARTS = f"(?:{_LIST_USER})({_LIST_JOIN})(?:{_LIST_QUOTED.format('')}|{_LIST_BARE.format('')})"
_LIST_PAIR = f"(?:{_LIST_USER})(?:{_LIST_JOIN})(?:{_LIST_QUOTED.format('?:')}|{_LIST_BARE.format('?:')})"
_LIST_BULLET = r"(?:[-*•+][ \t]+|\d{1,3}[.)][ \t]+|\|[ \t]*)?"
_LIST_NEXT = (r"[ \t]*[,;|][ \t]*(?:and[ \t]+)?|[ \t]+(?:(?:and|&)[ \t]+)?"
              r"|[ \t]*[,;]?[ \t]*\|?[ \t]*(?:\r?\n[ \t]*){1,2}" + _LIST_BULLET)
_LIST_TABLE_HEAD = r"(?:\|[^\n]*\r?\n[ \t]*\|[ \t:|-]*-[ \t:|-]*\r?\n[ \t]*)?"
_LIST_NOTE = r"[ \t]*(?:[(\[][^()\[\]\n]{1,40}[)\]][ \t]*)?"
PAIR_LIST = (f"(?i)(?:{AFTER}[\"']?(?:{_LIST_HEADER})[\"']?{_LIST_NOTE}"
              r"(?:[:=]|[ \t]-|[ \t]+(?:are|is|were|was))[ \t]*[{\[]?(?:[ \t]*\r?\n){0,3}[ \t]*"
              # the header alone on its line, perhaps a Markdown heading or bold: the pairs start the next
              f"|^[ \\t]*(?:#{{1,6}}[ \\t]+|[*_]{{1,2}})?[\"']?(?:{_LIST_HEADER})[\"']?{_LIST_NOTE}(?:[*_]{{1,2}})?"
              r"[ \t]*:?[ \t]*(?:[*_]{1,2})?[ \t]*\r?\n(?:[ \t]*\r?\n){0,2}[ \t]*)"
              f"{_LIST_TABLE_HEAD}{_LIST_BULLET}"
              f"(?P<pair_list>{_LIST_PAIR}(?:(?:{_LIST_NEXT}){_LIST_PAIR})*)")
# A list's header up to its first pair ("login list: "), where a pair after "login" is read.
LIST_NAMED = re.compile(r"(?i)[^\w]*\w+[ \t]+(?:list|table|dump|file|sheet|set|entries|pairs|combos?)s?[ \t]*[:=]")


# A date or a time is no password ("login list: alice:2024-01-03").
_DATE = re.compile(r"\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?")


def _is_secret(value: str) -> bool:
    """Whether a value of a list is a secret: it holds a letter and a digit, and is no date."""
    return is_value(value) and not _DATE.fullmatch(value)


@functools.cache
def _list_pair_parts() -> Any:
    return compile_linear(_LIST_PAIR_PARTS)


def listed_secrets(pairs: str) -> bool:
    """Whether a list of pairs (``PAIR_LIST``'s) holds a secret: one holding a letter and a digit, no date.
    A user and a secret parted by a space alone count in a list of two pairs or more: one is prose ("creds:
    in 1Password", "the password list is in 1Password")."""
    # over UTF-8: RE2's wrapper reads a ``str``'s offsets again at each match (``secret_re2.utf8``)
    found = list(_list_pair_parts().finditer(pairs.encode("utf-8", "surrogatepass")))
    return any((pair.group(1).strip(b" \t") or len(found) > 1)
               and _is_secret((pair.group(2) or pair.group(3)).decode("utf-8", "surrogatepass")) for pair in found)


# A Markdown table (or CSV, TSV) with a column for passwords: its head names the column ("| user | pass |",
# "| Benutzer | Passwort |", "| db password (prod) |"; a word for password, perhaps after two words and
# before a note, alone in its cell: not "password hint"), its delimiter row, then its rows, taken whole when
# a cell of that column is a value (:func:`table_secrets`, :func:`csv_secrets`).
@functools.cache
def _column_words() -> str:
    return ("pass(?:word|wd|phrase|code)?s?|pwds?|pw|secrets?|(?:api|access|secret|auth)[ _-]?(?:keys?|tokens?)"
            "|tokens?|credentials?|creds|" + "|".join(words(role) for role in ("password", "password-strict", "password-tail",
                                                              "password-unspaced")))


_CELL_WORDS = r"(?:[\w.-]+[ \t]+){0,2}"  # a Markdown cell's words before the word for password ("db password")
_CSV_BEFORE = r"(?:[\w.-]*[_.-])?"  # in CSV a name's prefix ("db_"), no words: "Reset the password, then" is prose


def _column(before: str, after: str) -> str:
    """A table head's cell naming a password column (RE2): ``before`` the word, a compound ending in a word of
    ``password-tail`` ("Serverpasswort"), then ``after`` it (the rest of the line: each alternative ends with
    it, so the prefilter's cover reads which characters follow the word, ``regex_cover``)."""
    rest = r"[*_`\"']{0,2}(?:[ \t]*[(\[][^()\[\]|\n]{1,40}[)\]])?[ \t]*" + after
    return (r"[ \t]*[*_`\"']{0,2}(?:" + before + "(?:" + _column_words() + ")" + rest
            + r"|[\w.-]*(?:" + words("password-tail") + ")" + rest + ")")


def table_source() -> str:
    return (r"(?i)^[ \t]*(?:\|?[^|\n]*\|)*?" + _column(_CELL_WORDS, r"(?:\|[^\n]*)?\r?\n")
            + r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?)?[ \t]*\r?\n"
            r"(?P<table_rows>[^\n]*\|[^\n]*(?:\r?\n[^\n]*\|[^\n]*)*)")


def csv_source() -> str:
    """The same in CSV or TSV: a head of cells parted by ",", ";" or a tab, then rows (:func:`csv_secrets`)."""
    return (r"(?i)^(?:[^,;\t\n]*[,;\t])*?" + _column(_CSV_BEFORE, r"(?:[,;\t][^\n]*)?\r?\n")
            + r"(?P<csv_rows>[^\n]*[,;\t][^\n]*(?:\r?\n[^\n]*[,;\t][^\n]*)*)")


@functools.cache
def _column_cell(before: str = _CELL_WORDS) -> Any:
    return compile_linear(f"(?i)^{_column(before, '$')}")


def names_password_column(cell: str) -> bool:
    """Whether a table's head cell names a password column ("Password", "db pass", "API key"), as a
    Markdown table's head is read."""
    return bool(_column_cell().search(cell))


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table's row, without the pipes at its ends."""
    row = row.strip()
    return row[row.startswith("|"):len(row) - row.endswith("|")].split("|")


def table_secrets(head: str, rows: str) -> bool:
    """Whether the rows of a table (``table_source``'s) whose ``head`` names password columns hold a secret:
    a cell of such a column holding a letter and a digit, without white space, no date."""
    columns = [i for i, cell in enumerate(_cells(head)) if _column_cell().search(cell)]
    return any(_is_secret_cell(cells[i]) for row in rows.split("\n") for cells in [_cells(row)]
               for i in columns if i < len(cells))


def csv_secrets(head: str, rows: str) -> bool:
    """:func:`table_secrets` for CSV or TSV (``csv_source``): the separator is the first of a tab, ";" and ","
    that parts the head into cells naming a password column; a row counts when it has as many cells (prose
    with commas has not)."""
    for separator in ("\t", ";", ","):
        heads = head.split(separator)
        columns = [i for i, cell in enumerate(heads) if len(heads) > 1 and _column_cell(_CSV_BEFORE).search(cell)]
        if columns:
            return any(_is_secret_cell(cells[i]) for row in rows.split("\n")
                       if len(cells := row.split(separator)) == len(heads) for i in columns)
    return False


def _is_secret_cell(cell: str) -> bool:
    """Whether a table's cell holds a value: a letter and a digit, no white space, no date."""
    cell = cell.strip(" \t*_`\"'")
    return _is_secret(cell) and not any(c.isspace() for c in cell)
# Several passwords named by a plural word: "the passwords are hunter2!, Tr0ub4dor&3 and correcthorse#99",
# "API keys: X, Y". Taken whole when one of them is a value (:func:`listed_values`).
_PLURAL = (r"passwords|passwds|pwds|passphrases|passcodes|(?:api|access|secret|auth)[ _-]?(?:keys|tokens)"
           r"|passw[öo]rter|kennw[öo]rter|mots[ \t]+de[ \t]+passe|contrase[ñn]as|senhas|пароли|wachtwoorden"
           r"|has[łl]a")
_ITEM = r"""[“‘"'`]?[^\s"'`,;“”‘’]{4,200}[”’"'`]?"""
_ITEM_NEXT = r"[ \t]*[,;][ \t]*(?:(?:and|or|&)[ \t]+)?|[ \t]+(?:and|or|&)[ \t]+"
VALUE_LIST = (f"(?i){AFTER}(?:{_PLURAL})"
               r"(?:[ \t]+(?:for|of|on|to|in)[ \t]+[^\s:=,]+(?:[ \t]+[^\s:=,]+){0,3}?)?"
               r"[ \t]*(?:[(\[][^()\[\]\n]{1,40}[)\]][ \t]*)?(?:[:=]|[ \t]+(?:are|were)(?:[ \t]*:)?)[ \t]*"
               f"(?P<value_list>{_ITEM}(?:(?:{_ITEM_NEXT}){_ITEM})+)")


@functools.cache
def _list_items() -> Any:
    return compile_linear(f"(?i){_ITEM_NEXT}")


def listed_values(values: str) -> bool:
    """Whether a list of values (``VALUE_LIST``'s) holds a secret: one of 6 characters or more holding a
    letter and a digit, no date. Split by RE2: Python's ``re`` took quadratic time on a run of spaces."""
    at, items = 0, []
    for separator in _list_items().finditer(values):
        items.append(values[at:separator.start()])
        at = separator.end()
    items.append(values[at:])
    return any(len(item := piece.strip("“”‘’\"'`.!?")) >= 6 and _is_secret(item)
               for piece in items)


# Values parted by spaces alone under a plural word for keys or tokens ("tokens: a1b2c3... d4e5f6...", a captured
# list): taken whole when every one is shaped like a generated value (:func:`spaced_values`), so "tokens: 1532
# prompt 220 completion" and "api keys: gpt4o-mini and o3" are prose.
_RUN_PLURAL = _PLURAL + r"|tokens|secrets|keys|(?:api|access|auth|secret|private|client)[ _-]?secrets"
_RUN_ITEM = r"""["'`]?[^\s"'`,;]{12,200}["'`]?"""
VALUE_RUN = (f"(?i){AFTER}(?:{_RUN_PLURAL})[ \\t]*(?:[(\\[][^()\\[\\]\\n]{{1,40}}[)\\]][ \\t]*)?[:=][ \\t]*"
             f"(?P<value_run>{_RUN_ITEM}(?:[ \\t]+{_RUN_ITEM})+)[ \\t]*$")
RUN_ITEM_MIN = 12  # characters of each value of such a run (``_RUN_ITEM``)
# One-time codes that stand for a password, after their name ("GitHub recovery codes: 8f3k2-m9d4x 7hq2p-x0v3n ...",
# "backup codes:" then one a line): taken whole when every one holds a digit (:func:`codes`).
_CODE = r"[\w-]{6,20}"
CODE_RUN = (f"(?i){AFTER}(?:2fa|mfa|two[ -]factor|recovery|backup)[ _-]?codes"
            r"[ \t]*(?:[:=]|[ \t]+(?:are|were)[ \t]*:?)\s*"
            f"(?P<recovery_codes>{_CODE}(?:[ \\t,;]*\\n?[ \\t]*(?:[-*•][ \\t]+)?{_CODE}){{1,23}})")
_CODE_ITEM, _DIGIT = re.compile(r"[\w-]{6,}"), re.compile(r"[0-9]")


def codes(values: str) -> bool:
    """Whether the items of a ``CODE_RUN`` are codes: each holds a digit."""
    return all(_DIGIT.search(item) for item in _CODE_ITEM.findall(values))

# A word between separators names a value ("db-password-2024", "redis_prod_2"): a generated one has none.
_NAMED_PART = re.compile(r"(?:^|[-_./:])[A-Za-z]{3,}(?=[-_./:]|$)")


def spaced_values(values: str) -> bool:
    """Whether the values of a ``VALUE_RUN`` are generated ones: each of ``RUN_ITEM_MIN`` characters or more
    holds a letter and a digit, no date and no word between separators (``_NAMED_PART``)."""
    items = [item.strip("\"'`") for item in values.split()]
    return len(items) > 1 and all(len(item) >= RUN_ITEM_MIN and _is_secret(item) and not _NAMED_PART.search(item)
                                  for item in items)
