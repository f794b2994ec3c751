"""Issue 26: what makes a board cheaper to send, each checked against the slow way: column
sprites paste exactly as their cards one by one; the PNG's bands follow the board's layout
(a pick re-deflates only its label and the rows of its run) and any band rows encode to the
same pixels; the eight-column games are one ``TableauBoard`` each."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import engine
import renderer
from engine.bakers.position import EMPTY, Position
from engine.cards import parse_card
from renderer import layout as L
from renderer import png
from renderer.boards import board_for
from renderer.cards import paste_pile
from renderer.games import bakers, freecell, tableau
from renderer.games.tableau import TableauBoard

BK, FC = "BK1-C4-AAAAA24", "FC1-C4-MS1"


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def long_column(extra: int) -> engine.Game:
    """Column 1 holds 6 dealt cards under a K-A run, plus ``extra`` more taken from column 2
    (made up: past 19 cards the column is squeezed to fit)."""
    game = engine.new_game(BK)
    spades = [parse_card(r + "S") for r in "KQJT98765432A"]
    others = [c for c in game.position.all_cards() if c not in spades]
    cols = [others[i * 6 : i * 6 + 6] for i in range(6)] + [others[36:], []]
    cols[0] += spades + [cols[1].pop() for _ in range(extra)]
    game.position = Position(cols, [EMPTY] * 4, [0] * 4)
    return game


def positions() -> list[tuple[engine.Game, object]]:
    mid = engine.replay(BK, ["1a", "2b", "3c"])
    fc = engine.new_game(FC)
    fc.play("1a")
    return [
        (engine.new_game(BK), None),
        (mid, "3"),  # the last move marked, a run picked
        (mid, "b"),
        (long_column(0), "1"),  # a 19-card column, its 13-card run picked
        (long_column(3), None),  # 22 cards: squeezed
        (fc, "2"),
    ]


@pytest.mark.parametrize("deck", ["two", "four"])
@pytest.mark.parametrize("case", range(6))
def test_column_sprites_paste_as_their_cards_would_one_by_one(case: int, deck: str) -> None:
    game, highlight = positions()[case]
    for fit in (True, False):
        board = board_for(game)
        words = tuple(renderer.DEFAULT_LABELS.items())
        image = board.render(game, board.parse_highlight(game, highlight), words, deck, fit=fit)
        again = image.copy()
        pos = game.position
        marks = tableau._Marks(game, board.parse_highlight(game, highlight))
        for c, col in enumerate(pos.cols):
            step = L.fan_step(len(col), tableau.TABLEAU_ROOM) if len(col) > tableau.LONGEST else L.FAN
            paste_pile(again, tableau.slot_x(c), tableau.TABLEAU_Y, col, step, marks.cols[c], deck)
        assert again.tobytes() == image.tobytes()


def test_a_column_sprite_holds_its_marks() -> None:
    """Not a plain copy: the picked run's faces differ from the same column unpicked."""
    cards = (3, 17, 30)
    plain = tableau.column_sprite(cards, L.FAN, (), "two")
    picked = tableau.column_sprite(cards, L.FAN, ((1, "pick"), (2, "pick")), "two")
    assert plain.size == picked.size == (L.CARD_W, 2 * L.FAN + L.CARD_H)
    assert plain.crop((0, 0, L.CARD_W, L.FAN)).tobytes() == picked.crop((0, 0, L.CARD_W, L.FAN)).tobytes()
    assert plain.tobytes() != picked.tobytes()


def test_the_tableau_bands_follow_the_layout() -> None:
    height = tableau.height(engine.new_game(BK))
    starts = tableau.bands(height)
    assert starts[:3] == (0, L.HEADER_ROW, L.HEADER_H)  # each row of the header is one band
    assert tableau.TOP_Y in starts and tableau.TABLEAU_Y in starts
    fans = [y for y in starts if y >= tableau.TABLEAU_Y]
    assert fans == list(range(tableau.TABLEAU_Y, height, L.FAN))  # one band per card step
    assert all(b - a <= 40 for a, b in zip(starts, [*starts[1:], height], strict=True))
    image = renderer.render_image(engine.new_game(BK))
    assert image.info["bands"] == tableau.bands(image.height)


