"""``python -m bot backup DEST``: a consistent copy of the SQLite database, taken while the bot runs.

SQLite's online backup API copies every page in one step under one read transaction:
the copy is the database as of one moment (every move committed before the backup began
is in it), and the bot keeps writing meanwhile (WAL: readers never block the writer).
The copy is written beside DEST first, checked with ``PRAGMA integrity_check``, turned
into one self-contained file (no -wal beside it), then renamed into place: DEST is never
a half-written or unchecked file. It is readable by its owner only, like the database.

PostgreSQL is backed up with its own tools (``pg_dump``; see README, "Backups").
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import time
from pathlib import Path

from bot.running.config import Config

#: Milliseconds the copy waits for a writer's lock (a checkpoint) before giving up.
BUSY_MS = 10_000


class BackupFailed(Exception):
    """The copy could not be made or did not pass its check; nothing was left at DEST."""


def backup(source: Path, dest: Path) -> tuple[int, int]:
    """Copy ``source`` to ``dest`` (refused if it exists); (bytes written, schema version)."""
    if not source.is_file():
        raise BackupFailed(f"there is no database at {source}")
    if dest.exists():
        raise BackupFailed(f"{dest} exists already: choose a new name (a backup never overwrites)")
    if not dest.parent.is_dir():
        raise BackupFailed(f"the folder {dest.parent} does not exist")
    partial = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_MS / 1000)
        try:
            copy = sqlite3.connect(partial)
            try:
                src.backup(copy)  # all pages in one step: one snapshot
                problems = [str(r[0]) for r in copy.execute("PRAGMA integrity_check").fetchall()]
                if problems != ["ok"]:
                    raise BackupFailed(f"the copy fails integrity_check: {'; '.join(problems[:3])}")
                version = int(copy.execute("PRAGMA user_version").fetchone()[0])
                copy.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal to carry along
            finally:
                copy.close()
        finally:
            src.close()
        with open(partial, "rb+") as written:
            os.fsync(written.fileno())
        os.replace(partial, dest)
        _fsync_dir(dest.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        raise
    return dest.stat().st_size, version


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def main(args: list[str], config: Config) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot backup", description=__doc__.split("\n")[0])
    parser.add_argument("dest", help="the new file to write (never overwritten)")
    ns = parser.parse_args(args)
    if config.database_url:
        print(
            "BOULANGER_DATABASE_URL is set: back PostgreSQL up with pg_dump "
            '(pg_dump --format=custom --file=boulanger.dump "$BOULANGER_DATABASE_URL"; see README, "Backups").',
            file=sys.stderr,
        )
        return 2
    started = time.monotonic()
    try:
        size, version = backup(config.db_path, Path(ns.dest))
    except (BackupFailed, sqlite3.Error, OSError) as exc:
        print(f"error: backup failed: {exc}", file=sys.stderr)
        return 1
    print(
        f"backed up {config.db_path} to {ns.dest}: {size} bytes, schema version {version}, "
        f"integrity_check ok, {time.monotonic() - started:.2f} s"
    )
    return 0
