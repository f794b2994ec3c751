"""One error ladder for every interaction, and the helper that sends replies.

Known errors become friendly ephemeral replies in the player's language (the
game layer's in ``bot.play.error_words``, plus discord.py's command errors).
Everything else is logged with its traceback and the player gets a short
apology. A storage failure (the store could not do it: disk full, locked, corrupt, the
connection lost) is logged once, at WARNING, with its cause, while the player's answer
stays "the game store could not do that". Nothing here changes game state.
"""

from __future__ import annotations

import errno
import logging
from typing import Any

import discord
from discord import app_commands

import storage
from bot.adapter import entry_point
from bot.languages.i18n import t
from bot.languages.locale import player_locale
from bot.play.error_words import cooldown_text, engine_error_text
from bot.play.error_words import error_text as game_error_text
from bot.play.feedback import UserFeedback
from bot.running.inflight import ERROR_EXTRA, enter

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
    if isinstance(error, ODD_OPTIONS):  # a value Discord's own client does not send
        return t(locale, "error.bad_option")
    if isinstance(error, app_commands.MissingPermissions):
        return t(locale, "error.needs_manage_server")
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(locale, "error.guild_only")
    if isinstance(error, app_commands.CommandOnCooldown):
        return cooldown_text(locale, error.retry_after)
    return None


# discord.py's refusals of option values that are not the command's (outside its choices or
# range, another type, a required one missing).
ODD_OPTIONS = (
    app_commands.TransformerError,
    app_commands.CommandSignatureMismatch,
)
# Storage errors that are answers (a refusal, a race lost to another click), not failures.
ANSWERS = (
    storage.VersionConflict,
    storage.GameNotActive,
    storage.GameNotFound,
    storage.RaceNotFound,
    storage.InvalidValue,
    storage.ActiveGameExists,
    storage.DatabaseUnusable,  # logged once by bot.running.database, which stops the bot
)
# SQLite's result codes and PostgreSQL's SQLSTATE classes, in words for the operator.
_SQLITE_CAUSES = {
    "SQLITE_FULL": "disk full",
    "SQLITE_BUSY": "locked",
    "SQLITE_LOCKED": "locked",
    "SQLITE_CORRUPT": "corrupt",
    "SQLITE_NOTADB": "corrupt",
    "SQLITE_IOERR": "I/O error",
    "SQLITE_READONLY": "read-only",
    "SQLITE_CANTOPEN": "cannot open",
}
_SQLSTATE_CAUSES = {"53100": "disk full", "53": "out of resources", "XX001": "corrupt", "XX002": "corrupt"}
_SQLSTATE_CAUSES |= {"40P01": "locked", "55P03": "locked", "57014": "locked", "08": "connection lost"}


def storage_cause(error: BaseException) -> str:
    """What made a storage call fail, in a word or two (from the driver's error it came from)."""
    if isinstance(error, storage.DatabaseBusy):
        return "locked"
    seen: BaseException | None = error
    while seen is not None:
        name = getattr(seen, "sqlite_errorname", None)
        if isinstance(name, str):
            for prefix, cause in _SQLITE_CAUSES.items():
                if name.startswith(prefix):
                    return cause
        state = getattr(seen, "sqlstate", None)
        if isinstance(state, str):
            named = _SQLSTATE_CAUSES.get(state) or _SQLSTATE_CAUSES.get(state[:2])
            if named:
                return named
        if isinstance(seen, OSError) and seen.errno == errno.ENOSPC:
            return "disk full"
        if isinstance(seen, OSError | TimeoutError):
            return "connection lost"
        seen = seen.__cause__ or seen.__context__
    return "database error"


