"""Dealing algorithm version 1 (SPEC §3): SplitMix64 + Fisher–Yates.

Fixed forever: a new algorithm gets a new version number. Python's ``random``
is deliberately not used, its output is not promised across versions.
"""

from __future__ import annotations

from collections.abc import Iterator

MASK64 = (1 << 64) - 1


def splitmix64(seed: int) -> Iterator[int]:
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def shuffled_deck(deal_number: int) -> list[int]:
    """The 52 cards (0 = A♠ … 51 = K♣) in the shuffled order of a deal number."""
    deck = list(range(52))
    rng = splitmix64(deal_number)
    for i in range(51, 0, -1):
        j = next(rng) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
