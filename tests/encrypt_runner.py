"""``python encrypt_runner.py DB:encrypt|decrypt:STAGE ...``: one child process (forked, so memvault is
imported once) per argument converts its DB with the configured key as ``memvault encrypt`` (or decrypt)
does and, when the conversion reaches STAGE (``convert.reached``; "copying": once the copy being written holds bytes),
prints ``PID STAGE DB`` and waits to be killed (test_encryption.py sends SIGKILL). A conversion that ends
without reaching STAGE prints ``PID done DB`` or ``PID error DB``. The parent exits when every child has."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import apsw

from memvault.storage.sqlite import convert, crypto


def child(db: str, command: str, wanted: str) -> None:
    def say(what: str, more: str = "") -> None:  # one write: the children share the pipe
        os.write(1, f"{os.getpid()} {what} {db}{more}\n".encode())

    copy = Path(f"{db}{convert.SUFFIX}")
    passed: list[str] = []

    def reached(stage: str) -> None:
        passed.append(stage)
        if stage == wanted:
            say(stage)
            time.sleep(600)

    def copying() -> int:  # while VACUUM INTO writes the copy, once it holds bytes
        if "created" in passed and "written" not in passed and copy.stat().st_size > 0:
            reached("copying")
        return 0

    def small_cache(conn: apsw.Connection) -> None:  # VACUUM INTO's copy then written as it is made
        try:
            conn.execute("PRAGMA cache_size=1")
        except apsw.NotADBError:  # encrypted, no key yet: once the key is given (apply, below)
            pass

    def apply(key: crypto.Key, conn: apsw.Connection, path: object = None) -> None:
        real_apply(key, conn, path)  # type: ignore[arg-type]
        small_cache(conn)

    convert.reached = reached
    if wanted == "copying":  # each connection: a progress handler, a one-page cache
        real_apply = crypto.Key.apply
        crypto.Key.apply = apply  # type: ignore[method-assign]
        apsw.connection_hooks.append(lambda conn: (conn.set_progress_handler(copying, 10), small_cache(conn)))
    try:
        convert.convert(db, crypto.configured(db), encrypt=command == "encrypt")  # type: ignore[arg-type]
    except Exception as exc:
        say("error", f" {type(exc).__name__} {exc}")
        os._exit(1)
    say("done")
    os._exit(0)


def main() -> None:
    pids = []
    for case in sys.argv[1:]:
        db, command, wanted = case.rsplit(":", 2)
        pid = os.fork()
        if pid == 0:
            child(db, command, wanted)
        pids.append(pid)
    for pid in pids:
        os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
