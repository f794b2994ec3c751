"""Whether a Klondike game's position can still be won: the board's "this deal can no longer
be won" (issue 43 item 5), decided by the thoughtful solver, which knows every card (the bot
knows the deal).

The answer is ``engine.solver.result.Standing``: "winnable" (with the marks of the positions
its win passes through), "lost" (with the fewest undos back to a position proven winnable,
when asked and found) or "unknown" (the budget ran out: the board then says nothing). It
never names a card. A win the solver finds is replayed under the game's own rules before it
is believed: after an undo a pile may hold face-up cards that do not build on each other,
which the solver's moves take for a run; a win that does not replay counts as "unknown".

The budget is positions expanded and seconds of CPU, for the whole call (the position, then
each step back): the solver expands about 10,000-13,000 positions a
second, so ``VERDICT_NODES`` keeps a verdict near the other games' 1.5 s.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.klondike.game import KlondikeGame
from engine.klondike.notation import parse_notation
from engine.klondike.position import Position
from engine.klondike.solver_state import key, settle
from engine.klondike.solving import Limit, decide, layout_of, state_of
from engine.klondike.state import full_state
from engine.solver.result import LOST, UNKNOWN, WINNABLE, Standing, Verdict

# Positions one verdict may expand, searches back included (about 1 s of one core, 1.5 s at most measured).
VERDICT_NODES = 12_000


def mark(position: Position) -> bytes:
    """The solver's key of ``position``: equal for positions that win or lose alike (the piles
    in any order; drawing one, any waste size), so a verdict's line can be matched cheaply."""
    return key(state_of(layout_of(full_state(position))), position.draw)


@dataclass
class _Budget:
    """What a verdict may still spend: positions, and CPU time (``time.process_time``) until
    ``deadline``."""

    nodes: int
    deadline: float
    spent: int = 0

    def left(self) -> int:
        return self.nodes - self.spent if time.process_time() < self.deadline else 0

    def limit(self) -> Limit:
        return Limit(self.left(), self.deadline)


def standing(
    game: KlondikeGame,
    seconds: float,
    nodes: int = VERDICT_NODES,
    *,
    back: bool = False,
    known: Sequence[bytes] = (),
    within: int | None = None,
) -> Standing:
    """Whether ``game``'s position can still be won, within ``nodes`` positions and ``seconds``.

    ``known``: marks of positions proven winnable, in their winning line's order (the last
    verdict's position and its line): a search ends on reaching one. With ``back``, a lost
    position's undos back to a winnable one are looked for (``game`` is undone in the search:
    pass a copy); ``within``: the undos back to the first of ``known``, where that search
    stops. Positions a search proves lost are not searched again by the next.
    """
    started = time.process_time()
    budget = _Budget(nodes, started + seconds)
    goals = {k: i for i, k in enumerate(known)}
    dead: set[bytes] = set()
    verdict, line = _decide(game.position, budget, known, goals, dead)
    undos = None
    if verdict == LOST and back:
        undos = _undos_back(game, budget, known, goals, dead, within)
    return Standing(verdict, line, undos, budget.spent, round(time.process_time() - started, 4))


def _undos_back(
    game: KlondikeGame,
    budget: _Budget,
    known: Sequence[bytes],
    goals: dict[bytes, int],
    dead: set[bytes],
    within: int | None,
) -> int | None:
    """The fewest undos from ``game``'s lost position to one proven winnable, None when the
    budget runs out or a position on the way is undecided first."""
    for undos in range(1, game.undo_depth + 1):
        if undos == within:  # known to be winnable there: no search
            return undos
        if budget.left() <= 0:
            return None
        game.undo()
        verdict, _ = _decide(game.position, budget, known, goals, dead)
        if verdict == WINNABLE:
            return undos
        if verdict == UNKNOWN:
            return None
    return None


def _decide(
    position: Position, budget: _Budget, known: Sequence[bytes], goals: dict[bytes, int], dead: set[bytes]
) -> tuple[Verdict, list[bytes]]:
    """The verdict of ``position`` and, when winnable, the marks of its winning line
    (``solving.decide``: a proof either way); ``dead`` gains what the search proved lost."""
    here = mark(position)
    if here in goals:  # the known line passes here
        return WINNABLE, list(known[goals[here] + 1 :])
    if budget.left() <= 0:
        return UNKNOWN, []
    opening: list[str] = []
    root = settle(state_of(layout_of(full_state(position))), opening, position.draw)
    verdict, moves, spent = decide(root, position.draw, budget.limit(), dead=dead, goals=goals)
    budget.spent += spent
    if verdict != WINNABLE:
        return verdict, []
    line = _replayed(position, opening + moves, known, goals)
    return (UNKNOWN, []) if line is None else (WINNABLE, line)


def _replayed(
    position: Position, moves: list[str], known: Sequence[bytes], goals: dict[bytes, int]
) -> list[bytes] | None:
    """The marks of the positions ``moves`` pass through from ``position``, under the game's
    rules, then the rest of ``known`` past the one they reach; None unless every move is legal
    and they end in a win or on ``known``."""
    pos = position.copy()
    line: list[bytes] = []
    for text in moves:
        move = pos.find(parse_notation(text))
        if move is None:
            return None
        pos.apply(move)
        line.append(mark(pos))
    if pos.is_won():
        return line
    end = line[-1] if line else mark(pos)
    if end not in goals:
        return None
    return line + list(known[goals[end] + 1 :])
