"""Board pictures: a game's state in, PNG bytes out (Pillow only; never changes the game).

    import engine, renderer
    png = renderer.render_png(engine.new_game("BK1-C4-AAAAA24"), highlight="3")
    gif = renderer.render_replay(game.code, game.moves)      # animated, <= 400 frames, <= 7.5 MiB
    python -m renderer BK1-C4-AAAAA24 1a 2b -o board.png     # any position from the shell

Boards are assembled in palette mode from sprites drawn once and cached (see
``renderer.palette``), so a render costs little more than the PNG encoding.
Safe to call from several threads at once.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from PIL import Image

from engine import Game
from renderer.boards import board_for
from renderer.labels import DEFAULTS as DEFAULT_LABELS
from renderer.labels import resolve as resolve_labels
from renderer.layout import HEIGHT, WIDTH
from renderer.replay import MAX_BYTES as REPLAY_MAX_BYTES
from renderer.replay import ReplayTooLarge, render_replay

# zlib level: 6 saves ~20% of the bytes for 3-4x the encode time, 9 is ~25x slower
# (docs/BENCHMARKS.md, renderer); every board stays well under 60 KiB at 3.
PNG_LEVEL = 3


def render_image(
    game: Game[Any], *, highlight: object = None, labels: Mapping[str, str] | None = None
) -> Image.Image:
    """The board as a palette ("P") image, WIDTH x HEIGHT.

    ``highlight`` marks a selected source for two-click play. Baker's Game:
    ``("c", 0..7)`` a column, ``("f", 0..cells-1)`` a free cell. Calculation:
    ``("s", 0)`` the turned card, ``("w", 0..3)`` a waste pile. The notation
    names (``"3"``, ``"a"``, ``"s"``, ``"w2"``) are accepted too. The last
    move (``game.last_move``) is always marked: its source's label turns
    amber and the cards it put down get an amber face. ``game.outcome`` shows
    as a WON/LOST badge in the header (and a banner on a won board).
    ``labels`` overrides some of ``renderer.DEFAULT_LABELS`` (translations).
    ``ValueError`` on an unknown game kind, highlight or label.
    """
    board = board_for(game)
    words = resolve_labels(labels)
    image: Image.Image = board.render(game, board.parse_highlight(game, highlight), words)
    return image


def encode_png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def render_png(
    game: Game[Any], *, highlight: object = None, labels: Mapping[str, str] | None = None
) -> bytes:
    """The board as PNG bytes (see ``render_image`` for the options)."""
    return encode_png(render_image(game, highlight=highlight, labels=labels))


__all__ = [
    "DEFAULT_LABELS",
    "HEIGHT",
    "REPLAY_MAX_BYTES",
    "WIDTH",
    "ReplayTooLarge",
    "encode_png",
    "render_image",
    "render_png",
    "render_replay",
]
