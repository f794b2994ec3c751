"""The Activity beside the real discord.py bot against the fake Discord: the entry point command
survives every bulk sync (``python -m bot sync`` too), and a drag in the Activity's page edits
the chat board of the same game."""

from __future__ import annotations

import asyncio

import pytest

from bot.adapter import activity as activity_module
from bot.adapter.entry_point import PRIMARY_ENTRY_POINT
from tests.activity_browser import drag, open_page, settled, version
from tests.test_bot_discord import CODE, button, eventually, running, start
from tests.test_bot_process import run_bot_args


def entry_points(fake):
    return [c for c in fake.global_commands if c["type"] == PRIMARY_ENTRY_POINT]


async def test_the_fake_refuses_a_bulk_sync_that_drops_the_entry_point(fake_discord):
    import aiohttp

    fake_discord.enable_activities()
    url = f"{fake_discord.api_base}/applications/{fake_discord.application_id}/commands"
    body = [{"name": "ping", "description": "pong", "type": 1}]
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession() as http, http.put(url, json=body, headers=headers) as answer:
        assert answer.status == 400 and (await answer.json())["code"] == 50240
    fake_discord.take_violations()
    assert len(entry_points(fake_discord)) == 1


@pytest.mark.processes
async def test_the_entry_point_survives_python_m_bot_sync(fake_discord, tmp_path):
    (before,) = [fake_discord.enable_activities()]
    done = await asyncio.to_thread(run_bot_args, tmp_path, fake_discord.env(), ["sync"])
    assert done.returncode == 0, done.stderr
    (kept,) = entry_points(fake_discord)
    assert (kept["id"], kept["name"], kept["handler"]) == (before["id"], "launch", 2)
    assert {"boulanger", "calculation", "move"} <= {c["name"] for c in fake_discord.global_commands}
    # Synced again (a restart): still there, still one.
    done = await asyncio.to_thread(run_bot_args, tmp_path, fake_discord.env(), ["sync"])
    assert done.returncode == 0, done.stderr
    assert [c["id"] for c in entry_points(fake_discord)] == [before["id"]]


@pytest.mark.processes
async def test_a_bot_serving_the_activity_gives_an_application_without_one_an_entry_point(
    fake_discord, tmp_path
):
    env = {
        **fake_discord.env(),
        "BOULANGER_ACTIVITY": "127.0.0.1:1",  # `sync` never serves it: only the setting counts
        "DISCORD_CLIENT_SECRET": fake_discord.client_secret,
    }
    done = await asyncio.to_thread(run_bot_args, tmp_path, env, ["sync"])
    assert done.returncode == 0, done.stderr
    (made,) = entry_points(fake_discord)
    assert made["handler"] == 2 and made["name"] == "launch"


async def test_a_drag_in_the_activity_edits_the_chat_board(fake_discord, tmp_path, browser, monkeypatch):
    monkeypatch.setattr(activity_module, "EDIT_SECONDS", 0.2)
    settings = {
        "activity": ("127.0.0.1", 0),
        "client_id": fake_discord.application_id,
        "client_secret": fake_discord.client_secret,
        "api_base": fake_discord.api_base,
    }
    async with running(fake_discord, tmp_path / "bot.sqlite3", **settings) as bot:
        alice = fake_discord.add_user("alice")
        posted = await start(fake_discord, alice)
        board = fake_discord.message(posted.message.id)
        assert "0 moves" in board.text()

        class Rig:  # what open_page needs of a rig: the fake and the address
            fake = fake_discord
            url = f"http://127.0.0.1:{bot.activity_server.port}"

        page = await open_page(browser, Rig, alice)
        assert await page.evaluate("window.boulanger.state.view.game.code") == CODE
        before = await version(page)
        await drag(page, "6", "h")
        await settled(page, before)

        def edited() -> bool:
            message = fake_discord.message(posted.message.id)
            return "1 move" in message.text() and "A♦ from column 6" in message.text()

        await eventually(edited, timeout=5.0)
        message = fake_discord.message(posted.message.id)
        ids = message.custom_ids()
        assert any(":2:" in cid for cid in ids), ids  # its buttons are for the new version
        # And a press in the chat shows in the Activity (the page asks every few seconds).
        pressed = await fake_discord.click(alice, message, button(message, "u"))
        assert not pressed.failed
        await page.wait_for_function("window.boulanger.state.view.game.version === 3", timeout=10_000)
        assert (
            await page.locator('#table .pile[data-place="6"] .card').last.get_attribute("data-card") == "AD"
        )
        fake_discord.assert_no_violations()


async def test_a_race_from_an_activity_table_is_posted_in_its_channel_as_the_chats(fake_discord, tmp_path):
    """The table's race in the real bot: the race cog's keeper, its result posted in the instance's
    channel (Discord's word on where the table is) with every place, as after /race."""
    import aiohttp

    settings = {
        "activity": ("127.0.0.1", 0),
        "client_id": fake_discord.application_id,
        "client_secret": fake_discord.client_secret,
        "api_base": fake_discord.api_base,
        "race_check_seconds": 0.1,
    }
    async with (
        running(fake_discord, tmp_path / "bot.sqlite3", **settings) as bot,
        aiohttp.ClientSession() as http,
    ):
        url = f"http://127.0.0.1:{bot.activity_server.port}"
        ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
        instance = fake_discord.launch_activity(fake_discord.channel, ann, bob)

        async def call(user, path, body=None):
            async with http.post(
                f"{url}/api/token", json={"code": fake_discord.authorization_code(user)}
            ) as got:
                token = (await got.json())["access_token"]
            headers = {"Authorization": f"Bearer {token}"}
            request = (
                http.get(url + path, headers=headers)
                if body is None
                else http.post(url + path, json=body, headers=headers)
            )
            async with request as answer:
                return answer.status, await answer.json()

        for user in (ann, bob):
            assert (await call(user, f"/api/room?instance={instance}"))[0] == 200
        status, opened = await call(ann, "/api/room/race", {"instance": instance, "kind": "bakers"})
        assert status == 200, opened
        assert (await call(bob, "/api/room/join", {"instance": instance}))[0] == 200
        assert (await call(ann, "/api/room/start", {"instance": instance}))[0] == 200
        race_id = opened["race"]["id"]
        await bot.races.end(race_id)  # as at its time limit

        def posted():
            return [
                m
                for m in fake_discord.messages(fake_discord.channel)
                if f"<@{bob.id}>" in m.text() and f"<@{ann.id}>" in m.text()
            ]

        await eventually(lambda: bool(posted()), timeout=5.0)
        (result,) = posted()
        assert (await bot.store.get_race(race_id)).result_message_id == result.id
        fake_discord.assert_no_violations()
