"""``python -m engine solve|hint CODE [MOVE ...] [--time-limit SECONDS]``: one JSON object on stdout.

``solve`` (the games that hand the solver their rules: Jeu du Boulanger, FreeCell; and a
game that solves itself, ``SelfSolver``, with its own search):
``{"verdict": "solvable"|"unsolvable"|"unknown", "moves": [...], "seconds": ...}`` (the
solver's "winnable" and "lost" printed as they always were); ``moves`` wins from the
position the code and moves reach. ``--node-limit N`` also bounds the search by nodes. A
game with auto-play (FreeCell) plays with it here as in the game (``play`` too), so its
``moves`` leave out the cards auto-play sends home; they replay as printed with ``play``.

``hint``: exactly ``{"move": notation or null, "undo": undos needed or 0,
"winnable": true|false|null}`` for every game (null: not known within the time
limit). Jeu du Boulanger and FreeCell: the solver's advice (``engine.solver.hint``, given the
game's history from the moves, so following hints never returns to a position
the game has been in); ``move`` null with ``undo`` > 0 when the position is lost
and that many undos lead back to one that is winnable; ``move`` and ``undo`` both
null/0 when it is lost beyond repair, won, or undecided. A game with a hint player of its
own (Calculation: ``HintPlayer``): its move, ``winnable`` null unless the game is over
(true when won, false when lost).

``--time-limit`` is a plain decimal number of seconds above 0 and at most 60
(the CPU one call may use). Bad input of any kind exits with status 2 and a
one-line message on stderr, printing nothing on stdout (see ``engine.__main__``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Protocol, runtime_checkable

from engine import codes
from engine.cli_args import MAX_TIME_LIMIT, Parser, UsageError, node_count, play_position, seconds
from engine.game import Outcome
from engine.solver.hints import hint
from engine.solver.result import LOST, WINNABLE, SolveResult, hint_json
from engine.solver.solving import DEFAULT_TIME_LIMIT, solve
from engine.tableau.game import TableauGame

DEFAULT_HINT_TIME = 2.0

# The verdicts as ``solve`` has always printed them.
PRINTED_VERDICT = {WINNABLE: "solvable", LOST: "unsolvable"}


@runtime_checkable
class HintPlayer(Protocol):
    """A game with a hint player of its own (Calculation's), for ``hint``."""

    code: Any

    def hint(self, *, time_limit: float | None = None) -> str | None: ...

    @property
    def outcome(self) -> Outcome | None: ...


@runtime_checkable
class SelfSolver(Protocol):
    """A game that searches its own positions (its rules are not the solver's tableau kind:
    a stock, hidden cards), for ``solve``: the same answer as the solver's."""

    code: Any

    def solve(self, *, time_limit: float | None = None, node_limit: int | None = None) -> SolveResult: ...


def _parser(command: str, summary: str, default_time: float, nodes: bool) -> argparse.ArgumentParser:
    parser = Parser(prog=f"python -m engine {command}", description=summary)
    parser.add_argument("code", help=f"a game code, e.g. {next(iter(codes.SPECS.values())).example()}")
    parser.add_argument("moves", nargs="*", help="moves (or 'undo') played first")
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=default_time,
        metavar="SECONDS",
        help=f"search budget, at most {MAX_TIME_LIMIT:g}; 'unknown' when it runs out "
        f"(default {default_time:g})",
    )
    if nodes:
        parser.add_argument(
            "--node-limit", type=node_count, default=None, metavar="N", help="also stop after N search nodes"
        )
    return parser


def _position(args: argparse.Namespace, kinds: tuple[type, ...]) -> Any:
    """The game the code and moves reach, if it is of one of ``kinds``."""
    game = play_position(args.code, args.moves)
    if isinstance(game, kinds):
        return game
    raise UsageError(f"{game.code}: no {args.command} for this game")


def main_solve(argv: list[str]) -> str:
    """``solve``: the JSON line to print; ``UsageError`` on bad input."""
    args = _parser(
        "solve", "Solve a position of a game that hands the solver its rules.", DEFAULT_TIME_LIMIT, True
    ).parse_args(argv)
    args.command = "solve"
    game: TableauGame[Any] | SelfSolver = _position(args, (TableauGame, SelfSolver))
    if isinstance(game, TableauGame):
        result = solve(game, time_limit=args.time_limit, node_limit=args.node_limit)
    else:
        result = game.solve(time_limit=args.time_limit, node_limit=args.node_limit)
    verdict = PRINTED_VERDICT.get(result.verdict, result.verdict)
    return json.dumps({"verdict": verdict, "moves": result.moves, "seconds": result.seconds}) + "\n"


def main_hint(argv: list[str]) -> str:
    """``hint``: the JSON line to print; ``UsageError`` on bad input."""
    args = _parser("hint", "The next move for a position.", DEFAULT_HINT_TIME, False).parse_args(argv)
    args.command = "hint"
    game: TableauGame[Any] | HintPlayer = _position(args, (TableauGame, HintPlayer))
    if isinstance(game, TableauGame):
        return json.dumps(hint_json(hint(game, args.time_limit))) + "\n"
    move = game.hint(time_limit=args.time_limit)
    outcome = game.outcome
    winnable = None if outcome is None else outcome.won
    return json.dumps({"move": move, "undo": 0, "winnable": winnable}) + "\n"
