"""Which game the Activity's page opens on (bot/activity/seats.py), in Debian's Chromium against
the real server and the fake Discord's instances: opened from a board ("Play on the cards" seats
the presser at the board's game in its channel, then Discord opens the page there), and a
desktop player popping the Activity out (Discord gives the page a new instance id): they come
back to their game and their table, not to an empty page."""

from __future__ import annotations

from bot.activity import rooms
from bot.adapter.cooldowns import Rate
from tests.activity_browser import open_page
from tests.activity_rig import activity_rig
from tests.test_activity_table import wait_text

PLENTY = {"move": Rate(1000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0), "room": Rate(1000, 1.0)}


async def shown(page) -> int:
    return int(await page.evaluate("window.boulanger.state.view.game.id"))


async def test_a_page_launched_from_a_board_opens_on_that_boards_game(fake_discord, tmp_path, browser):
    fake_discord.enable_activities()
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        board = await rig.start(token, "freecell", "FC1-C4-MS1")
        latest = await rig.start(token, "bakers", "BK1-C4-AAAAA24")  # her latest game
        # What the board's button does before answering with the launch callback (type 12):
        rig.server.seats.seat(ann.id, fake_discord.channel.id, board["game"]["id"])
        instance = fake_discord.open_activity(fake_discord.channel, ann)
        page = await open_page(browser, rig, ann, kind=None, instance=instance)
        assert await shown(page) == board["game"]["id"]
        assert await page.locator("#kind").input_value() == "freecell"
        # In another channel (no seat there) the page opens on her latest game.
        elsewhere = fake_discord.add_channel(fake_discord.guild, "elsewhere")
        other = fake_discord.open_activity(elsewhere, ann)
        page = await open_page(browser, rig, ann, kind=None, instance=other)
        assert await shown(page) == latest["game"]["id"]
        # A seat never shows another player's game: Bob seated at Ann's game gets his own.
        bob = fake_discord.add_user("bob")
        bobs = await rig.start(await rig.sign_in(bob), "bakers", "BK1-C4-AAAAA25")
        rig.server.seats.seat(bob.id, fake_discord.channel.id, board["game"]["id"])
        fake_discord.join_activity(instance, bob)
        page = await open_page(browser, rig, bob, kind=None, instance=instance)
        assert await shown(page) == bobs["game"]["id"]
        assert page.errors == []


async def test_a_popped_out_player_keeps_their_game_and_their_table(
    fake_discord, tmp_path, browser, monkeypatch
):
    monkeypatch.setattr(rooms, "SNAPSHOT_SECONDS", 0.2)
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
        ann_token = await rig.sign_in(ann)
        calc = await rig.start(ann_token, "calculation", "CA1-AAAAA24")
        await rig.start(ann_token, "bakers", "BK1-C4-AAAAA24")  # her latest
        await rig.start(await rig.sign_in(bob), "bakers", "BK1-C4-AAAAA25")
        first = fake_discord.launch_activity(fake_discord.channel, ann, bob)
        one = await open_page(browser, rig, ann, kind=None, instance=first)
        two = await open_page(browser, rig, bob, kind=None, instance=first)
        await one.select_option("#kind", "calculation")  # Ann plays Calculation here
        await one.wait_for_function(f"window.boulanger.state.view.game.id === {calc['game']['id']}")
        await wait_text(one, bob.id, "bob")
        await wait_text(two, ann.id, "ann")
        # Ann pops the Activity out: Discord reloads it in a new instance of the same channel.
        fake_discord.leave_activity(first, ann)
        second = fake_discord.launch_activity(fake_discord.channel, ann)
        await one.context.close()
        again = await open_page(browser, rig, ann, kind=None, instance=second)
        assert await shown(again) == calc["game"]["id"]  # her game, not her latest nor nothing
        await wait_text(again, bob.id, "bob")  # her table: Bob is still with her
        await wait_text(again, ann.id, "Calculation")
        await two.wait_for_timeout(2500)  # Bob's page polls again
        await wait_text(two, ann.id, "Calculation")  # and she is still at his table
        # Her own line at the table says what her board says.
        numbers = await again.locator("#numbers").text_content()
        assert (await again.locator("#room-players li.you .progress").text_content()).endswith(numbers)
        assert again.errors == [] and two.errors == []
