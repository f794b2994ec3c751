"""Leaderboards, daily results and player stats, with exact expected rankings."""

from __future__ import annotations

import datetime as dt

import pytest

import storage
from engine import Finish
from storage import ranking
from tests.conftest import UNIQUE_REFUSED
from tests.storage_procs.clock import FakeClock

UTC = dt.UTC
# Wednesday 4 March 2026; its ISO week began on Monday 2 March.
NOON = dt.datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
TODAY = NOON.date()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOON)


# ``store`` (tests/conftest.py) runs each test on SQLite and on PostgreSQL, with this ``clock``.


async def finished(
    store,
    clock,
    user: int,
    status: str,
    *,
    score: int = 0,
    moves: int = 0,
    at: dt.datetime = NOON,
    kind: str = "bakers",
    channel: int = 100,
    guild: int = 10,
    cells: int | None = 4,
    daily: dt.date | None = None,
    home: int | None = None,
) -> int:
    """A game finished at ``at`` without moves (so untimed); ``home`` defaults to what the
    game's result implies: 52 for a win, the score for Calculation, else 0."""
    clock.set(at)
    code = "CA1-AAAAA24" if kind == "calculation" else "BK1-C4-AAAAA24"
    cells = None if kind == "calculation" else cells
    if home is None:
        home = 52 if status == "won" else score if kind == "calculation" else 0
    variant = "" if cells is None else str(cells)
    game = await store.create_game(kind, code, user, guild, channel, variant=variant, daily_date=daily)
    await store.finish_game(game.id, game.version, status, score=score, move_count=moves, home=home)
    clock.set(NOON)
    return game.id


def users(entries) -> list[int]:
    return [e.user_id for e in entries]


@pytest.fixture
async def bakers_games(store, clock):
    """A (1) won in 90 and lost with 500; B (2) and C (3) won in 80, C earlier; D (4) lost with a farmed
    1000 but 10 cards home; E (5) resigned with 200 and 12 cards home; F (6) won in 70 in another
    channel of the guild; G (7) won in 60 last week (1 ms before Monday 00:00 UTC)."""
    h = dt.timedelta(hours=1)
    await finished(store, clock, 1, "won", score=300, moves=90, at=NOON - 5 * h)
    await finished(store, clock, 1, "lost", score=500, moves=40, at=NOON - 4 * h, home=40)
    await finished(store, clock, 2, "won", score=290, moves=80, at=NOON - 2 * h)
    await finished(store, clock, 3, "won", score=310, moves=80, at=NOON - 3 * h)
    await finished(store, clock, 4, "lost", score=1000, moves=10, at=NOON - 1 * h, home=10)
    await finished(store, clock, 5, "resigned", score=200, moves=5, at=NOON - 1 * h, home=12)
    await finished(store, clock, 6, "won", score=280, moves=70, at=NOON - 1 * h, channel=200)
    await finished(
        store, clock, 7, "won", score=280, moves=60, at=NOON - 60 * h - dt.timedelta(milliseconds=1)
    )


async def test_bakers_channel_leaderboard_ranks_wins_then_fewer_moves_then_earlier(store, bakers_games):
    board = await store.leaderboard("bakers", channel_id=100)
    assert users(board) == [7, 3, 2, 1, 5, 4]
    assert [e.rank for e in board] == [1, 2, 3, 4, 5, 6]
    a = board[3]
    assert (a.played, a.won, a.best.status, a.best.move_count, a.best.score) == (2, 1, "won", 90, 300)
    # Games not won rank by cards home: the farmed 1000 points (10 home) are shown, but rank last.
    assert (board[4].best.home, board[5].best.home, board[5].best.score) == (12, 10, 1000)


async def test_week_leaderboard_starts_monday_utc(store, clock, bakers_games):
    assert users(await store.leaderboard("bakers", channel_id=100, period="week")) == [3, 2, 1, 5, 4]
    monday_midnight = dt.datetime(2026, 3, 2, tzinfo=UTC)
    await finished(store, clock, 9, "won", moves=100, at=monday_midnight)
    assert users(await store.leaderboard("bakers", channel_id=100, period="week")) == [3, 2, 1, 9, 5, 4]
    # On the next Monday, nothing of this week counts any more.
    monday = dt.datetime(2026, 3, 9, 0, 0, tzinfo=UTC)
    assert await store.leaderboard("bakers", channel_id=100, period="week", now=monday) == []


