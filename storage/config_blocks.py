"""What a configuration text configures: the hosts of its ssh_config ``Host`` lines, the names of its nginx
``server_name`` and Apache ``ServerName`` lines, the sections of an INI, git config or TOML file
(``[database]``, ``[remote "origin"]``). Two memories configuring other things (``Host web1`` / ``Host db1``)
are two things, and the values they hold in the same keys (``HostName``, ``Port``) contradict nothing;
docs/how-memory-works.md#contradictions."""

from __future__ import annotations

import re
from functools import lru_cache

# ssh_config: "Host web1 web1.lan" (patterns up to the end of the line, a comment or a keyword in one line;
# "host = db1" is an INI key).
_SSH_HOST = re.compile(r"^[ \t]*Host[ \t]+([^\s=#][^\n#]*)", re.IGNORECASE | re.MULTILINE)
_SSH_KEYWORDS = frozenset("hostname user port identityfile proxyjump proxycommand forwardagent localforward"
                          " identitiesonly serveraliveinterval".split())
_SERVER_NAME = re.compile(r"\bserver_name[ \t]+([^;{}\n#]+)")  # nginx
_APACHE_NAME = re.compile(r"^[ \t]*ServerName[ \t]+(\S+)", re.IGNORECASE | re.MULTILINE)
# INI, git config, TOML, systemd: "[database]", '[remote "origin"]' alone on a line, in a text of "key = value"
# lines ("[shared an image: ...]" in a chat turn is none).
_SECTION = re.compile(r'^[ \t]*\[([\w.-]+(?:[ \t]+"[^"\n]*")?)\][ \t]*$', re.MULTILINE)
_KEY_VALUE = re.compile(r"^[ \t]*[\w.-]+[ \t]*=", re.MULTILINE)


@lru_cache(maxsize=1024)
def configured(text: str) -> dict[str, frozenset[str]]:
    """{form: the names ``text`` configures in it}: "ssh" (the ``Host`` patterns, when another ssh keyword
    is in the text), "server" (nginx ``server_name`` and Apache ``ServerName``), "section" (``[name]`` on a
    line of its own in a text of ``key = value`` lines, lowercase, spaces folded: ``remote "origin"``). Forms the text has none of are absent."""
    found: dict[str, set[str]] = {}
    for m in _SSH_HOST.finditer(text):
        words = m.group(1).split()
        patterns = [w.lower() for w in words[:next((i for i, w in enumerate(words) if w.lower() in _SSH_KEYWORDS),
                                                    len(words))]]
        if patterns and (len(patterns) < len(words) or any(w.lower() in _SSH_KEYWORDS for w in text.split())):
            found.setdefault("ssh", set()).update(patterns)
    for pattern in (_SERVER_NAME, _APACHE_NAME):
        for m in pattern.finditer(text):
            found.setdefault("server", set()).update(w.lower() for w in m.group(1).split())
    for m in _SECTION.finditer(text) if _KEY_VALUE.search(text) else ():
        found.setdefault("section", set()).add(" ".join(m.group(1).lower().split()))
    return {form: frozenset(names) for form, names in found.items()}


def configure_other_things(a: str, b: str) -> bool:
    """Whether texts ``a`` and ``b`` configure things of one form and none of the same name in it: ssh
    ``Host web1`` / ``Host db1``, ``server_name api.example.com`` / ``www.example.com``, ``[remote
    "origin"]`` / ``[remote "upstream"]``; not ``Host web1`` with a changed ``HostName`` in each."""
    mine, theirs = configured(a), configured(b)
    shared = mine.keys() & theirs.keys()
    return bool(shared) and all(mine[form].isdisjoint(theirs[form]) for form in shared)
