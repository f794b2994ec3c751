"""Cards as small integers: index = suit * 13 + rank - 1 (0 = A♠, 51 = K♣).

Integers keep the hot paths (dealing, move checks, solver) cheap; the helpers
here are the only place that knows how a card is written.
"""

from __future__ import annotations

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANKS = "A23456789TJQK"
RED_SUITS = frozenset({1, 2})

Card = int


def suit_of(card: Card) -> int:
    return card // 13


def rank_of(card: Card) -> int:
    """1 (ace) to 13 (king)."""
    return card % 13 + 1


def make_card(suit: int, rank: int) -> Card:
    return suit * 13 + rank - 1


def is_red(card: Card) -> bool:
    return card // 13 in RED_SUITS


def rank_text(rank: int, *, ten: str = "T") -> str:
    return ten if rank == 10 else RANKS[rank - 1]


def card_text(card: Card) -> str:
    """fc-solve's form: rank then suit letter, ``T`` for ten (``TH``)."""
    return RANKS[card % 13] + SUITS[card // 13]


def card_label(card: Card) -> str:
    """The form players read: ``10♥``, ``Q♠``."""
    return _LABELS[card]


_LABELS = tuple(rank_text(c % 13 + 1, ten="10") + SUIT_SYMBOLS[c // 13] for c in range(52))


def parse_card(text: str) -> Card:
    """Read ``TH``, ``10h``, ``qs`` or ``Q♠``; raise ``ValueError`` otherwise."""
    t = text.strip().upper()
    if len(t) < 2 or len(t) > 3:
        raise ValueError(f"not a card: {text!r}")
    rank_part, suit_part = t[:-1], t[-1]
    if suit_part in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(suit_part)
    elif suit_part in SUITS:
        suit = SUITS.index(suit_part)
    else:
        raise ValueError(f"not a card: {text!r} (unknown suit {suit_part!r})")
    if rank_part == "10":
        rank = 10
    elif len(rank_part) == 1 and rank_part in RANKS:
        rank = RANKS.index(rank_part) + 1
    else:
        raise ValueError(f"not a card: {text!r} (unknown rank {rank_part!r})")
    return make_card(suit, rank)
