"""The opaque per-game variant (schema 12; PostgreSQL 8): old cell counts keep their meaning.

A database the previous release left (free cells in ``cells`` columns) is
upgraded; every board, result, race, summary and deal stock then answers as
before, with the game's variant text in place of its cell count.
"""

from __future__ import annotations

import datetime as dt

from engine import Finish
from storage import ranking
from storage.postgres import opening as postgres_open
from storage.sqlite import opening as sqlite_open
from storage.sqlite.rows import to_ms

OLD_VERSION = {"sqlite": 11, "postgres": 7}
BAKERS_4, BAKERS_1, CALC = "BK1-C4-AAAAA24", "BK1-C1-AAAAA24", "CA1-AAAAA24"
FINISHED = dt.datetime(2026, 3, 2, 12, tzinfo=dt.UTC)
# game id, kind, code, cells, user, moves (all won, so fewer moves rank first)
GAMES = [
    (1, "bakers", BAKERS_4, 4, 1, 100),
    (2, "bakers", BAKERS_1, 1, 2, 90),
    (3, "calculation", CALC, None, 3, 60),
]


async def old_store(stores, monkeypatch) -> None:
    """This test's database as the previous release left it (SQLite 11, PostgreSQL 7)."""
    if stores.backend == "sqlite":
        real = sqlite_open.load_migrations()[: OLD_VERSION["sqlite"]]
        with monkeypatch.context() as patch:
            patch.setattr("storage.sqlite.base.load_migrations", lambda: real)
            patch.setattr(sqlite_open, "load_migrations", lambda: real)
            await (await stores.open()).close()
    else:
        real = postgres_open.load_migrations()[: OLD_VERSION["postgres"]]
        with monkeypatch.context() as patch:
            patch.setattr(postgres_open, "load_migrations", lambda: real)
            await (await stores.open()).close()


async def old_sql(stores, sql: str, *args) -> None:
    """One statement in both dialects: ``?`` placeholders (PostgreSQL: ``$n``), times as datetimes."""
    if stores.backend == "sqlite":
        await stores.sql(sql, "", *(to_ms(a) if isinstance(a, dt.datetime) else a for a in args))
    else:
        await stores.sql("", postgres_open.numbered(sql), *args)


async def fill_old(stores) -> None:
    for game_id, kind, code, cells, user, moves in GAMES:
        key = ranking.rank_key(kind, Finish("won", 52, moves, 52))
        await old_sql(
            stores,
            "INSERT INTO games (id, kind, code, cells, owner_id, guild_id, channel_id, status, score, "
            "move_count, home, started_at, updated_at, finished_at) "
            "VALUES (?, ?, ?, ?, ?, 5, 50, 'won', 52, ?, 52, ?, ?, ?)",
            game_id, kind, code, cells, user, moves, FINISHED, FINISHED, FINISHED,
        )  # fmt: skip
        await old_sql(
            stores,
            "INSERT INTO results (game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, "
            "move_count, home, rank_key, finished_at) VALUES (?, ?, ?, ?, ?, 5, 50, 'won', 52, ?, 52, ?, ?)",
            game_id, kind, code, cells, user, moves, key, FINISHED,
        )  # fmt: skip
        # The summaries the old code kept: every cell count (-1), and the game's own.
        for scope, scope_id in (("p", 0), ("g", 5), ("c", 50)):
            for counted in (-1,) if cells is None else (-1, cells):
                await old_sql(
                    stores,
                    "INSERT INTO player_bests (scope, scope_id, kind, cells, source, user_id, played, won, "
                    "rank_key, finished_at, game_id, best_score) VALUES (?, ?, ?, ?, 'stock', ?, 1, 1, ?, ?, ?, 52)",
                    scope, scope_id, kind, counted, user, key, FINISHED, game_id,
                )  # fmt: skip
    # The deal stock: cells 0 meant "no free cells" (Calculation).
    for kind, cells, deal in (("bakers", 4, 10), ("bakers", 1, 12), ("calculation", 0, 11)):
        await old_sql(
            stores, "INSERT INTO winnable_deals (kind, cells, deal, added_at) VALUES (?, ?, ?, ?)",
            kind, cells, deal, FINISHED,
        )  # fmt: skip
    for race_id, kind, code, cells in ((1, "bakers", BAKERS_4, 4), (2, "calculation", CALC, None)):
        await old_sql(
            stores,
            "INSERT INTO races (id, channel_id, kind, cells, code, creator_id, created_at, starts_at, "
            "time_limit) VALUES (?, 50, ?, ?, ?, 1, ?, ?, 600)",
            race_id, kind, cells, code, FINISHED, FINISHED,
        )  # fmt: skip
    if stores.backend == "postgres":  # rows given their ids: move the identities past them
        await stores.sql("", "SELECT setval(pg_get_serial_sequence('games', 'id'), 100)")
        await stores.sql("", "SELECT setval(pg_get_serial_sequence('races', 'id'), 100)")


