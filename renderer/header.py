"""The strip across the top of both boards: title (or the outcome), code, where the deal came
from (practice, daily, race), score, moves.

The game code is drawn in DejaVu Sans Mono Bold (``fonts.MONO``), larger than
before and in a face where 5 and S, 0 and O, 1 and I differ.
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
    """The parts that never change within a game: the bar and the title."""
    canvas.paste(index(L.HEADER_BG), (0, 0, L.WIDTH, L.HEADER_H))
    paste_words(canvas, [(title, L.TITLE_TEXT, L.TEXT)], L.MARGIN - 2, baseline(), L.HEADER_BG)


def baseline() -> int:
    return L.HEADER_H // 2 + 7


def code_x(title: str) -> int:
    """Left edge of the code's sprite, after the title."""
    return L.MARGIN - 2 + text_sprite(title, L.TITLE_TEXT, L.TEXT, L.HEADER_BG).width + 6


# A deal's source, as a pill after the code: its fill and ink (colours already in the palette).
TAG_STYLE: dict[str, tuple[L.RGB, L.RGB]] = {
    "practice": (L.TEXT_DIM, L.HEADER_BG),
    "daily": (L.PICK_EDGE, L.TEXT),
    "race": (L.LAST_EDGE, L.BLACK),
}
TAG_TEXT = 14  # the tag's text: small enough for badge, code and tag on a phone's width
GAP = 6  # between the pieces on the left


def draw_dynamic(
    canvas: Image.Image,
    game: Game[Any],
    title: str,
    words: dict[str, str],
    tag: str | None = None,
    hide_code: bool = False,
) -> tuple[int, int]:
    """Code after the title; score and moves on the right. A finished game's WON / LOST
    badge takes the title's place (a phone's width has no room for both), and so does a
    ``tag`` (a key of ``TAG_STYLE``: where the deal came from, ``words[tag]`` on a pill
    after the code). With ``hide_code`` the tag is drawn in the code's place and the
    title stays (a race: everyone has the deal, nobody may read it off the board).
    Returns where the left-hand pieces end and where the right-hand pieces begin (they
    never meet: each word's room in ``labels.WORDS`` keeps translations short enough, and the
    tag is cut short to the room left; every shipped translation fits whole,
    tests/test_render_header_tags.py)."""
    base = baseline()
    left, _ = paste_words(
        canvas,
        [(words["moves"] + " ", SMALL, L.TEXT_DIM), (str(game.move_count), BIG, L.TEXT)],
        L.WIDTH - L.MARGIN + 2,
        base,
        L.HEADER_BG,
        "r",
    )
    left, _ = paste_words(
        canvas,
        [(words["score"] + " ", SMALL, L.TEXT_DIM), (str(game.score), BIG, L.TEXT), ("  ", SMALL, L.TEXT)],
        left,
        base,
        L.HEADER_BG,
        "r",
    )
    left_x = code_x(title)
    outcome = game.outcome
    if outcome is not None or (tag is not None and not hide_code):
        canvas.paste(index(L.HEADER_BG), (0, 0, left_x, L.HEADER_H))
        left_x = L.MARGIN - 4
    if outcome is not None:
        fill, ink = (L.WON, L.BLACK) if outcome.won else (L.LOST, L.TEXT)
        pill = pill_sprite(words["won" if outcome.won else "lost"], BADGE, ink, fill, L.HEADER_BG)
        _, right = paste(canvas, pill, left_x, (L.HEADER_H - pill.height) // 2)
        left_x = right + GAP
    end = left_x
    if not hide_code:
        _, end = paste_words(canvas, [(game.code, L.CODE_TEXT, L.TEXT, MONO)], left_x, base, L.HEADER_BG)
        left_x = end + GAP
    if tag is not None:
        fill, ink = TAG_STYLE[tag]
        room = left - 4 - left_x
        pill = fitted_pill(words[tag], TAG_TEXT, ink, fill, L.HEADER_BG, room)
        if pill.width <= room:  # else not even "…" fits (absurd translations and scores): no tag
            _, end = paste(canvas, pill, left_x, (L.HEADER_H - pill.height) // 2)
    return end, left
