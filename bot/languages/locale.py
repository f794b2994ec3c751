"""Which language a Discord reader gets: the interaction's player, or the server for shared posts.

See ``bot.languages.language`` for the order (stored choice → client locale → server →
English) and for everything that needs no Discord.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.languages.i18n import CLIENT_LOCALES, DEFAULT_LOCALE, Translator
from bot.languages.language import (
    LANGUAGES,
    PICTURE_KEYS,
    client_language,
    current_language,
    guild_language,
    localise_params,
    picture_labels,
    set_guild_language,
    set_user_choice,
    supported,
    use_language,
    user_choice,
)

log = logging.getLogger(__name__)

__all__ = [
    "CLIENT_LOCALES",
    "LANGUAGES",
    "PICTURE_KEYS",
    "client_language",
    "current_language",
    "guild_language",
    "localise_params",
    "picture_labels",
    "player_locale",
    "player_translator",
    "set_guild_language",
    "set_user_choice",
    "shared_locale",
    "supported",
    "use_language",
    "user_choice",
]


def _store_of(interaction: discord.Interaction) -> Any:
    client = interaction.client
    return getattr(client, "store", None) or getattr(getattr(client, "service", None), "store", None)


async def player_locale(interaction: discord.Interaction, store: Any = None) -> str:
    """The language to answer this player in: choice → client locale → server → English.

    Never raises: if storage cannot be read, the client locale (or English) is used.
    Also remembers the answer for this interaction (see ``current_language``).
    """
    store = store if store is not None else _store_of(interaction)
    language: str | None = None
    try:
        if store is not None:
            language = await user_choice(store, interaction.user.id)
        language = language or client_language(interaction.locale)
        if language is None and store is not None:
            language = await guild_language(store, interaction.guild_id)
    except Exception:
        log.exception("could not read the language settings; answering by client locale")
        language = client_language(interaction.locale)
    language = language or DEFAULT_LOCALE
    use_language(language)
    return language


async def shared_locale(interaction: discord.Interaction, store: Any = None) -> str:
    """For a message everyone in the channel reads (a leaderboard): the server's language, else the player's."""
    store = store if store is not None else _store_of(interaction)
    if store is not None:
        try:
            language = await guild_language(store, interaction.guild_id)
        except Exception:
            log.exception("could not read the server's language")
            language = None
        if language:
            return language
    return await player_locale(interaction, store)


async def player_translator(interaction: discord.Interaction, store: Any = None) -> Translator:
    """A ``Translator`` in the player's language (``player_locale``)."""
    return Translator(await player_locale(interaction, store))
