"""Thoughtful Klondike: whether a deal can be won knowing every card, and a winning line.

Depth-first search over macro moves (each reachable waste card played with the stock turns
it needs, Bjarnason, Fern and Tadepalli 2007), safe cards sent home automatically, and a
transposition table on a key blind to the piles' order (``solver_state``). The moves are
complete (foundation cards may come back), so ``"lost"`` is a proof: every position
reachable was searched. The budget is nodes, not seconds, so a verdict does not depend on
the machine's load.
"""

from __future__ import annotations

import time
from collections.abc import Container
from dataclasses import dataclass

from engine.klondike.solver_state import State, children, finish, is_won, key, settle
from engine.klondike.state import KlondikeState
from engine.solver.result import LOST, UNKNOWN, WINNABLE, SolveResult, Verdict

NODE_BUDGET = 50_000  # positions expanded: at most about 4 s of one core (10,000–13,000 a second)


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
    """The layout of a position's full view (``KlondikeGame.state()``): every card where it lies."""
    return Layout(state.piles, state.face_down, state.stock, state.waste, state.foundations, state.draw)


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


def solve(layout: Layout, *, budget: int = NODE_BUDGET) -> Solution:
    """Search ``layout`` for a win, expanding at most ``budget`` positions."""
    started = time.process_time()
    opening: list[str] = []
    root = settle(state_of(layout), opening, layout.draw)
    verdict, line, nodes = search(root, layout.draw, budget // 4, narrow=True)
    if verdict != WINNABLE:
        verdict, line, more = search(root, layout.draw, budget - nodes, narrow=False)
        nodes += more
    moves = opening + line if verdict == WINNABLE else []
    return Solution(verdict, moves, time.process_time() - started, nodes)


def is_winnable(layout: Layout, budget: int = NODE_BUDGET) -> bool:
    """Whether the solver proves ``layout`` winnable within ``budget`` (for the stock of
    proven deals: "lost" and "unknown" both answer False)."""
    return solve(layout, budget=budget).verdict == WINNABLE


def search(
    root: State,
    draw: int,
    budget: int,
    *,
    narrow: bool,
    seen: set[bytes] | None = None,
    goals: Container[bytes] = (),
) -> tuple[Verdict, list[str], int]:
    """Depth-first, best child first, each position expanded once (a visited set suffices:
    the question is only whether a won position is reachable). A narrow search that runs
    dry answers "unknown": it left moves out.

    ``seen``, when given, starts with keys of positions proven lost (skipped) and is left
    holding every key visited; ``goals``: keys of positions known to be winnable, where the
    search ends as at a win (the line then ends there)."""
    root_key = key(root, draw)
    if is_won(root) or root_key in goals:
        return WINNABLE, [], 0
    seen = set() if seen is None else seen
    seen.add(root_key)
    pending = [children(root, draw, narrow)]  # each open position's children left, reversed
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
        if nodes >= budget:
            return UNKNOWN, [], nodes
        nodes += 1
        path.append(child.moves)
        kids = children(child.state, draw, narrow)
        kids.reverse()
        pending.append(kids)
    return (UNKNOWN if narrow else LOST), [], nodes


def _ending(state: State, draw: int) -> list[str] | None:
    """The moves that finish from ``state`` when it is won or, every card face up, a greedy
    run home wins; None otherwise (the search goes on)."""
    if is_won(state):
        return []
    if any(state.down):
        return None
    return finish(state, draw)
