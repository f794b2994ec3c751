"""Shared fixtures. Only the fake Discord's live here (see tests/fakediscord/)."""

from __future__ import annotations

import pytest

from tests.fakediscord import BotProcess, FakeDiscord


@pytest.fixture
async def fake_discord():
    """A running FakeDiscord with this process's discord.py pointed at it.

    At teardown the test fails if the bot sent any request the real Discord would refuse
    (tests that provoke refusals on purpose call `fake_discord.take_violations()`).
    """
    fake = FakeDiscord()
    await fake.start()
    try:
        with fake.patch_discord():
            yield fake
    finally:
        await fake.stop()
    fake.assert_no_violations()


@pytest.fixture
async def bot_process(fake_discord, tmp_path):
    """A `BotProcess` for `python -m bot` against `fake_discord` (not started; call `await bot_process.start()`)."""
    proc = BotProcess(fake_discord, db_path=tmp_path / "bot.sqlite3")
    try:
        yield proc
    finally:
        await proc.stop()
