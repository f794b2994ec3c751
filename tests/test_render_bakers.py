"""The Jeu du Boulanger picture: decoded and checked by sampling where things must be."""

from __future__ import annotations

import io
import threading

import pytest
from PIL import Image, ImageChops

import engine
import renderer
from engine.bakers.position import EMPTY, Position
from engine.cards import parse_card
from engine.solver import solve
from renderer import layout as L
from renderer.games import tableau

CODE = "BK1-C4-AAAAA24"  # SPEC test vector: column 1 ends TH, column 2 ends 3S


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG"
    im.load()
    return im


def count(
    im: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int], tol: int = 24
) -> int:
    """Pixels in ``box`` within ``tol`` of ``colour`` (per channel)."""
    data = im.convert("RGB").crop(box).tobytes()
    r, g, b = colour
    return sum(
        1
        for i in range(0, len(data), 3)
        if abs(data[i] - r) <= tol and abs(data[i + 1] - g) <= tol and abs(data[i + 2] - b) <= tol
    )


def corner_box(col: int, index: int, step: int) -> tuple[int, int, int, int]:
    """Where card ``index`` of column ``col`` shows its rank and suit."""
    x, y = tableau.slot_x(col), tableau.TABLEAU_Y + index * step
    return (x + 4, y + 3, x + 70, y + min(step, L.CORNER_STRIP))


def test_picture_decodes_with_the_designed_size_and_a_palette() -> None:
    game = engine.new_game(CODE)
    im = decode(renderer.render_png(game))
    assert im.size == (L.WIDTH, tableau.height(game)) == (720, 521)  # 7 cards in the longest column
    assert im.mode == "P"


def test_a_typical_board_stays_under_60_kib() -> None:
    game = engine.replay(CODE, ["6h", "7a", "7h", "4b", "48", "3c"])
    assert len(renderer.render_png(game)) <= 60 * 1024


def test_red_and_black_cards_are_drawn_in_their_colours() -> None:
    im = decode(renderer.render_png(engine.new_game(CODE)))
    ten_of_hearts, three_of_spades = corner_box(0, 6, L.FAN), corner_box(1, 6, L.FAN)
    assert count(im, ten_of_hearts, L.RED) > 40
    assert count(im, ten_of_hearts, L.BLACK) == 0
    assert count(im, three_of_spades, L.BLACK) > 40
    assert count(im, three_of_spades, L.RED) == 0


def test_eight_columns_are_drawn_side_by_side() -> None:
    im = decode(renderer.render_png(engine.new_game(CODE)))
    y = tableau.TABLEAU_Y + 20  # across the first card of every column
    row = im.convert("RGB").crop((0, y, L.WIDTH, y + 1)).tobytes()
    on_card = [row[x * 3 : x * 3 + 3] != bytes(L.FELT) for x in range(L.WIDTH)]
    runs = sum(1 for x in range(L.WIDTH) if on_card[x] and (x == 0 or not on_card[x - 1]))
    assert runs == 8


@pytest.mark.parametrize("cells", [1, 2, 4])
def test_only_the_cells_in_play_are_drawn(cells: int) -> None:
    im = decode(renderer.render_png(engine.new_game(f"BK1-C{cells}-AAAAA24")))
    mid = tableau.TOP_Y + L.CARD_H // 2
    for i in range(4):
        x = tableau.slot_x(i) + L.CARD_W // 2
        slot_pixels = count(im, (x - 20, mid - 10, x + 20, mid + 10), L.SLOT, tol=3)
        letter_pixels = count(im, (x - 20, tableau.LETTER_Y, x + 20, tableau.TOP_Y), L.TEXT, tol=30)
        assert (slot_pixels == 800) == (i < cells)
        assert (letter_pixels > 10) == (i < cells)


