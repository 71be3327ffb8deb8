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
    ``boot_tokens``: token budget of the boot context; ``allow_secrets``: store
    content that contains credentials (off by default).
    """

    db: Path
    tenant: str = DEFAULT_TENANT
    scope: str = DEFAULT_SCOPE
    model_dir: Path | None = None
    boot_tokens: int = DEFAULT_BOOT_TOKENS
    allow_secrets: bool = False


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
    allow_secrets: bool | None = None,
) -> Config:
    """Build the configuration: each flag given wins over its environment variable.

    Variables: MEMVAULT_DB, MEMVAULT_TENANT, MEMVAULT_SCOPE, MEMVAULT_MODEL_DIR,
    MEMVAULT_BOOT_TOKENS, MEMVAULT_ALLOW_SECRETS (1/true/yes or 0/false/no).

    Raises:
        ValueError: a value is malformed (the message names the variable).
    """
    db_value = _flag_or_env(db, "MEMVAULT_DB")
    tokens_value = _flag_or_env(boot_tokens, "MEMVAULT_BOOT_TOKENS")
    try:
        tokens = int(tokens_value) if tokens_value else DEFAULT_BOOT_TOKENS
    except ValueError:
        raise ValueError(f"--boot-tokens / MEMVAULT_BOOT_TOKENS must be a whole number, got {tokens_value!r}") from None
    if not 100 <= tokens <= 100_000:
        raise ValueError(f"--boot-tokens / MEMVAULT_BOOT_TOKENS must be from 100 to 100,000, got {tokens}")
    model_value = _flag_or_env(model_dir, "MEMVAULT_MODEL_DIR")
    secrets_value = (_flag_or_env(allow_secrets or None, "MEMVAULT_ALLOW_SECRETS") or "0").lower()
    if secrets_value not in {"1", "true", "yes", "0", "false", "no"}:
        raise ValueError(f"MEMVAULT_ALLOW_SECRETS must be 1/true/yes or 0/false/no, got {secrets_value!r}")
    return Config(
        db=Path(db_value).expanduser() if db_value else default_db_path(),
        tenant=_flag_or_env(tenant, "MEMVAULT_TENANT") or DEFAULT_TENANT,
        scope=_flag_or_env(scope, "MEMVAULT_SCOPE") or DEFAULT_SCOPE,
        model_dir=Path(model_value).expanduser() if model_value else None,
        boot_tokens=tokens,
        allow_secrets=secrets_value in {"1", "true", "yes"},
    )
