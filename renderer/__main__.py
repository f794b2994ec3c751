"""``python -m renderer CODE [MOVE ...] -o board.png [--deck four] [--replay out.gif]``: look at any position."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import engine
import renderer


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m renderer", description="Draw a game's board as a PNG.")
    ap.add_argument("code", help="a game code, as a board shows it")
    ap.add_argument("moves", nargs="*", help="actions to play first (notation, or 'undo')")
    ap.add_argument("-o", "--output", type=Path, help="where to write the board PNG")
    ap.add_argument(
        "--highlight", help="a selected source to mark, by its name in the game's notation (e.g. 3 or w2)"
    )
    ap.add_argument(
        "--deck", choices=sorted(renderer.DECKS), default="two", help="suit colours: two (red/black) or four"
    )
    ap.add_argument("--replay", type=Path, help="also write an animated replay (.gif or .png)")
    args = ap.parse_args(argv)
    if args.output is None and args.replay is None:
        ap.error("give -o board.png and/or --replay out.gif")
    try:
        game = engine.replay(args.code, args.moves)
        if args.output is not None:
            args.output.write_bytes(renderer.render_png(game, highlight=args.highlight, deck=args.deck))
        if args.replay is not None:
            fmt = "png" if args.replay.suffix.lower() in (".png", ".apng") else "gif"
            args.replay.write_bytes(renderer.render_replay(args.code, args.moves, fmt=fmt))
    except (engine.EngineError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
