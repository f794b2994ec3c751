"""Opening database files: migrations, and clear refusals of files that cannot be used (left untouched)."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import storage
from storage.sqlite import SqliteStore
from storage.sqlite import opening as sqlite_open

ROOT = Path(__file__).resolve().parent.parent
CODE = "BK1-C4-AAAAA24"
SUPPORTED = len(sqlite_open.load_migrations())


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


async def test_a_fresh_file_is_created_migrated_and_in_wal_mode(tmp_path):
    path = tmp_path / "fresh.db"
    store = await storage.open_store(str(path))
    await store.close()
    conn = raw(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SUPPORTED >= 2
    assert conn.execute("PRAGMA application_id").fetchone()[0] == sqlite_open.APPLICATION_ID
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "results", "guild_settings", "user_settings", "daily_posts", "winnable_deals"} <= tables


async def test_reopening_keeps_data_and_uses_full_sync(tmp_path):
    path = str(tmp_path / "again.db")
    store = await storage.open_store(path)
    game = await store.create_game("bakers", CODE, 1, None, None)
    await store.append_move(game.id, game.version, "3h", score=10, move_count=1)
    await store.close()
    store = await storage.open_store(path)
    try:
        assert (await store.get_game(game.id)).moves == ("3h",)
        cursor = await store._db._conn.execute("PRAGMA synchronous")
        assert (await cursor.fetchone())[0] == 2  # FULL
    finally:
        await store.close()


@pytest.mark.slow
async def test_connections_opening_one_new_file_at_once_all_succeed(tmp_path):
    """Four openers race to create, switch to WAL and migrate the same new file, 30 times over
    (this once failed about one time in 30: a torn header read, then an unretried WAL switch)."""
    for attempt in range(30):
        path = str(tmp_path / f"race{attempt}.db")
        stores = await asyncio.gather(*(SqliteStore.open(path) for _ in range(4)), return_exceptions=True)
        for s in stores:
            if isinstance(s, SqliteStore):
                await s.close()
        assert all(isinstance(s, SqliteStore) for s in stores), stores
        assert raw(Path(path)).execute("PRAGMA user_version").fetchone()[0] == SUPPORTED


async def test_a_database_from_newer_code_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "new.db"
    store = await storage.open_store(str(path))
    await store.close()
    conn = raw(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(storage.DatabaseTooNew) as caught:
        await storage.open_store(str(path))
    assert (caught.value.found, caught.value.supported, caught.value.reason) == (99, SUPPORTED, "too_new")
    assert "schema version is 99" in str(caught.value) and "never downgraded" in str(caught.value)
    assert path.read_bytes() == before


async def test_a_failing_migration_is_rolled_back_whole(tmp_path, monkeypatch):
    path = tmp_path / "half.db"
    store = await storage.open_store(str(path))
    await store.close()
    real = sqlite_open.load_migrations()
    broken = sqlite_open.Migration(
        SUPPORTED + 1, "9999_broken.sql", "CREATE TABLE extra (x);\nINSERT INTO nowhere VALUES (1);\n"
    )
    monkeypatch.setattr(sqlite_open, "load_migrations", lambda: [*real, broken])
    monkeypatch.setattr("storage.sqlite.base.load_migrations", lambda: [*real, broken])
    with pytest.raises(storage.DatabaseUnusable, match="no such table: nowhere"):
        await storage.open_store(str(path))
    conn = raw(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SUPPORTED
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'extra'").fetchone()[0] == 0


async def test_a_migration_run_with_foreign_keys_off_may_not_break_one(tmp_path, monkeypatch):
    path = tmp_path / "keys.db"
    store = await storage.open_store(str(path))
    game = await store.create_game("bakers", CODE, 1, None, None)
    await store.finish_game(game.id, game.version, "resigned", score=0, move_count=0)
    await store.close()
    real = sqlite_open.load_migrations()
    orphaning = sqlite_open.Migration(
        SUPPORTED + 1, "9999_orphans.sql", f"{sqlite_open.FOREIGN_KEYS_OFF}\nDELETE FROM games;\n"
    )
    monkeypatch.setattr(sqlite_open, "load_migrations", lambda: [*real, orphaning])
    monkeypatch.setattr("storage.sqlite.base.load_migrations", lambda: [*real, orphaning])
    with pytest.raises(storage.DatabaseUnusable, match=r"9999_orphans\.sql breaks foreign keys"):
        await storage.open_store(str(path))
    conn = raw(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SUPPORTED
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1


async def test_upgrading_from_version_1_rebuilds_the_player_summaries(tmp_path, monkeypatch):
    """A version-1 database with history gets version 2's summaries filled from that history."""
    path = tmp_path / "v1.db"
    real = sqlite_open.load_migrations()
    with monkeypatch.context() as patch:
        patch.setattr("storage.sqlite.base.load_migrations", lambda: real[:1])
        patch.setattr(sqlite_open, "load_migrations", lambda: real[:1])
        store = await storage.open_store(str(path))
        await store.close()
    conn = raw(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    history = [
        # game, user, channel, cells, status, score, moves, rank_key, finished_at
        (1, 7, 50, 4, "won", 300, 90, 90, 1000),
        (2, 7, 50, 4, "lost", 900, 20, (1 << 62) - 900, 2000),
        (3, 8, 50, 2, "won", 250, 85, 85, 3000),
        (4, 7, 51, 2, "won", 280, 70, 70, 4000),
    ]
    for game, user, channel, cells, status, score, moves, key, finished in history:
        conn.execute(
            "INSERT INTO games (id, kind, code, cells, owner_id, guild_id, channel_id, status, score, "
            "move_count, started_at, updated_at, finished_at) VALUES (?, 'bakers', ?, ?, ?, 5, ?, ?, ?, ?, 0, 0, ?)",
            (game, CODE, cells, user, channel, status, score, moves, finished),
        )
        conn.execute(
            "INSERT INTO results (game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, "
            "move_count, rank_key, finished_at) VALUES (?, 'bakers', ?, ?, ?, 5, ?, ?, ?, ?, ?, ?)",
            (game, CODE, cells, user, channel, status, score, moves, key, finished),
        )
    conn.close()
    store = await storage.open_store(str(path))
    try:
        board = await store.leaderboard("bakers", channel_id=50)
        assert [(e.user_id, e.best.game_id, e.played, e.won) for e in board] == [(8, 3, 1, 1), (7, 1, 2, 1)]
        guild = await store.leaderboard("bakers", guild_id=5)
        assert [(e.user_id, e.best.game_id, e.played, e.won) for e in guild] == [(7, 4, 3, 2), (8, 3, 1, 1)]
        assert [e.user_id for e in await store.leaderboard("bakers", guild_id=5, variant="4")] == [7]
        stats = await store.player_stats(7, "bakers")
        assert (stats.played, stats.won, stats.best.game_id, stats.best_score) == (3, 2, 4, 900)
        assert (await store.player_stats(8, "bakers", guild_id=5)).best_score == 250
        in_channel_51 = await store.leaderboard("bakers", channel_id=51)
        assert [(e.user_id, e.best.game_id) for e in in_channel_51] == [(7, 4)]
    finally:
        await store.close()


async def test_upgrading_from_version_4_drops_the_fixed_list_of_kinds_and_keeps_every_row(
    tmp_path, monkeypatch
):
    """Version 5 rebuilds ``games`` without its CHECK on the two kinds; rows, ids, the one-active
    rule and the results' foreign key survive."""
    path = tmp_path / "v4.db"
    real = sqlite_open.load_migrations()
    with monkeypatch.context() as patch:
        patch.setattr("storage.sqlite.base.load_migrations", lambda: real[:4])
        patch.setattr(sqlite_open, "load_migrations", lambda: real[:4])
        store = await storage.open_store(str(path))
        await store.close()
    conn = raw(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 4
    # Rows as version 4 wrote them (today's code writes columns version 4 does not have).
    conn.execute(
        "INSERT INTO games (id, kind, code, cells, owner_id, guild_id, channel_id, status, score, move_count, "
        "started_at, updated_at, finished_at, version) VALUES (1, 'bakers', ?, 4, 7, 5, 50, 'resigned', 20, 3, "
        "0, 1000, 1000, 2)",
        (CODE,),
    )
    conn.execute(
        "INSERT INTO results (game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, "
        "move_count, rank_key, finished_at) VALUES (1, 'bakers', ?, 4, 7, 5, 50, 'resigned', 20, 3, 0, 1000)",
        (CODE,),
    )
    conn.execute(
        "INSERT INTO games (id, kind, code, owner_id, guild_id, channel_id, moves, action_count, score, "
        "move_count, started_at, updated_at, version) VALUES (2, 'calculation', 'CA1-AAAAA24', 7, 5, 50, 't', 1, "
        "4, 1, 0, 0, 2)"
    )
    conn.commit()
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute(
            "INSERT INTO games (kind, code, owner_id, started_at, updated_at) VALUES ('x', 'c', 1, 0, 0)"
        )
    conn.close()
    store = await storage.open_store(str(path))
    try:
        active = await store.get_game(2)
        assert (active.kind, active.moves, active.score, active.version, active.source) == (
            "calculation",
            ("t",),
            4,
            2,
            "stock",
        )
        assert (await store.get_result(1)).score == 20
        with pytest.raises(storage.ActiveGameExists):
            await store.create_game("calculation", "CA1-AAAAA24", 7, None, None)
    finally:
        await store.close()
    conn = raw(path)
    conn.execute("PRAGMA foreign_keys = ON")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SUPPORTED >= 5
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.execute(
        "INSERT INTO games (kind, code, owner_id, started_at, updated_at) VALUES ('x', 'c', 1, 0, 0)"
    )
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        conn.execute(
            "INSERT INTO results (game_id, kind, code, user_id, status, score, move_count, rank_key, "
            "finished_at) VALUES (999, 'x', 'c', 1, 'won', 0, 0, 0, 0)"
        )


def test_migration_scripts_split_into_whole_statements():
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x TEXT DEFAULT 'a;b');\n\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  UPDATE t SET x = 'c';\n  SELECT 1;\nEND;\n"
    )
    parts = sqlite_open.split_statements(sql)
    assert len(parts) == 2 and parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")
    with pytest.raises(ValueError, match="incomplete SQL statement"):
        sqlite_open.split_statements("CREATE TABLE t (x")


