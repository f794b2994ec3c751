"""A second, independent thoughtful-Klondike search for the solver's tests: depth-first
over every legal move of the rules-only simulator (tests/klondike_sim.py), no dominance, no
macro moves, no symmetry, a card back from home only when some card could use it; only for small positions (a few cards out of the foundations)."""

from __future__ import annotations

from tests.klondike_sim import Illegal, Table, rank, red

SUITS = "shdc"


def candidate_moves() -> list[str]:
    """Every notation string there is; the simulator refuses the illegal ones."""
    moves = ["s", "wh", *(f"w{j}" for j in range(1, 8)), *(f"{i}h" for i in range(1, 8))]
    moves += [f"{i}{j}" for i in range(1, 8) for j in range(1, 8) if i != j]
    moves += [f"h{s}{j}" for s in SUITS for j in range(1, 8)]
    return moves


MOVES = candidate_moves()


def clone(table: Table) -> Table:
    piles = [[list(entry) for entry in pile] for pile in table.piles]
    return Table(piles, list(table.stock), list(table.waste), list(table.found), table.draw)


def table_key(table: Table) -> tuple[object, ...]:
    piles = tuple(tuple((int(c), bool(up)) for c, up in pile) for pile in table.piles)
    return piles, tuple(table.stock), tuple(table.waste), tuple(table.found)


def worth_returning(table: Table, suit: int) -> bool:
    """A card back from home is worth it only if something out of the foundations could end
    up on it: a card out of the foundations below it whose colour alternates with it down
    the ranks (one rank lower the other colour, two lower the same, ...)."""
    card = suit * 13 + table.found[suit] - 1
    for other in range(4):
        for r in range(table.found[other] + 1, rank(card)):
            if (red(other * 13) != red(card)) == ((rank(card) - r) % 2 == 1):
                return True
    return False


def brute_winnable(table: Table, limit: int = 200_000) -> bool | None:
    """Whether a won table is reachable (None: more than ``limit`` tables), depth first."""
    seen = {table_key(table)}
    stack = [table]
    while stack:
        here = stack.pop()
        if here.won():
            return True
        for move in reversed(MOVES):  # the stack tries sends home first
            if move[0] == "h" and not worth_returning(here, SUITS.index(move[1])):
                continue
            there = clone(here)
            try:
                there.play(move)
            except Illegal:
                continue
            k = table_key(there)
            if k not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(k)
                stack.append(there)
    return False
