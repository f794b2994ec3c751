"""A front's options: the game's option (its free cells, for a game that has them) as a
player chooses it, custom ids carry it and storage keeps it (its variant); its codes, a
random deal and the daily's deal; its players' own settings. A game without options
keeps every default: no cells, the variant ``""``, any deal of its range.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

import engine
from bot.games.front.part import G, Part
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback

OptionPlace = Literal["board", "race", "lb"]  # where an option's value is shown (``option_words``)


@dataclass(frozen=True, slots=True)
class GameSetting:
    """A choice a game's front offers its players in ``/settings`` (a rule they may turn off):
    kept per player under ``<kind>.<name>`` (``bot.play.game_settings``), one of ``values``,
    ``values[0]`` the default. Its words are the front's catalogue keys:
    ``choice.<kind>.<name>.<value>`` (the command's choice) and
    ``settings.<kind>.<name>.<value>`` (the line saying what it is)."""

    name: str
    values: tuple[str, ...]

    @property
    def default(self) -> str:
        return self.values[0]


class Options(Part[G]):
    """The game's option, codes and deals, and its players' settings."""

    cell_choices: ClassVar[tuple[int, ...]] = ()  # the option's values offered, the default first
    # The option's name where commands offer it, its record's (``cells``: free cells; ``draw``:
    # cards turned from a stock at a time): /leaderboard and /race have one option of each name.
    option_name: ClassVar[str] = "cells"
    has_daily: ClassVar[bool] = True
    settings: ClassVar[tuple[GameSetting, ...]] = ()  # its players' own choices (``/settings``)

    def option_words(self, tr: Translator, value: int, where: OptionPlace = "board") -> str:
        """The option's value in words where it is shown: a board's header, a race's title, a
        leaderboard's title (``4 free cells``, ``4 cells``)."""
        if where == "lb":
            return tr("lb.cells", cells=value)
        return tr.n("race.cells" if where == "race" else "board.cells", value)

    def check_cells(self, cells: int | None) -> int | None:
        """The free cells a new game gets (None for a game without them); refuses others."""
        if not self.cell_choices:
            return None
        chosen = self.cell_choices[0] if cells is None else cells
        if chosen not in self.cell_choices:
            raise UserFeedback(self.key("error.bad_cells"))  # names this game's counts
        return chosen

    def option_token(self, cells: int | None) -> str:
        """The game's option (its free cells) as custom ids carry it: its stored variant
        (``""`` for none)."""
        return self.variant(cells)

    def parse_option(self, token: str) -> int | None:
        """An option back from a custom id (``""`` or ``"0"``: none); ``UserFeedback`` for a token
        this game never writes (a forged id). ``check_cells`` then refuses a count not offered."""
        if token in ("", "0"):
            return None
        if not token.isdigit() or len(token) > 2:
            raise UserFeedback("error.unknown_button")
        return int(token)

    def code(self, deal: int, cells: int | None) -> engine.GameCode:
        return engine.make_code(self.kind, deal, cells)

    def random_deal(self, rng: random.Random) -> int:
        """Any of the game's deals, drawn from ``rng``: its codes' whole range (the project's
        35-bit deals, or a numbered range such as Microsoft's 1 to 1,000,000)."""
        deals = engine.codes.SPECS[self.kind].deals
        return rng.randint(deals.low, deals.high)

    def variant(self, cells: int | None) -> str:
        """The stored variant of a game with this option: storage only compares it (boards,
        races, the winnable stock are per variant). "" for a game without options."""
        return ""

    def cells_of(self, variant: str) -> int | None:
        """The free cells a stored ``variant`` stands for (None for a game without them)."""
        return None

    def daily_code(self, draw: int) -> engine.GameCode:
        """A day's challenge from a fresh random ``draw`` (``dailycodes.draw``), drawn once a
        day and stored; may run a short search: call it off the event loop. By default a
        deal drawn from ``draw`` with the default option (a front whose daily must be
        winnable searches for one)."""
        return self.code(self.random_deal(random.Random(draw)), self.check_cells(None))

    def use_settings(self, game: G, values: Mapping[str, str]) -> None:
        """Give ``game`` its player's values of this game's ``settings`` (each name's value,
        its default when never chosen), before each move is played. A game without settings
        has nothing to do."""
