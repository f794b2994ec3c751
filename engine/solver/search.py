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

The order is best first (a cheap per-column disorder score, cached per column),
which finds solutions fast; since every reachable state is still visited once
when no win exists, the same search run without a budget is the exhaustive mode
that proves a deal unwinnable.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any

Cols = tuple[bytes, ...]
Cells = tuple[int, ...]
Found = tuple[int, ...]

# Where a step sends a card: a column top card (>= 0) or one of these.
HOME = -1
CELL = -2
EMPTY_COL = -3

Step = tuple[int, int]  # (card, destination)
Parent = tuple[bytes | None, Step | None, tuple[int, ...]]  # (previous key, step, cards sent home after it)

SOLVED, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"

_SEP = b"\xff"
_CHECK_EVERY = 512


@dataclass(frozen=True, slots=True)
class Rules:
    """What the search needs of a game's rules.

    ``onto[c]``: the cards card ``c`` may be put on in a column; ``settle``: sends home, in
    place, every card that may go by itself and returns them in order; ``goes_home(c,
    found)``: whether a freshly uncovered card does; ``home_steps``: whether moves home
    that do not settle are steps of their own (FreeCell); ``estimate(cache, cols, cells
    used, found)``: the best-first order's cost of a state (lower is expanded first; ``cache``
    is the search's own dict, for per-column parts)."""

    name: str
    onto: tuple[tuple[int, ...], ...]
    settle: Callable[[list[bytes], list[int], list[int]], list[int]]
    goes_home: Callable[[int, list[int]], bool]
    home_steps: bool
    estimate: Callable[[dict[bytes, Any], Cols, int, Found], int]


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


def bakers_estimate(cache: dict[bytes, Any], cols: Cols, ncells_used: int, found: Found) -> int:
    """Jeu du Boulanger's order: the columns' disorder (``_column_cost``), cells used, empty
    columns and cards home."""
    cost = 0
    empties = 0
    for col in cols:
        if not col:
            empties += 1
            continue
        v = cache.get(col)
        if v is None:
            v = cache[col] = _column_cost(col)
        cost += v
    home = found[0] + found[1] + found[2] + found[3]
    return 3 * cost + 2 * ncells_used - 2 * empties - home


def _next_home(card: int, found: list[int]) -> bool:
    return card % 13 == found[card // 13]


BAKERS = Rules(
    "bakers",
    tuple(((c + 1,) if c % 13 != 12 else ()) for c in range(52)),
    settle,
    _next_home,
    False,
    bakers_estimate,
)


def state_key(cols: Cols | list[bytes], cells: Cells | list[int]) -> bytes:
    """The transposition key: sorted columns and sorted cells (foundations follow from them)."""
    return _SEP.join(sorted(cols)) + b"\xfe" + bytes(sorted(cells))


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
        self._cost_cache: dict[bytes, Any] = {}

    def run(
        self,
        deadline: float | None = None,
        node_limit: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> tuple[str, list[Step]]:
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
        parent: dict[bytes, Parent] = {start_key: (None, None, ())}
        heap: list[tuple[int, int, Cols, Cells, Found, bytes]] = [(0, 0, cols0, cells0, found0, start_key)]
        seq = 0
        estimate = self.rules.estimate
        cache = self._cost_cache
        nodes = 0
        limit = float("inf") if node_limit is None else node_limit
        push = heapq.heappush
        pop = heapq.heappop
        rules = self.rules
        onto = rules.onto
        settle_now = rules.settle
        goes_home = rules.goes_home
        home_steps = rules.home_steps
        while heap:
            _, _, cols, cells, found, key = pop(heap)
            if nodes >= limit or (deadline is not None and nodes % _CHECK_EVERY == 0 and clock() > deadline):
                self.nodes = nodes
                return UNKNOWN, []
            nodes += 1
            free = ncells - len(cells)
            tops: dict[int, int] = {}
            empty = -1
            for i, col in enumerate(cols):
                if col:
                    tops[col[-1]] = i
                elif empty < 0:
                    empty = i
            # Candidate steps: (source kind, source index, card, destination, dest column)
            cand: list[tuple[int, int, int, int, int]] = []
            for j, c in enumerate(cells):
                for target in onto[c]:
                    t = tops.get(target)
                    if t is not None:
                        cand.append((1, j, c, target, t))
            for i, col in enumerate(cols):
                if col:
                    c = col[-1]
                    for target in onto[c]:
                        t = tops.get(target)
                        if t is not None:
                            cand.append((0, i, c, target, t))
            if home_steps:  # moves home that do not settle by themselves (FreeCell)
                for j, c in enumerate(cells):
                    if c % 13 == found[c // 13]:
                        cand.append((1, j, c, HOME, -1))
                for i, col in enumerate(cols):
                    if col and col[-1] % 13 == found[col[-1] // 13]:
                        cand.append((0, i, col[-1], HOME, -1))
            if empty >= 0:
                for j, c in enumerate(cells):
                    cand.append((1, j, c, EMPTY_COL, empty))
                for i, col in enumerate(cols):
                    if len(col) > 1:
                        cand.append((0, i, col[-1], EMPTY_COL, empty))
            if free:
                for i, col in enumerate(cols):
                    if col:
                        cand.append((0, i, col[-1], CELL, -1))
            for kind, src, card, dst, dcol in cand:
                ncols = list(cols)
                ncells_list = list(cells)
                if kind:
                    del ncells_list[src]
                else:
                    ncols[src] = cols[src][:-1]
                nfound = list(found)
                if dst == CELL:
                    ncells_list.append(card)
                elif dst == HOME:
                    nfound[card // 13] += 1
                else:
                    ncols[dcol] = ncols[dcol] + bytes((card,))
                home: Cells = ()
                before: tuple[list[bytes], list[int]] | None = None
                if dst == HOME or (not kind and ncols[src] and goes_home(ncols[src][-1], nfound)):
                    # Only a freshly uncovered top, or any card after a foundation grew, can
                    # go home now (the moved card could not, or it would have gone already).
                    if avoid is not None:
                        before = (list(ncols), list(ncells_list))
                    home = tuple(settle_now(ncols, ncells_list, nfound))
                ncells_list.sort()
                nkey = _SEP.join(sorted(ncols)) + b"\xfe" + bytes(ncells_list)
                if nkey in parent or (dead is not None and nkey in dead):
                    continue
                if avoid is not None and (
                    nkey in avoid or (before is not None and _passes(avoid, before, home))
                ):
                    continue
                parent[nkey] = (key, (card, dst), home)
                tf = tuple(nfound)
                if tf[0] + tf[1] + tf[2] + tf[3] == 52:
                    self.nodes = nodes
                    return SOLVED, self._path(parent, nkey)
                if wins is not None and nkey in wins:
                    self.nodes, self.joined = nodes, nkey
                    return SOLVED, self._path(parent, nkey)
                tc = tuple(ncols)
                seq += 1
                push(
                    heap, (estimate(cache, tc, len(ncells_list), tf), -seq, tc, tuple(ncells_list), tf, nkey)
                )
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
