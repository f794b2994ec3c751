"""A second search for shorter wins: the core search's best-first order plus a price per step.

The core search (``engine.solver.search``) expands the state of least estimated cost, whatever
it took to get there: that finds wins in few nodes, but long ones (a FreeCell win of about 85
player moves, where 0.7 presses a move needs about 55: issue 22). This one orders states by the estimate
plus ``step_cost`` × the steps taken (weighted A*, the estimate being the core search's
``estimate``), so of two ways to a similar board the shorter one is expanded first. It plays
exactly the core search's single-card steps and sends the same cards home by themselves
(``Rules.settle``), so its steps are read like the core search's (``lines.to_notation``).

It is run after the core search has found a win (``solving.solve``), with a node budget: its
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
from functools import cache

from engine.solver.search import (
    CELL,
    EMPTY_COL,
    HOME,
    ON_BOTTOM,
    ON_CELL,
    ON_HOME,
    SOLVED,
    UNKNOWN,
    Cols,
    ColumnInfo,
    Found,
    Parent,
    Rules,
    Step,
    _collector_paused,
    _int_key,
    _nexts,
    _passes,
    estimate,
    state_key,
)

_CHECK_EVERY = 512
_CARD = tuple(bytes((c,)) for c in range(52))
_SHIFT = tuple(8 * c for c in range(52))  # where a card's byte sits in an integer key
_BIT = tuple(1 << c for c in range(53))
# A state: columns, cells (sorted bytes), foundations, the next card of each suit, key (an
# integer, as the core search's), the card its step moved (-1 when cards went home after it).
_State = tuple[list[bytes] | Cols, bytes, Found, Found, int, int]
# A step that sent nothing home: (from a cell, source column, card, destination, destination
# column, key of the state it leads to).
_Fresh = tuple[bool, int, int, int, int, int]
# On the heap: (priority, -sequence, estimate, steps taken, state, None), or the same with the
# parent state and the step: such a state is built only when it is taken off.
_Entry = tuple[int, int, int, int, _State, _Fresh | None]


@cache
def _onto_masks(onto: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """``Rules.onto`` as a bit mask of the cards each card may be put on."""
    return tuple(sum(1 << t for t in targets) for targets in onto)


class WeightedSearch:
    """A search from a start state ordered by estimate + ``step_cost`` × steps; ``run`` returns
    (verdict, steps), the verdict "solvable" or "unknown" (budget spent, or no win: the core
    search decides). It keys states as the core search does (``state_key`` read as an
    integer, so a step that sends nothing home adds one number) and builds a state reached by
    such a step only when it is taken off the heap, but lists its steps in its own order.

    ``avoid``: keys (``state_key``) of states the steps must not pass through, as the core
    search's ``avoid`` (the cards sent home from the start itself are not checked).
    ``cost_cache``: the core search's cache of ``Rules.column_info`` for the same rules, if it
    ran first (the same values, not worked out again)."""

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
        cost_cache: dict[bytes, ColumnInfo] | None = None,
    ) -> None:
        cols, cells, found = list(cols), list(cells), list(found)
        self.rules = rules
        self.start_home = rules.settle(cols, cells, found)
        cells.sort()
        self.start = (tuple(cols), tuple(cells), tuple(found))
        self.ncells = ncells
        self.step_cost = step_cost
        self.avoid = {_int_key(k) for k in avoid} if avoid else None
        self.nodes = 0
        self._cost_cache: dict[bytes, ColumnInfo] = {} if cost_cache is None else cost_cache

    def run(
        self,
        deadline: float | None = None,
        node_limit: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> tuple[str, list[Step]]:
        """Best first by estimate + ``step_cost`` × depth, the garbage collector paused as in
        the core search."""
        with _collector_paused():
            return self._run(deadline, node_limit, clock)

    def _run(
        self, deadline: float | None, node_limit: int | None, clock: Callable[[], float]
    ) -> tuple[str, list[Step]]:
        """The estimate is updated step by step from the one or two columns a step changes
        (each column's term cached for the next cards home), as in the core search. The steps
        of a state are listed cells first, then column tops in column order, and among equal
        priorities the last pushed is taken first: that order decides which of two equally
        short wins is found. The card the last step moved is not moved again next, as in the
        core search, unless cards went home."""
        cols0, cells0, found0 = self.start
        start_key = _int_key(state_key(cols0, cells0))
        if sum(found0) == 52:
            return SOLVED, [(c, HOME) for c in self.start_home]
        ncells = self.ncells
        avoid, rules, cache = self.avoid, self.rules, self._cost_cache
        onto, settle_now, goes_home, home_steps = rules.onto, rules.settle, rules.goes_home, rules.home_steps
        step_cost = self.step_cost
        parent: dict[int, Parent] = {start_key: (None, None, ())}
        wd, wc, we, wh, wn = rules.weights
        column_info = rules.column_info
        h0 = estimate(rules, cache, cols0, len(cells0), found0)
        heap: list[_Entry] = [
            (h0, 0, h0, 0, (cols0, bytes(cells0), found0, _nexts(found0), start_key, -1), None)
        ]
        seq = nodes = 0
        push, pop = heapq.heappush, heapq.heappop
        card_bytes, shift, bit = _CARD, _SHIFT, _BIT
        onto_mask = _onto_masks(onto)
        # For each set of next cards: each column's term of the estimate (an empty one's too).
        term_cache: dict[Found, dict[bytes, int]] = {}

        def term(col: bytes, na: int, nb: int, nc: int, nd: int) -> int:
            """A column's term of the estimate (``estimate``) while these are the next cards."""
            info = cache.get(col)
            if info is None:
                info = cache[col] = column_info(col)
            b = info[1]
            return wd * info[0] + wn * (b[na] + b[nb] + b[nc] + b[nd])

        limit = float("inf") if node_limit is None else node_limit
        while heap:
            _, _, cost, depth, state, step = pop(heap)
            if nodes >= limit or (deadline is not None and nodes % _CHECK_EVERY == 0 and clock() > deadline):
                break
            nodes += 1
            if step is None:
                cols, cells, found, nexts, key, last = state
            else:  # built now from its parent: the step moved one card, nothing went home
                pcols, cells, found, nexts, _, _ = state
                from_cell, src, last, dst, dcol, key = step
                cols = list(pcols)
                if from_cell:
                    cells = cells.replace(card_bytes[last], b"")
                else:
                    cols[src] = pcols[src][:-1]
                if dst == CELL:
                    at = bisect(cells, last)
                    cells = cells[:at] + card_bytes[last] + cells[at:]
                else:
                    cols[dcol] = pcols[dcol] + card_bytes[last]
                state = (cols, cells, found, nexts, key, last)
            tops: dict[int, int] = {}
            tm = 0  # the tops as a bit mask
            empty = -1
            for i, col in enumerate(cols):
                if col:
                    c = col[-1]
                    tops[c] = i
                    tm |= bit[c]
                elif empty < 0:
                    empty = i
            # The tops that may move: card, column, what it lies on, whether that goes home then.
            movers = []
            for c, i in tops.items():
                if c != last:
                    u = (key >> shift[c]) & 255
                    movers.append((c, i, u, u < 52 and u in nexts and goes_home(u, list(found))))

            # Candidate steps: (from a cell, source column, card, destination, destination
            # column, key, whether cards go home after it: then the key is the one before they
            # go). One that sends nothing home to a state already known (or avoided) is left
            # out here: no other step from this state leads to the same key.
            cand: list[tuple[bool, int, int, int, int, int, bool]] = []
            for c in cells:
                if c != last and tm & onto_mask[c]:
                    for t in onto[c]:
                        if tm & bit[t]:
                            nkey = key + ((t - ON_CELL) << shift[c])
                            if nkey not in parent and (avoid is None or nkey not in avoid):
                                cand.append((True, -1, c, t, tops[t], nkey, False))
            for c, i, u, whole in movers:
                if tm & onto_mask[c]:
                    for t in onto[c]:
                        if tm & bit[t]:
                            nkey = key + ((t - u) << shift[c])
                            if whole or (nkey not in parent and (avoid is None or nkey not in avoid)):
                                cand.append((False, i, c, t, tops[t], nkey, whole))
            if home_steps:
                for c in cells:
                    if c in nexts:
                        cand.append((True, -1, c, HOME, -1, key + ((ON_HOME - ON_CELL) << shift[c]), True))
                for c, i in tops.items():
                    if c in nexts:
                        u = (key >> shift[c]) & 255
                        cand.append((False, i, c, HOME, -1, key + ((ON_HOME - u) << shift[c]), True))
            if empty >= 0:
                for c in cells:
                    if c != last:
                        nkey = key + ((ON_BOTTOM - ON_CELL) << shift[c])
                        if nkey not in parent and (avoid is None or nkey not in avoid):
                            cand.append((True, -1, c, EMPTY_COL, empty, nkey, False))
                for c, i, u, whole in movers:
                    if u != ON_BOTTOM:
                        nkey = key + ((ON_BOTTOM - u) << shift[c])
                        if whole or (nkey not in parent and (avoid is None or nkey not in avoid)):
                            cand.append((False, i, c, EMPTY_COL, empty, nkey, whole))
            if len(cells) < ncells:
                for c, i, u, whole in movers:
                    nkey = key + ((ON_CELL - u) << shift[c])
                    if whole or (nkey not in parent and (avoid is None or nkey not in avoid)):
                        cand.append((False, i, c, CELL, -1, nkey, whole))

            terms = term_cache.get(nexts)
            if terms is None:
                terms = term_cache[nexts] = {b"": -we}
            na, nb, nc, nd = nexts
            for from_cell, src, card, dst, dcol, nkey, whole in cand:
                if not whole:
                    parent[nkey] = (key, (card, dst), ())
                    # The terms of the one or two columns changed, and the cells.
                    ncost = cost
                    if from_cell:
                        ncost -= wc
                    else:
                        old = cols[src]
                        v = terms.get(old)
                        if v is None:
                            v = terms[old] = term(old, na, nb, nc, nd)
                        ncost -= v
                        old = old[:-1]
                        v = terms.get(old)
                        if v is None:
                            v = terms[old] = term(old, na, nb, nc, nd)
                        ncost += v
                    if dst == CELL:
                        ncost += wc
                    else:
                        old = cols[dcol]
                        v = terms.get(old)
                        if v is None:
                            v = terms[old] = term(old, na, nb, nc, nd)
                        ncost -= v
                        old += card_bytes[card]
                        v = terms.get(old)
                        if v is None:
                            v = terms[old] = term(old, na, nb, nc, nd)
                        ncost += v
                    seq += 1
                    push(
                        heap,
                        (
                            ncost + step_cost * (depth + 1),
                            -seq,
                            ncost,
                            depth + 1,
                            state,
                            (from_cell, src, card, dst, dcol, nkey),
                        ),
                    )
                    continue
                # Cards go home after this step: the state is built and settled to know its key.
                ncols = list(cols)
                if from_cell:
                    ncells_b = cells.replace(card_bytes[card], b"")
                else:
                    ncols[src] = cols[src][:-1]
                    ncells_b = cells
                if dst == CELL:
                    at = bisect(ncells_b, card)
                    ncells_b = ncells_b[:at] + card_bytes[card] + ncells_b[at:]
                elif dst != HOME:
                    ncols[dcol] = ncols[dcol] + card_bytes[card]
                cells_list = list(ncells_b)
                nfound_list = list(found)
                if dst == HOME:
                    nfound_list[card // 13] += 1
                before = (list(ncols), list(cells_list)) if avoid is not None else None
                home = tuple(settle_now(ncols, cells_list, nfound_list))
                cells_list.sort()
                for c in home:  # each card's byte: what it lay on before, then home
                    nkey += (ON_HOME - ((nkey >> shift[c]) & 255)) << shift[c]
                if nkey in parent:
                    continue
                if avoid is not None and (
                    nkey in avoid or (before is not None and _passes(avoid, before, home))
                ):
                    continue
                parent[nkey] = (key, (card, dst), home)
                nfound: Found = tuple(nfound_list)
                if sum(nfound) == 52:
                    self.nodes = nodes
                    return SOLVED, self._path(parent, nkey)
                # The estimate (``estimate``) from each column's term for the new next cards.
                nnexts = _nexts(nfound)
                nterms = term_cache.get(nnexts)
                if nterms is None:
                    nterms = term_cache[nnexts] = {b"": -we}
                ncost = wc * len(cells_list) - wh * sum(nfound)
                for col in ncols:
                    v = nterms.get(col)
                    if v is None:
                        v = nterms[col] = term(col, *nnexts)
                    ncost += v
                seq += 1
                push(
                    heap,
                    (
                        ncost + step_cost * (depth + 1),
                        -seq,
                        ncost,
                        depth + 1,
                        (ncols, bytes(cells_list), nfound, nnexts, nkey, -1),
                        None,
                    ),
                )
        self.nodes = nodes
        return UNKNOWN, []

    def _path(self, parent: dict[int, Parent], key: int) -> list[Step]:
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
