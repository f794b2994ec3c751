"""The one error meant for the player's eyes, importable without Discord (service, console)."""

from __future__ import annotations

from typing import Any

from bot.languages.i18n import t


class UserFeedback(Exception):
    """Something the player should be told (a catalogue key and its params); nothing changed."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, locale: object) -> str:
        return t(locale, self.key, **self.params)
