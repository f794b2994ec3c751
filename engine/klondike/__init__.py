"""Klondike, draw one or three (issue 43): rules, codes ``KL1-D1-…`` / ``KL1-D3-…``, text forms,
and the position in plain numbers for searches and fair hints. See docs/KLONDIKE.md."""

from engine.klondike.boardtext import board_text
from engine.klondike.game import DRAW, KlondikeGame
from engine.klondike.notation import ParsedMove, parse_notation
from engine.klondike.position import KlondikeMove, Position
from engine.klondike.rules import deal_layout
from engine.klondike.state import UNKNOWN, KlondikeState, full_state, position_of, seen_state

__all__ = [
    "DRAW",
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
