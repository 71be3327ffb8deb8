"""``python encrypt_runner.py DB encrypt|decrypt STAGE``: convert DB with the configured key as
``memvault encrypt`` (or decrypt) does and, when the conversion reaches STAGE (``convert.reached``),
print STAGE and wait to be killed (test_encryption.py sends SIGKILL)."""

from __future__ import annotations

import sys
import time

from memvault.storage.sqlite import convert, crypto


def main() -> None:
    db, command, wanted = sys.argv[1:4]

    def reached(stage: str) -> None:
        if stage == wanted:
            print(stage, flush=True)
            time.sleep(600)

    convert.reached = reached
    convert.convert(db, crypto.configured(db), encrypt=command == "encrypt")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
