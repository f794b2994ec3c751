"""The fake holds Components V2 messages (flag 1 << 15) to Discord's rules, on every route a bot
sends or edits a message through: a channel message and its edit, an interaction's reply (type 4)
and update (type 7), a followup, and an edit through the interaction's token."""

from __future__ import annotations

import asyncio
import io
import json

import aiohttp
import discord
import pytest

from tests.fakediscord import components_v2
from tests.fakediscord.demo_bot import png
from tests.fakediscord.models import IS_COMPONENTS_V2
from tests.test_fakediscord import RawBot

V2 = IS_COMPONENTS_V2


def text(content: str = "Status") -> dict:
    return {"type": 10, "content": content}


def gallery(url: str = "attachment://board.png", **item) -> dict:
    return {"type": 12, "items": [{"media": {"url": url}, **item}]}


def button(custom_id: str = "b:1", label: str = "Go") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*buttons: dict) -> dict:
    return {"type": 1, "components": list(buttons) or [button()]}


def container(*items: dict, accent: int | None = 0x2E7D32) -> dict:
    return {"type": 17, "accent_color": accent, "components": list(items)}


def card() -> dict:
    """A valid v2 body: one container with a text, the attached picture and a row of buttons."""
    return {"flags": V2, "components": [container(text(), gallery(), row(button()))]}


async def send(raw: RawBot, method: str, path: str, body: dict, files: dict[str, bytes] | None = None):
    """A JSON request, or multipart (`payload_json` + `files[n]`) when files are given."""
    if not files:
        return await raw.call(method, path, body)
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    for i, (name, data) in enumerate(files.items()):
        form.add_field(f"files[{i}]", data, filename=name, content_type="application/octet-stream")
    async with raw.session.request(method, raw.fake.api_base + path, data=form) as response:
        answer = await response.text()
        return response.status, (json.loads(answer) if answer else None)


PNG = png(4, 4, (0, 128, 0))
BOARD = {"board.png": PNG}


def _codes(body: dict, attachments: frozenset[str] = frozenset({"board.png"})) -> list[str]:
    found = components_v2.check_flag(body, None)
    found += components_v2.check_components(body.get("components") or [], set(attachments))
    return [p.code for p in found]


