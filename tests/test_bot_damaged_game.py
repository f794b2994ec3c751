"""Issue 25: a stored game that no longer replays, through the real bot process and a real file.

Its moves edited to garbage: the player is told once what happened and offered to end it,
the log says it once, it is marked damaged once (``damaged_games``) and kept as it is.
"""

from __future__ import annotations

import sqlite3

from tests.test_bot_discord import CODE, button

DAMAGED = "no longer replays"


async def test_a_game_that_no_longer_replays_is_marked_once_and_can_be_ended(fake_discord, bot_process):
    fake = fake_discord
    await bot_process.start()
    alice = fake.add_user("alice")
    board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
    assert "A♦ from column 6 home" in (await fake.click(alice, board, button(board, "h"))).text()
    await bot_process.kill()
    with sqlite3.connect(bot_process.db_path) as db:  # the stored moves edited to garbage
        db.execute("UPDATE games SET moves = 'zz qq', action_count = 2")
    db.close()
    await bot_process.start()
    answers = [
        await fake.click(alice, board, button(fake.message(board.id), "8")),
        await fake.slash(alice, "move", {"notation": "1a"}),
        await fake.slash(alice, "board"),
    ]
    for answer in answers:
        shown = answer.followups[-1] if answer.followups else answer.message
        assert shown.ephemeral and DAMAGED in shown.text() and "/resign" in shown.text(), shown.text()
    logged = [line for line in bot_process.output.splitlines() if "no longer replays from its stored" in line]
    assert len(logged) == 1 and "ERROR" in logged[0]
    ended = await fake.slash(alice, "resign")
    shown = ended.followups[-1] if ended.followups else ended.message
    assert "damaged game was ended" in shown.text(), shown.text()
    with sqlite3.connect(bot_process.db_path) as db:
        (moves, status) = db.execute("SELECT moves, status FROM games").fetchone()
        marks = db.execute("SELECT game_id, reason FROM damaged_games").fetchall()
    db.close()
    assert (moves, status) == ("zz qq", "resigned")  # kept for the operator
    assert len(marks) == 1 and "zz" in marks[0][1]
    fresh = await fake.slash(alice, "boulanger", {"code": CODE})  # and a new game starts as usual
    assert not fresh.ephemeral and "Score 0" in fresh.text()
    assert "Traceback" not in bot_process.output
