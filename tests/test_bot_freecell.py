"""FreeCell through the real bot and the fake Discord: started by number and at random, played by
presses and typed moves, won, ranked on its board, raced; its help, rules and daily; its
picture decoded."""

from __future__ import annotations

import functools
import io

import pytest
from PIL import Image

import engine
import renderer
from bot.games import front_for
from bot.games.freecell import FreeCellFront, find_winnable, shipped
from bot.languages.i18n import Translator
from bot.languages.language import LANGUAGES, picture_labels
from engine.solver import Hint, hint_code, solve
from tests.presses import one_press, presses
from tests.test_bot_discord import board_game_id, button, eventually, menu_id, running
from tests.test_bot_races import join, my_board, race_id, start_now

EN = Translator("en")


@functools.cache
def solution_of(code: str) -> tuple[str, ...]:
    return tuple(solve(engine.new_game(code), time_limit=20).moves)


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


async def play_steps(fake, user, board, steps):
    """Each step as a player presses it: a place's one press, Home, or a menu choice."""
    for step in steps:
        current = fake.message(board.id)
        if step.kind == "menu":
            result = await fake.select(user, current, menu_id(current), [step.value])
        else:
            result = await fake.click(user, current, button(current, step.value or "h"))
        assert not result.ephemeral, result.text()
    return fake.message(board.id)


@pytest.fixture
async def bot(fake_discord, tmp_path):
    async with running(fake_discord, tmp_path / "freecell.sqlite3", race_check_seconds=0.1) as b:
        yield b


