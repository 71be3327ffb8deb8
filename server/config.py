"""Server configuration from the environment, overridden by command-line flags."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memvault.storage.limits import DEFAULT_SCOPE, DEFAULT_TENANT

DEFAULT_BOOT_TOKENS = 2_000


def default_db_path() -> Path:
    """``memvault.db`` in the user's data directory (platformdirs), e.g. ~/.local/share/memvault/."""
    from platformdirs import user_data_path

    return user_data_path("memvault", appauthor=False) / "memvault.db"


@dataclass(frozen=True)
class Config:
    """Everything a memvault process needs to know.

    ``db``: database file; ``tenant``: hard isolation boundary for every call of
    this process; ``scope``: default scope; ``model_dir``: folder with another
    ``model.onnx`` + ``tokenizer.json`` (None: the packaged MiniLM);
    ``boot_tokens``: token budget of the boot context.
    """

    db: Path
    tenant: str = DEFAULT_TENANT
    scope: str = DEFAULT_SCOPE
    model_dir: Path | None = None
    boot_tokens: int = DEFAULT_BOOT_TOKENS


def _flag_or_env(flag: object, env: str) -> str | None:
    if flag is not None:
        return str(flag)
    value = os.environ.get(env, "").strip()
    return value or None


def load(
    db: str | None = None,
    tenant: str | None = None,
    scope: str | None = None,
    model_dir: str | None = None,
    boot_tokens: int | None = None,
) -> Config:
    """Build the configuration: each flag given wins over its environment variable.

    Variables: MEMVAULT_DB, MEMVAULT_TENANT, MEMVAULT_SCOPE, MEMVAULT_MODEL_DIR,
    MEMVAULT_BOOT_TOKENS.

    Raises:
        ValueError: a value is malformed (the message names the variable).
    """
    db_value = _flag_or_env(db, "MEMVAULT_DB")
    tokens_value = _flag_or_env(boot_tokens, "MEMVAULT_BOOT_TOKENS")
    try:
        tokens = int(tokens_value) if tokens_value else DEFAULT_BOOT_TOKENS
    except ValueError:
        raise ValueError(f"MEMVAULT_BOOT_TOKENS must be a whole number, got {tokens_value!r}") from None
    if not 100 <= tokens <= 100_000:
        raise ValueError(f"MEMVAULT_BOOT_TOKENS must be from 100 to 100,000, got {tokens}")
    model_value = _flag_or_env(model_dir, "MEMVAULT_MODEL_DIR")
    return Config(
        db=Path(db_value).expanduser() if db_value else default_db_path(),
        tenant=_flag_or_env(tenant, "MEMVAULT_TENANT") or DEFAULT_TENANT,
        scope=_flag_or_env(scope, "MEMVAULT_SCOPE") or DEFAULT_SCOPE,
        model_dir=Path(model_value).expanduser() if model_value else None,
        boot_tokens=tokens,
    )
