"""FreeCell's rules as the solver needs them (``engine.solver.rules.Rules``): safe auto-play as
the cards that go home by themselves (the other moves home are steps of their own),
alternating colours, its estimate, its step price and its auto-play."""

from __future__ import annotations

from engine.freecell.rules import auto_run, opposite_colour_below, safe_home
from engine.solver.rules import ColumnInfo, Rules, column_depths, column_disorder, sits_table

# The estimate's order within a column: a card on a card that takes it.
_SITS = sits_table(opposite_colour_below)


def settle_safe(cols: list[bytes], cells: list[int], found: list[int]) -> list[int]:
    """FreeCell's ``settle``: send home, in place, every card safe auto-play sends (each may
    make more safe); return them in order. A pass over the board is made only while one of
    the suits' next cards is a top or in a cell and safe: most calls send nothing, or only
    what the first pass sends."""
    home: list[int] = []
    changed = True
    while changed:
        tops = [col[-1] for col in cols if col]
        for s, f in enumerate(found):
            if f < 13 and ((c := 13 * s + f) in tops or c in cells) and safe_home(c, found):
                break
        else:
            break
        changed = False
        for i, col in enumerate(cols):
            n = len(col)
            while n and safe_home(col[n - 1], found):
                found[col[n - 1] // 13] += 1
                home.append(col[n - 1])
                n -= 1
            if n != len(col):
                cols[i] = col[:n]
                changed = True
        for j in range(len(cells) - 1, -1, -1):
            c = cells[j]
            if safe_home(c, found):
                found[c // 13] += 1
                home.append(c)
                del cells[j]
                changed = True
    return home


def _column_info(col: bytes) -> ColumnInfo:
    """A column's disorder and, for each card (52: none), how many cards lie on it here (0 when
    it is not in this column): what ``search.estimate`` needs of a column, worked out once."""
    return column_disorder(col, _SITS), column_depths(col)


RULES = Rules(
    "freecell",
    tuple(tuple(t for t in range(52) if opposite_colour_below(c, t)) for c in range(52)),
    settle_safe,
    safe_home,
    True,
    _column_info,
    # FreeCell's order: Jeu du Boulanger's terms with its own column disorder, cells and empty
    # columns weighing more, and how deep the next card of each suit lies, which steers the
    # search toward the foundations.
    (3, 3, 3, 1, 3),
    # FreeCell's first wins are long (issue 22: presses per move): a second search orders by
    # the estimate plus 2 a step taken.
    step_price=2,
    auto_play=auto_run,
)
