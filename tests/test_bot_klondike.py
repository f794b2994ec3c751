"""Klondike through the real bot and the fake Discord: started with a draw, played by presses
(the stock button, a selection then its pile, the menu), refused presses that change nothing,
won with Finish, ranked per draw, raced on one deal; its help, rules and daily; its picture
decoded, its words from what the player sees only."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from PIL import Image

import engine
import renderer
from bot.games import front_for
from bot.games.klondike import deals, presses
from bot.languages.i18n import Translator
from bot.languages.language import LANGUAGES, picture_labels
from engine.cards import card_label
from engine.klondike import KlondikeGame
from engine.klondike.solving import layout_of, solve
from renderer.games import klondike as board_module
from tests.test_bot_discord import board_game_id, button, eventually, menu_id, running
from tests.test_bot_freecell import decode
from tests.test_bot_races import join, my_board, start_now
from tests.test_klondike_finish import greedy

EN = Translator("en")
# Deals the engine's tests win by a greedy line (tests/test_klondike_finish.py).
DRAW_THREE_WIN, DRAW_ONE_WIN = "KL1-D3-AAAAAAQ", "KL1-D1-AAAAAAC"


@dataclass(frozen=True)
class Step:
    """One thing a player does: press buttons in order, or pick a move in the menu."""

    buttons: tuple[str, ...] = ()
    menu: str = ""


def greedy_line(code: str) -> list[str]:
    """The engine tests' greedy win (``tests.test_klondike_finish.greedy``), as its actions."""
    game = engine.new_game(code)
    assert isinstance(game, KlondikeGame)
    greedy(game)
    assert game.is_won
    return list(game.moves)


def steps_of(code: str, line: list[str]) -> list[Step]:
    """How a player presses each action of ``line``: the stock, Home/Finish, a place's one press,
    a selection and then its pile, else the menu."""
    game = engine.new_game(code)
    assert isinstance(game, KlondikeGame)
    out = []
    for action in line:
        source = action[0]
        if action == "s":
            out.append(Step(("s",)))
        elif "," in action:
            out.append(Step(("h",)))
        elif source in presses.SOURCES and presses.needs_choice(game, source):
            out.append(Step((source, action[1])))
        elif source in presses.SOURCES and presses.one_press(game, source) == action:
            out.append(Step((source,)))
        else:
            out.append(Step(menu=action))
        game.play_batch(action.split(","))
    return out


async def play(fake, user, board, steps):
    for step in steps:
        for act in step.buttons:
            current = fake.message(board.id)
            result = await fake.click(user, current, button(current, act))
            assert not result.ephemeral, result.text()
        if step.menu:
            current = fake.message(board.id)
            result = await fake.select(user, current, menu_id(current), [step.menu])
            assert not result.ephemeral, result.text()
    return fake.message(board.id)


@pytest.fixture
async def bot(fake_discord, tmp_path):
    async with running(fake_discord, tmp_path / "klondike.sqlite3", race_check_seconds=0.1) as b:
        yield b


def test_the_greedy_line_is_pressed_with_the_stock_a_selection_and_finish():
    steps = steps_of(DRAW_THREE_WIN, greedy_line(DRAW_THREE_WIN))
    assert any(s.buttons == ("s",) for s in steps)
    assert any(len(s.buttons) == 2 for s in steps)  # a selection, then its pile
    assert steps[-1].buttons == ("h",)