REFUSED = {
    "content": ({**card(), "content": "hello"}, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    "embeds": ({**card(), "embeds": [{"title": "t"}]}, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    "stickers": ({**card(), "sticker_ids": ["1"]}, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    "41-components": (
        {"flags": V2, "components": [container(*[text(str(i)) for i in range(40)])]},
        "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
    ),
    "41-nested-in-rows": (
        {"flags": V2, "components": [row(*[button(f"b{r}{i}") for i in range(5)]) for r in range(7)]},
        "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
    ),
    "unattached-picture": (
        {"flags": V2, "components": [gallery("attachment://other.png")]},
        "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
    ),
    "http-picture": ({"flags": V2, "components": [gallery("http://x.test/a.png")]}, "URL_TYPE_INVALID_URL"),
    "file-by-url": (
        {"flags": V2, "components": [{"type": 13, "file": {"url": "https://x.test/a.txt"}}]},
        "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED",
    ),
    "thumbnail-top-level": (
        {"flags": V2, "components": [{"type": 11, "media": {"url": "attachment://board.png"}}]},
        "UNION_TYPE_CHOICES",
    ),
    "container-in-container": (
        {"flags": V2, "components": [container(container(text()))]},
        "UNION_TYPE_CHOICES",
    ),
    "text-accessory": (
        {"flags": V2, "components": [{"type": 9, "components": [text()], "accessory": text("no")}]},
        "UNION_TYPE_CHOICES",
    ),
    "no-accessory": (
        {"flags": V2, "components": [{"type": 9, "components": [text()]}]},
        "BASE_TYPE_REQUIRED",
    ),
    "4-section-texts": (
        {"flags": V2, "components": [{"type": 9, "components": [text()] * 4, "accessory": button()}]},
        "BASE_TYPE_BAD_LENGTH",
    ),
    "empty-text": ({"flags": V2, "components": [text("")]}, "BASE_TYPE_BAD_LENGTH"),
    "4001-text": ({"flags": V2, "components": [text("x" * 4001)]}, "BASE_TYPE_BAD_LENGTH"),
    "4001-text-in-all": (
        {"flags": V2, "components": [text("x" * 2000), text("y" * 2001)]},
        "MESSAGE_COMPONENTS_V2_TEXT_TOO_LONG",
    ),
    "accent-too-high": (
        {"flags": V2, "components": [container(text(), accent=0x1000000)]},
        "NUMBER_TYPE_MAX",
    ),
    "accent-negative": ({"flags": V2, "components": [container(text(), accent=-1)]}, "NUMBER_TYPE_MAX"),
    "empty-gallery": ({"flags": V2, "components": [{"type": 12, "items": []}]}, "BASE_TYPE_BAD_LENGTH"),
    "11-pictures": (
        {
            "flags": V2,
            "components": [{"type": 12, "items": [{"media": {"url": "attachment://board.png"}}] * 11}],
        },
        "BASE_TYPE_BAD_LENGTH",
    ),
    "long-alt-text": ({"flags": V2, "components": [gallery(description="d" * 1025)]}, "BASE_TYPE_BAD_LENGTH"),
    "separator-spacing": ({"flags": V2, "components": [{"type": 14, "spacing": 3}]}, "BASE_TYPE_CHOICES"),
    "duplicate-ids": (
        {"flags": V2, "components": [{**text(), "id": 7}, {**text(), "id": 7}]},
        "COMPONENT_ID_DUPLICATED",
    ),
    "duplicate-custom-ids": (
        {"flags": V2, "components": [container(row(button("same")), row(button("same")))]},
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    "v2-without-flag": ({"components": [container(text())]}, "UNION_TYPE_CHOICES"),
}


@pytest.mark.parametrize(("body", "code"), REFUSED.values(), ids=REFUSED.keys())
def test_each_v2_rule_names_its_refusal(body, code):
    if body.get("flags"):
        assert code in _codes(body)
    else:  # without the flag, the classic rule refuses anything but action rows at the top
        from tests.fakediscord import limits

        assert code in [p.code for p in limits.check_message(body)]


def test_a_valid_card_breaks_no_rule():
    assert _codes(card()) == []
    thumbnail = {"type": 11, "media": {"url": "https://cdn.test/a.png"}, "description": "a picture"}
    section = {"type": 9, "components": [text("a"), text("b")], "accessory": thumbnail}
    forty = {"flags": V2, "components": [container(section, {"type": 14, "spacing": 2}, *[text()] * 34)]}
    assert _codes(forty) == []  # 40 exactly: container, section, its 2 texts and picture, separator, 34 texts


@pytest.mark.parametrize(("body", "code"), REFUSED.values(), ids=REFUSED.keys())
async def test_each_refusal_fires_on_a_channel_message(fake_discord, body, code):
    async with RawBot(fake_discord) as raw:
        status, error = await send(raw, "POST", f"/channels/{fake_discord.channel.id}/messages", body, BOARD)
    assert status == 400 and error["code"] == 50035
    [violation] = fake_discord.take_violations()
    assert code in json.dumps(error) or "OpenAPI schema" in violation.reason  # the schema refuses first
    assert fake_discord.messages() == []


async def test_a_v2_card_passes_on_every_route(fake_discord):
    channel = f"/channels/{fake_discord.channel.id}/messages"
    app = fake_discord.application_id
    async with RawBot(fake_discord) as raw:
        status, sent = await send(raw, "POST", channel, card(), BOARD)
        assert status == 200 and sent["flags"] & V2
        status, _ = await send(raw, "PATCH", f"{channel}/{sent['id']}", card(), BOARD)
        assert status == 200

        pending = asyncio.create_task(fake_discord.slash(fake_discord.owner, "deal"))
        command = await asyncio.wait_for(raw.events.get(), 5)
        path = f"/interactions/{command['id']}/{command['token']}/callback"
        status, _ = await send(raw, "POST", path, {"type": 4, "data": card()}, BOARD)
        assert status == 204
        reply = (await pending).message
        assert reply.is_v2 and reply.texts() == ["Status"] and reply.media()[0]["media"]["url"]

        hook = f"/webhooks/{app}/{command['token']}"
        status, _ = await send(raw, "PATCH", f"{hook}/messages/@original", card(), BOARD)
        assert status == 200
        status, followup = await send(raw, "POST", f"{hook}?wait=true", card(), BOARD)
        assert status == 200 and followup["flags"] & V2

        pressed = asyncio.create_task(fake_discord.click(fake_discord.owner, reply, "b:1"))
        press = await asyncio.wait_for(raw.events.get(), 5)
        path = f"/interactions/{press['id']}/{press['token']}/callback"
        status, _ = await send(raw, "POST", path, {"type": 7, "data": card()}, BOARD)
        assert status == 204
        assert (await pressed).message.is_v2
    assert fake_discord.violations == []


async def _classic_reply(raw: RawBot, fake) -> tuple[dict, object]:
    """A slash command answered the old way: content, a picture, a row of buttons."""
    pending = asyncio.create_task(fake.slash(fake.owner, "deal"))
    command = await asyncio.wait_for(raw.events.get(), 5)
    body = {"type": 4, "data": {"content": "old board", "components": [row(button())]}}
    await send(raw, "POST", f"/interactions/{command['id']}/{command['token']}/callback", body, BOARD)
    return command, (await pending).message


async def test_an_old_message_is_upgraded_only_with_its_content_cleared(fake_discord):
    async with RawBot(fake_discord) as raw:
        command, old = await _classic_reply(raw, fake_discord)
        hook = f"/webhooks/{fake_discord.application_id}/{command['token']}/messages/@original"
        status, error = await send(raw, "PATCH", hook, card(), BOARD)
        assert status == 400 and "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in json.dumps(error)
        assert not old.is_v2 and old.content == "old board"
        assert len(fake_discord.take_violations()) == 1

        pressed = asyncio.create_task(fake_discord.click(fake_discord.owner, old, "b:1"))
        press = await asyncio.wait_for(raw.events.get(), 5)
        path = f"/interactions/{press['id']}/{press['token']}/callback"
        status, _ = await send(raw, "POST", path, {"type": 7, "data": {**card(), "content": None}}, BOARD)
        assert status == 204
        await pressed
    assert old.is_v2 and old.content == "" and old.texts() == ["Status"]


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        ({"flags": 0, "components": [row(button())]}, "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"),
        ({"content": "plain again"}, "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"),
        ({"flags": V2, "content": "both"}, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
        ({"embeds": [{"title": "t"}]}, "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"),
    ],
    ids=["flags-0", "bare-content", "flag-and-content", "bare-embeds"],
)
async def test_the_flag_is_never_removed_by_any_edit(fake_discord, edit, code):
    channel = f"/channels/{fake_discord.channel.id}/messages"
    async with RawBot(fake_discord) as raw:
        _, sent = await send(raw, "POST", channel, card(), BOARD)
        routes = [("PATCH", f"{channel}/{sent['id']}")]
        command, reply = await _classic_reply(raw, fake_discord)
        hook = f"/webhooks/{fake_discord.application_id}/{command['token']}/messages/@original"
        pressed = asyncio.create_task(fake_discord.click(fake_discord.owner, reply, "b:1"))
        press = await asyncio.wait_for(raw.events.get(), 5)
        callback = f"/interactions/{press['id']}/{press['token']}/callback"
        await send(raw, "POST", callback, {"type": 7, "data": {**card(), "content": None}}, BOARD)
        await pressed
        routes.append(("PATCH", hook))
        for method, path in routes:
            status, error = await send(raw, method, path, edit)
            assert status == 400 and code in json.dumps(error), (path, error)
        pressed = asyncio.create_task(fake_discord.click(fake_discord.owner, reply, "b:1", wait="ack"))
        press = await asyncio.wait_for(raw.events.get(), 5)
        callback = f"/interactions/{press['id']}/{press['token']}/callback"
        status, error = await send(raw, "POST", callback, {"type": 7, "data": edit})
        assert status == 400 and code in json.dumps(error)
        await send(raw, "POST", callback, {"type": 6})
        await pressed
    assert len(fake_discord.take_violations()) == 3
    assert all(m.is_v2 for m in fake_discord.messages())


async def test_discord_py_layout_views_pass_and_its_flag_removal_is_refused(fake_discord):
    """The real client's own payloads: a LayoutView with an attached picture, sent then edited."""
    from discord.ext import commands

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    task = asyncio.create_task(bot.start(fake_discord.token))
    try:
        await fake_discord.wait_until_ready()
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        channel = await bot.fetch_channel(fake_discord.channel.id)
        view = discord.ui.LayoutView()
        view.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("Moves 0"),
                discord.ui.MediaGallery(
                    discord.MediaGalleryItem("attachment://board.png", description="alt")
                ),
                discord.ui.ActionRow(discord.ui.Button(label="Go", custom_id="lv:go")),
                accent_colour=discord.Colour(0x2E7D32),
            )
        )
        sent = await channel.send(view=view, file=discord.File(io.BytesIO(PNG), "board.png"))
        await sent.edit(view=view)
        with pytest.raises(discord.HTTPException) as refused:
            await sent.edit(content="plain")
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)
    # discord.py keeps the message's flags in the edit: content beside the flag is what is refused
    assert refused.value.code == 50035 and "IS_COMPONENTS_V2" in str(refused.value)
    assert len(fake_discord.take_violations()) == 1
    [message] = fake_discord.messages()
    assert message.is_v2 and message.texts() == ["Moves 0"] and message.attachments[0].filename == "board.png"
