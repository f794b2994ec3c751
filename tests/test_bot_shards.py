"""Sharding: shard settings, the fake's shards, and two bot processes splitting two shards on one database."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bot.running.config import ConfigError, shard_settings
from bot.running.sharding import shard_of
from tests.fakediscord import BotProcess, FakeDiscord

REPO = Path(__file__).resolve().parent.parent


# -- settings -------------------------------------------------------------------------------------


def test_shard_settings_accept_lists_and_ranges():
    assert shard_settings("", "") == (None, None)
    assert shard_settings("4", "") == (4, None)
    assert shard_settings("2", "0,1") == (2, (0, 1))
    assert shard_settings("8", "0-3") == (8, (0, 1, 2, 3))
    assert shard_settings("8", " 6, 0-2 ") == (8, (0, 1, 2, 6))
    assert shard_settings("2", "1") == (2, (1,))


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        ("", "0", "needs BOULANGER_SHARD_COUNT"),
        ("two", "", "whole number"),
        ("0", "", "between 1 and"),
        ("2", "2", "shard 2 does not exist"),
        ("4", "0-9", "shard 9 does not exist"),
        ("4", "3-1", "runs backwards"),
        ("4", "0,0", "twice"),
        ("4", "0;1", "like 0,1"),
        ("4", "-1", "like 0,1"),
    ],
)
def test_bad_shard_settings_say_what_is_wrong(count, ids, says):
    with pytest.raises(ConfigError, match=says):
        shard_settings(count, ids)


@pytest.mark.processes
def test_bad_shard_settings_stop_the_bot_at_start_up_with_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOULANGER_"))}
    env.update(
        {
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": "x",
            "BOULANGER_DB": str(tmp_path / "x.sqlite3"),
            "BOULANGER_SHARD_IDS": "0-1",
        }
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "BOULANGER_SHARD_IDS needs BOULANGER_SHARD_COUNT" in done.stderr
    assert "Traceback" not in done.stderr


# -- the fake's shards --------------------------------------------------------------------------


async def test_the_fake_serves_the_recommended_shard_count_and_places_guilds_on_shards():
    async with FakeDiscord(shards=3) as fake:
        import aiohttp

        async with (
            aiohttp.ClientSession() as http,
            http.get(
                f"{fake.api_base}/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}
            ) as response,
        ):
            body = await response.json()
        assert body["shards"] == 3 and body["url"] == fake.gateway_url
        for shard in range(3):
            guild = fake.add_guild(f"g{shard}", shard=(shard, 3))
            assert shard_of(guild.id, 3) == shard
        fake.assert_no_violations()


@pytest.mark.processes
async def test_one_process_without_settings_runs_discords_recommended_count(tmp_path):
    """Neither setting: the count and the gateway URL come from /gateway/bot (here 2 shards)."""
    async with FakeDiscord(shards=2) as fake:
        other = fake.add_guild("Other", shard=(1 - shard_of(fake.guild.id, 2), 2))
        proc = BotProcess(fake, db_path=tmp_path / "one.sqlite3", env={"SYNC_GLOBAL": "1"})
        try:
            await proc.spawn()
            ready = await _both_shards(fake)
            assert sorted(ready) == [(0, 2), (1, 2)]
            for guild in (fake.guild, other):
                alice = fake.add_user(f"alice-{guild.id}")
                result = await fake.slash(alice, "boulanger", {"code": CODE}, guild=guild)
                assert not result.failed and "Score 0" in result.text()
                assert result.state.shard == (shard_of(guild.id, 2), 2)
        finally:
            await proc.stop()
        fake.assert_no_violations()


async def _both_shards(fake: FakeDiscord, timeout: float = 40.0) -> list[tuple[int, int]]:
    """Wait until shards 0 and 1 (of 2) are connected and ready (the second IDENTIFYs ~5 s later)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        ready = [s.shard for s in fake.sessions.values() if s.connected and s.ready.is_set()]
        if len(ready) >= 2:
            return ready
        assert loop.time() < deadline, f"only {ready} connected"
        await asyncio.sleep(0.05)


# -- two processes, one database --------------------------------------------------------------

CODE = "BK1-C4-AAAAA24"


def button(message, action: str) -> str:
    for button in message.buttons():
        if button["custom_id"].split(":")[-1] == action:
            return str(button["custom_id"])
    raise LookupError(f"no button {action!r}")


def menu_id(message) -> str:
    return next(c["custom_id"] for c in message.walk() if c["type"] == 3)


