"""The fake's rule book: Discord's documented limits, the OpenAPI matching, and the standalone server."""

from __future__ import annotations

import asyncio
import json
import sys

import aiohttp
import pytest

from tests.fakediscord import limits
from tests.fakediscord.openapi import load_spec
from tests.fakediscord.server import FakeDiscord


@pytest.mark.parametrize("name", ["new", "jeu-du_boulanger", "coup2", "été", "नया", "ใหม่", "x" * 32, "日本"])
def test_valid_command_names(name):
    assert limits.valid_command_name(name)


@pytest.mark.parametrize("name", ["", "New", "new game", "x" * 33, "hé!", "a.b", "ÉTÉ"])
def test_invalid_command_names(name):
    assert not limits.valid_command_name(name)


def _command(**changes):
    command = {"name": "deal", "description": "Deal a board", "type": 1, "options": []}
    command.update(changes)
    return command


def _codes(problems):
    return [p.code for p in problems]


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (_command(description=""), "BASE_TYPE_BAD_LENGTH"),
        (_command(description="d" * 101), "BASE_TYPE_BAD_LENGTH"),
        (_command(name_localizations={"fr": "Donner"}), "APPLICATION_COMMAND_INVALID_NAME"),
        (_command(name_localizations={"fr-FR": "donner"}), "LOCALE_INVALID"),
        (_command(description_localizations={"de": "x" * 101}), "BASE_TYPE_BAD_LENGTH"),
        (
            _command(options=[{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            _command(
                options=[
                    {"type": 3, "name": "a", "description": "d"},
                    {"type": 3, "name": "b", "description": "d", "required": True},
                ]
            ),
            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
        ),
        (
            _command(
                options=[
                    {
                        "type": 3,
                        "name": "a",
                        "description": "d",
                        "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
                    }
                ]
            ),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            _command(options=[{"type": 3, "name": "Card", "description": "d"}]),
            "APPLICATION_COMMAND_INVALID_NAME",
        ),
    ],
    ids=[
        "empty-desc",
        "long-desc",
        "uppercase-localized-name",
        "bad-locale",
        "long-localized-desc",
        "26-options",
        "required-after-optional",
        "26-choices",
        "uppercase-option",
    ],
)
def test_command_rules(command, code):
    assert code in _codes(limits.check_commands([command]))


def test_a_good_command_with_a_subcommand_group_passes_and_duplicates_do_not():
    group = {
        "type": 2,
        "name": "daily",
        "description": "Daily challenge",
        "options": [{"type": 1, "name": "play", "description": "Play today's deal"}],
    }
    good = _command(options=[group], name_localizations={"fr": "donner", "hi": "नया"})
    assert limits.check_commands([good]) == []
    assert "APPLICATION_COMMANDS_DUPLICATE_NAME" in _codes(limits.check_commands([good, good]))


def test_autocomplete_choices_are_limited():
    assert limits.check_choices([{"name": "a", "value": "a"}] * 25) == []
    assert "BASE_TYPE_MAX_LENGTH" in _codes(limits.check_choices([{"name": "a", "value": "a"}] * 26))
    assert "BASE_TYPE_BAD_LENGTH" in _codes(limits.check_choices([{"name": "", "value": "a"}]))
    assert "BASE_TYPE_MAX_LENGTH" in _codes(limits.check_choices([{"name": "a", "value": "v" * 101}]))
    wrong_type = "APPLICATION_COMMAND_OPTION_CHOICE_TYPE_INVALID"
    assert wrong_type in _codes(limits.check_choices([{"name": "a", "value": 3}], option_type=3))
    assert wrong_type in _codes(limits.check_choices([{"name": "a", "value": "3"}], option_type=4))
    assert limits.check_choices([{"name": "a", "value": 3}], option_type=4) == []


def test_select_menus_and_buttons_are_limited():
    select = {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": str(i), "value": str(i)} for i in range(26)],
    }
    assert "BASE_TYPE_BAD_LENGTH" in _codes(limits.check_action_rows([{"type": 1, "components": [select]}]))
    button = {"type": 2, "style": 1, "custom_id": "b", "label": "x" * 81}
    assert "BASE_TYPE_MAX_LENGTH" in _codes(limits.check_action_rows([{"type": 1, "components": [button]}]))
    link = {"type": 2, "style": 5, "label": "site", "url": "https://example.org"}
    assert limits.check_action_rows([{"type": 1, "components": [link]}]) == []


def test_routes_match_by_path_template_preferring_literal_segments():
    spec = load_spec()
    original = spec.match("PATCH", "/webhooks/1/tok/messages/@original")
    assert original.template == "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert spec.match("PATCH", "/webhooks/1/tok/messages/22").params["message_id"] == "22"
    assert spec.match("PUT", "/applications/1/guilds/2/commands").template.endswith(
        "/guilds/{guild_id}/commands"
    )
    assert spec.match("DELETE", "/gateway") is None and spec.path_known("/gateway")
    assert spec.match("GET", "/nowhere") is None


def test_attachment_ids_as_integers_and_permissions_as_strings_are_accepted():
    spec = load_spec()
    callback = spec.match("POST", "/interactions/1/tok/callback")
    body = {"type": 4, "data": {"content": "x", "attachments": [{"id": 0, "filename": "a.png"}]}}
    assert spec.validate(callback, body) == []
    commands = spec.match("PUT", "/applications/1/commands")
    assert (
        spec.validate(commands, [{"name": "x", "description": "d", "default_member_permissions": "32"}]) == []
    )
    assert spec.validate(commands, [{"name": "x", "description": "d", "default_member_permissions": "lots"}])


@pytest.mark.processes
async def test_the_standalone_fake_prints_its_environment_and_serves_the_control_api():
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.fakediscord", "--port", "0", stdout=asyncio.subprocess.PIPE
    )
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 20)
        info = json.loads(line)
        assert info["env"]["DISCORD_TOKEN"] == "fake-token"
        assert info["env"]["BOULANGER_DISCORD_API_BASE"].endswith("/api/v10")
        async with aiohttp.ClientSession() as session:
            async with session.get(info["control"]) as response:
                state = await response.json()
            async with session.get(
                info["env"]["BOULANGER_DISCORD_API_BASE"] + "/gateway/bot",
                headers={"Authorization": "Bot fake-token"},
            ) as response:
                gateway = await response.json()
                assert response.headers["Content-Type"] == "application/json"
                assert response.headers["X-RateLimit-Remaining"] != "0"
        assert state["guild_id"] == info["guild_id"] and state["connected"] is False
        assert gateway["url"] == info["env"]["BOULANGER_DISCORD_GATEWAY"]
    finally:
        process.terminate()
        await process.wait()


