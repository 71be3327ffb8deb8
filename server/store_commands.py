"""The ``memvault`` commands that work on a store (:data:`RUN`): the tools' own handlers for
remember, recall, show, forget, supersede and confirm, and list, stats, reindex, doctor, export, import and
consolidate. Each takes the store, the caller and the parsed arguments, and returns the exit code."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memvault.storage.errors import shown

from .cli_io import convert_command, emit, err, out, progress_bar

if TYPE_CHECKING:
    from memvault.storage.store import Store
    from memvault.tools.caller import Caller


def _filters(args: argparse.Namespace) -> dict[str, Any]:
    return {"kinds": args.kinds, "tags": args.tags, "since": args.since, "until": args.until,
            "include_history": args.history}


def _fields(args: argparse.Namespace) -> dict[str, Any]:
    return {"kind": args.kind, "tags": args.tags, "importance": args.importance, "observed_at": args.observed_at,
            "expires_at": args.expires_at, "source": args.source}


# Commands that call a tool's handler: (handler, its arguments from the command line, the text
# a person reads: tools.text, as the model reads it, with the CLI's flags). A typed --scope is the
# tool's ``scope`` (that scope only); MEMVAULT_SCOPE, or none, is the configured scope (plus ``global``).
TOOLS: dict[str, tuple[str, Callable[[argparse.Namespace], dict[str, Any]], Callable[[Any, Any], str]]] = {
    "remember": ("remember", lambda a: {"content": _text(a.content), **_fields(a)}, lambda t, r: t.render(r)),
    "recall": ("recall", lambda a: {"query": a.query, "limit": a.limit, **_filters(a), "scope": a.scope,
                                    "turns": a.turns, "session_id": a.session},
               lambda t, r: t.recall_text(r, person=True)),
    "show": ("memory_view", lambda a: {"memory_id": a.id}, lambda t, r: t.memory_view_text(r)),
    "forget": ("forget", lambda a: {"id": a.id, "reason": a.reason, "include_history": a.history,
                                    "session_id": a.session},
               lambda t, r: t.render(r)),
    "confirm": ("confirm", lambda a: {"id": a.id, "outcome": a.outcome, "note": a.note, "beside": a.beside},
                lambda t, r: t.render(r)),
    "supersede": ("supersede", lambda a: {"id": a.id, "content": _text(a.content), "by": a.by, "reason": a.reason,
                                          **_fields(a)},
                  lambda t, r: t.render(r)),
}


def _text(given: str | None) -> str | None:
    """A command's CONTENT: "-" reads it from standard input as UTF-8 (a byte-order mark dropped), as
    ``import -`` reads its lines, whatever the terminal's code page (docs/cli-notes.md#arguments).

    Raises:
        InvalidInput: ``content`` (CONTENT), when standard input is not UTF-8, saying why.
    """
    if given != "-":
        return given
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream without bytes beneath: as it decodes
        return sys.stdin.read()
    data = buffer.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        from memvault.storage.errors import InvalidInput

        from .cli_io import not_utf8

        why, encoding = not_utf8([data]) or ("it is not UTF-8", None)
        hint = f" (convert it: iconv -f {encoding} -t UTF-8)" if encoding else ""
        raise InvalidInput("content", f"standard input: {why}; memvault reads UTF-8 text{hint}") from None


def done(command: str, result: Any) -> str | None:
    """What a command's call wrote, in a person's words (None: it wrote nothing): said when its result
    cannot be printed (``cli._printing``), so that a full disk under stdout does not read as a failed write."""
    if command == "remember":
        return f"the memory was stored as {result.id}" if result.created else None
    if command == "supersede" and result.stored:
        return f"memory {result.superseded_id} was superseded by {result.id}"
    if command == "forget" and result.forgotten and not result.already_forgotten:
        return f"session {result.session} was forgotten" if result.session else f"memory {result.id} was forgotten"
    if command == "confirm":
        return "the confirmation was recorded"
    return None


def _tool(command: str) -> Callable[[Store, Caller, argparse.Namespace], int]:
    name, arguments, render = TOOLS[command]

    def run(store: Store, caller: Caller, args: argparse.Namespace) -> int:
        from memvault.tools import handlers, text

        result = getattr(handlers, name)(store, caller, **arguments(args))
        args.done = done(command, result)  # written: whatever happens to the output now
        return emit(args, result, lambda: render(text, result))

    return run


def _list(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.tools import handlers, text

    found = handlers.list_memories(store, caller, limit=20 if args.limit is None else args.limit, scope=args.scope,
                                   offset=args.offset, cursor=args.cursor, **_filters(args))
    total = handlers.count_memories(store, caller, scope=args.scope, **_filters(args))
    offset = args.offset or 0
    # JSON pages like the text: the count of all that match, the next page's cursor and offset (null: end).
    page = {**found.model_dump(mode="json"), "total": total,
            "next_offset": None if args.cursor else text.next_offset(total, offset, len(found.memories))}
    return emit(args, page, lambda: text.list_text(found, total, offset, by_offset=args.offset is not None,
                                                    paged=args.cursor is not None))


# Headings of `memvault stats` other than the JSON key with spaces for underscores.
STATS_HEADINGS = {"model_id": "model", "by_kind": "current memories by kind",
                  "scrub_pending": "scrub of forgotten text pending"}


def _stats(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.storage import maintenance

    stats = maintenance.stats(store)
    lines = []
    for key, value in stats.items():
        heading = STATS_HEADINGS.get(key, key.replace("_", " "))
        if key == "by_scope":
            lines.append("current memories by tenant and scope:")
            for tenant, scopes in value.items():
                counts = ", ".join(f"{scope} {n}" for scope, n in scopes.items())
                lines.append(f"  tenant {tenant}: {counts}")
        elif isinstance(value, dict):
            lines.append(f"{heading}:")
            lines.extend(f"  {name}: {inner}" for name, inner in value.items())
        else:
            lines.append(f"{heading}: {('yes' if value else 'no') if isinstance(value, bool) else value}")
    return emit(args, stats, lambda: "\n".join(lines))


def _reindex(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.tools import text

    from memvault.storage import maintenance

    made = _run_reindex(store)
    if made is None:
        return 130
    result = {"reindexed": made, "model_id": maintenance.stats(store)["model_id"]}
    return emit(args, result, lambda: f"Reindexed: {text.count(made, 'vector')} made with model "
                                       f"{result['model_id']}.")


def _run_reindex(store: Store) -> int | None:
    """Reindex with a progress bar; None when Ctrl-C stopped it (a re-run resumes)."""
    from memvault.storage import maintenance

    bar = progress_bar(total=0, unit="memory", desc="reindex")

    def progress(done: int, total: int) -> None:
        bar.total, bar.n = total, done
        bar.refresh()

    try:
        made = maintenance.reindex(store, progress)
    except KeyboardInterrupt:
        err("reindex stopped; memories without a vector are still found by keywords. "
             "Run `memvault reindex` again to resume.")
        return None
    finally:
        bar.close()
    _index_vectors(store)
    return made


def _index_vectors(store: Store) -> None:
    """Bring the vector index up to date before exiting, so the first server does not while an agent
    waits; Ctrl-C leaves the rest to the server."""
    from memvault.storage.errors import Busy, StorageUnavailable

    bar = progress_bar(unit="step", desc="vector index")
    try:
        store.backend.maintain(lambda: bool(bar.update()) and False)  # each step counted
    except KeyboardInterrupt:
        err("vector index upkeep stopped; the server finishes it in the background.")
    except (Busy, StorageUnavailable) as exc:
        err(f"vector index upkeep postponed ({exc}); the server finishes it in the background.")
    finally:
        bar.close()


def _doctor(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    """Check (``--repair``: mend first); the report is ``maintenance.check``'s problems, the files others
    may read (SQLite: the database, -wal and -shm) and ``maintenance.stats``."""
    from memvault.storage import maintenance
    from memvault.storage.errors import StorageUnavailable
    from memvault.tools import text

    def exposed() -> list[tuple[Path, int]]:
        if store.backend.kind != "sqlite":
            return []
        files = [Path(f"{store.backend.location}{suffix}") for suffix in ("", "-wal", "-shm")]
        return [(p, p.stat().st_mode & 0o777) for p in files if p.exists() and p.stat().st_mode & 0o077]

    report: dict[str, Any] = {}
    lines = []
    if args.repair:
        made = _run_reindex(store)
        if made is None:
            return 130
        scrub_pending = not store.upkeep.scrub()
        private = exposed()
        for path, mode in private:
            path.chmod(mode & 0o700)
        report["repaired"] = {"reindexed": made, "scrub_pending": scrub_pending,
                              "made_private": [str(path) for path, _ in private]}
        made_private = ", made private: " + ", ".join(report["repaired"]["made_private"]) if private else ""
        scrub = "still pending (busy)" if scrub_pending else "none pending"
        lines.append(f"repaired: keyword index rebuilt, {text.count(made, 'vector')} made, scrub of "
                     f"forgotten content {scrub}{made_private}")
    with contextlib.suppress(StorageUnavailable):  # (a damaged file: the checks below name it)
        pending = store.upkeep.scrub_pending()
        # PostgreSQL's is only ever done when asked: here; a busy one stays pending (a problem below).
        if store.upkeep.scrub() and pending:
            report["scrubbed"] = True
            lines.append("scrubbed: the forgotten content a scrub was pending for is gone from the files")
    try:
        problems = maintenance.check(store) + [
            f"{path} has mode {mode:o}: others can read it (chmod go-rwx, or doctor --repair)"
            for path, mode in exposed()]
        report = {"ok": not problems, "problems": problems, **report, **maintenance.stats(store)}
    except StorageUnavailable as exc:  # a damaged file: said as the problem it is, not a traceback
        problems = _damage(store.backend.location, exc) if store.backend.kind == "sqlite" else [str(exc)]
        report = {"ok": False, "problems": problems, **report}
    problems[:0] = getattr(args, "before_open", [])
    report["ok"] = not problems
    if store.backend.kind == "sqlite" and store.backend.read_only:  # not a problem: what could not be done
        note = (f"the database is read-only here ({store.backend.read_only}): every check that reads ran, not "
                "the FTS5 index's own check, which needs the write lock; nothing can be repaired here (doctor "
                "--repair writes)")
        report["notes"] = [note]
        lines.append(f"note: {note}")
    return _said(args, report, lines, problems)


def damaged(exc: Exception) -> bool:
    """Whether SQLite called the file damaged (corrupt, or not a database) when ``exc`` was raised."""
    import apsw

    return isinstance(exc.__cause__, (apsw.CorruptError, apsw.NotADBError))


def doctor_unopened(path: Path, exc: Exception, args: argparse.Namespace) -> int:
    """``memvault doctor`` on an SQLite file that could not be opened because it is damaged: what is
    wrong with it and how to recover (exit 1)."""
    return doctor_report(args, [*getattr(args, "before_open", []), *_damage(path, exc)])


def doctor_report(args: argparse.Namespace, problems: list[str]) -> int:
    """``memvault doctor``'s report of ``problems`` found without opening the store (exit 1)."""
    return _said(args, {"ok": False, "problems": problems}, [], problems)


