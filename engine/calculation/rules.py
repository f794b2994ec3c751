"""Calculation's fixed rules: the four foundation sequences and the deal (SPEC §2, §3).

Suits never matter in Calculation, so everything past the deal works on ranks
(1 = A … 13 = K); cards keep their suits only so players can see them.
"""

from __future__ import annotations

from engine.cards import rank_of
from engine.dealing import shuffled_deck

NUM_FOUNDATIONS = 4
NUM_WASTE = 4
FULL = 13  # cards on a complete foundation
KING = 13


def next_rank(rank: int, step: int) -> int:
    """The rank a foundation building by ``step`` needs after ``rank``, wrapping K → A."""
    return (rank + step - 1) % 13 + 1


def _sequence(step: int) -> tuple[int, ...]:
    ranks = [step]
    while len(ranks) < FULL:
        ranks.append(next_rank(ranks[-1], step))
    return tuple(ranks)


# SEQUENCES[i][k]: the rank of the k-th card (0-based) of foundation i+1.
SEQUENCES: tuple[tuple[int, ...], ...] = tuple(_sequence(i + 1) for i in range(NUM_FOUNDATIONS))
# PLACE[i][rank]: where that rank sits in foundation i+1's sequence (index 0 unused).
PLACE: tuple[tuple[int, ...], ...] = tuple(
    tuple([-1] + [seq.index(r) for r in range(1, 14)]) for seq in SEQUENCES
)
assert all(seq[-1] == KING for seq in SEQUENCES)


def deal_cards(deal_number: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The four starting cards (A, 2, 3, 4) and the 48-card stock, first turned first."""
    deck = shuffled_deck(deal_number)
    starters: dict[int, int] = {}
    stock: list[int] = []
    for card in deck:
        rank = rank_of(card)
        if rank <= NUM_FOUNDATIONS and rank not in starters:
            starters[rank] = card
        else:
            stock.append(card)
    return tuple(starters[r] for r in range(1, NUM_FOUNDATIONS + 1)), tuple(stock)
