"""``solve``: a verdict on a position with a checked, shortened solution; ``solve_code`` and ``par``
for codes."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from engine.codes import parse_code
from engine.registry import replay
from engine.solver.lines import as_pressed, shortest, to_moves
from engine.solver.positions import AnyGame, Position, autoplays, position_of, tableau_game
from engine.solver.result import WINNABLE, Refused, SolveResult
from engine.solver.rules import rules_of
from engine.solver.search import Search, Step
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
    *,
    step_price: int = 0,
    first: Search | None = None,
) -> Search:
    """The search from ``pos`` by its game's rules; ``step_price``, ``first`` (whose column
    costs it shares): the second, shorter-minded search (``Search``)."""
    cols = [bytes(c) for c in pos.cols]
    cells = [c for c in pos.cells if c != EMPTY]
    rules = rules_of(pos)
    return Search(
        cols,
        cells,
        list(pos.found),
        pos.num_cells,
        rules=rules,
        step_price=step_price,
        dead=dead,
        avoid=avoid,
        wins=wins,
        cost_cache=first.cost_cache if first is not None and first.rules is rules else None,
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
    """Decide a position of a game that hands the solver its rules (``rules.rules_of``).

    ``"winnable"`` comes with a checked winning move list, ``"unsolvable"`` is a
    proof by complete search, ``"unknown"`` means the time or node budget ran
    out. ``dead`` is an optional shared set of positions already proven lost
    (see ``Search``); ``avoid``, keys of positions the solution must not pass
    through (``position_key``; then "lost" means "not without them"). ``compact`` shortens
    the solution with shortcuts and group moves (``shorten``; about 4% fewer moves for some
    35 ms). ``autoplay`` (a game with ``Rules.auto_play``; by default the game's own
    setting, off for a bare position) leaves out the moves home that auto-play makes by
    itself (``lines.as_pressed``); otherwise every move is written. ``short`` (a game with a
    ``Rules.step_price``) looks for a shorter win once one is found (``_shorter``); off
    where only the verdict matters.
    """
    pos = position_of(target)
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    search = search_for(pos, dead, avoid)
    verdict, steps = search.run(deadline, node_limit)
    nodes = search.nodes
    if verdict == WINNABLE and short:
        steps, more = _shorter(pos, steps, search, avoid, deadline)
        nodes += more
    applied = to_moves(pos, steps) if verdict == WINNABLE else []
    moves = atomic = [m.notation for m in applied]
    if compact and moves:
        moves = [m.notation for m in shortest(pos, applied, atomic)]
    if moves and (autoplays(target) if autoplay is None else autoplay):
        moves = as_pressed(pos, moves, atomic, compact=compact)
    return SolveResult(verdict, moves, round(time.monotonic() - t0, 4), nodes)


def _shorter(
    pos: Position,
    steps: list[Step],
    first: Search,
    avoid: set[bytes] | frozenset[bytes] | None,
    deadline: float | None,
) -> tuple[list[Step], int]:
    """A shorter win than ``steps`` (the ``first`` search's) from the same search with the game's
    price per step (``Rules.step_price``), within a node budget, sharing the first's column
    costs; ``steps`` when the game has no price, or the second finds no win in its budget or
    none shorter. And the nodes it searched."""
    price = first.rules.step_price
    if not price:
        return steps, 0
    second = search_for(pos, avoid=avoid, step_price=price, first=first)
    verdict, found = second.run(deadline, max(SHORT_FLOOR, SHORT_FACTOR * first.nodes))
    if verdict == WINNABLE and len(found) < len(steps):
        return found, second.nodes
    return steps, second.nodes


def solve_code(
    code: str,
    moves: Sequence[str] = (),
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    autoplay: bool | None = None,
) -> SolveResult | Refused:
    """Solve the position a code plus an action log reach, for process pools. ``autoplay``: the
    player's setting of a game with auto-play (default on).

    Bad input gives ``Refused`` instead of raising, so a worker never dies on it.
    """
    game = tableau_game(code, moves, autoplay)
    if isinstance(game, Refused):
        return game
    return solve(game, time_limit=time_limit)


def par(code: str, time_limit: float | None = 30.0) -> int | None:
    """The length of the solver's solution of a deal, or None if it has none (or none in time)."""
    game = replay(parse_code(code), ())
    if not isinstance(game, TableauGame):
        raise ValueError(f"{code} is not a code of a game the solver plays")
    result = solve(game, time_limit=time_limit)
    return len(result.moves) if result.verdict == WINNABLE else None
