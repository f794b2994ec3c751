"""Games in storage: creating, the one-active-game rule, moves, finishing, versions, odd input."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

import engine
import storage
from storage.sqlite import SqliteStore
from tests.conftest import UNIQUE_REFUSED
from tests.storage_procs.clock import FakeClock

CODE = "BK1-C4-AAAAA24"


# ``store`` (tests/conftest.py) runs each test on SQLite and on PostgreSQL; ``clock`` is a FakeClock.


@pytest.fixture
async def sqlite_store(tmp_path):
    """For the tests of the SQLite store's own machinery (its group commit)."""
    s = await SqliteStore.open(str(tmp_path / "games.db"), clock=FakeClock())
    yield s
    await s.close()


async def test_a_new_game_is_stored_with_every_field(store, clock):
    game = await store.create_game(
        "bakers", CODE, 2**63 - 1, 11, 12, variant="4", daily_date=dt.date(2026, 3, 4)
    )
    assert (game.kind, game.code, game.variant, game.owner_id, game.guild_id, game.channel_id) == (
        "bakers",
        CODE,
        "4",
        2**63 - 1,
        11,
        12,
    )
    assert (game.message_id, game.moves, game.status, game.score, game.move_count) == (
        None,
        (),
        "active",
        0,
        0,
    )
    assert game.started_at == game.updated_at == clock.now
    assert game.finished_at is None and game.daily_date == dt.date(2026, 3, 4) and game.version == 1
    assert await store.get_game(game.id) == game


async def test_a_missing_game_raises_game_not_found(store):
    with pytest.raises(storage.GameNotFound, match="no game with id 99"):
        await store.get_game(99)
    with pytest.raises(storage.GameNotFound):
        await store.append_move(99, 1, "3h", score=0, move_count=1)
    with pytest.raises(storage.GameNotFound):
        await store.set_message(99, 1, 2)


async def test_one_active_game_per_player_and_kind(store):
    first = await store.create_game("bakers", CODE, 7, 1, 2, variant="4")
    with pytest.raises(storage.ActiveGameExists) as caught:
        await store.create_game("bakers", "BK1-C2-AAAAAAB", 7, 1, 3, variant="2")
    assert caught.value.existing == first
    # Another kind, or another player, is fine.
    other_kind = await store.create_game("calculation", "CA1-AAAAA24", 7, 1, 2)
    other_player = await store.create_game("bakers", CODE, 8, 1, 2, variant="4")
    assert {g.id for g in await store.active_games(7)} == {first.id, other_kind.id}
    assert await store.active_game(7, "bakers") == first
    assert await store.active_game(8, "bakers") == other_player
    # Once the first is finished, a new one may start.
    await store.finish_game(first.id, first.version, "resigned", score=0, move_count=0)
    assert await store.active_game(7, "bakers") is None
    second = await store.create_game("bakers", CODE, 7, 1, 2, variant="4")
    assert second.id != first.id


async def test_the_database_itself_refuses_two_active_games(store, stores):
    await store.create_game("bakers", CODE, 7, 1, 2)
    with pytest.raises(Exception, match=UNIQUE_REFUSED):
        await stores.sql(
            "INSERT INTO games (kind, code, owner_id, started_at, updated_at) VALUES ('bakers', 'x', 7, 0, 0)",
            "INSERT INTO games (kind, code, owner_id, started_at, updated_at) "
            "VALUES ('bakers', 'x', 7, now(), now())",
        )


async def test_moves_append_in_order_and_bump_the_version(store, clock):
    game = await store.create_game("bakers", CODE, 1, None, None)
    clock.advance(seconds=5)
    game = await store.append_move(game.id, 1, "3h", score=10, move_count=1)
    game = await store.append_move(game.id, 2, "undo", score=0, move_count=0)
    game = await store.append_moves(game.id, 3, ["3h", "5a"], score=15, move_count=2)
    assert game.moves == ("3h", "undo", "3h", "5a")
    assert (game.version, game.score, game.move_count) == (4, 15, 2)
    assert game.updated_at == clock.now and game.started_at == clock.now - dt.timedelta(seconds=5)
    assert await store.get_game(game.id) == game


async def test_a_stale_version_is_refused_and_changes_nothing(store):
    game = await store.create_game("bakers", CODE, 1, None, None)
    moved = await store.append_move(game.id, 1, "3h", score=10, move_count=1)
    with pytest.raises(storage.VersionConflict) as caught:
        await store.append_move(game.id, 1, "4h", score=20, move_count=2)
    assert caught.value.expected == 1 and caught.value.current == moved
    with pytest.raises(storage.VersionConflict):
        await store.finish_game(game.id, 1, "won", score=1, move_count=1)
    assert await store.get_game(game.id) == moved
    assert await store.get_result(game.id) is None


