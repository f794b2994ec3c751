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
from bot.adapter import places
from bot.adapter.errors import send
from bot.languages.i18n import Translator, t
from bot.languages.language import set_user_deck, set_warns_lost, user_deck, warns_lost
from bot.languages.locale import LANGUAGES, player_locale, set_guild_language, set_user_choice
from bot.play import game_settings

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


def _game_setting_choices() -> list[app_commands.Choice[str]]:
    """Every registered game's own settings, each value one choice (its English name from its
    front's catalogue; the other languages through the command translator, ``choice.<value>``)."""
    choices = [
        app_commands.Choice(name=t("en", f"choice.{c.token}"), value=c.token)
        for c in game_settings.every_choice()
    ]
    assert len(choices) <= 25, "Discord offers at most 25 choices: the game settings need another option"
    return choices


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
    @places.in_servers
    @places.server_install
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

    @app_commands.command(
        name="settings",
        description="Your settings: your boards' deck, the warning when a deal is lost, each game's own",
    )
    @app_commands.describe(
        deck="Two colours (red and black suits) or four (one colour per suit)",
        lost_warning="Say on the board when a move made the deal impossible to win (on by default)",
        game_setting="A setting of one game's own: pick the game's setting and its new value",
    )
    @app_commands.choices(
        deck=[
            app_commands.Choice(name="Two colours", value="two"),
            app_commands.Choice(name="Four colours", value="four"),
        ],
        lost_warning=[
            app_commands.Choice(name="On", value="on"),
            app_commands.Choice(name="Off", value="off"),
        ],
        game_setting=_game_setting_choices(),
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        deck: app_commands.Choice[str] | None = None,
        lost_warning: app_commands.Choice[str] | None = None,
        game_setting: app_commands.Choice[str] | None = None,
    ) -> None:
        """Change what is given; with nothing given, say what the settings are."""
        user = interaction.user.id
        if deck is not None:
            await set_user_deck(self.store, user, "four" if deck.value == "four" else "two")
        if lost_warning is not None:
            await set_warns_lost(self.store, user, lost_warning.value == "on")
        if game_setting is not None:
            await game_settings.choose(self.store, user, game_setting.value)
        tr = Translator(await player_locale(interaction, self.store))
        shown_deck = await user_deck(self.store, user)
        warning = "on" if await warns_lost(self.store, user) else "off"
        lines = [tr(f"settings.deck.{shown_deck}"), tr(f"settings.lost_warning.{warning}")]
        lines += await game_settings.lines(tr, self.store, user)
        await send(interaction, "\n".join(lines), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Language(cast("BoulangerBot", bot)))
