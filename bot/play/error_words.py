"""What a player is told about a known error, in their language, without Discord.

The console and the Discord error ladder (``bot.adapter.errors``, which adds discord.py's own
command errors) share it: ``UserFeedback`` carries a catalogue key meant for the player, engine
errors map to ``engine.<reason>`` keys, storage races to "this board is out of date". None
means a bug, for the caller to log.
"""

from __future__ import annotations

import time

import engine
import storage
from bot.languages.i18n import normalize_locale, t, template, with_shared
from bot.languages.language import localise_params
from bot.play.feedback import UserFeedback

#: The param naming the game whose move was refused (``of_game``): its own words come first.
GAME_PARAM = "game_kind"


def of_game(exc: engine.EngineError, kind: str) -> engine.EngineError:
    """Mark ``exc`` as a refusal of a move in a game of ``kind``: its words are then looked up as
    ``engine.<reason>.<kind>`` first (a game that words a shared reason its own way)."""
    exc.params.setdefault(GAME_PARAM, kind)
    return exc


def _own_keys(exc: engine.EngineError) -> tuple[str, ...]:
    """The refusing game's own keys for ``exc``'s reason (none when no game is known)."""
    from bot.games import fronts

    kind = exc.params.get(GAME_PARAM)
    front = next((f for f in fronts() if f.kind == kind), None)
    if front is None:
        return ()
    key = front.key(f"engine.{exc.reason}")
    return (key, f"{key}.alt")


def engine_error_text(locale: object, exc: engine.EngineError) -> str:
    """An engine error in the player's language: ``engine.<reason>`` or the engine's own text."""
    # A reason may come with different params in two games (``no_fit``): the first variant
    # whose placeholders are all given wins, the refusing game's own variants first.
    own = _own_keys(exc)
    for key in (*own, f"engine.{exc.reason}", f"engine.{exc.reason}.alt", f"engine.{exc.reason}.alt2"):
        text = template(locale, key)
        if text == key:
            continue
        try:
            params = with_shared(normalize_locale(locale), text, localise_params(locale, exc.params))
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            continue
    return str(exc)


def error_text(locale: object, error: BaseException) -> str | None:
    """The reply for a known error of the game layer, or None when it is a bug to be logged."""
    if isinstance(error, UserFeedback):
        return error.text(locale)
    if isinstance(error, engine.EngineError):
        return engine_error_text(locale, error)
    if isinstance(error, storage.DatabaseUnusable):  # lost while running: bot.running.database stops the bot
        return t(locale, "error.database_lost")
    if isinstance(error, storage.VersionConflict):
        return t(locale, "error.stale_board")
    if isinstance(error, storage.GameNotActive):
        return t(locale, "error.game_over")
    if isinstance(error, storage.GameNotFound):
        return t(locale, "error.no_such_game")
    if isinstance(error, storage.RaceNotFound):  # a forged race id, or a race from a wiped database
        return t(locale, "race.error.not_found")
    if isinstance(error, storage.InvalidValue):  # e.g. a forged id beyond a database integer
        return t(locale, "error.unknown_button")
    if isinstance(error, storage.DatabaseBusy | storage.ActiveGameExists):
        return t(locale, "error.storage_busy")
    if isinstance(error, storage.StorageError):
        return t(locale, "error.storage")
    return None


def cooldown_text(locale: object, retry_after: float) -> str:
    """ "Try again <t:…:R>" (Discord shows the time relative to the reader's clock)."""
    when = int(time.time() + max(retry_after, 1.0)) + 1
    return t(locale, "error.cooldown", when=f"<t:{when}:R>", seconds=f"{max(retry_after, 1.0):.0f}")
