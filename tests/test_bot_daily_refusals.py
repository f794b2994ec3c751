"""No invalid-request storms: the real bot against the fake Discord answering 403/404/503 on purpose."""

from __future__ import annotations

import asyncio

import pytest

from tests.test_bot_discord import running


def posts_to(fake, channel) -> list:
    return [r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{channel.id}/messages"]


@pytest.mark.parametrize(
    ("status", "code", "message"), [(403, 50001, "Missing Access"), (404, 10003, "Unknown Channel")]
)
async def test_a_refused_daily_channel_is_tried_once_and_the_admin_is_told(
    fake_discord, tmp_path, status, code, message
):
    fake = fake_discord
    channel = fake.add_channel(fake.guild, "daily")
    pattern = rf"^/channels/{channel.id}/messages$"
    fake.refuse(pattern, status=status, code=code, message=message, method="POST")
    admin, player = fake.add_user("admin"), fake.add_user("player")
    fake.add_member(admin, manage_guild=True)
    fake.add_member(player)
    async with running(fake, tmp_path / "bot.sqlite3") as bot:
        chosen = await fake.slash(admin, "dailychannel", {"channel": channel})
        told = await chosen.wait_followups(1)
        assert f"Discord refused the bot in <#{channel.id}>" in told[0].content
        assert str(status) in told[0].content and told[0].ephemeral
        await asyncio.sleep(1.5)  # 7 or so checks of the daily poster (every 0.2 s)
        assert len(posts_to(fake, channel)) == 1
        settings = await bot.store.guild_settings(fake.guild.id)
        assert settings.daily_disabled == f"{status} {message}"
        assert await bot.store.pending_daily_posts(bot.service.clock().date()) == []

        # The next /daily by an admin says so (privately); a player's /daily does not.
        daily = await fake.slash(admin, "daily", {"game": "bakers"}, timeout=30)
        assert any("Daily posts are stopped" in m.text() for m in await daily.wait_followups(1))
        other = await fake.slash(player, "daily", {"game": "bakers"}, timeout=30)
        await asyncio.sleep(0.3)
        assert not any("Daily posts are stopped" in m.text() for m in other.followups)

        # Fixed, and set again: posted at once, the note gone.
        fake.allow(pattern)
        await fake.slash(admin, "dailychannel", {"channel": channel})
        await fake.wait_for_message(channel, lambda m: "Daily challenge" in m.text())
        assert (await bot.store.guild_settings(fake.guild.id)).daily_disabled is None


async def test_a_server_error_is_retried_at_the_next_check(fake_discord, tmp_path):
    fake = fake_discord
    admin = fake.add_user("admin")
    fake.add_member(admin, manage_guild=True)
    fake.refuse(
        rf"^/channels/{fake.channel.id}/messages$", status=503, code=0, message="Unavailable", times=1
    )
    async with running(fake, tmp_path / "bot.sqlite3") as bot:
        await fake.slash(admin, "dailychannel", {"channel": fake.channel})
        await fake.wait_for_message(fake.channel, lambda m: "Daily challenge" in m.text())
        assert len(posts_to(fake, fake.channel)) == 2
        assert (await bot.store.guild_settings(fake.guild.id)).daily_disabled is None


async def test_many_invalid_requests_pause_the_daily_post_until_they_age_out(fake_discord, tmp_path):
    fake = fake_discord
    elsewhere = fake.add_channel(fake.guild, "elsewhere")
    fake.refuse(rf"^/channels/{elsewhere.id}/messages$")
    async with running(fake, tmp_path / "bot.sqlite3") as bot:
        counter = bot.invalid_requests
        counter.pause_at, counter.resume_at = 3, 0
        for _ in range(3):  # three 403s, seen by discord.py's HTTP client like any other
            with pytest.raises(Exception, match="Missing Access"):
                await bot.get_partial_messageable(elsewhere.id).send("x")
        assert counter.count() == 3 and counter.paused()
        await bot.store.set_guild_settings(fake.guild.id, daily_channel_id=fake.channel.id)
        await asyncio.sleep(1.0)  # the poster's checks come and go: paused
        assert posts_to(fake, fake.channel) == []
        counter.window = 0.001  # the 403s age out of the window
        await fake.wait_for_message(fake.channel, lambda m: "Daily challenge" in m.text())
        assert not counter.paused()


@pytest.mark.slow
async def test_a_channel_answering_5xx_holds_up_no_other_server_nor_dailychannel(fake_discord, tmp_path):
    """Issue 25: discord.py retries a 5xx for ~25 s; the poster holds no lock meanwhile."""
    fake = fake_discord
    slow = fake.add_guild("slow")
    slow_channel = slow.channels[0]
    fake.server_error(rf"^/channels/{slow_channel.id}/messages$", status=500, times=50, method="POST")
    admin = fake.add_user("admin")
    fake.add_member(admin, manage_guild=True)
    async with running(fake, tmp_path / "bot.sqlite3") as bot:
        await bot.store.set_guild_settings(slow.id, daily_channel_id=slow_channel.id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while not posts_to(fake, slow_channel):  # the poster is now inside discord.py's retries
            assert loop.time() < deadline
            await asyncio.sleep(0.05)
        began = loop.time()
        chosen = await fake.slash(admin, "dailychannel", {"channel": fake.channel}, timeout=5)
        assert not chosen.failed
        await fake.wait_for_message(fake.channel, lambda m: "Daily challenge" in m.text(), timeout=5)
        waited = loop.time() - began
        assert waited < 4, waited  # not the ~25 s of the other channel's retries
        assert len(posts_to(fake, slow_channel)) < 5  # still retrying there
