"""Races through the real bot and the fake Discord: lobby, same deal, private boards, throttled
standings, one result, and the awkward cases (two races, leaving, an empty lobby, a tie)."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import itertools
from pathlib import Path

import pytest

import engine
from bot.games.bakers import shipped_winnable
from tests.fakediscord import FakeDiscord
from tests.presses import presses
from tests.test_bot_discord import button, eventually, quick_5xx_retries, running

EDIT_SECONDS = 1.0


@functools.cache
def winnable() -> tuple[str, tuple[str, ...]]:
    """A shipped winnable deal and a winning line (the solver's solution)."""
    code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
    return code, solution_of(code)


@functools.cache
def solution_of(code: str) -> tuple[str, ...]:
    from engine.solver import solve

    return tuple(solve(engine.new_game(code), time_limit=20).moves)


@pytest.fixture
async def bot(fake_discord: FakeDiscord, tmp_path: Path):
    async with running(
        fake_discord, tmp_path / "race.sqlite3", race_edit_seconds=EDIT_SECONDS, race_check_seconds=0.1
    ) as b:
        yield b


def race_button(message, act: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith("q:") and c.endswith(f":{act}"))


async def open_race(fake, creator, **options):
    result = await fake.slash(creator, "race", {"game": "bakers", **options})
    assert not result.failed and not result.ephemeral, result.text()
    return result.message


async def join(fake, user, lobby):
    result = await fake.click(user, lobby, race_button(fake.message(lobby.id), "j"))
    assert result.ephemeral and "You are in" in result.text(), result.text()
    return result


async def start_now(fake, bot, creator, lobby):
    result = await fake.click(creator, lobby, race_button(fake.message(lobby.id), "s"))
    assert result.ephemeral and "started" in result.text(), result.text()
    await bot.races.idle()
    return result


async def my_board(fake, user, lobby):
    await eventually(lambda: any(c.endswith(":m") for c in fake.message(lobby.id).custom_ids()), timeout=5)
    result = await fake.click(user, lobby, race_button(fake.message(lobby.id), "m"))
    assert result.ephemeral and result.message.attachments, result.text()
    return result.message


async def race_game(bot, user):
    row = await bot.store.active_game(user.id, "bakers")
    assert row is not None and row.source == "race"
    return row


async def play_to_the_last_step(bot, user, code, solution):
    """Every winning step but the last, through the service (as presses would); returns the last."""
    steps = presses(code, list(solution))
    game = await race_game(bot, user)
    for step in steps[:-1]:
        if step.kind == "home":
            live = engine.replay(game.code, (await bot.store.get_game(game.id)).moves)
            notation = ",".join(live.home_run())
        elif step.kind == "place":
            live = engine.replay(game.code, (await bot.store.get_game(game.id)).moves)
            notation = live.double_tap_target(step.value)
        else:
            notation = step.value
        await bot.service.play(user.id, game.id, notation)
    return steps[-1]


async def press_step(fake, user, board, step):
    current = fake.message(board.id)
    action = step.value if step.kind == "place" else "h"
    return await fake.click(user, current, button(current, action))


def standings_lines(message) -> list[str]:
    return [line for line in message.text().splitlines() if "<@" in line and "—" in line and "🏁" not in line]


@pytest.mark.slow
async def test_three_players_race_one_deal_with_throttled_standings_and_one_result(fake_discord, bot):
    fake = fake_discord
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    lobby = await open_race(fake, alice, start_in=5)  # a stock deal: a race that counts
    assert "Race: Jeu du Boulanger · 4 free cells" in lobby.text() and "<t:" in lobby.text()
    race = await bot.store.get_race(race_id(lobby))
    code, solution = race.code, solution_of(race.code)
    assert code not in lobby.text() and not race.chosen  # the deal is shown only in the result
    assert "friendly" not in lobby.text()
    for user in (bob, carol):
        await join(fake, user, lobby)
    await eventually(lambda: "3 players" in fake.message(lobby.id).text())
    refused = await fake.click(bob, lobby, race_button(fake.message(lobby.id), "s"))
    assert refused.ephemeral and "Only the race's creator" in refused.text()
    await start_now(fake, bot, alice, lobby)
    games = {u.id: await race_game(bot, u) for u in (alice, bob, carol)}
    assert {g.code for g in games.values()} == {code}  # the same deal for everyone
    await eventually(lambda: "Running" in fake.message(lobby.id).text(), timeout=5)
    boards = {u.id: await my_board(fake, u, lobby) for u in (alice, bob, carol)}
    assert all(b.visible_to == uid for uid, b in boards.items())  # each board is private
    before = len(fake.message(lobby.id).edit_times)
    for _ in range(3):  # a burst of presses on Bob's and Carol's boards
        for user in (bob, carol):
            board = fake.message(boards[user.id].id)
            pressed = await fake.click(user, board, button(board, "8"))
            assert pressed.edited is not None and pressed.edited.id == board.id
    # The standings follow the play while the race runs (not only at its end).
    await eventually(lambda: len(fake.message(lobby.id).edit_times) > before, timeout=EDIT_SECONDS * 3)
    assert "Running" in fake.message(lobby.id).text()
    last = await play_to_the_last_step(bot, alice, code, solution)
    won = await press_step(fake, alice, await my_board(fake, alice, lobby), last)  # a fresh board
    assert "Won in" in won.text()
    await bot.races.idle()
    await eventually(lambda: "Finished" in fake.message(lobby.id).text(), timeout=10)
    results = [m for m in fake.messages(fake.channel) if "wins!" in m.text()]
    assert len(results) == 1
    (result,) = results
    assert f"<@{alice.id}> wins!" in result.text() and code in result.text()
    lines = standings_lines(result)
    assert f"<@{alice.id}>" in lines[0] and "won" in lines[0]
    assert {lines[1].split()[1], lines[2].split()[1]} == {f"<@{bob.id}>", f"<@{carol.id}>"}
    times = fake.message(lobby.id).edit_times[before:]
    assert len(times) >= 2  # edited as they played …
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(g >= EDIT_SECONDS * 0.9 for g in gaps), gaps  # … never more often than the throttle
    final = fake.message(lobby.id)
    assert standings_lines(final) == lines  # the last state is shown, in the result's order
    for user in (bob, carol):  # the race is over: the games still in play were ended
        assert (await bot.store.get_game(games[user.id].id)).status == "resigned"
    stats = await fake.slash(alice, "stats", {"game": "bakers"})
    assert "Races: 1 played, 1 won" in stats.text()
    board = await fake.slash(bob, "leaderboard", {"game": "bakers", "period": "races"})
    text = board.text()
    assert text.index(f"<@{alice.id}>") < text.index(f"<@{bob.id}>") and "1 won of 1" in text
    await asyncio.sleep(EDIT_SECONDS * 1.5)
    assert len([m for m in fake.messages(fake.channel) if "wins!" in m.text()]) == 1
    fake.assert_no_violations()


async def test_two_races_in_a_channel_beside_a_normal_game(fake_discord, bot):
    fake = fake_discord
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    normal = await fake.slash(dave, "calculation", {})  # Dave plays his own game meanwhile
    assert not normal.ephemeral
    first = await open_race(fake, alice, code="BK1-C4-AAAAA24")
    second = await open_race(fake, carol, game="calculation", code="CA1-AAAAA24")
    await join(fake, bob, first)
    await join(fake, bob, second)  # another kind: allowed
    await join(fake, dave, first)
    await start_now(fake, bot, alice, first)
    await start_now(fake, bot, carol, second)
    bakers = {u.id: (await bot.store.active_game(u.id, "bakers")) for u in (alice, bob, dave)}
    assert {g.code for g in bakers.values()} == {"BK1-C4-AAAAA24"}
    calculation = await bot.store.active_game(bob.id, "calculation")
    assert calculation.code == "CA1-AAAAA24" and calculation.source == "race"
    dave_calc = await bot.store.active_game(dave.id, "calculation")
    assert dave_calc.source == "stock"  # his normal game goes on
    board = await my_board(fake, bob, second)
    assert "Calculation" in board.text()
    await eventually(lambda: "Running" in fake.message(first.id).text(), timeout=5)
    await eventually(lambda: "Running" in fake.message(second.id).text(), timeout=5)
    assert f"<@{dave.id}>" in fake.message(first.id).text()
    assert f"<@{dave.id}>" not in fake.message(second.id).text()
    fake.assert_no_violations()


async def test_a_player_is_in_one_open_race_of_a_kind(fake_discord, bot):
    fake = fake_discord
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    first = await open_race(fake, alice, code="BK1-C4-AAAAA24")
    second = await open_race(fake, carol, code="BK1-C4-AAAAA25")
    await join(fake, bob, first)
    refused = await fake.click(bob, second, race_button(fake.message(second.id), "j"))
    assert refused.ephemeral and "already in another race of this game" in refused.text()
    again = await fake.click(bob, first, race_button(fake.message(first.id), "j"))
    assert again.ephemeral and "already in this race" in again.text()
    await start_now(fake, bot, alice, first)
    still = await fake.click(bob, second, race_button(fake.message(second.id), "j"))
    assert "already in another race" in still.text()  # his race game is in play
    hint = await fake.slash(bob, "hint", {"game": "bakers"})
    assert hint.ephemeral and "Hints are off in a race" in hint.text()  # the solver would race for him
    resigned = await fake.slash(bob, "resign", {"game": "bakers"})
    assert resigned.ephemeral  # a race board is private: so is what /resign shows
    await join(fake, bob, second)  # out of the first race: free to join another
    fake.assert_no_violations()


async def test_joining_with_a_game_in_progress_asks_first(fake_discord, bot):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    board = (await fake.slash(bob, "boulanger", {"code": "BK1-C4-AAAAA24"})).message
    await fake.click(bob, board, button(board, "6"))  # a move: the game has something at stake
    lobby = await open_race(fake, alice, code="BK1-C4-AAAAA25")
    asked = await fake.click(bob, lobby, race_button(fake.message(lobby.id), "j"))
    assert asked.ephemeral and "ends that game when it starts" in asked.text()
    assert len(await bot.store.race_players((await bot.store.unsettled_races())[0].id)) == 1
    yes = next(c for c in asked.message.custom_ids() if c.startswith("qy:j:"))
    joined = await fake.click(bob, asked.message, yes)
    assert "You are in" in joined.text()
    old = await bot.store.active_game(bob.id, "bakers")
    assert old.source == "practice" and old.is_active  # not ended before the start …
    await start_now(fake, bot, alice, lobby)
    assert (await bot.store.get_game(old.id)).status == "resigned"  # … but at it
    assert (await race_game(bot, bob)).code == "BK1-C4-AAAAA25"


async def test_the_creator_leaving_and_an_empty_lobby(fake_discord, bot):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await open_race(fake, alice, code="BK1-C4-AAAAA24")
    await join(fake, bob, lobby)
    left = await fake.click(alice, lobby, race_button(fake.message(lobby.id), "l"))
    assert left.ephemeral and "You left" in left.text()
    await eventually(lambda: f"Created by <@{bob.id}>" in fake.message(lobby.id).text(), timeout=5)
    few = await fake.click(bob, lobby, race_button(fake.message(lobby.id), "s"))
    assert "at least 2 players" in few.text()
    await fake.click(bob, lobby, race_button(fake.message(lobby.id), "l"))
    await eventually(lambda: "everyone left" in fake.message(lobby.id).text(), timeout=5)
    assert not fake.message(lobby.id).custom_ids()  # no buttons on a cancelled race
    await eventually(_settled(bot), timeout=5)


def _settled(bot):
    async def check() -> bool:
        return not await bot.store.unsettled_races()

    return check


async def test_a_lobby_of_one_at_its_start_time_is_cancelled_and_says_so(fake_discord, bot):
    fake = fake_discord
    alice = fake.add_user("alice")
    lobby = await open_race(fake, alice, code="BK1-C4-AAAAA24", start_in=1)
    real = bot.service.clock
    bot.service.clock = lambda: real() + dt.timedelta(minutes=2)  # the start time has come
    await eventually(lambda: "Cancelled: only 1 player" in fake.message(lobby.id).text(), timeout=5)
    assert await bot.store.active_game(alice.id, "bakers") is None  # nobody was dealt a game


async def test_the_time_limit_ends_the_race_and_ranks_by_cards_home(fake_discord, bot):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await open_race(fake, alice, code="BK1-C4-AAAAA24", time_limit=5)
    rid = race_id(lobby)
    await join(fake, bob, lobby)
    await start_now(fake, bot, alice, lobby)
    board = await my_board(fake, bob, lobby)
    await fake.click(bob, board, button(board, "6"))  # A♦ home: one card ahead
    real = bot.service.clock
    bot.service.clock = lambda: real() + dt.timedelta(minutes=6)
    await eventually(lambda: any("over" in m.text() for m in fake.messages(fake.channel)), timeout=5)
    (result,) = [m for m in fake.messages(fake.channel) if "nobody won" in m.text()]
    lines = standings_lines(result)
    assert f"<@{bob.id}>" in lines[0] and "1 card home" in lines[0]
    assert f"<@{alice.id}>" in lines[1] and "0 cards home" in lines[1]
    assert (await bot.store.get_race(rid)).status == "finished"


def race_id(lobby) -> int:
    return int(next(c for c in lobby.custom_ids() if c.startswith("q:")).split(":")[1])


async def test_the_result_offers_its_deal_to_anyone_and_a_running_race_keeps_it_secret(fake_discord, bot):
    from tests.test_bot_guards import post_buttons

    fake = fake_discord
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    lobby = await open_race(fake, alice, code="BK1-C4-AAAAA24", time_limit=5)
    rid = race_id(lobby)
    await join(fake, bob, lobby)
    await start_now(fake, bot, alice, lobby)
    forged = await post_buttons(fake, [f"qp:{rid}"])  # the result's button, before the result
    early = await fake.click(carol, forged, f"qp:{rid}")
    assert early.ephemeral and "not over yet" in early.text() and "AAAAA24" not in early.text()
    assert await bot.store.active_game(carol.id, "bakers") is None
    real = bot.service.clock
    bot.service.clock = lambda: real() + dt.timedelta(minutes=6)  # the time limit: nobody won
    await eventually(lambda: any("nobody won" in m.text() for m in fake.messages(fake.channel)), timeout=5)
    (result,) = [m for m in fake.messages(fake.channel) if "nobody won" in m.text()]
    assert result.custom_ids() == [f"qp:{rid}"]
    played = await fake.click(carol, result, f"qp:{rid}")  # not a racer: anyone may try it
    assert not played.failed and played.message.attachments, played.text()
    game = await bot.store.active_game(carol.id, "bakers")
    assert game.code == "BK1-C4-AAAAA24" and game.source == "practice"  # off the main boards
    again = await fake.click(bob, result, f"qp:{rid}")  # a racer too, once the race is over
    assert not again.failed and (await bot.store.active_game(bob.id, "bakers")).source == "practice"
    gone = await post_buttons(fake, [f"qp:{rid + 1000}"])
    missing = await fake.click(carol, gone, f"qp:{rid + 1000}")
    assert missing.ephemeral and "no longer exists" in missing.text()
    fake.assert_no_violations()


async def test_lobbies_are_public_posts_so_creating_them_has_a_quota(fake_discord, bot):
    fake = fake_discord
    alice = fake.add_user("alice")
    for _ in range(4):  # create and cancel, again and again: each lobby is a channel post
        lobby = await open_race(fake, alice)
        cancelled = await fake.click(alice, lobby, race_button(fake.message(lobby.id), "x"))
        assert cancelled.ephemeral and not cancelled.failed
    refused = await fake.slash(alice, "race", {"game": "bakers"})
    assert refused.ephemeral and "try again <t:" in refused.text()
    assert len([m for m in fake.messages(fake.channel) if "Race:" in m.text()]) == 4


async def test_a_race_code_must_be_of_the_game_raced_and_not_todays_daily(fake_discord, bot):
    from bot.play import dailycodes

    fake = fake_discord
    alice = fake.add_user("alice")
    other = await fake.slash(alice, "race", {"game": "bakers", "code": "CA1-AAAAA24"})
    assert other.ephemeral and "/race game:Calculation code:CA1-AAAAA24" in other.text()
    daily = await bot.service.daily_code("bakers", dailycodes.utc_today(bot.service.clock()))
    refused = await fake.slash(alice, "race", {"game": "bakers", "code": daily})
    assert refused.ephemeral and "today's daily deal" in refused.text()
    assert await bot.store.unsettled_races() == []  # neither created a race
    allowed = await fake.slash(alice, "race", {"game": "calculation", "code": "CA1-AAAAA24"})
    assert not allowed.failed and not allowed.ephemeral  # the right game: a lobby


async def test_two_wins_at_once_rank_by_the_stored_moment_and_post_one_result(fake_discord, bot):
    fake = fake_discord
    alice, bob, lobby = await a_started_duel(fake, bot)
    rid = race_id(lobby)
    code, solution = winnable()
    lasts = [await play_to_the_last_step(bot, u, code, solution) for u in (alice, bob)]
    boards = [await my_board(fake, u, lobby) for u in (alice, bob)]
    wins = await asyncio.gather(
        *(press_step(fake, u, b, s) for u, b, s in zip((alice, bob), boards, lasts, strict=True))
    )
    assert all("Won in" in w.text() for w in wins)  # both in the same second
    await bot.races.idle()
    await eventually(lambda: any("wins!" in m.text() for m in fake.messages(fake.channel)), timeout=10)
    games = await bot.store.race_games(rid)
    first, second = sorted(games, key=lambda g: (g.finished_at, g.id))
    (result,) = [m for m in fake.messages(fake.channel) if "wins!" in m.text()]
    lines = standings_lines(result)
    assert f"<@{first.owner_id}>" in lines[0] and f"<@{second.owner_id}>" in lines[1]
    assert all("won" in line for line in lines)
    assert f"<@{first.owner_id}> wins!" in result.text()
    # A deal its creator typed: a friendly race, said in the lobby and the result, counted for no one
    assert "A friendly race" in lobby.text() and "A friendly race" in result.text()
    for user in (alice, bob):
        stats = await fake.slash(user, "stats", {"game": "bakers"})
        assert "Races:" not in stats.text()


async def test_creating_a_race_with_a_game_in_progress_asks_first(fake_discord, bot):
    fake = fake_discord
    alice = fake.add_user("alice")
    board = (await fake.slash(alice, "boulanger", {"code": "BK1-C4-AAAAA24"})).message
    await fake.click(alice, board, button(board, "6"))
    asked = await fake.slash(alice, "race", {"game": "bakers", "code": "BK1-C4-AAAAA25"})
    assert asked.ephemeral and "ends that game when it starts" in asked.text()
    assert await bot.store.unsettled_races() == []  # nothing created before the answer
    (create,) = [c for c in asked.message.custom_ids() if c.startswith("qc:")]
    confirmed = await fake.click(alice, asked.message, create)
    assert not confirmed.failed
    await eventually(lambda: any("Race: Jeu du Boulanger" in m.text() for m in fake.messages(fake.channel)))
    (lobby,) = [m for m in fake.messages(fake.channel) if "Race: Jeu du Boulanger" in m.text()]
    assert not lobby.ephemeral and f"<@{alice.id}>" in lobby.text()
    await eventually(_lobby_stored(bot, lobby.id))  # the id is saved just after the post


def _lobby_stored(bot, message_id: int):
    async def check() -> bool:
        (race,) = await bot.store.unsettled_races()
        return race.message_id == message_id and race.code == "BK1-C4-AAAAA25"

    return check


async def test_a_result_created_but_answered_500_to_every_retry_is_posted_once(
    fake_discord, tmp_path, monkeypatch
):
    """Discord made the result message, then answered 500 to discord.py's every retry: the
    next attempt (once the claim is stale) carries the same enforced nonce and gets it back."""
    quick_5xx_retries(monkeypatch)
    fake = fake_discord
    async with running(
        fake, tmp_path / "r.sqlite3", race_edit_seconds=EDIT_SECONDS, race_check_seconds=0.1
    ) as b:
        b.get_cog("Race").result_stale = dt.timedelta(seconds=0.2)  # a lost claim is retaken soon
        race = await win_with_a_troubled_result(
            fake,
            b,
            before_the_win=lambda: fake.fail_after_applying(
                rf"^/channels/{fake.channel.id}/messages$", method="POST", times=8
            ),
        )
    results = [m for m in fake.messages(fake.channel) if "wins!" in m.text()]
    assert len(results) == 1 and results[0].id == race.result_message_id


async def test_a_result_sent_but_not_recorded_is_found_once_discord_forgot_its_nonce(fake_discord, tmp_path):
    """The process died between the send and the write, and the retry comes after Discord's
    nonce window: the result is found among the channel's messages, not posted again."""
    fake = fake_discord
    fake.NONCE_WINDOW = 0.0  # Discord no longer de-duplicates the nonce
    async with running(
        fake, tmp_path / "r.sqlite3", race_edit_seconds=EDIT_SECONDS, race_check_seconds=0.1
    ) as b:
        b.get_cog("Race").result_stale = dt.timedelta(seconds=0.2)
        real_record = b.store.record_race_result
        lost = []

        async def crash_once(race_id: int, message_id: int):
            if not lost:
                lost.append(message_id)
                raise RuntimeError("the process died here")  # as a kill -9 after the send
            return await real_record(race_id, message_id)

        b.store.record_race_result = crash_once
        race = await win_with_a_troubled_result(fake, b)
    results = [m for m in fake.messages(fake.channel) if "wins!" in m.text()]
    assert len(lost) == 1 and len(results) == 1
    assert results[0].id == race.result_message_id == lost[0]


async def a_started_duel(fake, bot):
    """Alice and Bob racing on the winnable deal (``winnable()``), just started."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await open_race(fake, alice, code=winnable()[0])
    await join(fake, bob, lobby)
    await start_now(fake, bot, alice, lobby)
    return alice, bob, lobby


async def win_with_a_troubled_result(fake, bot, before_the_win=lambda: None):
    """Alice beats Bob with the winning line; the race as stored once its result is recorded
    and the keeper has had a few more rounds (to post it again, if it would)."""
    alice, _, lobby = await a_started_duel(fake, bot)
    rid = race_id(lobby)
    code, solution = winnable()
    last = await play_to_the_last_step(bot, alice, code, solution)
    board = await my_board(fake, alice, lobby)
    before_the_win()
    await press_step(fake, alice, board, last)
    await eventually(_recorded(bot, rid), timeout=15)
    await asyncio.sleep(0.5)  # the keeper's later rounds
    return await bot.store.get_race(rid)


def _recorded(bot, rid: int):
    async def check() -> bool:
        return (await bot.store.get_race(rid)).result_message_id is not None

    return check


def board_acts(message) -> list[str]:
    return [c.split(":")[-1] for c in message.custom_ids() if c.startswith("g:")]


async def test_a_race_board_has_no_hint_button_and_never_shows_the_deal(fake_discord, bot):
    import io

    from PIL import Image

    import renderer
    from bot.games.base import HINT
    from bot.play.feedback import UserFeedback

    fake = fake_discord
    code = "BK1-C4-AAAAA24"
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = await open_race(fake, alice, code=code)
    await join(fake, bob, lobby)
    await start_now(fake, bot, alice, lobby)
    board = await my_board(fake, alice, lobby)
    acts = board_acts(board)
    assert "8" in acts and "u" in acts and HINT not in acts  # the board's buttons, but no Hint
    assert code not in board.text() and "Jeu du Boulanger" in board.text()
    picture = fake.attachment_bytes(board)
    shown = Image.open(io.BytesIO(picture))
    assert shown.format == "PNG"
    assert picture == renderer.render_png(engine.new_game(code), tag="race", hide_code=True)
    pressed = await fake.click(alice, board, button(board, "8"))  # a selection redraws the board
    edited = fake.message(pressed.edited.id)
    assert HINT not in board_acts(edited) and code not in edited.text()
    game = await race_game(bot, alice)
    with pytest.raises(UserFeedback) as refused:  # a stale Hint button is still refused
        await bot.service.press(alice.id, game.id, game.version, "", HINT)
    assert refused.value.key == "race.error.no_hints"
    asked = await fake.slash(alice, "code", {})  # nor does /code tell it
    assert asked.ephemeral and code not in asked.text() and "secret until the result" in asked.text()
    assert game.moves  # the press on 8 played a move
    busy = await fake.slash(alice, "boulanger", {})  # nor the "end your game?" question
    assert "in progress" in busy.text() and code not in busy.text(), busy.text()
    practice = (await fake.slash(carol := fake.add_user("carol"), "boulanger", {"code": code})).message
    assert HINT in board_acts(practice) and f"`{code}`" in practice.text()  # other games keep both
    assert (await bot.store.active_game(carol.id, "bakers")).source == "practice"
    fake.assert_no_violations()
