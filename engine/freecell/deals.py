"""Microsoft FreeCell's deals 1 to 1,000,000, card for card.

The generator is the one Windows FreeCell used (and fc-solve's
``make-microsoft-freecell-board`` reproduces): the C library's linear
congruential generator seeded with the deal number, ``seed = seed * 214013 +
2531011 (mod 2^31)``, each draw ``seed >> 16``. The deck starts in Microsoft's
order, rank-major with suits clubs, diamonds, hearts, spades (AC AD AH AS 2C …);
the card dealt k-th is ``deck[r mod (52 - k)]`` for the k-th draw r, whose place
the last card of the remaining deck then takes. Dealt card k goes onto column
(k mod 8), as in every FreeCell-family deal here.
"""

from __future__ import annotations

from engine.cards import SUITS
from engine.codes import NumberedDeals

MS_DEALS = NumberedDeals("MS", 1, 1_000_000, "Microsoft FreeCell")
_MS_SUITS = "CDHS"
# Microsoft's card i (rank i // 4, suit "CDHS"[i % 4]) as one of ours (suit * 13 + rank - 1).
_OURS = tuple(SUITS.index(_MS_SUITS[i % 4]) * 13 + i // 4 for i in range(52))


def ms_deck(deal: int) -> list[int]:
    """The 52 cards (ours, ``engine.cards``) in the order Microsoft's deal ``deal`` deals them."""
    MS_DEALS.check(deal)
    seed = deal
    deck = list(range(52))
    out = []
    for left in range(52, 0, -1):
        seed = (seed * 214013 + 2531011) & 0x7FFFFFFF
        j = (seed >> 16) % left
        out.append(_OURS[deck[j]])
        deck[j] = deck[left - 1]
    return out
