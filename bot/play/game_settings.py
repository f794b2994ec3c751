"""The games' own player settings (``GameFront.settings``, e.g. a rule a player may turn off),
without Discord: which choices ``/settings`` and the console offer, each player's values, the
lines that say them, and giving a game its player's values before a move.

A setting is stored through storage's generic ``player_settings`` under ``<kind>.<name>``
(storage knows no name), only when it differs from its default; a choice names it as
``<kind>.<name>.<value>``, which is also its catalogue key (``choice.<choice>``), so every
registered game's settings appear in ``/settings`` without a shared file naming them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.games import fronts
from bot.games.front.options import GameSetting, Options
from bot.languages.i18n import Translator
from bot.languages.language import player_settings, set_player_setting
from bot.play.feedback import UserFeedback


@dataclass(frozen=True, slots=True)
class SettingChoice:
    """One value of one game's setting, as ``/settings`` offers it."""

    front: Options[Any]
    setting: GameSetting
    value: str

    @property
    def token(self) -> str:
        """``<kind>.<name>.<value>``: the choice's value and catalogue key (``choice.<token>``)."""
        return f"{stored_name(self.front, self.setting)}.{self.value}"


def stored_name(front: Options[Any], setting: GameSetting) -> str:
    return f"{front.kind}.{setting.name}"


def every_choice() -> list[SettingChoice]:
    """Every value of every registered game's settings, game by game (the command's choices)."""
    return [SettingChoice(f, s, value) for f in fronts() for s in f.settings for value in s.values]


def choice_named(token: str) -> SettingChoice:
    """The choice a ``<kind>.<name>.<value>`` names; ``UserFeedback`` for one no game offers
    (a forged or outdated option)."""
    for choice in every_choice():
        if choice.token == token:
            return choice
    raise UserFeedback("error.unknown_setting")


async def values_for(store: Any, user_id: int, front: Options[Any]) -> dict[str, str]:
    """The player's value of each of ``front``'s settings (its default when never chosen, or
    when what is stored is no longer one of its values)."""
    if not front.settings:
        return {}
    stored = await player_settings(store, user_id)
    out = {}
    for setting in front.settings:
        value = stored.get(stored_name(front, setting))
        out[setting.name] = value if value in setting.values else setting.default
    return out


async def choose(store: Any, user_id: int, token: str) -> SettingChoice:
    """Store the player's choice ``token`` (the default value is stored as no row)."""
    choice = choice_named(token)
    value = None if choice.value == choice.setting.default else choice.value
    await set_player_setting(store, user_id, stored_name(choice.front, choice.setting), value)
    return choice


async def lines(tr: Translator, store: Any, user_id: int) -> list[str]:
    """Each game setting's line in the player's words: what it is set to now."""
    out = []
    for front in fronts():
        values = await values_for(store, user_id, front)
        out += [tr(f"settings.{stored_name(front, s)}.{values[s.name]}") for s in front.settings]
    return out


async def apply(store: Any, user_id: int, front: Options[Any], game: Any) -> None:
    """Give ``game`` its player's values of its front's settings (before a move)."""
    if front.settings:
        front.use_settings(game, await values_for(store, user_id, front))