def _damage(path: Path | str, exc: Exception) -> list[str]:
    """The failed checks of a damaged SQLite file (``health.damage``) when SQLite called it damaged,
    else ``exc``'s message (a wrong key, a busy or unreadable file say so themselves)."""
    from memvault.storage.sqlite import health

    if not damaged(exc):
        return [str(exc)]
    return [f"the database file is damaged: {p}" for p in health.damage(Path(path))] or [str(exc)]


def _said(args: argparse.Namespace, report: dict[str, Any], lines: list[str], problems: list[str]) -> int:
    from memvault.storage.sqlite.health import RECOVERY

    lines += [f"problem: {p}" for p in problems] or ["ok: no problems found"]
    damaged = [p for p in problems if p.startswith("the database file is damaged")]
    unreadable = any(check in p for p in damaged for check in ("the size check", "the header check"))
    if unreadable:  # no memvault command can open it: export neither
        report["recovery"] = f"restore a backup: the file cannot be opened to export from it ({RECOVERY})"
    elif damaged:
        report["recovery"] = (f"`memvault export -o saved.jsonl` saves what can still be read, to `memvault "
                              f"import` into a new file; or restore a backup ({RECOVERY})")
    if damaged:
        lines.append(f"to recover: {report['recovery']}")
    emit(args, report, lambda: "\n".join(lines))
    return 1 if problems else 0


