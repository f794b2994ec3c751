"""A front's table for the Activity (``bot/activity``): the position as piles the page draws,
and the notation of what the page proposes (a drop, a double tap, Home). A game is offered in
the Activity only with ``in_activity``; without it nothing here is asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from bot.games.front.part import G, Part
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback


@dataclass(frozen=True, slots=True)
class Pile:
    """One place of a game's table as the Activity's page draws it (``ActivityTable.table``).

    The page knows no game: it draws these piles where they say, lets a player pick up
    ``drag`` cards and drop them on any pile with a ``drop`` place, and sends the move back
    as places; the front turns it into notation and the engine decides. A face-down card is
    ``""``: the page draws a back, never picks it up, and never learns what it is."""

    place: str  # its notation name, the page's ``data-place`` ("3", "a", "h", "s", "w2", "f1")
    role: str  # "column", "cell", "foundation", "stock", "turned", "waste": how it looks
    x: float  # where, in card widths from the left …
    y: float  # … and card heights from the top
    cards: tuple[str, ...] = ()  # bottom first, fc-solve's text ("8S", "TD"); "" a face-down card
    fan: bool = False  # spread downwards (a column), else stacked (the top card shows)
    drop: str | None = None  # the place a card dropped here is sent to ("h" for a suit's pile)
    drag: Literal["none", "top", "run"] = "none"  # what may be picked up: the top card, any run
    label: str = ""  # drawn on the place when it is empty, or beside it ("+2", "needs 5", "12")
    name: str = ""  # the place in the player's words, for screen readers
    suit: str = ""  # the one suit this pile takes (fc-solve's letter: a suit's foundation), "" any
    tap: bool = False  # one tap plays its ``double_tap`` (a stock that turns): nothing is picked up
    spread: int = 0  # not fanned: its top ``spread`` cards side by side, rightwards (a waste), else one


@dataclass(frozen=True, slots=True)
class Table:
    """A position as piles (``ActivityTable.table``), with the size it takes in cards."""

    piles: tuple[Pile, ...]
    width: float
    height: float
    home: str = ""  # the Home button's words (every card that can go home, one action); "": none
    home_ready: bool = False  # a card can go home now


class ActivityTable(Part[G]):
    """The Activity's table: none by default (the game is not offered there)."""

    in_activity: ClassVar[bool] = False  # offered in the Activity (it has a ``table``)

    def table(self, tr: Translator, game: G) -> Table | None:
        """The position as piles for the Activity's page (a game with ``in_activity``)."""
        return None

    def drop(self, game: G, source: str, target: str, count: int) -> str:
        """The notation of dropping ``count`` cards of ``source``'s top on ``target`` (places as
        ``Pile.place`` / ``Pile.drop`` name them); the engine then says whether it is legal."""
        raise UserFeedback("error.unknown_button")

    def double_tap(self, game: G, place: str) -> str:
        """The notation a double tap on ``place`` plays: the same move as its press in the chat."""
        raise UserFeedback("error.unknown_button")

    def home_move(self, game: G) -> str:
        """What Home plays (every card that can go home, one action); ``UserFeedback`` if none."""
        raise UserFeedback("error.unknown_button")
