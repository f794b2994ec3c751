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
  and a log line says so;
- a database file that is there but cannot be the database that was created here is
  refused too (``check_content``): empty (0 bytes) while the marker exists, shorter than
  a page or not starting with SQLite's header, not a whole number of pages, or shorter
  than the page count its header states (with no ``-wal`` to complete it);
- the marker's last line says whether the bot has the database open (``state: open``,
  written once it is opened) or closed it cleanly (``state: closed``, written once its
  ``-wal`` is gone). A database whose marker says "open" (the bot was killed) but whose
  ``-wal`` is missing while its ``-shm`` still counts frames never copied into the database
  lost the moves saved in that file: refused (``wal_missing``).
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import stat
import struct
from pathlib import Path

from storage.sqlite.opening import MEMORY, unusable

log = logging.getLogger(__name__)

MARKER_SUFFIX = ".created"
SIDE_FILES = ("-wal", "-shm")
SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
WAL_INDEX_SIZE = 136  # the -shm's header: two copies of the WAL index header, then the checkpoint info
OPEN, CLOSED = "open", "closed"
_STATE = "state: "
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
        if file.is_file():
            check_content(path, init=init)
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


def check_content(path: str, *, init: bool = False) -> None:
    """Refuse a database file that cannot be the one created here (see the module's text)."""
    file = Path(path)
    size = file.stat().st_size
    marker = marker_of(file)
    wal = file.with_name(file.name + "-wal")
    has_wal = wal.exists() and wal.stat().st_size > 0
    if size == 0:
        if marker.exists() and not init:
            raise unusable(path, "empty", f"0 bytes; marker {marker}")
        return  # a new database (SQLite takes an empty file as one); with --init: begin again
    with file.open("rb") as raw:
        header = raw.read(HEADER_SIZE)
    if len(header) < HEADER_SIZE or not header.startswith(SQLITE_MAGIC):
        raise unusable(path, "corrupt", f"{size} bytes without SQLite's header")
    page_size = struct.unpack(">H", header[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise unusable(path, "corrupt", f"page size {page_size} in its header")
    if size % page_size:
        raise unusable(path, "truncated", f"{size} bytes is not a whole number of {page_size}-byte pages")
    pages, counter, valid_for = struct.unpack(">I", header[28:32]), header[24:28], header[92:96]
    if not has_wal and counter == valid_for and pages[0] * page_size > size:
        raise unusable(path, "truncated", f"{size} bytes; its header says {pages[0]} pages of {page_size}")
    if not wal.exists() and marker_state(file) == OPEN and not init:
        _check_wal_gone(file, marker)


def _check_wal_gone(file: Path, marker: Path) -> None:
    """The bot did not stop cleanly and its ``-wal`` is gone. SQLite itself removes the ``-wal``
    and the ``-shm`` together, once it has copied every frame into the database (the last
    connection to close, e.g. ``sqlite3`` run by the operator): nothing lost. A ``-shm`` left
    behind whose index counts frames never copied says the ``-wal`` was deleted: refused."""
    shm = file.with_name(file.name + "-shm")
    try:
        with shm.open("rb") as raw:
            index = raw.read(WAL_INDEX_SIZE)
    except FileNotFoundError:
        log.warning(
            "%s: the bot using it did not stop cleanly, and its -wal and -shm are gone (SQLite removes "
            "both once it has copied the -wal into the database; if they were deleted instead, the "
            "moves since the last checkpoint are lost)",
            file,
        )
        return
    if len(index) < WAL_INDEX_SIZE:
        return  # no index written yet: no frames
    frames, copied = struct.unpack("=I", index[16:20])[0], struct.unpack("=I", index[96:100])[0]
    if frames > copied:
        raise unusable(str(file), "wal_missing", f"{frames - copied} frames never copied; marker {marker}")


def marker_state(path: str | os.PathLike[str]) -> str | None:
    """``open``/``closed`` from the marker's last line (None: no marker, or one without a state)."""
    try:
        lines = marker_of(path).read_text(encoding="utf-8").splitlines()
    except (FileNotFoundError, UnicodeDecodeError):
        return None
    last = lines[-1] if lines else ""
    return last[len(_STATE) :].strip() if last.startswith(_STATE) else None


def mark_open(path: str) -> None:
    """The bot has the database open: from now on its ``-wal`` holds saved moves."""
    if path != MEMORY:
        _set_state(Path(path), OPEN)


def mark_closed(path: str) -> None:
    """After a clean close: "closed" once the ``-wal`` is gone (another process may still use it)."""
    if path == MEMORY:
        return
    file = Path(path)
    if file.exists() and not file.with_name(file.name + "-wal").exists():
        _set_state(file, CLOSED)


def _set_state(file: Path, state: str) -> None:
    marker = marker_of(file)
    try:
        lines = marker.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return
    except UnicodeDecodeError:
        lines = []
    text = "\n".join([line for line in lines if not line.startswith(_STATE)] + [_STATE + state]) + "\n"
    fresh = marker.with_name(marker.name + ".new")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(fresh, marker)


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
    return name.endswith(
        (".sqlite3", ".db", "-wal", "-shm", "-journal", MARKER_SUFFIX, MARKER_SUFFIX + ".new")
    )


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