async def test_guild_leaderboard_spans_its_channels(store, bakers_games):
    assert users(await store.leaderboard("bakers", guild_id=10)) == [7, 6, 3, 2, 1, 5, 4]
    assert await store.leaderboard("bakers", guild_id=11) == []


async def test_leaderboard_pages_and_size(store, bakers_games):
    page = await store.leaderboard("bakers", channel_id=100, limit=2, offset=2)
    assert [(e.rank, e.user_id) for e in page] == [(3, 2), (4, 1)]
    assert await store.leaderboard_size("bakers", channel_id=100) == 6
    assert await store.leaderboard_size("bakers", channel_id=100, period="week") == 5


async def test_cells_narrow_the_bakers_leaderboard(store, clock, bakers_games):
    await finished(store, clock, 8, "won", moves=200, cells=1)
    assert users(await store.leaderboard("bakers", channel_id=100, variant="1")) == [8]
    assert 8 in users(await store.leaderboard("bakers", channel_id=100))


async def test_calculation_ranks_by_score_then_earlier_finish(store, clock):
    h = dt.timedelta(hours=1)
    await finished(store, clock, 1, "lost", score=40, at=NOON - 1 * h, kind="calculation")
    await finished(store, clock, 2, "won", score=52, at=NOON - 1 * h, kind="calculation")
    await finished(store, clock, 3, "lost", score=40, at=NOON - 2 * h, kind="calculation")
    await finished(store, clock, 4, "resigned", score=30, at=NOON - 3 * h, kind="calculation")
    await finished(store, clock, 4, "lost", score=45, at=NOON - 2 * h, kind="calculation")
    board = await store.leaderboard("calculation", channel_id=100)
    assert [(e.user_id, e.best.score) for e in board] == [(2, 52), (4, 45), (3, 40), (1, 40)]
    assert (board[1].played, board[1].won) == (2, 0)
    # Kinds never mix.
    assert await store.leaderboard("bakers", channel_id=100) == []


async def test_only_the_first_finished_daily_attempt_counts(store, stores, clock):
    day = TODAY
    h = dt.timedelta(hours=1)
    # User 1 loses the daily first, then wins it: the loss is what counts.
    await finished(store, clock, 1, "lost", score=100, moves=30, at=NOON - 3 * h, daily=day)
    second = await finished(store, clock, 1, "won", score=400, moves=50, at=NOON - 2 * h, daily=day)
    await finished(store, clock, 2, "won", score=380, moves=99, at=NOON - 1 * h, daily=day)
    await finished(
        store, clock, 3, "won", score=380, moves=60, at=NOON - 1 * h, daily=day, guild=11, channel=300
    )
    await finished(
        store, clock, 4, "won", score=380, moves=10, at=NOON - 30 * h, daily=day - dt.timedelta(days=1)
    )
    await finished(store, clock, 5, "won", score=380, moves=10, at=NOON - 1 * h)  # not a daily game
    assert (await store.get_result(second)).counts_for_daily is False

    board = await store.leaderboard("bakers", channel_id=100, period="daily")
    assert [(e.user_id, e.best.status) for e in board] == [(2, "won"), (1, "lost")]
    assert board[1].played == 1  # the second attempt is not counted at all
    results = await store.daily_results("bakers", day)
    assert [(r.user_id, r.move_count) for r in results] == [(3, 60), (2, 99), (1, 30)]
    assert [r.user_id for r in await store.daily_results("bakers", day, guild_id=11)] == [3]
    yesterday = day - dt.timedelta(days=1)
    assert users(await store.leaderboard("bakers", channel_id=100, period="daily", daily_date=yesterday)) == [
        4
    ]
    # A player's first attempt is unique in the database itself.
    with pytest.raises(Exception, match=UNIQUE_REFUSED):
        await stores.sql(
            "UPDATE results SET counts_for_daily = 1 WHERE game_id = ?",
            "UPDATE results SET counts_for_daily = true WHERE game_id = $1",
            second,
        )


