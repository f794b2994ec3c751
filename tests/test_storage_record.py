"""Time, help and progress on the record: first move to finish, hints, undos, cards home; the
schema-9 upgrade that fills them in for old rows and re-ranks them. Both backends."""

from __future__ import annotations

import datetime as dt

import pytest

import engine
import storage
from storage.postgres import opening as postgres_open
from storage.sqlite import opening as sqlite_open

UTC = dt.UTC
NOON = dt.datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
CODE = "BK1-C4-AAAAA24"


@pytest.fixture
def clock():
    from tests.storage_procs.clock import FakeClock

    return FakeClock(NOON)


async def test_the_clock_starts_at_the_first_move_and_the_result_keeps_the_seconds(store, clock):
    game = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
    assert (game.first_move_at, game.home, game.hints, game.undos) == (None, None, 0, 0)
    clock.advance(minutes=5)  # thinking before the first move is not timed
    first = await store.append_move(game.id, 1, "6h", score=10, move_count=1, home=1)
    assert (first.first_move_at, first.home) == (NOON + dt.timedelta(minutes=5), 1)
    clock.advance(seconds=90)
    later = await store.append_moves(first.id, 2, ["7a", "undo"], score=10, move_count=1, home=1)
    assert (later.first_move_at, later.undos) == (first.first_move_at, 1)
    clock.advance(seconds=30)
    done = await store.finish_game(later.id, 3, "resigned", score=10, move_count=1, home=1)
    result = await store.get_result(done.id)
    assert (result.seconds, result.undos, result.hints, result.home) == (120, 1, 0, 1)


async def test_a_game_finished_without_a_move_has_no_time(store):
    game = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
    await store.finish_game(game.id, 1, "resigned", score=0, move_count=0, home=0)
    assert (await store.get_result(game.id)).seconds is None


async def test_a_hint_is_counted_without_a_version_step(store):
    game = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
    hinted = await store.record_hint(game.id)
    hinted = await store.record_hint(game.id)
    assert (hinted.hints, hinted.version) == (2, game.version)
    # A move made from the board the player had still lands (the hint did not move the version).
    moved = await store.append_move(game.id, game.version, "6h", score=10, move_count=1, home=1)
    assert moved.hints == 2
    done = await store.finish_game(moved.id, moved.version, "resigned", score=10, move_count=1, home=1)
    assert (await store.get_result(done.id)).assisted
    with pytest.raises(storage.GameNotActive):
        await store.record_hint(game.id)
    with pytest.raises(storage.GameNotFound):
        await store.record_hint(999_999)


async def test_a_hinted_win_ranks_below_an_unhinted_one_with_more_moves(store, clock):
    async def win(user: int, moves: int, hints: int) -> int:
        game = await store.create_game("bakers", CODE, user, 2, 3, variant="4")
        for _ in range(hints):
            await store.record_hint(game.id)
        await store.append_move(game.id, 1, "6h", score=520, move_count=moves, finish="won", home=52)
        return game.id

    await win(1, 60, hints=1)
    await win(2, 140, hints=0)
    board = await store.leaderboard("bakers", channel_id=3)
    assert [(e.user_id, e.best.hints) for e in board] == [(2, 0), (1, 1)]


async def test_stats_give_the_fastest_and_the_average_winning_time(store, clock):
    async def win(seconds: int, source: str = "stock") -> None:
        game = await store.create_game("bakers", CODE, 1, 2, 3, variant="4", source=source)
        await store.append_move(game.id, 1, "6h", score=10, move_count=1, home=1)
        clock.advance(seconds=seconds)
        await store.append_move(game.id, 2, "7h", score=520, move_count=90, finish="won", home=52)

    assert (await store.player_stats(1, "bakers")).fastest_win is None
    await win(300)
    await win(200)
    await win(10, source="practice")  # a chosen deal: not a record
    stats = await store.player_stats(1, "bakers")
    assert (stats.fastest_win, stats.average_win, stats.won, stats.practice) == (200, 250.0, 3, 1)
    in_guild = await store.player_stats(1, "bakers", guild_id=2)
    assert (in_guild.fastest_win, in_guild.average_win) == (200, 250.0)


async def test_a_farmed_score_does_not_make_the_best_game(store):
    """Stats' best is the rank-key best: more cards home beats any reference score."""
    farmed = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
    await store.finish_game(farmed.id, 1, "resigned", score=5020, move_count=2, home=2)
    honest = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
    await store.finish_game(honest.id, 1, "resigned", score=150, move_count=40, home=15)
    stats = await store.player_stats(1, "bakers")
    assert stats.best.game_id == honest.id


