"""A front's words: the game's title, rules and help, what its picture writes, its moves in
the player's words and an engine error's params as players read them.

Required of every game: a move in words (``describe_move``). The rest reads the
catalogues under the game's kind (``game.<kind>``, ``rules.<kind>``, ``share.<kind>.*``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from bot.games.front.part import G, Part
from bot.languages.i18n import Translator, t


class Words(Part[G], ABC):
    """The game's texts, from the catalogues under its kind unless a front writes its own."""

    # The words its board draws besides the shared ones: renderer label -> catalogue key
    # (its title is added under its kind).
    picture_keys: ClassVar[dict[str, str]] = {}
    notation_examples: ClassVar[str] = ""  # a few typed moves, for help texts: "3h, a5"
    button_names: ClassVar[str] = ""  # its board buttons as the console's ``press`` takes them

    def title(self, tr: Translator) -> str:
        return tr(self.key("game"))

    def title_in(self, language: str) -> str:
        return t(language, self.key("game"))

    def rules(self, tr: Translator) -> str:
        return tr(self.key("rules"))

    def help(self, tr: Translator) -> str | None:
        """The game's own paragraph under /help (at most 1,024 characters), or None: the
        shared help text covers it."""
        return None

    def share_key(self, won: bool) -> str:
        return f"share.{self.kind}.{'won' if won else 'lost'}"

    def picture_words(self, language: str) -> dict[str, str]:
        """The words this game's board draws beyond the shared ones, in ``language``: its
        title (under its kind) and its ``picture_keys``."""
        words = {label: t(language, key) for label, key in self.picture_keys.items()}
        return {self.kind: self.title_in(language), **words}

    def localise_params(self, language: str, params: dict[str, Any]) -> dict[str, Any]:
        """An engine error's params as players read them (its places in their language);
        a game whose errors name no places keeps them as they are."""
        return params

    @abstractmethod
    def describe_move(self, tr: Translator, move: Any) -> str:
        """A resolved engine move in the player's words."""

    def describe_action(self, tr: Translator, moves: tuple[Any, ...]) -> str:
        """The last action in words: one move, or a batch (several moves as one action)."""
        return "; ".join(self.describe_move(tr, move) for move in moves)

    def ranked_moves(self, tr: Translator, game: G) -> list[tuple[str, str]]:
        """(notation, words) of the legal moves, most useful first (``/move`` autocomplete):
        by default in the engine's order."""
        return [(m.notation, self.describe_move(tr, m)) for m in game.legal_move_objects()]
