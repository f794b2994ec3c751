"""Pictures that tell places apart (issue 40): a card on a foundation never looks like a card
on a free cell, the foundations are labelled, Calculation's "next N" belongs to its
foundation, and the WON banner leaves the outlines behind it whole.

Every picture is decoded from its PNG bytes; the foundations' look is also checked on the
picture scaled to 500 px wide, as a phone shows it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engine
import renderer
from bot.languages.language import LANGUAGES, picture_labels
from engine.calculation.position import Position as CalculationPosition
from engine.calculation.rules import SEQUENCES
from engine.solver import solve
from renderer import layout as L
from renderer.games import calculation as calc
from renderer.games import tableau
from renderer.text import text_sprite
from tests.test_render_readable import on_phone

# A FreeCell and a Jeu du Boulanger position with cards on free cells and on foundations.
TABLEAU_LINES = {
    "FC1-C4-MS1": ["7a", "7b", "8c", "18", "1d", "17", "61", "61", "b6"],
    "BK1-C4-AAAAA24": ["6h", "64", "1a", "1b"],
}


def picture(game: engine.Game, **options: object) -> Image.Image:
    im = Image.open(io.BytesIO(renderer.render_png(game, **options)))  # type: ignore[arg-type]
    assert im.format == "PNG"
    return im.convert("RGB")


def ring(im: Image.Image, x: int, y: int, pad: int = L.HOME_PAD) -> list[tuple[int, int, int]]:
    """The pixels in a ``pad``-wide ring just outside the card at (x, y), its four corner
    squares left out (a rounded tray's corner follows the card's own)."""
    out = []
    for yy in range(y - pad, y + L.CARD_H + pad):
        for xx in range(x - pad, x + L.CARD_W + pad):
            beside, level = x <= xx < x + L.CARD_W, y <= yy < y + L.CARD_H
            if beside != level:
                out.append(im.getpixel((xx, yy)))
    return out


def near(colour: tuple[int, int, int], target: L.RGB, tol: int = 24) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(colour, target, strict=True))


def tableau_position(code: str) -> engine.Game:
    game = engine.new_game(code)
    for move in TABLEAU_LINES[code]:
        game.play(move)
    pos = game.position
    assert any(c >= 0 for c in pos.cells) and any(pos.found), "cards on cells and foundations"
    return game


@pytest.mark.parametrize("code", list(TABLEAU_LINES))
@pytest.mark.parametrize("deck", ["two", "four"])
def test_a_card_on_a_foundation_does_not_look_like_one_on_a_free_cell(code: str, deck: str) -> None:
    game = tableau_position(code)
    im = picture(game, deck=deck)
    pos = game.position
    cells = [i for i, c in enumerate(pos.cells) if c >= 0]
    homes = [4 + s for s, n in enumerate(pos.found) if n]
    for i in cells:  # a free cell's card lies on the felt: no rim around it
        around = ring(im, tableau.slot_x(i), tableau.TOP_Y, 2)
        assert not any(near(p, L.HOME_RIM) for p in around), f"cell {i}"
        assert sum(p == L.FELT for p in around) > len(around) // 2
    for i in homes:  # a foundation's card lies on the gold-rimmed tray
        around = ring(im, tableau.slot_x(i), tableau.TOP_Y)
        assert sum(p == L.HOME for p in around) > len(around) // 3, f"foundation {i}"
        assert not any(p == L.FELT for p in ring(im, tableau.slot_x(i), tableau.TOP_Y, 2))
    x0, y0, x1, _ = tableau.HOME_BOX
    rim = [im.getpixel((x, y0 + 1)) for x in range(x0 + 12, x1 - 12)]
    assert all(near(p, L.HOME_RIM) for p in rim)  # the tray's top edge, gold across the four
    # on a phone: dark tray between foundations, felt between cells, the gold edge still gold
    small = on_phone(im)
    s = L.DISPLAY_SCALE
    mid = round((tableau.TOP_Y + L.CARD_H // 2) * s)
    between = [round((tableau.slot_x(k) - L.GAP / 2) * s) for k in (1, 2, 3, 5, 6, 7)]
    assert all(near(small.getpixel((x, mid)), L.FELT, 12) for x in between[:3])
    assert all(near(small.getpixel((x, mid)), L.HOME, 12) for x in between[3:])
    edge = [small.getpixel((x, round((y0 + 1.5) * s))) for x in range(round(x0 * s) + 8, round(x1 * s) - 8)]
    assert sum(near(p, L.HOME_RIM, 60) for p in edge) > len(edge) * 0.8


@pytest.mark.parametrize("code", list(TABLEAU_LINES))
def test_the_foundations_are_labelled_in_every_language(code: str) -> None:
    game = tableau_position(code)
    x0, _, x1, _ = tableau.HOME_BOX
    for language in LANGUAGES:
        words = picture_labels(language, game.kind)
        assert words["foundations"].strip()
        im = picture(game, labels=words)
        caption = text_sprite(words["foundations"], L.LABEL_TEXT, L.HOME_RIM, L.HOME).convert("RGB")
        left = (x0 + x1) // 2 - caption.width // 2
        drawn = im.crop(
            (left, tableau.LETTER_Y + 3, left + caption.width, tableau.LETTER_Y + 3 + caption.height)
        )
        assert drawn.tobytes() == caption.tobytes(), language
        assert caption.width < x1 - x0 - 16  # inside the tray


def test_a_card_on_a_calculation_foundation_sits_on_its_tray() -> None:
    game = engine.new_game("CA1-AAAAA24")  # each foundation starts with its base card
    for deck in ("two", "four"):
        im = picture(game, deck=deck)
        for i in range(4):
            around = ring(im, calc.slot_x(i + 1), calc.TOP_Y)
            assert sum(p == L.HOME for p in around) > len(around) // 3
        turned = ring(im, calc.slot_x(0), calc.PILE_Y)  # the turned card: on the felt
        assert not any(p == L.HOME for p in turned)


def test_next_is_drawn_inside_its_foundations_tray_apart_from_the_waste_pile() -> None:
    """Issue 40: "next 7" sat right above w1 and read as the waste pile's. Down the middle of
    each foundation: its card, its "next", the tray's gold bottom edge, felt, then "w1"."""
    game = engine.replay("CA1-AAAAA24", ["sw1", "sw2"])
    im = picture(game)
    for i in range(4):
        x = calc.slot_x(i + 1) + L.CARD_W // 2
        below = [im.getpixel((x, y)) for y in range(calc.TOP_Y + L.CARD_H + 1, calc.PILE_LABEL_Y + 4)]
        kinds = []
        for p in below:
            kind = (
                "rim"
                if near(p, L.HOME_RIM, 10)
                else "felt"
                if p == L.FELT
                else "tray"
                if p == L.HOME
                else "ink"
            )
            if not kinds or kinds[-1] != kind:
                kinds.append(kind)
        assert "ink" in kinds[: kinds.index("rim")], kinds  # "next N" above the tray's edge
        assert kinds.index("rim") < kinds.index("felt"), kinds  # the edge, then the felt gap
        assert calc.NEXT_Y < calc.HOME_BOTTOM < calc.PILE_LABEL_Y


