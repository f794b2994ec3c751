"""Slash commands in bg, id, nl and ru: the bot's real command tree through its translator."""

from __future__ import annotations

import importlib
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from bot.adapter.app import extensions
from bot.adapter.cogs.language import ENDONYMS
from bot.adapter.cogs.starting import start_commands
from bot.languages import command_translator, i18n_check
from bot.languages.command_translator import (
    DISCORD_TO_CATALOGUE,
    CatalogueTranslator,
    keys_for,
    localise,
    valid_name,
)
from tests.fakediscord.limits import check_commands, valid_command_name

LOCALES = sorted(DISCORD_TO_CATALOGUE)  # bg id nl ru — Discord has no Catalan


def bot_tree() -> app_commands.CommandTree:
    """Every slash command the bot registers, from every cog it loads."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    stand_in = SimpleNamespace(add_dynamic_items=lambda *items: None)
    for command in start_commands():  # the games' start commands, built from their records
        tree.add_command(command)
    for name in extensions():
        module = importlib.import_module(name)
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, commands.Cog) and obj.__module__ == name:
                for command in obj(stand_in).__cog_app_commands__:
                    tree.add_command(command)
    return tree


@pytest.fixture
async def payloads() -> list[dict[str, Any]]:
    tree = bot_tree()
    translator = CatalogueTranslator()
    return [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]


def options_of(command: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for option in command.get("options") or []:
        if option["type"] in (1, 2):
            out += options_of(option)
        else:
            out.append(option)
    return out


def test_the_tree_is_the_bots_whole_command_set():
    names = {c.name for c in bot_tree().get_commands()}
    assert {"boulanger", "calculation", "move", "daily", "leaderboard", "language", "serverlanguage"} <= names


async def test_every_localisation_passes_discords_limits(payloads):
    assert check_commands(payloads) == []
    for command in payloads:
        for text in (command.get("name_localizations") or {}).values():
            assert valid_command_name(text) and text == text.lower() and " " not in text
        for text in (command.get("description_localizations") or {}).values():
            assert 1 <= len(text) <= 100
        for option in options_of(command):
            for text in (option.get("name_localizations") or {}).values():
                assert valid_command_name(text) and len(text) <= 32
            for text in (option.get("description_localizations") or {}).values():
                assert 1 <= len(text) <= 100


async def test_every_command_option_and_choice_is_localised(payloads):
    missing = []
    for command in payloads:
        name = command["name"]
        for field in ("name", "description"):
            got = set(command.get(f"{field}_localizations") or {})
            missing += [f"/{name} {field} {loc}" for loc in LOCALES if loc not in got]
        for option in options_of(command):
            got = set(option.get("name_localizations") or {})
            missing += [f"/{name} {option['name']} name {loc}" for loc in LOCALES if loc not in got]
            if option["description"] != "…":  # no description of its own: Discord shows "…"
                got = set(option.get("description_localizations") or {})
                missing += [
                    f"/{name} {option['name']} description {loc}" for loc in LOCALES if loc not in got
                ]
            for choice in option.get("choices") or []:
                if str(choice["value"]).isdigit() or choice["value"] in ENDONYMS:
                    continue  # numbers, and languages named in themselves
                got = set(choice.get("name_localizations") or {})
                missing += [
                    f"/{name} {option['name']} {choice['value']} {loc}" for loc in LOCALES if loc not in got
                ]
    assert missing == []


async def test_russian_localisations_are_the_catalogues(payloads):
    by_name = {c["name"]: c for c in payloads}
    move = by_name["move"]
    assert move["name_localizations"]["ru"] == "ход"
    assert move["description_localizations"]["nl"].startswith("Speel een zet")
    (notation,) = move["options"]
    assert notation["name_localizations"] == {"bg": "запис", "id": "notasi", "nl": "notatie", "ru": "запись"}
    board = by_name["leaderboard"]
    period = next(o for o in board["options"] if o["name"] == "period")
    week = next(c for c in period["choices"] if c["value"] == "week")
    assert week["name_localizations"]["ru"] == "За эту неделю"
    assert "ca" not in move["name_localizations"]  # Discord has no Catalan locale


def test_the_english_reference_texts_match_the_code():
    """en.po's command.*/option.*/choice.* entries are what translators see: they must not drift."""
    english = {k: v[0] for k, v in i18n_check.messages("en").items()}
    drift = {}
    for command in bot_tree().walk_commands():
        (key,) = keys_for(Where.command_description, command)
        if english.get(key) != command.description:
            drift[key] = (english.get(key), command.description)
        for param in command.parameters:
            if param.description != "…":
                key = keys_for(Where.parameter_description, param)[0]
                if english.get(key) != param.description:
                    drift[key] = (english.get(key), param.description)
            for choice in param.choices:
                (key,) = keys_for(Where.choice_name, choice)
                if key in english and english[key] != choice.name:
                    drift[key] = (english[key], choice.name)
    assert drift == {}


def test_a_bad_translation_is_left_out_not_sent(monkeypatch):
    messages = {"command.move.name": "Make Move", "command.move.description": "x" * 101}
    monkeypatch.setattr(command_translator, "own_messages", lambda lang: messages)
    command = bot_tree().get_command("move")
    assert localise("ru", Where.command_name, command) is None
    assert localise("ru", Where.command_description, command) is None
    assert not valid_name("Make Move") and not valid_name("a" * 33) and valid_name("язык_сервера")


async def test_english_and_unknown_locales_get_no_localisation():
    translator = CatalogueTranslator()
    command = bot_tree().get_command("move")
    context = app_commands.TranslationContext(location=Where.command_name, data=command)
    string = app_commands.locale_str("move")
    assert await translator.translate(string, discord.Locale.american_english, context) is None
    assert await translator.translate(string, discord.Locale.french, context) is None
    assert await translator.translate(string, discord.Locale.russian, context) == "ход"


@pytest.mark.parametrize("lang", ["en", "bg", "ca", "id", "nl", "ru"])
def test_messages_name_commands_as_the_player_sees_them(lang):
    """A message says /<command> the way that language's players find it in Discord's menu."""
    tree = bot_tree()
    english = {c.name for c in tree.get_commands()}
    shown = set(english) if lang not in LOCALES else set()
    if lang in LOCALES:
        for command in tree.get_commands():
            shown.add(localise(lang, Where.command_name, command) or command.name)
    mentioned = set()
    for texts in i18n_check.messages(lang).values():
        for text in texts:
            mentioned |= set(re.findall(r"(?<![\w<:])/([^\W\d][\w-]*)", text))
    assert mentioned - shown == set()
    assert {"boulanger", "calculation"} <= mentioned
