"""``python -m engine solve CODE [MOVE ...] [--time-limit SECONDS]``: one JSON object on stdout.

``{"verdict": "solvable"|"unsolvable"|"unknown", "moves": [...], "seconds": ...}``:
``moves`` wins from the position the code and moves reach. A bad code or move
exits with status 2 and a message on stderr, printing nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from engine.bakers import BakersGame
from engine.errors import CodeError, IllegalMove
from engine.registry import new_game
from engine.solver.api import DEFAULT_TIME_LIMIT, solve

USAGE_EXIT = 2
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


def _seconds(text: str) -> float:
    """A plain ASCII decimal number: float() would also take "١", "1_0", "inf" or "nan"."""
    if not _DECIMAL.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}")
    return float(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine solve", description=__doc__)
    parser.add_argument("code", help="a Jeu du Boulanger game code, e.g. BK1-C4-AAAAA24")
    parser.add_argument("moves", nargs="*", help="moves (or 'undo') played before solving")
    parser.add_argument(
        "--time-limit",
        type=_seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"search budget; 'unknown' when it runs out (default {DEFAULT_TIME_LIMIT:g})",
    )
    return parser


def main_solve(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if not args.time_limit > 0:
        print("--time-limit must be a positive number of seconds", file=sys.stderr)
        return USAGE_EXIT
    try:
        game = new_game(args.code)
    except CodeError as exc:
        print(f"bad game code: {exc}", file=sys.stderr)
        return USAGE_EXIT
    if not isinstance(game, BakersGame):
        print(f"{game.code}: the solver plays Jeu du Boulanger codes (BK…) only", file=sys.stderr)
        return USAGE_EXIT
    for i, move in enumerate(args.moves, 1):
        try:
            game.play(move)
        except IllegalMove as exc:
            print(f"move {i} ({move!r}) failed: {exc}", file=sys.stderr)
            return USAGE_EXIT
    result = solve(game, time_limit=args.time_limit)
    print(json.dumps({"verdict": result.verdict, "moves": result.moves, "seconds": result.seconds}))
    return 0
