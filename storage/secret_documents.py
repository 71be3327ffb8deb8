"""A text's document structures read as ``name: value`` lines, so the named-credential detector reads
a credential however a document holds it:

- a name/value pair: ``- name: DB_PASSWORD`` over ``value: X`` (Kubernetes, Helm), ``{"Name": "password",
  "Value": "X"}`` (ECS), ``{"ParameterKey": "DBPassword", "ParameterValue": "X"}`` (CloudFormation), in a
  document or a snippet in prose, either order: the value's line reads ``DB_PASSWORD: X``;
- a list under a name: ``passwords:`` over ``- X``, ``{"passwords": ["X", "Y"]}``, ``Passwords`` over a
  Markdown list: each item's line reads ``passwords: X``;
- a label over its value: a heading over a blank line (``## Password``, blank, ``X``), a setext heading
  (``Password`` over ``----``), a definition (``Password`` over ``: X``), a one-word label (``密碼`` over
  ``X``): the value's line reads ``Password: X``;
- a value in its name's child mapping (``{"adminPassword": {"value": "X"}}``, Terraform's ``variable "pw" {``
  over ``default = "X"``), a generic pair (``{"k": "password", "v": "X"}``, ``- id: password`` over ``default: X``,
  a flat object inside a sentence too),
  each scalar under a parent naming credentials (``secrets:`` over ``db: X``, ``[passwords]``, ``secrets = {...}``,
  ``secrets.db: X``, ``tokens[0]: X``): the value's line reads ``adminPassword: X``, ``secret: X``;
- a table's password column under a head without a delimiter row or outer pipes (``User | Password`` over
  ``alice | X``, Confluence's ``||User||Password||``), and a row of two cells (``Password | X``).

One reading of ``secrets.find_secrets`` (through ``secret_marks.unmarked``): the same lines, each line
rewritten at most once; what a line held is left to the other readings. Linear in the text's length:
each line is read a bounded number of times, every pattern on one line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType


def _at_first_use(pattern: str) -> Callable[[], re.Pattern[str]]:
    """``pattern`` compiled at the first call, the same object after: for a class of letters reaching U+FFFF, whose
    every code point re's compiler visits, so that a process never reading a document (a hook) does not compile it
    (docs/storage-tuning.md#the-credential-scans-regular-expressions)."""
    return functools.cache(lambda: re.compile(pattern))


# A key naming the entry of a name/value pair, and a key holding its value (Kubernetes' env, ECS'
# environment, CloudFormation's Parameters, Helm's extraEnv, Terraform's set blocks).
_NAME_KEYS = r"(?:parameter|param|var|variable|env|setting|field|option)?[_-]?(?:name|key)|variable"
_VALUE_KEYS = r"(?:parameter|param|var|variable|env|setting|field|option)?[_-]?value|val"
# A generic pair's keys, read in a parsed document only: ``{"k": N, "v": V}``, ``{"field": N, "content": V}``,
# ``{"label": N, "value": V}``, ``{"param": N, "val": V}``, ``- id: N`` over ``default: V``; a value key
# of these counts when the mapping has none of ``_VALUE_KEYS``.
_GENERIC_NAME = re.compile(r"(?i)k|label|param|field|id")
_GENERIC_VALUE = re.compile(r"(?i)v|content|default")
_LABEL_NAME = _at_first_use(r"[A-Za-z\u00c0-\uffff][\w .\-\u00c0-\uffff]{0,40}")  # a label's few words ("DB password")
# The one key of a child mapping holding its parent's value: ``{"adminPassword": {"value": V}}`` (ARM),
# ``password: {type: string, default: V}``, Terraform's ``variable "db_password" { default = V }``.
_CHILD_VALUE = re.compile(r"(?i)value|default")
# A parent naming credentials, each of whose scalars is one (``secrets:`` over ``db: V``, ``[passwords]``,
# ``secrets.db: V``); its name as the detector reads it (:func:`_parent`).
_PARENT = re.compile(r"(?i)(?:[\w.-]{0,40}[_.-])?(?:secrets?|passwords?|passwds?|pwds?|passphrases?"
                     r"|(?:api|access|secret|auth)[_-]?(?:keys?|tokens?))|tokens?|credentials?|creds")
# ``key: scalar`` inside a line: the key perhaps quoted, the scalar perhaps quoted (no line break, no
# bracket, no comma: one scalar). Each starts at a quote or a letter, never at white space (linear).
_SCALAR = r"""(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"',{}\[\]][^\s,{}\[\]]{0,199}))"""
# Gated by the first characters of its keys, else Python's ``re`` tries every key at every character of a long line
# (docs/storage-tuning.md#the-credential-scans-regular-expressions).
_PAIR_KEY = re.compile(r"""(?i)(?=["']?[pvesfo_\-nk])(?<![\w-])["']?(""" + _NAME_KEYS + "|" + _VALUE_KEYS
                       + r""")["']?[ \t]*[:=][ \t]*""" + _SCALAR)
_IS_NAME = re.compile(r"(?i)(?:" + _NAME_KEYS + ")")
_IS_VALUE = re.compile(r"(?i)(?:" + _VALUE_KEYS + ")")
_IDENTIFIER = _at_first_use(r"[A-Za-z\u00c0-\uffff][\w.\-\u00c0-\uffff]{0,80}")
SHORT = 300  # characters of a line read as a label, a list's name or item (each pattern's time grows with it)
PAIR_LINES = 3  # lines a pair's value may follow (or precede) its name by: one object's keys
# camelCase written apart ("DBPassword" reads "DB_Password", "dbPassword" "db_Password").
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

# A name alone on its line: a YAML or JSON key opening a list ("passwords:", '"passwords": ['), a label
# ("Passwords", "Password:"); at most four words.
_LIST_KEY = re.compile(r"""[ \t]*(?:[-*+][ \t]+|[{\[][ \t]*)?["']?([^\s:"'\[\]{}|#=-][^:"'\[\]{}|=\n]{0,40}?)["']?"""
                       r"""[ \t]*(?::[ \t]*(?:\[[ \t]*)?|=[ \t]*\[[ \t]*|\[[ \t]*)?""")
# An item of a list: a bullet or a number and its text, or a quoted JSON string ('"X",').
_ITEM = re.compile(r"""([ \t]*)(?:(?:[-*+•]|\d{1,3}[.)])[ \t]+["']?([^\s"']{1,200})["']?|["']([^\s"']{1,200})["'])[ \t]*,?[ \t]*""")
# A flow list after a key on one line: ``passwords: ["X", "Y"]``, ``password = [X]``.
_FLOW_LIST = _at_first_use(r"""(?<![\w-])["']?([A-Za-z\u00c0-\uffff][\w .\-\u00c0-\uffff]{0,40}?)["']?[ \t]*[:=][ \t]*\[([^\[\]\n]+)\]""")
_FLOW_ITEM = re.compile(r"""[ \t]*(?:"([^"]*)"|'([^']*)'|([^,]*))[ \t]*(?:,|$)""")

# A label alone on its line: a few words, perhaps ending in ":"; a setext underline, a definition's value.
_LABEL = re.compile(r"[ \t]*([^\s:|<>{}\[\]()=-][^:|<>{}\[\]=\n]{0,40}?)[ \t]*:{0,2}[ \t]*")  # RST's "Password::"
_WORD = re.compile(r"[ \t]*([^\s:|<>{}\[\]()=,.;!?-]{1,20})[ \t]*")  # one word, to read the next line as its value
_TOKEN = re.compile(r"[ \t]*(?=[^\s\w]{0,199}\w)\S{1,200}[ \t]*")  # a value alone on its line: one run without white space
_UNDERLINE = re.compile(r"[ \t]*(?:=+|-+|~+|\^+|\*+|\++|#+)[ \t]*")  # setext's, RST's
_DEFINITION = re.compile(r"[ \t]*:[ \t]+(\S[^\n]*)")


def _named(name: str) -> str:
    return _CAMEL.sub("_", name)


def credential_parent(name: str) -> str | None:
    """What each scalar under a parent named ``name`` is called ("secrets" → "secret", "api_keys" →
    "api_key", "credentials" → "secret"), or None when ``name`` names no credentials."""
    if len(name) > 80 or not _PARENT.fullmatch(name):
        return None
    one = _one(name)
    return "secret" if one.lower().endswith(("credential", "cred")) else one


def _one(name: str) -> str:
    """The name of one item of a list named ``name`` ("passwords" → "password", "api_tokens" → "api_token")."""
    return name[:-1] if len(name) > 3 and name[-1] in "sS" and name[-2] not in "sS" else name


def _scalar(match: re.Match[str], at: int) -> str:
    return next(group for group in match.groups()[at:at + 3] if group is not None)


def _pairs(lines: list[str], out: dict[int, str]) -> None:
    """Each name/value pair's value line rewritten ``NAME: value`` in ``out`` (by line number)."""
    keys: list[tuple[int, re.Match[str]]] = []  # (line, match) of each name or value key, in order
    for number, line in enumerate(lines):
        if ":" in line or "=" in line:
            keys += [(number, key) for key in _PAIR_KEY.finditer(line)]
    edits: dict[int, list[tuple[re.Match[str], str]]] = {}
    used: set[int] = set()
    for i, (number, key) in enumerate(keys):
        if not _IS_NAME.fullmatch(key.group(1)) or i in used:
            continue
        name = _scalar(key, 1)
        if not _IDENTIFIER().fullmatch(name):
            continue
        # the value key nearest it, after it or (none there) before it, within one object's lines
        for j in (i + 1, i - 1):
            if 0 <= j < len(keys) and j not in used and abs(keys[j][0] - number) <= PAIR_LINES \
                    and not _IS_NAME.fullmatch(keys[j][1].group(1)):
                used.update((i, j))
                edits.setdefault(keys[j][0], []).append((keys[j][1], f"{_named(name)}: {_scalar(keys[j][1], 1)}"))
                break
    for number, changes in edits.items():
        line, pieces, at = lines[number], [], 0
        for key, text in sorted(changes, key=lambda change: change[0].start()):
            pieces += [line[at:key.start()], text]
            at = key.end()
        out[number] = "".join(pieces) + line[at:]


def _lists(lines: list[str], out: dict[int, str], block: set[int]) -> None:
    """Each item of a list under a name (the line before the list, or the key of a flow list on its line)
    rewritten ``name: item``. A line of a YAML block scalar (``block``) names no list: it is its key's value."""
    name: str | None = None
    key_line, blank = -1, False
    for number, line in enumerate(lines):
        item = _ITEM.fullmatch(line) if name is not None and len(line) <= SHORT else None
        if item is not None and number not in out:
            text = item.group(2) if item.group(2) is not None else item.group(3)
            if text:
                out[number] = f"{item.group(1)}{_one(name)}: {text}"
                # the name stands on each item's line: left over it, the detector took "name:" over
                # "name: X" for one name and its value
                for line_number in (key_line, key_line - blank):
                    out.setdefault(line_number, "")
            continue
        if not line.strip() and name is not None and number == key_line + 1 and not blank:
            blank = True  # one blank line between a label and its list ("Passwords:", blank, "- X")
            key_line = number
            continue
        key, blank = (_LIST_KEY.fullmatch(line) if len(line) <= SHORT and number not in block else None), False
        name = key.group(1).strip() if key is not None and key.group(1).strip() else None
        key_line = number
        if name is None and "[" in line and number not in out:
            flows = list(_FLOW_LIST().finditer(line))
            if flows:
                out[number] = "; ".join(f"{_one(flow.group(1).strip())}: {value}" for flow in flows
                                        for value in _flow_items(flow.group(2)))


def _flow_items(items: str) -> list[str]:
    values = []
    for item in _FLOW_ITEM.finditer(items):
        value = next((group for group in item.groups() if group is not None), "").strip()
        if value:
            values.append(value)
        if item.end() >= len(items):
            break
    return values


# A node's properties before its value (YAML 1.2 §6.9): an anchor ("&db"), a tag ("!!str", "!secret", "!", "!<tag:x>"),
# or both in either order, parted by spaces; each bounded, so a pattern holding them stays linear.
_PROPERTY = r"(?:&[^\s,\[\]{}]{1,64}|!<[^\s<>]{1,64}>|![^\s,\[\]{}<]{0,64})"
PROPERTIES = f"{_PROPERTY}(?:[ \\t]+{_PROPERTY})?"
# A key opening a YAML block scalar ("password: |", "key: >-", "token: |2", "password: &db |"): the lines indented
# deeper after it are its value, whatever follows the document.
_BLOCK_KEY = re.compile(rf"([ \t]*)(?:-[ \t]+)?[^\s#][^\n]{{0,200}}?:[ \t]+(?:{PROPERTIES}[ \t]+)?[|>][+-]?[0-9]?[+-]?[ \t]*")


def block_scalar_lines(lines: list[str]) -> set[int]:
    """The numbers of the lines of ``lines`` inside a YAML block scalar (``_BLOCK_KEY``): each line after
    its key, to the first one not blank and indented no deeper than the key. Linear."""
    inside: set[int] = set()
    indent: int | None = None  # the key's indentation while in a block
    for number, line in enumerate(lines):
        stripped = line.lstrip(" \t")
        if indent is not None and (not stripped or len(line) - len(stripped) > indent):
            inside.add(number)
            continue
        key = _BLOCK_KEY.fullmatch(line) if len(line) <= SHORT else None
        indent = None if key is None else len(key.group(1))
    return inside


def _labels(lines: list[str], out: dict[int, str], block: set[int]) -> None:
    """The line after a label alone on its line (past one or two blank lines or a setext underline, or
    a definition's ``: value``) rewritten ``label: value``; a single word's next line too (``密碼`` over
    ``X``). A line of a YAML block scalar (``block``) is its key's value, neither label nor labelled
    ("password: |" over its value, then a note's list)."""
    for number, line in enumerate(lines):
        label = _LABEL.fullmatch(line) if line.strip() and len(line) <= SHORT and number not in out \
            and number not in block else None
        if label is None:
            continue
        after, gap = number + 1, False
        while after < len(lines) and after <= number + 3 and (not lines[after].strip() or (
                len(lines[after]) <= SHORT and _UNDERLINE.fullmatch(lines[after]))):
            after, gap = after + 1, True
        if after >= len(lines) or after in out or after in block or len(lines[after]) > SHORT:
            continue
        definition = _DEFINITION.fullmatch(lines[after])
        if definition is not None:
            out[after] = f"{label.group(1)}: {definition.group(1)}"
        elif (gap or _WORD.fullmatch(line)) and _TOKEN.fullmatch(lines[after]):
            out[after] = f"{label.group(1)}: {lines[after].strip()}"


# A table's row: cells parted by "|" ("||" in Confluence's head), with or without the outer pipes.
_CONFLUENCE = re.compile(r"\|\|")


def _cells(line: str) -> list[str]:
    row = _CONFLUENCE.sub("|", line.strip())
    return [cell.strip() for cell in row[row.startswith("|"):len(row) - row.endswith("|")].split("|")]


_DELIMITER = re.compile(r"[ \t|:-]*-[ \t|:-]*")


def _tables(lines: list[str], out: dict[int, str]) -> None:
    """Each row under a table's head naming a password column (``secret_lists.names_password_column``),
    with as many cells as the head, rewritten ``<column>: <cell>`` for those columns; a row of two cells
    that follows no such head, ``<first>: <second>``."""
    from .secret_lists import names_password_column

    head: tuple[int, list[str], list[int]] | None = None  # cells' count, names, password columns
    for number, line in enumerate(lines):
        if "|" not in line:
            head = None
            continue
        if _DELIMITER.fullmatch(line):
            continue
        cells = _cells(line)
        if head is not None and len(cells) == head[0]:
            out[number] = "; ".join(f"{head[1][i]}: {cells[i]}" for i in head[2] if cells[i])
            continue
        columns = [i for i, cell in enumerate(cells) if cell and names_password_column(cell)]
        head = (len(cells), cells, columns) if columns and len(cells) > 1 else None
        if len(cells) == 2 and cells[0]:
            out[number] = f"{cells[0]}: {cells[1]}"
        elif len(cells) > 2 and cells[0] and names_password_column(cells[0]):  # "Password | X | prod"
            out[number] = f"{cells[0]}: {cells[1]}"


# A text worth parsing as YAML (JSON is YAML): a line opening a flow collection, a list's item or a key.
_DOCUMENT = re.compile(r"""(?m)^[ \t]*(?:[{\[]|-[ \t]|["']?[\w.-]{1,80}["']?[ \t]*:(?:[ \t]|$))""")
_FENCE = re.compile(r"[ \t]*(?:```|~~~)[^\n]*")
MOST_PARSED = 256 * 1024  # characters parsed as YAML at most: what a memory holds (limits.MAX_CONTENT_CHARS)
REWRITTEN = 2  # characters a parsed document's lines are rewritten into, per character of it (docs/limits.md)


@functools.lru_cache(maxsize=4)  # a redaction reads one text in two readings, and again each round
def parsed(text: str) -> Mapping[int, str]:
    """The lines (0-based) of ``text`` rewritten from its YAML or JSON, whole or in fenced blocks, parsed
    with PyYAML's composer, which never expands an alias (a billion laughs is one node): a name/value
    pair's value line ``NAME: value``; a list's scalar items under a key ``key: item``; a key's scalar
    met again through an alias, or starting below its key (a block scalar), ``key: value``. Several on one
    line parted by "; ". Linear: each scalar is written once under each name, in ``REWRITTEN`` times the
    text's characters at most (an anchor's value aliased under many names is read no further); libyaml
    bounds nesting to 1,000 levels; a text longer than ``MOST_PARSED`` is not parsed."""
    if len(text) > MOST_PARSED or not _DOCUMENT.search(text):
        return MappingProxyType({})
    out: dict[int, list[str]] = {}
    if not _compose(text, 0, out):
        block: list[str] | None = None
        for number, line in enumerate(text.split("\n")):
            if _FENCE.fullmatch(line):
                if block is not None:
                    _compose("\n".join(block), number - len(block), out)
                block = None if block is not None else []
            elif block is not None:
                block.append(line)
    return MappingProxyType({number: "; ".join(texts) for number, texts in out.items()})


class _Stream:
    """``text`` as a stream that PyYAML reads a buffer at a time (16 KiB in libyaml), each read a Python call at which
    the GIL can pass to another thread, where a string passed whole is scanned in one call. The same nodes, lines
    and columns as the string's."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def read(self, size: int) -> str:
        piece = self.text[self.at:self.at + size]
        self.at += len(piece)
        return piece


def _compose(text: str, first: int, out: dict[int, list[str]]) -> bool:
    """Each document of ``text`` read into ``out`` (its lines from ``first``); False when it is no YAML."""
    import yaml

    try:
        roots = list(yaml.compose_all(_Stream(text), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    except (yaml.YAMLError, RecursionError, ValueError):
        return False
    budget = [REWRITTEN * len(text)]  # characters written, and items of aliased nodes read again, at most
    lines = text.split("\n")
    for root in roots:
        if root is not None:
            _walk(root, first, out, budget, lines)
    return True


def _walk(root: object, first: int, out: dict[int, list[str]], budget: list[int], lines: list[str]) -> None:
    """The name/value lines of the document ``root`` of ``lines`` (the text from its line ``first``) into
    ``out``: each scalar once under each name it is given, ``budget[0]`` characters in all (an aliased
    node read again costs its items), what is past it left unread."""
    from yaml import MappingNode, ScalarNode, SequenceNode

    written: set[tuple[int, str]] = set()
    # a block scalar on its key's line, left to the line rules ("password: &db |"): its key's name, written when an
    # alias rewrites its lines under another name ("other: *db"), so that its own is not lost
    unread: dict[int, str] = {}

    def emit(node: ScalarNode, name: str, value: str) -> None:
        if (id(node), name) in written or budget[0] <= 0:
            return
        if unread.get(id(node), name) != name:
            emit(node, unread.pop(id(node)), value)
        written.add((id(node), name))
        if node.style in ("|", ">"):  # a block's lines (literal or folded), each read as the value's
            last = min(node.end_mark.line - (node.end_mark.column == 0), len(lines) - 1)
            parts = [(n, lines[n]) for n in range(node.start_mark.line + 1, last + 1)]
            # its head's line ("password: &db |") read as nothing: its name is on each line, and left as it is its
            # name would take the next line's name for its value
            out.setdefault(first + node.start_mark.line, [])
        else:  # a scalar over several lines reads as one line, on its first
            parts = [(node.start_mark.line, " ".join(value.splitlines()))]
        for number, part in parts:
            line = f"{_named(name)}: {part.strip()}"
            budget[0] -= len(line) + 2  # and the "; " parting it from another
            if budget[0] < 0:
                return
            if part.strip():
                out.setdefault(first + number, []).append(line)

    seen: set[int] = set()
    stack: list[tuple[object, str | None]] = [(root, None)]
    while stack and budget[0] > 0:
        node, name = stack.pop()
        again = id(node) in seen
        seen.add(id(node))
        if isinstance(node, MappingNode) and not again:
            scalars = [(k.value, v) for k, v in node.value
                       if isinstance(k, ScalarNode) and isinstance(v, ScalarNode)]
            names = [v.value for k, v in scalars if _IS_NAME.fullmatch(k) and _IDENTIFIER().fullmatch(v.value)
                     or _GENERIC_NAME.fullmatch(k) and _LABEL_NAME().fullmatch(v.value)]
            values = ([v for k, v in scalars if _IS_VALUE.fullmatch(k)]
                      or [v for k, v in scalars if _GENERIC_VALUE.fullmatch(k)])
            if len(names) == 1 and len(values) == 1:
                emit(values[0], names[0], values[0].value)
            parent = credential_parent(name) if name is not None and not names else None
            for key, value in node.value:
                key_name = key.value if isinstance(key, ScalarNode) else name
                if isinstance(value, ScalarNode):
                    if parent is not None:  # ``secrets:`` over ``db: V``
                        emit(value, parent, value.value)
                    elif key_name is not None and (id(value) in seen or value.start_mark.line > key.start_mark.line
                                                   or _with_properties(value, lines)):
                        emit(value, key_name, value.value)
                    elif key_name is not None and value.style in ("|", ">"):
                        unread[id(value)] = key_name
                    seen.add(id(value))
                else:
                    if isinstance(value, MappingNode) and key_name is not None and budget[0] > 0:
                        budget[0] -= len(value.value)  # an aliased mapping's keys are read again at each alias
                        if _child_value(value, key_name, emit):
                            # the name stands on its value's line: left over it, "name:" is read as the name's pair
                            out.setdefault(first + key.start_mark.line, [])
                    stack.append((value, key_name))
        elif isinstance(node, SequenceNode) and name is not None:
            if again:
                budget[0] -= len(node.value)
            for item in node.value:
                if isinstance(item, ScalarNode):
                    emit(item, _one(name), item.value)
                elif not again:
                    stack.append((item, name))
        elif isinstance(node, SequenceNode) and not again:
            stack += [(item, None) for item in node.value]


def _with_properties(node: object, lines: list[str]) -> bool:
    """Whether ``node`` is written after an anchor or a tag ("password: &db X", "password: !!str X": YAML 1.2
    §6.9 node properties), which the line as written puts between its name and its value; not a block scalar,
    whose lines the line rules read ("password: !!str |")."""
    mark = node.start_mark  # type: ignore[attr-defined]
    return node.style not in ("|", ">") and lines[mark.line][mark.column:mark.column + 1] in ("&", "!")  # type: ignore[attr-defined]


def _child_value(node: object, name: str, emit: Callable[..., None]) -> bool:
    """A child mapping's one value key (``_CHILD_VALUE``) emitted as its parent's ``name``, when no key
    of it names an entry (``{"adminPassword": {"value": V}}``); whether it was."""
    from yaml import ScalarNode

    keys = [(k.value, v) for k, v in node.value if isinstance(k, ScalarNode)]  # type: ignore[attr-defined]
    values = [v for k, v in keys if isinstance(v, ScalarNode) and _CHILD_VALUE.fullmatch(k)]
    if len(values) == 1 and not any(_IS_NAME.fullmatch(k) for k, _ in keys):
        emit(values[0], name, values[0].value)
        return True
    return False


# A block's head alone on its line: a key opening a mapping (``secrets:``, ``"adminPassword": {``), a
# Terraform block (``variable "db_password" {``), an INI section (``[passwords]``); and a child's
# ``key: scalar`` or ``key = scalar`` line under it.
_HEAD = re.compile(r"""([ \t]*)(?:[A-Za-z][\w-]{0,40}[ \t]+)?["']?([A-Za-z][\w.-]{0,80})["']?"""
                   r"""[ \t]*(?:[:=][ \t]*\{?|\{)[ \t]*|([ \t]*)\[([A-Za-z][\w.-]{0,80})\][ \t]*""")
_CHILD = re.compile(r"""([ \t]*)["']?([\w.-]{1,80})["']?[ \t]*[:=][ \t]*""" + _SCALAR + r"[ \t]*[,;]?[ \t]*")
# A flow mapping after a key on one line (``secrets = {"db": V}``, ``{"adminPassword": {"value": V}}``),
# and its ``key: scalar`` items.
_FLOW_MAP = re.compile(r"""(?<![\w.-])["']?([A-Za-z][\w.-]{0,80}+)["']?[ \t]*[:=][ \t]*\{([^{}\n]{1,400}+)\}""")
_FLOW_PAIR = re.compile(r"""["']?([\w.-]{1,80}+)["']?[ \t]*[:=][ \t]*""" + _SCALAR)


def _rewritten(name: str, key: str) -> str | None:
    """The name a child ``key`` of a block named ``name`` is read by: the parent's one when it names
    credentials (``secrets`` → "secret"), ``name`` when ``key`` holds its value (``default``), else None."""
    parent = credential_parent(name)
    if parent is not None:
        return parent
    return _named(name) if _CHILD_VALUE.fullmatch(key) else None


def _blocks(lines: list[str], out: dict[int, str]) -> None:
    """Each child ``key: V`` of a block under a head (``_HEAD``; deeper than it, or any line to the next
    blank or section in an INI file) rewritten ``name: V`` (:func:`_rewritten`); each item of a flow
    mapping after a key the same way, on its line."""
    head: tuple[str, int, bool, int] | None = None  # its name, indentation, whether an INI section, line
    for number, line in enumerate(lines):
        short = len(line) <= SHORT
        child = _CHILD.fullmatch(line) if short and head is not None else None
        if child is not None and (head[2] or len(child.group(1)) > head[1]):  # type: ignore[index]
            name = _rewritten(head[0], child.group(2))  # type: ignore[index]
            if name is not None and number not in out:
                out[number] = f"{child.group(1)}{name}: {_scalar(child, 2)}"
                out.setdefault(head[3], "")  # type: ignore[index]  # as ``_lists`` does
            continue
        found = _HEAD.fullmatch(line) if short else None
        if found is not None:
            ini = found.group(4) is not None
            head = (found.group(4) if ini else found.group(2), len(found.group(3 if ini else 1)), ini, number)
        elif not (head is not None and head[2] and (not line.strip() or line.lstrip().startswith(("#", ";")))):
            head = None  # an INI section lasts over blank lines and comments
        if "{" in line and number not in out and len(line) <= 4 * SHORT:
            pairs = [f"{name}: {_scalar(pair, 1)}" for flow in _FLOW_MAP.finditer(line)
                     for pair in _FLOW_PAIR.finditer(flow.group(2))
                     if (name := _rewritten(flow.group(1), pair.group(1))) is not None]
            if pairs:
                out[number] = "; ".join(pairs)


# A flattened field's path before its value ("Parameters[0].DBPassword: X", a captured tool input:
# ``transcripts.input_text``): read by its last name, camelCase apart. Not "=": code assigns an attribute
# ("this.token = nextToken2").
_PATH = re.compile(r"[ \t]*[\w\[\]-]{1,80}(?:\.[\w\[\]-]{1,80}){0,8}\.([A-Za-z][A-Za-z0-9_-]{1,60})(:[ \t]+\S[^\n]*)")


# Any such path (``secrets.db: X``, ``tokens[0]: X``, ``headers[0]: X-Api-Key X``): its segments, each
# perhaps with an index.
_ANY_PATH = re.compile(r"[ \t]*([\w\[\]-]{1,80}(?:\.[\w\[\]-]{1,80}){0,8}):[ \t]+(\S[^\n]*)")
_SEGMENT = re.compile(r"([\w-]{1,80})((?:\[\d{1,6}\])*)")
# A list's item holding a name and its value (a header written as a pair: ``["X-Api-Key", X]``).
_NAMED_ITEM = re.compile(r"([A-Za-z][\w-]{1,60})[ \t]+(\S{1,200})")


def _under_parent(line: str) -> str | None:
    """A path line read by a segment naming credentials before its last name or holding an index
    (``secrets.db: X`` → "secret: X", ``tokens[0]: X`` → "token: X"), or an indexed item's own name and
    value (``headers[0]: X-Api-Key X`` → "X-Api-Key: X"); None for another."""
    path = _ANY_PATH.fullmatch(line)
    if path is None:
        return None
    segments = [_SEGMENT.fullmatch(segment) for segment in path.group(1).split(".")]
    if any(segment is None for segment in segments):
        return None
    for i, segment in enumerate(segments):
        if (i < len(segments) - 1 or segment.group(2)) and (parent := credential_parent(segment.group(1))):  # type: ignore[union-attr]
            return f"{parent}: {path.group(2)}"
    item = _NAMED_ITEM.fullmatch(path.group(2))
    if segments[-1].group(2) and item is not None:  # type: ignore[union-attr]
        return f"{item.group(1)}: {item.group(2)}"
    return None


# A flat object inside a line of prose or code (``{"k": "password", "v": "X"}`` in a sentence, where the text
# does not parse): its pairs, read as a parsed document's generic pair is.
_INLINE_OBJECT = re.compile(r"\{([^{}\n]{1,400}+)\}")


def _inline_pairs(lines: list[str], out: dict[int, str]) -> None:
    """Each flat object of a line holding one name key (a generic one, ``k``, ``label``, or ``name``, ``key``)
    whose value is a label and one value key (``v``, ``content``, ``default``, ``value``) rewritten ``name:
    value``, the line's objects parted by "; "."""
    for number, line in enumerate(lines):
        if number in out or "{" not in line or len(line) > 4 * SHORT:
            continue
        read = []
        for flat in _INLINE_OBJECT.finditer(line):
            pairs = [(pair.group(1), _scalar(pair, 1)) for pair in _FLOW_PAIR.finditer(flat.group(1))]
            names = [v for k, v in pairs if (_GENERIC_NAME.fullmatch(k) or _IS_NAME.fullmatch(k))
                     and _LABEL_NAME().fullmatch(v)]
            values = [v for k, v in pairs if _IS_VALUE.fullmatch(k)] or [v for k, v in pairs
                                                                         if _GENERIC_VALUE.fullmatch(k)]
            if len(names) == 1 and len(values) == 1:
                read.append(f"{_named(names[0])}: {values[0]}")
        if read:
            out[number] = "; ".join(read)


def _paths(lines: list[str], out: dict[int, str]) -> None:
    for number, line in enumerate(lines):
        if number in out:
            continue
        if ("." in line or "[" in line) and len(line) <= 4 * SHORT:
            rewritten = _under_parent(line)
            if rewritten is not None:
                out[number] = rewritten
                continue
        if "." in line:
            path = _PATH.fullmatch(line)
            if path is not None:
                out[number] = f"{_named(path.group(1))}{path.group(2)}"


def structured(text: str, found: Mapping[int, str] | None = None, block: set[int] | None = None) -> str:
    """``text`` (line breaks single newlines) with the lines the module's structures rewrite and those of
    ``found`` (:func:`parsed`) in their place, the same number of lines; ``text`` itself when none is.
    ``block``: the lines inside a YAML block scalar (:func:`block_scalar_lines`), when ``text`` lost the
    marks that say so. Linear."""
    lines = text.split("\n")
    out: dict[int, str] = {}
    block = block_scalar_lines(lines) if block is None else block
    if "|" in text:
        _tables(lines, out)
    if ":" in text or "=" in text:
        _pairs(lines, out)
    _lists(lines, out, block)
    if ":" in text or "=" in text:
        _blocks(lines, out)
    _labels(lines, out, block)
    _paths(lines, out)
    if "{" in text:
        _inline_pairs(lines, out)
    # a parsed document's lines over the structures' guesses: a YAML block's second line is its value,
    # not the value of a label standing on the first
    out.update((number, line) for number, line in (found or {}).items() if number < len(lines))
    if not out:
        return text
    return "\n".join(out.get(number, line) for number, line in enumerate(lines))
