"""``python -m renderer CODE [MOVE ...] -o board.png [--highlight 3] [--deck four] [--replay out.gif]``:
look at any position.

The moves are read as ``python -m engine play`` reads them (``engine.cli_args.play_position``:
a game's safe auto-play included), so a line ``python -m engine solve`` prints draws as it
plays. Bad input of any kind (a code, a move, a highlight, an output name that is not a PNG
or a replay's GIF/APNG) exits with status 2 and one line on stderr, writing nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import engine
import renderer
from engine.cli_args import USAGE_EXIT, Parser, UsageError, check_argv, one_line, play_position
from renderer.boards import board_for

BOARD_SUFFIXES = (".png",)
REPLAY_SUFFIXES = {".gif": "gif", ".png": "png", ".apng": "png"}


def build_parser() -> argparse.ArgumentParser:
    ap = Parser(prog="python -m renderer", description="Draw a game's board as a PNG.")
    ap.add_argument("code", help="a game code, as a board shows it")
    ap.add_argument("moves", nargs="*", help="moves to play first, as `python -m engine play` takes them")
    ap.add_argument("-o", "--output", type=Path, help="where to write the board (a .png file)")
    ap.add_argument(
        "--highlight", help="a selected source to mark, by its name in the game's notation (e.g. 3, a or w2)"
    )
    ap.add_argument(
        "--deck", choices=sorted(renderer.DECKS), default="two", help="suit colours: two (red/black) or four"
    )
    ap.add_argument("--replay", type=Path, help="also write an animated replay (.gif, .png or .apng)")
    return ap


def _checked_names(args: argparse.Namespace) -> None:
    """Refuse, before any work, an output name the picture cannot be written as."""
    if args.output is None and args.replay is None:
        raise UsageError("python -m renderer: give -o board.png and/or --replay out.gif (see --help)")
    if args.output is not None and args.output.suffix.lower() not in BOARD_SUFFIXES:
        raise UsageError(f"-o {args.output}: a board is written as PNG; give a file name ending in .png")
    if args.replay is not None and args.replay.suffix.lower() not in REPLAY_SUFFIXES:
        raise UsageError(f"--replay {args.replay}: give a file name ending in .gif, .png or .apng")


def _highlight(game: engine.Game[Any], highlight: str | None) -> tuple[str, int] | None:
    try:
        return board_for(game).parse_highlight(game, highlight)
    except ValueError as exc:
        raise UsageError(f"--highlight {exc}") from exc


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc


def run(argv: list[str]) -> None:
    """Draw what ``argv`` asks; ``UsageError`` (nothing written) for bad input."""
    check_argv(argv)
    args = build_parser().parse_args(argv)
    _checked_names(args)
    game = play_position(args.code, args.moves)
    highlight = _highlight(game, args.highlight)
    board = replay = None
    if args.output is not None:
        board = renderer.render_png(game, highlight=highlight, deck=args.deck)
    if args.replay is not None:
        fmt = REPLAY_SUFFIXES[args.replay.suffix.lower()]
        try:
            replay = renderer.render_replay(game.code, game.moves, fmt=fmt)
        except renderer.ReplayTooLarge as exc:
            raise UsageError(f"--replay: {exc}") from exc
    if board is not None:
        _write(args.output, board)
    if replay is not None:
        _write(args.replay, replay)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        run(list(sys.argv[1:] if argv is None else argv))
    except UsageError as exc:
        print(one_line(f"error: {exc}"), file=sys.stderr)
        return USAGE_EXIT
    except SystemExit as exc:  # --help printed its text
        return exc.code if isinstance(exc.code, int) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
