"""A second search for shorter wins: the core search's best-first order plus a price per step.

The core search (``engine.solver.search``) expands the state of least estimated cost, whatever
it took to get there: that finds wins in few nodes, but long ones (a FreeCell win of about 85
player moves, where 0.7 presses a move needs about 55: issue 22). This one orders states by the estimate
plus ``step_cost`` × the steps taken (weighted A*, the estimate being the core search's
``estimate``), so of two ways to a similar board the shorter one is expanded first. It plays
exactly the core search's single-card steps and sends the same cards home by themselves
(``Rules.settle``), so its steps are read like the core search's (``api.to_notation``).

It is run after the core search has found a win (``api.solve``), with a node budget: its
result replaces the first win only when it finds one in that budget, and a verdict is never
its business (it is not exhaustive-minded: "unsolvable" and "unknown" come from the core
search). Which games get it, and how dear a step is, is ``rules.STEP_COST``.

The core search's ``avoid`` (positions a hint must not pass) is honoured the same way; its
``dead`` (positions proven lost) is not used: this search runs only where a win exists.
"""

from __future__ import annotations

import heapq
import time
from bisect import bisect
from collections.abc import Callable

from engine.solver.search import (
    CELL,
    EMPTY_COL,
    HOME,
    NO_CARD,
    SOLVED,
    UNKNOWN,
    Cells,
    Cols,
    ColumnInfo,
    Found,
    Rules,
    Step,
    estimate,
    state_key,
)

_CHECK_EVERY = 512
_CARD = tuple(bytes((c,)) for c in range(52))
# For each state reached: (the state it was reached from, the step, the cards sent home after it).
_Parent = tuple[bytes | None, Step | None, Cells]


