"""Issue 25: the database's files, through the real bot process, the fake Discord and real files.

A database file that cannot be the players' record (empty, truncated, not SQLite, its ``-wal``
gone after a crash) is refused at start with exit status 3 and one log line; damage while the
bot runs (the ``-wal`` deleted, the file truncated, an older copy written over it) is noticed
before the next move is acknowledged: the player is told it was not saved, the bot exits 3.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.running.config import PROJECT_DIR, database_path
from tests.fakediscord import BotProcess
from tests.test_bot_discord import CODE, button

NOT_SAVED = "was not saved"


def refusals(output: str) -> list[str]:
    return [line for line in output.splitlines() if "cannot be used" in line]


def checkpoint(db: Path) -> None:
    """What another process may do at any time: copy the -wal's pages into the database file."""
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")


async def played_once(fake, proc: BotProcess):
    """Start the bot, start a game and play one move (acknowledged); the board and the player."""
    await proc.start()
    alice = fake.add_user("alice")
    board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
    moved = await fake.click(alice, board, button(board, "h"))
    assert "A♦ from column 6 home" in moved.text()
    return board, alice


def empty(db: Path) -> None:
    db.write_bytes(b"")
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)


def garbage(db: Path) -> None:
    db.write_bytes(b"these are not the players' games\n" * 200)


def truncated(db: Path) -> None:
    checkpoint(db)
    with db.open("r+b") as raw:
        raw.truncate(db.stat().st_size - 1000)


def without_wal(db: Path) -> None:
    Path(f"{db}-wal").unlink()


@pytest.mark.processes
@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (empty, "empty"),
        (garbage, "not a SQLite"),
        (truncated, "truncated"),
        (without_wal, "-wal file is gone"),
    ],
)
async def test_a_damaged_database_is_refused_at_start_with_one_log_line(
    fake_discord, tmp_path, damage, reason
):
    db = tmp_path / "bot.sqlite3"
    proc = BotProcess(fake_discord, db_path=db)
    try:
        await played_once(fake_discord, proc)
        await proc.kill()  # a crash: the -wal holds the move
        damage(db)
        before = db.read_bytes()
        await proc.spawn()
        assert await proc.wait() == 3
        run = proc.output.split("--- start #2 ---")[1]
        (line,) = refusals(run)
        assert reason in line and str(db) in line, line
        assert "Traceback" not in run
        assert db.read_bytes() == before  # never touched, never re-created
    finally:
        await proc.stop()


@pytest.mark.processes
async def test_a_clean_stop_is_not_taken_for_a_lost_wal(fake_discord, tmp_path):
    db = tmp_path / "bot.sqlite3"
    proc = BotProcess(fake_discord, db_path=db)
    try:
        board, alice = await played_once(fake_discord, proc)
        await proc.stop()  # SIGTERM
        if Path(f"{db}-wal").exists():  # not closed cleanly (no graceful stop yet): a crash, -wal kept
            return
        await proc.start()
        again = await fake_discord.click(alice, board, button(fake_discord.message(board.id), "8"))
        assert "J♦ from column 8" in again.text()
    finally:
        await proc.stop()


def remove_wal(db: Path) -> None:
    Path(f"{db}-wal").unlink()


def shorten(db: Path) -> None:
    with db.open("r+b") as raw:  # in place: the same file, shorter
        raw.truncate(db.stat().st_size // 2)


def older_copy_over(db: Path, copy: Path) -> None:
    shutil.copyfile(copy, db)  # what `cp backup.sqlite3 boulanger.sqlite3` does: same inode


@pytest.mark.processes
@pytest.mark.parametrize("damage", ["remove_wal", "shorten", "older_copy_over"])
async def test_damage_while_running_is_noticed_before_the_next_move(fake_discord, tmp_path, damage):
    db = tmp_path / "bot.sqlite3"
    proc = BotProcess(fake_discord, db_path=db)
    fake = fake_discord
    try:
        await proc.start()
        copy = tmp_path / "backup.sqlite3"
        shutil.copyfile(db, copy)  # an older (smaller) copy, taken before these games
        for name in ("bob", "carol", "dan"):
            await fake.slash(fake.add_user(name), "boulanger", {"code": CODE})
        alice = fake.add_user("alice")
        board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
        checkpoint(db)  # another process copies the -wal's pages into the file (it grows)
        moved = await fake.click(alice, board, button(board, "h"))
        assert "A♦ from column 6 home" in moved.text()
        if damage == "older_copy_over":
            older_copy_over(db, copy)
        else:
            globals()[damage](db)
        shown = fake.message(board.id).text()
        press = await fake.click(alice, board, button(fake.message(board.id), "u"))  # Undo: a write
        assert press.ephemeral and NOT_SAVED in press.text(), press.text()
        assert fake.message(board.id).text() == shown  # nothing acknowledged
        assert await proc.wait(timeout=15) == 3
        lines = [line for line in proc.output.splitlines() if "No move is acknowledged any more" in line]
        assert len(lines) == 1, proc.output
        assert f"database: {db}" in proc.output  # the absolute path, logged at start
    finally:
        await proc.stop()


def test_the_database_path_is_absolute_and_the_projects_whatever_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert database_path("") == PROJECT_DIR / "data" / "boulanger.sqlite3"
    assert database_path("  ") == PROJECT_DIR / "data" / "boulanger.sqlite3"
    assert database_path("games/b.sqlite3") == tmp_path / "games" / "b.sqlite3"  # as the operator typed it
    assert database_path(str(tmp_path / "x" / ".." / "b.sqlite3")) == tmp_path / "b.sqlite3"
    assert os.path.isabs(database_path("b.sqlite3"))
