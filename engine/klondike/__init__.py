"""Klondike, draw one or three (issue 43): rules, codes ``KL1-D1-…`` / ``KL1-D3-…``, text forms,
and the position in plain numbers for searches and fair hints. See docs/KLONDIKE.md.

Its names are imported when first asked for (``engine.lazy``): reading its record
(``engine.klondike.record``) does not load the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.klondike.boardtext import board_text
    from engine.klondike.game import KlondikeGame
    from engine.klondike.notation import ParsedMove, parse_notation
    from engine.klondike.position import KlondikeMove, Position
    from engine.klondike.rules import deal_layout
    from engine.klondike.state import UNKNOWN, KlondikeState, full_state, position_of, seen_state

__getattr__ = lazy_names(
    __name__,
    {
        "board_text": "engine.klondike.boardtext",
        "KlondikeGame": "engine.klondike.game",
        "ParsedMove": "engine.klondike.notation",
        "parse_notation": "engine.klondike.notation",
        "KlondikeMove": "engine.klondike.position",
        "Position": "engine.klondike.position",
        "deal_layout": "engine.klondike.rules",
        "UNKNOWN": "engine.klondike.state",
        "KlondikeState": "engine.klondike.state",
        "full_state": "engine.klondike.state",
        "position_of": "engine.klondike.state",
        "seen_state": "engine.klondike.state",
    },
)

__all__ = [
    "UNKNOWN",
    "KlondikeGame",
    "KlondikeMove",
    "KlondikeState",
    "ParsedMove",
    "Position",
    "board_text",
    "deal_layout",
    "full_state",
    "parse_notation",
    "position_of",
    "seen_state",
]