async def press(fake: FakeDiscord, user, board, step):
    current = fake.message(board.id)
    if step.kind == "menu":
        result = await fake.select(user, current, menu_id(current), [step.value], timeout=20)
    else:
        result = await fake.click(user, current, button(current, step.value or "h"), timeout=20)
    assert not result.failed and not result.ephemeral, result.text()
    return result


@pytest.mark.processes
async def test_two_processes_split_two_shards_on_one_database(stores, tmp_path):
    """On SQLite (one file, two processes) and on PostgreSQL (one schema), the same test."""
    from bot.games.bakers import shipped_winnable
    from engine.solver import solve
    from tests.presses import presses

    fake = FakeDiscord(shards=2)
    await fake.start()
    db = tmp_path / "shared.sqlite3"
    common = {"BOULANGER_SHARD_COUNT": "2", "BOULANGER_DAILY_CHECK_SECONDS": "0.2"}
    if stores.backend == "sqlite":
        db = Path(stores.target)
    else:
        common["BOULANGER_DATABASE_URL"] = stores.target
    first = fake.guild if shard_of(fake.guild.id, 2) == 0 else fake.add_guild("Zero", shard=(0, 2))
    second = fake.add_guild("One", shard=(1, 2))
    guilds = {0: first, 1: second}
    procs = {
        0: BotProcess(fake, db_path=db, env={**common, "BOULANGER_SHARD_IDS": "0", "SYNC_GLOBAL": "1"}),
        1: BotProcess(fake, db_path=db, env={**common, "BOULANGER_SHARD_IDS": "1"}),
    }
    try:
        await procs[0].start()
        await procs[1].start()
        assert sorted(fake.identified_shards) == [(0, 2), (1, 2)]
        assert fake.command_syncs and all(
            where in ("global", fake.guild.id) for where, _ in fake.command_syncs
        )
        syncs = len(fake.command_syncs)

        # Each server's admin picks a daily channel: one post in each, whichever process sends it.
        for shard, guild in guilds.items():
            admin = fake.add_user(f"admin{shard}")
            fake.add_member(admin, guild, manage_guild=True)
            result = await fake.slash(admin, "dailychannel", {"channel": guild.channels[0]}, guild=guild)
            assert result.state.shard == (shard, 2) and not result.failed
        for guild in guilds.values():
            await fake.wait_for_message(guild.channels[0], lambda m: "Daily challenge" in m.text())

        # A player in each server starts a proven-winnable deal and plays part of it.
        code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
        steps = presses(code, solve(engine.new_game(code), time_limit=20).moves)
        half = len(steps) // 2
        players, boards = {}, {}
        for shard, guild in guilds.items():
            player = players[shard] = fake.add_user(f"player{shard}")
            started = await fake.slash(player, "boulanger", {"code": code}, guild=guild)
            assert started.state.shard == (shard, 2) and "Score 0" in started.text()
            boards[shard] = started.message
            for step in steps[:half]:
                result = await press(fake, player, boards[shard], step)
                assert result.state.shard == (shard, 2)  # delivered to the owning connection only
        for shard in guilds:  # each interaction was handled by the process owning its shard
            assert f"for user {players[shard].id}" in procs[shard].output
            assert f"for user {players[1 - shard].id}" not in procs[shard].output
        before_kill = fake.message(boards[1].id).text()

        # kill -9 shard 1's process mid-game, restart it: the acknowledged moves are there and the
        # buttons on its old message still work.
        await procs[1].kill()
        # While shard 1's process is down, a server on shard 1 gets a daily channel (set through
        # the database, as another process would): shard 0's poster posts it, claimed in storage.
        third = fake.add_guild("Also one", shard=(1, 2))
        store = await stores.open()
        await store.set_guild_settings(third.id, daily_channel_id=third.channels[0].id)
        await fake.wait_for_message(third.channels[0], lambda m: "Daily challenge" in m.text(), timeout=10)
        guilds[2] = third  # checked for exactly one post below
        await procs[1].start()
        assert fake.message(boards[1].id).text() == before_kill
        for shard, player in players.items():
            for step in steps[half:]:
                await press(fake, player, boards[shard], step)
            assert "Won in" in fake.message(boards[shard].id).text()
        assert len(fake.command_syncs) == syncs  # the restarted shard-1 process synced nothing

        await asyncio.sleep(1.0)  # several poster rounds in both processes, one after a restart
        for guild in guilds.values():
            posts = [m for m in fake.messages(guild.channels[0]) if "Daily challenge" in m.text()]
            assert len(posts) == 1, [m.text() for m in posts]
        fake.assert_no_violations()  # no interaction was acknowledged twice (40060), none expired
    finally:
        for proc in procs.values():
            await proc.stop()
        await fake.stop()
    store = await stores.open()
    for player in players.values():
        assert (await store.player_stats(player.id, "bakers")).won == 1


