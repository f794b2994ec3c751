"""The strip across the top of both boards: title, code, score, moves, outcome."""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine import Game
from renderer import layout as L
from renderer.fonts import ascent
from renderer.palette import index
from renderer.text import paste, pill_sprite, text_sprite

BIG, SMALL = L.HEADER_TEXT, 18


def paste_words(
    canvas: Image.Image,
    pieces: list[tuple[str, int, L.RGB]],
    x: int,
    baseline: int,
    bg: L.RGB,
    align: str = "l",
) -> tuple[int, int]:
    """Paste text pieces (text, size, colour) side by side on a common baseline."""
    # fonts are only touched inside the cached builders (under their lock), never here
    sprites = [(text_sprite(t, size, fg, bg), ascent(size)) for t, size, fg in pieces]
    total = sum(s.width for s, _ in sprites)
    left = x if align == "l" else x - total if align == "r" else x - total // 2
    cur = left
    for sprite, top in sprites:
        canvas.paste(sprite, (cur, baseline - top))
        cur += sprite.width
    return left, cur


def draw_static(canvas: Image.Image, title: str) -> None:
    """The parts that never change within a game: the bar and the title."""
    canvas.paste(index(L.HEADER_BG), (0, 0, L.WIDTH, L.HEADER_H))
    paste_words(canvas, [(title, BIG, L.TEXT)], L.MARGIN, _baseline(), L.HEADER_BG)


def _baseline() -> int:
    return L.HEADER_H // 2 + 8


def draw_dynamic(canvas: Image.Image, game: Game[Any], title: str, words: dict[str, str]) -> None:
    """Code after the title; score and moves on the right; the outcome badge before them."""
    base = _baseline()
    title_end = L.MARGIN + text_sprite(title, BIG, L.TEXT, L.HEADER_BG).width
    paste_words(canvas, [(game.code, SMALL, L.TEXT_DIM)], title_end + 10, base, L.HEADER_BG)
    left, _ = paste_words(
        canvas,
        [(words["moves"] + " ", SMALL, L.TEXT_DIM), (str(game.move_count), BIG, L.TEXT)],
        L.WIDTH - L.MARGIN,
        base,
        L.HEADER_BG,
        "r",
    )
    left, _ = paste_words(
        canvas,
        [(words["score"] + " ", SMALL, L.TEXT_DIM), (str(game.score), BIG, L.TEXT), ("   ", SMALL, L.TEXT)],
        left,
        base,
        L.HEADER_BG,
        "r",
    )
    outcome = game.outcome
    if outcome is not None:
        fill, ink = (L.WON, L.BLACK) if outcome.won else (L.LOST, L.TEXT)
        pill = pill_sprite(words["won" if outcome.won else "lost"], 20, ink, fill, L.HEADER_BG)
        paste(canvas, pill, left - 16, (L.HEADER_H - pill.height) // 2, "r")
