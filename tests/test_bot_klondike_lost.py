"""Klondike's lost-deal warning through the real bot and the fake Discord (issue 43 item 5): the
press that loses a winnable deal is warned with the undos back and nothing else, the warning
is on the record without counting as help, the Hint button then says it too (not a move),
Undo clears it, and a race board never warns nor has its hint tell it."""

from __future__ import annotations

import asyncio
import re

import engine
from bot.games.klondike import presses
from engine.cards import card_label
from tests.test_bot_discord import button, eventually, running
from tests.test_bot_races import join, my_board, start_now

# Winnable as dealt and after these moves (the solver proves both); pile 7's one press then
# sends K♥ to the empty pile 1, which the solver proves loses the deal.
CODE = "KL1-D3-AAAFMBS"
OPENING = ("13", "s", "32", "s", "w5", "23")
LOSING_PRESS, LOSING_MOVE = "7", "71"
LOST = "This deal can no longer be won"


def test_the_press_is_the_losing_move():
    game = engine.replay(CODE, OPENING)
    assert presses.one_press(game, LOSING_PRESS) == LOSING_MOVE


def hidden_cards(code: str, moves: tuple[str, ...]) -> list[str]:
    """The labels of the cards the player has not seen at that point."""
    return [card_label(c) for c in engine.replay(code, moves).seen_state().unseen]


async def play_opening(fake, user) -> None:
    for action in OPENING:
        typed = await fake.slash(user, "move", {"notation": action})
        assert not typed.failed and LOST not in typed.text(), typed.text()


async def test_the_losing_press_is_warned_with_its_undo_recorded_and_undo_clears_it(fake_discord, tmp_path):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord, tmp_path / "lost.sqlite3") as bot:
        board = (await fake_discord.slash(alice, "klondike", {"code": CODE})).message
        await play_opening(fake_discord, alice)
        await asyncio.sleep(0.5)  # the opening's searches have run: winnable, nothing said
        current = fake_discord.message(board.id)
        assert LOST not in current.text()
        moved = await fake_discord.click(alice, current, button(current, LOSING_PRESS))
        assert not moved.failed and not moved.ephemeral, moved.text()

        def warned() -> bool:
            return f"{LOST}: Undo 1 move to get back" in fake_discord.message(board.id).text()

        await eventually(warned, timeout=5.0)
        shown = fake_discord.message(board.id)
        # The warning's line names no card: it says only that the deal is lost and the undos.
        line = next(part for part in shown.text().split("\n") if LOST in part)
        assert not re.search(r"[2-9TJQKA][♠♥♦♣]|10[♠♥♦♣]", line), line
        for label in hidden_cards(CODE, (*OPENING, LOSING_MOVE)):
            assert label not in shown.text()
        row = await bot.store.active_game(alice.id, "klondike")
        assert row.warned and row.hints == 0  # seen, on the record, and no help

        # The hint says what the board says (the blind hint player would offer a move).
        pressed = await fake_discord.click(alice, shown, button(shown, "i"))
        (note,) = [pressed] if "Undo" in pressed.text() else await pressed.wait_followups(1, timeout=30)
        assert note.ephemeral and "can no longer be won. Undo 1 move" in note.text(), note.text()
        assert "Try" not in note.text()
        assert (await bot.store.active_game(alice.id, "klondike")).hints == 0  # still no help

        undone = await fake_discord.click(alice, shown, button(shown, "u"))
        assert LOST not in undone.text() and "Last move taken back." in undone.text()
        await asyncio.sleep(0.5)
        assert LOST not in fake_discord.message(board.id).text()
        await fake_discord.slash(alice, "resign")
        result = await bot.store.get_result(row.id)
        assert result is not None and result.warned and not result.assisted


async def test_a_race_board_never_warns(fake_discord, tmp_path):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running(fake, tmp_path / "race.sqlite3", race_check_seconds=0.1) as bot:
        opened = await fake.slash(alice, "race", {"game": "klondike", "draw": 3, "code": CODE})
        assert not opened.failed, opened.text()
        await join(fake, bob, opened.message)
        await start_now(fake, bot, alice, opened.message)
        await play_opening(fake, alice)
        board = await my_board(fake, alice, opened.message)
        moved = await fake.click(alice, board, button(board, LOSING_PRESS))
        assert not moved.failed and LOST not in moved.text(), moved.text()
        row = await bot.store.active_game(alice.id, "klondike")
        assert row.moves == (*OPENING, LOSING_MOVE)  # the race game is in the lost position
        await asyncio.sleep(2.0)  # longer than any verdict's budget
        assert LOST not in (await my_board(fake, alice, opened.message)).text()
        asked = await fake.slash(alice, "hint")  # nor does a hint tell it
        assert asked.ephemeral and "Hints are off in a race" in asked.text(), asked.text()
        assert "can no longer be won" not in asked.text()
        assert not (await bot.store.active_game(alice.id, "klondike")).warned
