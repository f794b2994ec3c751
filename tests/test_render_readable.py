"""What a player sees on a phone: every available card's rank and suit measured on the
picture scaled to 500 px wide (as Discord shows it), the crop, the code's face, and the
encoder that re-deflates only what changed."""

from __future__ import annotations

import io
import threading
from types import SimpleNamespace

import pytest
from PIL import Image

import engine
import renderer
from engine.bakers.position import EMPTY, Position
from engine.cards import card_label, parse_card
from renderer import header, png
from renderer import layout as L
from renderer.cards import card_sprite, corner_layout, ink
from renderer.fonts import MONO, SANS
from renderer.games import bakers, tableau
from renderer.games import calculation as calc
from renderer.text import text_sprite
from tests.actions import random_actions

BK, CA = "BK1-C4-AAAAA24", "CA1-AAAAA24"
RANK_MIN, SUIT_MIN = 10, 9  # cap height of a rank / height of a suit at 500 px wide


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    im.load()
    return im


def on_phone(im: Image.Image) -> Image.Image:
    """The picture as Discord shows it on a phone: scaled to 500 px wide."""
    w, h = im.size
    return im.convert("RGB").resize(
        (L.DISPLAY_WIDTH, round(h * L.DISPLAY_WIDTH / w)), Image.Resampling.LANCZOS
    )


def ink_height(small: Image.Image, box: tuple[float, float, float, float], fg: L.RGB, bg: L.RGB) -> int:
    """Rows of ``box`` (full-size coordinates) holding a pixel at least half-way from ``bg``
    to ``fg`` in the scaled picture: the glyph's height there."""
    s = L.DISPLAY_SCALE
    x0, y0, x1, y1 = (round(v * s) for v in box)
    span = [f - b for f, b in zip(fg, bg, strict=True)]
    norm = sum(d * d for d in span)
    rows = []
    for y in range(y0, y1):
        for x in range(x0, x1):
            p = small.getpixel((x, y))
            assert isinstance(p, tuple)
            t = sum((c - b) * d for c, b, d in zip(p, bg, span, strict=True)) / norm
            if t >= 0.5:
                rows.append(y)
                break
    return rows[-1] - rows[0] + 1 if rows else 0


def glyphs(small: Image.Image, card: int, x: int, y: int, visible: int, deck: str = "two") -> tuple[int, int]:
    """(rank height, suit height) at 500 px of ``card`` drawn at (x, y) with ``visible`` px
    of it uncovered (the fan step, or the whole card on top)."""
    rank_x, suit_x, suit_end = corner_layout(card)
    bottom = y + min(visible - 2, L.CORNER_PAD + L.CORNER_SIZE)
    fg, bg = ink(card, deck), L.CARD
    rank = ink_height(small, (x + rank_x - 1, y + 1, x + suit_x, bottom), fg, bg)
    suit = ink_height(small, (x + suit_x, y + 1, x + suit_end, bottom), fg, bg)
    return rank, suit


def long_column_game() -> engine.Game:
    game = engine.new_game(BK)
    spades = [parse_card(r + "S") for r in "KQJT98765432A"]
    others = [c for c in game.position.all_cards() if c not in spades]
    cols = [others[i * 6 : i * 6 + 6] for i in range(6)] + [others[36:], []]
    cols[0] += spades  # 6 + 13 = 19 cards, the longest column the rules allow
    game.position = Position(cols, [EMPTY] * 4, [0] * 4)
    return game


def forty_eight_pile() -> engine.Game:
    game = engine.new_game(CA)
    while game.turned is not None:
        game.play("sw1")
    assert len(game.waste[0]) == 48
    return game


def bakers_sizes(game: engine.Game, deck: str) -> list[tuple[str, int, int]]:
    small = on_phone(decode(renderer.render_png(game, deck=deck)))
    out = []
    for c, col in enumerate(game.position.cols):
        for i, card in enumerate(col):
            visible = L.CARD_H if i == len(col) - 1 else L.FAN
            rank, suit = glyphs(small, card, tableau.slot_x(c), tableau.TABLEAU_Y + i * L.FAN, visible, deck)
            out.append((card_label(card), rank, suit))
    return out


@pytest.mark.parametrize("deck", ["two", "four"])
@pytest.mark.parametrize("build", [lambda: engine.new_game(BK), long_column_game], ids=["deal", "19-card"])
def test_every_bakers_card_reads_at_500_px_wide(build: object, deck: str) -> None:
    assert callable(build)
    sizes = bakers_sizes(build(), deck)
    assert len(sizes) == 52
    small = [(card, rank, suit) for card, rank, suit in sizes if rank < RANK_MIN or suit < SUIT_MIN]
    assert not small, f"glyphs under {RANK_MIN}/{SUIT_MIN} px at 500 px wide: {small}"


