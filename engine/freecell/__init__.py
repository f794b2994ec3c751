"""FreeCell: Microsoft's deals 1 to 1,000,000 (``FC1-C4-MS11982``), 4 to 1 free cells, safe
auto-play.

Its record (``engine/freecell/record.py``) declares it beside the other games (its bot
front is ``bot/games/freecell.py``); ``register_game()`` and ``registered()`` put it back
for a test that took it out.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from engine.freecell.deals import MS_DEALS, ms_deck
from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.freecell.game import FreeCellGame
    from engine.freecell.position import FreeCellMove, FreeCellPosition, opposite_colour_below, safe_home

# Imported when first named: ``engine`` reads ``MS_DEALS`` here to declare FreeCell's codes,
# and loads the game only when it is played (``engine.registry.declare``).
__getattr__ = lazy_names(
    __name__,
    {
        "FreeCellGame": "engine.freecell.game",
        "FreeCellMove": "engine.freecell.position",
        "FreeCellPosition": "engine.freecell.position",
        "opposite_colour_below": "engine.freecell.position",
        "safe_home": "engine.freecell.position",
    },
)


def register_game() -> type[FreeCellGame]:
    """Register FreeCell in the engine (idempotent); returns the class."""
    from engine.freecell.game import FreeCellGame
    from engine.registry import GAMES, register

    if GAMES.get(FreeCellGame.kind) is not FreeCellGame:
        register(FreeCellGame)
    return FreeCellGame


@contextmanager
def registered() -> Iterator[type[FreeCellGame]]:
    """FreeCell registered for a while (the command line; tests): taken out again at the end
    unless it was registered before."""
    from engine.freecell.game import FreeCellGame
    from engine.registry import GAMES, unregister

    added = GAMES.get(FreeCellGame.kind) is not FreeCellGame
    register_game()
    try:
        yield FreeCellGame
    finally:
        if added:
            unregister(FreeCellGame.kind)


__all__ = [
    "MS_DEALS",
    "FreeCellGame",
    "FreeCellMove",
    "FreeCellPosition",
    "ms_deck",
    "opposite_colour_below",
    "register_game",
    "registered",
    "safe_home",
]
