"""The core search: single-card moves on a compact state, best first, complete.

One search serves every game of the eight-column layout; what differs is the game's
``Rules`` (``engine.solver.rules``, handed by the game: Jeu du Boulanger's in
``engine.bakers.solving``, FreeCell's in ``engine.freecell.solving``): which cards a card
may be put on, which cards go home by themselves, the ordering heuristic. The proofs
below are written for Jeu du Boulanger, where every card that can go home is
safe; in FreeCell only the cards of the safe auto-play rule are (the same
argument: nothing can ever be put on them, see ``engine.freecell.position``),
and the other moves home are ordinary steps of the search.

A state is ``(cols, cells, found)``: ``cols`` a tuple of 8 ``bytes`` (card ints,
bottom first), ``cells`` the cards held in free cells, in any order (empty
cells are implicit: ``ncells - len(cells)``), ``found`` a tuple of 4 counts.
Its key for the transposition table says, for each card, what it lies on (a card, the
bottom of a column, a free cell or home; ``state_key``): which column holds a pile and
which cell a card never matter to what can be done, and the key is blind to both without
sorting anything; a step changes one byte of it (suits are *not* merged: the
foundations are per suit and the cards differ).

Why single-card moves are enough: a group move is by definition a shortcut for
moving its cards one at a time through free cells and empty columns, so every
position reachable with group moves is reachable with single-card moves, and a
search of all single-card moves is complete.

Why every card that can go home is sent home at once (``_settle``), without
losing any solution. Let card X (suit s, rank r) be playable home in position
P, i.e. r-1 cards of suit s are home, and let P' be P with X sent home.

* Nothing can ever be put on X: only the same-suit card one rank lower goes on
  X, and that card is already on its foundation, which is final. So X is always
  the top of its column or alone in a cell, in P and in any later position.
* Take any winning sequence of single-card moves from P and delete the moves of
  X. Play the rest from P'. At every step the board equals the original one
  minus X. A move of card Y onto a column top Z is still legal: Z was the
  original top, and Z ≠ X because nothing goes on X. A move into an empty
  column or free cell is still legal: removing X only frees places. A move of Y
  home is still legal: the foundations hold at least the original cards (X is
  the only extra one, and any card of suit s above X went home after X
  originally). So the shortened sequence wins from P'.

Hence P is winnable iff P' is, and the search may send all such cards home as
part of the move that made them playable. The "lost" verdict therefore
remains a proof: the search enumerates every position reachable by single-card
moves (up to these forced, harmless foundation moves) and finds no win.

The order is best first (a cheap per-column score, cached per column, see ``Rules``),
which finds solutions fast; since every reachable state is still visited once
when no win exists, the same search run without a budget is the exhaustive mode
that proves a deal unwinnable. The same loop, given a price per step
(``Search(step_price=…)``), orders states by the estimate plus that price times the steps
taken (weighted A*): the second, shorter-minded search a game with a ``Rules.step_price``
gets once a first win is found (``solving.solve``), within a node budget.
"""

from __future__ import annotations

import gc
import heapq
import threading
import time
from bisect import bisect
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache

from engine.solver.result import LOST, UNKNOWN, WINNABLE, Verdict
from engine.solver.rules import NO_CARD, ColumnInfo, Rules

Cols = tuple[bytes, ...]
Cells = tuple[int, ...]
Found = tuple[int, ...]

# Where a step sends a card: a column top card (>= 0) or one of these.
HOME = -1
CELL = -2
EMPTY_COL = -3

Step = tuple[int, int]  # (card, destination)
Parent = tuple[int | None, Step | None, tuple[int, ...]]  # (previous key, step, cards sent home after it)


_CHECK_EVERY = 512
_CARD = tuple(bytes((c,)) for c in range(52))
# What a card lies on, in a state key: another card (0..51) or one of these.
ON_BOTTOM, ON_CELL, ON_HOME = 52, 53, 54


def estimate(
    rules: Rules, cache: dict[bytes, ColumnInfo], cols: Sequence[bytes], ncells_used: int, found: Found
) -> int:
    """The best-first cost of a state, worked out whole: weighted, each column's disorder
    (``column_info``) and the cards lying on the next card of each suit, the cells used,
    minus the empty columns and the cards home. The search keeps it up to date step by step
    (``Search.run``); this is the same sum."""
    wd, wc, we, wh, wn = rules.weights
    na, nb, nc, nd = _nexts(found)
    total = wc * ncells_used - wh * sum(found)
    for col in cols:
        if not col:
            total -= we
            continue
        info = cache.get(col)
        if info is None:
            info = cache[col] = rules.column_info(col)
        b = info[1]
        total += wd * info[0] + wn * (b[na] + b[nb] + b[nc] + b[nd])
    return total


