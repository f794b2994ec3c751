"""A whole game through ``python -m bot`` against the fake Discord (issue 39): started, played by
presses, Home and menu choices to a win, replayed; the board is the Components V2 card at every
step (one container in the game's colour: text, picture, controls) and Discord refuses nothing."""

from __future__ import annotations

from typing import Any

import engine
from bot.games import front_for
from engine.solver import solve
from tests.presses import presses

CODE = "BK1-C4-AAAAA24"


def control(message: Any, wanted: Any) -> str:
    return next(c for c in message.custom_ids() if wanted(c))


def assert_card(message: Any) -> None:
    (container,) = message.components
    assert message.is_v2 and message.content == "" and container["type"] == 17
    assert container["accent_color"] == front_for("bakers").accent_colour
    text, gallery, *rows = container["components"]
    assert text["type"] == 10 and CODE in text["content"]
    assert gallery["items"][0]["media"]["url"] == "attachment://board.png"
    assert gallery["items"][0]["description"] == message.attachments[0].description
    assert rows and all(r["type"] == 1 for r in rows) and len(message.walk()) <= 40


async def press(fake: Any, user: Any, board: Any, step: Any) -> Any:
    message = fake.message(board.id)
    if step.kind == "menu":
        menu = control(message, lambda c: c.startswith("m:"))
        return await fake.select(user, message, menu, [step.value])
    act = "h" if step.kind == "home" else step.value
    return await fake.click(
        user, message, control(message, lambda c: c.startswith("g:") and c.split(":")[-1] == act)
    )


async def test_a_whole_game_is_played_won_and_replayed_on_the_card(fake_discord, bot_process):
    fake = fake_discord
    await bot_process.start()
    alice = fake.add_user("alice")
    started = await fake.slash(alice, "boulanger", {"code": CODE})
    board = started.message
    assert_card(board)
    steps = presses(CODE, solve(engine.new_game(CODE), time_limit=20).moves)
    assert {s.kind for s in steps} == {"place", "home", "menu"}
    for step in steps:
        answer = await press(fake, alice, board, step)
        assert not answer.failed and answer.edited is not None and answer.edited.id == board.id, step
        assert_card(fake.message(board.id))
    final = fake.message(board.id)
    assert "Won in" in final.text()
    assert [c.split(":")[0] for c in final.custom_ids()] == ["a", "d", "r"]  # new deal, daily, replay
    replay = await fake.click(alice, final, control(final, lambda c: c.startswith("r:")), timeout=30)
    (shown,) = replay.followups or await replay.wait_followups(1, timeout=30)
    assert shown.attachments[0].data[:6] == b"GIF89a"
    fake.assert_no_violations()