class WeightedSearch:
    """A search from a start state ordered by estimate + ``step_cost`` × steps; ``run`` returns
    (verdict, steps), the verdict "solvable" or "unknown" (budget spent, or no win: the core
    search decides). It touches nothing of the core search's but its public parts (``Rules``,
    ``estimate``, ``state_key``), so the core may change how it keys and prunes states.

    ``avoid``: keys (``state_key``) of states the steps must not pass through, as the core
    search's ``avoid`` (the cards sent home from the start itself are not checked)."""

    def __init__(
        self,
        cols: list[bytes],
        cells: list[int],
        found: list[int],
        ncells: int,
        *,
        rules: Rules,
        step_cost: int,
        avoid: frozenset[bytes] | set[bytes] | None = None,
    ) -> None:
        cols, cells, found = list(cols), list(cells), list(found)
        self.rules = rules
        self.start_home = rules.settle(cols, cells, found)
        cells.sort()
        self.start = (tuple(cols), tuple(cells), tuple(found))
        self.ncells = ncells
        self.step_cost = step_cost
        self.avoid = avoid or None
        self.nodes = 0
        self._cost_cache: dict[bytes, ColumnInfo] = {}

    def run(
        self,
        deadline: float | None = None,
        node_limit: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> tuple[str, list[Step]]:
        """Best first by estimate + ``step_cost`` × depth; the estimate is updated step by step
        from the one or two columns a step changes, as in the core search. A heap entry is
        (priority, -sequence, estimate, depth, columns, cells as sorted bytes, foundations,
        key, the card its step moved: not moved again next, as in the core search, unless
        cards went home)."""
        cols0, cells0, found0 = self.start
        start_key = state_key(cols0, cells0)
        if sum(found0) == 52:
            return SOLVED, [(c, HOME) for c in self.start_home]
        ncells = self.ncells
        avoid, rules, cache = self.avoid, self.rules, self._cost_cache
        onto, settle_now, goes_home, home_steps = rules.onto, rules.settle, rules.goes_home, rules.home_steps
        step_cost = self.step_cost
        parent: dict[bytes, _Parent] = {start_key: (None, None, ())}
        wd, wc, we, _, wn = rules.weights
        column_info = rules.column_info
        heap: list[tuple[int, int, int, int, Cols, bytes, Found, bytes, int]] = [
            (
                h0 := estimate(rules, cache, cols0, len(cells0), found0),
                0,
                h0,
                0,
                cols0,
                bytes(cells0),
                found0,
                start_key,
                -1,
            )
        ]
        seq = nodes = 0

        def term(col: bytes, na: int, nb: int, nc: int, nd: int) -> int:
            """A column's part of the estimate (``estimate``), the next cards of the suits given."""
            if not col:
                return -we
            info = cache.get(col)
            if info is None:
                info = cache[col] = column_info(col)
            below = info[1]
            return wd * info[0] + wn * (below[na] + below[nb] + below[nc] + below[nd])

        limit = float("inf") if node_limit is None else node_limit
        while heap:
            _, _, cost, depth, cols, cells, found, key, last = heapq.heappop(heap)
            if nodes >= limit or (deadline is not None and nodes % _CHECK_EVERY == 0 and clock() > deadline):
                break
            nodes += 1
            tops: dict[int, int] = {}
            empty = -1
            for i, col in enumerate(cols):
                if col:
                    tops[col[-1]] = i
                elif empty < 0:
                    empty = i
            nexts = tuple(13 * s + f if f < 13 else NO_CARD for s, f in enumerate(found))

            # Candidate steps, as the core search lists them: (from a cell, source index, card,
            # destination, destination column)
            cand: list[tuple[bool, int, int, int, int]] = []
            for j, c in enumerate(cells):
                if c != last:
                    cand += [(True, j, c, t, tops[t]) for t in onto[c] if t in tops]
            for c, i in tops.items():
                if c != last:
                    cand += [(False, i, c, t, tops[t]) for t in onto[c] if t in tops]
            if home_steps:
                cand += [(True, j, c, HOME, -1) for j, c in enumerate(cells) if c in nexts]
                cand += [(False, i, c, HOME, -1) for c, i in tops.items() if c in nexts]
            if empty >= 0:
                cand += [(True, j, c, EMPTY_COL, empty) for j, c in enumerate(cells) if c != last]
                cand += [
                    (False, i, c, EMPTY_COL, empty) for c, i in tops.items() if c != last and len(cols[i]) > 1
                ]
            if len(cells) < ncells:
                cand += [(False, i, c, CELL, -1) for c, i in tops.items() if c != last]
            for from_cell, src, card, dst, dcol in cand:
                ncols = list(cols)
                if from_cell:
                    ncells_b = cells[:src] + cells[src + 1 :]
                    uncovered = -1
                else:
                    rest = ncols[src] = cols[src][:-1]
                    uncovered = rest[-1] if rest else -1
                    ncells_b = cells
                if dst == CELL:
                    at = bisect(ncells_b, card)
                    ncells_b = ncells_b[:at] + _CARD[card] + ncells_b[at:]
                elif dst != HOME:
                    ncols[dcol] = ncols[dcol] + _CARD[card]
                home: Cells = ()
                before: tuple[list[bytes], list[int]] | None = None
                nfound: Found = found
                whole = dst == HOME or (uncovered in nexts and goes_home(uncovered, list(found)))
                if whole:
                    cells_list = list(ncells_b)
                    nfound_list = list(found)
                    if dst == HOME:
                        nfound_list[card // 13] += 1
                    if avoid is not None:
                        before = (list(ncols), list(cells_list))
                    home = tuple(settle_now(ncols, cells_list, nfound_list))
                    cells_list.sort()
                    ncells_b = bytes(cells_list)
                    nfound = tuple(nfound_list)
                nkey = state_key(ncols, tuple(ncells_b))
                if nkey in parent:
                    continue
                if avoid is not None and (
                    nkey in avoid or (before is not None and _passes(avoid, before, home))
                ):
                    continue
                parent[nkey] = (key, (card, dst), home)
                if whole and sum(nfound) == 52:
                    self.nodes = nodes
                    return SOLVED, self._path(parent, nkey)
                if whole:
                    ncost = estimate(rules, cache, ncols, len(ncells_b), nfound)
                else:  # the terms of the one or two columns changed, and the cells
                    ncost = cost + wc * (len(ncells_b) - len(cells))
                    if not from_cell:
                        ncost += term(ncols[src], *nexts) - term(cols[src], *nexts)
                    if dst != CELL:
                        ncost += term(ncols[dcol], *nexts) - term(cols[dcol], *nexts)
                seq += 1
                heapq.heappush(
                    heap,
                    (
                        ncost + step_cost * (depth + 1),
                        -seq,
                        ncost,
                        depth + 1,
                        tuple(ncols),
                        ncells_b,
                        nfound,
                        nkey,
                        -1 if whole else card,
                    ),
                )
        self.nodes = nodes
        return UNKNOWN, []

    def _path(self, parent: dict[bytes, _Parent], key: bytes) -> list[Step]:
        rev: list[list[Step]] = []
        while True:
            pkey, step, home = parent[key]
            if pkey is None or step is None:  # the start
                break
            rev.append([step, *((c, HOME) for c in home)])
            key = pkey
        out: list[Step] = [(c, HOME) for c in self.start_home]
        for chunk in reversed(rev):
            out.extend(chunk)
        return out


def _passes(avoid: frozenset[bytes] | set[bytes], before: tuple[list[bytes], list[int]], home: Cells) -> bool:
    """Whether a step whose cards ``home`` then went home (in that order) passed through a state
    in ``avoid`` before the last of them went: ``before`` is the state right after the step."""
    cols, cells = list(before[0]), list(before[1])
    if state_key(cols, cells) in avoid:
        return True
    for card in home[:-1]:
        if card in cells:
            cells.remove(card)
        else:
            i = next(i for i, col in enumerate(cols) if col and col[-1] == card)
            cols[i] = cols[i][:-1]
        if state_key(cols, cells) in avoid:
            return True
    return False
