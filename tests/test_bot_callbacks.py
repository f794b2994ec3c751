"""A pressed board's update sent as one prebuilt request (bot.adapter.callbacks): the same
JSON discord.py would send, and Discord's refusals and failures answered as discord.py does."""

from __future__ import annotations

import io
from types import SimpleNamespace

import discord
import orjson
import pytest
from discord.webhook.async_ import interaction_message_response_params

from bot.adapter import callbacks
from bot.adapter.views import BoardView
from tests.test_bot_discord import button, eventually, running, start

CALLBACK = r"^/interactions/\d+/[^/]+/callback$"


@pytest.fixture
async def bot(fake_discord, tmp_path):
    async with running(fake_discord, tmp_path / "bot.sqlite3") as b:
        yield b


@pytest.fixture
def quick_retries(monkeypatch):
    waits: list[float] = []

    async def pause(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(callbacks, "pause", pause)
    return waits


def test_the_payload_is_discord_pys_key_for_key():
    components = [{"type": 1, "components": [{"type": 2, "style": 2, "label": "6", "custom_id": "g:1:0::6"}]}]
    for mentions in (discord.AllowedMentions.none(), None):
        theirs = interaction_message_response_params(
            type=discord.InteractionResponseType.message_update.value,
            content="**Jeu du Boulanger** · Score 10",
            view=BoardView(components),
            attachments=[discord.File(io.BytesIO(b"png"), filename="board.png", description="A board")],
            previous_allowed_mentions=mentions,
        )
        fake_interaction = SimpleNamespace(_state=SimpleNamespace(allowed_mentions=mentions))
        ours = callbacks.update_payload(
            fake_interaction,  # type: ignore[arg-type]
            content="**Jeu du Boulanger** · Score 10",
            components=components,
            filename="board.png",
            description="A board",
        )
        assert orjson.dumps(ours).decode() == theirs.multipart[0]["value"]  # same keys, same order


def test_the_body_is_one_multipart_form_with_the_payload_then_the_picture():
    body, content_type = callbacks.update_body(
        {"type": 7, "data": {"content": "x"}}, b"\x89PNG\r\n", "board.png"
    )
    boundary = content_type.removeprefix("multipart/form-data; boundary=")
    assert boundary and boundary != content_type
    parts = body.split(f"--{boundary}".encode())
    assert parts[0] == b"" and parts[-1] == b"--\r\n" and len(parts) == 4
    assert b'name="payload_json"' in parts[1] and parts[1].endswith(b'{"type":7,"data":{"content":"x"}}\r\n')
    assert b'name="files[0]"; filename="board.png"' in parts[2] and parts[2].endswith(b"\x89PNG\r\n\r\n")


async def test_a_press_is_answered_with_one_callback_without_asking_for_its_resource(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    fake_discord.requests.clear()
    result = await fake_discord.click(alice, board, button(board, "6"))
    assert not result.failed and result.type == 7 and not result.ephemeral
    assert "A♦ from column 6 home" in fake_discord.message(board.id).content
    (sent,) = [r for r in fake_discord.requests if r.path.endswith("/callback")]
    assert sent.method == "POST" and sent.status == 204 and sent.files == 1  # no with_response: 204
    assert sent.body["type"] == 7 and sent.body["data"]["attachments"][0]["filename"] == "board.png"
    assert sent.body["data"]["allowed_mentions"] == {"parse": []}  # the bot's own default
    assert fake_discord.take_violations() == []
    game = await bot.store.active_game(alice.id, "bakers")
    assert game.moves == ("6h",)


async def test_a_server_error_is_retried_and_the_move_shown_once(fake_discord, bot, quick_retries):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    fake_discord.server_error(CALLBACK, status=503, times=2)
    result = await fake_discord.click(alice, board, button(board, "6"))
    assert not result.failed and result.type == 7 and not result.ephemeral
    assert quick_retries == [1, 3]  # discord.py's waits: 1 + 2 × try seconds
    calls = [r for r in fake_discord.requests if r.path.endswith("/callback")]
    assert [r.status for r in calls[-3:]] == [503, 503, 204]
    assert (await bot.store.active_game(alice.id, "bakers")).moves == ("6h",)


async def test_a_rate_limit_through_discords_proxy_is_waited_out(fake_discord, bot, quick_retries):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    fake_discord.rate_limit(CALLBACK, retry_after=0.25)  # with the Via header Discord's proxy adds
    result = await fake_discord.click(alice, board, button(board, "6"))
    assert not result.failed and result.type == 7
    assert quick_retries == [0.25]
    assert "A♦ from column 6 home" in fake_discord.message(board.id).content


async def test_an_unknown_interaction_is_not_found_and_the_board_updated_another_way(fake_discord, bot):
    """A 404 (the interaction expired) raises discord.NotFound, as discord.py would: the move is
    saved and the board reaches the channel by an edit of its message."""
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    fake_discord.refuse(CALLBACK, status=404, code=10062, message="Unknown interaction", times=1)
    await fake_discord.click(alice, board, button(board, "6"), timeout=5)
    await eventually(lambda: "A♦ from column 6 home" in fake_discord.message(board.id).content)
    assert (await bot.store.active_game(alice.id, "bakers")).moves == ("6h",)
