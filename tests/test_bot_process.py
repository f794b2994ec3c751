"""``python -m bot`` as a real process: SIGKILL and restart, start-up errors, no token in logs."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from tests.fakediscord import BotProcess

REPO = Path(__file__).resolve().parent.parent

CODE = "BK1-C4-AAAAA24"


def button(message, action: str) -> str:
    return next(c for c in message.custom_ids() if c.split(":")[-1] == action)


async def test_killed_bot_restarts_and_the_old_buttons_still_work(fake_discord, bot_process):
    fake = fake_discord
    await bot_process.start()
    alice = fake.add_user("alice")
    board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
    await bot_process.kill()
    await bot_process.start()
    result = await fake.click(alice, board, button(fake.message(board.id), "h"))  # Home: A♦
    assert result.edited is not None and result.edited.id == board.id
    assert "A♦ from column 6 home" in result.text() and "Score 10" in result.text()
    await bot_process.kill()
    await bot_process.start()
    again = await fake.click(alice, board, button(fake.message(board.id), "8"))
    assert "J♦ from column 8 to free cell a" in again.text()
    assert fake.token not in bot_process.output


async def test_a_bot_without_voice_logs_no_voice_warnings(fake_discord, bot_process):
    """discord.py warns at every client's creation that PyNaCl and davey (voice) are missing;
    this bot has no voice, so the warnings would only send an operator looking for a fault."""
    import importlib.util

    # With either installed discord.py would not warn at all, and this test would prove nothing.
    assert importlib.util.find_spec("nacl") is None and importlib.util.find_spec("davey") is None
    await bot_process.start()
    await fake_discord.slash(fake_discord.add_user("alice"), "boulanger", {"code": CODE})
    assert "discord.client: logging in using static token" in bot_process.output  # its log is here
    assert "voice will NOT be supported" not in bot_process.output, bot_process.output


@pytest.mark.processes
async def test_daily_post_is_not_doubled_by_a_crash_and_restart(fake_discord, tmp_path):
    fake = fake_discord
    proc = BotProcess(fake, db_path=tmp_path / "d.sqlite3", env={"BOULANGER_DAILY_CHECK_SECONDS": "0.2"})
    try:
        await proc.start()
        admin = fake.add_user("admin")
        fake.add_member(admin, manage_guild=True)
        await fake.slash(admin, "dailychannel", {"channel": fake.channel})
        await fake.wait_for_message(fake.channel, lambda m: "Daily challenge" in m.text())
        await proc.kill()
        await proc.start()
        await asyncio.sleep(1.0)  # several scheduler rounds after the restart
        posts = [m for m in fake.messages(fake.channel) if "Daily challenge" in m.text()]
        assert len(posts) == 1
    finally:
        await proc.stop()


def run_bot(tmp_path: Path, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOULANGER_", "DEV_GUILD"))}
    clean.update({"PYTHONPATH": str(REPO), "BOULANGER_DB": str(tmp_path / "x.sqlite3"), **env})
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.processes
def test_missing_token_says_what_to_set(tmp_path):
    done = run_bot(tmp_path, {})
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr and ".env" in done.stderr


@pytest.mark.processes
async def test_rejected_token_exits_with_a_clear_message_and_never_logs_it(fake_discord, tmp_path):
    secret = "MTIz.not-the-right-token.abc"
    env = {**fake_discord.env(), "DISCORD_TOKEN": secret}
    done = await asyncio.to_thread(run_bot, tmp_path, env)
    assert done.returncode == 2
    assert "rejected DISCORD_TOKEN" in done.stderr
    assert secret not in done.stdout + done.stderr
    fake_discord.take_violations()


@pytest.mark.processes
def test_unreachable_discord_is_a_clear_message_not_a_traceback(tmp_path):
    import socket

    with socket.socket() as probe:  # a local port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        "DISCORD_TOKEN": "MTIz.some-token.abc",
        "BOULANGER_DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "BOULANGER_DISCORD_GATEWAY": f"ws://127.0.0.1:{port}/gateway",
    }
    done = run_bot(tmp_path, env)
    assert done.returncode == 4, done.stderr
    assert "Could not reach Discord" in done.stderr
    assert "Traceback" not in done.stderr
    assert "MTIz.some-token.abc" not in done.stdout + done.stderr


def test_token_from_dotenv_file_is_read(tmp_path):
    from bot.running.config import load_config

    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\n")
    old = os.environ.pop("DISCORD_TOKEN", None)
    try:
        config = load_config(env_file=tmp_path / ".env")
        assert config.token == "from-dotenv"
        assert "from-dotenv" not in repr(config)
    finally:
        os.environ.pop("DISCORD_TOKEN", None)
        if old is not None:
            os.environ["DISCORD_TOKEN"] = old


@pytest.mark.processes
async def test_sync_command_registers_global_commands_and_exits(fake_discord, tmp_path):
    env = {**fake_discord.env()}
    done = await asyncio.to_thread(run_bot_args, tmp_path, env, ["sync"])
    assert done.returncode == 0, done.stderr
    names = {c["name"] for c in fake_discord.commands()}
    assert {"boulanger", "calculation", "move", "daily", "leaderboard"} <= names
    assert fake_discord.commands(fake_discord.guild) == []  # no DEV_GUILD_ID: nothing per guild


def run_bot_args(tmp_path: Path, env: dict[str, str], args: list[str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOULANGER_", "DEV_GUILD"))}
    clean.update({"PYTHONPATH": str(REPO), "BOULANGER_DB": str(tmp_path / "x.sqlite3"), **env})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.processes
async def test_unusable_database_is_a_clear_start_up_error(fake_discord, tmp_path):
    env = {**fake_discord.env(), "BOULANGER_DB": str(tmp_path)}  # a directory, not a database file
    done = await asyncio.to_thread(run_bot_args, tmp_path, env, [])
    assert done.returncode == 3
    assert "cannot be used" in done.stderr and str(tmp_path) in done.stderr
    assert fake_discord.token not in done.stdout + done.stderr


def _peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise LookupError("VmHWM")


async def test_the_owners_replay_of_a_2000_action_win_stays_small_in_memory_and_upload(
    fake_discord, bot_process
):
    """Issue 15: a long win (a card shuttled ~1,900 times, then the solution) replayed by its owner."""
    import io

    from PIL import Image

    import storage
    from bot.games.bakers import shipped_winnable
    from engine.solver import solve

    fake = fake_discord
    await bot_process.start()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
    await fake.slash(alice, "boulanger", {"code": code})
    game = engine.new_game(code)
    solution = solve(engine.new_game(code), time_limit=20).moves
    shuttle = [solution[0], "undo"] * ((2000 - len(solution)) // 2)
    for action in shuttle + solution:
        game.play(action)
    assert game.is_won and len(game.moves) >= 1990
    store = await storage.open_store(str(bot_process.db_path))  # a second process on the bot's file
    try:
        row = await store.active_game(alice.id, "bakers")
        await store.append_moves(
            row.id, row.version, list(game.moves), score=game.score, move_count=game.move_count, finish="won"
        )
    finally:
        await store.close()
    from tests.test_bot_guards import post_buttons

    message = await post_buttons(fake, [f"r:{row.id}"])  # the Replay button under the won board
    pid = bot_process.process.pid
    before = _peak_rss_mib(pid)
    stranger = await fake.click(bob, message, f"r:{row.id}", timeout=30)
    assert stranger.ephemeral  # only the player has it made
    made = await fake.click(alice, message, f"r:{row.id}", timeout=60)
    (shown,) = made.followups or await made.wait_followups(1, timeout=60)
    gif = shown.attachments[0]
    assert gif.filename == "replay.gif" and len(gif.data) < 8 * 2**20
    with Image.open(io.BytesIO(gif.data)) as im:
        assert im.n_frames <= 400
    grew = _peak_rss_mib(pid) - before
    print(f"replay of {len(game.moves)} actions: bot peak RSS {before:.0f} -> {before + grew:.0f} MiB")
    assert _peak_rss_mib(pid) < 200 and grew < 150, (before, grew)
