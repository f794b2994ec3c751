"""A Klondike position as the oracle's callers give it, and the cards' text (KLONDIKE.md).

Cards are the project's indices 0..51 (suit-major ♠ ♥ ♦ ♣, rank A..K; index = suit*13 + rank-1),
written ``AS``, ``TH``, ``KC``. Piles are listed bottom to top with the count of face-down
cards at the bottom of each; the stock next-to-turn first; the waste bottom to top;
foundations as the count of cards home per suit.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def rank(card: int) -> int:
    return card % 13 + 1


def suit(card: int) -> int:
    return card // 13


def red(card: int) -> bool:
    return suit(card) in (1, 2)


def goes_on(card: int, onto: int) -> bool:
    """Whether ``card`` may be built on ``onto`` in a pile: one rank lower, the other colour."""
    return rank(onto) == rank(card) + 1 and red(onto) != red(card)


def text(card: int) -> str:
    return RANKS[rank(card) - 1] + SUITS[suit(card)]


def card(word: str) -> int:
    """The index of a card's text (``"TH"`` -> 22), case-insensitive."""
    word = word.strip().upper()
    return SUITS.index(word[1]) * 13 + RANKS.index(word[0])


@dataclass(frozen=True)
class Position:
    piles: tuple[tuple[int, ...], ...]
    face_down: tuple[int, ...]
    stock: tuple[int, ...]
    waste: tuple[int, ...]
    foundations: tuple[int, int, int, int]

    def check(self) -> None:
        """Refuse a position no play can reach: a card missing or twice, a covered face-up card that
        does not build, a pile whose top is face down."""
        home = [s * 13 + r for s in range(4) for r in range(self.foundations[s])]
        cards = sorted([c for pile in self.piles for c in pile] + [*self.stock, *self.waste, *home])
        if cards != list(range(52)):
            raise ValueError("a position holds each of the 52 cards exactly once")
        if len(self.piles) != 7 or len(self.face_down) != 7:
            raise ValueError("Klondike has 7 piles")
        for pile, down in zip(self.piles, self.face_down, strict=True):
            if not 0 <= down <= max(len(pile) - 1, 0):
                raise ValueError(f"pile {[text(c) for c in pile]}: its top card is face up")
            up = pile[down:]
            if any(not goes_on(a, b) for b, a in pairwise(up)):
                raise ValueError(f"pile {[text(c) for c in pile]}: its face-up cards do not build")
