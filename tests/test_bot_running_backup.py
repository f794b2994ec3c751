"""``python -m bot backup`` (bot.running.backup) and ``python -m bot migrate`` (bot.running.migrations)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import storage
from storage import migrator
from storage.sqlite.opening import APPLICATION_ID

REPO = Path(__file__).resolve().parent.parent
CODE = "BK1-C4-AAAAA24"


def bot_command(
    tmp_path: Path, db: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` with no Discord token: set but empty, so a developer's ``.env``
    beside run.sh cannot supply one (python-dotenv never overrides a variable that is set)."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOULANGER_", "DEV_GUILD"))},
        "PYTHONPATH": str(REPO),
        "BOULANGER_DB": str(db),
        "DISCORD_TOKEN": "",
        **(env or {}),
    }
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.processes
async def test_backup_while_moves_are_written_holds_every_move_acknowledged_before(tmp_path):
    db = tmp_path / "live.sqlite3"
    store = await storage.open_store(str(db))
    acknowledged: list[int] = []  # one entry per committed move (the game's version after it)
    stop = asyncio.Event()

    async def writer() -> None:
        owner = 1
        while not stop.is_set():
            game = await store.create_game("bakers", CODE, owner, 1, 2, variant="4")
            for n in range(40):  # storage keeps any action text; the engine is not asked
                game = await store.append_move(
                    game.id, game.version, f"1{n % 8 + 1}", score=0, move_count=n + 1
                )
                acknowledged.append(game.id)
            owner += 1

    writing = asyncio.create_task(writer())
    try:
        while len(acknowledged) < 200:
            assert not writing.done(), writing.exception()
            await asyncio.sleep(0.01)
        before = len(acknowledged)
        dest = tmp_path / "copy.sqlite3"
        done = await asyncio.to_thread(bot_command, tmp_path, db, "backup", str(dest))
        during = len(acknowledged) - before
    finally:
        stop.set()
        await asyncio.wait_for(writing, 30)
        await store.close()
    assert done.returncode == 0, done.stderr
    assert "integrity_check ok" in done.stdout
    assert during > 0, "moves went on being written while the backup ran"
    with sqlite3.connect(dest) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, no -wal
        moves = sum(len(m.split()) for (m,) in copy.execute("SELECT moves FROM games"))
    assert moves >= before, (moves, before)
    assert not (tmp_path / "copy.sqlite3-wal").exists()
    assert oct(dest.stat().st_mode & 0o777) == "0o600"
    # the copy is a database the bot opens as it is
    reopened = await storage.open_store(str(dest))
    try:
        assert (await reopened.get_game(1)).move_count == 40
    finally:
        await reopened.close()


@pytest.mark.processes
def test_backup_never_overwrites_and_leaves_nothing_behind_on_failure(tmp_path):
    db = tmp_path / "x.sqlite3"
    dest = tmp_path / "exists.sqlite3"
    dest.write_text("keep me")
    done = bot_command(tmp_path, db, "backup", str(dest))
    assert done.returncode == 1 and "no database" in done.stderr
    asyncio.run(_create(db))
    done = bot_command(tmp_path, db, "backup", str(dest))
    assert done.returncode == 1 and "exists already" in done.stderr
    assert dest.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


async def _create(db: Path) -> None:
    store = await storage.open_store(str(db))
    await store.close()


@pytest.mark.processes
def test_migrate_status_and_check(tmp_path):
    db = tmp_path / "m.sqlite3"
    latest = len(migrator.load("sqlite"))
    fresh = bot_command(tmp_path, db, "migrate", "--status")
    assert fresh.returncode == 1 and "no database yet" in fresh.stdout, fresh.stderr
    assert bot_command(tmp_path, db, "migrate", "--check").returncode == 1
    # a database at schema 3, as an old version left it
    with sqlite3.connect(db) as old:
        for migration in migrator.load("sqlite")[:3]:
            for statement in migration.statements():
                old.execute(statement)
        old.execute("PRAGMA user_version = 3")
        old.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")
    status = bot_command(tmp_path, db, "migrate", "--status")
    lines = status.stdout.splitlines()
    assert status.returncode == 1
    assert [line.split()[0] for line in lines[:latest]] == ["applied"] * 3 + ["pending"] * (latest - 3)
    assert f"schema version 3 of {latest}: {latest - 3} pending" in lines[-1]
    checked = bot_command(tmp_path, db, "migrate", "--check")
    assert checked.returncode == 1 and "pending" in checked.stderr
    applied = bot_command(tmp_path, db, "migrate")
    assert applied.returncode == 0, applied.stderr
    assert applied.stderr.count("applying migration") == latest - 3  # migrations log what they apply
    assert "0004_best_score.sql applied" in applied.stderr
    assert bot_command(tmp_path, db, "migrate", "--check").returncode == 0
    assert bot_command(tmp_path, db, "migrate", "--status").stdout.splitlines()[-1].endswith("0 pending")


@pytest.mark.processes
def test_backup_and_migrate_need_no_token_but_discord_commands_do(tmp_path):
    db = tmp_path / "t.sqlite3"
    applied = bot_command(tmp_path, db, "migrate")  # creates and migrates the database
    assert applied.returncode == 0, applied.stderr
    assert "DISCORD_TOKEN" not in applied.stderr
    status = bot_command(tmp_path, db, "migrate", "--status")
    assert status.returncode == 0, status.stderr
    assert status.stdout.splitlines()[-1].endswith(" 0 pending")
    assert bot_command(tmp_path, db, "migrate", "--check").returncode == 0
    copied = bot_command(tmp_path, db, "backup", str(tmp_path / "copy.sqlite3"))
    assert copied.returncode == 0, copied.stderr
    assert "integrity_check ok" in copied.stdout
    with sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
        assert copy.execute("PRAGMA user_version").fetchone() == (len(migrator.load("sqlite")),)
    for mode in ("run", "sync", "invite"):  # these talk to Discord: still refused, with what to set
        refused = bot_command(tmp_path, db, mode)
        assert refused.returncode == 2, (mode, refused.stderr)
        assert "DISCORD_TOKEN is not set" in refused.stderr, mode


@pytest.mark.processes
def test_migrate_on_postgresql_needs_no_token(tmp_path, pg_server):
    import asyncpg

    schema = f"test_{uuid.uuid4().hex[:16]}"
    url = f"{pg_server}{'&' if '?' in pg_server else '?'}search_path={schema}"
    env = {"BOULANGER_DATABASE_URL": url}

    async def admin(statement: str) -> None:
        conn = await asyncpg.connect(pg_server)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE SCHEMA "{schema}"'))
    try:
        latest = len(migrator.load("postgres"))
        fresh = bot_command(tmp_path, tmp_path / "unused.sqlite3", "migrate", "--status", env=env)
        assert fresh.returncode == 1 and "no database yet" in fresh.stdout, fresh.stderr
        applied = bot_command(tmp_path, tmp_path / "unused.sqlite3", "migrate", env=env)
        assert applied.returncode == 0, applied.stderr
        assert applied.stderr.count("applying migration") == latest
        status = bot_command(tmp_path, tmp_path / "unused.sqlite3", "migrate", "--status", env=env)
        assert status.returncode == 0, status.stderr
        assert f"schema version {latest} of {latest}: 0 pending" in status.stdout
        # backup is SQLite's: on PostgreSQL it says which tool to use, not that a token is missing
        told = bot_command(tmp_path, tmp_path / "unused.sqlite3", "backup", str(tmp_path / "b"), env=env)
        assert told.returncode == 2 and "pg_dump" in told.stderr, told.stderr
        assert "DISCORD_TOKEN" not in told.stderr
        assert not (tmp_path / "unused.sqlite3").exists()
    finally:
        asyncio.run(admin(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


async def test_the_upgrade_uncounts_games_ended_before_their_first_move(tmp_path):
    """Schema 14's step on a database the old code counted in: summaries rebuilt, the daily moved."""
    import datetime as dt

    from storage.upgrade import VARIANT_SUMMARIES

    db = tmp_path / "old.sqlite3"
    store = await storage.open_store(str(db))
    day = dt.datetime.now(dt.UTC).date()
    redealt = await store.create_game("bakers", CODE, 1, 10, 100, variant="4", daily_date=day)
    await store.finish_game(redealt.id, redealt.version, "resigned", score=0, move_count=0, home=0)
    played = await store.create_game("bakers", CODE, 1, 10, 100, variant="4", daily_date=day)
    played = await store.append_move(played.id, played.version, "8a", score=0, move_count=1)
    await store.finish_game(played.id, played.version, "won", score=520, move_count=90, home=52)
    await store.close()
    with sqlite3.connect(db) as old:  # as the old code left it: the re-deal counted everywhere
        old.execute("UPDATE results SET counts_for_daily = 0")
        old.execute("UPDATE results SET counts_for_daily = 1 WHERE game_id = ?", (redealt.id,))
        old.execute("DELETE FROM player_bests")
        old.execute(VARIANT_SUMMARIES)
        old.execute("DROP TABLE damaged_games")  # 15 came later
        old.execute("DROP TABLE player_settings")  # and 16
        old.execute("PRAGMA user_version = 13")
    store = await storage.open_store(str(db))  # migrates to 14, then 15 and 16
    try:
        assert (await store.player_stats(1, "bakers")).played == 1
        assert (await store.player_stats(1, "bakers")).won == 1
        (today,) = await store.leaderboard("bakers", period="daily")
        assert today.best.game_id == played.id
    finally:
        await store.close()
