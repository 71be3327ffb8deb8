"""Who is calling a tool: :class:`Caller`, in a module of its own so that code that needs only it (the
hooks, the CLI) does not import the tools' wire schemas (pydantic)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from memvault.storage import validate
from memvault.storage.limits import GLOBAL_SCOPE


@dataclass(frozen=True)
class Caller:
    """Who is calling: ``tenant`` (hard isolation) and ``scope`` (default grouping)."""

    tenant: str
    scope: str

    def scopes(self, scope: str | None, held: Callable[[], Collection[str]] | None = None) -> list[str]:
        """The scopes searched: ``scope`` alone if given, else the default plus ``global``. ``scope`` is
        read as written: a :func:`validate.name`, or one of the scopes ``held`` (:func:`validate.scope`).

        Raises:
            InvalidInput: ``scope`` is refused as remember refuses it (a space around it, a look-alike
                character form, a credential, ...), and is no scope held.
        """
        if scope is not None:
            return [validate.scope(scope, self.scope, held=held)]
        return [self.scope, GLOBAL_SCOPE]