def test_every_translation_of_next_fits_inside_its_tray() -> None:
    room = L.CARD_W + 2 * calc.HOME_SIDE - 8
    for language in LANGUAGES:
        words = dict(renderer.labels.resolve(picture_labels(language, "calculation")))
        for text in (f"{words['next']} 10", words["done"]):
            size = calc.need_size(text)
            assert text_sprite(text, size, L.TEXT, L.HOME).width <= room, (language, text)
            assert size >= calc.NEXT_SMALLEST


def outline_pixels(im: Image.Image, x: int, y: int) -> list[tuple[int, int, int]]:
    """An empty slot's outline at (x, y), its rounded corners left out."""
    r = L.RADIUS + 1
    top_bottom = [(xx, yy) for xx in range(x + r, x + L.CARD_W - r) for yy in (y, y + L.CARD_H - 1)]
    sides = [(xx, yy) for yy in range(y + r, y + L.CARD_H - r) for xx in (x, x + L.CARD_W - 1)]
    return [im.getpixel(p) for p in top_bottom + sides]


@pytest.mark.parametrize("code", ["FC1-C4-MS1", "BK1-C4-AAAAA24"])
def test_the_won_banner_leaves_the_columns_outlines_whole(code: str) -> None:
    line = solve(engine.new_game(code), time_limit=20).moves
    game = engine.new_game(code)
    for move in line:
        game.play(move)
    assert game.is_won
    im = picture(game)
    under = 0
    for c in range(8):
        outline = outline_pixels(im, tableau.slot_x(c), tableau.TABLEAU_Y)
        assert not any(p == L.FELT for p in outline), f"column {c + 1}'s outline is cut"
        under += sum(near(p, L.WON, 8) or near(p, L.BLACK, 8) for p in outline)
    assert under > 20  # the banner does lie over some outline


def test_the_calculation_won_banner_leaves_the_piles_outlines_whole() -> None:
    game = engine.new_game("CA1-AAAAA24")
    pos = game.position
    full = [[(r - 1) % 13 + s * 13 for r in seq] for s, seq in enumerate(SEQUENCES)]
    game.position = CalculationPosition(full, [[], [], [], []], pos.stock, len(pos.stock))
    assert game.is_won
    im = picture(game)
    under = 0
    for i in range(5):
        outline = outline_pixels(im, calc.slot_x(i), calc.PILE_Y)
        assert not any(p == L.FELT for p in outline), f"pile {i}'s outline is cut"
        under += sum(near(p, L.WON, 8) or near(p, L.BLACK, 8) for p in outline)
    assert under > 20
