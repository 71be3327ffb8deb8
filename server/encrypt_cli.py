"""``memvault encrypt`` and ``memvault decrypt``: convert the SQLite file with the configured key
(docs/encryption.md)."""

from __future__ import annotations

from pathlib import Path

from memvault.storage.errors import StoreError
from memvault.storage.sqlite import convert, crypto

from . import config as config_module
from .cli_io import err


def run(command: str, config: config_module.Config) -> int:
    """Convert ``config.db`` (``command`` "encrypt" or "decrypt"); what happened on stderr. Exit 1 on
    refusal, 2 without a key or on PostgreSQL."""
    encrypt = command == "encrypt"
    if isinstance(config.db, str):
        return _say(f"{command}: memvault encrypts SQLite files only; {config.db_label} is a PostgreSQL "
                    "database (docs/encryption.md)", 2)
    path = Path(config.db)
    try:
        key = crypto.configured(path)
        if key is None and crypto.is_plain(path) is False:
            return _say(f"{command}: {crypto.mismatch(path, 'no key')}", 2)
        if key is None:
            return _say(f"{command}: no key is configured: {crypto.HOW}", 2)
        crypto.require_ciphers()
        convert.convert(path, key, encrypt)
    except StoreError as exc:
        return _say(f"{command}: {exc}", 1)
    if encrypt:
        return _say(f"encrypted {path} with the key from {key.source}. Keep a copy of that key somewhere "
                    "else: without it these memories cannot be read. Copies made before (backups, exports) "
                    "stay as they were.", 0)
    return _say(f"decrypted {path}: it is a plain SQLite file now. Unset the key setting ({key.source}) "
                "before the next start, or memvault refuses the plain file.", 0)


def _say(text: str, code: int) -> int:
    err(text)
    return code