async def test_concurrent_tasks_on_one_game_never_lose_an_update(store):
    """Twenty tasks click at once with the version they read; each retries on conflict."""
    game = await store.create_game("bakers", CODE, 1, None, None)
    conflicts = 0

    async def click(n: int) -> None:
        nonlocal conflicts
        while True:
            current = await store.get_game(game.id)
            await asyncio.sleep(0)  # let the other clicks read the same version
            try:
                await store.append_move(current.id, current.version, f"m{n}", score=n, move_count=n)
                return
            except storage.VersionConflict:
                conflicts += 1

    await asyncio.gather(*(click(n) for n in range(20)))
    final = await store.get_game(game.id)
    assert sorted(final.moves) == sorted(f"m{n}" for n in range(20))
    assert final.version == 21
    assert conflicts > 0  # the race really happened


async def test_two_stores_on_one_database_get_version_conflicts(stores):
    """Two connections (as two bot processes would have) race on one game."""
    a = await stores.open()
    b = await stores.open()
    game = await a.create_game("bakers", CODE, 1, None, None)
    seen_by_b = await b.get_game(game.id)
    await a.append_move(game.id, game.version, "3h", score=10, move_count=1)
    with pytest.raises(storage.VersionConflict) as caught:
        await b.append_move(seen_by_b.id, seen_by_b.version, "4h", score=10, move_count=1)
    assert caught.value.current.moves == ("3h",)
    with pytest.raises(storage.ActiveGameExists):
        await b.create_game("bakers", CODE, 1, None, None)


async def test_finishing_writes_the_history_row_in_the_same_step(store, clock):
    game = await store.create_game("calculation", "CA1-AAAAA24", 5, 6, 7, daily_date=dt.date(2026, 3, 4))
    clock.advance(minutes=3)
    done = await store.append_move(game.id, 1, "t1", score=52, move_count=1, finish="won", home=52)
    assert done.status == "won" and done.finished_at == clock.now and done.version == 2
    result = await store.get_result(game.id)
    assert result == storage.FinishedGame(
        game_id=game.id,
        kind="calculation",
        code="CA1-AAAAA24",
        variant="",
        user_id=5,
        guild_id=6,
        channel_id=7,
        status="won",
        score=52,
        move_count=1,
        finished_at=clock.now,
        daily_date=dt.date(2026, 3, 4),
        counts_for_daily=True,
        home=52,
        seconds=0,  # the winning move was the first: its clock started and stopped at once
    )


async def test_a_finished_game_takes_no_more_moves(store):
    game = await store.create_game("bakers", CODE, 1, None, None)
    done = await store.finish_game(game.id, 1, "lost", score=30, move_count=4)
    with pytest.raises(storage.GameNotActive) as caught:
        await store.append_move(game.id, done.version, "3h", score=0, move_count=0)
    assert caught.value.current == done
    with pytest.raises(storage.GameNotActive):
        await store.finish_game(game.id, done.version, "won", score=0, move_count=0)
    assert await store.get_game(game.id) == done


async def test_set_message_records_where_the_board_is_without_a_version_step(store):
    game = await store.create_game("bakers", CODE, 1, 2, 3)
    moved = await store.set_message(game.id, 4, 5)
    assert (moved.channel_id, moved.message_id, moved.version) == (4, 5, game.version)


@pytest.mark.parametrize(
    "text",
    [
        "x" * 200,
        "Jeu du Boulanger ♠♥♦♣ 🂡 Расчёт",
        "'; DROP TABLE games; --",
        'quote " and \\ backslash',
        "nul\x00inside",
        "\u202eright-to-left\u200b",
    ],
)
async def test_odd_strings_are_stored_exactly(store, stores, text):
    game = await store.create_game("bakers", text, 1, None, None)
    assert (await store.get_game(game.id)).code == text
    await store.set_user_language(1, text[:35])
    assert await store.user_language(1) == text[:35]
    assert await store.set_daily_code("bakers", dt.date(2026, 1, 1), text) == text
    assert [r[0] for r in await stores.sql("SELECT count(*) FROM games", "SELECT count(*) FROM games")] == [1]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.create_game("bakers", "x" * 201, 1, None, None), "at most 200"),
        (lambda s: s.create_game("bakers", "\ud800", 1, None, None), "not valid Unicode"),
        (lambda s: s.create_game("bakers", "   ", 1, None, None), "must not be empty"),
        (lambda s: s.create_game("chess", CODE, 1, None, None), "kind must be one of"),
        (lambda s: s.create_game("bakers", CODE, -1, None, None), "owner_id must be an integer"),
        (lambda s: s.create_game("bakers", CODE, 2**63, None, None), "owner_id must be an integer"),
        (lambda s: s.create_game("bakers", CODE, True, None, None), "owner_id must be an integer"),
        (lambda s: s.create_game("bakers", CODE, 1, "12", None), "guild_id must be an integer"),
        (lambda s: s.create_game("bakers", CODE, 1, None, None, variant="*"), "variant must be"),
        (lambda s: s.create_game("bakers", CODE, 1, None, None, variant=4), "variant must be"),
        (lambda s: s.create_game("bakers", CODE, 1, None, None, variant="x" * 17), "variant must be"),
        (lambda s: s.create_game("bakers", CODE, 1, None, None, daily_date="2026-01-01"), "daily_date must"),
    ],
)
async def test_bad_input_is_refused_clearly_and_stores_nothing(store, call, message):
    with pytest.raises(storage.InvalidValue, match=message):
        await call(store)
    assert await store.active_game(1, "bakers") is None


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (["3h 4h"], "without spaces"),
        ([""], "without spaces"),
        (["a\nb"], "without spaces"),
        (["x" * 161], "at most 160"),
        ([], "must not be empty"),
        ("3h", "sequence of moves"),
        ([3], "must be text"),
    ],
)
async def test_bad_moves_are_refused_and_the_game_is_unchanged(store, actions, message):
    game = await store.create_game("bakers", CODE, 1, None, None)
    with pytest.raises(storage.InvalidValue, match=message):
        await store.append_moves(game.id, 1, actions, score=0, move_count=0)
    with pytest.raises(storage.InvalidValue, match="status must be one of"):
        await store.finish_game(game.id, 1, "active", score=0, move_count=0)
    assert await store.get_game(game.id) == game