def log_storage_failure(where: str, error: BaseException) -> None:
    """One WARNING line for a storage call that failed (not a refusal), with its cause."""
    if isinstance(error, storage.StorageError) and not isinstance(error, ANSWERS):
        log.warning("storage failed in %s (%s): %s", where, storage_cause(error), error)


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
    log_storage_failure(_where(interaction), original)
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
    #: The bot's token, for the global sync's own two requests (``bot.adapter.entry_point``).
    bot_token = ""

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[app_commands.AppCommand]:
        if guild is not None:
            return await super().sync(guild=guild)
        return await entry_point.sync_global(self, self.bot_token, create=self.wants_entry_point)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """The commands' entry point (``bot.running.inflight``). Resolve the player's language
        first: pictures drawn for this command use it too; refuse, with the clear answer,
        options of a type the command does not take (see ``odd_options``): discord.py reads
        the options after this check, and an error there would end the task unanswered. An
        autocomplete with odd options gets no choices."""
        enter(interaction)
        await player_locale(interaction)
        if interaction.type is discord.InteractionType.autocomplete and odd_options(interaction, typing=True):
            log.info("ignored an autocomplete with odd options in %s", _where(interaction))
            return False
        if interaction.type is discord.InteractionType.application_command and odd_options(interaction):
            log.info(
                "odd options in %s: %s", _where(interaction), dict(interaction.data or {}).get("options")
            )
            await report(interaction, UserFeedback("error.bad_option"))
            return False
        return True


# What each option type's value is in the payload (ids: a snowflake, as a string of digits).
_VALUE_TYPES: dict[int, tuple[type, ...]] = {3: (str,), 4: (int,), 5: (bool,), 10: (int, float)}
_ID_TYPES = {6, 7, 8, 9, 11}
DISCORD_NUMBERS = 2**53  # Discord's integer and number options lie within ±2^53
_RESOLVED = {6: ("users",), 7: ("channels",), 8: ("roles",), 9: ("users", "roles"), 11: ("attachments",)}


def odd_options(interaction: discord.Interaction, *, typing: bool = False) -> bool:
    """Whether the options are not the command's: an unknown name, another type, or a value
    that is not of its type. discord.py hands those to the command as they are (a number for
    a text, ``null``...), which Discord's own client never sends. ``typing``: an autocomplete,
    whose focused option is what is being typed (any text), checked for its name only."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return False
    params = {p.display_name: p for p in command.parameters}
    declared: dict[str, int] = {name: int(p.type.value) for name, p in params.items()}
    data: dict[str, Any] = dict(interaction.data or {})
    given = data.get("resolved")
    resolved: dict[str, Any] = given if isinstance(given, dict) else {}
    for option in _leaf_options(data):
        kind, value = declared.get(str(option.get("name"))), option.get("value")
        if kind is None or option.get("type") != kind:
            return True
        if typing and option.get("focused"):
            continue
        if kind in _ID_TYPES:
            if not (isinstance(value, str) and value.isdigit() and 0 < int(value) < 2**64):
                return True
            if not any(value in (resolved.get(part) or {}) for part in _RESOLVED[kind]):
                return True  # Discord always sends what an id names: one it does not hold is made up
            continue
        allowed = _VALUE_TYPES.get(kind, (object,))
        if not isinstance(value, allowed) or (kind != 5 and isinstance(value, bool)):
            return True
        if isinstance(value, int | float) and kind in (4, 10) and abs(value) > DISCORD_NUMBERS:
            return True
        if not _within(params[str(option.get("name"))], value):
            return True
    return False


def _within(param: app_commands.Parameter, value: object) -> bool:
    """A value among the parameter's choices and within its range (Discord enforces both; the
    payload of a modified client may not)."""
    if param.choices and value not in [c.value for c in param.choices]:
        return False
    if isinstance(value, int | float):
        if param.min_value is not None and value < param.min_value:
            return False
        if param.max_value is not None and value > param.max_value:
            return False
    return True


def _leaf_options(data: Any) -> list[dict[str, Any]]:
    options = data.get("options") if isinstance(data, dict) else None
    if not isinstance(options, list):
        return []
    found: list[dict[str, Any]] = []
    for option in options:
        if isinstance(option, dict) and option.get("type") in (1, 2):
            found.extend(_leaf_options(option))
        elif isinstance(option, dict):
            found.append(option)
    return found