# -- the upgrade to schema 9 ------------------------------------------------------------------
def played(moves: int, undo_every: int = 0) -> tuple[list[str], engine.Game]:
    """A real action log on CODE: the first legal move, again and again, with some undos."""
    game = engine.new_game(CODE)
    log: list[str] = []
    for i in range(moves):
        game.play(game.legal_moves()[0])
        log.append(game.moves[-1])
        if undo_every and i % undo_every == undo_every - 1:
            game.undo()
            log.append("undo")
    return log, game


OLD_VERSION = {"sqlite": 8, "postgres": 4}


async def old_store(stores, monkeypatch) -> None:
    """This test's database at schema 8 (PostgreSQL: 4), as the previous release left it."""
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


async def insert_old(stores, game_id: int, user: int, status: str, log: list[str], game: engine.Game) -> None:
    moves = " ".join(log)
    finished = None if status == "active" else 2000 + game_id
    key = (1 << 62) - game.score if status != "won" else game.move_count  # version 8's keys
    if stores.backend == "sqlite":
        await stores.sql(
            "INSERT INTO games (id, kind, code, cells, owner_id, guild_id, channel_id, moves, action_count, "
            "status, score, move_count, started_at, updated_at, finished_at) "
            "VALUES (?, 'bakers', ?, 4, ?, 5, 50, ?, ?, ?, ?, ?, 1000, 1500, ?)",
            "",
            game_id,
            CODE,
            user,
            moves,
            len(log),
            status,
            game.score,
            game.move_count,
            finished,
        )
        if finished is not None:
            await stores.sql(
                "INSERT INTO results (game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, "
                "move_count, rank_key, finished_at) VALUES (?, 'bakers', ?, 4, ?, 5, 50, ?, ?, ?, ?, ?)",
                "",
                game_id,
                CODE,
                user,
                status,
                game.score,
                game.move_count,
                key,
                finished,
            )
        return
    at = dt.datetime(2026, 3, 1, tzinfo=UTC)
    done = None if finished is None else at + dt.timedelta(seconds=finished)
    await stores.sql(
        "",
        "INSERT INTO games (id, kind, code, cells, owner_id, guild_id, channel_id, moves, action_count, status, "
        "score, move_count, started_at, updated_at, finished_at) "
        "VALUES ($1, 'bakers', $2, 4, $3, 5, 50, $4, $5, $6, $7, $8, $9, $9, $10)",
        game_id,
        CODE,
        user,
        moves,
        len(log),
        status,
        game.score,
        game.move_count,
        at,
        done,
    )
    if done is not None:
        await stores.sql(
            "",
            "INSERT INTO results (game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, "
            "move_count, rank_key, finished_at) VALUES ($1, 'bakers', $2, 4, $3, 5, 50, $4, $5, $6, $7, $8)",
            game_id,
            CODE,
            user,
            status,
            game.score,
            game.move_count,
            key,
            done,
        )


async def test_upgrading_to_schema_9_replays_old_games_and_ranks_them_by_cards_home(stores, monkeypatch):
    await old_store(stores, monkeypatch)
    farm_log, farm = played(1)
    for _ in range(40):  # a cell-column shuttle: the score grows, nothing goes home
        for text in ("1b", "b1"):
            farm.play(text)
            farm_log.append(farm.moves[-1])
    honest_log, honest = played(30, undo_every=7)
    active_log, active = played(5)
    assert farm.score > honest.score and honest.cards_home > farm.cards_home
    await insert_old(stores, 1, 7, "resigned", farm_log, farm)
    await insert_old(stores, 2, 8, "resigned", honest_log, honest)
    await insert_old(stores, 3, 9, "active", active_log, active)
    if stores.backend == "postgres":  # rows given their ids: move the identity past them
        await stores.sql("", "SELECT setval(pg_get_serial_sequence('games', 'id'), 100)")
    store = await stores.open()
    board = await store.leaderboard("bakers", channel_id=50, variant="4")
    assert [(e.user_id, e.best.home) for e in board] == [(8, honest.cards_home), (7, farm.cards_home)]
    result = await store.get_result(2)
    assert (result.undos, result.seconds, result.hints) == (honest_log.count("undo"), None, 0)
    assert (await store.player_stats(7, "bakers")).best.game_id == 1
    kept = await store.get_game(3)
    assert (kept.home, kept.first_move_at) == (active.cards_home, kept.started_at)
    # Play goes on in the upgraded game, and race games may now be stored.
    moved = await store.append_move(3, kept.version, active.legal_moves()[0], score=0, move_count=6, home=0)
    assert moved.first_move_at == kept.started_at
    await store.create_game("calculation", "CA1-AAAAA24", 9, 5, 50, source="race")
