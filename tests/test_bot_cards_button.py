"""The board's "Play on the cards" (issue 42 item 4) through the real bot (``BoulangerBot``, the
real discord.py client) against the fake Discord: the press seats its owner at the board's game
and answers with the launch callback (type 12), so the page Discord opens in that channel shows
that game; an app without Activities gets one private line and nothing changes; a bot not
serving the Activity shows no such button."""

from __future__ import annotations

from tests.activity_browser import open_page
from tests.test_bot_discord import eventually, running, start

CALCULATION = "CA1-AAAAA24"


def activity_settings(fake) -> dict:
    return {
        "activity": ("127.0.0.1", 0),
        "client_id": fake.application_id,
        "client_secret": fake.client_secret,
        "api_base": fake.api_base,
    }


def as_shown(fake, posted) -> tuple:
    message = fake.message(posted.message.id)
    return message.edits, message.text(), message.custom_ids()


def cards_id(message) -> str:
    (found,) = [cid for cid in message.custom_ids() if cid.startswith("k:")]
    return found


async def test_play_on_the_cards_opens_the_activity_on_that_boards_game(fake_discord, tmp_path, browser):
    fake_discord.enable_activities()
    async with running(fake_discord, tmp_path / "bot.sqlite3", **activity_settings(fake_discord)) as bot:
        ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
        posted = await start(fake_discord, ann)
        board = fake_discord.message(posted.message.id)
        custom_id = cards_id(board)
        game_id = int(custom_id.split(":")[1])
        latest = await fake_discord.slash(ann, "calculation", {"code": CALCULATION})  # her latest game
        assert not latest.failed and cards_id(fake_discord.message(latest.message.id)) != custom_id
        before = as_shown(fake_discord, posted)
        seats, channel = bot.activity_server.seats, fake_discord.channel.id

        # Bob cannot open Ann's game: the line every control of her board gives him.
        refused = await fake_discord.click(bob, board, custom_id)
        assert refused.type == 4 and refused.ephemeral and "not yours" in refused.content
        assert seats.game(bob.id, channel) is None and fake_discord.activity_instances == {}

        pressed = await fake_discord.click(ann, board, custom_id)
        assert pressed.type == 12 and not pressed.failed
        assert seats.game(ann.id, channel) == game_id
        instance = fake_discord.activity_instances[pressed.activity_instance]
        assert instance["location"]["channel_id"] == str(channel) and instance["users"] == [str(ann.id)]
        assert as_shown(fake_discord, posted) == before  # the board as it was

        class Rig:  # what open_page needs of a rig: the fake and the address
            fake = fake_discord
            url = f"http://127.0.0.1:{bot.activity_server.port}"

        page = await open_page(browser, Rig, ann, kind=None, instance=pressed.activity_instance)
        assert int(await page.evaluate("window.boulanger.state.view.game.id")) == game_id
        assert await page.locator("#kind").input_value() == "bakers"
        assert page.errors == []
    fake_discord.assert_no_violations()  # every card within Discord's limits (40 components)


async def test_an_app_without_activities_gets_one_private_line_and_nothing_changes(fake_discord, tmp_path):
    async with running(fake_discord, tmp_path / "bot.sqlite3", **activity_settings(fake_discord)) as bot:
        ann = fake_discord.add_user("ann")
        posted = await start(fake_discord, ann)
        before = as_shown(fake_discord, posted)
        pressed = await fake_discord.click(ann, posted.message, cards_id(posted.message))
        assert pressed.type == 4 and pressed.ephemeral
        assert pressed.content == "The cards cannot be opened here: keep playing with this board's buttons."
        assert bot.activity_server.seats.game(ann.id, fake_discord.channel.id) is None
        assert fake_discord.activity_instances == {}
        assert as_shown(fake_discord, posted) == before
        reasons = [v.reason for v in fake_discord.take_violations()]  # the refused callback
        assert len(reasons) == 1 and "Activities are not enabled" in reasons[0]
        # A finished game's board offers what comes after, not the cards.
        resigned = await fake_discord.slash(ann, "resign")
        assert not resigned.failed

        def finished() -> bool:
            kinds = {cid.split(":")[0] for cid in fake_discord.message(posted.message.id).custom_ids()}
            return "a" in kinds and "k" not in kinds

        await eventually(finished)
    fake_discord.assert_no_violations()


async def test_no_cards_button_where_the_activity_is_not_served(fake_discord, tmp_path):
    fake_discord.enable_activities()  # the app has one, but this bot does not serve it
    async with running(fake_discord, tmp_path / "bot.sqlite3"):
        ann = fake_discord.add_user("ann")
        posted = await start(fake_discord, ann)
        ids = fake_discord.message(posted.message.id).custom_ids()
        assert any(cid.startswith("g:") for cid in ids)
        assert not any(cid.startswith("k:") for cid in ids)
    fake_discord.assert_no_violations()
