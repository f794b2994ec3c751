"""Every path that refuses a stale board redraws it (issue 39 item 4), and a board sent in the
old form before the upgrade becomes the card when pressed (item 3), through ``python -m bot``
against the fake Discord.

A board one move behind is the state a kill -9 leaves between answering ``/move`` and editing
the board (or another process moving the game): here the move is written into the bot's
SQLite file by a second store, as that other process would, while the bot runs.
"""

from __future__ import annotations

import asyncio
from typing import Any

import engine
import storage
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import IS_COMPONENTS_V2

CODE = "BK1-C4-AAAAA24"  # 6: A♦ goes home; 8: J♦ to free cell a


def ids(message: Any) -> list[str]:
    return message.custom_ids()


def button(message: Any, action: str) -> str:
    return next(c for c in ids(message) if c.startswith("g:") and c.split(":")[-1] == action)


def menu(message: Any) -> str:
    return next(c for c in ids(message) if c.startswith("m:"))


def version_of(message: Any) -> int:
    return int(button(message, "h").split(":")[2])


async def move_elsewhere(db_path: Any, owner: int, notation: str) -> storage.GameRow:
    """Play ``notation`` on the owner's game as another process would: straight into storage."""
    store = await storage.open_store(str(db_path))
    try:
        row = await store.active_game(owner, "bakers")
        assert row is not None
        game = engine.replay(row.code, row.moves)
        game.play(notation)
        return await store.append_move(
            row.id,
            row.version,
            game.moves[-1],
            score=game.score,
            move_count=game.move_count,
            home=game.cards_home,
        )
    finally:
        await store.close()


async def redrawn(fake: FakeDiscord, message_id: int, version: int, timeout: float = 10.0) -> Any:
    """The board message once its controls carry ``version`` (the stored position)."""
    for _ in range(int(timeout / 0.05)):
        message = fake.message(message_id)
        if ids(message) and version_of(message) == version:
            return message
        await asyncio.sleep(0.05)
    raise AssertionError(
        f"board {message_id} never redrawn at version {version}: {ids(fake.message(message_id))}"
    )


async def one_move_behind(
    fake: FakeDiscord, bot_process: Any, *, pressed: bool = True
) -> tuple[Any, Any, storage.GameRow]:
    """A player whose board shows A♦ home (``pressed``; else the deal) while the game has moved
    on (J♦ to a)."""
    await bot_process.start()
    alice = fake.add_user("alice")
    board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
    if pressed:
        answer = await fake.click(alice, board, button(board, "6"))
        assert "A♦ from column 6 home" in answer.text()
    row = await move_elsewhere(bot_process.db_path, alice.id, "8a")
    assert version_of(fake.message(board.id)) == row.version - 1
    return alice, fake.message(board.id), row


def refused(result: Any) -> None:
    assert result.ephemeral and "out of date" in result.text() and "Nothing was played" in result.text()


async def test_a_refused_press_redraws_the_stale_board(fake_discord, bot_process):
    alice, board, row = await one_move_behind(fake_discord, bot_process)
    refused(await fake_discord.click(alice, board, button(board, "7")))
    shown = await redrawn(fake_discord, board.id, row.version)
    assert "Moves 2" in shown.text() or "2 moves" in shown.text(), shown.text()
    assert (await storage_moves(bot_process, alice)) == ("6h", "8a")
    assert fake_discord.violations == []


async def test_a_refused_menu_choice_redraws_the_stale_board(fake_discord, bot_process):
    alice, board, row = await one_move_behind(fake_discord, bot_process)
    option = board.find_component(menu(board))["options"][0]["value"]
    refused(await fake_discord.select(alice, board, menu(board), [option]))
    await redrawn(fake_discord, board.id, row.version)
    assert (await storage_moves(bot_process, alice)) == ("6h", "8a")
    assert fake_discord.violations == []


async def test_a_refused_home_redraws_the_stale_board(fake_discord, bot_process):
    alice, board, row = await one_move_behind(fake_discord, bot_process, pressed=False)
    refused(await fake_discord.click(alice, board, button(board, "h")))  # A♦ could go home there
    await redrawn(fake_discord, board.id, row.version)
    assert (await storage_moves(bot_process, alice)) == ("8a",)
    assert fake_discord.violations == []


async def test_a_refused_undo_redraws_the_stale_board(fake_discord, bot_process):
    alice, board, row = await one_move_behind(fake_discord, bot_process)
    refused(await fake_discord.click(alice, board, button(board, "u")))
    await redrawn(fake_discord, board.id, row.version)
    assert (await storage_moves(bot_process, alice)) == ("6h", "8a")  # the undo was not played
    assert fake_discord.violations == []


async def test_a_typed_move_brings_the_stale_board_to_the_stored_position(fake_discord, bot_process):
    """``/move`` names no version: it plays on the stored position, and the board shows it."""
    alice, board, row = await one_move_behind(fake_discord, bot_process)
    typed = await fake_discord.slash(alice, "move", {"notation": "7b"})
    assert typed.ephemeral and not typed.failed
    shown = await redrawn(fake_discord, board.id, row.version + 1)
    assert (await storage_moves(bot_process, alice)) == ("6h", "8a", "7b")
    assert "free cell b" in shown.text()
    assert fake_discord.violations == []


async def storage_moves(bot_process: Any, user: Any) -> tuple[str, ...]:
    store = await storage.open_store(str(bot_process.db_path))
    try:
        row = await store.active_game(user.id, "bakers")
        assert row is not None
        return row.moves
    finally:
        await store.close()


async def test_a_board_in_the_old_form_becomes_the_card_when_pressed(fake_discord, bot_process):
    """A board posted before the upgrade (content, the picture, action rows; no v2 flag) keeps
    working: a press plays and redraws it as the card, the flag added with its content cleared."""
    fake = fake_discord
    await bot_process.start()
    alice = fake.add_user("alice")
    board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
    old = fake.message(board.id)
    (container,) = old.components
    old.content = old.texts()[0]
    old.components = [c for c in container["components"] if c["type"] == 1]  # the rows, as sent then
    old.flags &= ~IS_COMPONENTS_V2
    assert not old.is_v2 and old.content and button(old, "6")
    pressed = await fake.click(alice, old, button(old, "6"))
    assert pressed.edited is not None and pressed.edited.id == board.id
    now = fake.message(board.id)
    assert now.is_v2 and now.content == "" and "A♦ from column 6 home" in now.text()
    assert [c["type"] for c in now.components] == [17] and now.media()[0]["media"][
        "url"
    ] == "attachment://board.png"
    assert fake.violations == []
