"""Command line: ``python -m engine deal|play|solve CODE ...``.

For people and for checks from outside. ``play`` prints one JSON object; on a
bad code or move it exits 2, says on stderr which move failed and why, and
prints nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys

import engine

USAGE_EXIT = 2


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return USAGE_EXIT


def cmd_deal(args: argparse.Namespace) -> int:
    try:
        game = engine.new_game(args.code)
    except engine.CodeError as exc:
        return _fail(f"bad game code: {exc}")
    sys.stdout.write(game.board_text())
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    try:
        game = engine.new_game(args.code)
    except engine.CodeError as exc:
        return _fail(f"bad game code: {exc}")
    for i, move in enumerate(args.moves, 1):
        try:
            game.play(move)
        except engine.IllegalMove as exc:
            return _fail(f"move {i} ({move!r}) failed: {exc}")
    print(json.dumps(game.to_json(), ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    deal = sub.add_parser("deal", help="print a deal's starting position")
    deal.add_argument("code")
    deal.set_defaults(func=cmd_deal)
    play = sub.add_parser("play", help="apply moves (or 'undo') and print the result as JSON")
    play.add_argument("code")
    play.add_argument("moves", nargs="*")
    play.set_defaults(func=cmd_play)
    # Parsed by engine.solver.cli; listed here so --help shows it.
    sub.add_parser(
        "solve",
        help="solve a Jeu du Boulanger position: CODE [MOVE ...] [--time-limit SECONDS]",
        add_help=False,
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["solve"]:
        from engine.solver.cli import main_solve

        return main_solve(argv[1:])
    args = build_parser().parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