# -- caches another process can make stale -------------------------------------------------------


async def test_language_and_deck_choices_cached_here_expire_so_another_processs_change_is_seen(
    tmp_path, monkeypatch
):
    import storage
    from bot.languages import language

    now = [1000.0]
    monkeypatch.setattr(language, "_clock", lambda: now[0])
    path = str(tmp_path / "shared.sqlite3")
    here, there = await storage.open_store(path), await storage.open_store(path)  # two processes' stores
    try:
        guild = 123 << 22
        await language.set_user_choice(here, 7, "ru")
        await language.set_guild_language(here, guild, "nl")
        await language.set_user_deck(here, 7, "four")
        assert await language.user_deck(here, 7) == "four"
        assert await language.user_choice(here, 7) == "ru"
        assert await language.guild_language(here, guild) == "nl"
        await language.set_user_choice(there, 7, "bg")  # the other process changes both
        await language.set_guild_language(there, guild, None)
        await language.set_user_deck(there, 7, "two")
        now[0] += language.CACHE_SECONDS / 2
        assert await language.user_choice(here, 7) == "ru"  # still trusted: no query per click
        now[0] += language.CACHE_SECONDS
        assert await language.user_choice(here, 7) == "bg"
        assert await language.guild_language(here, guild) is None
        assert await language.user_deck(here, 7) == "two"
    finally:
        await here.close()
        await there.close()


# -- the invite link ------------------------------------------------------------------------------


@pytest.mark.processes
async def test_invite_prints_the_link_of_the_tokens_application_with_the_permissions_used(
    fake_discord, tmp_path
):
    import urllib.parse

    import discord

    from bot.running.invite import permissions

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOULANGER_", "DEV_GUILD"))}
    env.update({"PYTHONPATH": str(REPO), **fake_discord.env()})
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", "invite"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    links = [line for line in done.stdout.splitlines() if line.startswith("https://")]
    assert len(links) == 2  # the server install, then the user install
    url = urllib.parse.urlparse(links[0])
    query = urllib.parse.parse_qs(url.query)
    assert url.netloc == "discord.com" and url.path == "/oauth2/authorize"
    assert query["client_id"] == [str(fake_discord.application_id)]
    assert query["scope"] == ["bot applications.commands"] and query["integration_type"] == ["0"]
    user = urllib.parse.parse_qs(urllib.parse.urlparse(links[1]).query)
    assert user["client_id"] == [str(fake_discord.application_id)]
    assert user["scope"] == ["applications.commands"] and user["integration_type"] == ["1"]
    assert "permissions" not in user  # a user install asks for no permission
    expected = discord.Permissions(
        view_channel=True, send_messages=True, read_message_history=True, attach_files=True, embed_links=True
    )
    assert query["permissions"] == [str(expected.value)] == [str(permissions().value)]
    assert any(r.route == "/oauth2/applications/@me" for r in fake_discord.requests)
    assert fake_discord.token not in done.stdout + done.stderr


async def test_the_fake_gateway_gives_a_shard_its_guilds_only_and_refuses_a_bad_shard():
    import json

    import aiohttp

    async with FakeDiscord(shards=2) as fake:
        mine = fake.add_guild("Mine", shard=(1, 2))
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(fake.gateway_url) as ws:
                assert json.loads((await ws.receive()).data)["op"] == 10  # HELLO
                await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": [1, 2]}})
                ready = json.loads((await ws.receive()).data)
                assert ready["t"] == "READY" and ready["d"]["shard"] == [1, 2]
                listed = {int(g["id"]) for g in ready["d"]["guilds"]}
                assert mine.id in listed and all(shard_of(g, 2) == 1 for g in listed)
                created = json.loads((await ws.receive()).data)
                assert created["t"] == "GUILD_CREATE" and shard_of(int(created["d"]["id"]), 2) == 1
            async with http.ws_connect(fake.gateway_url) as ws:
                await ws.receive()
                await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": [2, 2]}})
                closed = await ws.receive()
                assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4010
        assert [v.reason for v in fake.take_violations()] == ["IDENTIFY with an invalid shard: [2, 2]"]
