"""Klondike's hints through the real bot and the fake Discord (issue 43 item 4): the Hint button
and ``/hint`` give the blind hint player's move, a legal one, on the record as help; a game
stuck in a dead end is told it is lost with the undos back; the worker unit-level."""

from __future__ import annotations

import engine
from bot.games.klondike.front import klondike_hint
from engine.klondike import KlondikeGame
from tests.test_bot_discord import button, running
from tests.test_bot_klondike_lost import CODE, OPENING

# A dead end: no card can move and the stock shows none that can; 14 undos back it could be won.
STUCK_CODE = "KL1-D3-AAAKFPV"
STUCK = ("15", "35", "31", "23", "s", "s", "s", "s", "wh", "2h", "6h", "67", "s", "w5", "35", "w2")
STUCK += ("s", "s", "w4", "74", "s", "w1")


def notation_of(text: str) -> str:
    """The move a hint names, as written between its last backquotes."""
    return text.rsplit("`", 2)[-2]


async def test_the_hint_button_and_slash_hint_give_a_legal_move_on_the_record(fake_discord, tmp_path):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord, tmp_path / "hints.sqlite3") as bot:
        board = (await fake_discord.slash(alice, "klondike", {"code": CODE})).message
        pressed = await fake_discord.click(alice, board, button(board, "i"))
        assert pressed.deferred
        (note,) = await pressed.wait_followups(1, timeout=30)
        assert note.ephemeral and "Try" in note.text(), note.text()
        assert notation_of(note.text()) in engine.new_game(CODE).legal_moves()
        row = await bot.store.active_game(alice.id, "klondike")
        assert row.hints == 1 and row.moves == ()  # help on the record; nothing played
        for action in OPENING:
            await fake_discord.slash(alice, "move", {"notation": action})
        typed = await fake_discord.slash(alice, "hint")
        (answer,) = [typed] if "Try" in typed.text() else await typed.wait_followups(1, timeout=30)
        assert "Try" in answer.text(), answer.text()
        assert notation_of(answer.text()) in engine.replay(CODE, OPENING).legal_moves()
        assert (await bot.store.active_game(alice.id, "klondike")).hints == 2
    assert fake_discord.take_violations() == []


def test_the_worker_plays_the_blind_hint_players_move():
    game = engine.replay(CODE, OPENING)
    assert isinstance(game, KlondikeGame)
    advice = klondike_hint(CODE, OPENING, 5.0)
    assert advice.status == "move" and advice.move == game.hint(time_limit=5.0)
    assert klondike_hint(CODE, ("w7",), 5.0).status == "unknown"  # an illegal log


def test_a_dead_end_is_lost_with_the_undos_back():
    assert engine.replay(STUCK_CODE, STUCK).is_lost
    advice = klondike_hint(STUCK_CODE, STUCK, 5.0)
    assert (advice.status, advice.undos, advice.move) == ("lost", 14, None)


async def test_a_hint_in_a_dead_end_says_how_many_undos_get_back(fake_discord, tmp_path):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord, tmp_path / "stuck.sqlite3") as bot:
        await fake_discord.slash(alice, "klondike", {"code": STUCK_CODE})
        row = await bot.store.active_game(alice.id, "klondike")
        for action in STUCK:
            await bot.service.play(alice.id, row.id, action)
        typed = await fake_discord.slash(alice, "hint")
        (answer,) = [typed] if "Undo" in typed.text() else await typed.wait_followups(1, timeout=30)
        assert "can no longer be won. Undo 14 moves" in answer.text(), answer.text()
