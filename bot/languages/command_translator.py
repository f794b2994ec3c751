"""Slash commands in the players' languages, from the same catalogues as every other text.

discord.py asks this translator for each command name, description, option
and choice, in every Discord locale, when the commands are synced. The key is
derived from where the string sits, so the cogs keep plain English strings:

    command.<qualified name, dots for spaces>.name / .description
    option.<command>.<option>.name / .description   (then option.<option>.name|description)
    choice.<value>

Only a language's own catalogue counts (no English fallback here: None means
"show the English default"). Discord has no Catalan locale, so ``ca`` never
reaches Discord; Catalan players read the English command names.
Localised names are checked against Discord's rules before being offered; a
bad one is logged and left out rather than failing the whole sync.
"""

from __future__ import annotations

import logging
import re
from functools import cache

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.languages.i18n import catalogue

log = logging.getLogger(__name__)

#: Discord locale → our catalogue. English locales need no localisation (the code is English).
DISCORD_TO_CATALOGUE = {"bg": "bg", "id": "id", "nl": "nl", "ru": "ru"}
MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_CHOICE = 100
# Discord's rule for chat-input names: ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, lowercase.
_NAME = re.compile(r"^[-_\w]{1,32}$")


@cache
def own_messages(lang: str) -> dict[str, str]:
    """A catalogue's own (singular) messages, without falling back to English."""
    catalog = catalogue(lang)  # the games' own catalogues too (their start commands)
    if catalog is None:
        return {}
    return {
        m.id: m.string
        for m in catalog
        if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string
    }


def valid_name(text: str) -> bool:
    """Whether Discord accepts ``text`` as a command or option name."""
    return bool(_NAME.match(text)) and text == text.lower() and all(c.isalnum() or c in "-_" for c in text)


def keys_for(location: Where, data: object) -> list[str]:
    """The catalogue keys to try, most specific first, for one translatable string."""
    if location in (Where.command_name, Where.group_name, Where.command_description, Where.group_description):
        path = getattr(data, "qualified_name", "").replace(" ", ".")
        field = "name" if location in (Where.command_name, Where.group_name) else "description"
        return [f"command.{path}.{field}"]
    if location in (Where.parameter_name, Where.parameter_description):
        field = "name" if location is Where.parameter_name else "description"
        command = getattr(getattr(data, "command", None), "qualified_name", "").replace(" ", ".")
        name = getattr(data, "name", "")
        return [f"option.{command}.{name}.{field}", f"option.{name}.{field}"]
    if location is Where.choice_name:
        return [f"choice.{getattr(data, 'value', '')}"]
    return []


def localise(lang: str, location: Where, data: object) -> str | None:
    """The localised string for one place in the command tree, or None to keep English."""
    messages = own_messages(lang)
    for key in keys_for(location, data):
        text = messages.get(key)
        if text is None:
            continue
        if location in (Where.command_name, Where.group_name, Where.parameter_name):
            if not valid_name(text):
                log.warning("%s translation of %s is not a valid command name: %r", lang, key, text)
                return None
        elif location is Where.choice_name:
            text = text[:MAX_CHOICE]
        elif len(text) > MAX_DESCRIPTION:
            log.warning("%s translation of %s is longer than %d characters", lang, key, MAX_DESCRIPTION)
            return None
        return text
    return None


class CatalogueTranslator(app_commands.Translator):
    """discord.py's command translator, reading ``command.*``/``option.*``/``choice.*`` keys."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = DISCORD_TO_CATALOGUE.get(locale.value)
        if lang is None:
            return None
        return localise(lang, context.location, context.data)
