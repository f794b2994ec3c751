"""A real SQLite file unlinked or replaced under a running store; files created owner-only, never silently."""

from __future__ import annotations

import logging
import os
import stat

import pytest

import storage
from storage.sqlite.files import marker_of, prepare, tighten

CODE = "BK1-C4-AAAAA24"


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


async def new_store(path):
    prepare(str(path))
    store = await storage.open_store(str(path))
    game = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
    return store, game


async def test_a_write_after_the_file_was_unlinked_is_refused_and_reported_once(tmp_path):
    path = tmp_path / "db.sqlite3"
    store, game = await new_store(path)
    lost = []
    store.on_lost = lost.append
    try:
        game = await store.append_move(game.id, game.version, "6h", score=10, move_count=1)
        path.unlink()
        with pytest.raises(storage.DatabaseUnusable) as refused:
            await store.append_move(game.id, game.version, "1a", score=10, move_count=2)
        assert refused.value.reason == "vanished" and "deleted" in str(refused.value)
        with pytest.raises(storage.DatabaseUnusable):  # every later write, too
            await store.set_user_language(5, "ru")
        assert [e.reason for e in lost] == ["vanished"]
        assert (await store.get_game(game.id)).moves == ("6h",)  # the refused move was rolled back
    finally:
        await store.close()
    assert not path.exists()


async def test_a_file_put_in_its_place_is_noticed_too(tmp_path):
    path = tmp_path / "db.sqlite3"
    store, game = await new_store(path)
    try:
        other = tmp_path / "other.sqlite3"
        other.write_bytes(b"")
        os.replace(other, path)
        with pytest.raises(storage.DatabaseUnusable) as refused:
            await store.append_move(game.id, game.version, "6h", score=10, move_count=1)
        assert refused.value.reason == "replaced"
        assert path.read_bytes() == b""  # nothing was written to the newcomer either
    finally:
        await store.close()


async def test_first_run_creates_owner_only_files_and_a_marker(tmp_path, caplog):
    path = tmp_path / "data" / "db.sqlite3"
    with caplog.at_level(logging.WARNING):
        assert prepare(str(path)) is True
    assert "first run" in caplog.text
    store = await storage.open_store(str(path))
    try:
        await store.set_user_language(5, "ru")
        tighten(str(path))
        assert mode(path.parent) == 0o700
        for file in (
            path,
            path.with_name("db.sqlite3-wal"),
            path.with_name("db.sqlite3-shm"),
            marker_of(path),
        ):
            assert mode(file) == 0o600, file
    finally:
        await store.close()
    assert prepare(str(path)) is False  # the second start opens what is there


async def test_a_lost_database_is_not_replaced_by_an_empty_one_without_init(tmp_path):
    path = tmp_path / "db.sqlite3"
    store, _ = await new_store(path)
    await store.close()
    path.unlink()
    with pytest.raises(storage.DatabaseUnusable) as refused:
        prepare(str(path))
    assert refused.value.reason == "missing" and "--init" in str(refused.value)
    assert not path.exists()
    assert prepare(str(path), init=True) is True
    store = await storage.open_store(str(path))
    assert await store.active_game(1, "bakers") is None
    await store.close()


async def test_a_journal_without_its_database_is_refused_even_with_init(tmp_path):
    path = tmp_path / "db.sqlite3"
    (tmp_path / "db.sqlite3-wal").write_bytes(b"old frames")
    with pytest.raises(storage.DatabaseUnusable) as refused:
        prepare(str(path), init=True)
    assert refused.value.reason == "stale_wal"
    with pytest.raises(storage.DatabaseUnusable) as refused:
        prepare(str(path))
    assert refused.value.reason == "missing"
    assert not path.exists()


def test_existing_files_readable_by_others_are_tightened_with_a_log_line(tmp_path, caplog):
    folder = tmp_path / "data"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    path = folder / "db.sqlite3"
    path.write_bytes(b"")
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING):
        prepare(str(path))
    assert mode(path) == 0o600 and mode(folder) == 0o700
    assert "tightened" in caplog.text and str(path) in caplog.text


def test_a_shared_directory_is_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("someone else's")
    os.chmod(tmp_path, 0o755)
    prepare(str(tmp_path / "db.sqlite3"))
    assert mode(tmp_path) == 0o755
    assert mode(tmp_path / "db.sqlite3") == 0o600


# -- issue 25: a database that no longer holds what this store wrote (both backends) ---------
async def test_an_older_copy_of_a_game_row_is_noticed_before_the_next_move(stores):
    store = await stores.open()
    lost = []
    store.tell_when_lost(lost.append)
    game = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
    game = await store.append_move(game.id, game.version, "6h", score=10, move_count=1)
    # An older dump restored underneath: the row as it was before that move.
    await stores.sql(
        "UPDATE games SET version = 0, moves = '' WHERE id = ?",
        "UPDATE games SET version = 0, moves = '' WHERE id = $1",
        game.id,
    )
    with pytest.raises(storage.DatabaseUnusable) as refused:
        await store.append_move(game.id, 0, "1a", score=10, move_count=1)
    assert refused.value.reason == "rows_lost" and f"game {game.id}" in str(refused.value)
    with pytest.raises(storage.DatabaseUnusable):  # and every later move or start
        await store.create_game("bakers", CODE, 9, 2, 3, variant="4")
    assert [e.reason for e in lost] == ["rows_lost"]
    assert (await store.get_game(game.id)).moves == ()  # nothing written after the damage


@pytest.mark.parametrize("stores", ["postgres"], indirect=True)  # SQLite: its files are watched (above)
async def test_a_dropped_postgres_schema_is_noticed_and_reported_once(stores):
    store = await stores.open()
    lost = []
    store.tell_when_lost(lost.append)
    game = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
    await stores._admin.execute(f'DROP SCHEMA "{stores.schema}" CASCADE')
    for _ in range(2):
        with pytest.raises(storage.DatabaseUnusable) as refused:
            await store.append_move(game.id, game.version, "6h", score=10, move_count=1)
        assert refused.value.reason == "schema_lost"
    assert [e.reason for e in lost] == ["schema_lost"]
