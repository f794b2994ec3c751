"""The built-in games' board modules, registered: the one place the renderer learns which
games it draws. Each module holds all that only its game knows about pictures (its layout,
highlights and words); another game's board registers itself with ``renderer.register``."""

from __future__ import annotations

from renderer.boards import register
from renderer.games import bakers, calculation, freecell, klondike

register(bakers.BOARD)
register(calculation)
register(freecell.BOARD)
register(klondike)
