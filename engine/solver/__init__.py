"""The solver of the eight-column games with free cells: proofs of (un)winnability, hints, par.

It names no game: a game hands it its rules (``engine.solver.rules.Rules``) through its
position class (``solver_rules``). Use ``solve(game_or_position, time_limit=5)`` for a
``SolveResult`` (verdict, moves, seconds, nodes) and ``hint(game, time_limit=1)`` for a
``Hint`` (never back to a position the game has been in: see ``engine.solver.hints.hint``).
In a process pool, call ``solve_code``, ``hint_code`` and ``standing_code``, which take a
code and an action log and answer the same frozen dataclasses (or ``Refused``).
"""

from engine.solver.hints import clear_plans, hint, hint_code, visited_keys
from engine.solver.lines import shorten, to_notation
from engine.solver.positions import line_keys, position_key
from engine.solver.result import (
    LOST,
    UNKNOWN,
    WINNABLE,
    Hint,
    Refused,
    SolverError,
    SolveResult,
    Standing,
    Verdict,
)
from engine.solver.rules import Rules
from engine.solver.solving import DEFAULT_TIME_LIMIT, par, solve, solve_code
from engine.solver.standing import standing_code

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "LOST",
    "UNKNOWN",
    "WINNABLE",
    "Hint",
    "Refused",
    "Rules",
    "SolveResult",
    "SolverError",
    "Standing",
    "Verdict",
    "clear_plans",
    "hint",
    "hint_code",
    "line_keys",
    "par",
    "position_key",
    "shorten",
    "solve",
    "solve_code",
    "standing_code",
    "to_notation",
    "visited_keys",
]