async def test_the_global_daily_board_ranks_first_attempts_from_every_guild(store, clock):
    day = TODAY
    h = dt.timedelta(hours=1)
    # Guild 10 (channels 100, 101), guild 11 (channel 300); user 1 played the daily twice.
    await finished(store, clock, 1, "lost", score=100, moves=30, at=NOON - 5 * h, daily=day)
    await finished(store, clock, 1, "won", score=400, moves=50, at=NOON - 4 * h, daily=day)
    await finished(store, clock, 2, "won", moves=99, at=NOON - 3 * h, daily=day, channel=101)
    await finished(store, clock, 3, "won", moves=60, at=NOON - 2 * h, daily=day, guild=11, channel=300)
    await finished(store, clock, 4, "won", moves=60, at=NOON - 1 * h, daily=day, guild=11, channel=300)
    await finished(store, clock, 5, "won", moves=10, at=NOON - 30 * h, daily=day - dt.timedelta(days=1))
    await finished(store, clock, 6, "won", moves=10, at=NOON - 1 * h)  # a stock game
    await finished(store, clock, 7, "won", moves=5, at=NOON - 1 * h, daily=day, kind="calculation")

    board = await store.leaderboard("bakers", period="daily")
    assert [(e.rank, e.user_id, e.best.move_count) for e in board] == [
        (1, 3, 60),  # equal moves: the earlier finish first
        (2, 4, 60),
        (3, 2, 99),
        (4, 1, 30),  # user 1's first attempt, the loss
    ]
    assert [(e.played, e.won) for e in board] == [(1, 1), (1, 1), (1, 1), (1, 0)]
    assert await store.leaderboard_size("bakers", period="daily") == 4
    page = await store.leaderboard("bakers", period="daily", limit=2, offset=2)
    assert [(e.rank, e.user_id) for e in page] == [(3, 2), (4, 1)]
    yesterday = day - dt.timedelta(days=1)
    assert users(await store.leaderboard("bakers", period="daily", daily_date=yesterday)) == [5]
    assert users(await store.leaderboard("calculation", period="daily")) == [7]
    # The narrower scopes of the same day.
    assert users(await store.leaderboard("bakers", guild_id=10, period="daily")) == [2, 1]
    assert users(await store.leaderboard("bakers", guild_id=11, period="daily")) == [3, 4]
    assert users(await store.leaderboard("bakers", channel_id=100, period="daily")) == [1]


async def test_player_stats_count_games_best_and_streaks(store, clock):
    h = dt.timedelta(hours=1)
    days = [
        dt.date(2026, 2, 20),
        dt.date(2026, 2, 21),
        dt.date(2026, 3, 1),
        dt.date(2026, 3, 2),
        dt.date(2026, 3, 3),
    ]
    for day in days:
        at = dt.datetime.combine(day, dt.time(9), tzinfo=UTC)
        await finished(store, clock, 1, "lost", score=50, moves=20, at=at, daily=day)
    await finished(store, clock, 1, "lost", score=60, moves=20, at=NOON - 60 * h, daily=dt.date(2026, 3, 2))
    await finished(store, clock, 1, "won", score=300, moves=95, at=NOON - 2 * h, guild=11)
    await finished(store, clock, 1, "won", score=300, moves=85, at=NOON - 1 * h)
    await finished(store, clock, 1, "won", score=300, moves=85, at=NOON - 1 * h, kind="calculation")

    stats = await store.player_stats(1, "bakers")
    assert (stats.played, stats.won, stats.best.move_count, stats.best_score) == (8, 2, 85, 300)
    assert stats.win_rate == pytest.approx(2 / 8)
    assert (stats.current_streak, stats.best_streak, stats.last_daily) == (3, 3, dt.date(2026, 3, 3))
    in_guild_11 = await store.player_stats(1, "bakers", guild_id=11)
    assert (in_guild_11.played, in_guild_11.won, in_guild_11.best.move_count) == (1, 1, 95)
    assert in_guild_11.current_streak == 3  # streaks are global
    later = await store.player_stats(1, "bakers", today=dt.date(2026, 3, 5))
    assert (later.current_streak, later.best_streak) == (0, 3)


