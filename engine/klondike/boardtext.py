"""Klondike positions as text (docs/KLONDIKE.md): the whole truth, or what the player sees.

The full form (``python -m engine deal``, ``play``'s JSON) shows every card and marks the face-
down ones with parentheses::

    Klondike KL1-D1-AAAAA24, draw 1
    Foundations: S-0 H-0 D-0 C-0
    Stock: (8S) (2D) ...            the next card to turn first
    Waste: -                        bottom first: the last card plays
    1: KD                           bottom first: the last card is the top
    2: (4C) 7H
    ...

Cards are written as fc-solve writes them (``AS``, ``TH``, ``KC``); a foundation as its suit and
how far it goes (``H-3``: A♥ to 3♥ home, ``S-0`` empty); ``-`` an empty stock, waste or pile.
The seen form, for players, writes each face-down pile card as ``##`` and the stock as the
number of its cards (``Stock: 24``).
"""

from __future__ import annotations

from engine.cards import RANKS, SUITS, card_text
from engine.klondike.position import Position

FACE_DOWN = "##"


def _foundations(pos: Position) -> str:
    return "Foundations: " + " ".join(
        f"{SUITS[s]}-{RANKS[n - 1] if n else '0'}" for s, n in enumerate(pos.found)
    )


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def board_text(pos: Position, header: str, *, seen: bool = False) -> str:
    """Every card, the face-down ones in parentheses; with ``seen``, what is on the table face
    up: face-down pile cards as ``##``, the stock as the number of its cards."""
    stock = str(len(pos.stock)) if seen else _cards([f"({card_text(c)})" for c in pos.stock])
    lines = [header, _foundations(pos), f"Stock: {stock}"]
    lines.append("Waste: " + _cards([card_text(c) for c in pos.waste]))
    for p, pile in enumerate(pos.piles):
        down = pos.down[p]
        cards = [
            card_text(c) if i >= down else FACE_DOWN if seen else f"({card_text(c)})"
            for i, c in enumerate(pile)
        ]
        lines.append(f"{p + 1}: {_cards(cards)}")
    return "\n".join(lines) + "\n"
