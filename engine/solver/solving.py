"""``solve``: a verdict on a position with a checked, shortened solution; ``solve_code`` and ``par``
for codes."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from engine.codes import parse_code
from engine.registry import replay
from engine.solver.lines import autoplay_form, shorten_autoplay, shortest, to_moves
from engine.solver.positions import AnyGame, Position, autoplays, position_of, tableau_game
from engine.solver.result import SOLVABLE, SolverError, SolveResult
from engine.solver.rules import STEP_COST, rules_for
from engine.solver.search import Search, Step
from engine.solver.weighted import WeightedSearch
from engine.tableau.game import TableauGame
from engine.tableau.position import EMPTY

DEFAULT_TIME_LIMIT = 5.0

# The shorter-minded second search's node budget (``_shorter``): this many times the first
# search's nodes, and at least the floor.
SHORT_FACTOR, SHORT_FLOOR = 8, 20_000


def search_for(
    pos: Position,
    dead: set[int] | None = None,
    avoid: set[bytes] | frozenset[bytes] | None = None,
    wins: Iterable[bytes] | None = None,
) -> Search:
    cols = [bytes(c) for c in pos.cols]
    cells = [c for c in pos.cells if c != EMPTY]
    return Search(
        cols, cells, list(pos.found), pos.num_cells, dead=dead, avoid=avoid, wins=wins, rules=rules_for(pos)
    )


def solve(
    target: Position | AnyGame,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    node_limit: int | None = None,
    dead: set[int] | None = None,
    avoid: set[bytes] | frozenset[bytes] | None = None,
    compact: bool = True,
    autoplay: bool | None = None,
    short: bool = True,
) -> SolveResult:
    """Decide a Jeu du Boulanger or FreeCell position (4 to 1 free cells).

    ``"solvable"`` comes with a checked winning move list, ``"unsolvable"`` is a
    proof by complete search, ``"unknown"`` means the time or node budget ran
    out. ``dead`` is an optional shared set of positions already proven lost
    (see ``Search``); ``avoid``, keys of positions the solution must not pass
    through (``position_key``; then "unsolvable" means "not without them"). ``compact`` shortens the solution with shortcuts and group
    moves (``shorten``; about 4% fewer moves for some 35 ms). ``autoplay`` (FreeCell; by
    default the game's own setting, off for a bare position) leaves out the moves home that
    safe auto-play makes by itself (``autoplay_form``); otherwise every move is written.
    ``short`` (the games of ``rules.STEP_COST``: FreeCell) looks for a shorter win once one is
    found (``_shorter``); off where only the verdict matters.
    """
    pos = position_of(target)
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    search = search_for(pos, dead, avoid)
    verdict, steps = search.run(deadline, node_limit)
    nodes = search.nodes
    if verdict == SOLVABLE and short:
        steps, more = _shorter(pos, steps, search, avoid, deadline)
        nodes += more
    applied = to_moves(pos, steps) if verdict == SOLVABLE else []
    moves = atomic = [m.notation for m in applied]
    if compact and moves:
        moves = [m.notation for m in shortest(pos, applied, atomic)]
    if moves and (autoplays(target) if autoplay is None else autoplay):
        try:
            moves = autoplay_form(pos, moves)
        except SolverError:  # a shortcut that auto-play overtook: the plain solution always fits
            moves = autoplay_form(pos, atomic)
        if compact:
            moves = shorten_autoplay(pos, moves)
    return SolveResult(verdict, moves, round(time.monotonic() - t0, 4), nodes)


def _shorter(
    pos: Position,
    steps: list[Step],
    first: Search,
    avoid: set[bytes] | frozenset[bytes] | None,
    deadline: float | None,
) -> tuple[list[Step], int]:
    """A shorter win than ``steps`` (the ``first`` search's) from the second search
    (``engine.solver.weighted``), for the games that have one, sharing the first's column
    costs; ``steps`` when it finds none within its budget or its win is no shorter. And the
    nodes it searched."""
    rules = rules_for(pos)
    cost = STEP_COST.get(rules.name)
    if cost is None:
        return steps, 0
    cols = [bytes(c) for c in pos.cols]
    cells = [c for c in pos.cells if c != EMPTY]
    second = WeightedSearch(
        cols,
        cells,
        list(pos.found),
        pos.num_cells,
        rules=rules,
        step_cost=cost,
        avoid=avoid,
        cost_cache=first.cost_cache if first.rules is rules else None,
    )
    verdict, found = second.run(deadline, max(SHORT_FLOOR, SHORT_FACTOR * first.nodes))
    if verdict == SOLVABLE and len(found) < len(steps):
        return found, second.nodes
    return steps, second.nodes


def solve_code(
    code: str,
    moves: Sequence[str] = (),
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    autoplay: bool | None = None,
) -> dict[str, Any]:
    """Solve the position a code plus an action log reach; a plain dict, for process pools.
    ``autoplay``: a FreeCell player's setting (default on).

    Bad input gives ``{"error": message}`` instead of raising, so a worker never dies on it.
    """
    game = tableau_game(code, moves, autoplay)
    if isinstance(game, str):
        return {"error": game}
    return solve(game, time_limit=time_limit).to_json() | {"code": game.code}


def par(code: str, time_limit: float | None = 30.0) -> int | None:
    """The length of the solver's solution of a deal, or None if it has none (or none in time)."""
    game = replay(parse_code(code), ())
    if not isinstance(game, TableauGame):
        raise ValueError(f"{code} is not a Jeu du Boulanger or FreeCell code")
    result = solve(game, time_limit=time_limit)
    return len(result.moves) if result.verdict == SOLVABLE else None