def users(entries) -> list[int]:
    return [e.user_id for e in entries]


async def test_upgrading_to_variants_keeps_every_board_result_race_and_stock(stores, monkeypatch):
    await old_store(stores, monkeypatch)
    await fill_old(stores)
    store = await stores.open(clock=lambda: FINISHED + dt.timedelta(hours=1))
    # Games, results and races carry the cell count as the variant text; no cells: "".
    assert [(await store.get_game(g)).variant for g in (1, 2, 3)] == ["4", "1", ""]
    assert [(await store.get_result(g)).variant for g in (1, 2, 3)] == ["4", "1", ""]
    assert [(await store.get_race(r)).variant for r in (1, 2)] == ["4", ""]
    # The summaries: every variant together, or one.
    assert users(await store.leaderboard("bakers", channel_id=50)) == [2, 1]
    assert users(await store.leaderboard("bakers", guild_id=5, variant="4")) == [1]
    assert users(await store.leaderboard("bakers", channel_id=50, variant="1")) == [2]
    assert users(await store.leaderboard("bakers", channel_id=50, variant="2")) == []
    assert users(await store.leaderboard("calculation", channel_id=50)) == [3]
    assert users(await store.leaderboard("calculation", channel_id=50, variant="")) == [3]
    assert (await store.player_stats(2, "bakers")).best.game_id == 2
    # The history (this week's board, a deal's board).
    assert users(await store.leaderboard("bakers", channel_id=50, period="week", variant="1")) == [2]
    assert users(await store.leaderboard("bakers", channel_id=50, code=BAKERS_4)) == [1]
    # The stock of winnable deals, per variant.
    assert await store.count_winnable_deals("bakers", "4") == 1
    assert await store.take_winnable_deal("bakers", "1") == 12
    assert await store.take_winnable_deal("calculation", "") == 11
    assert await store.take_winnable_deal("bakers", "2") is None
    # A game finished after the upgrade joins the same boards.
    game = await store.create_game("bakers", BAKERS_4, 4, 5, 50, variant="4")
    await store.finish_game(game.id, game.version, "won", score=52, move_count=80, home=52)
    assert users(await store.leaderboard("bakers", channel_id=50)) == [4, 2, 1]
    assert users(await store.leaderboard("bakers", channel_id=50, variant="4")) == [4, 1]
    race = await store.create_race(
        "calculation", CALC, 9, 5, 50, variant="", starts_at=FINISHED, time_limit=600
    )
    assert race.variant == ""
    stored = await stores.sql(
        "SELECT DISTINCT variant FROM player_bests", "SELECT DISTINCT variant FROM player_bests"
    )
    assert {row[0] for row in stored} == {"*", "4", "1"}


async def test_a_variant_is_a_short_opaque_text_and_never_every_variant(store):
    import pytest

    import storage

    for bad in ("*", "4 cells", "x" * 17, 4, None):
        with pytest.raises(storage.InvalidValue, match="variant must be"):
            await store.create_game("bakers", BAKERS_4, 1, 5, 50, variant=bad)
        with pytest.raises(storage.InvalidValue, match="variant must be"):
            await store.add_winnable_deals("bakers", bad, [1])
    with pytest.raises(storage.InvalidValue, match="variant must be"):
        await store.leaderboard("bakers", channel_id=50, variant="*")
    assert (await store.create_game("bakers", BAKERS_4, 1, 5, 50, variant="draw-3_x")).variant == "draw-3_x"


def test_each_front_names_its_own_variant_and_reads_it_back():
    from bot.games import front_for

    bakers, calculation = front_for("bakers"), front_for("calculation")
    assert [bakers.variant(n) for n in bakers.cell_choices] == ["4", "2", "1"]
    assert [bakers.cells_of(bakers.variant(n)) for n in bakers.cell_choices] == [4, 2, 1]
    assert (calculation.variant(None), calculation.cells_of("")) == ("", None)
