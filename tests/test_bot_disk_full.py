"""Issue 25: a full disk under the real bot process: the player is told, the log says why, it recovers.

The database lives on a small tmpfs of its own (mounting one needs root, as the test machine's
user is); a filler file takes the rest of its space, so SQLite's next write meets ENOSPC.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

import pytest

from tests.fakediscord import BotProcess
from tests.test_bot_discord import CODE, button

STORE_FAILED = "The game store could not do that; nothing was changed."


@pytest.fixture
def small_disk(tmp_path):
    folder = tmp_path / "small"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.fail("this test mounts a small tmpfs: run the suite as root (the test machine's user is)")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)
    return filler


@pytest.mark.processes
async def test_a_full_disk_is_logged_with_its_cause_and_the_player_told(fake_discord, small_disk):
    fake = fake_discord
    db = small_disk / "data" / "bot.sqlite3"
    proc = BotProcess(fake, db_path=db)
    try:
        await proc.start()
        alice = fake.add_user("alice")
        board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
        filler = fill(small_disk)
        refused = None
        for _ in range(20):  # until the -wal needs a page more than the disk has
            shown = fake.message(board.id).text()
            pressed = button(fake.message(board.id), "h")
            press = await fake.click(alice, board, pressed)
            if press.ephemeral and STORE_FAILED in press.text():
                refused = press
                assert fake.message(board.id).text() == shown  # the board did not change
                break
            press = await fake.click(alice, board, button(fake.message(board.id), "u"))
        assert refused is not None, proc.output
        logged = [line for line in proc.output.splitlines() if "storage failed" in line]
        assert logged and all("disk full" in line and "WARNING" in line for line in logged), logged
        assert len([line for line in logged if repr(pressed) in line]) == 1  # once, not per layer
        assert "Traceback" not in proc.output
        filler.unlink()  # space again: the next move is played
        again = await fake.click(alice, board, button(fake.message(board.id), "h"))
        assert not again.ephemeral and "A♦ from column 6 home" in again.text()
        assert proc.returncode is None  # still serving
    finally:
        await proc.stop()


async def test_the_cause_is_named_from_sqlites_own_errors(tmp_path):
    """Full (SQLite's max_page_count: the database full for real) and locked (another writer)."""
    import sqlite3

    import storage
    from bot.adapter.errors import storage_cause

    path = tmp_path / "db.sqlite3"
    store = await storage.open_store(str(path), busy_timeout=0.2)
    try:
        game = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
        pages = (await (await store._db._conn.execute("PRAGMA page_count")).fetchone())[0]
        await store._db._conn.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(storage.StorageError) as full:
            await store.append_moves(game.id, game.version, ["6h", "undo"] * 3000, score=0, move_count=0)
        assert storage_cause(full.value) == "disk full", full.value
        await store._db._conn.execute("PRAGMA max_page_count = 1073741823")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        try:
            with pytest.raises(storage.StorageError) as locked:
                await store.append_move(game.id, game.version, "6h", score=10, move_count=1)
            assert storage_cause(locked.value) == "locked", locked.value
        finally:
            other.execute("ROLLBACK")
            other.close()
    finally:
        await store.close()
