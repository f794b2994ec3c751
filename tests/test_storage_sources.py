"""Comparable games only (README, Ranking rules), on both backends: a game's deal source decides
which boards it ranks on; the main boards rank one cell count; a deal's board ranks every game."""

from __future__ import annotations

import datetime as dt

import pytest

import storage
from tests.storage_procs.clock import FakeClock

NOON = dt.datetime(2026, 3, 4, 12, 0, tzinfo=dt.UTC)
C4 = "BK1-C4-AAAAA24"
C1 = "BK1-C1-AAAAA24"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOON)


async def won(store, user, moves, *, code=C4, cells=4, source="stock", channel=100, daily=None, status="won"):
    game = await store.create_game(
        "bakers", code, user, 10, channel, variant=str(cells), daily_date=daily, source=source
    )
    assert game.source == source
    done = await store.finish_game(game.id, game.version, status, score=100 + moves, move_count=moves)
    assert done.source == source and (await store.get_result(game.id)).source == source
    return game.id


def board(entries):
    return [(e.user_id, e.best.move_count) for e in entries]


async def test_a_game_records_its_source_and_stock_is_the_default(store):
    game = await store.create_game("bakers", C4, 1, 10, 100, variant="4")
    assert game.source == "stock" and (await store.get_game(game.id)).source == "stock"
    with pytest.raises(storage.InvalidValue):
        await store.create_game("calculation", "CA1-AAAAA24", 1, 10, 100, source="typed")


async def test_main_boards_rank_stock_games_only(store):
    await won(store, 1, 90)
    await won(store, 2, 76, source="practice")  # a solver-found typed code
    await won(store, 3, 80, source="daily", daily=NOON.date())
    for period in ("all", "week"):
        entries = await store.leaderboard("bakers", channel_id=100, period=period, variant="4")
        assert board(entries) == [(1, 90)]
        assert await store.leaderboard_size("bakers", channel_id=100, period=period, variant="4") == 1
        assert board(await store.leaderboard("bakers", guild_id=10, period=period)) == [(1, 90)]
    daily = await store.leaderboard("bakers", channel_id=100, period="daily", daily_date=NOON.date())
    assert board(daily) == [(3, 80)]


async def test_cell_counts_rank_on_separate_boards(store):
    await won(store, 1, 90, code=C4, cells=4)
    await won(store, 2, 120, code=C1, cells=1)
    assert board(await store.leaderboard("bakers", channel_id=100, variant="4")) == [(1, 90)]
    assert board(await store.leaderboard("bakers", channel_id=100, variant="1")) == [(2, 120)]
    week = await store.leaderboard("bakers", channel_id=100, period="week", variant="1")
    assert board(week) == [(2, 120)]


async def test_a_deals_board_ranks_every_game_of_that_code_whatever_its_source(store):
    await won(store, 1, 90)
    await won(store, 2, 76, source="practice")
    await won(store, 3, 80, source="daily", daily=NOON.date())
    await won(store, 4, 50, code="BK1-C4-AAAAA25", source="practice")  # another deal
    await won(store, 5, 60, channel=200, source="practice")  # another channel
    await won(store, 2, 70, source="practice", status="lost")  # not won: below every win
    entries = await store.leaderboard("bakers", channel_id=100, code=C4)
    assert board(entries) == [(2, 76), (3, 80), (1, 90)]
    assert entries[0].played == 2 and entries[0].won == 1
    assert await store.leaderboard_size("bakers", channel_id=100, code=C4) == 3
    users = [e.user_id for e in await store.leaderboard("bakers", guild_id=10, code=C4)]
    assert users == [5, 2, 3, 1]


async def test_stats_count_practice_apart_and_best_ignores_it(store):
    await won(store, 1, 90)
    await won(store, 1, 60, source="practice")
    await won(store, 1, 80, source="daily", daily=NOON.date())
    stats = await store.player_stats(1, "bakers", today=NOON.date())
    assert (stats.played, stats.won, stats.practice) == (3, 3, 1)
    assert stats.best is not None and stats.best.move_count == 80 and stats.best.source == "daily"
    assert stats.best_score == 190  # the stock game's; the practice game (160) counts for neither
    await won(store, 2, 50, source="practice")
    only = await store.player_stats(2, "bakers")
    assert (only.played, only.practice, only.best, only.best_score) == (1, 1, None, 0)
