"""Thoughtful Klondike: whether a deal can be won knowing every card, and a winning line.

Searches over macro moves (each reachable waste card played with the stock turns it needs,
Bjarnason, Fern and Tadepalli 2007), safe cards sent home automatically, and a transposition
table on a key blind to the piles' order (``solver_state``). First a greedy best-first
search over the likeliest moves (fewest face-down cards first) for half the budget: it finds
most wins in a few hundred positions. Then a depth-first search over every move (foundation
cards may come back), whose running dry proves ``"lost"``: every reachable position was
searched. A position some card of which can never leave its pile (``dead_ends``) is lost
without a search. The budget is nodes, not seconds, so a verdict does not depend on
the machine's load.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Container
from dataclasses import dataclass
from typing import NamedTuple

from engine.klondike.dead_ends import stuck
from engine.klondike.position import Position
from engine.klondike.solver_state import State, children, finish, is_won, key, settle
from engine.klondike.state import KlondikeState, full_state
from engine.solver.result import LOST, UNKNOWN, WINNABLE, SolveResult, Verdict

NODE_BUDGET = 30_000  # positions expanded: at most about 3 s of one core (10,000–13,000 a second)


@dataclass(frozen=True, slots=True)
class Layout:
    """A Klondike position in plain numbers (cards 0..51 as SPEC §3)."""

    piles: tuple[tuple[int, ...], ...]  # 7 piles, bottom → top
    face_down: tuple[int, ...]  # how many cards at the bottom of each pile are face down
    stock: tuple[int, ...]  # the next card to turn first
    waste: tuple[int, ...]  # bottom → top (the top plays)
    foundations: tuple[int, int, int, int]  # cards home per suit ♠ ♥ ♦ ♣ (0..13)
    draw: int  # 1 or 3


# The project's solve answer, as for the other games: ``verdict`` a proof either way or
# "unknown" when the budget ran out; ``moves`` (Klondike notation, every stock turn and redeal
# an ``s``) wins from the layout when "winnable", empty otherwise; ``nodes`` positions expanded.
Solution = SolveResult


def layout_of(state: KlondikeState) -> Layout:
    """The solver's layout of a game's whole state (``KlondikeGame.state()``)."""
    if not state.known:
        raise ValueError("the solver needs every card: a seen state hides some")
    return Layout(state.piles, state.face_down, state.stock, state.waste, state.foundations, state.draw)


def dealt(deal: int, draw: int) -> Layout:
    """Deal ``deal`` of version 1 as the engine deals it, at draw ``draw``."""
    return layout_of(full_state(Position.deal(deal, draw)))


def state_of(layout: Layout) -> State:
    """The search state of a layout, refusing one that is not a whole deck of 52 cards."""
    if layout.draw not in (1, 3):
        raise ValueError(f"Klondike draws 1 or 3 cards, not {layout.draw}")
    if len(layout.piles) != 7 or len(layout.face_down) != 7:
        raise ValueError(f"Klondike has 7 piles, not {len(layout.piles)}")
    homed = [s * 13 + r for s, count in enumerate(layout.foundations) for r in range(count)]
    cards = sorted([*homed, *layout.stock, *layout.waste, *(c for pile in layout.piles for c in pile)])
    if cards != list(range(52)):
        raise ValueError("a Klondike layout holds each of the 52 cards exactly once")
    down = tuple(min(d, max(len(p) - 1, 0)) for d, p in zip(layout.face_down, layout.piles, strict=True))
    talon = (*layout.waste, *layout.stock)
    piles = tuple(bytes(pile) for pile in layout.piles)
    return State(piles, down, bytes(talon), len(layout.waste), tuple(layout.foundations))


def solve(layout: Layout, *, budget: int = NODE_BUDGET, time_limit: float | None = None) -> Solution:
    """Search ``layout`` for a win, expanding at most ``budget`` positions and, given
    ``time_limit``, using at most about that many seconds of CPU ("unknown" past either)."""
    started = time.process_time()
    limit = Limit(budget, math.inf if time_limit is None else started + time_limit)
    opening: list[str] = []
    root = settle(state_of(layout), opening, layout.draw)
    verdict, line, nodes = decide(root, layout.draw, limit)
    moves = opening + line if verdict == WINNABLE else []
    return Solution(verdict, moves, time.process_time() - started, nodes)


def is_winnable(layout: Layout, budget: int = NODE_BUDGET) -> bool:
    """Whether the solver proves ``layout`` winnable within ``budget`` (for the stock of
    proven deals: "lost" and "unknown" both answer False)."""
    return solve(layout, budget=budget).verdict == WINNABLE


def decide(
    root: State,
    draw: int,
    limit: Limit,
    *,
    dead: set[bytes] | None = None,
    goals: Container[bytes] = (),
) -> tuple[Verdict, list[str], int]:
    """Whether the settled position ``root`` can be won: (verdict, a winning line, positions
    expanded). The dead-end test, a best-first look within half the budget, then the whole
    search, a proof either way.

    ``dead``: keys of positions proven lost, never searched again, and given those this
    search proves lost (a caller deciding the positions before it, as undo takes them back,
    searches only what is new); ``goals``: keys of positions known to be winnable, where a
    line may end as at a win."""
    if stuck(root.piles):
        return LOST, [], 0
    lost: set[bytes] = set() if dead is None else dead
    verdict, line, nodes = _best_first(root, draw, limit._replace(nodes=limit.nodes // 2), lost, goals)
    if verdict == WINNABLE:
        return verdict, line, nodes
    visited = set(lost)
    verdict, line, more = _search(root, draw, limit._replace(nodes=limit.nodes - nodes), visited, goals)
    if verdict == LOST and dead is not None:
        dead |= visited
    return verdict, line, nodes + more


class Limit(NamedTuple):
    """A search's budget: positions to expand, and the CPU clock (``time.process_time``)
    not to pass (read every 256 positions)."""

    nodes: int
    deadline: float

    def spent(self, nodes: int) -> bool:
        return nodes >= self.nodes or (not nodes & 255 and time.process_time() > self.deadline)


def _search(
    root: State, draw: int, limit: Limit, seen: set[bytes] | None = None, goals: Container[bytes] = ()
) -> tuple[Verdict, list[str], int]:
    """Depth-first over every move, best child first, each position expanded once (a
    visited set suffices: the question is only whether a won position is reachable), so
    running dry proves the layout lost. ``seen`` may start with positions proven lost and
    is left holding every position visited; a position in ``goals`` ends a line as a win."""
    root_key = key(root, draw)
    if is_won(root) or root_key in goals:
        return WINNABLE, [], 0
    seen = set() if seen is None else seen
    seen.add(root_key)
    pending = [children(root, draw)]  # each open position's children left, reversed
    pending[0].reverse()
    path: list[list[str]] = []
    nodes = 1
    while pending:
        if not pending[-1]:
            pending.pop()
            if path:
                path.pop()
            continue
        child = pending[-1].pop()
        state_key = key(child.state, draw)
        if state_key in seen:
            continue
        seen.add(state_key)
        end = [] if state_key in goals else _ending(child.state, draw)
        if end is not None:
            return WINNABLE, [m for step in path for m in step] + child.moves + end, nodes
        if limit.spent(nodes):
            return UNKNOWN, [], nodes
        nodes += 1
        path.append(child.moves)
        kids = children(child.state, draw)
        kids.reverse()
        pending.append(kids)
    return LOST, [], nodes


def _score(state: State) -> int:
    """Best-first order, lower first: face-down cards left weigh most, then cards not home."""
    return 4 * sum(state.down) - sum(state.found)


def _best_first(
    root: State, draw: int, limit: Limit, dead: Container[bytes] = (), goals: Container[bytes] = ()
) -> tuple[Verdict, list[str], int]:
    """Greedy best-first over the narrow moves: the position with the fewest face-down
    cards (then the most cards home) is expanded next. Finds most wins in a few hundred
    positions; running dry proves nothing (the narrow moves leave some out). Positions in
    ``dead`` are passed over; one in ``goals`` ends a line as a win."""
    root_key = key(root, draw)
    if is_won(root) or root_key in goals:
        return WINNABLE, [], 0
    parent: dict[bytes, tuple[bytes, list[str]] | None] = {root_key: None}
    heap = [(_score(root), 0, root_key, root)]
    nodes = order = 0
    while heap and not limit.spent(nodes):
        _, _, state_key, state = heapq.heappop(heap)
        nodes += 1
        for child in children(state, draw, True):
            child_key = key(child.state, draw)
            if child_key in parent or child_key in dead:
                continue
            parent[child_key] = (state_key, child.moves)
            end = [] if child_key in goals else _ending(child.state, draw)
            if end is not None:
                return WINNABLE, _line(parent, child_key) + end, nodes
            order += 1
            heapq.heappush(heap, (_score(child.state), order, child_key, child.state))
    return UNKNOWN, [], nodes


def _line(parent: dict[bytes, tuple[bytes, list[str]] | None], state_key: bytes) -> list[str]:
    """The moves from the root to the position ``state_key``, through the parents' links."""
    steps: list[list[str]] = []
    link = parent[state_key]
    while link is not None:
        steps.append(link[1])
        link = parent[link[0]]
    return [m for step in reversed(steps) for m in step]


def _ending(state: State, draw: int) -> list[str] | None:
    """The moves that finish from ``state`` when it is won or, every card face up, a greedy
    run home wins; None otherwise (the search goes on)."""
    if is_won(state):
        return []
    if any(state.down):
        return None
    return finish(state, draw)
