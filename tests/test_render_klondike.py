"""Klondike's picture (``renderer.games.klondike``), drawn from a stand-in game: the engine's
Klondike is built elsewhere, so ``StandIn`` below offers just what ``klondike.view`` reads
(``seen_state()``, ``last_move`` and the header's fields). The PNGs are decoded and measured: sizes, card backs
that give nothing away, the waste's fan, the stock's count, both decks, the marks."""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from PIL import Image

import engine
import renderer
from engine.cards import parse_card
from engine.dealing import shuffled_deck
from engine.game import Outcome
from renderer import layout as L
from renderer.boards import words_of
from renderer.cards import ink
from renderer.games import klondike as K
from renderer.labels import resolve
from renderer.text import pill_sprite
from tests.test_render_readable import RANK_MIN, SUIT_MIN, glyphs, on_phone


@dataclass
class Layout:
    """What the engine's Klondike game is to return from ``seen_state()`` (see ``klondike.view``)."""

    piles: list[list[int]]
    face_down: list[int]
    stock: list[int]
    waste: list[int]
    foundations: list[int]
    draw: int
    last: tuple[str, int, str, int, int] | None = None


@dataclass
class StandIn:
    """A Klondike game as the picture sees it: its layout and its header's fields."""

    kind: ClassVar[str] = K.KIND
    board: Layout
    code: str = "KL1-D3-AAAAA24"
    score: int = 0
    move_count: int = 0
    outcome: Outcome | None = None

    def seen_state(self) -> Layout:
        return self.board

    @property
    def last_move(self) -> SimpleNamespace | None:
        """The last move as the engine's ``KlondikeMove`` names it: places and cards moved."""
        if self.board.last is None:
            return None
        src_kind, src, dst_kind, dst, count = self.board.last
        return SimpleNamespace(src_kind=src_kind, src=src, dst_kind=dst_kind, dst=dst, cards=(0,) * count)


def test_the_board_is_registered():
    assert renderer.boards.board_for(engine.new_game("KL1-D1-AAAAA24")) is K


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def start(draw: int = 3, deal: int = 1) -> StandIn:
    """A new deal as KLONDIKE.md deals it: row r puts a card on piles r..6; the rest is the stock."""
    deck = shuffled_deck(deal)
    piles: list[list[int]] = [[] for _ in range(7)]
    dealt = iter(deck[:28])
    for row in range(7):
        for p in range(row, 7):
            piles[p].append(next(dealt))
    board = Layout(piles, list(range(7)), deck[28:], [], [0, 0, 0, 0], draw)
    return StandIn(board, code=f"KL1-D{draw}-AAAAA24")


def with_hidden(up: list[list[int]], down: list[int], home: list[int], waste: int, draw: int) -> Layout:
    """A position of the given face-up runs over ``down`` face-down cards a pile, ``home``
    cards on each foundation; the other cards (in a fixed shuffled order) fill the face-down
    places, then ``waste`` cards of waste, the rest the stock."""
    used = {c for run in up for c in run} | {s * 13 + r for s in range(4) for r in range(home[s])}
    rest = iter([c for c in shuffled_deck(7) if c not in used])
    piles = [[next(rest) for _ in range(d)] + run for run, d in zip(up, down, strict=True)]
    left = list(rest)
    return Layout(piles, down, left[waste:], left[:waste], home, draw)


def mid(draw: int = 3) -> StandIn:
    up = [cards(t) for t in ("KS QH JC", "9D", "QC JD TS 9H", "7H", "8S 7D 6C", "TD", "5H 4S 3H")]
    board = with_hidden(up, [0, 1, 1, 2, 3, 4, 5], [2, 1, 0, 3], 5, draw)
    board.last = ("w", 0, "p", 4, 1)
    return StandIn(board, code=f"KL1-D{draw}-AAAAA24", score=45, move_count=31)