def test_nineteen_card_column_fits_and_every_card_shows_its_corner() -> None:
    game = engine.new_game(CODE)
    pos = game.position
    spades = [parse_card(r + "S") for r in "KQJT98765432A"]
    others = [c for c in pos.all_cards() if c not in spades]
    cols = [others[i * 6 : i * 6 + 6] for i in range(7)] + [others[42:]]
    cols[0] += spades  # 6 + 13 = 19, the longest column the rules allow
    cols[1].extend(cols.pop())
    cols.append([])
    game.position = Position(cols, [EMPTY] * 4, [0] * 4)
    im = decode(renderer.render_png(game))
    step = L.FAN
    bottom = tableau.TABLEAU_Y + 18 * step + L.CARD_H
    assert bottom + L.BOTTOM == im.height == tableau.FULL_HEIGHT <= renderer.HEIGHT
    x = tableau.slot_x(0) + L.CARD_W // 2
    assert count(im, (x, bottom - 8, x + 1, bottom - 7), L.CARD, tol=4) == 1  # ace of spades' face
    assert count(im, (x, bottom + 3, x + 1, bottom + 4), L.FELT, tol=4) == 1  # felt below it
    for i, card in enumerate(cols[0]):
        ink = L.RED if card // 13 in (1, 2) else L.BLACK
        assert count(im, corner_box(0, i, step), ink, tol=60) > 15, f"card {i} of column 1 unreadable"


def test_last_move_marks_its_source_label_and_the_cards_it_put_down() -> None:
    game = engine.replay(CODE, ["1a"])  # 10♥ from column 1 to free cell a
    im = decode(renderer.render_png(game))
    cell_a = (tableau.slot_x(0), tableau.TOP_Y, tableau.slot_x(0) + L.CARD_W, tableau.TOP_Y + L.CARD_H)
    assert count(im, cell_a, L.LAST_FACE, tol=4) > 3000
    label = (tableau.slot_x(0), tableau.NUMBER_Y, tableau.slot_x(0) + L.CARD_W, tableau.TABLEAU_Y)
    assert count(im, label, L.LAST_EDGE, tol=4) > 200
    fresh = decode(renderer.render_png(engine.new_game(CODE)))
    assert count(fresh, label, L.LAST_EDGE, tol=4) == 0
    assert count(fresh, cell_a, L.LAST_FACE, tol=4) == 0


def test_a_group_move_marks_every_card_it_moved() -> None:
    game = engine.new_game(CODE)
    cols = game.position.cols
    nine, eight, jack = parse_card("9S"), parse_card("8S"), parse_card("JD")
    cols[2].remove(nine)
    cols[3].remove(eight)
    cols[7].remove(jack)  # column 8 now ends on TS
    cols[0].append(jack)
    cols[5] += [nine, eight]
    move = game.play("68")
    assert len(move.cards) == 2
    im = decode(renderer.render_png(game))
    n = len(game.position.cols[7])
    for k in (n - 2, n - 1):
        assert count(im, corner_box(7, k, L.FAN), L.LAST_FACE, tol=4) > 100
    assert count(im, corner_box(7, n - 3, L.FAN), L.LAST_FACE, tol=4) == 0


def test_highlight_marks_the_selected_run_and_label() -> None:
    game = engine.new_game(CODE)
    im = decode(renderer.render_png(game, highlight=("c", 2)))
    top = corner_box(2, 6, L.FAN)
    assert count(im, top, L.PICK_FACE, tol=4) > 100
    label = (tableau.slot_x(2), tableau.NUMBER_Y, tableau.slot_x(2) + L.CARD_W, tableau.TABLEAU_Y)
    assert count(im, label, L.PICK_EDGE, tol=4) > 200
    assert renderer.render_png(game, highlight="3") == renderer.render_png(game, highlight=("c", 2))


def test_highlight_of_a_free_cell() -> None:
    game = engine.replay(CODE, ["1b"])
    im = decode(renderer.render_png(game, highlight="b"))
    cell_b = (tableau.slot_x(1), tableau.TOP_Y, tableau.slot_x(1) + L.CARD_W, tableau.TOP_Y + L.CARD_H)
    assert count(im, cell_b, L.PICK_FACE, tol=4) > 3000


@pytest.mark.parametrize(
    ("code", "highlight"),
    [
        (CODE, ("c", 8)),
        (CODE, ("c", -1)),
        ("BK1-C2-AAAAA24", ("f", 2)),
        (CODE, "z"),
        (CODE, ("w", 0)),
        (CODE, 3),
    ],
)
def test_bad_highlight_is_refused_with_a_clear_message(code: str, highlight: object) -> None:
    with pytest.raises(ValueError, match=r"is not a place (of this game|to select)"):
        renderer.render_png(engine.new_game(code), highlight=highlight)