async def test_subcommand_groups_arrive_nested_like_discord_sends_them():
    async with FakeDiscord() as fake:
        session = aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"})
        ws = await session.ws_connect(fake.gateway_url)
        await ws.receive_json()
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}})
        group = {
            "type": 2,
            "name": "daily",
            "description": "Daily",
            "options": [
                {
                    "type": 1,
                    "name": "play",
                    "description": "Play",
                    "options": [{"type": 3, "name": "game", "description": "g", "required": True}],
                }
            ],
        }
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        async with session.put(
            url, json=[{"name": "boulanger", "description": "B", "options": [group]}]
        ) as r:
            assert r.status == 200
        sent = asyncio.create_task(
            fake.slash(fake.owner, "boulanger daily play", {"game": "bakers"}, wait=False)
        )
        while True:
            event = await asyncio.wait_for(ws.receive_json(), 5)
            if event.get("t") == "INTERACTION_CREATE":
                break
        await sent
        await ws.close()
        await session.close()
        with pytest.raises(ValueError, match="needs a subcommand"):
            await fake.slash(fake.owner, "boulanger daily")
        fake.take_violations()  # the interaction was never answered: that is not what this test checks
    [option] = event["d"]["data"]["options"]
    assert (option["type"], option["name"]) == (2, "daily")
    assert option["options"][0]["options"] == [{"type": 3, "name": "game", "value": "bakers"}]