async def test_a_draw_three_game_is_pressed_refused_won_with_finish_and_ranked_per_draw(
    fake_discord, bot, monkeypatch
):
    # The new deal taken from the stock is the one the greedy line wins (a stock game: ranked).
    deal, take = engine.parse_code(DRAW_THREE_WIN).deal, bot.store.take_winnable_deal

    async def the_greedy_deal(kind: str, variant: str) -> int | None:
        return deal if (kind, variant) == ("klondike", "3") else await take(kind, variant)

    monkeypatch.setattr(bot.store, "take_winnable_deal", the_greedy_deal)
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    started = await fake_discord.slash(alice, "klondike", {"draw": 3})
    assert not started.failed and not started.ephemeral, started.text()
    assert "**Klondike** · draw 3" in started.text() and DRAW_THREE_WIN in started.text(), started.text()
    row = await bot.store.active_game(alice.id, "klondike")
    assert row.code == DRAW_THREE_WIN and row.variant == "3"
    game = engine.new_game(DRAW_THREE_WIN)
    image = decode(fake_discord.attachment_bytes(started.message))
    assert image.size == (renderer.WIDTH, board_module.height(game))
    board = started.message
    labels = [b["label"] for b in board.buttons()]
    assert labels[:3] == ["Stock · 24", "Waste · empty", "Home ×2"] and "7 · 2♣" in labels
    # Pile 7's 2♣ has nowhere to go: refused, nothing changed; bob may not press alice's board.
    refused = await fake_discord.click(alice, board, button(board, "7"))
    assert refused.ephemeral and "Nothing on pile 7 can move now." in refused.text(), refused.text()
    theirs = await fake_discord.click(bob, board, button(board, "s"))
    assert theirs.ephemeral, theirs.text()
    typed = await fake_discord.slash(alice, "move", {"notation": "wh"})
    assert typed.ephemeral and "The waste is empty: turn the stock (s)." in typed.text(), typed.text()
    nowhere = await fake_discord.slash(alice, "move", {"notation": "w9"})  # Klondike's own words
    assert nowhere.ephemeral and "There is no pile 9: they are numbered 1 to 7." in nowhere.text()
    assert "i" in [cid.split(":")[-1] for cid in board.custom_ids()]  # a Hint button (no hint asked here)
    assert (await bot.store.active_game(alice.id, "klondike")).moves == ()
    steps = steps_of(DRAW_THREE_WIN, greedy_line(DRAW_THREE_WIN))
    before = await play(fake_discord, alice, board, steps[:-1])
    assert any(b["label"] == "Finish" for b in before.buttons())
    final = await play(fake_discord, alice, board, steps[-1:])
    assert "Won in" in final.text(), final.text()
    stored = await bot.store.get_game(board_game_id(final))
    won = engine.replay(DRAW_THREE_WIN, stored.moves)
    assert won.is_won and stored.status == "won" and "," in stored.moves[-1]
    ranked = await fake_discord.slash(alice, "leaderboard", {"game": "klondike", "draw": 3})
    text = ranked.text()
    assert f"<@{alice.id}>" in text and f"won in {won.move_count}" in text and "draw 3" in text, text
    one = await fake_discord.slash(alice, "leaderboard", {"game": "klondike", "draw": 1})
    assert f"<@{alice.id}>" not in one.text()  # the draw-one board is another board
    cells = await fake_discord.slash(alice, "leaderboard", {"game": "klondike", "cells": 4})
    assert cells.ephemeral and "1 or 3 cards" in cells.text(), cells.text()
    stats = await fake_discord.slash(alice, "stats", {"game": "klondike"})
    assert f"won in {won.move_count} moves" in stats.text(), stats.text()
    assert fake_discord.take_violations() == []


async def test_the_menu_plays_its_move_and_the_stock_button_turns_the_waste_back_over(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await fake_discord.slash(alice, "klondike", {"code": DRAW_THREE_WIN})).message
    game = engine.new_game(DRAW_THREE_WIN)
    assert isinstance(game, KlondikeGame)
    notation, words = front_for("klondike").move_menu(EN, game)[0]
    picked = await fake_discord.select(alice, board, menu_id(board), [notation])
    assert not picked.ephemeral and f"Last move: {words}" in picked.text(), picked.text()
    current = fake_discord.message(board.id)
    await fake_discord.click(alice, current, button(current, "u"))
    assert (
        engine.replay(DRAW_THREE_WIN, (await bot.store.active_game(alice.id, "klondike")).moves).move_count
        == 0
    )
    for _ in range(8):
        current = fake_discord.message(board.id)
        assert not (await fake_discord.click(alice, current, button(current, "s"))).ephemeral
    current = fake_discord.message(board.id)
    assert current.buttons()[0]["label"] == "↻ Turn over"
    assert "Last move: turn 3 cards from the stock" in current.text(), current.text()
    await fake_discord.click(alice, current, button(current, "s"))
    row = await bot.store.active_game(alice.id, "klondike")
    game = engine.replay(row.code, row.moves)
    assert (
        isinstance(game, KlondikeGame) and len(game.seen_state().stock) == 24 and not game.seen_state().waste
    )