def _export(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.storage import transfer
    from memvault.tools import text

    left_out: list[str] = []
    exported: set[str] = set()
    lines = 0
    with _export_sink(args) as write:
        if write is None:
            return 2
        try:
            for line in transfer.export_lines(store, caller.tenant, left_out=left_out, written=exported):
                write(line)
                lines += 1
        except Exception as exc:
            if store.backend.kind != "sqlite" or not (damaged(exc) or isinstance(exc.__cause__, UnicodeDecodeError)):
                raise  # (bytes written over a text: damage too, said by the backend as such)
            return _salvage(Path(store.backend.location), caller.tenant, store.clock(), write, exported, exc)
    if left_out:
        err(f"left out {text.count(len(left_out), 'superseded memory', 'superseded memories')} whose newest "
             f"version was forgotten or has expired (history without a current version), e.g. {left_out[0]}")
    if not lines:  # decided: not an error (an empty tenant's backup is empty), but never silent (a mistyped --tenant)
        err(f"exported nothing: tenant {shown(caller.tenant)} has no memories or sessions in this database; "
            "if yours are under another tenant, give it with --tenant or MEMVAULT_TENANT")
    return 0


def export_unopened(path: Path, tenant: str, args: argparse.Namespace, exc: Exception) -> int:
    """``memvault export`` of an SQLite file too damaged to open: what :func:`_salvage` reads (exit 1)."""
    from memvault.storage.timefmt import now_ms

    with _export_sink(args) as write:
        if write is None:
            return 2
        return _salvage(path, tenant, now_ms(), write, set(), exc)


@contextlib.contextmanager
def _export_sink(args: argparse.Namespace) -> Iterator[Callable[[str], None] | None]:
    """Where export writes its lines: ``--output`` (private, made anew) or stdout as UTF-8 whatever the
    console's encoding (``export > backup.jsonl``); None when ``--output`` cannot be written (said)."""
    if args.output is None:
        if isinstance(sys.stdout, io.TextIOWrapper):
            sys.stdout.reconfigure(encoding="utf-8", errors="strict", newline="\n")
        yield out
        return
    try:
        fd = os.open(args.output, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    except OSError as exc:  # no such folder, a folder, no permission: one line, not a traceback
        err(f"--output: cannot write {shown(args.output)}: {exc.strerror}")
        yield None
        return
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        yield lambda line: fh.write(line + "\n")


def _salvage(path: Path, tenant: str, now: int, write: Callable[[str], None], written: set[str],
             exc: Exception) -> int:
    """Write ``tenant``'s memories that can be read around the damaged pages of the SQLite file at ``path``
    (``sqlite.salvage``), those of ``written`` excepted, and say on stderr that the export is incomplete:
    how many were saved, how many could not be read and why (exit 1)."""
    import apsw

    from memvault.storage import transfer
    from memvault.storage.errors import MemvaultError
    from memvault.storage.sqlite import crypto, salvage
    from memvault.tools import text

    try:
        found = salvage.salvage(path, crypto.configured(path))
    except (OSError, MemvaultError, apsw.Error) as failed:  # (the file went away, or its key cannot be read)
        err(f"export is incomplete: the database file is damaged ({exc}); its memories could not be read "
            f"around the damage ({failed}). {RECOVERY_WORDS}")
        return 1
    left_out: list[str] = []
    saved = len(written)
    for line in transfer.salvaged_lines(found.memories, tenant, now, skip=written, left_out=left_out):
        write(line)
        saved += 1
    lost = [memory_id for memory_id, owner in found.lost.items() if owner == tenant]
    said = (f"export is incomplete: the database file is damaged ({_reason(exc)}). Saved "
            f"{text.count(saved, 'memory', 'memories')} read around the damaged pages; ")
    if found.missing:
        said += (f"{'' if found.exact else 'at least '}{text.count(found.missing, 'stored memory', 'stored memories')} "
                 f"(of any tenant) could not be "
                 f"read from the damaged pages")
        said += f", e.g. {lost[0]}" if lost else ""
    elif not found.memories:
        said += "no memory could be read: every page holding them is damaged"
    else:
        said += "every memory row found in the file was read"
    said += ("; procedures' runs and sessions are not saved from a damaged file"
             if found.memories or found.missing else "")
    untagged = [m.id for m in found.memories.values() if m.tenant == tenant and m.id in found.untagged]
    if untagged:
        said += (f"; the tags of {text.count(len(untagged), 'memory', 'memories')} could not all be read (their "
                 f"pages are damaged): saved with those that could, e.g. {untagged[0]}")
    if left_out:
        said += (f"; left out {text.count(len(left_out), 'superseded memory', 'superseded memories')} whose "
                 "newest version could not be read or is gone")
    err(f"{said}. {RECOVERY_WORDS}")
    return 1


RECOVERY_WORDS = ("Import what was saved into a new file (`memvault import`), or restore a backup; `memvault "
                  "doctor` says what else is damaged (docs/troubleshooting.md#a-damaged-database).")


def _reason(exc: Exception) -> str:
    """SQLite's words for the damage within ``exc``'s message (``database disk image is malformed``)."""
    message = str(exc)
    inner = message.partition("(")[2].partition(")")[0]
    return inner or message


IMPORT_ERRORS_SHOWN = 20  # failed lines listed on stderr; --json lists them all


def _import(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    """Import with a progress bar and a summary on stderr; exit 1 when a line failed, 130 on Ctrl-C."""
    import dataclasses

    from memvault.storage import transfer
    from memvault.tools import text

    if args.source:
        return _import_transcripts(store, caller, args)
    # A file was checked whole before (cli._not_utf8_input); of stdin, what its buffer held, and a
    # later line that is not UTF-8 (its bytes reach here as lone surrogates) stops the import there.
    total = None  # a named pipe, /dev/null, <(zcat dump.gz): read once, as stdin is
    if args.file == "-":
        source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="surrogateescape")
    else:
        source = open(args.file, encoding="utf-8-sig", errors="surrogateescape")
    if args.file != "-" and Path(args.file).is_file():
        with open(args.file, "rb") as fh:
            total = sum(1 for _ in fh)
    bar = progress_bar(total=total, unit="line", desc="import")
    stopped: list[int] = []

    def utf8_lines() -> Iterator[str]:
        for number, line in enumerate(source, start=1):
            if _ESCAPED_BYTE.search(line):
                stopped.append(number)
                return
            yield line

    try:
        report = transfer.import_lines(store, utf8_lines(), tenant=caller.tenant, scope=caller.scope,
                                       progress=lambda lines: bar.update(lines - bar.n))
    except KeyboardInterrupt:
        err("import stopped; what was imported stays. Run the same command again to resume.")
        return 130
    finally:
        bar.close()
        if args.file != "-":  # stdin stays open
            source.close()
    say_created(args)
    if report.imported:
        _index_vectors(store)
    if stopped:  # one error for the line, and none for those after it: they were not read
        report = dataclasses.replace(report, failed=(*report.failed, transfer.LineError(
            stopped[0], "line", "is not UTF-8: the import stopped here (the lines before it were imported); memvault "
                                "imports JSON lines in UTF-8: convert the rest, naming the encoding it is in, e.g. "
                                f"{convert_command(args.file, None)}, and import it again")))
    failed = sorted(report.failed, key=lambda e: e.line)
    for error in failed[:IMPORT_ERRORS_SHOWN]:
        err(f"line {error.line}: {error.field}: {error.message}")
    if len(failed) > IMPORT_ERRORS_SHOWN:
        more = text.count(len(failed) - IMPORT_ERRORS_SHOWN, "more failed line")
        err(f"... and {more} (--json lists them all)")
    err(f"imported {report.imported:,} of {text.count(report.read - report.sessions, 'memory line')} (blank lines "
         f"skipped): {report.skipped_existing:,} already there, {report.vectors_pending:,} waiting for vectors")
    if report.sessions:
        err(f"sessions: {text.count(report.turns_added, 'turn')} added, {report.turns_existing:,} already there, "
             f"from {text.count(report.sessions, 'session line')}")
    if report.private_removed:
        lines = ", ".join(map(str, report.private_removed[:IMPORT_ERRORS_SHOWN]))
        more = ", ..." if len(report.private_removed) > IMPORT_ERRORS_SHOWN else ""
        err(f"redacted: the text inside <private>...</private> was removed, not stored, from "
            f"{text.count(len(report.private_removed), 'line')} ({lines}{more})")
    if failed:
        err(f"{text.count(len(failed), 'line')} failed (memory or session lines, named above): nothing of them "
            "was written")
    if report.degraded:
        err(f"degraded: {report.degraded}")
    if args.json:
        out(json.dumps(dataclasses.asdict(report), indent=2))
    return 1 if failed else 0


_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as surrogateescape reads it


def say_created(args: argparse.Namespace) -> None:
    if args.created:
        err(f"created a new database at {args.created}")
        args.created = None


def _import_transcripts(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    """``import --from claude-code``: each transcript's sessions and turns (ended, with their digests),
    with a progress bar; the summary on stderr (``--json``: on stdout too)."""
    from memvault.tools import text

    from . import capture, transcripts

    root = Path(args.file).expanduser() if args.file else transcripts.DEFAULT_ROOT.expanduser()
    files = transcripts.transcripts(root)
    bar = progress_bar(total=len(files), unit="file", desc="import")
    try:
        report = capture.import_transcripts(store, caller.tenant, caller.scope, files, lambda: bar.update(1))
    except KeyboardInterrupt:
        err("import stopped; what was imported stays. Run the same command again to resume.")
        return 130
    finally:
        bar.close()
    say_created(args)
    ended = report["sessions_ended"]
    nothing = " (nothing new: all were already there)" if files and not report["turns_added"] + ended else ""
    said_ended = (f"; {text.count(ended, 'session')} ended, {text.count(ended, 'digest')} written (a session "
                  "still in use reopens at its next turn)") if ended else ""
    replaced = f"; replaced in the text: {', '.join(report['redacted'])}" if report["redacted"] else ""
    turns, sessions = text.count(report["turns_added"], "turn"), text.count(report["sessions"], "session")
    err(f"imported {turns} of {sessions} "
         f"from {text.count(len(files), 'transcript')}{'' if root.is_file() else f' under {root}'}: "
         f"{report['turns_already_there']:,} "
         f"already there{nothing}{replaced}{said_ended}")
    for path, lines in report["unreadable_lines"].items():
        err(f"{path}: {text.count(len(lines), 'line')} not JSON, skipped (e.g. line {lines[0]})")
    for path, lines in report["refused_lines"].items():
        err(f"{path}: {text.count(len(lines), 'entry', 'entries')} skipped: its sessionId cannot be a "
             f"session id (1-128 letters, digits and ._:-, no credential) (e.g. line {lines[0]})")
    for path, sessions_skipped in report["other_scope"].items():
        for session_id, n in sessions_skipped.items():
            err(f"{path}: {text.count(n, 'turn')} of session {session_id} skipped: that session belongs "
                 f"to another scope")
    if report["turns_refused"]:
        err(f"{text.count(report['turns_refused'], 'turn')} refused by the store, skipped")
    for path, why in report["failed"].items():
        err(f"{path}: its import stopped here (what was read before is kept): {why}")
    if args.json:
        out(json.dumps(report, indent=2))
    return 1 if report["failed"] else 0


def _consolidate(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    """One consolidation of every tenant (``consolidate.consolidate``), then what waits for review in
    each tenant's scopes."""
    from memvault.storage import maintenance
    from memvault.storage.consolidate import consolidate
    from memvault.tools import text

    report = consolidate(store)
    waiting = {}
    for tenant in maintenance.stats(store)["by_scope"]:  # type: ignore[attr-defined]
        review = store.review(tenant, list(store.scope_counts(tenant=tenant)), reasons=0)
        waiting[tenant] = {"contradictions": len(review.contradictions), "decayed": len(review.decayed),
                           "failing": len(review.failing), "more": review.more}
    result = {**report.as_json(), "waiting": waiting}
    lines = [f"compacted {text.count(sum(len(c.sources) for c in report.compacted), 'episode')} into "
             f"{text.count(len(report.compacted), 'digest')}"]
    lines += [f"  {c.digest_id} tenant {c.tenant}, scope {c.scope}, week {c.week}: "
              f"{text.count(len(c.sources), 'episode')}" for c in report.compacted]
    lines.append(f"compared {text.count(report.compared, 'memory', 'memories')} written since the last run: "
                 f"{text.count(report.contradictions, 'new contradicting pair')}")
    if report.skipped:
        lines.append(f"{text.count(report.skipped, 'digest')} left for the next run (a source changed "
                     "meanwhile)")
    for tenant, counts in waiting.items():
        lines.append(f"tenant {tenant}: {text.count(counts['contradictions'], 'contradicting pair')}, "
                     f"{counts['decayed']}{'+' if counts['more'] else ''} decayed, "
                     f"{text.count(counts['failing'], 'failing procedure')} wait for review (memory://review)")
    lines.append(f"longest write transaction: {report.longest_write_ms:.1f} ms")
    return emit(args, result, lambda: "\n".join(lines))


RUN: dict[str, Callable[[Store, Caller, argparse.Namespace], int]] = {
    **{name: _tool(name) for name in TOOLS}, "list": _list, "stats": _stats, "reindex": _reindex,
    "consolidate": _consolidate, "doctor": _doctor, "export": _export, "import": _import,
}
