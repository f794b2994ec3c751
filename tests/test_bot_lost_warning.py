"""Issue 28 through the real bot and the fake Discord: the board says at once when a move made
the deal unwinnable, Undo clears it, a winning line never shows it, the setting turns it off."""

from __future__ import annotations

import asyncio
import time

import engine
from engine.solver import solve
from tests.test_bot_discord import button, eventually, running, start

LOSING_CODE = "BK1-C4-AAAAAGK"  # proven winnable; column 6's one press (Q♠ onto K♠) loses it
LOST = "This deal can no longer be won"


async def test_the_losing_press_is_warned_within_3s_and_undo_clears_it(fake_discord, tmp_path):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord, tmp_path / "warn.sqlite3") as bot:
        board = (await start(fake_discord, alice, LOSING_CODE)).message
        assert LOST not in board.text()
        pressed_at = time.monotonic()
        moved = await fake_discord.click(alice, board, button(board, "6"))
        assert not moved.failed and moved.edited.id == board.id
        assert "Q♠ from column 6 to column 1" in moved.text()

        def warned() -> bool:
            return f"{LOST}: Undo 1 move to get back" in fake_discord.message(board.id).text()

        await eventually(warned, timeout=3.0 - (time.monotonic() - pressed_at))
        shown = fake_discord.message(board.id)
        assert fake_discord.attachment_bytes(shown)[:8] == b"\x89PNG\r\n\x1a\n"  # picture kept
        assert shown.buttons()  # and the buttons
        row = await bot.store.active_game(alice.id, "bakers")
        assert row.warned and row.hints == 0  # on the record, and no help

        # Another move in the lost position: one undo further, known without a search.
        again = await fake_discord.click(alice, board, button(shown, "1"))
        assert f"{LOST}: Undo 2 moves to get back" in again.text()
        undone = await fake_discord.click(alice, board, button(fake_discord.message(board.id), "u"))
        assert f"{LOST}: Undo 1 move to get back" in undone.text()
        back = await fake_discord.click(alice, board, button(fake_discord.message(board.id), "u"))
        assert LOST not in back.text() and "Last move taken back." in back.text()
        await asyncio.sleep(0.5)  # nothing late brings it back
        assert LOST not in fake_discord.message(board.id).text()
        # The record keeps that the warning was seen; it still ranks as unassisted.
        await fake_discord.slash(alice, "resign")
        game_id = row.id
        result = await bot.store.get_result(game_id)
        assert result is not None and result.warned and not result.assisted


async def test_moves_on_a_winning_line_never_show_it(fake_discord, tmp_path):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord, tmp_path / "line.sqlite3") as bot:
        board = (await start(fake_discord, alice, LOSING_CODE)).message
        plan = solve(engine.new_game(LOSING_CODE), time_limit=20).moves
        assert plan
        for notation in plan[:12]:
            typed = await fake_discord.slash(alice, "move", {"notation": notation})
            assert not typed.failed
            assert LOST not in fake_discord.message(board.id).text()
        await asyncio.sleep(2.0)  # any search still running has had its budget
        assert LOST not in fake_discord.message(board.id).text()
        assert not (await bot.store.active_game(alice.id, "bakers")).warned


async def test_with_the_setting_off_nothing_is_shown(fake_discord, tmp_path):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord, tmp_path / "off.sqlite3") as bot:
        off = await fake_discord.slash(alice, "settings", {"lost_warning": "off"})
        assert off.ephemeral and "no longer say" in off.text()
        board = (await start(fake_discord, alice, LOSING_CODE)).message
        moved = await fake_discord.click(alice, board, button(board, "6"))
        assert LOST not in moved.text()
        await asyncio.sleep(2.0)
        assert LOST not in fake_discord.message(board.id).text()
        assert not (await bot.store.active_game(alice.id, "bakers")).warned
        shown = await fake_discord.slash(alice, "settings", {})
        assert "no longer say" in shown.text() and "two-colour deck" in shown.text()
        on = await fake_discord.slash(alice, "settings", {"lost_warning": "on"})
        assert "say when a move made the deal impossible to win" in on.text()
