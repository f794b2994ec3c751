"""The fake Discord itself: the real discord.py connects, syncs, answers, and is held to Discord's rules."""

from __future__ import annotations

import asyncio
import contextlib
import json

import aiohttp
import discord
import pytest
from discord.http import Route

from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.demo_bot import make_bot


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord):
    """The demo bot, in this process, connected to `fake` until the block ends."""
    bot = make_bot(fake.guild.id)
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_until_ready()
        # The fake has sent READY and the guild; the client may not have read them yet (on
        # Python 3.13 it often has not): its cache is what the tests use.
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


class RawBot:
    """A bare gateway + REST client that answers nothing by itself, for protocol-level checks."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.events: asyncio.Queue[dict] = asyncio.Queue()

    async def __aenter__(self) -> RawBot:
        self.session = aiohttp.ClientSession(headers={"Authorization": f"Bot {self.fake.token}"})
        self.ws = await self.session.ws_connect(self.fake.gateway_url + "?v=10&encoding=json")
        hello = await self.ws.receive_json()
        assert hello["op"] == 10
        await self.ws.send_json({"op": 2, "d": {"token": self.fake.token, "intents": 1, "properties": {}}})
        self.reader = asyncio.create_task(self._read())
        await self.fake.wait_until_ready()
        app = self.fake.application_id
        await self.call(
            "PUT",
            f"/applications/{app}/guilds/{self.fake.guild.id}/commands",
            [
                {"name": "deal", "description": "Deal a board", "type": 1},
            ],
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.reader.cancel()
        await self.ws.close()
        await self.session.close()

    async def _read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data.get("t") == "INTERACTION_CREATE":
                await self.events.put(data["d"])

    async def call(self, method: str, path: str, body=None, **kw) -> tuple[int, dict | None]:
        async with self.session.request(method, self.fake.api_base + path, json=body, **kw) as response:
            text = await response.text()
            return response.status, (json.loads(text) if text else None)

    async def callback(self, interaction: dict, body: dict) -> tuple[int, dict | None]:
        return await self.call(
            "POST", f"/interactions/{interaction['id']}/{interaction['token']}/callback", body
        )


# -- connecting and syncing -------------------------------------------------------------------


async def test_discord_py_connects_gets_ready_and_sees_the_guild(fake_discord):
    async with running(fake_discord) as bot:
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        guild = bot.get_guild(fake_discord.guild.id)
        assert guild is not None and guild.name == "Test Guild"
        assert guild.get_channel(fake_discord.channel.id).name == "general"
        assert bot.user.id == fake_discord.bot_user.id
        assert bot.application_id == fake_discord.application_id
    assert fake_discord.identifies == 1


async def test_command_sync_is_stored_and_a_bad_command_name_is_refused(fake_discord):
    async with running(fake_discord) as bot:
        names = sorted(c["name"] for c in fake_discord.commands(fake_discord.guild))
        assert names == ["deal", "name", "pick", "secret", "slow", "think"]
        deal = next(c for c in fake_discord.commands(fake_discord.guild) if c["name"] == "deal")
        assert deal["options"][0]["name"] == "cells" and deal["options"][0]["max_value"] == 4
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.bulk_upsert_global_commands(
                bot.application_id, [{"name": "New Game", "description": "x", "type": 1}]
            )
    assert refused.value.status == 400 and refused.value.code == 50035
    [violation] = fake_discord.take_violations()
    assert "APPLICATION_COMMAND_INVALID_NAME" in violation.reason and "New Game" in violation.reason
    assert fake_discord.commands() == []  # nothing was stored


# -- answering --------------------------------------------------------------------------------


async def test_a_slash_command_gets_a_png_and_a_button_that_edits_the_message(fake_discord):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord):
        result = await fake_discord.slash(alice, "deal", {"cells": 2})
        assert (result.type, result.failed, result.ephemeral) == (4, False, False)
        assert result.content == "cells 2 moves 0"
        assert result.png().size == (40, 30) and result.png().getpixel((0, 0)) == (200, 0, 0)
        assert result.attachments[0].filename == "board.png"
        assert result.message.custom_ids() == ["demo:again", "demo:quiet", "demo:colour"]
        assert result.elapsed_ms is not None and result.elapsed_ms < 3000

        click = await fake_discord.click(alice, result.message, "demo:again")
        assert click.type == 7 and click.edited is result.message
        assert fake_discord.message(result.message.id).content == "edited 1"
        assert click.png().size == (30, 20)
        assert len(fake_discord.messages()) == 1  # edited in place, not a new message

        chosen = await fake_discord.select(alice, result.message, "demo:colour", ["green"])
        assert chosen.type == 6 and chosen.content == "colour green"

        quiet = await fake_discord.click(alice, result.message, "demo:quiet")
        assert quiet.type == 6 and quiet.edited is result.message
        assert quiet.content == "edited through the channel"


async def test_own_edits_tell_an_interactions_own_answer_from_another_route(fake_discord):
    """After a type 6 defer the pressed message is the reply's message: an edit of it by any
    route settles the press (``edits_after_ack``), only its own token's counts in ``own_edits``
    (benchmarks/bot.py counts a move acknowledged on that, not on a board someone else edited)."""
    alice = fake_discord.add_user("alice")
    async with running(fake_discord):
        result = await fake_discord.slash(alice, "deal", {"cells": 2})
        click = await fake_discord.click(alice, result.message, "demo:again")  # type 7
        chosen = await fake_discord.select(alice, result.message, "demo:colour", ["green"])  # 6 + token
        quiet = await fake_discord.click(alice, result.message, "demo:quiet")  # 6 + channel edit
    assert (click.type, click.own_edits) == (7, 1)
    assert (chosen.type, chosen.own_edits) == (6, 1)
    assert (quiet.type, quiet.state.edits_after_ack, quiet.own_edits) == (6, 1, 0)
    assert quiet.edited is result.message and not quiet.ephemeral  # what the old count went by


async def test_an_ephemeral_reply_is_visible_only_to_its_user(fake_discord):
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    async with running(fake_discord):
        result = await fake_discord.slash(alice, "secret")
    assert result.ephemeral and result.content == "only you see this"
    assert fake_discord.messages() == []
    assert fake_discord.messages(user=alice) == [result.message]
    assert fake_discord.messages(user=bob) == []


async def test_a_thinking_defer_is_settled_by_its_first_followup(fake_discord):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord):
        result = await fake_discord.slash(alice, "think")
    assert result.type == 5 and result.content == "thought about it"
    assert result.followups == [result.message] and not result.message.loading
    assert result.elapsed_ms > result.ack_ms


async def test_global_commands_work_in_the_bots_dm(fake_discord):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord) as bot:
        with pytest.raises(LookupError, match="DMs"):
            await fake_discord.slash(alice, "deal", dm=True)  # synced to the guild only, so far
        await bot.tree.sync()
        result = await fake_discord.slash(alice, "deal", {"cells": 3}, dm=True)
        assert result.content == "cells 3 moves 0" and result.message.guild_id is None
        click = await fake_discord.click(alice, result.message, "demo:again")
    assert click.content == "edited 1"
    assert fake_discord.messages() == []  # nothing in #general
    assert fake_discord.messages(result.message.channel_id) == [result.message]


async def test_autocomplete_returns_the_bots_choices(fake_discord):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord):
        choices = await fake_discord.autocomplete(alice, "pick", {"fruit": "ap"}, focused="fruit")
        assert choices == [{"name": "Apple", "value": "apple"}, {"name": "Apricot", "value": "apricot"}]
        picked = await fake_discord.slash(alice, "pick", {"fruit": "cherry"})
        assert picked.content == "picked cherry"


async def test_a_modal_is_opened_and_its_submission_answered(fake_discord):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord):
        opened = await fake_discord.slash(alice, "name")
        assert opened.type == 9 and opened.modal["title"] == "Your name"
        submitted = await fake_discord.submit_modal(alice, opened, {"demo:who": "Bea"})
    assert submitted.type == 4 and submitted.ephemeral and submitted.content == "hello Bea"


async def test_players_cannot_do_what_the_discord_client_would_not_let_them(fake_discord):
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    async with running(fake_discord):
        with pytest.raises(ValueError, match=r"outside 1\.\.4"):
            await fake_discord.slash(alice, "deal", {"cells": 5})
        with pytest.raises(LookupError, match="not registered"):
            await fake_discord.slash(alice, "nope")
        secret = await fake_discord.slash(alice, "secret")
        with pytest.raises(LookupError, match="ephemeral"):
            await fake_discord.click(bob, secret.message, "demo:again")
        dealt = await fake_discord.slash(alice, "deal")
        with pytest.raises(LookupError, match="no button 'demo:gone'"):
            await fake_discord.click(alice, dealt.message, "demo:gone")


# -- Discord's rules --------------------------------------------------------------------------


async def test_an_answer_after_three_seconds_gets_unknown_interaction(fake_discord):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord) as bot:
        result = await fake_discord.slash(alice, "slow", wait="ack")
        assert result.failed and result.type is None
        for _ in range(100):
            if bot.late_errors:
                break
            await asyncio.sleep(0.05)
    [error] = bot.late_errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    reasons = [v.reason for v in fake_discord.take_violations()]
    assert any("not acknowledged within 3 s" in r for r in reasons)
    assert any(r.startswith("10062 Unknown interaction") for r in reasons)
    assert fake_discord.messages() == []


async def test_one_interaction_can_be_acknowledged_only_once(fake_discord):
    async with RawBot(fake_discord) as raw:
        pending = asyncio.create_task(fake_discord.slash(fake_discord.owner, "deal"))
        interaction = await asyncio.wait_for(raw.events.get(), 5)
        assert (await raw.callback(interaction, {"type": 4, "data": {"content": "one"}}))[0] == 204
        status, error = await raw.callback(interaction, {"type": 4, "data": {"content": "two"}})
        assert (status, error["code"]) == (400, 40060)
        assert (await pending).content == "one"
    [violation] = fake_discord.take_violations()
    assert "40060" in violation.reason


async def test_tokens_expire_after_fifteen_minutes(fake_discord):
    async with RawBot(fake_discord) as raw:
        pending = asyncio.create_task(fake_discord.slash(fake_discord.owner, "deal", wait="ack"))
        interaction = await asyncio.wait_for(raw.events.get(), 5)
        await raw.callback(interaction, {"type": 5})
        await pending
        followup = f"/webhooks/{fake_discord.application_id}/{interaction['token']}?wait=true"
        assert (await raw.call("POST", followup, {"content": "in time"}))[0] == 200
        fake_discord.advance_clock(15 * 60 + 1)
        status, error = await raw.call("POST", followup, {"content": "too late"})
    assert (status, error["code"]) == (401, 50027)
    assert len(fake_discord.take_violations()) == 1


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (
            {
                "content": "x",
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": f"r{r}"}]}
                    for r in range(6)
                ],
            },
            "components: Must be 5 or fewer",
        ),
        (
            {
                "content": "x",
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "b", "custom_id": f"c{c}"} for c in range(6)
                        ],
                    }
                ],
            },
            "components/0/components: maxItems 5",
        ),
        ({"content": "x" * 2001}, "content: Must be 2000 or fewer"),
        ({"content": 5}, "OpenAPI schema: content"),
        (
            {
                "content": "x",
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "x" * 101}]}
                ],
            },
            "custom_id",
        ),
        (
            {
                "content": "x",
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "b", "custom_id": "same"},
                            {"type": 2, "style": 1, "label": "c", "custom_id": "same"},
                        ],
                    }
                ],
            },
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "MAX_EMBED_SIZE_EXCEEDED"),
        ({}, "50006 Cannot send an empty message"),
    ],
    ids=[
        "6-rows",
        "6-buttons",
        "2001-chars",
        "content-int",
        "long-custom-id",
        "dup-custom-id",
        "embeds-6000",
        "empty",
    ],
)
async def test_bodies_discord_refuses_are_refused_and_recorded(fake_discord, body, reason):
    async with RawBot(fake_discord) as raw:
        status, error = await raw.call("POST", f"/channels/{fake_discord.channel.id}/messages", body)
    assert status == 400 and error["code"] in (50035, 50006)
    [violation] = fake_discord.take_violations()
    assert reason in violation.reason
    assert fake_discord.messages() == []


async def test_discord_py_sees_the_refusal_of_six_action_rows(fake_discord):
    rows = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": f"r{r}"}]}
        for r in range(6)
    ]
    async with running(fake_discord) as bot:
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.request(
                Route("POST", "/channels/{channel_id}/messages", channel_id=fake_discord.channel.id),
                json={"content": "six rows", "components": rows},
            )
    assert refused.value.code == 50035 and "components" in str(refused.value)
    assert len(fake_discord.take_violations()) == 1


async def test_unknown_routes_and_wrong_callback_types_are_violations(fake_discord):
    async with RawBot(fake_discord) as raw:
        assert (await raw.call("GET", "/no/such/route"))[0] == 404
        pending = asyncio.create_task(fake_discord.slash(fake_discord.owner, "deal", wait="ack"))
        interaction = await asyncio.wait_for(raw.events.get(), 5)
        status, _ = await raw.callback(interaction, {"type": 7, "data": {"content": "no message to update"}})
        assert status == 400
        await raw.callback(interaction, {"type": 4, "data": {"content": "ok"}})
        await pending
    reasons = [v.reason for v in fake_discord.take_violations()]
    assert reasons[0].startswith("no such route") and "INTERACTION_CALLBACK_TYPE_INVALID" in reasons[1]


async def test_rate_limit_headers_are_sent_and_a_forced_429_is_retried(fake_discord):
    async with running(fake_discord) as bot:
        fake_discord.rate_limit(r"/channels/\d+/messages$", retry_after=0.05)
        message = await bot.get_channel(fake_discord.channel.id).send("hello")
    statuses = [r.status for r in fake_discord.requests if r.path.endswith("/messages")]
    assert statuses == [429, 200]
    assert fake_discord.message(message.id).content == "hello"


async def test_a_dropped_connection_resumes_and_gets_what_it_missed(fake_discord):
    alice = fake_discord.add_user("alice")
    async with running(fake_discord):
        first = await fake_discord.slash(alice, "deal")
        await fake_discord.disconnect(4000)
        result = await fake_discord.slash(alice, "deal", timeout=15)
        assert result.content == "cells 4 moves 0" and first.content == "cells 4 moves 0"
    assert fake_discord.resumes == 1 and fake_discord.identifies == 1


# -- a killed process ---------------------------------------------------------------------------


@pytest.mark.processes
async def test_a_killed_bot_is_replaced_and_the_old_button_still_works(fake_discord, tmp_path):
    alice = fake_discord.add_user("alice")
    bot = BotProcess(fake_discord, db_path=tmp_path / "unused.sqlite3", module="tests.fakediscord.demo_bot")
    try:
        await bot.start()
        dealt = await fake_discord.slash(alice, "deal")
        await bot.kill()
        assert bot.returncode == -9
        await bot.start()
        click = await fake_discord.click(alice, dealt.message, "demo:again")
    finally:
        await bot.stop()
    assert click.type == 7 and dealt.message.content == "edited 1"
    assert fake_discord.identifies == 2 and bot.starts == 2


async def test_an_attachment_over_the_size_limit_is_refused(fake_discord):
    async with RawBot(fake_discord) as raw:
        form = aiohttp.FormData()
        form.add_field(
            "payload_json", json.dumps({"content": "big", "attachments": [{"id": 0, "filename": "a.png"}]})
        )
        form.add_field("files[0]", b"\0" * (10 * 1024 * 1024 + 1), filename="a.png")
        status, error = await raw.call("POST", f"/channels/{fake_discord.channel.id}/messages", data=form)
    assert (status, error["code"]) == (413, 40005)
    assert "40005" in fake_discord.take_violations()[0].reason
    assert fake_discord.messages() == []


# -- the gateway and the token ------------------------------------------------------------------


async def test_heartbeats_are_acknowledged_and_an_unknown_session_cannot_resume(fake_discord):
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fake_discord.gateway_url + "?v=10&encoding=json") as ws,
    ):
        assert (await ws.receive_json())["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await ws.receive_json())["op"] == 11
        await ws.send_json({"op": 6, "d": {"token": fake_discord.token, "session_id": "gone", "seq": 3}})
        assert await ws.receive_json() == {"op": 9, "d": False}


async def test_a_wrong_token_is_rejected_like_discord_does(fake_discord):
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()
    async with aiohttp.ClientSession() as session, session.ws_connect(fake_discord.gateway_url) as ws:
        await ws.receive_json()
        await ws.send_json({"op": 2, "d": {"token": "not-the-token", "intents": 1, "properties": {}}})
        await ws.receive()
        assert ws.close_code == 4004
    assert fake_discord.identifies == 0


async def test_privileged_intents_need_the_portal_switch(fake_discord):
    client = discord.Client(intents=discord.Intents.all())
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await asyncio.wait_for(client.start(fake_discord.token), 10)
    await client.close()
    for _ in range(100):  # discord.py 2.6 gives up on the close code before the fake has noted why
        if fake_discord.violations:
            break
        await asyncio.sleep(0.02)
    [violation] = fake_discord.take_violations()
    assert "GUILD_MEMBERS" in violation.reason and "MESSAGE_CONTENT" in violation.reason