def tallest(draw: int = 3) -> StandIn:
    run = cards("KS QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D AS")
    up = [[parse_card(c)] for c in ("5C", "9C", "4D", "JS", "8D", "2H")] + [run]
    board = with_hidden(up, [0, 1, 2, 3, 4, 5, 6], [0, 0, 0, 0], 3, draw)
    return StandIn(board, code=f"KL1-D{draw}-AAAAA24")


def near_won(draw: int = 3) -> StandIn:
    up = [cards(t) for t in ("KH QS JH", "KS QH JC", "KD QC", "KC", "", "", "")]
    board = with_hidden(up, [0] * 7, [11, 10, 12, 9], 1, draw)
    assert board.stock == [] and board.waste == cards("TC")
    return StandIn(board, score=480, move_count=160, code=f"KL1-D{draw}-AAAAA24")


def png(game: StandIn, **options: Any) -> bytes:
    return renderer.render_png(game, **options)


def picture(game: StandIn, **options: Any) -> Image.Image:
    im = Image.open(io.BytesIO(png(game, **options)))
    assert im.format == "PNG"
    return im.convert("RGB")


def share(im: Image.Image, box: tuple[int, int, int, int], colours: set[L.RGB]) -> float:
    """The fraction of ``box``'s pixels that are one of ``colours``."""
    region = im.crop(box)
    counts = region.getcolors(region.width * region.height) or []
    return sum(n for n, colour in counts if colour in colours) / (region.width * region.height)


def test_view_reads_the_layout_and_the_header_fields():
    game = mid()
    game.outcome = Outcome("won", "all home")
    v = K.view(game)
    assert v.piles[0] == tuple(cards("KS QH JC")) and v.face_down == (0, 1, 1, 2, 3, 4, 5)
    assert v.stock == tuple(game.board.stock) and v.waste == tuple(game.board.waste)
    assert (v.foundations, v.draw, v.last) == ((2, 1, 0, 3), 3, ("w", 0, "p", 4, 1))
    assert (v.code, v.score, v.move_count, v.is_won) == ("KL1-D3-AAAAA24", 45, 31, True)


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        (start, K.MIN_HEIGHT),
        (mid, K.PILE_Y + 5 * K.BACK_STEP + 2 * L.FAN + L.CARD_H + L.BOTTOM),
        (tallest, K.FULL_HEIGHT),
    ],
    ids=["start", "mid", "tallest"],
)
def test_the_picture_is_as_tall_as_its_longest_pile(build: Any, expected: int) -> None:
    assert picture(build()).size == (renderer.WIDTH, expected)


