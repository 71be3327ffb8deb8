"""Who is calling a tool: :class:`Caller`, in a module of its own so that code that needs only it (the
hooks, the CLI) does not import the tools' wire schemas (pydantic)."""

from __future__ import annotations

from dataclasses import dataclass

from memvault.storage import validate
from memvault.storage.limits import GLOBAL_SCOPE


@dataclass(frozen=True)
class Caller:
    """Who is calling: ``tenant`` (hard isolation) and ``scope`` (default grouping)."""

    tenant: str
    scope: str

    def scopes(self, scope: str | None) -> list[str]:
        """The scopes searched: ``scope`` alone if given, else the default plus ``global``.

        Raises:
            InvalidInput: ``scope`` is empty, too long, or looks like a credential.
        """
        if scope is not None:
            return [validate.scope(scope, self.scope, reading=True)]
        return [self.scope, GLOBAL_SCOPE]