def test_a_pick_re_deflates_only_its_label_and_the_rows_of_its_run() -> None:
    game = engine.new_game(BK)  # column 1's run is its last card, the 7th
    png.clear()
    renderer.render_png(game)
    before = png.counts["miss"]
    picked = renderer.render_png(game, highlight="1")
    # the column numbers' band, and the four card steps the 7th card's face spans
    assert png.counts["miss"] - before == 1 + 4
    image = decode(picked)
    top = tableau.TABLEAU_Y + 6 * L.FAN
    assert image.convert("RGB").getpixel((tableau.slot_x(0) + 8, top + 70)) == L.PICK_FACE


@pytest.mark.parametrize("seed", range(4))
def test_any_band_rows_encode_to_the_same_pixels(seed: int) -> None:
    """Unsorted, repeated, out-of-range and non-integer rows are ignored or sorted; the bytes
    depend on the picture and its bands, never on the cache."""
    rng = random.Random(seed)
    w, h = rng.randrange(1, 90), rng.randrange(1, 150)
    im = Image.frombytes("P", (w, h), bytes(rng.choice(b"\x00\x01\x05\x09") for _ in range(w * h)))
    im.putpalette([rng.randrange(256) for _ in range(768)])
    cuts = tuple(rng.randrange(-5, h + 5) for _ in range(rng.randrange(0, 12)))
    im.info["bands"] = (*cuts, "7", 3.5) if seed % 2 else cuts
    png.clear()
    data = png.encode(im, 3)
    back = decode(data)
    assert back.tobytes() == im.tobytes()
    assert back.convert("RGB").tobytes() == im.convert("RGB").tobytes()
    assert png.encode(im, 3) == data
    png.clear()
    assert png.encode(im, 3) == data


def test_the_eight_column_games_are_one_board_each_differing_in_title() -> None:
    assert isinstance(bakers.BOARD, TableauBoard) and isinstance(freecell.BOARD, TableauBoard)
    assert board_for(engine.new_game(BK)) is bakers.BOARD
    assert board_for(engine.new_game(FC)) is freecell.BOARD
    assert bakers.BOARD.KIND != freecell.BOARD.KIND
    assert bakers.BOARD.WORDS[bakers.BOARD.KIND][0] == "Jeu du Boulanger"
    assert freecell.BOARD.FULL_HEIGHT == bakers.BOARD.FULL_HEIGHT == tableau.FULL_HEIGHT
    game = engine.replay(BK, ["1a"])
    words = tuple(renderer.DEFAULT_LABELS.items())
    assert (
        renderer.render_image(game, highlight="2").tobytes()
        == tableau.render("bakers", game, ("c", 1), words, fit=True).tobytes()
    )


def test_band_rows_given_as_a_list_are_not_taken_for_the_default() -> None:
    """The rows a board gives are read afresh when they cannot key the memo (a list), so an
    image of the same height without bands, encoded before, does not lend its 32-row bands."""
    rng = random.Random(9)
    im = Image.frombytes("P", (40, 100), bytes(rng.choice(b"\x00\x03") for _ in range(4000)))
    im.putpalette([rng.randrange(256) for _ in range(768)])
    png.encode(im, 3)  # the default: 32-row bands
    listed = im.copy()
    listed.info["bands"] = [10, 55]
    tupled = im.copy()
    tupled.info["bands"] = (10, 55)
    png.clear()
    data = png.encode(listed, 3)
    assert png.counts["miss"] == 3  # rows 0-9, 10-54, 55-99
    assert data == png.encode(tupled, 3) != png.encode(im, 3)
    assert decode(data).tobytes() == im.tobytes()
    unhashable = im.copy()
    unhashable.info["bands"] = (10, [55])
    assert decode(png.encode(unhashable, 3)).tobytes() == im.tobytes()
