"""One error ladder for every interaction, and the helper that sends replies.

Known errors become friendly ephemeral replies in the player's language (the
game layer's in ``bot.play.error_words``, plus discord.py's command errors).
Everything else is logged with its traceback and the player gets a short
apology. Nothing here changes game state.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.adapter import entry_point
from bot.languages.i18n import t
from bot.languages.locale import player_locale
from bot.play.error_words import cooldown_text, engine_error_text
from bot.play.error_words import error_text as game_error_text
from bot.play.feedback import UserFeedback
from bot.running.inflight import ERROR_EXTRA

log = logging.getLogger(__name__)

__all__ = ["ErrorTree", "UserFeedback", "cooldown_text", "engine_error_text", "error_text", "report", "send"]


def error_text(locale: object, error: BaseException) -> str | None:
    """The reply for a known error, or None when it is a bug to be logged: the game layer's
    (``bot.play.error_words``), then discord.py's own command errors."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.CheckFailure) and isinstance(error.__cause__, UserFeedback):
        error = error.__cause__  # a check's refusal in words (bot.adapter.places.needs_server_bot)
    known = game_error_text(locale, error)
    if known is not None:
        return known
    if isinstance(error, app_commands.MissingPermissions):
        return t(locale, "error.needs_manage_server")
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(locale, "error.guild_only")
    if isinstance(error, app_commands.CommandOnCooldown):
        return cooldown_text(locale, error.retry_after)
    return None


async def send(interaction: discord.Interaction, content: str | None = None, **kwargs: Any) -> None:
    """Reply, or follow up when the interaction was already answered or deferred.

    A private answer after a *public* "thinking…" defer would become that public message
    (Discord turns the first followup into the deferred response): the thinking message
    is deleted first, so the answer really is private."""
    if interaction.response.is_done():
        if kwargs.get("ephemeral"):
            await drop_public_thinking(interaction)
        await interaction.followup.send(content if content is not None else discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the player what went wrong (ephemeral); log what is not a known error."""
    original = getattr(error, "original", error)
    interaction.extras[ERROR_EXTRA] = type(original).__name__  # counted by bot.running.metrics
    locale = await player_locale(interaction)
    text = error_text(locale, original)
    if text is None:
        log.exception("unexpected error in %s", _where(interaction), exc_info=original)
        text = t(locale, "error.unexpected")
    try:
        await send(interaction, text, ephemeral=True)
    except discord.NotFound:
        log.warning("interaction %s expired before its error could be shown: %s", interaction.id, text)
    except discord.HTTPException:
        log.exception("could not send the error reply for %s", _where(interaction))


async def drop_public_thinking(interaction: discord.Interaction) -> None:
    """Delete the interaction's public "thinking…" response if it is still pending."""
    if interaction.response.type != discord.InteractionResponseType.deferred_channel_message:
        return
    try:
        original = await interaction.original_response()
        if original.flags.loading and not original.flags.ephemeral:
            await original.delete()
    except discord.HTTPException as exc:
        log.info("could not drop the thinking message of interaction %s: %s", interaction.id, exc)


def _where(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else None
    custom = (interaction.data or {}).get("custom_id") if interaction.data else None
    return f"/{command}" if command else f"component {custom!r}"


class ErrorTree(app_commands.CommandTree):
    """The command tree whose ``on_error`` is the ladder above, and whose global sync keeps the
    Activity's entry point command (``bot.adapter.entry_point``)."""

    #: Give the application an entry point command when it has none (the Activity is served).
    wants_entry_point = False

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[app_commands.AppCommand]:
        if guild is not None:
            return await super().sync(guild=guild)
        return await entry_point.sync_global(self, create=self.wants_entry_point)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Resolve the player's language first: pictures drawn for this command use it too."""
        await player_locale(interaction)
        return True