@pytest.mark.parametrize(
    "content",
    [b"this is not a database at all\n" * 200, b"SQLite format 3\x00" + os.urandom(4080)],
    ids=["text", "damaged-header"],
)
async def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path, content):
    path = tmp_path / "notes.db"
    path.write_bytes(content)
    with pytest.raises(storage.DatabaseUnusable) as caught:
        await storage.open_store(str(path))
    assert caught.value.reason == "corrupt"
    assert "damaged or is not a SQLite database" in str(caught.value) and "left untouched" in str(
        caught.value
    )
    assert path.read_bytes() == content
    assert not Path(f"{path}-wal").exists()


async def test_damage_inside_the_file_is_reported_at_start_up(tmp_path):
    path = tmp_path / "damaged.db"
    store = await SqliteStore.open(str(path), synchronous="NORMAL")
    for user in range(300):
        game = await store.create_game("bakers", CODE * 5, user, 1, 2)
        await store.finish_game(game.id, game.version, "won", score=1, move_count=user)
    await store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 10 * page
    data[5 * page : 7 * page] = b"\xa5" * (2 * page)  # scribble over two b-tree pages
    path.write_bytes(bytes(data))
    with pytest.raises(storage.DatabaseUnusable) as caught:
        await storage.open_store(str(path))
    assert caught.value.reason == "corrupt"
    assert path.read_bytes() == bytes(data)