async def test_a_numbered_deal_by_deal_or_hash_anywhere_a_code_is(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    started = await fake_discord.slash(alice, "freecell", {"deal": 11982})
    assert not started.failed and "FC1-C4-MS11982" in started.text(), started.text()
    image = decode(fake_discord.attachment_bytes(started.message))
    assert image.size == (
        renderer.WIDTH,
        renderer.boards.board_for(engine.new_game("FC1-C4-MS11982")).height(
            engine.new_game("FC1-C4-MS11982")
        ),
    )
    row = await bot.store.active_game(alice.id, "freecell")
    assert row.code == "FC1-C4-MS11982" and row.variant == "4" and row.source == "practice"
    bob = fake_discord.add_user("bob")
    by_hash = await fake_discord.slash(bob, "freecell", {"code": "#617", "cells": 3})
    assert "FC1-C3-MS617" in by_hash.text(), by_hash.text()
    assert (await bot.store.active_game(bob.id, "freecell")).code == "FC1-C3-MS617"
    bad = await fake_discord.slash(alice, "freecell", {"code": "#0"})
    assert bad.ephemeral and "MS1 to MS1000000" in bad.text()
    assert (await bot.store.active_game(alice.id, "freecell")).code == "FC1-C4-MS11982"  # unchanged
    other = await fake_discord.slash(alice, "boulanger", {"code": "FC1-C4-MS5"})
    assert other.ephemeral and "/freecell code:FC1-C4-MS5" in other.text()
    board = await fake_discord.slash(alice, "leaderboard", {"game": "freecell", "code": "#11982"})
    assert not board.failed and "11982" in board.text(), board.text()
    assert fake_discord.take_violations() == []


@pytest.mark.slow
async def test_a_random_winnable_deal_played_by_presses_and_typed_moves_won_and_ranked(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    started = await fake_discord.slash(alice, "freecell", {"cells": 2})
    assert not started.failed and not started.ephemeral, started.text()
    row = await bot.store.active_game(alice.id, "freecell")
    code = row.code
    assert code.startswith("FC1-C2-MS") and row.source == "stock" and row.variant == "2"
    assert EN("start.unverified") not in started.text()  # a deal the solver won with 2 cells
    assert solve(engine.new_game(code), time_limit=20).verdict == "winnable"
    steps = presses(code, list(solution_of(code)))
    board = started.message
    # The first three steps typed, the rest pressed.
    mirror = engine.new_game(code)
    for step in steps[:3]:
        if step.kind == "home":
            notation = ",".join(mirror.home_run())
        elif step.kind == "place":
            notation = one_press(mirror, step.value)
        else:
            notation = step.value
        edits = fake_discord.message(board.id).edits
        typed = await fake_discord.slash(alice, "move", {"notation": notation})
        assert not typed.failed, typed.text()
        await eventually(lambda edits=edits: fake_discord.message(board.id).edits > edits)
        mirror.play(notation)
    final = await play_steps(fake_discord, alice, board, steps[3:])
    assert "Won in" in final.text(), final.text()
    stored = await bot.store.get_game(board_game_id(final))
    game = engine.replay(code, stored.moves)
    assert game.is_won and stored.status == "won"
    assert len(stored.moves) == len(steps) < game.move_count  # auto-play rode in the actions
    assert any("," in action for action in stored.moves)
    assert [b["custom_id"].split(":")[0] for b in final.buttons()] == ["a", "d", "r"]
    ranked = await fake_discord.slash(alice, "leaderboard", {"game": "freecell", "cells": 2})
    assert f"<@{alice.id}>" in ranked.text() and f"won in {game.move_count}" in ranked.text(), ranked.text()
    four = await fake_discord.slash(alice, "leaderboard", {"game": "freecell"})
    assert f"<@{alice.id}>" not in four.text()  # the 4-cell board is another board
    stats = await fake_discord.slash(alice, "stats", {"game": "freecell"})
    assert "Played 1" in stats.text() and f"won in {game.move_count} moves" in stats.text(), stats.text()
    assert fake_discord.take_violations() == []


async def test_a_press_plays_its_move_with_auto_play_and_one_undo_takes_it_all_back(fake_discord, bot):
    code = "FC1-C4-MS2"
    game = engine.new_game(code)
    place, notation = "2", one_press(game, "2")  # column 2's card to a free cell …
    assert notation == "2a" and game.auto_after(game.resolve(notation)) == ["1h", "2h"]  # … frees two aces
    alice = fake_discord.add_user("alice")
    board = (await fake_discord.slash(alice, "freecell", {"code": code})).message
    pressed = await fake_discord.click(alice, board, button(board, place))
    assert "then home by themselves:" in pressed.text(), pressed.text()
    row = await bot.store.active_game(alice.id, "freecell")
    assert row.moves[0].startswith(notation + ",") and row.moves[0].endswith("h")
    current = fake_discord.message(board.id)
    await fake_discord.click(alice, current, button(current, "u"))
    assert engine.replay(code, (await bot.store.active_game(alice.id, "freecell")).moves).cards_home == 0


@pytest.mark.slow
async def test_freecell_is_raced_on_one_deal(fake_discord, bot):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    opened = await fake.slash(alice, "race", {"game": "freecell", "start_in": 5})
    assert not opened.failed and not opened.ephemeral, opened.text()
    lobby = opened.message
    assert "FreeCell · 4 free cells" in lobby.text(), lobby.text()
    race = await bot.store.get_race(race_id(lobby))
    assert race.code.startswith("FC1-C4-MS") and race.code not in lobby.text()
    await join(fake, bob, lobby)
    await start_now(fake, bot, alice, lobby)
    games = {u.id: await bot.store.active_game(u.id, "freecell") for u in (alice, bob)}
    assert {g.code for g in games.values()} == {race.code} and {g.source for g in games.values()} == {"race"}
    board = await my_board(fake, alice, lobby)
    assert "MS" not in board.text()  # a race's deal stays secret
    steps = presses(race.code, list(solution_of(race.code)))
    mirror = engine.new_game(race.code)
    for step in steps[:-1]:  # every step but the last through the service, as presses would
        if step.kind == "home":
            notation = ",".join(mirror.home_run())
        elif step.kind == "place":
            notation = one_press(mirror, step.value)
        else:
            notation = step.value
        await bot.service.play(alice.id, games[alice.id].id, notation)
        mirror.play(notation)
    last = steps[-1]
    current = await my_board(fake, alice, lobby)  # a fresh board, at the game's version
    if last.kind == "menu":
        won = await fake.select(alice, current, menu_id(current), [last.value])
    else:
        won = await fake.click(alice, current, button(current, last.value or "h"))
    assert won.ephemeral and "Won in" in won.text(), won.text()

    await bot.races.idle()
    await eventually(lambda: "Finished" in fake.message(lobby.id).text(), timeout=10)
    (result,) = [m for m in fake.messages(fake.channel) if "wins!" in m.text()]
    assert f"<@{alice.id}> wins!" in result.text() and race.code in result.text()
    assert (await bot.store.get_game(games[bob.id].id)).status == "resigned"
    stats = await fake.slash(alice, "stats", {"game": "freecell"})
    assert "Races: 1 played, 1 won" in stats.text()
    assert fake.take_violations() == []


async def test_help_rules_and_daily_know_freecell(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    helped = await fake_discord.slash(alice, "help")
    assert "/freecell" in helped.text() and "#11982" in helped.text()
    ruled = await fake_discord.slash(alice, "rules", {"game": "freecell"}, locale="ru")
    assert "другого цвета" in ruled.text() and "Солитер" in ruled.text()
    daily = await fake_discord.slash(alice, "daily", {"game": "freecell"})
    assert not daily.failed and "FC1-C4-MS" in daily.text(), daily.text()
    row = await bot.store.active_game(alice.id, "freecell")
    assert row.source == "daily" and row.variant == "4"
    assert fake_discord.take_violations() == []


@pytest.mark.slow
def test_the_daily_and_the_stock_are_deals_the_solver_won():
    front = front_for("freecell")
    assert isinstance(front, FreeCellFront)
    code = front.daily_code(12345)
    assert code.cells == 4 and solve(engine.new_game(code), time_limit=20).verdict == "winnable"
    found = find_winnable(1, 7, 2, 0.0, 30.0)
    assert len(found) == 2
    for deal in (*found, shipped(1)[0], shipped(3)[-1]):
        cells = 1 if deal in found or deal == shipped(1)[0] else 3
        game = engine.new_game(engine.make_code("freecell", deal, cells))
        assert solve(game, time_limit=30).verdict == "winnable", deal
    assert all(len(shipped(n)) >= 20 for n in (4, 3, 2, 1))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("deck", ["two", "four"])
def test_the_board_is_drawn_in_every_language_and_both_decks(language, deck):
    from renderer.games import freecell as board_module
    from renderer.games import tableau

    game = engine.new_game("FC1-C3-MS11982")
    game.play("1a")
    front = front_for("freecell")
    labels = picture_labels(language, "freecell")
    image = decode(front.render(game, highlight="3", labels=labels, deck=deck))
    assert image.size == (renderer.WIDTH, board_module.BOARD.height(game))
    assert labels["freecell"] == front.title_in(language) and len(labels["freecell"]) <= 12
    top = tableau.TABLEAU_Y + renderer.layout.FAN * (len(game.position.cols[2]) - 1)
    assert image.getpixel((tableau.slot_x(2) + 8, top + 70)) == renderer.layout.PICK_FACE
    # Three cells drawn: the fourth slot is felt, the foundations' first slot is not.
    assert image.getpixel((tableau.slot_x(3) + 30, tableau.TOP_Y + 40)) == renderer.layout.FELT
    alt = front.alt_text(Translator(language), game)
    assert "K♣" in alt and len(alt) < 1024


async def test_safe_auto_play_is_a_players_setting_kept_across_a_restart(fake_discord, tmp_path):
    """/settings turns FreeCell's safe auto-play off for one player: their moves send no card
    home by themselves, another player's still do; the choice survives a restart (a real
    SQLite file) and turning it on again brings auto-play back."""
    fake, db, code = fake_discord, tmp_path / "settings.sqlite3", "FC1-C4-MS2"
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running(fake, db) as bot:
        shown = await fake.slash(alice, "settings", {})
        assert shown.ephemeral and EN("settings.freecell.autoplay.on") in shown.text(), shown.text()
        off = await fake.slash(alice, "settings", {"game_setting": "freecell.autoplay.off"})
        assert off.ephemeral and EN("settings.freecell.autoplay.off") in off.text(), off.text()
        assert await bot.store.player_settings(alice.id) == {"freecell.autoplay": "off"}
        for user in (alice, bob):
            board = (await fake.slash(user, "freecell", {"code": code})).message
            pressed = await fake.click(user, board, button(board, "2"))  # 2a frees two aces
            assert not pressed.ephemeral, pressed.text()
        mine = await bot.store.active_game(alice.id, "freecell")
        assert mine.moves == ("2a",) and engine.replay(code, mine.moves).cards_home == 0
        assert "then home by themselves" not in fake.message(mine.message_id).text()
        theirs = await bot.store.active_game(bob.id, "freecell")
        assert theirs.moves == ("2a,1h,2h",)  # auto-play on: the default
    async with running(fake, db) as bot:
        shown = await fake.slash(alice, "settings", {}, locale="ru")
        assert Translator("ru")("settings.freecell.autoplay.off") in shown.text(), shown.text()
        typed = await fake.slash(alice, "move", {"notation": "3b"})
        assert not typed.failed, typed.text()
        row = await bot.store.active_game(alice.id, "freecell")
        assert row.moves == ("2a", "3b") and engine.replay(code, row.moves).cards_home == 0
        await fake.slash(alice, "settings", {"game_setting": "freecell.autoplay.on"})
        assert await bot.store.player_settings(alice.id) == {}  # the default is no row
        await fake.slash(alice, "move", {"notation": "4c"})
        row = await bot.store.active_game(alice.id, "freecell")
        assert row.moves[-1] == "4c,1h,2h" and engine.replay(code, row.moves).cards_home == 2
    assert fake.take_violations() == []


async def test_a_setting_no_game_offers_is_refused_and_changes_nothing(tmp_path):
    """A forged or outdated choice (Discord offers only the listed ones; the console takes a
    typed one) is refused with the player's message; the console lists the games' settings."""
    import storage
    from bot.play import game_settings
    from bot.play.console import help_text
    from bot.play.feedback import UserFeedback

    store = await storage.open_store(str(tmp_path / "forged.sqlite3"))
    try:
        for token in ("freecell.autoplay.sometimes", "bakers.autoplay.off", "freecell.autoplay"):
            with pytest.raises(UserFeedback) as refused:
                await game_settings.choose(store, 7, token)
            assert refused.value.key == "error.unknown_setting"
        assert await store.player_settings(7) == {}
        await store.set_player_setting(7, "freecell.autoplay", "sometimes")  # an old value stored
        assert await game_settings.values_for(store, 7, front_for("freecell")) == {"autoplay": "on"}
    finally:
        await store.close()
    assert "settings freecell.autoplay.on|freecell.autoplay.off" in help_text()


def test_one_press_builds_a_card_home_is_not_yet_safe_for_and_sends_a_safe_one_home():
    """A card that could go home but that a lower card of the other colour may still need goes
    on a column (Home still sends it); with auto-play off, a safe card's press sends it home."""
    front = front_for("freecell")
    played = [
        "1h",
        "1a",
        "7b",
        "4c",
        "4d",
        "4h",
        "46",
        "54",
        "5h",
        "58",
        "57",
        "c5",
        "3c",
        "83",
        "43",
        "87",
        "8h",
        "68",
        "47",
        "41",
        "ah",
        "6a",
        "65",
    ]
    game = engine.new_game("FC1-C4-MS2")
    for move in played:  # as a player with auto-play plays them
        game.play(move)
    assert game.double_tap_target("6") == "6h"  # it fits its foundation …
    assert one_press(game, "6") == "62"  # … but the press builds it onto column 2
    assert "6h" in [notation for notation, _ in front.move_menu(EN, game)]  # home alone: the menu
    fresh = engine.new_game("FC1-C4-MS2")
    fresh.autoplay = False
    fresh.play("2a")  # two aces left uncovered
    assert [one_press(fresh, p) for p in "12"] == ["1h", "2h"]
    assert front.settings[0].name == "autoplay" and front.settings[0].default == "on"


async def test_a_hint_is_a_move_of_the_players_own_auto_play_setting(fake_discord, tmp_path):
    """The hint follows the player's own auto-play setting. Microsoft's deal 4 starts with an
    ace on top of column 4: with auto-play on, the plan's first move sends it home by itself,
    so the hint is that move (the plan shortened over what auto-play sends); with it off the
    ace is the player's to send, ``4h``. A hint computed as if auto-play were on would give
    the auto-play player's move to the player who has it off."""
    fake, code = fake_discord, "FC1-C4-MS4"
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    on, off = (hint_code(code, (), 10, autoplay) for autoplay in (True, False))
    assert isinstance(on, Hint) and isinstance(off, Hint)
    assert on.move != off.move and off.move == "4h"
    async with running(fake, tmp_path / "hints.sqlite3"):
        await fake.slash(alice, "settings", {"game_setting": "freecell.autoplay.off"})
        for user, expected in ((alice, off.move), (bob, on.move)):
            board = (await fake.slash(user, "freecell", {"code": code})).message
            pressed = await fake.click(user, board, button(board, "i"))
            (answer,) = await pressed.wait_followups(1, timeout=30)
            assert f"(`{expected}`)" in answer.text(), answer.text()
    assert fake.take_violations() == []


@pytest.mark.parametrize("locale", ["en-US", "bg", "ca", "id", "nl", "ru"])
def test_a_bad_cell_count_is_told_with_the_games_own_cell_counts(locale):
    from bot.play.error_words import error_text

    with pytest.raises(engine.CodeError) as freecell:
        engine.parse_code("FC1-C5-MS1")
    with pytest.raises(engine.CodeError) as bakers:
        engine.parse_code("BK1-C3-AAAAA24")
    told = error_text(locale, freecell.value)
    assert told is not None and "C5" in told and "C4, C3, C2, C1" in told
    told = error_text(locale, bakers.value)
    assert told is not None and "C3" in told and "C4, C2, C1" in told
