"""Perfect-information search: could this deal be won with the stock order known?

Used after a game, to show a losing player that (and how) the deal could have
been won. Two searches share the time budget:
- a beam search turns the stock card by card, keeping the positions from which
  the heuristic playout (``fast.playout``, now with the stock order known) gets
  furthest; it finds a win for most deals within a second or two, but cannot
  prove there is none;
- a complete depth-first search over every legal move, best-looking first,
  remembering refuted positions: the only source of "not_winnable".
Waste piles are interchangeable, so positions that differ only in pile order
are one position and identical piles are one choice; suits never matter, so
ranks are enough. "unknown" means the budget ran out first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TypeAlias

from engine.calculation.fast import NEED_AT, choose_pile, distances, playout
from engine.calculation.game import CalculationGame
from engine.calculation.notation import FOUNDATION, TURNED, WASTE, format_notation
from engine.calculation.position import Position
from engine.cards import rank_of

WINNABLE, NOT_WINNABLE, UNKNOWN = "winnable", "not_winnable", "unknown"
CHECK_EVERY = 512  # nodes between clock checks
FIRST_SLICE = 0.5  # seconds (at most a tenth of the budget) for the first complete search
MAX_REFUTED = 250_000  # positions remembered; past this the search goes on without memory growth

Step = tuple[str, int, str, int]  # src_kind, src, dst_kind, dst
# The beam's move history as a linked list, newest last: (earlier history, steps).
History: TypeAlias = "tuple[History | None, list[Step]]"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """``moves`` (notation) win from ``start``: ``"current"`` (the game's position) or ``"deal"``."""

    verdict: str
    moves: tuple[str, ...] = ()
    start: str = "current"
    nodes: int = 0
    seconds: float = 0.0

    @property
    def winnable(self) -> bool:
        return self.verdict == WINNABLE


class _OutOfTime(Exception):
    pass


BEAM_WIDTHS = (1, 8, 32, 128, 512, 2048)


def _home(prog: list[int], piles: list[list[int]], steps: list[Step]) -> None:
    """Send every waste top that fits home (least advanced foundation first), recording it."""
    moved = True
    while moved:
        moved = False
        for j, p in enumerate(piles):
            while p:
                fits = [i for i in range(4) if NEED_AT[i][prog[i]] == p[-1]]
                if not fits:
                    break
                i = min(fits, key=prog.__getitem__)
                p.pop()
                prog[i] += 1
                steps.append((WASTE, j, FOUNDATION, i))
                moved = True


def _unwind(history: History | None) -> list[Step]:
    out: list[Step] = []
    while history is not None:
        history, steps = history
        out[:0] = steps
    return out


def _beam(
    prog: list[int], piles: list[list[int]], stock: list[int], width: int, deadline: float
) -> list[Step] | None:
    """Turn the stock card by card keeping the ``width`` most promising positions, each judged
    by the score the heuristic playout reaches from it with the stock order known. Returns
    the first winning line found (incomplete: it may miss a win, but it is quick)."""
    beam: list[tuple[list[int], list[list[int]], History | None]] = [(prog, piles, None)]
    for n, r in enumerate(stock):
        rest = stock[n:]
        children: dict[tuple[object, ...], tuple[int, list[int], list[list[int]], History]] = {}
        for prog, piles, history in beam:
            if time.perf_counter() > deadline:
                raise _OutOfTime
            if playout(prog[:], [p[:] for p in piles], rest) == 52:
                steps: list[Step] = []
                playout(prog[:], [p[:] for p in piles], rest, steps)
                return _unwind((history, steps))
            for step in _options(prog, piles, r):
                p2, w2 = prog[:], [p[:] for p in piles]
                steps = [step]
                if step[2] == FOUNDATION:
                    p2[step[3]] += 1
                    _home(p2, w2, steps)
                else:
                    w2[step[3]].append(r)
                key = (*p2, *sorted(map(tuple, w2)))
                if key not in children:
                    ahead = playout(p2[:], [p[:] for p in w2], stock[n + 1 :])
                    children[key] = (ahead, p2, w2, (history, steps))
        ranked = sorted(children.values(), key=lambda c: -c[0])[:width]
        beam = [(p2, w2, h) for _, p2, w2, h in ranked]
    return None


def _options(prog: list[int], piles: list[list[int]], r: int) -> list[Step]:
    """Where the turned rank ``r`` may go: foundations it fits, then each distinct pile."""
    options: list[Step] = [(TURNED, 0, FOUNDATION, i) for i in range(4) if NEED_AT[i][prog[i]] == r]
    seen: list[list[int]] = []
    for j in range(4):
        if piles[j] not in seen:
            seen.append(piles[j])
            options.append((TURNED, 0, WASTE, j))
    return options


class _Search:
    def __init__(self, prog: list[int], piles: list[list[int]], stock: list[int], deadline: float) -> None:
        self.prog = prog
        self.piles = piles
        self.stock = stock  # ranks; stock[0] is the turned card
        self.deadline = deadline
        self.refuted: set[tuple[object, ...]] = set()
        self.path: list[Step] = []
        self.nodes = 0

    def key(self, k: int) -> tuple[object, ...]:
        return (k, *self.prog, *sorted(map(tuple, self.piles)))

    def run(self, k: int) -> bool:
        if self.prog[0] + self.prog[1] + self.prog[2] + self.prog[3] == 52:
            return True
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        key = self.key(k)
        if key in self.refuted:
            return False
        prog, piles = self.prog, self.piles
        need = [NEED_AT[i][prog[i]] for i in range(4)]
        turned = self.stock[k] if k < len(self.stock) else 0
        # 1. the turned card home, least advanced foundation first
        for i in sorted((i for i in range(4) if turned and need[i] == turned), key=prog.__getitem__):
            if self._try(k, (TURNED, 0, FOUNDATION, i)):
                return True
        # 2. a waste top home
        for j in range(4):
            if piles[j]:
                t = piles[j][-1]
                for i in sorted((i for i in range(4) if need[i] == t), key=prog.__getitem__):
                    if self._try(k, (WASTE, j, FOUNDATION, i)):
                        return True
        # 3. the turned card onto a waste pile, the heuristic's pile first
        if turned:
            waiting = [0] * 14
            for p in piles:
                for t in p:
                    waiting[t] += 1
            first = choose_pile(distances(prog), waiting, piles, turned)
            seen: list[list[int]] = []
            for j in (first, *(j for j in range(4) if j != first)):
                if piles[j] in seen:
                    continue
                seen.append(piles[j])
                if self._try(k, (TURNED, 0, WASTE, j)):
                    return True
        if len(self.refuted) < MAX_REFUTED:
            self.refuted.add(key)
        return False

    def _try(self, k: int, step: Step) -> bool:
        src_kind, src, dst_kind, dst = step
        if src_kind == TURNED:
            r = self.stock[k]
            k += 1
        else:
            r = self.piles[src].pop()
        if dst_kind == FOUNDATION:
            self.prog[dst] += 1
        else:
            self.piles[dst].append(r)
        self.path.append(step)
        if self.run(k):
            return True
        self.path.pop()
        if dst_kind == FOUNDATION:
            self.prog[dst] -= 1
        else:
            self.piles[dst].pop()
        if src_kind != TURNED:
            self.piles[src].append(r)
        return False


def _finish(search: _Search, started: float) -> SolveResult:
    """Run the complete search; raises ``_OutOfTime`` when its budget runs out."""
    won = search.run(0)
    moves = tuple(format_notation(*step) for step in search.path) if won else ()
    verdict = WINNABLE if won else NOT_WINNABLE
    return SolveResult(verdict, moves, nodes=search.nodes, seconds=time.perf_counter() - started)


def solve_position(position: Position, *, time_limit: float = 5.0) -> SolveResult:
    """Search from ``position`` (which knows its stock order): a short complete search (quick
    to refute a hopeless endgame), then beams of growing width (quick to find a win), then
    the complete search again with what the first one refuted and the time left."""
    started = time.perf_counter()
    deadline = started + time_limit
    prog = [len(f) for f in position.foundations]
    piles = [[rank_of(c) for c in w] for w in position.waste]
    stock = [rank_of(c) for c in position.stock[position.turn :]]
    first = _Search(prog[:], [p[:] for p in piles], stock, started + min(FIRST_SLICE, time_limit / 10))
    try:
        return _finish(first, started)
    except _OutOfTime:
        pass
    for width in BEAM_WIDTHS:
        try:
            found = _beam(prog, piles, stock, width, deadline)
        except _OutOfTime:
            break
        if found is not None:
            moves = tuple(format_notation(*step) for step in found)
            return SolveResult(WINNABLE, moves, nodes=first.nodes, seconds=time.perf_counter() - started)
    again = _Search(prog[:], [p[:] for p in piles], stock, deadline)
    again.refuted = first.refuted  # refutations are final: only finished subtrees are recorded
    try:
        return _finish(again, started)
    except _OutOfTime:
        nodes = first.nodes + again.nodes
        return SolveResult(UNKNOWN, nodes=nodes, seconds=time.perf_counter() - started)


def solve(game: CalculationGame, *, time_limit: float = 5.0, from_start: bool = False) -> SolveResult:
    """Could ``game`` be won knowing the stock order? From its current position, or from
    the deal's start with ``from_start=True`` (what a player who lost wants to see)."""
    position = Position.deal(game.game_code.deal) if from_start else game.position
    result = solve_position(position, time_limit=time_limit)
    if from_start:
        return SolveResult(result.verdict, result.moves, "deal", result.nodes, result.seconds)
    return result