@pytest.mark.slow
async def test_klondike_is_raced_on_one_deal(fake_discord, bot):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    opened = await fake.slash(alice, "race", {"game": "klondike", "draw": 3, "code": DRAW_THREE_WIN})
    assert not opened.failed and not opened.ephemeral, opened.text()
    lobby = opened.message
    assert "Klondike · draw 3" in lobby.text(), lobby.text()
    await join(fake, bob, lobby)
    await start_now(fake, bot, alice, lobby)
    games = {u.id: await bot.store.active_game(u.id, "klondike") for u in (alice, bob)}
    assert {g.code for g in games.values()} == {DRAW_THREE_WIN} and {g.variant for g in games.values()} == {
        "3"
    }
    board = await my_board(fake, alice, lobby)
    assert "AAAAAAQ" not in board.text()  # a race's deal stays secret
    line = greedy_line(DRAW_THREE_WIN)
    for action in line[:-1]:
        await bot.service.play(alice.id, games[alice.id].id, action)
    current = await my_board(fake, alice, lobby)
    won = await fake.click(alice, current, button(current, "h"))
    assert won.ephemeral and "Won in" in won.text(), won.text()
    await bot.races.idle()
    await eventually(lambda: "Finished" in fake.message(lobby.id).text(), timeout=10)
    (result,) = [m for m in fake.messages(fake.channel) if "wins!" in m.text()]
    assert f"<@{alice.id}> wins!" in result.text()
    assert fake.take_violations() == []


async def test_help_rules_and_daily_know_klondike(fake_discord, bot, monkeypatch):
    from bot.play import dailycodes

    monkeypatch.setattr(dailycodes, "draw", lambda: 1)  # a day whose first deal is proven at once
    alice = fake_discord.add_user("alice")
    helped = await fake_discord.slash(alice, "help")
    assert "/klondike" in helped.text() and "draw:3" in helped.text(), helped.text()
    ruled = await fake_discord.slash(alice, "rules", {"game": "klondike"}, locale="ru")
    assert "другого цвета" in ruled.text() and "Косынка" in ruled.text(), ruled.text()
    daily = await fake_discord.slash(alice, "daily", {"game": "klondike"})
    assert not daily.failed and "KL1-D1-" in daily.text(), daily.text()
    row = await bot.store.active_game(alice.id, "klondike")
    assert row.source == "daily" and row.variant == "1"
    assert deals.proven(engine.parse_code(row.code), deals.DAILY_NODES)  # a deal the solver won
    bad = await fake_discord.slash(alice, "klondike", {"code": "KL1-D2-AAAAA24"})
    assert bad.ephemeral and "The draw part “D2” must be one of D1, D3." in bad.text(), bad.text()
    assert fake_discord.take_violations() == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("deck", ["two", "four"])
def test_the_board_is_drawn_in_every_language_and_both_decks_naming_no_hidden_card(language, deck):
    game = engine.new_game(DRAW_THREE_WIN)
    assert isinstance(game, KlondikeGame)
    game.play("s")
    front = front_for("klondike")
    labels = picture_labels(language, "klondike")
    image = decode(front.render(game, highlight="4", labels=labels, deck=deck))
    assert image.size == (renderer.WIDTH, board_module.height(game))
    assert labels["klondike"] == front.title_in(language)
    tr = Translator(language)
    alt = front.alt_text(tr, game)
    state = game.state()
    hidden = [c for pile, down in zip(state.piles, state.face_down, strict=True) for c in pile[:down]]
    hidden += list(state.stock)
    assert hidden and not any(card_label(c) in alt for c in hidden), alt
    assert card_label(state.waste[-1]) in alt and len(alt) < 1024
    text = front.text_board(tr, game)
    assert text == game.seen_text().rstrip() and "##" in text
    menu = " ".join(words for _, words in front.move_menu(tr, game) + front.ranked_moves(tr, game))
    assert not any(card_label(c) in menu for c in hidden), menu


def test_a_won_game_replays_through_the_picture():
    line = tuple(greedy_line(DRAW_THREE_WIN))
    gif = front_for("klondike").render_replay(
        DRAW_THREE_WIN, line, labels=picture_labels("en", "klondike"), max_bytes=8_000_000
    )
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.size == (renderer.WIDTH, board_module.FULL_HEIGHT)
    assert image.n_frames > len(line) // 2


def test_the_stock_finder_gives_deals_the_solver_wins_at_that_draw():
    found = deals.find_winnable(3, 7, 2, 2.0, 60.0)
    assert len(found) == 2
    for deal in found:
        game = engine.new_game(str(engine.make_code("klondike", deal, 3)))
        assert isinstance(game, KlondikeGame)
        assert solve(layout_of(game.state()), budget=deals.STOCK_NODES).verdict == "winnable"