async def test_another_applications_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    conn = raw(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.close()
    with pytest.raises(storage.DatabaseUnusable, match="another application") as caught:
        await storage.open_store(str(path))
    assert caught.value.reason == "foreign"


async def test_a_directory_as_the_path_is_refused(tmp_path):
    with pytest.raises(storage.DatabaseUnusable, match="not a regular file") as caught:
        await storage.open_store(str(tmp_path))
    assert caught.value.reason == "not_a_file"


async def test_a_missing_directory_is_refused_not_created(tmp_path):
    path = tmp_path / "nowhere" / "db.sqlite"
    with pytest.raises(storage.DatabaseUnusable, match="does not exist") as caught:
        await storage.open_store(str(path))
    assert caught.value.reason == "unreadable"
    assert not path.parent.exists()


async def test_a_database_locked_by_another_process_gives_a_clear_error(tmp_path):
    path = tmp_path / "locked.db"
    store = await storage.open_store(str(path))
    await store.close()
    holder = raw(path)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE games SET code = code")
    try:
        with pytest.raises(storage.DatabaseUnusable, match="another copy of the bot") as caught:
            await SqliteStore.open(str(path), busy_timeout=0.2)
        assert caught.value.reason == "locked"
    finally:
        holder.rollback()
        holder.close()


async def test_a_busy_database_during_play_raises_database_busy(tmp_path):
    path = tmp_path / "busy.db"
    store = await SqliteStore.open(str(path), busy_timeout=0.2)
    try:
        game = await store.create_game("bakers", CODE, 1, None, None)
        holder = raw(path)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(storage.DatabaseBusy, match="locked"):
                await store.append_move(game.id, game.version, "3h", score=0, move_count=1)
        finally:
            holder.rollback()
            holder.close()
        assert (await store.append_move(game.id, game.version, "3h", score=0, move_count=1)).version == 2
    finally:
        await store.close()


OPEN_AS_NOBODY = """
import asyncio, sys, storage
try:
    asyncio.run(storage.open_store(sys.argv[1]))
except storage.DatabaseUnusable as e:
    print(e.reason)
    print(e)
"""


def unprivileged_command(env: dict[str, str]) -> tuple[list[str], dict[str, int]]:
    """A Python that an unprivileged user can run with this project's packages, and that user.

    Root may read anything, so as root the check runs as ``nobody`` with the system
    interpreter (the venv's may live under /root) and the venv's packages on the path;
    skipped if ``nobody`` cannot import them (a checkout under a private directory).
    """
    if os.geteuid() != 0:
        return [sys.executable], {}
    system = shutil.which("python3", path="/usr/bin:/bin")
    if system is None:
        pytest.skip("no system python3 to run as an unprivileged user")
    user = {"user": 65534, "group": 65534}
    probe = subprocess.run(
        [system, "-c", "import sys, sqlite3, aiosqlite, storage; print(sys.version_info >= (3, 11))"],
        capture_output=True,
        text=True,
        check=False,
        cwd="/",
        env=env,
        **user,
    )
    if probe.stdout.strip() != "True":
        pytest.skip(f"user nobody cannot run this project with {system}: {probe.stderr.strip()[-200:]}")
    return [system], user


@pytest.mark.processes
@pytest.mark.parametrize(("mode", "reason"), [(0o000, "unreadable"), (0o444, "readonly")])
async def test_a_file_this_user_may_not_use_gives_a_clear_error(mode, reason):
    """Run as an unprivileged user (root may read anything), on a file it may not read / write.

    The checkout and the venv may sit in folders that user cannot enter (a fresh
    clone under ``mktemp -d``), so the packages it needs (``storage``, the
    ``engine`` it checks game kinds against, and the pure-Python ``aiosqlite``)
    are copied into a world-readable folder first.
    """
    site = next(p for p in sys.path if p.endswith("site-packages") and Path(p, "aiosqlite").exists())
    folder = Path(tempfile.mkdtemp(prefix="boulanger-perm-", dir="/tmp"))
    try:
        folder.chmod(0o755)
        lib = folder / "lib"
        shutil.copytree(Path(site, "aiosqlite"), lib / "aiosqlite")
        shutil.copytree(ROOT / "storage", lib / "storage")
        shutil.copytree(ROOT / "engine", lib / "engine", ignore=shutil.ignore_patterns("__pycache__"))
        for entry in [lib, *lib.rglob("*")]:
            entry.chmod(0o755 if entry.is_dir() else 0o644)
        env = {**os.environ, "PYTHONPATH": str(lib)}
        command, user = unprivileged_command(env)
        path = folder / "db.sqlite"
        store = await storage.open_store(str(path))
        await store.close()
        path.chmod(mode)
        before = path.read_bytes()
        done = subprocess.run(
            [*command, "-c", OPEN_AS_NOBODY, str(path)],
            capture_output=True,
            text=True,
            cwd="/",
            env=env,
            timeout=30,
            **user,
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0] == reason, done.stdout
        assert "this user" in lines[1]
        assert path.read_bytes() == before
    finally:
        shutil.rmtree(folder)


async def test_an_in_memory_store_works_for_throwaway_sessions():
    store = await storage.open_store(":memory:")
    try:
        game = await store.create_game("calculation", "CA1-AAAAA24", 1, None, None)
        assert (await store.append_move(game.id, 1, "t", score=4, move_count=1)).moves == ("t",)
    finally:
        await store.close()


async def test_upgrading_from_version_7_gives_every_row_a_source_and_rebuilds_the_summaries(
    tmp_path, monkeypatch
):
    """Version 8: old rows become 'stock', or 'daily' when they have a daily date; the player
    summaries are rebuilt per source, so the main board ranks the stock game only."""
    path = tmp_path / "v7.db"
    real = sqlite_open.load_migrations()
    with monkeypatch.context() as patch:
        patch.setattr("storage.sqlite.base.load_migrations", lambda: real[:7])
        patch.setattr(sqlite_open, "load_migrations", lambda: real[:7])
        store = await storage.open_store(str(path))
        await store.close()
    conn = raw(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 7
    # game, user, moves, daily date, counts for daily
    for game, user, moves, daily, counts in ((1, 7, 90, None, 0), (2, 8, 60, "2026-03-04", 1)):
        conn.execute(
            "INSERT INTO games (id, kind, code, cells, owner_id, guild_id, channel_id, status, score, "
            "move_count, started_at, updated_at, finished_at, daily_date) "
            "VALUES (?, 'bakers', ?, 4, ?, 5, 50, 'won', 300, ?, 0, 0, 1000, ?)",
            (game, CODE, user, moves, daily),
        )
        conn.execute(
            "INSERT INTO results (game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, "
            "move_count, rank_key, finished_at, daily_date, counts_for_daily) "
            "VALUES (?, 'bakers', ?, 4, ?, 5, 50, 'won', 300, ?, ?, 1000, ?, ?)",
            (game, CODE, user, moves, moves, daily, counts),
        )
    conn.close()
    store = await storage.open_store(str(path))
    try:
        assert [(await store.get_game(g)).source for g in (1, 2)] == ["stock", "daily"]
        assert [(await store.get_result(g)).source for g in (1, 2)] == ["stock", "daily"]
        board = await store.leaderboard("bakers", channel_id=50, variant="4")
        assert [(e.user_id, e.best.game_id) for e in board] == [(7, 1)]
        stats = await store.player_stats(8, "bakers")
        assert (stats.played, stats.practice, stats.best.game_id) == (1, 0, 2)
        deal = await store.leaderboard("bakers", channel_id=50, code=CODE)
        assert [e.user_id for e in deal] == [8, 7]
    finally:
        await store.close()