async def test_a_huge_action_log_round_trips_and_replays(store):
    """A long real game: every legal move appended one by one replays to the same position."""
    import random

    rng = random.Random(5)
    game = engine.new_game(CODE)
    row = await store.create_game("bakers", CODE, 1, None, None, variant="4")
    for _ in range(300):
        legal = game.legal_moves()
        action = "undo" if (not legal or rng.random() < 0.1) and game.undo_depth else rng.choice(legal)
        game.play(action)
        row = await store.append_move(
            row.id, row.version, action, score=game.score, move_count=game.move_count
        )
    stored = await store.get_game(row.id)
    assert stored.moves == game.moves and len(stored.moves) == 300
    assert engine.replay(stored.code, stored.moves).board_text() == game.board_text()


async def test_a_closed_store_refuses_calls(stores):
    s = await stores.open()
    await s.close()
    await s.close()  # twice is fine
    with pytest.raises(storage.StorageError, match="closed"):
        await s.get_game(1)


async def test_writes_arriving_together_share_a_commit_and_a_refusal_undoes_only_itself(
    sqlite_store, monkeypatch
):
    store = sqlite_store
    games = [await store.create_game("bakers", CODE, owner, None, None) for owner in range(10)]
    batch_sizes: list[int] = []
    run_batch = store._db._run_batch

    async def counting(batch):
        batch_sizes.append(len(batch))
        return await run_batch(batch)

    monkeypatch.setattr(store._db, "_run_batch", counting)

    async def broken(conn):
        await conn.execute("UPDATE games SET score = 999")  # written, then undone by its savepoint
        raise RuntimeError("a bug in one write")

    calls = [store.append_move(g.id, g.version, "3h", score=10, move_count=1) for g in games]
    calls.append(store.append_move(games[0].id, games[0].version, "9h", score=5, move_count=1))  # stale
    calls.append(store.create_game("bakers", CODE, 3, None, None))  # player 3 is busy
    calls.append(store._db._write(broken))
    outcomes = await asyncio.gather(*calls, return_exceptions=True)

    assert max(batch_sizes) > 1  # the writes really shared transactions
    assert [o.moves for o in outcomes[:10]] == [("3h",)] * 10
    assert isinstance(outcomes[10], storage.VersionConflict)
    assert isinstance(outcomes[11], storage.ActiveGameExists)
    assert isinstance(outcomes[12], RuntimeError)
    for g in games:
        stored = await store.get_game(g.id)
        assert (stored.moves, stored.score, stored.version) == (("3h",), 10, 2)


async def test_a_refused_write_alone_in_its_transaction_leaves_nothing_behind(sqlite_store):
    """Alone in its transaction a write has no savepoint: its refusal rolls the transaction back."""
    store = sqlite_store
    game = await store.create_game("bakers", CODE, 1, None, None)

    async def broken(conn):
        await conn.execute("UPDATE games SET score = 999")
        raise RuntimeError("a bug in one write")

    with pytest.raises(RuntimeError):
        await store._db._write(broken)
    with pytest.raises(storage.VersionConflict):
        await store.append_move(game.id, game.version + 1, "3h", score=10, move_count=1)
    assert (await store.get_game(game.id)).score == game.score
    moved = await store.append_move(game.id, game.version, "3h", score=10, move_count=1)
    assert (moved.moves, moved.score, moved.version) == (("3h",), 10, game.version + 1)


async def test_closing_finishes_writes_already_submitted(stores):
    s = await stores.open()
    games = [await s.create_game("bakers", CODE, owner, None, None) for owner in range(5)]
    writes = [asyncio.create_task(s.append_move(g.id, g.version, "3h", score=1, move_count=1)) for g in games]
    await asyncio.sleep(0)  # submitted, not yet committed
    await s.close()
    assert all(w.done() and not w.exception() for w in writes)
    s = await stores.open()
    assert [(await s.get_game(g.id)).moves for g in games] == [("3h",)] * 5