def test_won_game_shows_the_banner() -> None:
    game = engine.new_game(CODE)
    game.replay(solve(game, time_limit=10).moves)
    assert game.is_won
    im = decode(renderer.render_png(game))
    mid = (tableau.TABLEAU_Y + im.height) // 2
    assert im.height == tableau.TABLEAU_Y + (tableau.MIN_CARDS - 1) * L.FAN + L.CARD_H + L.BOTTOM
    middle = (L.WIDTH // 2 - 60, mid - 15, L.WIDTH // 2 + 60, mid + 15)
    assert count(im, middle, L.WON, tol=4) > 1000
    assert count(im, (0, 0, L.WIDTH, L.HEADER_H), L.WON, tol=4) > 500  # the header badge


def test_lost_game_shows_the_badge_and_keeps_the_cards() -> None:
    cards = engine.new_game(CODE).position.all_cards()
    kings, jacks = [c for c in cards if c % 13 == 12], [c for c in cards if c % 13 == 10]
    others = sorted((c for c in cards if c % 13 not in (10, 12)), key=lambda c: (c % 13, c // 13))
    # kings and jacks on top of every column, four 2s in the cells: nothing can move
    cols = [others[i::8] for i in range(8)]
    cells = [c for c in others if c % 13 == 1]
    for col in cols:
        col[:] = [c for c in col if c not in cells]
    for col, top in zip(cols, kings + jacks, strict=True):
        col.append(top)
    game = engine.new_game(CODE)
    game.position = Position(cols, cells, [0] * 4)
    assert game.is_lost
    im = decode(renderer.render_png(game))
    assert count(im, (0, 0, L.WIDTH, L.HEADER_H), L.LOST, tol=4) > 500
    assert count(im, (0, tableau.TABLEAU_Y, L.WIDTH, im.height), L.WON, tol=4) == 0


def test_labels_override_the_words_on_the_picture() -> None:
    game = engine.new_game(CODE)
    english = decode(renderer.render_png(game)).convert("RGB")
    russian = decode(renderer.render_png(game, labels={"score": "очки", "moves": "ходы"})).convert("RGB")
    bbox = ImageChops.difference(english, russian).getbbox()
    assert bbox is not None and bbox[3] <= L.HEADER_H  # only the header changed


@pytest.mark.parametrize("labels", [{"scor": "x"}, {"score": ""}, {"score": "x" * 40}, {"score": 3}])
def test_bad_labels_are_refused(labels: dict) -> None:
    with pytest.raises(ValueError, match="label"):
        renderer.render_png(engine.new_game(CODE), labels=labels)


def test_rendering_does_not_change_the_game() -> None:
    game = engine.replay(CODE, ["1a", "2b"])
    before = (game.board_text(), game.moves, game.score, game.move_count)
    renderer.render_png(game, highlight="a")
    assert (game.board_text(), game.moves, game.score, game.move_count) == before


def test_eight_threads_render_identical_bytes_from_cold_caches() -> None:
    games = [engine.replay(CODE, ["1a"]), engine.new_game("BK1-C2-AAAAAAA"), engine.new_game("CA1-AAAAA24")]
    expected = [renderer.render_png(g) for g in games]
    for fn in (tableau.background, renderer.cards.card_sprite, renderer.text.text_sprite):
        fn.cache.clear()
    results: list[list[bytes]] = []
    barrier = threading.Barrier(8)

    def work() -> None:
        barrier.wait()
        for _ in range(3):
            results.append([renderer.render_png(g) for g in games])

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 24


@pytest.mark.parametrize("code", [CODE, "CA1-AAAAA24"])
def test_long_translations_are_cut_short_to_their_room(code: str) -> None:
    words = {key: "Ш" * 24 for key in renderer.DEFAULT_LABELS}
    resolved = dict(renderer.labels.resolve(words))
    for key, (_, size, room) in renderer.labels.WORDS.items():
        text = resolved[key]
        assert text.endswith("…") and renderer.fonts.font(size).getlength(text) <= room
    game = engine.new_game(code)
    im = decode(renderer.render_png(game, labels=words))
    assert im.size == (L.WIDTH, renderer.boards.board_for(game).height(game))
    assert dict(renderer.labels.resolve({"score": "очки"}))["score"] == "очки"  # short words stay whole
