"""Every post that is not a board is a Components V2 card, through the real bot and the fake
Discord (which refuses what Discord refuses: tests/fakediscord/components_v2.py): the race's lobby,
standings and result, the daily post, leaderboards and /stats, in every context; and posts sent
in the old form (content or embeds and rows of buttons) keep working when pressed, redrawn as
cards where the press edits them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

import storage
from bot.adapter.cogs.race import RaceButton
from bot.adapter.layouts import Accent
from bot.languages.i18n import Translator
from bot.play.race_texts import message_text
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components_v2 import check_components
from tests.fakediscord.models import Message
from tests.test_bot_discord import eventually, running

V2 = 1 << 15


@pytest.fixture
async def bot(fake_discord: FakeDiscord, tmp_path: Path):
    async with running(
        fake_discord, tmp_path / "posts.sqlite3", race_edit_seconds=0.3, race_check_seconds=0.1
    ) as b:
        yield b


def assert_card(message: Message, accent: int) -> dict[str, Any]:
    """One accent-coloured container holding everything, no content or embeds: a v2 card."""
    assert message.is_v2 and message.content == "" and message.embeds == [], message
    [container] = message.components
    assert container["type"] == 17 and container["accent_color"] == accent
    assert message.texts()[0].startswith("## "), message.texts()  # its title
    return container


async def post_old_form(fake: FakeDiscord, body: dict[str, Any]) -> Message:
    """A message as the bot sent it before cards (content or an embed, rows of buttons)."""
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
        url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
        async with http.post(url, json=body) as response:
            assert response.status == 200, await response.text()
            return fake.message((await response.json())["id"])


def old_rows(*items: discord.ui.Item[Any]) -> list[dict[str, Any]]:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view.to_components()


def button_id(message: Message, prefix: str, suffix: str = "") -> str:
    return next(c for c in message.custom_ids() if c.startswith(prefix) and c.endswith(suffix))


async def test_a_race_lobby_its_standings_and_its_result_are_cards(fake_discord, bot):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = (await fake.slash(alice, "race", {"game": "bakers", "start_in": 5})).message
    container = assert_card(lobby, Accent.RACE)
    assert "Race: Jeu du Boulanger" in lobby.texts()[0] and f"<@{alice.id}>" in lobby.text()
    rows = [c for c in container["components"] if c["type"] == 1]
    assert [b["label"] for b in rows[0]["components"]] == ["Join", "Leave", "Start now", "Cancel"]
    race_id = int(button_id(lobby, "q:").split(":")[1])

    assert (await fake.click(bob, lobby, button_id(lobby, "q:", ":j"))).ephemeral
    await eventually(lambda: f"<@{bob.id}>" in fake.message(lobby.id).text(), timeout=5)
    assert (await fake.click(alice, lobby, button_id(lobby, "q:", ":s"))).ephemeral
    await bot.races.idle()
    await eventually(lambda: "Running" in fake.message(lobby.id).text(), timeout=5)
    running_card = fake.message(lobby.id)
    assert_card(running_card, Accent.RACE)
    assert [b["label"] for b in running_card.buttons()] == ["My board"]

    await bot.races.end(race_id)  # as at its time limit
    await eventually(lambda: any("nobody won" in m.text() for m in fake.messages(fake.channel)), timeout=5)
    (result,) = [m for m in fake.messages(fake.channel) if "nobody won" in m.text()]
    assert_card(result, Accent.RACE)
    assert "/boulanger code:BK1-C4-" in result.text() and len(result.buttons()) == 1
    played = await fake.click(bob, result, button_id(result, "qp:"))
    assert not played.failed and played.message.attachments  # Play this deal: a practice board
    await eventually(lambda: "Finished" in fake.message(lobby.id).text(), timeout=5)
    fake.assert_no_violations()


async def test_a_lobby_sent_in_the_old_form_works_and_is_redrawn_as_a_card(fake_discord, bot):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    new = (await fake.slash(alice, "race", {"game": "bakers", "start_in": 5})).message
    race_id = int(button_id(new, "q:").split(":")[1])
    race = await bot.store.get_race(race_id)
    tr = Translator("en")
    body = {
        "content": message_text(tr, await bot.races.view(race)),
        "components": old_rows(
            RaceButton(race_id, "j", "Join"),
            RaceButton(race_id, "l", "Leave"),
            RaceButton(race_id, "s", "Start"),
        ),
    }
    old = await post_old_form(fake, body)  # the lobby as it was posted before an upgrade
    await bot.store.set_race_message(race_id, old.id)
    joined = await fake.click(bob, old, f"q:{race_id}:j")
    assert joined.ephemeral and "You are in" in joined.text()
    await eventually(lambda: fake.message(old.id).is_v2, timeout=5)
    redrawn = fake.message(old.id)
    assert_card(redrawn, Accent.RACE)
    assert f"<@{bob.id}>" in redrawn.text() and "Start now" in [b["label"] for b in redrawn.buttons()]
    fake.assert_no_violations()


async def test_the_daily_post_is_a_card_and_an_old_posts_play_button_still_plays(fake_discord, bot):
    fake = fake_discord
    admin, player = fake.add_user("admin"), fake.add_user("player")
    fake.add_member(admin, manage_guild=True)
    await fake.slash(admin, "dailychannel", {"channel": fake.channel})
    post = await fake.wait_for_message(fake.channel, lambda m: "Daily challenge" in m.text())
    assert_card(post, Accent.DAILY)
    assert [b["label"] for b in post.buttons()] == [
        "Play Jeu du Boulanger",
        "Play Calculation",
        "Play FreeCell",
        "Play Klondike",
    ]
    assert "BK1-C4-" in post.text() and "<t:" in post.text()
    played = await fake.click(player, post, button_id(post, "d:"))
    assert not played.ephemeral and "daily challenge" in played.text() and played.attachments

    day = dt.date.today().strftime("%Y%m%d")
    old = await post_old_form(
        fake,
        {
            "content": "Daily challenge (before cards)",
            "components": [{"type": 1, "components": [_old_button(f"d:c:{day}", "Play Calculation")]}],
        },
    )
    again = await fake.click(player, old, f"d:c:{day}")
    assert not again.ephemeral and again.attachments and "daily challenge" in again.text()
    fake.assert_no_violations()


def _old_button(custom_id: str, label: str) -> dict[str, Any]:
    return {"type": 2, "style": 3, "label": label, "custom_id": custom_id}


async def test_a_leaderboard_is_a_card_and_an_old_embed_board_is_redrawn_when_paged(fake_discord, bot):
    fake = fake_discord
    alice = fake.add_user("alice")
    board = (await fake.slash(alice, "leaderboard", {"game": "bakers", "period": "week"})).message
    assert_card(board, Accent.LEADERBOARD)
    assert "best in this channel this week" in board.texts()[0]
    assert [b["label"] for b in board.buttons()] == ["◀", "▶"] and all(b["disabled"] for b in board.buttons())
    previous = button_id(board, "lb:", ":-1")
    page_one = previous.removesuffix(":-1") + ":0"

    old = await post_old_form(
        fake,
        {
            "embeds": [{"title": "Old board", "description": "1. someone", "footer": {"text": "Page 1/1"}}],
            "components": [{"type": 1, "components": [_old_button(page_one, "▶")]}],
        },
    )
    paged = await fake.click(alice, old, page_one)
    assert paged.edited is not None
    assert_card(fake.message(old.id), Accent.LEADERBOARD)
    assert "Old board" not in fake.message(old.id).text()

    races = (await fake.slash(alice, "leaderboard", {"game": "bakers", "period": "races"})).message
    assert_card(races, Accent.LEADERBOARD)
    fake.assert_no_violations()


async def test_stats_and_the_daily_board_are_cards_in_every_context(fake_discord, tmp_path):
    fake = fake_discord
    async with running(fake, tmp_path / "global.sqlite3", sync_global=True):
        await eventually(lambda: bool(fake.global_commands), timeout=10)  # DMs see global commands
        await _stats_and_daily_board_everywhere(fake)
    fake.assert_no_violations()


async def _stats_and_daily_board_everywhere(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    fake.install_app(alice)
    elsewhere = fake.add_guild("No bot here", bot=False)
    group = fake.add_group_dm("friends", alice)
    places: list[dict[str, Any]] = [{}, {"dm": True}, {"channel": group}, {"channel": elsewhere.channels[0]}]
    for where in places:
        stats = await fake.slash(alice, "stats", {"game": "bakers"}, **where)
        container = assert_card(stats.message, Accent.STATS)
        [section] = container["components"]
        assert section["type"] == 9 and section["accessory"]["type"] == 11
        assert section["accessory"]["media"]["url"].startswith("https://"), section
        assert "Played 0, won 0" in stats.text() and "alice" in stats.message.texts()[0]
    for where in places[1:]:  # no server board there: the daily board is everyone's
        daily = await fake.slash(alice, "leaderboard", {"game": "bakers"}, **where)
        assert_card(daily.message, Accent.LEADERBOARD)
        assert "everyone everywhere" in daily.text()


def _race(language: str, status: str) -> tuple[Translator, storage.RaceRow, Any]:
    from bot.play.races import RaceView, Standing

    started = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    race = storage.RaceRow(
        7, 50, 500, 900, "bakers", "4", "BK1-C4-AAAAA24", 10**18, language, status, started, started, 1800,
        started, started + dt.timedelta(minutes=30), started, 901, False,
    )  # fmt: skip
    players = [storage.RacePlayer(7, 10**18 + n, started, n + 1, n + 1) for n in range(25)]
    standings = [Standing(10**18 + n, "active", 40, 1234, 1799, 0, 100 + n) for n in range(25)]
    return Translator(language), race, RaceView(race, players, standings)


@pytest.mark.parametrize("language", ["en", "bg", "ca", "id", "nl", "ru"])
async def test_every_card_is_a_valid_layout_in_every_language(language):
    """25 players in the longest language still make a card Discord takes; its words are the
    language's own (nothing English left in the others). Async: discord.py 2.6 builds a view's
    futures on the running loop, as the bot always does."""
    from bot.adapter.cogs.daily import daily_post_card
    from bot.adapter.cogs.race import race_card, result_card

    codes = {
        "bakers": "BK1-C4-AAAAA24",
        "calculation": "CA1-AAAAA24",
        "freecell": "FC1-C4-MS5",
        "klondike": "KL1-D1-AAAAA24",
    }
    day = dt.date(2026, 12, 6)
    cards = {"daily": daily_post_card(Translator(language), day, codes)}
    for status in ("lobby", "running", "finished", "cancelled"):
        tr, race, view = _race(language, status)
        cards[status] = race_card(tr, race, view)
    tr, race, view = _race(language, "finished")
    cards["result"] = result_card(tr, race.id, view)
    for name, card in cards.items():
        payload = card.to_components()
        assert check_components(payload, set()) == [], (name, payload)
        assert card.has_components_v2(), name
        if language != "en":
            english = _english(name, day, codes)
            assert _texts(payload)[0] != _texts(english.to_components())[0], (name, _texts(payload))


def _english(name: str, day: dt.date, codes: dict[str, str]) -> discord.ui.LayoutView:
    from bot.adapter.cogs.daily import daily_post_card
    from bot.adapter.cogs.race import race_card, result_card

    if name == "daily":
        return daily_post_card(Translator("en"), day, codes)
    tr, race, view = _race("en", "finished" if name == "result" else name)
    return result_card(tr, race.id, view) if name == "result" else race_card(tr, race, view)


def _texts(components: list[dict[str, Any]]) -> list[str]:
    found: list[str] = []
    for item in components:
        if item.get("type") == 10:
            found.append(item["content"])
        found += _texts(item.get("components") or [])
    return found