async def test_stats_of_a_newcomer_are_zero(store):
    stats = await store.player_stats(42, "calculation")
    assert stats == storage.PlayerStats(42, "calculation", 0, 0, None, 0, 0, None, best_score=0)
    assert stats.win_rate == 0.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "only the daily board \\(no code\\) is global"),
        ({"period": "week"}, "only the daily board \\(no code\\) is global"),
        ({"period": "daily", "code": "BK1-C4-AAAAA24"}, "only the daily board \\(no code\\) is global"),
        ({"channel_id": 1, "guild_id": 2}, "one of channel_id and guild_id, not both"),
        ({"channel_id": 1, "period": "month"}, "period must be all, week or daily"),
        ({"channel_id": 1, "limit": 0}, "limit must be"),
        ({"channel_id": 1, "offset": -1}, "offset must be"),
        ({"channel_id": 1, "now": dt.datetime(2026, 1, 1)}, "timezone-aware"),
    ],
)
async def test_bad_leaderboard_requests_are_refused(store, kwargs, message):
    with pytest.raises(storage.InvalidValue, match=message):
        await store.leaderboard("bakers", **kwargs)


def key(kind: str, status: str, score: int, moves: int, home: int | None = None, **more: int) -> int:
    return ranking.rank_key(kind, Finish(status, score, moves, home, **more))


def test_rank_key_puts_every_bakers_win_above_any_score():
    assert key("bakers", "won", 0, 10**6, 52) < key("bakers", "lost", 10**18, 1, 51)
    assert key("bakers", "won", 0, 80) < key("bakers", "won", 9999, 81)
    assert key("calculation", "won", 52, 300) < key("calculation", "lost", 51, 1)


def test_games_not_won_rank_by_cards_home_never_by_the_farmable_score():
    assert key("bakers", "lost", 0, 90, 41) < key("bakers", "resigned", 10**6, 9, 40)
    # At equal cards home: fewer moves, then less time; the score never counts.
    assert key("bakers", "lost", 0, 50, 20) < key("bakers", "lost", 5000, 51, 20)
    assert key("bakers", "lost", 0, 50, 20, seconds=60) < key("bakers", "lost", 5000, 50, 20, seconds=61)
    assert key("bakers", "lost", 10, 50, 20) == key("bakers", "lost", 5000, 50, 20)


def test_at_equal_outcome_unassisted_ranks_above_assisted_then_moves_then_time():
    # Among wins a hint costs more than any number of moves or seconds...
    assert key("bakers", "won", 0, 500, seconds=9999) < key("bakers", "won", 0, 60, seconds=5, hints=1)
    # ...but a hinted win still beats any game not won.
    assert key("bakers", "won", 0, 10**6, hints=9) < key("bakers", "lost", 0, 1, 51)
    # Among games not won, cards home come first, then help, then moves.
    assert key("bakers", "lost", 0, 90, 30, hints=2) < key("bakers", "lost", 0, 10, 29)
    assert key("bakers", "lost", 0, 90, 30) < key("bakers", "lost", 0, 10, 30, hints=1)
    # Wins: fewer moves, then less time; an unknown time (an old result) after every known one.
    assert key("bakers", "won", 0, 80, seconds=300) < key("bakers", "won", 0, 80, seconds=301)
    assert key("bakers", "won", 0, 80, seconds=10**9) < key("bakers", "won", 0, 80)
    assert key("bakers", "won", 0, 79) < key("bakers", "won", 0, 80, seconds=1)
    # Calculation: cards home, then help, then moves, then time.
    assert key("calculation", "lost", 45, 90, hints=1) < key("calculation", "lost", 44, 60)
    assert key("calculation", "won", 52, 90) < key("calculation", "won", 52, 80, hints=1)
    assert key("calculation", "won", 52, 80, seconds=100) < key("calculation", "won", 52, 80, seconds=101)


@pytest.mark.parametrize(
    ("days", "today", "expected"),
    [
        ([], dt.date(2026, 3, 4), (0, 0)),
        ([dt.date(2026, 3, 4)], dt.date(2026, 3, 4), (1, 1)),
        ([dt.date(2026, 3, 3)], dt.date(2026, 3, 4), (1, 1)),
        ([dt.date(2026, 3, 2)], dt.date(2026, 3, 4), (0, 1)),
        ([dt.date(2026, 2, 27), dt.date(2026, 2, 28), dt.date(2026, 3, 1)], dt.date(2026, 3, 1), (3, 3)),
        ([dt.date(2025, 12, 31), dt.date(2026, 1, 1), dt.date(2026, 1, 3)], dt.date(2026, 1, 3), (1, 2)),
    ],
)
def test_streaks_count_consecutive_utc_days(days, today, expected):
    assert ranking.streaks(days, today) == expected


