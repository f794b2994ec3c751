"""``standing_code``: whether a game can still be won (the board's lost-deal warning), rejoining a
known winning line where it can."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from engine.solver.lines import to_notation
from engine.solver.positions import AnyGame, Position, plan_keys, tableau_game
from engine.solver.result import LOST, UNKNOWN, WINNABLE, Refused, SolverError, SolveResult, Standing, Verdict
from engine.solver.solving import search_for, solve


def standing_code(
    code: str,
    moves: Sequence[str] = (),
    time_limit: float = 1.0,
    node_limit: int | None = None,
    *,
    back: bool = False,
    known: Sequence[bytes] = (),
    within: int | None = None,
) -> Standing | Refused:
    """Whether the position a code plus an action log reach can still be won, for process pools
    (issue 28: the board's "this deal can no longer be won"); ``Refused`` on bad input.

    ``known``: keys (``position_key``) of positions already proven winnable, in the order of
    their winning line (the last verdict's position and its ``line``): the search ends as soon
    as it reaches one, and the answer's line is the way there followed by the rest of
    ``known`` (issue 26: a move off a known line costs a short search back to it, not a
    whole new solution); ``within``: the undos back to the first of ``known`` (a lost
    position's search back stops there).

    The answer's ``undos`` are looked for with ``back`` only (``Standing``). ``time_limit``
    and ``node_limit`` bound the whole call, the searches back included.
    """
    t0 = time.monotonic()
    game = tableau_game(code, moves)
    if isinstance(game, Refused):
        return game
    deadline = t0 + time_limit
    nodes_left = node_limit

    def spend(target: AnyGame, dead: set[int]) -> SolveResult:
        nonlocal nodes_left
        left = max(0.0, deadline - time.monotonic())
        # Every move written (no auto-play form): the line is the positions the plan passes through.
        result = solve(
            target,
            time_limit=left,
            node_limit=nodes_left,
            dead=dead,
            compact=False,
            autoplay=False,
            short=False,
        )
        if nodes_left is not None:
            nodes_left = max(0, nodes_left - result.nodes)
        return result

    def answer(verdict: Verdict, nodes: int, **extra: Any) -> Standing:
        return Standing(verdict, nodes=nodes, seconds=round(time.monotonic() - t0, 4), **extra)

    dead: set[int] = set()
    if known:
        line, verdict, nodes = _rejoin(game.position, known, dead, deadline, nodes_left)
        if nodes_left is not None:
            nodes_left = max(0, nodes_left - nodes)
        if verdict == WINNABLE:
            return answer(WINNABLE, nodes, line=line)
    else:
        here = spend(game, dead)
        verdict, nodes = here.verdict, here.nodes
        if verdict == WINNABLE:
            keys = plan_keys(game.position, here.moves)
            if keys is None:
                raise SolverError("the solver's plan does not replay to a win")
            return answer(WINNABLE, nodes, line=keys)
    if verdict == UNKNOWN or not back:
        return answer(verdict, nodes)
    for undos in range(1, game.undo_depth + 1):
        if undos == within:  # known to be winnable there: no search
            return answer(LOST, nodes, undos=undos)
        game.undo()
        if time.monotonic() >= deadline or nodes_left == 0:
            break
        if known:
            _, found, spent = _rejoin(game.position, known, dead, deadline, nodes_left)
            if nodes_left is not None:
                nodes_left = max(0, nodes_left - spent)
        else:
            earlier = spend(game, dead)
            found, spent = earlier.verdict, earlier.nodes
        nodes += spent
        if found == WINNABLE:
            return answer(LOST, nodes, undos=undos)
        if found == UNKNOWN:
            break
    return answer(LOST, nodes)


def _rejoin(
    pos: Position, known: Sequence[bytes], dead: set[int], deadline: float, node_limit: int | None
) -> tuple[list[bytes], Verdict, int]:
    """Search from ``pos`` for a win or for one of the ``known`` winnable positions: (the
    keys of a winning line, verdict, nodes). The line is the way found, then the rest of
    ``known`` past the position it joins."""
    index = {key: i for i, key in enumerate(known)}
    search = search_for(pos, dead, wins=index)
    verdict, steps = search.run(deadline, node_limit)
    if verdict != WINNABLE:
        return [], verdict, search.nodes
    joined = search.joined
    keys = plan_keys(pos, to_notation(pos, steps, to_win=joined is None), to_win=joined is None)
    if keys is None:
        raise SolverError("the solver's way back to a known line does not replay")
    if joined is not None:
        keys += known[index[joined] + 1 :]
    return keys, WINNABLE, search.nodes