def test_the_tallest_pile_fits_whole_and_renderer_height_allows_it():
    game = tallest()
    assert len(game.board.piles[6]) == 19
    im = picture(game)
    assert im.height == K.FULL_HEIGHT <= renderer.HEIGHT
    ace_y = K.PILE_Y + 6 * K.BACK_STEP + 12 * L.FAN
    assert ace_y + L.CARD_H + L.BOTTOM == im.height  # the ace whole, the felt under it
    assert im.getpixel((K.slot_x(6) + L.CARD_W // 2, ace_y + L.CARD_H - 10)) == L.CARD


def back_strip(p: int, k: int) -> tuple[int, int, int, int]:
    """The uncovered strip of the k-th face-down card of pile p, inside its rim."""
    y = K.PILE_Y + k * K.BACK_STEP
    return (K.slot_x(p) + 8, y + 6, K.slot_x(p) + L.CARD_W - 8, y + K.BACK_STEP)


def test_face_down_cards_are_drawn_as_card_backs():
    im = picture(start())
    for k in range(6):
        assert share(im, back_strip(6, k), {L.BACK, L.BACK_LINE}) > 0.9
    face = (
        K.slot_x(6) + 8,
        K.PILE_Y + 6 * K.BACK_STEP + 40,
        K.slot_x(6) + 20,
        K.PILE_Y + 6 * K.BACK_STEP + 50,
    )
    assert share(im, face, {L.CARD}) == 1  # the top card, face up, on them


def test_the_picture_does_not_depend_on_which_cards_are_hidden():
    game = mid()
    other = replace(game, board=replace(game.board, piles=[list(p) for p in game.board.piles]))
    other.board.stock = list(game.board.stock)
    pile, stock = other.board.piles[6], other.board.stock
    pile[0], stock[0] = stock[0], pile[0]  # a face-down card and a stock card swap places
    pile[1], pile[2] = pile[2], pile[1]
    assert other.board.piles != game.board.piles
    assert png(other) == png(game)
    shown = replace(game, board=replace(game.board, piles=[list(p) for p in game.board.piles]))
    shown.board.piles[6][-1], shown.board.piles[6][0] = shown.board.piles[6][0], shown.board.piles[6][-1]
    assert png(shown) != png(game)  # a face-up card changing does change the picture


def corner_inked(im: Image.Image, x: int, card: int, deck: str = "two") -> bool:
    """Whether ``card``'s rank shows in its corner at left edge ``x`` on the waste's row."""
    box = (x + 5, K.TOP_Y + 4, x + 20, K.TOP_Y + 22)
    return share(im, box, {ink(card, deck)}) > 0.1


def test_draw_three_fans_the_waste_top_three_and_draw_one_shows_its_top():
    three, one = mid(3), mid(1)
    waste = three.board.waste
    fan = picture(three)
    for k, card in enumerate(waste[-3:]):
        assert corner_inked(fan, K.WASTE_X + k * K.WASTE_DX, card)
    single = picture(one)
    assert corner_inked(single, K.WASTE_X, waste[-1])
    right = (K.WASTE_X + L.CARD_W + 4, K.TOP_Y, K.WASTE_X + L.CARD_W + 2 * K.WASTE_DX, K.TOP_Y + L.CARD_H)
    assert share(single, right, {L.FELT}) == 1 and share(fan, right, {L.FELT}) < 0.1
    picked = picture(three, highlight="w")
    top_x = K.WASTE_X + 2 * K.WASTE_DX
    assert picked.getpixel((top_x + 40, K.TOP_Y + 90)) == L.PICK_FACE  # the top card: the playable one
    assert picked.getpixel((K.WASTE_X + 30, K.TOP_Y + 90)) == L.CARD


def test_a_short_waste_fans_what_it_has():
    game = mid(3)
    game.board.waste = game.board.waste[-2:]
    im = picture(game)
    assert corner_inked(im, K.WASTE_X + K.WASTE_DX, game.board.waste[-1])
    third = (
        K.WASTE_X + L.CARD_W + K.WASTE_DX + 4,
        K.TOP_Y + 10,
        K.WASTE_X + 2 * K.WASTE_DX + L.CARD_W,
        K.TOP_Y + 90,
    )
    assert share(im, third, {L.FELT}) == 1


def stock_region(im: Image.Image) -> Image.Image:
    return im.crop((K.STOCK_X, K.TOP_Y, K.STOCK_X + L.CARD_W, K.TOP_Y + L.CARD_H))


def test_the_stock_shows_its_count_or_the_redeal_mark():
    game = start()
    im = picture(game)
    count = pill_sprite("24", K.COUNT_TEXT, L.TEXT, L.BACK, L.BACK).convert("RGB")
    x = K.STOCK_X + L.CARD_W // 2 - count.width // 2
    y = K.TOP_Y + (L.CARD_H - count.height) // 2
    assert im.crop((x, y, x + count.width, y + count.height)).tobytes() == count.tobytes()
    game.board.stock.pop()
    assert stock_region(picture(game)).tobytes() != stock_region(im).tobytes()
    game.board.waste, game.board.stock = game.board.stock, []
    redeal = stock_region(picture(game))
    assert share(redeal, (0, 0, L.CARD_W, L.CARD_H), {L.BACK}) == 0
    assert share(redeal, (20, 30, 62, 74), {L.SLOT_LINE}) > 0.1  # the ↻ mark
    game.board.waste = []
    empty = stock_region(picture(game))
    assert share(empty, (20, 30, 62, 74), {L.SLOT}) == 1  # an empty outline, nothing to turn


@pytest.mark.parametrize("deck", ["two", "four"])
@pytest.mark.parametrize(
    "build", [start, mid, tallest, near_won], ids=["start", "mid", "tallest", "near-won"]
)
def test_every_face_up_card_reads_at_500_px_wide(build: Any, deck: str) -> None:
    game = build()
    small = on_phone(picture(game, deck=deck))
    sizes = []
    for p, (pile, down) in enumerate(zip(game.board.piles, game.board.face_down, strict=True)):
        spots = K.pile_spots(down, len(pile) - down)
        for k in range(down, len(pile)):
            visible = L.CARD_H if k == len(pile) - 1 else L.FAN
            sizes.append(glyphs(small, pile[k], K.slot_x(p), K.PILE_Y + spots[k], visible, deck))
    shown = K.shown_waste(K.view(game))
    for k, card in enumerate(shown):
        sizes.append(glyphs(small, card, K.WASTE_X + k * K.WASTE_DX, K.TOP_Y, L.CARD_H, deck))
    assert sizes and all(rank >= RANK_MIN and suit >= SUIT_MIN for rank, suit in sizes), sizes


def test_the_four_colour_deck_inks_each_suit_its_own_colour():
    game = near_won()
    top = K.TOP_Y + 4, K.TOP_Y + 22
    for deck in ("two", "four"):
        im = picture(game, deck=deck)
        for s in range(4):
            x = K.slot_x(3 + s)
            card = s * 13 + game.board.foundations[s] - 1
            assert share(im, (x + 5, top[0], x + 30, top[1]), {ink(card, deck)}) > 0.1
    assert len({ink(s * 13, "four") for s in range(4)}) == 4


def test_a_selected_pile_marks_its_face_up_cards_and_its_number():
    game = mid()
    plain, picked = picture(game), picture(game, highlight="3")
    x = K.slot_x(2) + L.CARD_W - 12
    for k in range(4):  # QC JD TS 9H over one back
        y = K.PILE_Y + K.BACK_STEP + k * L.FAN + 20
        assert (plain.getpixel((x, y)), picked.getpixel((x, y))) == (L.CARD, L.PICK_FACE)
    assert picked.getpixel((x, K.PILE_Y + 8)) in {L.BACK, L.BACK_LINE}  # the back stays a back
    number = (K.slot_x(2), K.NUMBER_Y, K.slot_x(2) + L.CARD_W, K.NUMBER_Y + L.LABEL_ROW - 4)
    assert share(picked, number, {L.PICK_EDGE}) > 0.1 and share(plain, number, {L.PICK_EDGE}) == 0


def test_the_last_move_marks_its_source_and_the_cards_it_put_down():
    game = mid()  # the waste's top card went onto pile 5 (8S 7D 6C over three backs)
    im = picture(game)
    x = K.slot_x(4) + L.CARD_W - 12
    top_y = K.PILE_Y + 3 * K.BACK_STEP + 2 * L.FAN + 60
    assert im.getpixel((x, top_y)) == L.LAST_FACE
    assert im.getpixel((x, K.PILE_Y + 3 * K.BACK_STEP + 20)) == L.CARD
    caption = (K.WASTE_X, K.CAPTION_Y, K.WASTE_X + 2 * K.WASTE_DX + L.CARD_W, K.TOP_Y - 2)
    assert share(im, caption, {L.LAST_EDGE}) > 0.05
    game.board.last = ("p", 1, "h", 3, 1)
    home = picture(game)
    assert home.getpixel((K.slot_x(6) + 40, K.TOP_Y + 90)) == L.LAST_FACE


def test_a_won_game_shows_the_banner_and_the_header_reads_the_game():
    game = near_won()
    game.board.piles = [[] for _ in range(7)]
    game.board.waste, game.board.foundations = [], [13] * 4
    game.outcome = Outcome("won", "all home")
    im = picture(game, labels={"won": "GAGNÉ", K.WASTE: "talon"})
    assert im.height == K.MIN_HEIGHT
    assert share(im, (0, K.PILE_Y, L.WIDTH, im.height), {L.WON}) > 0.02
    assert share(im, (0, 0, L.WIDTH, L.HEADER_ROW), {L.WON}) > 0.01  # the header's WON badge


def test_words_are_klondike_s_own_and_translated():
    assert K.WORDS == {
        "klondike": ("Klondike", L.TITLE_TEXT, 220),
        "klondike.stock": ("stock", 18, 108),
        "klondike.waste": ("waste", 18, 108),
        "klondike.foundations": ("foundations", L.LABEL_TEXT, 300),
    }
    english, french = picture(mid()), picture(mid(), labels={K.WASTE: "talon", K.STOCK: "pioche"})
    captions = (0, K.CAPTION_Y, K.HOME_BOX[0], K.TOP_Y)
    assert english.crop(captions).tobytes() != french.crop(captions).tobytes()
    with pytest.raises(ValueError, match="unknown label"):
        png(mid(), labels={"talon": "talon"})


def columns(im: Image.Image, box: tuple[int, int, int, int], colour: L.RGB) -> list[int]:
    """The x of every column of ``box`` holding a pixel of ``colour``."""
    x0, y0, x1, y1 = box
    return [x for x in range(x0, x1) if any(im.getpixel((x, y)) == colour for y in range(y0, y1))]


@pytest.mark.parametrize("draw", [1, 3])
def test_long_stock_and_waste_captions_never_meet(draw: int) -> None:
    game = mid(draw)
    game.board.last = ("s", 0, "w", 0, draw)  # the stock turned: its caption amber
    long = {K.STOCK: "Kartenvorratsstapelchen", K.WASTE: "Ablagestapelkartenreihe"}
    im = picture(game, highlight="w", labels=long)  # the waste picked: its caption blue
    row = (0, K.CAPTION_Y, K.HOME_BOX[0], K.TOP_Y - 1)
    stock, waste = columns(im, row, L.LAST_EDGE), columns(im, row, L.PICK_EDGE)
    assert stock and waste and max(stock) + 4 < min(waste) and max(waste) < K.HOME_BOX[0]
    short = columns(picture(game, highlight="w"), row, L.PICK_EDGE)  # English: over the waste's cards
    middle = K.waste_x(draw)[1]
    assert abs((min(short) + max(short)) // 2 - middle) <= 2


@pytest.mark.parametrize(
    ("name", "place"),
    [
        ("1", ("p", 0)),
        (" 7 ", ("p", 6)),
        ("W", ("w", 0)),
        ("hs", ("h", 0)),
        ("hc", ("h", 3)),
        (("p", 2), ("p", 2)),
    ],
)
def test_highlight_names(name: object, place: tuple[str, int]) -> None:
    assert K.parse_highlight(mid(), name) == place


@pytest.mark.parametrize("bad", ["8", "0", "s", "hx", ("p", 7), ("w", 1), ("c", 0), 3])
def test_bad_highlights_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match=r"Klondike|place to select"):
        png(mid(), highlight=bad)


def test_a_replay_frame_is_full_height():
    image = K.render(start(), None, resolve(None, words_of(K)))
    assert image.size == (L.WIDTH, K.FULL_HEIGHT)
    assert K.height(start()) == K.MIN_HEIGHT


def test_unregistering_klondike_leaves_the_other_boards_words():
    renderer.unregister(K.KIND)
    try:
        assert {"stock", "foundations"} <= set(renderer.DEFAULT_LABELS)  # Calculation's, the tableau's
        assert K.STOCK not in renderer.DEFAULT_LABELS
        assert renderer.render_png(engine.new_game("BK1-C4-AAAAA24"), labels={"foundations": "Fundamente"})
    finally:
        renderer.register(K)
