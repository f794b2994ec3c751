"""The core search: single-card moves on a compact state, best first, complete.

One search serves both FreeCell-family games; what differs is a ``Rules`` value
(``BAKERS``, ``FREECELL`` in ``engine.solver.rules``): which cards a card may be
put on, which cards go home by themselves, the ordering heuristic. The proofs
below are written for Jeu du Boulanger, where every card that can go home is
safe; in FreeCell only the cards of the safe auto-play rule are (the same
argument: nothing can ever be put on them, see ``engine.freecell.position``),
and the other moves home are ordinary steps of the search.

A state is ``(cols, cells, found)``: ``cols`` a tuple of 8 ``bytes`` (card ints,
bottom first), ``cells`` a sorted tuple of the cards held in free cells (empty
cells are implicit: ``ncells - len(cells)``), ``found`` a tuple of 4 counts.
Its key for the transposition table sorts the columns, because which column
holds a pile never matters to what can be done (suits are *not* merged: the
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
part of the move that made them playable. The "unsolvable" verdict therefore
remains a proof: the search enumerates every position reachable by single-card
moves (up to these forced, harmless foundation moves) and finds no win.

The order is best first (a cheap per-column score, cached per column, see ``Rules``),
which finds solutions fast; since every reachable state is still visited once
when no win exists, the same search run without a budget is the exhaustive mode
that proves a deal unwinnable.
"""

from __future__ import annotations

import heapq
import time
from bisect import bisect
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass

Cols = tuple[bytes, ...]
Cells = tuple[int, ...]
Found = tuple[int, ...]
ColumnInfo = tuple[int, tuple[int, ...]]  # (disorder, for each card 0..52: cards lying on it here)

# Where a step sends a card: a column top card (>= 0) or one of these.
HOME = -1
CELL = -2
EMPTY_COL = -3

Step = tuple[int, int]  # (card, destination)
Parent = tuple[bytes | None, Step | None, tuple[int, ...]]  # (previous key, step, cards sent home after it)

SOLVED, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"

_SEP = b"\xff"
_CELLS_SEP = b"\xfe"
_CHECK_EVERY = 512
_CARD = tuple(bytes((c,)) for c in range(52))
NO_CARD = 52  # the "next card" of a finished suit: no column holds it


@dataclass(frozen=True, slots=True)
class Rules:
    """What the search needs of a game's rules.

    ``onto[c]``: the cards card ``c`` may be put on in a column; ``settle``: sends home, in
    place, every card that may go by itself and returns them in order; ``goes_home(c,
    found)``: whether a freshly uncovered card does; ``home_steps``: whether moves home
    that do not settle are steps of their own (FreeCell).

    The best-first order's cost of a state (lower is expanded first) is a sum over its
    columns plus terms for the cells and foundations, so that a step, which changes one or
    two columns, changes only their terms (the search updates it so): ``column_info(col)``
    gives a column's disorder and, for each card, how many cards lie on it in that column
    (worked out once per column and cached); ``weights`` = (disorder, cell used, empty
    column, card home, cards on the next card of each suit), see ``estimate``."""

    name: str
    onto: tuple[tuple[int, ...], ...]
    settle: Callable[[list[bytes], list[int], list[int]], list[int]]
    goes_home: Callable[[int, list[int]], bool]
    home_steps: bool
    column_info: Callable[[bytes], ColumnInfo]
    weights: tuple[int, int, int, int, int]


def estimate(
    rules: Rules, cache: dict[bytes, ColumnInfo], cols: Sequence[bytes], ncells_used: int, found: Found
) -> int:
    """The best-first cost of a state, worked out whole: weighted, each column's disorder
    (``column_info``) and the cards lying on the next card of each suit, the cells used,
    minus the empty columns and the cards home. The search keeps it up to date step by step
    (``Search.run``); this is the same sum."""
    wd, wc, we, wh, wn = rules.weights
    nxt = [13 * s + f if f < 13 else NO_CARD for s, f in enumerate(found)]
    total = wc * ncells_used - wh * sum(found)
    for col in cols:
        if not col:
            total -= we
            continue
        info = cache.get(col)
        if info is None:
            info = cache[col] = rules.column_info(col)
        below = info[1]
        total += wd * info[0] + wn * sum(below[c] for c in nxt)
    return total


