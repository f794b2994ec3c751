"""The Calculation picture, drawn from the real engine and checked by sampling pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engine
import renderer
from engine.calculation.position import Position
from renderer import layout as L
from renderer.games import calculation as board

CODE = "CA1-AAAAA24"  # SPEC vector: foundations AC 2H 3D 4C, first turned card 6S


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG"
    im.load()
    return im.convert("RGB")


def count_colour(
    im: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int], tol: int = 24
) -> int:
    data = im.crop(box).tobytes()
    r, g, b = colour
    return sum(
        1
        for i in range(0, len(data), 3)
        if abs(data[i] - r) <= tol and abs(data[i + 1] - g) <= tol and abs(data[i + 2] - b) <= tol
    )


def corner(x: int, y: int) -> tuple[int, int, int, int]:
    return (x + 4, y + 3, x + 70, y + L.CORNER_STRIP)


SLOT_AREA = L.CARD_W * L.CARD_H * 3 // 4  # an empty slot's inside, its faint mark aside


def card_box(x: int, y: int) -> tuple[int, int, int, int]:
    return (x, y, x + L.CARD_W, y + L.CARD_H)


def stock_to_waste(game: engine.Game, piles: tuple[int, ...]) -> None:
    """Turn through the whole stock, every card onto the waste piles in turn."""
    k = 0
    while game.turned is not None:
        game.play(f"sw{piles[k % len(piles)] + 1}")
        k += 1


def test_picture_decodes_with_the_designed_size() -> None:
    im = Image.open(io.BytesIO(renderer.render_png(engine.new_game(CODE))))
    height = board.PILE_Y + (board.MIN_CARDS - 1) * L.FAN + L.CARD_H + L.BOTTOM
    assert (im.format, im.size, im.mode) == ("PNG", (720, height), "P")


def test_foundations_and_turned_card_are_drawn_in_their_colours() -> None:
    im = decode(renderer.render_png(engine.new_game(CODE)))
    for i, red in enumerate([False, True, True, False]):  # AC 2H 3D 4C
        box = corner(board.slot_x(i + 1), board.TOP_Y)
        assert (count_colour(im, box, L.RED) > 40) == red
        assert (count_colour(im, box, L.BLACK) > 40) == (not red)
    turned = corner(board.slot_x(0), board.PILE_Y)  # 6S
    assert count_colour(im, turned, L.BLACK) > 40
    assert count_colour(im, turned, L.RED) == 0


def test_stock_shows_a_card_back_until_it_is_used_up() -> None:
    game = engine.new_game(CODE)
    stock = card_box(board.slot_x(0), board.TOP_Y)
    assert count_colour(decode(renderer.render_png(game)), stock, L.BACK, tol=4) > 2000
    stock_to_waste(game, (0, 1, 2, 3))
    assert game.stock_count == 0
    im = decode(renderer.render_png(game))
    assert count_colour(im, stock, L.BACK, tol=4) == 0
    assert (
        count_colour(im, card_box(board.slot_x(0), board.PILE_Y), L.SLOT, tol=3) > SLOT_AREA
    )  # no turned card


def test_a_waste_card_is_drawn_on_its_pile() -> None:
    game = engine.replay(CODE, ["sw3"])  # 6S onto waste pile 3
    im = decode(renderer.render_png(game))
    assert count_colour(im, corner(board.slot_x(3), board.PILE_Y), L.BLACK) > 40
    for i in (1, 2, 4):
        assert count_colour(im, card_box(board.slot_x(i), board.PILE_Y), L.SLOT, tol=3) > SLOT_AREA


@pytest.mark.parametrize("count", [12, 24, 29, 40, 48])
def test_long_waste_piles_fit_and_every_card_shows_its_corner(count: int) -> None:
    game = engine.new_game(CODE)
    for k in range(48):  # the first ``count`` cards on waste pile 1, the rest spread on 2-4
        game.play("sw1" if k < count else f"sw{2 + k % 3}")
    pile = game.waste[0]
    assert len(pile) == count
    im = decode(renderer.render_png(game))
    spots = board.waste_layout(count)
    x0 = board.slot_x(1)
    right = max(dx for dx, _, _ in spots) + L.CARD_W
    bottom = board.PILE_Y + max(dy for _, dy, _ in spots) + L.CARD_H
    assert x0 + right <= board.slot_x(2) and bottom + L.BOTTOM == im.height <= renderer.HEIGHT
    for k, (card, (dx, dy, size)) in enumerate(zip(pile, spots, strict=True)):
        assert size == L.CORNER_SIZE, f"card {k}: corner glyphs squeezed"
        ink = L.RED if card // 13 in (1, 2) else L.BLACK
        box = (x0 + dx + 3, board.PILE_Y + dy + 2, x0 + dx + 56, board.PILE_Y + dy + 14)
        assert count_colour(im, box, ink, tol=60) > 15, f"card {k} of waste pile 1 has no visible rank"


def test_last_move_marks_the_card_put_down_and_its_source() -> None:
    game = engine.replay(CODE, ["sw2"])
    im = decode(renderer.render_png(game))
    assert count_colour(im, card_box(board.slot_x(2), board.PILE_Y), L.LAST_FACE, tol=4) > 3000
    turned_label = (board.slot_x(0), board.PILE_LABEL_Y, board.slot_x(0) + L.CARD_W, board.PILE_Y)
    assert count_colour(im, turned_label, L.LAST_EDGE, tol=4) > 200
    fresh = decode(renderer.render_png(engine.new_game(CODE)))
    assert count_colour(fresh, turned_label, L.LAST_EDGE, tol=4) == 0


def test_last_move_onto_a_foundation() -> None:
    game = engine.new_game(CODE)
    move = None
    while move is None:  # turn cards onto pile 1 until one fits a foundation
        move = next((m for m in game.legal_move_objects() if m.dst_kind == "f"), None)
        if move is None:
            game.play("sw1")
    game.play(move.notation)
    im = decode(renderer.render_png(game))
    assert count_colour(im, card_box(board.slot_x(move.dst + 1), board.TOP_Y), L.LAST_FACE, tol=4) > 3000


@pytest.mark.parametrize("highlight", [("w", 1), "w2", " W2 "])
def test_highlight_marks_a_waste_pile(highlight: object) -> None:
    game = engine.replay(CODE, ["sw2"])
    im = decode(renderer.render_png(game, highlight=highlight))
    assert count_colour(im, card_box(board.slot_x(2), board.PILE_Y), L.PICK_FACE, tol=4) > 3000
    label = (board.slot_x(2), board.PILE_LABEL_Y, board.slot_x(2) + L.CARD_W, board.PILE_Y)
    assert count_colour(im, label, L.PICK_EDGE, tol=4) > 200


def test_highlight_marks_the_turned_card() -> None:
    im = decode(renderer.render_png(engine.new_game(CODE), highlight=("s", 0)))
    assert count_colour(im, card_box(board.slot_x(0), board.PILE_Y), L.PICK_FACE, tol=4) > 3000


@pytest.mark.parametrize("highlight", [("w", 4), ("s", 1), ("c", 0), "w5", "f1", "3"])
def test_bad_highlight_is_refused(highlight: object) -> None:
    with pytest.raises(ValueError, match=r"is not a source (in Calculation|to select)"):
        renderer.render_png(engine.new_game(CODE), highlight=highlight)


def test_lost_game_shows_the_badge() -> None:
    game = engine.new_game(CODE)
    stock_to_waste(game, (0,))
    while not game.is_over:  # play the waste tops home while any fits
        game.play(game.legal_moves()[0])
    assert game.is_lost
    im = decode(renderer.render_png(game))
    assert count_colour(im, (0, 0, L.WIDTH, L.HEADER_H), L.LOST, tol=4) > 500


def test_won_game_shows_the_banner() -> None:
    game = engine.new_game(CODE)
    pos = game.position
    full = [[(r - 1) % 13 + s * 13 for r in seq] for s, seq in enumerate(_sequences())]
    game.position = Position(full, [[], [], [], []], pos.stock, len(pos.stock))
    assert game.is_won
    im = decode(renderer.render_png(game))
    mid = (board.PILE_Y + im.height) // 2
    assert count_colour(im, (L.WIDTH // 2 - 60, mid - 15, L.WIDTH // 2 + 60, mid + 15), L.WON, tol=4) > 1000
    assert count_colour(im, (0, 0, L.WIDTH, L.HEADER_H), L.WON, tol=4) > 500
    done = (board.slot_x(1), board.TOP_Y + L.CARD_H, board.slot_x(1) + L.CARD_W, board.PILE_LABEL_Y)
    assert count_colour(im, done, L.WON, tol=30) > 50  # "done" under each foundation


def _sequences() -> list[list[int]]:
    from engine.calculation.rules import SEQUENCES

    return [list(s) for s in SEQUENCES]


def test_labels_are_translated() -> None:
    game = engine.new_game(CODE)
    words = {"stock": "колода", "turned": "открыта", "next": "нужна", "calculation": "Расчёт"}
    assert renderer.render_png(game, labels=words) != renderer.render_png(game)