def test_every_card_of_a_48_card_waste_pile_reads_at_500_px_wide() -> None:
    game = forty_eight_pile()
    small = on_phone(decode(renderer.render_png(game)))
    spots = calc.waste_layout(48)
    for k, (card, (dx, dy, _)) in enumerate(zip(game.waste[0], spots, strict=True)):
        next_dy = [d for x, d, _ in spots[k + 1 :] if x == dx]
        visible = next_dy[0] - dy if next_dy else L.CARD_H
        rank, suit = glyphs(small, card, calc.slot_x(1) + dx, calc.PILE_Y + dy, visible)
        assert (rank, suit) >= (RANK_MIN, 0) and suit >= SUIT_MIN, f"{card_label(card)}: {rank}/{suit} px"


def test_the_picture_is_cropped_to_its_longest_pile() -> None:
    fresh, long = engine.new_game(BK), long_column_game()
    short_im, long_im = decode(renderer.render_png(fresh)), decode(renderer.render_png(long))
    assert short_im.width == long_im.width == L.WIDTH
    assert short_im.height == tableau.TABLEAU_Y + 6 * L.FAN + L.CARD_H + L.BOTTOM < long_im.height
    assert long_im.height == tableau.FULL_HEIGHT
    for im in (short_im, long_im):  # the last row of cards ends just above the bottom
        rgb = im.convert("RGB")
        assert rgb.crop((0, im.height - L.BOTTOM + 1, L.WIDTH, im.height)).getcolors() == [
            (L.WIDTH * (L.BOTTOM - 1), L.FELT)
        ]
        assert len(rgb.crop((0, im.height - L.BOTTOM - 4, L.WIDTH, im.height - L.BOTTOM)).getcolors()) > 1
    ca_fresh, ca_long = (
        decode(renderer.render_png(engine.new_game(CA))),
        decode(renderer.render_png(forty_eight_pile())),
    )
    assert ca_fresh.height < 440 < ca_long.height == calc.FULL_HEIGHT <= renderer.HEIGHT


def test_the_game_code_is_drawn_in_the_monospaced_face() -> None:
    game = engine.new_game(BK)
    im = decode(renderer.render_png(game))
    mono = text_sprite(game.code, L.CODE_TEXT, L.TEXT, L.HEADER_BG, MONO)
    sans = text_sprite(game.code, L.CODE_TEXT, L.TEXT, L.HEADER_BG, SANS)
    x = header.code_x()
    top = header.baseline() - renderer.fonts.ascent(L.CODE_TEXT, MONO)
    drawn = im.convert("RGB").crop((x, top, x + mono.width, top + mono.height))
    assert drawn.tobytes() == mono.convert("RGB").tobytes()
    assert mono.size != sans.size or mono.tobytes() != sans.tobytes()
    # and it is big enough on a phone: cap height of the code's letters at 500 px
    cap = ink_height(on_phone(im), (x, L.HEADER_ROW, x + mono.width, L.HEADER_H - 2), L.TEXT, L.HEADER_BG)
    assert cap >= RANK_MIN


@pytest.mark.parametrize("code", [BK, "FC1-C4-MS1", CA])
def test_score_and_moves_read_as_well_as_the_code(code: str) -> None:
    """Issue 40: they were small and grey-green. Now each word and number is drawn in the
    code's ink on the code's row, and at 500 px wide is at least as tall as the code's
    letters (words: their x-height aside, the cap of "s"/"m" is measured over the word)."""
    game = engine.replay(code, random_actions(code, 12, seed=40))  # a score, a two-digit move count
    im = decode(renderer.render_png(game)).convert("RGB")
    small = on_phone(im)
    mono = text_sprite(game.code, L.CODE_TEXT, L.TEXT, L.HEADER_BG, MONO)
    row = (L.HEADER_ROW, L.HEADER_H - 2)
    code_cap = ink_height(
        small, (header.code_x(), row[0], header.code_x() + mono.width, row[1]), L.TEXT, L.HEADER_BG
    )
    numbers = []
    x = L.WIDTH - L.MARGIN + 2
    for text, size in reversed(
        [("score ", L.HEADER_WORDS), (str(game.score), L.HEADER_TEXT), ("   ", L.HEADER_WORDS),
         ("moves ", L.HEADER_WORDS), (str(game.move_count), L.HEADER_TEXT)]
    ):  # fmt: skip
        width = text_sprite(text, size, L.TEXT, L.HEADER_BG).width
        if text.strip():
            numbers.append((text, ink_height(small, (x - width, row[0], x, row[1]), L.TEXT, L.HEADER_BG)))
        x -= width
    assert code_cap >= RANK_MIN
    for text, cap in numbers:  # "score" and "moves" have no capitals: their ascenders (c, o) x-height
        assert cap >= (code_cap if text[0].isdigit() else code_cap * 0.6), (text, cap, code_cap)
    words = im.crop((x, row[0], L.WIDTH, row[1])).getcolors(4096)
    assert words is not None and max(words)[1] == L.HEADER_BG
    assert L.TEXT_DIM not in {c for _, c in words}  # the code's ink, not the old grey-green


