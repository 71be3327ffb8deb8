"""The server's log says whether it created the database or opened one that was there."""

from __future__ import annotations

import logging

from memvault.server.config import Config
from memvault.server.runtime import Runtime


def opened(db, caplog) -> str:  # type: ignore[no-untyped-def]
    caplog.clear()
    runtime = Runtime(Config(db=db))
    try:
        with caplog.at_level(logging.INFO, logger="memvault.server.runtime"):
            runtime.store()
    finally:
        runtime.close()
    return " ".join(r.getMessage() for r in caplog.records if "memvault database" in r.getMessage())


def test_a_new_database_is_said_to_be_created_and_an_existing_one_opened(tmp_path, caplog):
    db = tmp_path / "new.db"
    assert " created (model:" in opened(db, caplog) and db.exists()
    assert " opened (model:" in opened(db, caplog)