def test_week_starts_on_monday_midnight_utc():
    sunday_late = dt.datetime(2026, 3, 8, 23, 59, tzinfo=UTC)
    assert ranking.week_start(sunday_late) == dt.datetime(2026, 3, 2, tzinfo=UTC)
    assert ranking.week_start(dt.datetime(2026, 3, 9, tzinfo=UTC)) == dt.datetime(2026, 3, 9, tzinfo=UTC)
    # A time given in another zone is converted to UTC first.
    tokyo = dt.timezone(dt.timedelta(hours=9))
    assert ranking.week_start(dt.datetime(2026, 3, 9, 8, 0, tzinfo=tokyo)) == dt.datetime(
        2026, 3, 2, tzinfo=UTC
    )


async def test_leaderboards_match_a_plain_recomputation_over_random_history(store, clock):
    """The summaries kept at each finish agree with ranking the whole history from scratch."""
    import random

    rng = random.Random(11)
    history = []
    for _ in range(150):
        at = NOON - dt.timedelta(minutes=rng.randrange(20 * 24 * 60))
        kind = rng.choice(["bakers", "calculation"])
        status = rng.choice(["won", "lost", "resigned"])
        user, channel, cells = rng.randrange(8), rng.choice([100, 101, 200]), rng.choice([4, 2, 1])
        score, moves = rng.randrange(0, 53), rng.randrange(0, 5)  # few values: many ties
        home = 52 if status == "won" else score if kind == "calculation" else rng.randrange(0, 4)
        guild = 10 if channel < 200 else 20
        gid = await finished(
            store,
            clock,
            user,
            status,
            score=score,
            moves=moves,
            at=at,
            kind=kind,
            channel=channel,
            guild=guild,
            cells=cells,
            home=home,
        )
        history.append(
            (
                gid,
                kind,
                user,
                channel,
                guild,
                None if kind == "calculation" else cells,
                status,
                score,
                moves,
                at,
                home,
            )
        )

    def expected(kind, *, channel=None, guild=None, cells=None, since=None):
        rows = [
            h
            for h in history
            if h[1] == kind
            and (channel is None or h[3] == channel)
            and (guild is None or h[4] == guild)
            and (cells is None or h[5] == cells)
            and (since is None or h[9] >= since)
        ]
        key = lambda h: (ranking.rank_key(h[1], Finish(h[6], h[7], h[8], h[10])), h[9], h[0])  # noqa: E731
        best: dict[int, tuple] = {}
        for h in sorted(rows, key=key):
            best.setdefault(h[2], h)
        ordered = sorted(best.values(), key=key)
        return [
            (h[2], h[0], sum(r[2] == h[2] for r in rows), sum(r[2] == h[2] and r[6] == "won" for r in rows))
            for h in ordered
        ]

    def got(entries):
        return [(e.user_id, e.best.game_id, e.played, e.won) for e in entries]

    monday = ranking.week_start(NOON)
    for kind in ("bakers", "calculation"):
        for scope in ({"channel": 100}, {"channel": 200}, {"guild": 10}, {"guild": 20}):
            args = {f"{k}_id": val for k, val in scope.items()}
            assert got(await store.leaderboard(kind, **args, limit=100)) == expected(kind, **scope)
            week = await store.leaderboard(kind, **args, period="week", limit=100)
            assert got(week) == expected(kind, **scope, since=monday)
            assert await store.leaderboard_size(kind, **args) == len(expected(kind, **scope))
            if kind == "bakers":
                for cells in (4, 1):
                    assert got(
                        await store.leaderboard(kind, **args, variant=str(cells), limit=100)
                    ) == expected(kind, **scope, cells=cells)
        for user in range(8):
            stats = await store.player_stats(user, kind)
            mine = [h for h in history if h[1] == kind and h[2] == user]
            assert (stats.played, stats.won) == (len(mine), sum(h[6] == "won" for h in mine))
            assert stats.best_score == max((h[7] for h in mine), default=0)