def test_five_and_s_differ_in_the_code_face() -> None:
    five = text_sprite("5", L.CODE_TEXT, L.TEXT, L.HEADER_BG, MONO).convert("L")
    ess = text_sprite("S", L.CODE_TEXT, L.TEXT, L.HEADER_BG, MONO).convert("L")
    differ = sum(abs(a - b) > 96 for a, b in zip(five.tobytes(), ess.tobytes(), strict=True))
    assert differ >= 20  # of about 100 inked pixels: the 5's flat top and corner against the S's curves


@pytest.mark.parametrize("code", [BK, "CA1-AAAAA24"])
def test_header_pieces_never_meet_even_with_the_longest_translations(code: str) -> None:
    words = dict(renderer.labels.resolve({key: "Ш" * 24 for key in renderer.DEFAULT_LABELS}))
    title = words["bakers" if code == BK else "calculation"]
    for won in (True, False):  # what the header reads of a game, at its widest
        game = SimpleNamespace(code=code, move_count=999, score=999, outcome=SimpleNamespace(won=won))
        canvas = bakers.BOARD.background(4, tuple(words.items())).copy()
        first_row_end, code_end, right_start = header.draw_dynamic(canvas, game, title, words)  # type: ignore[arg-type]
        assert code_end + 4 <= right_start and first_row_end <= L.WIDTH - L.MARGIN


@pytest.mark.parametrize("code", [BK, "BK1-C2-AAAAAIS", CA])
@pytest.mark.parametrize("deck", ["two", "four"])
def test_the_encoder_writes_exactly_the_rendered_pixels(code: str, deck: str) -> None:
    game = engine.replay(code, ["sw1", "sw2"] if code.startswith("CA") else ["1a", "2b"])
    image = renderer.render_image(game, deck=deck)
    png.clear()
    cold = renderer.encode_png(image)
    warm = renderer.encode_png(image)
    assert cold == warm
    back = decode(cold)
    assert (back.mode, back.size) == ("P", image.size)
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_a_selection_re_deflates_only_a_few_bands() -> None:
    game = engine.replay(BK, ["1a"])
    renderer.render_png(game)  # the board as the last move left it
    png.clear()
    plain = renderer.render_png(game)
    bands = png.counts["miss"]
    assert png.counts["hit"] == 0
    picked = renderer.render_png(game, highlight="3")
    assert png.counts["miss"] - bands <= bands // 2
    assert renderer.render_png(game) == plain
    png.clear()
    assert renderer.render_png(game, highlight="3") == picked  # the bytes never depend on the cache


def test_eight_threads_render_identical_bytes_in_both_decks_from_cold_caches() -> None:
    games = [engine.replay(BK, ["1a"]), long_column_game(), forty_eight_pile()]
    jobs = [
        (g, deck, hl)
        for g in games
        for deck in ("two", "four")
        for hl in (None, "1" if g.kind == "bakers" else "w1")
    ]
    expected = [renderer.render_png(g, deck=deck, highlight=hl) for g, deck, hl in jobs]
    for fn in (tableau.background, calc.background, card_sprite, renderer.text.text_sprite):
        fn.cache.clear()
    png.clear()
    results: list[list[bytes]] = []
    barrier = threading.Barrier(8)

    def work() -> None:
        barrier.wait()
        for _ in range(2):
            results.append([renderer.render_png(g, deck=deck, highlight=hl) for g, deck, hl in jobs])

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 16


def test_an_unknown_deck_is_refused() -> None:
    with pytest.raises(ValueError, match="deck 'three' is not one of: two, four"):
        renderer.render_png(engine.new_game(BK), deck="three")


def test_the_bots_translations_fit_their_room_uncut() -> None:
    from bot.languages.language import LANGUAGES, picture_labels

    for language in LANGUAGES:
        words = {k: v for k, v in picture_labels(language).items() if k in renderer.DEFAULT_LABELS}
        drawn = dict(renderer.labels.resolve(words))
        assert {k: drawn[k] for k in words} == {k: v.strip() for k, v in words.items()}, language
