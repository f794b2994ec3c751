"""The race keeper without Discord, on both backends: ranking, dealing after a crash, the end."""

from __future__ import annotations

import datetime as dt

import engine
import storage
from bot.games.bakers import shipped_winnable
from bot.play.races import RaceKeeper, Standing, rank
from bot.play.service import GameService
from bot.play.starting import StartRequest

CODE = "BK1-C4-AAAAA24"


def s(user: int, status: str, home: int = 0, moves: int = 0, seconds: int = 0, ms: int = 0) -> Standing:
    return Standing(user, status, home, moves, seconds, ms, user)


def test_wins_rank_by_the_stored_moment_then_cards_home_moves_and_time():
    standings = [
        s(1, "active", home=10, moves=50, seconds=100),
        s(2, "won", home=52, moves=120, ms=90_001),
        s(3, "resigned", home=10, moves=40, seconds=200),
        s(4, "won", home=52, moves=90, ms=90_002),  # fewer moves, but a millisecond later
        s(5, "active", home=10, moves=40, seconds=150),
        s(6, "waiting"),
        s(7, "lost", home=20, moves=70, seconds=300),
        s(8, "active", home=0, moves=0, seconds=400),  # dealt, never moved
        s(9, "active", home=0, moves=12, seconds=350),  # moved, nothing home yet
    ]
    assert [x.user_id for x in rank(standings)] == [2, 4, 7, 5, 3, 1, 9, 6, 8]


async def keeper_with_race(store, clock, players=(1, 2, 3)):
    service = GameService(store, clock=clock)
    keeper = RaceKeeper(service)
    race = await keeper.create(
        players[0], "bakers", guild_id=50, channel_id=500, code=engine.parse_code(CODE)
    )
    for user in players[1:]:
        await keeper.join(user, race.id)
    return service, keeper, race


async def test_a_game_made_just_before_a_crash_is_linked_not_dealt_twice(store, clock):
    service, _keeper, race = await keeper_with_race(store, clock)
    assert (await store.start_race(race.id)).status == "running"  # started, then "the crash":
    made = await service.start(
        StartRequest(2, "bakers", code=engine.parse_code(CODE), race=True)
    )  # never linked
    restarted = RaceKeeper(service)  # a new process
    await restarted.due(lambda r: True)
    players = {p.user_id: p.game_id for p in await store.race_players(race.id)}
    assert players[2] == made.board.row.id and None not in players.values()
    assert len({g.id for g in await store.race_games(race.id)}) == 3


async def test_a_player_whose_game_could_not_be_dealt_is_dealt_at_the_next_round(store, clock, monkeypatch):
    service, keeper, race = await keeper_with_race(store, clock)
    real = service.start
    calls = {"n": 0}

    async def flaky(request):
        calls["n"] += 1
        if request.user_id == 3 and calls["n"] <= 3:
            raise storage.DatabaseBusy("locked for a moment")
        return await real(request)

    monkeypatch.setattr(service, "start", flaky)
    await keeper.start(race.id)
    assert {p.user_id for p in await store.race_players(race.id) if p.game_id is None} == {3}
    await keeper.due(lambda r: True)
    assert all(p.game_id is not None for p in await store.race_players(race.id))


async def test_the_first_win_ends_the_race_and_the_games_still_in_play(store, clock):
    service, keeper, race = await keeper_with_race(store, clock, players=(1, 2))
    await keeper.start(race.id)
    games = {p.user_id: p.game_id for p in await store.race_players(race.id)}
    await service.play(2, games[2], "6h")  # Bob: a card home
    row = await store.get_game(games[1])
    won = await store.append_move(row.id, row.version, "6h", score=10, move_count=1, finish="won", home=52)
    await keeper._game_changed(won)  # as the service tells it after a winning move
    await keeper.idle()
    done = await store.get_race(race.id)
    assert done.status == "finished"
    places = {p.user_id: p.place for p in await store.race_players(race.id)}
    assert places == {1: 1, 2: 2}
    assert (await store.get_game(games[2])).status == "resigned"
    assert done.chosen  # on a typed code: a friendly race, in no one's record
    assert await store.race_record(1, "bakers") == storage.RaceRecord(1, 0, 0)


async def test_a_race_on_a_typed_code_is_friendly_and_one_on_a_stock_deal_counts(store, clock):
    keeper = RaceKeeper(GameService(store, clock=clock))
    typed = await keeper.create(1, "bakers", guild_id=50, channel_id=500, code=engine.parse_code(CODE))
    stock = await keeper.create(2, "bakers", guild_id=50, channel_id=500)
    assert typed.chosen and not stock.chosen
    assert engine.parse_code(stock.code).deal in shipped_winnable(4)  # the stock (here: shipped)


async def test_the_time_limit_is_the_race_rows_and_ends_it_when_due(store, clock):
    _service, keeper, race = await keeper_with_race(store, clock, players=(1, 2))
    started = await keeper.start(race.id)
    assert started.ends_at == started.started_at + dt.timedelta(minutes=30)
    await keeper.due(lambda r: True)
    assert (await store.get_race(race.id)).status == "running"
    clock.advance(minutes=31)
    await keeper.due(lambda r: True)
    assert (await store.get_race(race.id)).status == "finished"


def test_25_players_standings_and_result_fit_one_card_in_every_language():
    from bot.adapter.layouts import MAX_TEXT
    from bot.languages.i18n import Translator
    from bot.play.race_texts import MESSAGE_LIMIT, fit, message_blocks, result_blocks
    from bot.play.races import RaceView

    started = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    race = storage.RaceRow(
        1, 50, 500, 900, "bakers", "4", CODE, 10**18, "ru", "finished", started, started, 1800,
        started, started + dt.timedelta(minutes=30), started, 901, False,
    )  # fmt: skip
    players = [storage.RacePlayer(1, 10**18 + n, started, n + 1, n + 1) for n in range(25)]
    standings = [s(10**18 + n, "resigned", home=51, moves=1234, seconds=1799) for n in range(25)]
    view = RaceView(race, players, standings)
    for lang in ("en", "bg", "ca", "id", "nl", "ru"):
        for title, text in (message_blocks(Translator(lang), view), result_blocks(Translator(lang), view)):
            # the card's text, under its title, leaves room in Discord's 4000 for the buttons
            assert len(text) <= MESSAGE_LIMIT and len(title) + len(text) <= MAX_TEXT - 200
            assert CODE not in title
    assert fit(["head"], ["a" * 30] * 3, ["tail"], limit=50) == "head\n" + "a" * 30 + "\n… (+2)\ntail"