def state_key(cols: Sequence[bytes], cells: Sequence[int]) -> bytes:
    """The transposition key: for each card 0..51, what it lies on (the card below it,
    ``ON_BOTTOM``, ``ON_CELL`` or ``ON_HOME``). The same for any order of the columns and of
    the cells, and a state's columns, cells and foundations follow from it: the bottoms start
    the columns, each card has at most one card on it."""
    below = bytearray(_ALL_HOME)
    for col in cols:
        prev = ON_BOTTOM
        for c in col:
            below[c] = prev
            prev = c
    for c in cells:
        below[c] = ON_CELL
    return bytes(below)


_ALL_HOME = bytes((ON_HOME,)) * 52


def _int_key(key: bytes) -> int:
    """A state key (``state_key``) as the search's table holds it: the same bytes read as one
    little-endian integer, so that a step, which changes one byte, is one addition."""
    return int.from_bytes(key, "little")


def _bytes_key(key: int) -> bytes:
    return key.to_bytes(52, "little")


_BIT = tuple(1 << c for c in range(52))
_SHIFT = tuple(8 * c for c in range(52))  # where a card's byte sits in an integer key


@cache
def _onto_shifts(onto: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """``Rules.onto`` as (cards mask, shift) pairs: a card ``c`` of the mask goes on ``c +
    shift``. With the column tops and cells as bit masks, every card that fits on a top is
    then found by a few integer operations per shift (one shift in Jeu du Boulanger)."""
    masks: dict[int, int] = {}
    for c, targets in enumerate(onto):
        for t in targets:
            masks[t - c] = masks.get(t - c, 0) | 1 << c
    return tuple((mask, shift) for shift, mask in sorted(masks.items()))


def _tops_of(cols: Sequence[bytes]) -> tuple[dict[int, int], int]:
    """Each column top card's column, and the tops as a bit mask."""
    tops = {col[-1]: i for i, col in enumerate(cols) if col}
    mask = 0
    for c in tops:
        mask |= 1 << c
    return tops, mask


def _cells_mask(cells: Iterable[int]) -> int:
    mask = 0
    for c in cells:
        mask |= 1 << c
    return mask


_GC_LOCK = threading.Lock()
_gc_pause = [0, False]  # searches running, whether the collector was on before the first


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a search runs (in any thread), back as it was
    after the last: a search makes no reference cycles (tuples, lists and dicts of ints and
    bytes, freed by their counts), but the collector's passes over the tens of thousands of
    live states on the heap cost about 7 % of the search's CPU."""
    with _GC_LOCK:
        if _gc_pause[0] == 0:
            _gc_pause[1] = gc.isenabled()
            gc.disable()
        _gc_pause[0] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _gc_pause[0] -= 1
            if _gc_pause[0] == 0 and _gc_pause[1]:
                gc.enable()


# A state (see ``Search.run``): columns, cells, foundations, next cards, key, the card its step
# moved, each top's column, the tops and the cells as bit masks (``_NO_TOPS``, -1 and 0 until
# a state pushed whole is taken off the heap), the steps taken to it.
State = tuple[list[bytes] | Cols, bytes, Found, Found, int, int, dict[int, int], int, int, int]
# A step from a state: (kind, source, card, destination, destination column, key of the state
# it leads to, whether cards go home after it). The kind says where the card goes from, a cell
# (even) or a column (odd), and to: onto a column top (0, 1), home (2, 3), an empty column
# (4, 5), a free cell (7); the source is the card for a cell, else its column. Sorted, a
# state's steps are in a fixed order (see ``Search``).
Fresh = tuple[int, int, int, int, int, int, bool]
_NO_TOPS: dict[int, int] = {}
ONTO_FROM_CELL, ONTO_FROM_COLUMN, HOME_FROM_CELL, HOME_FROM_COLUMN = 0, 1, 2, 3
EMPTY_FROM_CELL, EMPTY_FROM_COLUMN, CELL_FROM_COLUMN = 4, 5, 7
# On the heap: (priority, -sequence, state, None) or (priority, -sequence, parent state, step):
# a state reached by a step that sent nothing home is built only when it is taken off the heap.
# The priority is the estimate plus ``step_price`` × the steps taken.
Entry = tuple[int, int, State, Fresh | None]


class Search:
    """One search from a start state; ``run`` returns (verdict, steps).

    ``rules``: the game's (``engine.solver.rules``). ``step_price`` (0: the first search)
    orders states by the estimate plus that price per step taken, so of two ways to a similar
    board the shorter is expanded first: the second, shorter-minded search (``solving.solve``
    runs it with a node budget once a win is found; its verdict is not used). A priced
    search lists a state's steps in a fixed order (cells by card, then columns left to right;
    onto a top, home, into an empty column, into a cell) and keeps its cells sorted, where the
    first search lists them as it finds them; among equal priorities the step listed last is
    taken first. ``cost_cache``: an earlier search's ``cost_cache`` with the same rules
    (each column's ``Rules.column_info``, not worked out again).

    ``dead`` (optional) holds the table keys (integers, see ``run``) of states already proven
    unwinnable by an earlier exhausted search; they are pruned and, when this search exhausts
    too, every state it visited is added to it.

    ``avoid`` (optional) holds keys (``state_key``) of states the search must not
    pass through: a step is not taken when the position it reaches, or any
    position on the way as its cards go home one at a time, has a key in
    ``avoid``. The hint uses it for the positions a game has already been in. A
    search with ``avoid`` decides "winnable without passing through those", so
    its ``dead`` set must be one kept for that same ``avoid`` set only. The cards
    sent home from the start state itself (``start_home``, before any step) are
    not checked: a caller that cares tries the start's moves one by one.

    ``wins`` (optional) holds keys of states already known to be winnable (the line of an
    earlier win, issue 26): the search ends as soon as it reaches one, ``joined`` naming it,
    and its steps lead there rather than home (every state on a way to a winnable state is
    winnable), so a player's step off a known line costs a short search back to it.
    """

    def __init__(
        self,
        cols: list[bytes],
        cells: list[int],
        found: list[int],
        ncells: int,
        *,
        rules: Rules,
        step_price: int = 0,
        dead: set[int] | None = None,
        avoid: frozenset[bytes] | set[bytes] | None = None,
        wins: Iterable[bytes] | None = None,
        cost_cache: dict[bytes, ColumnInfo] | None = None,
    ) -> None:
        cols = list(cols)
        # The start's cells as the position holds them (a priced search) or sorted: the order
        # the game's ``settle`` meets them in, which orders the cards it sends home.
        cells = list(cells) if step_price else sorted(cells)
        found = list(found)
        self.rules = rules
        self.step_price = step_price
        self.start_home = rules.settle(cols, cells, found)
        cells.sort()
        self.start = (tuple(cols), tuple(cells), tuple(found))
        self.ncells = ncells
        self.nodes = 0
        self.dead = dead
        self.avoid = {_int_key(k) for k in avoid} if avoid else None
        self.wins = {_int_key(k) for k in wins} if wins else None
        self.joined: bytes | None = None  # the state of ``wins`` the steps lead to
        # Each column's ``Rules.column_info``: a later search with the same rules may share it.
        self.cost_cache: dict[bytes, ColumnInfo] = {} if cost_cache is None else cost_cache

    def run(
        self,
        deadline: float | None = None,
        node_limit: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> tuple[Verdict, list[Step]]:
        """The search (``_run``), the garbage collector paused meanwhile."""
        with _collector_paused():
            return self._run(deadline, node_limit, clock)

    def _run(
        self,
        deadline: float | None,
        node_limit: int | None,
        clock: Callable[[], float],
    ) -> tuple[Verdict, list[Step]]:
        """Best first from the start (``Entry``, ``State``). A step changes the estimate by the
        terms of the one or two columns it changes (``Rules``; each column's term cached for
        the current next cards home), unless cards went home, when it is worked out whole
        (``estimate``); the priority adds ``step_price`` × the steps taken.

        The table's key is ``state_key`` read as an integer (``_int_key``): a step that sends
        nothing home changes one card's byte, so the key of the state it leads to is the
        parent's plus one number, and a state already known is dropped before anything of it
        is built. A new state such a step leads to goes on the heap as its parent and the
        step, with its priority: it is built when taken off, and on a winnable deal about half
        never are. A step that uncovers a card going home is built and settled first.

        The card the last step moved is not moved again (unless that step sent cards home):
        any place it could go next it could have gone straight from where it was (the other
        column tops are unchanged, and the cells and empty columns only differ by the place
        it left, where going leads back), so the state is already known from the state before;
        skipping it only saves building a key that is found in the table."""
        cols0, cells0, found0 = self.start
        start_key = _int_key(state_key(cols0, cells0))
        if sum(found0) == 52:
            return WINNABLE, [(c, HOME) for c in self.start_home]
        ncells = self.ncells
        dead = self.dead
        avoid = self.avoid
        if dead is not None and start_key in dead:
            return LOST, []
        wins = self.wins
        if wins is not None and start_key in wins:
            self.joined = _bytes_key(start_key)
            return WINNABLE, [(c, HOME) for c in self.start_home]
        rules = self.rules
        cache = self.cost_cache
        price = self.step_price
        ordered = price > 0  # steps listed in a fixed order, cells kept sorted (see the class)
        parent: dict[int, Parent] = {start_key: (None, None, ())}
        tops0, tm0 = _tops_of(cols0)
        start: State = (
            cols0,
            bytes(cells0),
            found0,
            _nexts(found0),
            start_key,
            -1,
            tops0,
            tm0,
            _cells_mask(cells0),
            0,
        )
        heap: list[Entry] = [(estimate(rules, cache, cols0, len(cells0), found0), 0, start, None)]
        seq = 0
        nodes = 0
        limit = float("inf") if node_limit is None else node_limit
        push = heapq.heappush
        pop = heapq.heappop
        onto_shifts = _onto_shifts(rules.onto)
        settle_now = rules.settle
        goes_home = rules.goes_home
        home_steps = rules.home_steps
        column_info = rules.column_info
        wd, wc, we, wh, wn = rules.weights

        def term(col: bytes, na: int, nb: int, nc: int, nd: int) -> int:
            """A column's term of the cost (``estimate``) while these are the next cards home."""
            info = cache.get(col)
            if info is None:
                info = cache[col] = column_info(col)
            b = info[1]
            return wd * info[0] + wn * (b[na] + b[nb] + b[nc] + b[nd])

        term_cache: dict[Found, tuple[dict[bytes, int], dict[bytes, int]]] = {}
        card_bytes = _CARD
        bit = _BIT
        shift = _SHIFT
        check = _CHECK_EVERY
        while heap:
            cost, _, state, step = pop(heap)
            if nodes >= limit or (deadline is not None and nodes % check == 0 and clock() > deadline):
                self.nodes = nodes
                return UNKNOWN, []
            nodes += 1
            if step is None:
                cols, cells, found, nexts, key, last, tops, tm, cm, depth = state
                if tm < 0:  # settled after its step: its tops and masks now
                    tops, tm = _tops_of(cols)
                    cm = _cells_mask(cells)
                    state = (cols, cells, found, nexts, key, last, tops, tm, cm, depth)
            else:  # built now from its parent: the step moved one card, nothing went home
                pcols, cells, found, nexts, _, _, tops, tm, cm, depth = state
                kind, src, last, dst, dcol, key, _ = step
                depth += 1
                cols = list(pcols)
                tops = tops.copy()
                if kind & 1:  # from a column
                    rest = cols[src] = pcols[src][:-1]
                    del tops[last]
                    tm ^= bit[last]
                    if rest:
                        tops[rest[-1]] = src
                        tm |= bit[rest[-1]]
                else:
                    cells = cells.replace(card_bytes[last], b"")
                    cm ^= bit[last]
                if dst == CELL:  # the key does not see which cell holds a card
                    if ordered:
                        at = bisect(cells, last)
                        cells = cells[:at] + card_bytes[last] + cells[at:]
                    else:
                        cells += card_bytes[last]
                    cm |= bit[last]
                else:
                    old = pcols[dcol]
                    if old:
                        del tops[dst]
                        tm ^= bit[dst]
                    cols[dcol] = old + card_bytes[last]
                    tops[last] = dcol
                    tm |= bit[last]
                state = (cols, cells, found, nexts, key, last, tops, tm, cm, depth)
            if price:  # the priority less the steps' price: the estimate
                cost -= price * depth
            later = price * (depth + 1)  # the steps' price of the states it leads to
            # The steps to states not known yet (``Fresh``; when cards go home after one, the
            # key is the one before they go, and whether the state is known is asked once they
            # have).
            fresh: list[Fresh] = []
            free = tm | cm
            for mask, sh in onto_shifts:  # onto a column top
                m = ((tm >> sh) if sh >= 0 else (tm << -sh)) & mask & free
                while m:
                    low = m & -m
                    m ^= low
                    card = low.bit_length() - 1
                    if card == last:
                        continue
                    target = card + sh
                    if cm & low:
                        nkey = key + ((target - ON_CELL) << shift[card])
                        if nkey in parent or (dead is not None and nkey in dead):
                            continue
                        fresh.append((ONTO_FROM_CELL, card, card, target, tops[target], nkey, False))
                        continue
                    u = (key >> shift[card]) & 255  # what the card lies on
                    nkey = key + ((target - u) << shift[card])
                    if u in nexts and u < 52 and goes_home(u, list(found)):
                        fresh.append((ONTO_FROM_COLUMN, tops[card], card, target, tops[target], nkey, True))
                        continue
                    if nkey in parent or (dead is not None and nkey in dead):
                        continue
                    fresh.append((ONTO_FROM_COLUMN, tops[card], card, target, tops[target], nkey, False))
            if home_steps:  # moves home that do not settle by themselves (FreeCell)
                for c in cells:
                    if c in nexts:
                        fresh.append(
                            (HOME_FROM_CELL, c, c, HOME, -1, key + ((ON_HOME - ON_CELL) << shift[c]), True)
                        )
                for c, i in tops.items():
                    if c in nexts:
                        u = (key >> shift[c]) & 255
                        fresh.append(
                            (HOME_FROM_COLUMN, i, c, HOME, -1, key + ((ON_HOME - u) << shift[c]), True)
                        )
            if len(tops) < 8:  # into an empty column
                empty = cols.index(b"")
                for c in cells:
                    if c != last:
                        nkey = key + ((ON_BOTTOM - ON_CELL) << shift[c])
                        if nkey in parent or (dead is not None and nkey in dead):
                            continue
                        fresh.append((EMPTY_FROM_CELL, c, c, EMPTY_COL, empty, nkey, False))
                for c, i in tops.items():
                    if c != last:
                        u = (key >> shift[c]) & 255
                        if u == ON_BOTTOM:
                            continue  # alone in its column already
                        nkey = key + ((ON_BOTTOM - u) << shift[c])
                        if u in nexts and u < 52 and goes_home(u, list(found)):
                            fresh.append((EMPTY_FROM_COLUMN, i, c, EMPTY_COL, empty, nkey, True))
                            continue
                        if nkey in parent or (dead is not None and nkey in dead):
                            continue
                        fresh.append((EMPTY_FROM_COLUMN, i, c, EMPTY_COL, empty, nkey, False))
            if len(cells) < ncells:  # into a free cell
                for c, i in tops.items():
                    if c != last:
                        u = (key >> shift[c]) & 255
                        nkey = key + ((ON_CELL - u) << shift[c])
                        if u in nexts and u < 52 and goes_home(u, list(found)):
                            fresh.append((CELL_FROM_COLUMN, i, c, CELL, -1, nkey, True))
                            continue
                        if nkey in parent or (dead is not None and nkey in dead):
                            continue
                        fresh.append((CELL_FROM_COLUMN, i, c, CELL, -1, nkey, False))
            if ordered:
                fresh.sort()
            na, nb, nc, nd = nexts
            # each column's term of the cost for these next cards, and its term without its top
            terms, rest_terms = term_cache.get(nexts) or term_cache.setdefault(nexts, ({}, {}))
            for fresh_step in fresh:
                kind, src, card, dst, dcol, nkey, whole = fresh_step
                if not whole:
                    if avoid is not None and nkey in avoid:
                        continue
                    parent[nkey] = (key, (card, dst), ())
                    if wins is not None and nkey in wins:
                        self.nodes, self.joined = nodes, _bytes_key(nkey)
                        return WINNABLE, self._path(parent, nkey)
                    # The terms of the changed columns, old and new (foundations unchanged).
                    ncost = cost + later
                    if kind & 1:  # from a column
                        old = cols[src]
                        t = terms.get(old)
                        if t is None:
                            t = terms[old] = term(old, na, nb, nc, nd)
                        ncost -= t
                        if len(old) > 1:
                            t = rest_terms.get(old)
                            if t is None:
                                t = rest_terms[old] = term(old[:-1], na, nb, nc, nd)
                            ncost += t
                        else:
                            ncost -= we
                    else:
                        ncost -= wc
                    if dst == CELL:
                        ncost += wc
                    else:  # onto a column top or into an empty column
                        old = cols[dcol]
                        if old:
                            t = terms.get(old)
                            if t is None:
                                t = terms[old] = term(old, na, nb, nc, nd)
                            ncost -= t
                        else:
                            ncost += we
                        new = old + card_bytes[card]
                        t = terms.get(new)
                        if t is None:
                            t = terms[new] = term(new, na, nb, nc, nd)
                        ncost += t
                    seq += 1
                    push(heap, (ncost, -seq, state, fresh_step))
                    continue
                # Cards go home after this step: the state is built and settled to know its key.
                ncols = list(cols)
                if kind & 1:
                    ncols[src] = cols[src][:-1]
                    ncells_b = cells
                else:
                    ncells_b = cells.replace(card_bytes[card], b"")
                if dst == CELL:
                    if ordered:
                        at = bisect(ncells_b, card)
                        ncells_b = ncells_b[:at] + card_bytes[card] + ncells_b[at:]
                    else:
                        ncells_b += card_bytes[card]
                elif dst != HOME:
                    ncols[dcol] = cols[dcol] + card_bytes[card]
                # Only a freshly uncovered top, or any card after a foundation grew, can go
                # home now (the moved card could not, or it would have gone already).
                cells_list = list(ncells_b)
                nfound_list = list(found)
                if dst == HOME:
                    nfound_list[card // 13] += 1
                before = (list(ncols), list(cells_list)) if avoid is not None else None
                home = tuple(settle_now(ncols, cells_list, nfound_list))
                ncells_b = bytes(cells_list)
                for c in home:  # each card's byte: what it lay on before, then home
                    nkey += (ON_HOME - ((nkey >> shift[c]) & 255)) << shift[c]
                if nkey in parent or (dead is not None and nkey in dead):
                    continue
                if (
                    avoid is not None
                    and before is not None
                    and (nkey in avoid or _passes(avoid, before, home))
                ):
                    continue
                parent[nkey] = (key, (card, dst), home)
                nfound: Found = tuple(nfound_list)
                if sum(nfound) == 52:
                    self.nodes = nodes
                    return WINNABLE, self._path(parent, nkey)
                if wins is not None and nkey in wins:
                    self.nodes, self.joined = nodes, _bytes_key(nkey)
                    return WINNABLE, self._path(parent, nkey)
                # The estimate (``estimate``) from each column's term for the new next cards; its
                # tops and masks are worked out if it is taken off the heap.
                nnexts = _nexts(nfound)
                nterms = (term_cache.get(nnexts) or term_cache.setdefault(nnexts, ({}, {})))[0]
                ncost = wc * len(ncells_b) - wh * sum(nfound) + later
                for col in ncols:
                    if col:
                        t = nterms.get(col)
                        if t is None:
                            t = nterms[col] = term(col, *nnexts)
                        ncost += t
                    else:
                        ncost -= we
                seq += 1
                push(
                    heap,
                    (
                        ncost,
                        -seq,
                        (ncols, ncells_b, nfound, nnexts, nkey, -1, _NO_TOPS, -1, 0, depth + 1),
                        None,
                    ),
                )
        self.nodes = nodes
        if dead is not None:
            dead.update(parent)
        return LOST, []

    def _path(self, parent: dict[int, Parent], key: int) -> list[Step]:
        rev: list[list[Step]] = []
        while True:
            pkey, step, home = parent[key]
            if pkey is None or step is None:  # the start: (None, None, ())
                break
            rev.append([step, *((c, HOME) for c in home)])
            key = pkey
        out: list[Step] = [(c, HOME) for c in self.start_home]
        for chunk in reversed(rev):
            out.extend(chunk)
        return out


def _nexts(found: Found) -> Found:
    """The next card of each suit to go home (``NO_CARD`` for a suit that is home)."""
    a, b, c, d = found
    return (
        a if a < 13 else NO_CARD,
        13 + b if b < 13 else NO_CARD,
        26 + c if c < 13 else NO_CARD,
        39 + d if d < 13 else NO_CARD,
    )


def _passes(avoid: set[int], before: tuple[list[bytes], list[int]], home: Cells) -> bool:
    """Whether a step whose cards ``home`` then went home (in that order) passed through a state
    in ``avoid`` before the last of them went: ``before`` is the state right after the step."""
    cols, cells = list(before[0]), list(before[1])
    if _int_key(state_key(cols, cells)) in avoid:
        return True
    for card in home[:-1]:
        if card in cells:
            cells.remove(card)
        else:
            i = next(i for i, col in enumerate(cols) if col and col[-1] == card)
            cols[i] = cols[i][:-1]
        if _int_key(state_key(cols, cells)) in avoid:
            return True
    return False
