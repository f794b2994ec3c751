"""Races in storage, on SQLite and PostgreSQL: lobby, joins, start, places, the result claim, records."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

import storage
from storage import InvalidValue

CODE = "BK1-C4-AAAAA24"
CHANNEL, GUILD = 500, 50


async def new_race(
    store, clock, creator: int = 1, *, channel: int = CHANNEL, kind: str = "bakers", chosen: bool = False
):
    code = CODE if kind == "bakers" else "CA1-AAAAA24"
    return await store.create_race(
        kind,
        code,
        creator,
        GUILD,
        channel,
        variant="4" if kind == "bakers" else "",
        starts_at=clock.now + dt.timedelta(minutes=2),
        time_limit=1800,
        language="nl",
        chosen=chosen,
    )


async def test_a_new_race_is_a_lobby_with_its_creator_in_it(store, clock):
    race = await new_race(store, clock)
    assert race.status == "lobby" and race.open and not race.settled
    assert (race.kind, race.code, race.variant, race.creator_id, race.time_limit) == (
        "bakers",
        CODE,
        "4",
        1,
        1800,
    )
    assert race.starts_at == clock.now + dt.timedelta(minutes=2) and race.language == "nl"
    assert [p.user_id for p in await store.race_players(race.id)] == [1]
    assert (await store.set_race_message(race.id, 900)).message_id == 900
    assert await store.get_race(race.id) == storage.RaceRow(**{**_fields(race), "message_id": 900})
    with pytest.raises(storage.RaceNotFound):
        await store.get_race(race.id + 100)


def _fields(race):
    return {f: getattr(race, f) for f in race.__dataclass_fields__}


async def test_joining_is_once_per_player_up_to_the_limit_and_only_in_a_lobby(store, clock):
    race = await new_race(store, clock)
    clock.advance(seconds=1)
    assert await store.join_race(race.id, 2, limit=3) == "joined"
    assert await store.join_race(race.id, 2, limit=3) == "already"
    assert await store.join_race(race.id, 3, limit=3) == "joined"
    assert await store.join_race(race.id, 4, limit=3) == "full"
    assert [p.user_id for p in await store.race_players(race.id)] == [1, 2, 3]
    await store.start_race(race.id)
    assert await store.join_race(race.id, 5) == "closed"
    assert await store.join_race(race.id + 99, 5) == "closed"


async def test_concurrent_joins_never_exceed_the_limit(store, clock):
    race = await new_race(store, clock)
    outcomes = await asyncio.gather(*(store.join_race(race.id, 10 + n, limit=5) for n in range(12)))
    assert outcomes.count("joined") == 4 and outcomes.count("full") == 8
    assert len(await store.race_players(race.id)) == 5


async def test_the_creator_leaving_passes_the_lobby_on_and_an_empty_lobby_is_cancelled(store, clock):
    race = await new_race(store, clock)
    clock.advance(seconds=1)
    await store.join_race(race.id, 2)
    clock.advance(seconds=1)
    await store.join_race(race.id, 3)
    left = await store.leave_race(race.id, 1)
    assert left is not None and left.creator_id == 2 and left.status == "lobby"
    assert await store.leave_race(race.id, 1) is None  # not in it any more
    assert (await store.leave_race(race.id, 3)).creator_id == 2
    emptied = await store.leave_race(race.id, 2)
    assert emptied.status == "cancelled" and not emptied.open


async def test_start_runs_with_enough_players_else_cancels_and_happens_once(store, clock):
    alone = await new_race(store, clock)
    cancelled = await store.start_race(alone.id)
    assert cancelled.status == "cancelled"
    assert await store.start_race(alone.id) is None and await store.cancel_race(alone.id) is None
    race = await new_race(store, clock)
    await store.join_race(race.id, 2)
    clock.advance(minutes=2)
    started = await asyncio.gather(store.start_race(race.id), store.start_race(race.id))
    running = [r for r in started if r is not None]
    assert len(running) == 1 and running[0].status == "running"
    assert running[0].started_at == clock.now and running[0].ends_at == clock.now + dt.timedelta(minutes=30)
    assert await store.cancel_race(race.id) is None  # a running race cannot be cancelled


async def test_games_places_and_the_result_claim(store, clock):
    race = await new_race(store, clock)
    await store.join_race(race.id, 2)
    await store.start_race(race.id)
    games = {}
    for user in (1, 2):
        game = await store.create_game("bakers", CODE, user, GUILD, CHANNEL, variant="4")
        await store.set_race_game(race.id, user, game.id)
        games[user] = game
    assert {g.id for g in await store.race_games(race.id)} == {g.id for g in games.values()}
    assert (await store.race_of_game(games[2].id)).id == race.id
    assert await store.race_of_game(games[2].id + 100) is None
    assert await store.claim_race_result(race.id) is False  # not finished yet
    with pytest.raises(InvalidValue):
        await store.finish_race(race.id, [(1, 1), (2, 1)])
    done = await store.finish_race(race.id, [(2, 1), (1, 2)])
    assert done.status == "finished" and done.finished_at == clock.now
    assert await store.finish_race(race.id, [(2, 1), (1, 2)]) is None  # once
    assert {p.user_id: p.place for p in await store.race_players(race.id)} == {1: 2, 2: 1}
    assert done.result_claimed_at is None
    claims = await asyncio.gather(store.claim_race_result(race.id), store.claim_race_result(race.id))
    assert sorted(claims) == [False, True]
    claimed = clock.now
    assert (await store.get_race(race.id)).result_claimed_at == claimed  # a retake knows of it
    clock.advance(minutes=11)  # a claim never followed by a post (a crash) may be taken again
    assert await store.claim_race_result(race.id) is True
    assert (await store.get_race(race.id)).result_claimed_at == clock.now != claimed
    assert (await store.record_race_result(race.id, 777)).result_message_id == 777
    assert await store.claim_race_result(race.id) is False
    assert [r.id for r in await store.unsettled_races()] == [race.id]
    await store.settle_race(race.id)
    assert await store.unsettled_races() == []


async def test_a_player_is_in_one_open_race_of_a_kind_until_their_game_ends(store, clock):
    race = await new_race(store, clock)
    await store.join_race(race.id, 2)
    assert (await store.open_race_of(2, "bakers")).id == race.id
    assert await store.open_race_of(2, "calculation") is None
    assert await store.open_race_of(3, "bakers") is None
    await store.start_race(race.id)
    assert (await store.open_race_of(2, "bakers")).id == race.id  # no game given yet
    game = await store.create_game("bakers", CODE, 2, GUILD, CHANNEL, variant="4")
    await store.set_race_game(race.id, 2, game.id)
    assert (await store.open_race_of(2, "bakers")).id == race.id
    await store.finish_game(game.id, game.version, "resigned", score=0, move_count=0)
    assert await store.open_race_of(2, "bakers") is None  # resigned: free to join another race


async def test_records_and_the_race_board_count_finished_races_with_a_game(store, clock):
    # (first place, whether they won the deal, channel); a first place nobody won is no win
    # and a friendly race (on a deal its creator chose), which counts for no one
    races = ((1, True, CHANNEL, False), (2, True, CHANNEL, False), (1, True, CHANNEL, False))
    more = ((1, True, CHANNEL + 1, False), (2, False, CHANNEL, False), (2, True, CHANNEL, True))
    for first, won, channel, chosen in (*races, *more):
        race = await new_race(store, clock, channel=channel, chosen=chosen)
        assert race.chosen is chosen
        await store.join_race(race.id, 2)
        await store.join_race(race.id, 3)  # never given a game (it ended before): not counted
        await store.start_race(race.id)
        for user in (1, 2):
            game = await store.create_game("bakers", CODE, user, GUILD, channel, variant="4")
            await store.set_race_game(race.id, user, game.id)
            status = "won" if won and user == first else "resigned"
            await store.finish_game(game.id, game.version, status, score=0, move_count=0)
        other = 2 if first == 1 else 1
        await store.finish_race(race.id, [(first, 1), (other, 2), (3, 3)])
    cancelled = await new_race(store, clock)
    await store.cancel_race(cancelled.id)
    assert await store.race_record(1, "bakers") == storage.RaceRecord(1, 5, 3)
    assert await store.race_record(2, "bakers", guild_id=GUILD) == storage.RaceRecord(2, 5, 1)
    assert await store.race_record(2, "bakers", guild_id=GUILD + 1) == storage.RaceRecord(2, 0, 0)
    assert await store.race_record(3, "bakers") == storage.RaceRecord(3, 0, 0)
    assert await store.race_record(1, "calculation") == storage.RaceRecord(1, 0, 0)
    board = await store.race_leaderboard("bakers", channel_id=CHANNEL)
    assert board == [storage.RaceRecord(1, 4, 2), storage.RaceRecord(2, 4, 1)]
    assert await store.race_leaderboard("bakers", guild_id=GUILD, limit=1, offset=1) == [
        storage.RaceRecord(2, 5, 1)
    ]
    with pytest.raises(InvalidValue):
        await store.race_leaderboard("bakers")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("time_limit", 0, "time_limit must be 1 to"),
        ("kind", "chess", "kind must be one of"),
        ("code", "", "code"),
        ("channel_id", -1, "channel_id must be"),
        ("chosen", 1, "chosen must be True or False"),
    ],
)
async def test_bad_races_are_refused_before_the_database(store, clock, field, value, message):
    args = {
        "kind": "bakers",
        "code": CODE,
        "creator_id": 1,
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "variant": "4",
        "starts_at": clock.now,
        "time_limit": 60,
    }
    args[field] = value
    with pytest.raises(InvalidValue, match=message):
        await store.create_race(
            args.pop("kind"),
            args.pop("code"),
            args.pop("creator_id"),
            args.pop("guild_id"),
            args.pop("channel_id"),
            **args,
        )


async def test_a_cancelled_race_says_why(store, clock):
    by_creator, alone, emptied = [await new_race(store, clock) for _ in range(3)]
    assert (await store.cancel_race(by_creator.id)).cancelled_by == "creator"
    assert (await store.start_race(alone.id)).cancelled_by == "too_few"
    assert (await store.leave_race(emptied.id, 1)).cancelled_by == "empty"
    assert (await store.get_race(alone.id)).cancelled_by == "too_few"
