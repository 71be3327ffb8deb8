"""The version of an installed package, read without importing it."""

from __future__ import annotations

import re


def version(distribution: str, package: str, file: str, variable: str) -> str:
    """``distribution``'s version, as ``variable = "..."`` in its package ``package``'s ``file``, read as
    text: importing detect-secrets brings its whole scanner, dateparser its parsers, and ``importlib.metadata``
    the email package, in every hook (docs/hooks.md#speed). From ``importlib.metadata`` when that file does
    not say it."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    for folder in (spec and spec.submodule_search_locations) or ():
        try:
            with open(f"{folder}/{file}", encoding="utf-8") as fh:
                found = re.search(rf"""^{variable}\s*=\s*['"]([^'"]+)['"]""", fh.read(), re.MULTILINE)
        except OSError:
            found = None
        if found:
            return found.group(1)
    from importlib.metadata import version as metadata_version

    return metadata_version(distribution)
