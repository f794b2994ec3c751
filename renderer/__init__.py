"""Board pictures: a game's state in, PNG bytes out (Pillow only; never changes the game).

    import engine, renderer
    png = renderer.render_png(engine.new_game("BK1-C4-AAAAA24"), highlight="3")
    png = renderer.render_png(game, deck="four")             # a colour per suit
    png = renderer.render_png(game, tag="race", hide_code=True)  # a race's board: no code
    gif = renderer.render_replay(game.code, game.moves)      # animated, <= 400 frames, <= 7.5 MiB
    python -m renderer BK1-C4-AAAAA24 1a 2b -o board.png --deck four
    renderer.register(tower_board)  # another game's board module (``renderer.boards.Board``)

Pictures are WIDTH (720) px wide and as tall as their content (see
``renderer.layout`` for the sizes, chosen for a 500 px wide phone screen).
Boards are assembled in palette mode from sprites drawn once and cached (see
``renderer.palette``; a column's fanned cards are one sprite), so a render
costs little more than the PNG encoding, and ``renderer.png`` deflates (with
zlib-ng) only the bands of rows it has not compressed lately, the bands cut
along each board's layout: a press that only selects a source (same board, a
highlight added) re-encodes a few bands, not the picture. A board as sent costs less CPU than
Pillow's own PNG encode of the same image (``benchmarks/render.py --versus-pillow``). The bot just calls ``render_png``
again. Safe to call from several threads at once; the bytes never depend on
what is cached.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image
from PIL import _imaging as pil_core  # Image.core: the block allocator's settings

import renderer.games  # noqa: F401  (registers the built-in games' boards)
from engine import Game
from renderer import png
from renderer.boards import board_for, register, tallest, unregister, words_of
from renderer.cards import check_deck
from renderer.labels import DEFAULTS as DEFAULT_LABELS
from renderer.labels import TAGS, check_tag
from renderer.labels import resolve as resolve_labels
from renderer.layout import DECKS, WIDTH
from renderer.replay import MAX_BYTES as REPLAY_MAX_BYTES
from renderer.replay import ReplayTooLarge, render_replay

# zlib-ng's level (renderer.png): 3 is smaller than zlib's 3 and faster; 2 is faster still
# but makes some boards larger than zlib's 3 did, 6 is ~2x slower (docs/BENCHMARKS.md,
# renderer); every board stays well under 60 KiB at 3.
PNG_LEVEL = 3

# Pillow frees an image's memory at once by default (PILLOW_BLOCKS_MAX=0), so every
# board's canvas and the encoder's copy are fresh pages, faulted in on first touch:
# ~0.2 ms of a ~0.6 ms warm render (issue 26). Keeping a few freed blocks for reuse
# (each the size of one picture, < 1 MiB) removes it; a larger setting is left alone.
_BLOCKS_KEPT = 16
if pil_core.get_blocks_max() < _BLOCKS_KEPT:
    pil_core.set_blocks_max(_BLOCKS_KEPT)


def __getattr__(name: str) -> int:
    """``renderer.HEIGHT``: the tallest picture of any registered board (a game registered
    later may be taller)."""
    if name == "HEIGHT":
        return tallest()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def render_image(
    game: Game[Any],
    *,
    highlight: object = None,
    labels: Mapping[str, str] | None = None,
    deck: str = "two",
    tag: str | None = None,
    hide_code: bool = False,
) -> Image.Image:
    """The board as a palette ("P") image, WIDTH wide and as tall as its longest pile
    needs (at most HEIGHT).

    ``highlight`` marks a selected source for two-click play, in the terms of the
    game's board module (its ``parse_highlight``: a place as ``(kind, index)`` or its
    notation name, e.g. ``"3"`` or ``"w2"``). The last
    move (``game.last_move``) is always marked: its source's label turns
    amber and the cards it put down get an amber face. ``game.outcome`` shows
    as a WON/LOST badge in the header, beside the game's name (and a banner on a
    won board).
    ``labels`` overrides some of ``renderer.DEFAULT_LABELS`` (translations): the shared
    words and every registered board's own; the board draws the shared ones and its own.
    ``deck`` is ``"two"`` (red and black) or ``"four"`` (a colour per suit, chosen
    to stay apart for colour-blind players: ``renderer.cards``).
    ``tag`` says where the deal came from on a pill beside the game's name: one of
    ``renderer.TAGS`` (``"practice"``, ``"daily"``, ``"race"``, drawn as that label's
    word, translated like the others) or None. ``hide_code`` leaves the code out (a
    race: everyone has the deal, nobody may read it off the board).
    ``ValueError`` on an unknown game kind, highlight, label, deck or tag.
    """
    board = board_for(game)
    words = resolve_labels(labels, words_of(board))
    image: Image.Image = board.render(
        game,
        board.parse_highlight(game, highlight),
        words,
        check_deck(deck),
        fit=True,
        tag=check_tag(tag),
        hide_code=hide_code,
    )
    return image


def encode_png(im: Image.Image) -> bytes:
    """A palette image as PNG bytes (``renderer.png``: recently seen bands are not re-deflated)."""
    return png.encode(im, PNG_LEVEL)


def render_png(
    game: Game[Any],
    *,
    highlight: object = None,
    labels: Mapping[str, str] | None = None,
    deck: str = "two",
    tag: str | None = None,
    hide_code: bool = False,
) -> bytes:
    """The board as PNG bytes (see ``render_image`` for the options)."""
    image = render_image(game, highlight=highlight, labels=labels, deck=deck, tag=tag, hide_code=hide_code)
    return encode_png(image)


__all__ = [
    "DECKS",
    "DEFAULT_LABELS",
    "HEIGHT",
    "REPLAY_MAX_BYTES",
    "TAGS",
    "WIDTH",
    "ReplayTooLarge",
    "encode_png",
    "register",
    "render_image",
    "render_png",
    "render_replay",
    "unregister",
]
