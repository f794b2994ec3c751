"""``/language`` (a player's own choice) and ``/serverlanguage`` (admins: the server's shared posts).

Discord tells the bot each player's client language, but Catalan has none,
and some players want another language than their app's: a stored choice
overrides the client. The server language is for posts that belong to no
single player (the daily challenge, leaderboards in the channel).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

import storage
from bot.adapter.errors import send
from bot.languages.i18n import Translator
from bot.languages.language import set_user_deck
from bot.languages.locale import LANGUAGES, player_locale, set_guild_language, set_user_choice

if TYPE_CHECKING:
    from bot.adapter.app import BoulangerBot

# Each language named in itself, as language pickers do (these are not translated).
ENDONYMS = {
    "en": "English",
    "bg": "Български",
    "ca": "Català",
    "id": "Bahasa Indonesia",
    "nl": "Nederlands",
    "ru": "Русский",
}
AUTO = "auto"
NONE = "none"


def _choices(clear: str, clear_name: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=clear_name, value=clear)] + [
        app_commands.Choice(name=ENDONYMS[lang], value=lang) for lang in LANGUAGES
    ]


class Language(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot

    @property
    def store(self) -> storage.Store:
        return self.bot.service.store

    @app_commands.command(name="language", description="Choose the language the bot speaks to you")
    @app_commands.describe(language="Your language, or Automatic to follow your Discord app")
    @app_commands.choices(language=_choices(AUTO, "Automatic"))
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        chosen = None if language.value == AUTO else language.value
        await set_user_choice(self.store, interaction.user.id, chosen)
        tr = Translator(await player_locale(interaction, self.store))
        await send(interaction, tr("language.set" if chosen else "language.auto"), ephemeral=True)

    @app_commands.command(
        name="serverlanguage", description="Choose the language of this server's daily post and leaderboards"
    )
    @app_commands.describe(language="The server's language, or None to clear it")
    @app_commands.choices(language=_choices(NONE, "None"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def serverlanguage(
        self, interaction: discord.Interaction, language: app_commands.Choice[str]
    ) -> None:
        assert interaction.guild_id is not None
        chosen = None if language.value == NONE else language.value
        await set_guild_language(self.store, interaction.guild_id, chosen)
        tr = Translator(await player_locale(interaction, self.store))
        if chosen is None:
            await send(interaction, tr("language.server.cleared"), ephemeral=True)
        else:
            await send(interaction, tr("language.server.set", language=ENDONYMS[chosen]), ephemeral=True)

    @app_commands.command(name="settings", description="Your settings: the deck your boards are drawn with")
    @app_commands.describe(deck="Two colours (red and black suits) or four (one colour per suit)")
    @app_commands.choices(
        deck=[
            app_commands.Choice(name="Two colours", value="two"),
            app_commands.Choice(name="Four colours", value="four"),
        ]
    )
    async def settings(self, interaction: discord.Interaction, deck: app_commands.Choice[str]) -> None:
        chosen: storage.Deck = "four" if deck.value == "four" else "two"
        await set_user_deck(self.store, interaction.user.id, chosen)
        tr = Translator(await player_locale(interaction, self.store))
        await send(interaction, tr(f"settings.deck.{chosen}"), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Language(cast("BoulangerBot", bot)))
