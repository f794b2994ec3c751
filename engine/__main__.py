"""Command line: ``python -m engine deal|play|solve|hint CODE ...``.

For people and for checks from outside; a stable interface:

* ``deal CODE`` prints the starting position (the game's board text: fc-solve's for the eight-column games);
* ``play CODE [MOVE ...]`` applies moves (or ``undo``) and prints one JSON object;
* ``solve`` and ``hint`` (the eight-column games, BK… and FC… codes; ``hint`` plays Calculation too)
  print one JSON object, see ``engine.solver.cli``.

Exit status 0 on success. Bad input of any kind (a bad code or move, an odd
option, a number out of range, an over-long or undecodable argument) exits
with status 2 and one line on stderr, printing nothing on stdout. An internal
error exits with status 1 and one line too (``BOULANGER_DEBUG=1`` adds the
traceback); 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import traceback
from collections.abc import Sequence

from engine.cli_args import USAGE_EXIT, Parser, UsageError, check_argv, new_game, one_line, play_position

INTERNAL_EXIT = 1
INTERRUPTED_EXIT = 130
DEBUG_ENV = "BOULANGER_DEBUG"


def cmd_deal(args: argparse.Namespace) -> str:
    return new_game(args.code).board_text()


def cmd_play(args: argparse.Namespace) -> str:
    game = play_position(args.code, args.moves)
    return json.dumps(game.to_json(), ensure_ascii=False) + "\n"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m engine", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    deal = sub.add_parser("deal", help="print a deal's starting position")
    deal.add_argument("code")
    deal.set_defaults(func=cmd_deal)
    play = sub.add_parser("play", help="apply moves (or 'undo') and print the result as JSON")
    play.add_argument("code")
    play.add_argument("moves", nargs="*")
    play.set_defaults(func=cmd_play)
    # Parsed by engine.solver.cli; listed here so --help shows them.
    sub.add_parser(
        "solve",
        help="solve a position of an eight-column game (BK…, FC…): CODE [MOVE ...] [--time-limit SECONDS] [--node-limit N]",
        add_help=False,
    )
    sub.add_parser(
        "hint",
        help="the next move (BK…, FC…: solver; CA…: hint player): CODE [MOVE ...] [--time-limit SECONDS]",
        add_help=False,
    )
    return parser


def run(argv: list[str]) -> str:
    """The text a call prints on stdout; ``UsageError`` for bad input (``SystemExit(0)`` after --help)."""
    check_argv(argv)
    if argv[:1] in (["solve"], ["hint"]):
        from engine.solver import cli

        return cli.main_solve(argv[1:]) if argv[0] == "solve" else cli.main_hint(argv[1:])
    args = build_parser().parse_args(argv)
    out: str = args.func(args)
    return out


def _say(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # stderr closed: nothing else to tell anyone
        print(one_line(message), file=sys.stderr)


def _write(text: str) -> None:
    if sys.stdout is None:  # started with stdout closed (``>&-``)
        raise ValueError("standard output is closed")
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:  # a terminal that cannot show ♠ or é: escape rather than fail
        sys.stdout.write(text.encode("ascii", "backslashreplace").decode("ascii"))
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run one call; never raises (bar ``SystemExit`` from --help, caught here too)."""
    try:
        args = list(sys.argv[1:] if argv is None else argv)
        out = run(args)
    except UsageError as exc:
        _say(f"error: {exc}")
        return USAGE_EXIT
    except SystemExit as exc:  # --help / --version printed their text
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else USAGE_EXIT)
    except KeyboardInterrupt:
        _say("interrupted")
        return INTERRUPTED_EXIT
    except Exception as exc:  # a bug, not the caller's fault: still one line unless debugging
        if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
            traceback.print_exc()
        _say(
            f"internal error (a bug in the engine, please report it): {type(exc).__name__}: {exc} "
            f"[{DEBUG_ENV}=1 shows the traceback]"
        )
        return INTERNAL_EXIT
    try:
        _write(out)
    except BrokenPipeError:  # the reader went away (``| head``): not worth a traceback
        _drop_stdout()
        return INTERNAL_EXIT
    except (OSError, ValueError, AttributeError) as exc:  # ``> /dev/full``, ``>&-``: say so, once
        _drop_stdout()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "standard output is closed"
        _say(f"error: could not write the output: {reason}")
        return INTERNAL_EXIT
    return 0


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the flush at exit cannot fail (and print) again."""
    with contextlib.suppress(OSError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115


if __name__ == "__main__":
    sys.exit(main())
