"""What only the PostgreSQL store has: choosing it by URL, opening, migrating, refusing, mapping errors.

Everything the two stores share is tested on both by the other storage tests.
"""

from __future__ import annotations

import asyncio
import datetime as dt

import asyncpg
import pytest

import storage
from bot.running.config import load_config
from storage.migrator import Migration
from storage.postgres import PostgresStore
from storage.postgres import opening as postgres_open
from tests.test_bot_discord import running

CODE = "BK1-C4-AAAAA24"
SUPPORTED = len(postgres_open.load_migrations())
on_postgres = pytest.mark.parametrize("stores", ["postgres"], indirect=True)


async def version(stores) -> int:
    return (await stores.sql("", "SELECT max(version) FROM boulanger_schema"))[0][0]


@on_postgres
async def test_open_store_picks_postgres_for_both_url_schemes(stores):
    store = await storage.open_store(stores.target)
    assert isinstance(store, PostgresStore)
    await store.close()
    alias = stores.target.replace("postgresql://", "postgres://", 1)
    store = await storage.open_store(alias)
    assert isinstance(store, PostgresStore)
    await store.close()


async def test_a_url_of_another_database_kind_is_refused_clearly():
    with pytest.raises(storage.DatabaseUnusable, match="only postgresql:// URLs and SQLite file paths"):
        await storage.open_store("mysql://user:secret@host/db")


def test_the_password_never_shows_in_the_stores_path():
    assert postgres_open.redact("postgresql://bot:s3cret@db.example:6432/boulanger?x=1") == (
        "postgresql://bot:***@db.example:6432/boulanger?x=1"
    )
    assert postgres_open.redact("postgresql://bot@db/boulanger") == "postgresql://bot@db/boulanger"


