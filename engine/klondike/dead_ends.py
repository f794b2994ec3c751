"""A sound test that a Klondike position can never be won, whatever is played.

A pile card that does not build on the card under it can leave its pile only as the base of
a run, onto a card of the other colour one rank higher that tops another pile, or to its
foundation once every lower card of its suit is home (a king also to an empty pile). When
each of those is impossible because the cards it needs lie under it, or under another card
that can never leave, the card never leaves: the cards under it never go home, and the
game is lost. The test iterates that to a fixed point, from the position's cards alone
(every card known, as the solver sees them), so it may answer "not stuck" for a lost
position but never "stuck" for a winnable one.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.klondike.solver_state import KING, OPPOSITE, RANK, RED, SUIT


def _depths(piles: Sequence[bytes]) -> tuple[list[int], list[int]]:
    """For each card 0..51: its pile (-1 when not in a pile) and its index there."""
    pile_of, index_of = [-1] * 52, [-1] * 52
    for p, pile in enumerate(piles):
        for i, card in enumerate(pile):
            pile_of[card], index_of[card] = p, i
    return pile_of, index_of


def _buried(card: int, pile_of: list[int], index_of: list[int], stuck_at: list[int]) -> bool:
    """Whether ``card`` lies in a pile under a card that can never leave it."""
    p = pile_of[card]
    return p >= 0 and index_of[card] < stuck_at[p]


def stuck(piles: Sequence[bytes]) -> bool:
    """Whether some pile card can provably never leave its pile (the game is lost)."""
    pile_of, index_of = _depths(piles)
    stuck_at = [-1] * len(piles)  # per pile: the highest card found unable to leave (all under it buried)
    changed = True
    while changed:
        changed = False
        for p, pile in enumerate(piles):
            for i in range(len(pile) - 1, 0, -1):
                if i <= stuck_at[p]:
                    break
                if _cannot_leave(pile, i, pile_of, index_of, stuck_at):
                    stuck_at[p] = i
                    changed = True
                    break
    return any(low > 0 for low in stuck_at)


def _cannot_leave(pile: bytes, i: int, pile_of: list[int], index_of: list[int], stuck_at: list[int]) -> bool:
    card, under = pile[i], pile[i - 1]
    rank = RANK[card]
    if rank == KING or (RANK[under] == rank + 1 and RED[under] != RED[card]):
        return False  # a king may find an empty pile; a card on its build leaves with it

    def blocked(other: int) -> bool:
        same_pile_below = pile_of[other] == pile_of[card] and index_of[other] < i
        return same_pile_below or _buried(other, pile_of, index_of, stuck_at)

    suit = SUIT[card]
    if not any(blocked(suit * 13 + r) for r in range(rank - 1)):
        return False  # every lower card of its suit may still reach home
    return all(blocked(s * 13 + rank) for s in OPPOSITE[suit])
