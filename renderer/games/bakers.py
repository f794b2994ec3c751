"""The Jeu du Boulanger board: the shared eight-column board (``renderer.games.tableau``:
cells a-d and foundations on top, columns 1-8 below) under its own title.

Highlights: ``("c", i)`` selects column i (0-based; its ordered run is
marked), ``("f", i)`` free cell i. The last move is read from
``game.last_move``: its source label turns amber, the cards it put down get
an amber face.
"""

from __future__ import annotations

from PIL import Image

from engine.bakers import BakersGame
from renderer.cards import TWO
from renderer.games import tableau
from renderer.games.tableau import (
    FULL_HEIGHT,
    LETTER_Y,
    LONGEST,
    MIN_CARDS,
    NUMBER_Y,
    TABLEAU_Y,
    TOP_Y,
    height,
    parse_highlight,
    slot_x,
)
from renderer.labels import Labels, Word

KIND = BakersGame.kind
# This board's own words (the shared ones are in ``renderer.labels``): its title.
WORDS: dict[str, Word] = {KIND: tableau.title_word("Jeu du Boulanger")}


def background(cells: int, labels: Labels) -> Image.Image:
    """Everything that does not depend on the cards (cached; read only)."""
    return tableau.background(KIND, cells, labels)


def render(
    game: BakersGame,
    highlight: tuple[str, int] | None,
    labels: Labels,
    deck: str = TWO,
    fit: bool = False,
    tag: str | None = None,
    hide_code: bool = False,
) -> Image.Image:
    """The board (``renderer.games.tableau.render``)."""
    return tableau.render(KIND, game, highlight, labels, deck, fit, tag, hide_code)


__all__ = [
    "FULL_HEIGHT",
    "KIND",
    "LETTER_Y",
    "LONGEST",
    "MIN_CARDS",
    "NUMBER_Y",
    "TABLEAU_Y",
    "TOP_Y",
    "WORDS",
    "background",
    "height",
    "parse_highlight",
    "render",
    "slot_x",
]
