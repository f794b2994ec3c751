"""Klondike's dealing, version 1, written again from SPEC.md §3 and KLONDIKE.md: it shares no
code with engine/, so the oracle's tests also check the engine's dealer."""

from __future__ import annotations

from tests.klondike_oracle.layout import Position

MASK = (1 << 64) - 1


def shuffle(deal: int) -> list[int]:
    """SPEC §3 steps 1-3: SplitMix64 seeded with the deal number drives Fisher-Yates."""
    deck = list(range(52))
    state = deal & MASK
    for i in range(51, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = (z ^ (z >> 31)) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(number: int) -> Position:
    """Shuffled cards 0..27 row by row (row r covers piles r..6), 28..51 the stock, 28 first."""
    deck = shuffle(number)
    piles: list[list[int]] = [[] for _ in range(7)]
    dealt = 0
    for row in range(7):
        for pile in range(row, 7):
            piles[pile].append(deck[dealt])
            dealt += 1
    return Position(
        piles=tuple(tuple(p) for p in piles),
        face_down=tuple(range(7)),
        stock=tuple(deck[28:]),
        waste=(),
        foundations=(0, 0, 0, 0),
    )
