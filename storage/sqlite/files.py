"""The database's files on disk: created owner-only, never re-created silently where one was.

``prepare(path)`` runs before the bot opens its database:

- the data directory is created ``0700``, the database ``0600`` (SQLite gives its
  ``-wal`` and ``-shm`` files the database's mode); existing files readable by
  others are tightened, with a log line;
- a marker file (``<database>.created``) is written beside the database. If the
  database is later missing while its marker (or its ``-wal``/``-shm``) is
  still there, the database was lost, and ``prepare`` refuses to start rather
  than begin again with an empty one; ``init=True`` (``python -m bot --init``)
  is the explicit "start again empty" (it still refuses over a stale ``-wal``);
- with neither database nor marker (a fresh machine), the database is created,
  and a log line says so.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import stat
from pathlib import Path

from storage.sqlite.opening import MEMORY, unusable

log = logging.getLogger(__name__)

MARKER_SUFFIX = ".created"
SIDE_FILES = ("-wal", "-shm")
FILE_MODE = 0o600
DIR_MODE = 0o700
_MARKER_TEXT = (
    "A Boulanger database was created beside this file ({name}, {when}).\n"
    "While this marker exists, the bot refuses to start without that database instead of\n"
    "starting again with an empty one. Restore the database from a backup, or start the bot\n"
    "once with --init to begin again with an empty database.\n"
)


def marker_of(path: str | os.PathLike[str]) -> Path:
    file = Path(path)
    return file.with_name(file.name + MARKER_SUFFIX)


def side_files(path: str | os.PathLike[str]) -> list[Path]:
    file = Path(path)
    return [file.with_name(file.name + suffix) for suffix in SIDE_FILES]


def prepare(path: str, *, init: bool = False) -> bool:
    """Make ``path`` ready to open (see the module's text); True when a new database was created.

    Raises ``DatabaseUnusable`` (reason ``"missing"`` or ``"stale_wal"``) instead of
    creating a database where one was lost.
    """
    if path == MEMORY:
        return False
    file = Path(path)
    _directory(file.parent)
    if file.exists():
        tighten(path)
        _mark(file)
        return False
    marker = marker_of(file)
    leftovers = [str(p) for p in side_files(file) if p.exists()]
    if not init and (marker.exists() or leftovers):
        raise unusable(path, "missing", ", ".join(([str(marker)] if marker.exists() else []) + leftovers))
    if leftovers:
        raise unusable(path, "stale_wal", ", ".join(leftovers))
    if marker.exists():
        log.warning("--init: the database %s was lost; starting again with an empty one", path)
    elif init:
        log.warning("--init: creating a new, empty database at %s", path)
    else:
        log.warning("no database at %s yet (first run): creating a new, empty one", path)
    os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))  # empty = valid SQLite
    marker.unlink(missing_ok=True)
    _mark(file)
    return True


def tighten(path: str) -> None:
    """Make the database and its side files owner-only (after it was opened too: new -wal/-shm)."""
    if path == MEMORY:
        return
    for file in (Path(path), *side_files(path), marker_of(path)):
        _owner_only(file, FILE_MODE)


def _directory(folder: Path) -> None:
    if not folder.exists():
        folder.mkdir(mode=DIR_MODE, parents=True)
        os.chmod(folder, DIR_MODE)  # mkdir's mode is filtered by the umask
        log.info("created the data directory %s (owner only)", folder)
        return
    # Tighten an existing directory only when it is the database's own (holds nothing else):
    # never a shared one such as /tmp.
    ours = {p.name for p in folder.iterdir()}
    if all(_belongs(name) for name in ours):
        _owner_only(folder, DIR_MODE)


def _belongs(name: str) -> bool:
    return name.endswith((".sqlite3", ".db", "-wal", "-shm", "-journal", MARKER_SUFFIX))


def _owner_only(file: Path, mode: int) -> None:
    try:
        current = stat.S_IMODE(file.stat().st_mode)
    except FileNotFoundError:
        return
    if current & 0o077:
        os.chmod(file, mode)
        log.warning("tightened %s from %o to %o: other users must not read the database", file, current, mode)


def _mark(file: Path) -> None:
    marker = marker_of(file)
    if marker.exists():
        return
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(_MARKER_TEXT.format(name=file.name, when=when))