@on_postgres
async def test_a_fresh_schema_is_migrated_once_even_by_concurrent_openers(stores):
    opened = await asyncio.gather(*(PostgresStore.open(stores.target) for _ in range(4)))
    for store in opened:
        await store.close()
    assert await version(stores) == SUPPORTED
    names = [r[0] for r in await stores.sql("", "SELECT name FROM boulanger_schema ORDER BY version")]
    assert names == [m.name for m in postgres_open.load_migrations()]
    tables = {
        r[0]
        for r in await stores.sql("", "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    }
    assert {"games", "results", "player_bests", "guild_settings", "daily_posts", "winnable_deals"} <= tables


@on_postgres
async def test_a_schema_from_newer_code_is_refused_and_left_alone(stores):
    store = await stores.open()
    await store.create_game("bakers", CODE, 1, None, None)
    await store.close()
    await stores.sql("", "INSERT INTO boulanger_schema (version, name) VALUES (99, '0099_future.sql')")
    with pytest.raises(storage.DatabaseTooNew) as caught:
        await storage.open_store(stores.target)
    assert (caught.value.found, caught.value.supported, caught.value.reason) == (99, SUPPORTED, "too_new")
    assert "never downgraded" in str(caught.value)
    assert (await stores.sql("", "SELECT count(*) FROM games"))[0][0] == 1


@on_postgres
async def test_a_failing_migration_is_rolled_back_whole(stores, monkeypatch):
    await (await stores.open()).close()
    broken = Migration(
        SUPPORTED + 1, "9999_broken.sql", "CREATE TABLE extra (x int);\nINSERT INTO nowhere VALUES (1);\n"
    )
    real = postgres_open.load_migrations()
    monkeypatch.setattr(postgres_open, "load_migrations", lambda: [*real, broken])
    with pytest.raises(storage.DatabaseUnusable, match='relation "nowhere" does not exist'):
        await storage.open_store(stores.target)
    assert await version(stores) == SUPPORTED
    assert (await stores.sql("", "SELECT to_regclass('extra') IS NULL"))[0][0] is True


@on_postgres
async def test_a_schema_holding_another_applications_tables_is_refused(stores):
    await stores.sql("", "CREATE TABLE invoices (id int)")
    with pytest.raises(storage.DatabaseUnusable) as caught:
        await storage.open_store(stores.target)
    assert caught.value.reason == "foreign" and "search_path" in str(caught.value)
    assert (await stores.sql("", "SELECT to_regclass('games') IS NULL"))[0][0] is True


async def test_an_unreachable_server_is_a_clear_start_up_error(unused_tcp_port):
    with pytest.raises(storage.DatabaseUnusable) as caught:
        await storage.open_store(f"postgresql://bot:secret@127.0.0.1:{unused_tcp_port}/boulanger", timeout=2)
    assert caught.value.reason == "unreachable" and "does not answer" in str(caught.value)
    assert "secret" not in str(caught.value) and "secret" not in caught.value.path


@on_postgres
async def test_a_missing_database_or_schema_is_a_clear_start_up_error(stores, pg_server):
    base = pg_server.split("?")[0]
    with pytest.raises(storage.DatabaseUnusable) as caught:
        await storage.open_store(base.rsplit("/", 1)[0] + "/no_such_database_here")
    assert caught.value.reason == "refused"
    with pytest.raises(storage.DatabaseUnusable) as caught:
        await storage.open_store(f"{base}?search_path=no_such_schema_here")
    assert caught.value.reason == "no_schema" and "CREATE SCHEMA" in str(caught.value)


@on_postgres
async def test_a_connection_lost_mid_call_is_a_storage_error_and_the_next_call_reconnects(stores):
    app = f"boulanger-{stores.schema}"  # so only this store's connections are cut
    store = await PostgresStore.open(f"{stores.target}&application_name={app}")
    holder = await asyncpg.connect(stores.target)
    try:
        game = await store.create_game("bakers", CODE, 1, None, None)
        async with holder.transaction():
            await holder.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
            call = asyncio.create_task(store.append_move(game.id, game.version, "3h", score=10, move_count=1))
            await asyncio.sleep(0.3)  # it waits for the row lock...
            await holder.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", app
            )
            with pytest.raises(storage.StorageError) as caught:
                await call
        assert not isinstance(caught.value, asyncpg.PostgresError | asyncpg.InterfaceError)
        assert await store.get_game(game.id) == game
    finally:
        await holder.close()
        await store.close()


@on_postgres
async def test_a_row_locked_too_long_is_database_busy_and_changes_nothing(stores):
    store = await PostgresStore.open(stores.target + "&lock_timeout=200ms")
    try:
        game = await store.create_game("bakers", CODE, 1, None, None)
        holder = await asyncpg.connect(stores.target)
        try:
            async with holder.transaction():
                await holder.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
                with pytest.raises(storage.DatabaseBusy):
                    await store.append_move(game.id, game.version, "3h", score=10, move_count=1)
        finally:
            await holder.close()
        assert await store.get_game(game.id) == game
    finally:
        await store.close()


@on_postgres
async def test_a_deal_being_taken_elsewhere_is_skipped_not_waited_for(stores):
    store = await stores.open()
    await store.add_winnable_deals("bakers", "2", [10, 20])
    holder = await asyncpg.connect(stores.target)
    try:
        async with holder.transaction():
            await holder.execute("SELECT 1 FROM winnable_deals WHERE deal = 10 FOR UPDATE")
            taken = await asyncio.wait_for(
                asyncio.gather(
                    store.take_winnable_deal("bakers", "2"), store.take_winnable_deal("bakers", "2")
                ),
                2,
            )
            assert sorted(taken, key=str) == [20, None]
    finally:
        await holder.close()
    assert await store.take_winnable_deal("bakers", "2") == 10


@on_postgres
async def test_integrity_check_reports_a_finished_game_without_history(stores):
    store = await stores.open()
    game = await store.create_game("bakers", CODE, 1, None, None)
    await store.finish_game(game.id, game.version, "won", score=10, move_count=3)
    assert await store.integrity_check() == []
    await stores.sql("", "DELETE FROM player_bests")
    await stores.sql("", "DELETE FROM results")
    assert await store.integrity_check() == [f"game {game.id} is finished but has no history row"]


@on_postgres
async def test_times_are_kept_to_the_millisecond_as_on_sqlite(stores):
    moment = dt.datetime(2026, 3, 4, 12, 0, 0, 123456, tzinfo=dt.UTC)
    store = await stores.open(clock=lambda: moment)
    game = await store.create_game("bakers", CODE, 1, None, None)
    assert game.started_at == moment.replace(microsecond=123000)
    assert (await store.get_game(game.id)).started_at.tzinfo is not None


def test_the_bot_reads_the_database_url_and_keeps_it_out_of_its_repr(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("BOULANGER_DATABASE_URL", " postgresql://bot:s3cret@db/boulanger ")
    config = load_config(env_file=None)
    assert config.database_url == "postgresql://bot:s3cret@db/boulanger"
    assert "s3cret" not in repr(config)
    monkeypatch.setenv("BOULANGER_DATABASE_URL", "")
    assert load_config(env_file=None).database_url is None


@on_postgres
async def test_the_bot_plays_a_game_on_postgres_and_finds_it_after_a_restart(fake_discord, stores, tmp_path):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord, tmp_path / "unused.sqlite3", database_url=stores.target) as bot:
        assert isinstance(bot.store, PostgresStore)
        result = await fake_discord.slash(alice, "boulanger", {"code": CODE})
        assert not result.failed and CODE in result.text()
        moved = await fake_discord.slash(alice, "move", {"notation": "6h"})
        assert not moved.failed
    assert not (tmp_path / "unused.sqlite3").exists()
    async with running(fake_discord, tmp_path / "unused.sqlite3", database_url=stores.target) as bot:
        game = await bot.store.active_game(alice.id, "bakers")
        assert game is not None and game.moves == ("6h",)
