"""Klondike's fixed rules: the deal (version 1), the build rule and the points of each move.

The deal and the build rule are the whole of what is Klondike about a card; the position
(``engine.klondike.position``) applies them, the game (``engine.klondike.game``) adds up the
points. Windows' standard scoring, without its time penalty and bonus (the time is on the
record already, and ranks):

* +5 a card from the waste to a pile; +10 a card to a foundation (from the waste or a pile);
  +5 a pile's face-down card turned up; -15 a card from a foundation back to a pile;
* turning the waste back over as the stock: draw 1, -100 every time; draw 3, free for the
  first four passes through the deck, then -20 every time;
* the score never shows below 0 (``KlondikeGame.score``).

Where from: Microsoft's Solitaire help, "Scoring Systems" (the Windows Mobile edition: "10
points for each card moved to a suit stack, 5 ... from the deck to a row stack, 5 ... turned
face-up in a row stack, -15 ... from a suit stack to a row stack, -20 points for each pass
through the deck after four passes (Draw Three), -100 ... after one pass (Draw One)"); pages
listing Windows' "standard scoring" give the same move values (and no +3). Left out: that
help's +3 for a card moved between piles (a shuttle between two piles would raise it forever),
the -2 per 10 seconds and the time bonus (time is on the record already, and ranks).
"""

from __future__ import annotations

from engine.cards import is_red, rank_of
from engine.dealing import shuffled_deck

NUM_PILES = 7
DEALT = 28  # cards dealt to the piles; the other 24 are the stock
KING = 13
FULL = 13  # cards on a complete foundation
DRAWS = (1, 3)  # the code's D option: cards turned at a time

WASTE_TO_PILE = 5
TO_FOUNDATION = 10
TURN_UP = 5
FOUNDATION_TO_PILE = -15
RECYCLE_PENALTY = {1: -100, 3: -20}
FREE_RECYCLES = {1: 0, 3: 3}  # turning the waste over three times gives four passes


def deal_layout(deal_number: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The seven piles (bottom card first; each pile's last card is its face-up top) and the
    stock (the next card to turn first) of a deal, version 1 (KLONDIKE.md): shuffled cards
    0..27 go row by row, row r one card on each of piles r..6; 28..51 are the stock."""
    deck = shuffled_deck(deal_number)
    piles: list[list[int]] = [[] for _ in range(NUM_PILES)]
    k = 0
    for row in range(NUM_PILES):
        for p in range(row, NUM_PILES):
            piles[p].append(deck[k])
            k += 1
    return tuple(tuple(p) for p in piles), tuple(deck[DEALT:])


def builds_on(card: int, target: int) -> bool:
    """Whether ``card`` may lie on ``target`` in a pile: one rank lower, the other colour."""
    return rank_of(card) + 1 == rank_of(target) and is_red(card) != is_red(target)


def run_start(pile: list[int], down: int) -> int:
    """Where the pile's top run begins: the lowest index from which every card, face up, builds
    on the one below it (``len(pile)`` for an empty pile)."""
    i = len(pile) - 1
    if i < 0:
        return 0
    while i > down and builds_on(pile[i], pile[i - 1]):
        i -= 1
    return i


def recycle_points(draw: int, recycles_before: int) -> int:
    """The points of turning the waste over when it has been turned over ``recycles_before``
    times already."""
    return 0 if recycles_before < FREE_RECYCLES[draw] else RECYCLE_PENALTY[draw]
