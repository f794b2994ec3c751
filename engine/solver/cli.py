"""``python -m engine solve|hint CODE [MOVE ...] [--time-limit SECONDS]``: one JSON object on stdout.

``solve`` (Jeu du Boulanger): ``{"verdict": "solvable"|"unsolvable"|"unknown",
"moves": [...], "seconds": ...}``; ``moves`` wins from the position the code
and moves reach. ``--node-limit N`` also bounds the search by nodes.

``hint``: Jeu du Boulanger, the solver's advice (``engine.solver.hint``):
``{"status": "move"|"won"|"lost"|"unknown", "move": ..., "solution": [...],
"undos": ..., "exhausted": ..., "seconds": ..., "nodes": ..., "code": ...}``;
Calculation, the hint player's move: ``{"status": "move"|"none", "move": ...,
"code": ...}``.

``--time-limit`` is a plain decimal number of seconds above 0 and at most 60
(the CPU one call may use). Bad input of any kind exits with status 2 and a
one-line message on stderr, printing nothing on stdout (see ``engine.__main__``).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from engine.bakers import BakersGame
from engine.calculation import CalculationGame
from engine.cli_args import MAX_TIME_LIMIT, Parser, UsageError, new_game, node_count, play_moves, seconds
from engine.solver.api import DEFAULT_TIME_LIMIT, hint, solve

DEFAULT_HINT_TIME = 2.0


def _parser(command: str, summary: str, default_time: float, nodes: bool) -> argparse.ArgumentParser:
    parser = Parser(prog=f"python -m engine {command}", description=summary)
    parser.add_argument("code", help="a game code, e.g. BK1-C4-AAAAA24")
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


def _position(args: argparse.Namespace) -> BakersGame | CalculationGame:
    game = new_game(args.code)
    play_moves(game, args.moves)
    if not isinstance(game, BakersGame | CalculationGame):
        raise UsageError(f"{game.code}: no {args.command} for this game")
    return game


def main_solve(argv: list[str]) -> str:
    """``solve``: the JSON line to print; ``UsageError`` on bad input."""
    args = _parser("solve", "Solve a Jeu du Boulanger position.", DEFAULT_TIME_LIMIT, True).parse_args(argv)
    args.command = "solve"
    game = _position(args)
    if not isinstance(game, BakersGame):
        raise UsageError(f"{game.code}: the solver plays Jeu du Boulanger codes (BK…) only")
    result = solve(game, time_limit=args.time_limit, node_limit=args.node_limit)
    return json.dumps({"verdict": result.verdict, "moves": result.moves, "seconds": result.seconds}) + "\n"


def main_hint(argv: list[str]) -> str:
    """``hint``: the JSON line to print; ``UsageError`` on bad input."""
    args = _parser("hint", "The next move for a position.", DEFAULT_HINT_TIME, False).parse_args(argv)
    args.command = "hint"
    game = _position(args)
    if isinstance(game, BakersGame):
        return json.dumps(asdict(hint(game, args.time_limit)) | {"code": game.code}) + "\n"
    move = game.hint(time_limit=args.time_limit)
    status = "none" if move is None else "move"
    return json.dumps({"status": status, "move": move, "code": game.code}) + "\n"
