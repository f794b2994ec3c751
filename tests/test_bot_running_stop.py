"""The graceful stop of ``python -m bot`` (bot.running.shutdown), on the real process and the fake Discord."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time

import pytest

from tests.fakediscord import BotProcess

pytestmark = pytest.mark.processes  # every test here starts the bot or another program (tests/conftest.py)

# Microsoft FreeCell deal 222437 with 2 cells: after its first press (column 8's top card
# moved by one-press play) the solver needs seconds to prove the position lost, so the hint is a slow
# interaction (deferred, then answered by a follow-up). No Baker's deal is that slow any more.
SLOW = "FC1-C2-MS222437"


def button(message, action: str) -> str:
    return next(c for c in message.custom_ids() if c.split(":")[-1] == action)


async def test_sigterm_answers_the_hint_in_flight_and_exits_0_within_10_s(fake_discord, tmp_path):
    fake = fake_discord
    proc = BotProcess(fake, db_path=tmp_path / "stop.sqlite3", env={"BOULANGER_HINT_SECONDS": "6"})
    try:
        await proc.start()
        alice = fake.add_user("alice")
        board = (await fake.slash(alice, "freecell", {"code": SLOW})).message
        moved = await fake.click(alice, board, button(fake.message(board.id), "8"))  # acknowledged
        assert "column 8" in moved.text()
        hint = asyncio.create_task(fake.click(alice, board, button(fake.message(board.id), "i"), timeout=15))
        await asyncio.sleep(0.5)  # the hint is deferred and searching
        assert not hint.done()
        stopped_at = time.monotonic()
        proc.process.send_signal(signal.SIGTERM)
        result = await hint
        code = await proc.wait(timeout=15)
        took = time.monotonic() - stopped_at
    finally:
        await proc.stop()
    assert code == 0, proc.output
    assert took < 10, took
    assert result.followups, "the hint in flight was answered"
    assert result.followups[0].flags & 64  # ephemeral, as a hint is
    stopped = [line for line in proc.output.splitlines() if "stopped on SIGTERM" in line]
    assert len(stopped) == 1 and "in flight all answered" in stopped[0], proc.output
    assert "Traceback" not in proc.output
    assert "\x1b[" not in proc.output  # plain log lines: the output is a pipe, not a terminal
    # nothing acknowledged is lost: the move is in the database the process closed
    with sqlite3.connect(tmp_path / "stop.sqlite3") as db:
        rows = db.execute("SELECT moves FROM games").fetchall()
    assert rows == [("85",)], rows
    print(f"stopped {took:.2f} s after SIGTERM")
    fake.take_violations()


async def test_a_second_signal_stops_at_once(fake_discord, tmp_path):
    fake = fake_discord
    proc = BotProcess(fake, db_path=tmp_path / "twice.sqlite3", env={"BOULANGER_HINT_SECONDS": "6"})
    try:
        await proc.start()
        alice = fake.add_user("alice")
        board = (await fake.slash(alice, "freecell", {"code": SLOW})).message
        hint = asyncio.create_task(
            fake.click(alice, board, button(fake.message(board.id), "i"), wait="ack", timeout=15)
        )
        await hint
        proc.process.send_signal(signal.SIGTERM)
        await asyncio.sleep(0.3)
        proc.process.send_signal(signal.SIGINT)
        try:
            code = await proc.wait(timeout=5)
        except TimeoutError:
            raise AssertionError(proc.output) from None
    finally:
        await proc.stop()
    assert code == 128 + signal.SIGINT
    assert "SIGINT again: stopping at once" in proc.output
    fake.take_violations()
