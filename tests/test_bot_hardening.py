"""Issue 15, through the real bot as a process against the fake Discord: a lost database, secrets in logs.

The bot is ``python -m bot`` (``tests.fakediscord.BotProcess``): the database is a real SQLite
file, deleted while the bot runs; the log is its real output at ``LOG_LEVEL=DEBUG``.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakediscord import BotProcess

pytestmark = pytest.mark.processes  # every test here starts the bot or another program (tests/conftest.py)

REPO = Path(__file__).resolve().parent.parent
CODE = "BK1-C4-AAAAA24"


def button(message, action: str) -> str:
    return next(c for c in message.custom_ids() if c.split(":")[-1] == action)


async def test_a_deleted_database_stops_the_bot_and_is_not_recreated(fake_discord, tmp_path):
    fake = fake_discord
    db = tmp_path / "data" / "bot.sqlite3"
    proc = BotProcess(fake, db_path=db)
    try:
        await proc.start()
        assert "first run" in proc.output  # the first start says it creates the database
        alice = fake.add_user("alice")
        board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
        moved = await fake.click(alice, board, button(board, "6"))  # one press: A♦ home
        assert "Score 10" in moved.text()

        db.unlink()  # the file disappears under the running bot

        refused = await fake.click(alice, board, button(fake.message(board.id), "1"))  # 10♥ to a cell
        assert refused.ephemeral and "not saved" in refused.text()
        assert "lost its database" in refused.text()
        assert "column 1 to free cell" not in fake.message(board.id).text()  # not acknowledged
        assert await proc.wait(timeout=20) == 3
        assert "was deleted while the bot was using it" in proc.output
        assert "No move is acknowledged any more" in proc.output

        with pytest.raises(RuntimeError) as restart:  # a supervisor's restart
            await proc.start()
        assert "exited with 3" in str(restart.value)
        assert "--init" in proc.output.split("--- start #2 ---")[1]
        assert not db.exists()  # no empty database was created in its place
    finally:
        await proc.stop()


async def test_at_debug_no_token_reaches_the_log(fake_discord, tmp_path):
    fake = fake_discord
    proc = BotProcess(fake, db_path=tmp_path / "bot.sqlite3", log_level="DEBUG")
    try:
        await proc.start()
        alice = fake.add_user("alice")
        board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
        await fake.click(alice, board, button(board, "6"))  # one press: A♦ home
        await fake.click(alice, board, button(fake.message(board.id), "8"))  # and J♦ to a free cell
        hint = await fake.click(alice, board, button(fake.message(board.id), "i"))  # defer + webhook followup
        assert hint.followups or hint.message is not None
        await fake.slash(alice, "code")
        await asyncio.sleep(0.5)
    finally:
        await proc.stop()
    log = proc.output
    assert "WebSocket Event" in log and "/webhooks/" in log and "/callback" in log  # DEBUG did log them
    assert "objects of the start-up frozen out of the collector's way" in log  # bot.running.heap
    tokens = [state.token for state in fake._interactions.values()]
    assert len(tokens) >= 5
    leaked = [t for t in tokens if t in log]
    assert leaked == [], "interaction tokens in the log"
    assert fake.token not in log
    assert "[redacted]" in log


def run_bot(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOULANGER_", "DEV_GUILD"))}
    clean.update({"PYTHONPATH": str(REPO), "BOULANGER_DB": str(tmp_path / "x.sqlite3"), **env})
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=60
    )


def test_a_dotenv_in_the_current_directory_is_not_read(tmp_path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-the-wrong-directory\n")
    done = run_bot(tmp_path, {})
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr


def test_a_remote_api_base_is_refused_before_anything_is_sent(tmp_path):
    done = run_bot(
        tmp_path,
        {"DISCORD_TOKEN": "MTIz.secret.abc", "BOULANGER_DISCORD_API_BASE": "http://203.0.113.7/api/v10"},
    )
    assert done.returncode == 2
    assert "BOULANGER_DISCORD_API_BASE" in done.stderr and "not this machine" in done.stderr
    assert "MTIz.secret.abc" not in done.stdout + done.stderr
    assert not (tmp_path / "x.sqlite3").exists()
