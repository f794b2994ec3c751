"""The floor benchmark's bot (benchmarks/floor_bot.py) answers every press as Discord expects:
its figure is the cost of real answers, not of refused ones (issue 26)."""

from __future__ import annotations

import pytest

from benchmarks.floor import board_picture
from tests.fakediscord import BotProcess, FakeDiscord

pytestmark = pytest.mark.processes  # every test here starts the bot or another program (tests/conftest.py)


@pytest.mark.parametrize("card", [False, True], ids=["a view", "a v2 card"])
async def test_the_floor_bot_answers_each_press_with_the_board(tmp_path, card):
    picture = tmp_path / "board.png"
    picture.write_bytes(board_picture())
    async with FakeDiscord() as fake:
        bot = BotProcess(
            fake,
            db_path=tmp_path / "unused",
            module="benchmarks.floor_bot",
            env={"BOULANGER_FLOOR_PNG": str(picture), "BOULANGER_FLOOR_CARD": "1" if card else "0"},
            log_level="WARNING",
        )
        await bot.start()
        try:
            user = fake.add_user("player")
            dealt = await fake.slash(user, "deal")
            assert dealt.message is not None
            for custom_id in ("floor:0", "floor:17", "floor:0"):
                pressed = await fake.click(user, dealt.message, custom_id)
                assert pressed.type == 7 and not pressed.failed  # the message itself updated
                assert pressed.attachments[0].data == picture.read_bytes()
                assert pressed.attachments[0].image().size == (720, 521)  # a deal's board, whole
                rows = [c for c in pressed.message.walk() if c["type"] == 1]
                assert [len(r["components"]) for r in rows] == [5, 5, 5, 3, 1]
                assert rows[-1]["components"][0]["type"] == 3  # the menu
                assert pressed.message.is_v2 == card
        finally:
            await bot.stop()
        assert fake.violations == []
