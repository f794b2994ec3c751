"""The strip across the top of every board, two rows: the game's name, the outcome and where
the deal came from (practice, daily, race); then the code, score and moves.

The game's name is always drawn (a tag or an outcome comes beside it, never in its place).
The game code is drawn in DejaVu Sans Mono Bold (``fonts.MONO``), a face where 5 and S,
0 and O, 1 and I differ; score and moves share its row, size and ink.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine import Game
from renderer import layout as L
from renderer.fonts import MONO, SANS, ascent
from renderer.palette import index, put
from renderer.text import fitted_pill, paste, pill_sprite, text_sprite

BIG, SMALL = L.HEADER_TEXT, L.HEADER_WORDS
BADGE = 18  # the WON / LOST badge's text
Piece = tuple[str, int, L.RGB] | tuple[str, int, L.RGB, str]  # text, size, colour[, face]


def paste_words(
    canvas: Image.Image,
    pieces: list[Piece],
    x: int,
    baseline: int,
    bg: L.RGB,
    align: str = "l",
) -> tuple[int, int]:
    """Paste text pieces (text, size, colour[, face]) side by side on a common baseline."""
    # fonts are only touched inside the cached builders (under their lock), never here
    sprites = []
    for piece in pieces:
        text, size, fg = piece[:3]
        face = piece[3] if len(piece) == 4 else SANS
        sprites.append((text_sprite(text, size, fg, bg, face), ascent(size, face)))
    total = sum(s.width for s, _ in sprites)
    left = x if align == "l" else x - total if align == "r" else x - total // 2
    cur = left
    for sprite, top in sprites:
        put(canvas, sprite, (cur, baseline - top))
        cur += sprite.width
    return left, cur


def draw_static(canvas: Image.Image, title: str) -> None:
    """The parts that never change within a game: the bar and the game's name, always drawn
    (an outcome or a tag comes after it, never in its place)."""
    canvas.paste(index(L.HEADER_BG), (0, 0, L.WIDTH, L.HEADER_H))
    paste_words(canvas, [(title, L.TITLE_TEXT, L.TEXT)], L.MARGIN - 2, title_baseline(), L.HEADER_BG)


def title_baseline() -> int:
    """The first row's baseline: the game's name."""
    return L.HEADER_ROW // 2 + 8


def baseline() -> int:
    """The second row's baseline: the code, score and moves."""
    return L.HEADER_ROW + (L.HEADER_H - L.HEADER_ROW) // 2 + 8


def title_end(title: str) -> int:
    """Right edge of the game's name (the outcome and the tag come after it)."""
    return L.MARGIN - 2 + text_sprite(title, L.TITLE_TEXT, L.TEXT, L.HEADER_BG).width


def code_x() -> int:
    """Left edge of the code's sprite (the second row's start)."""
    return L.MARGIN - 2


# A deal's source, as a pill after the game's name: its fill and ink (colours already in the palette).
TAG_STYLE: dict[str, tuple[L.RGB, L.RGB]] = {
    "practice": (L.TEXT_DIM, L.HEADER_BG),
    "daily": (L.PICK_EDGE, L.TEXT),
    "race": (L.LAST_EDGE, L.BLACK),
}
TAG_TEXT = 16  # the tag's text
GAP = 8  # between the pieces of a row


def _pill_y(pill: Image.Image) -> int:
    return (L.HEADER_ROW - pill.height) // 2 + 1


def draw_dynamic(
    canvas: Image.Image,
    game: Game[Any],
    title: str,
    words: dict[str, str],
    tag: str | None = None,
    hide_code: bool = False,
) -> tuple[int, int, int]:
    """The first row: after the game's name, a finished game's WON / LOST badge and the
    ``tag`` (a key of ``TAG_STYLE``: where the deal came from, ``words[tag]`` on a pill).
    The second row: the code (left out with ``hide_code``: a race, where everyone has the
    deal and nobody may read it off the board), and score and moves on the right, as large
    as the code. Returns where the first row's pieces end, where the code ends and where
    score and moves begin; the pieces never meet nor leave the picture (each word's room in
    ``labels.WORDS`` keeps translations short enough: tests/test_render_header_tags.py)."""
    numbers_x = _numbers(canvas, game, words)
    left_x = title_end(title) + GAP
    outcome = game.outcome
    if outcome is not None:
        fill, ink = (L.WON, L.BLACK) if outcome.won else (L.LOST, L.TEXT)
        pill = pill_sprite(words["won" if outcome.won else "lost"], BADGE, ink, fill, L.HEADER_BG)
        _, left_x = paste(canvas, pill, left_x, _pill_y(pill))
        left_x += GAP
    end = left_x - GAP
    if tag is not None:
        fill, ink = TAG_STYLE[tag]
        pill = fitted_pill(words[tag], TAG_TEXT, ink, fill, L.HEADER_BG, L.WIDTH - L.MARGIN - left_x)
        _, end = paste(canvas, pill, left_x, _pill_y(pill))
    code_end = code_x()
    if not hide_code:
        _, code_end = paste_words(
            canvas, [(game.code, L.CODE_TEXT, L.TEXT, MONO)], code_x(), baseline(), L.HEADER_BG
        )
    return end, code_end, numbers_x


def _numbers(canvas: Image.Image, game: Game[Any], words: dict[str, str]) -> int:
    """Score and moves, right-aligned on the second row, words and numbers in the code's ink;
    returns their left edge."""
    pieces: list[Piece] = [
        (words["score"] + " ", SMALL, L.TEXT),
        (str(game.score), BIG, L.TEXT),
        ("   ", SMALL, L.TEXT),
        (words["moves"] + " ", SMALL, L.TEXT),
        (str(game.move_count), BIG, L.TEXT),
    ]
    left, _ = paste_words(canvas, pieces, L.WIDTH - L.MARGIN + 2, baseline(), L.HEADER_BG, "r")
    return left