def settle(cols: list[bytes], cells: list[int], found: list[int]) -> list[int]:
    """Send home, in place, every card that can go; return them in order (see the module doc)."""
    home: list[int] = []
    changed = True
    while changed:
        changed = False
        for i, col in enumerate(cols):
            n = len(col)
            while n and col[n - 1] % 13 == found[col[n - 1] // 13]:
                found[col[n - 1] // 13] += 1
                home.append(col[n - 1])
                n -= 1
            if n != len(col):
                cols[i] = col[:n]
                changed = True
        for j in range(len(cells) - 1, -1, -1):
            c = cells[j]
            if c % 13 == found[c // 13]:
                found[c // 13] += 1
                home.append(c)
                del cells[j]
                changed = True
    return home


def _column_cost(col: bytes) -> int:
    """How badly a column is ordered: cards that must leave it before a lower card of their suit
    can go home (weighted), plus cards not sitting on their same-suit successor."""
    cost = 0
    lowest = [99, 99, 99, 99]
    prev = -1
    for c in col:
        s = c // 13
        if lowest[s] < c:
            cost += 2
        elif c < lowest[s]:
            lowest[s] = c
        if prev >= 0 and c + 1 != prev:
            cost += 1
        prev = c
    return cost


def column_depths(col: bytes) -> tuple[int, ...]:
    """For each card 0..52, how many cards lie on it in ``col`` (0 when it is not there)."""
    depth = [0] * (NO_CARD + 1)
    n = len(col)
    for i, c in enumerate(col):
        depth[c] = n - 1 - i
    return tuple(depth)


def bakers_column_info(col: bytes) -> ColumnInfo:
    return _column_cost(col), column_depths(col)


def _next_home(card: int, found: list[int]) -> bool:
    return card % 13 == found[card // 13]


# Jeu du Boulanger's order: disorder, cells used, empty columns, cards home, and how deep the
# next card of each suit lies. Tuned with 4 cells by coordinate descent on the nodes of the
# winnable ones of deals 1-200 and of 150 random deal numbers (seed 7), never the benchmark's
# held-out seed 26: a used cell and an empty column weigh most (see docs/BENCHMARKS.md).
BAKERS = Rules(
    "bakers",
    tuple(((c + 1,) if c % 13 != 12 else ()) for c in range(52)),
    settle,
    _next_home,
    False,
    bakers_column_info,
    (1, 7, 6, 4, 2),
)


def state_key(cols: Cols | list[bytes], cells: Cells | list[int]) -> bytes:
    """The transposition key: sorted columns and sorted cells (foundations follow from them)."""
    return _SEP.join(sorted(cols)) + _CELLS_SEP + bytes(sorted(cells))


class Search:
    """One search from a start state; ``run`` returns (verdict, steps).

    ``dead`` (optional) holds keys of states already proven unwinnable by an
    earlier exhausted search; they are pruned and, when this search exhausts
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
        dead: set[bytes] | None = None,
        avoid: frozenset[bytes] | set[bytes] | None = None,
        wins: Container[bytes] | None = None,
        rules: Rules = BAKERS,
    ) -> None:
        cols = list(cols)
        cells = sorted(cells)
        found = list(found)
        self.rules = rules
        self.start_home = rules.settle(cols, cells, found)
        cells.sort()
        self.start = (tuple(cols), tuple(cells), tuple(found))
        self.ncells = ncells
        self.nodes = 0
        self.dead = dead
        self.avoid = avoid or None
        self.wins = wins or None
        self.joined: bytes | None = None  # the state of ``wins`` the steps lead to
        self._cost_cache: dict[bytes, ColumnInfo] = {}

    def run(
        self,
        deadline: float | None = None,
        node_limit: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> tuple[str, list[Step]]:
        """Best first from the start. A state on the heap is (cost, -sequence, columns, cells
        as sorted bytes, foundations, key, the card its step moved); a step changes the cost by
        the terms of the one or two columns it changes (``Rules``), unless cards went home, when
        it is worked out whole (``estimate``).

        The card the last step moved is not moved again (unless that step sent cards home):
        any place it could go next it could have gone straight from where it was (the other
        column tops are unchanged, and the cells and empty columns only differ by the place
        it left, where going leads back), so the state is already known from the state before;
        skipping it only saves building a key that is found in the table."""
        cols0, cells0, found0 = self.start
        start_key = state_key(cols0, cells0)
        if sum(found0) == 52:
            return SOLVED, [(c, HOME) for c in self.start_home]
        ncells = self.ncells
        dead = self.dead
        avoid = self.avoid
        if dead is not None and start_key in dead:
            return UNSOLVABLE, []
        wins = self.wins
        if wins is not None and start_key in wins:
            self.joined = start_key
            return SOLVED, [(c, HOME) for c in self.start_home]
        rules = self.rules
        cache = self._cost_cache
        parent: dict[bytes, Parent] = {start_key: (None, None, ())}
        heap: list[tuple[int, int, list[bytes] | Cols, bytes, Found, bytes, int]] = [
            (
                estimate(rules, cache, cols0, len(cells0), found0),
                0,
                cols0,
                bytes(cells0),
                found0,
                start_key,
                -1,
            )
        ]
        seq = 0
        nodes = 0
        limit = float("inf") if node_limit is None else node_limit
        push = heapq.heappush
        pop = heapq.heappop
        onto = rules.onto
        settle_now = rules.settle
        goes_home = rules.goes_home
        home_steps = rules.home_steps
        column_info = rules.column_info
        wd, wc, we, _, wn = rules.weights
        card_bytes = _CARD
        sep = _SEP
        cells_sep = _CELLS_SEP
        check = _CHECK_EVERY
        while heap:
            cost, _, cols, cells, found, key, last = pop(heap)
            if nodes >= limit or (deadline is not None and nodes % check == 0 and clock() > deadline):
                self.nodes = nodes
                return UNKNOWN, []
            nodes += 1
            tops: dict[int, int] = {}
            empty = -1
            for i, col in enumerate(cols):
                if col:
                    tops[col[-1]] = i
                elif empty < 0:
                    empty = i
            f0, f1, f2, f3 = found
            na = f0 if f0 < 13 else NO_CARD
            nb = 13 + f1 if f1 < 13 else NO_CARD
            nc = 26 + f2 if f2 < 13 else NO_CARD
            nd = 39 + f3 if f3 < 13 else NO_CARD
            nexts = (na, nb, nc, nd)  # a card uncovered may go home only if it is one of these
            # Candidate steps: (from a cell, source index, card, destination, dest column)
            cand: list[tuple[bool, int, int, int, int]] = []
            for j, c in enumerate(cells):
                if c != last:
                    for target in onto[c]:
                        t = tops.get(target)
                        if t is not None:
                            cand.append((True, j, c, target, t))
            for c, i in tops.items():
                if c != last:
                    for target in onto[c]:
                        t = tops.get(target)
                        if t is not None:
                            cand.append((False, i, c, target, t))
            if home_steps:  # moves home that do not settle by themselves (FreeCell)
                for j, c in enumerate(cells):
                    if c in nexts:
                        cand.append((True, j, c, HOME, -1))
                for c, i in tops.items():
                    if c in nexts:
                        cand.append((False, i, c, HOME, -1))
            if empty >= 0:
                for j, c in enumerate(cells):
                    if c != last:
                        cand.append((True, j, c, EMPTY_COL, empty))
                for c, i in tops.items():
                    if c != last and len(cols[i]) > 1:
                        cand.append((False, i, c, EMPTY_COL, empty))
            if len(cells) < ncells:
                for c, i in tops.items():
                    if c != last:
                        cand.append((False, i, c, CELL, -1))
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
                    ncells_b = ncells_b[:at] + card_bytes[card] + ncells_b[at:]
                elif dst != HOME:
                    ncols[dcol] = ncols[dcol] + card_bytes[card]
                home: Cells = ()
                before: tuple[list[bytes], list[int]] | None = None
                whole = dst == HOME or (uncovered in nexts and goes_home(uncovered, list(found)))
                if whole:
                    # Only a freshly uncovered top, or any card after a foundation grew, can
                    # go home now (the moved card could not, or it would have gone already).
                    cells_list = list(ncells_b)
                    nfound_list = list(found)
                    if dst == HOME:
                        nfound_list[card // 13] += 1
                    if avoid is not None:
                        before = (list(ncols), list(cells_list))
                    home = tuple(settle_now(ncols, cells_list, nfound_list))
                    cells_list.sort()
                    ncells_b = bytes(cells_list)
                    nfound: Found = tuple(nfound_list)
                else:
                    nfound = found
                nkey = sep.join(sorted(ncols)) + cells_sep + ncells_b
                if nkey in parent or (dead is not None and nkey in dead):
                    continue
                if avoid is not None and (
                    nkey in avoid or (before is not None and _passes(avoid, before, home))
                ):
                    continue
                parent[nkey] = (key, (card, dst), home)
                if whole and nfound[0] + nfound[1] + nfound[2] + nfound[3] == 52:
                    self.nodes = nodes
                    return SOLVED, self._path(parent, nkey)
                if wins is not None and nkey in wins:
                    self.nodes, self.joined = nodes, nkey
                    return SOLVED, self._path(parent, nkey)
                if whole:
                    ncost = estimate(rules, cache, ncols, len(ncells_b), nfound)
                else:
                    # the terms of the changed columns, old and new (foundations unchanged)
                    ncost = cost
                    if from_cell:
                        ncost -= wc
                    else:
                        old = cols[src]
                        info = cache.get(old)
                        if info is None:
                            info = cache[old] = column_info(old)
                        b = info[1]
                        ncost -= wd * info[0] + wn * (b[na] + b[nb] + b[nc] + b[nd])
                        if rest:
                            info = cache.get(rest)
                            if info is None:
                                info = cache[rest] = column_info(rest)
                            b = info[1]
                            ncost += wd * info[0] + wn * (b[na] + b[nb] + b[nc] + b[nd])
                        else:
                            ncost -= we
                    if dst == CELL:
                        ncost += wc
                    else:  # onto a column top or into an empty column
                        old = cols[dcol]
                        if old:
                            info = cache.get(old)
                            if info is None:
                                info = cache[old] = column_info(old)
                            b = info[1]
                            ncost -= wd * info[0] + wn * (b[na] + b[nb] + b[nc] + b[nd])
                        else:
                            ncost += we
                        new = ncols[dcol]
                        info = cache.get(new)
                        if info is None:
                            info = cache[new] = column_info(new)
                        b = info[1]
                        ncost += wd * info[0] + wn * (b[na] + b[nb] + b[nc] + b[nd])
                seq += 1
                push(heap, (ncost, -seq, ncols, ncells_b, nfound, nkey, -1 if whole else card))
        self.nodes = nodes
        if dead is not None:
            dead.update(parent)
        return UNSOLVABLE, []

    def _path(self, parent: dict[bytes, Parent], key: bytes) -> list[Step]:
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
