"""Jeu du Boulanger's rules as the solver needs them (``engine.solver.rules.Rules``): every card
that can go home goes by itself, same-suit building, its estimate; no step price (its first
wins are short enough: 0.62 presses a move) and no auto-play."""

from __future__ import annotations

from engine.solver.rules import ColumnInfo, Rules, column_depths, column_disorder, sits_table


def settle(cols: list[bytes], cells: list[int], found: list[int]) -> list[int]:
    """Send home, in place, every card that can go; return them in order (in Jeu du Boulanger
    every card that can go home is safe: ``engine.solver.search``). Only the next card of a
    suit can go: the suits are asked in turn, each as long as its next card is a top or in a
    cell, until four in a row send nothing (a card gone home may have uncovered the next card
    of any suit)."""
    home: list[int] = []
    tops = {col[-1]: i for i, col in enumerate(cols) if col}
    s = idle = 0
    while idle < 4:
        f = found[s]
        c = 13 * s + f
        if f < 13 and (c in tops or c in cells):
            i = tops.pop(c, -1)
            if i >= 0:
                col = cols[i] = cols[i][:-1]
                if col:
                    tops[col[-1]] = i
            else:
                cells.remove(c)
            home.append(c)
            found[s] = f + 1
            idle = 0
        else:
            idle += 1
            s = (s + 1) % 4
    return home


# The estimate's order within a column: a card on the next card up (a king on the next suit's
# ace too: the order the weights below were tuned with).
_SITS = sits_table(lambda card, top: top == card + 1)


def column_info(col: bytes) -> ColumnInfo:
    return column_disorder(col, _SITS), column_depths(col)


def _next_home(card: int, found: list[int]) -> bool:
    return card % 13 == found[card // 13]


# Jeu du Boulanger's order: disorder, cells used, empty columns, cards home, and how deep the
# next card of each suit lies. Tuned with 4 cells by coordinate descent on the nodes of the
# winnable ones of deals 1-200 and of 150 random deal numbers (seed 7), never the benchmark's
# held-out seed 26: a used cell and an empty column weigh most (see docs/BENCHMARKS.md).
RULES = Rules(
    "bakers",
    tuple(((c + 1,) if c % 13 != 12 else ()) for c in range(52)),
    settle,
    _next_home,
    False,
    column_info,
    (1, 7, 6, 4, 2),
)
