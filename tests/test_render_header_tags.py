"""The header's tag: where the deal came from (practice, daily, race), and a race's hidden code.

Every picture is decoded from its PNG bytes; the tags are checked on the phone-width
picture too (scaled to 500 px, as Discord shows it)."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from PIL import Image, ImageChops

import engine
import renderer
from bot.languages.language import LANGUAGES, picture_labels
from renderer import header
from renderer import layout as L
from renderer.fonts import MONO, ascent
from renderer.games import bakers
from renderer.text import pill_sprite, text_sprite
from tests.test_render_readable import ink_height, on_phone

CODES = ["BK1-C4-AAAAA24", "CA1-AAAAA24"]
TAG_CAP_MIN = 7  # cap height of a tag's letters at 500 px wide


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    im.load()
    return im.convert("RGB")


def picture(code: str, **options: object) -> Image.Image:
    return decode(renderer.render_png(engine.new_game(code), **options))  # type: ignore[arg-type]


def changed_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    assert a.size == b.size
    return ImageChops.difference(a, b).getbbox()


def colour_count(im: Image.Image, colour: L.RGB) -> int:
    return sum(1 for p in im.get_flattened_data() if p == colour)


def code_at(im: Image.Image, code: str, x: int) -> bool:
    """Whether the code's sprite is drawn with its left edge at ``x``."""
    mono = text_sprite(code, L.CODE_TEXT, L.TEXT, L.HEADER_BG, MONO).convert("RGB")
    top = header.baseline() - ascent(L.CODE_TEXT, MONO)
    return im.crop((x, top, x + mono.width, top + mono.height)).tobytes() == mono.tobytes()


def title_x(code: str) -> int:
    return header.code_x(
        dict(renderer.labels.resolve(None))["bakers" if code.startswith("BK") else "calculation"]
    )


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("tag", ["practice", "daily"])
def test_a_tag_after_the_code_changes_the_header_only(code: str, tag: str) -> None:
    plain, tagged = picture(code), picture(code, tag=tag)
    box = changed_box(plain, tagged)
    assert box is not None and box[3] <= L.HEADER_H  # the header differs, nothing below it
    fill, _ = header.TAG_STYLE[tag]
    top = tagged.crop((0, 0, L.WIDTH, L.HEADER_H))
    assert colour_count(top.crop((0, 0, 420, L.HEADER_H)), fill) > 400  # the pill (about 80 x 21 px)
    assert colour_count(plain.crop((0, 0, 420, L.HEADER_H)), fill) == 0  # (score's words: TEXT_DIM)
    # the tag takes the title's place: the code moves to the left edge, still whole
    assert code_at(plain, code, title_x(code)) and not code_at(tagged, code, title_x(code))
    assert code_at(tagged, code, L.MARGIN - 4)
    # the pill sits after the code and before the score
    columns = [x for x in range(420) if top.getpixel((x, L.HEADER_H // 2)) == fill]
    code_end = L.MARGIN - 4 + text_sprite(code, L.CODE_TEXT, L.TEXT, L.HEADER_BG, MONO).width
    assert code_end < min(columns) and max(columns) < 400


@pytest.mark.parametrize("code", CODES)
def test_a_race_board_draws_its_tag_where_the_code_would_be(code: str) -> None:
    plain, race = picture(code), picture(code, tag="race", hide_code=True)
    box = changed_box(plain, race)
    assert box is not None and box[3] <= L.HEADER_H
    x = title_x(code)
    assert not any(code_at(race, code, left) for left in (x, L.MARGIN - 4))  # no code anywhere
    assert box[0] >= x - 1  # the title stays as it was ...
    fill, _ = header.TAG_STYLE["race"]
    columns = [c for c in range(L.WIDTH) if race.getpixel((c, L.HEADER_H // 2)) == fill]
    assert columns and x <= min(columns) <= x + 4  # ... and the pill starts where the code did
    shown = picture(code, tag="race")  # the tag alone does not hide the code
    assert code_at(shown, code, L.MARGIN - 4) and shown.tobytes() != race.tobytes()


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("tag", ["practice", "daily", "race"])
def test_the_tag_reads_on_a_phone(code: str, tag: str) -> None:
    im = picture(code, tag=tag, hide_code=tag == "race")
    fill, ink = header.TAG_STYLE[tag]
    top = im.crop((0, 0, L.WIDTH, L.HEADER_H))
    columns = [x for x in range(420) if top.getpixel((x, L.HEADER_H // 2)) == fill]
    box = (min(columns) + 6, 2, max(columns) - 6, L.HEADER_H - 2)
    assert ink_height(on_phone(im), box, ink, fill) >= TAG_CAP_MIN


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize(
    ("tag", "hide"), [("practice", False), ("daily", False), ("race", True), ("race", False)]
)
def test_header_pieces_never_meet_with_a_tag_and_the_longest_translations(
    code: str, tag: str, hide: bool
) -> None:
    words = dict(renderer.labels.resolve({key: "Ш" * 24 for key in renderer.DEFAULT_LABELS}))
    title = words["bakers" if code.startswith("BK") else "calculation"]
    for outcome in (None, SimpleNamespace(won=True), SimpleNamespace(won=False)):
        game = SimpleNamespace(code=code, move_count=9999, score=9999, outcome=outcome)
        canvas = bakers.BOARD.background(4, tuple(words.items())).copy()
        end, right_start = header.draw_dynamic(canvas, game, title, words, tag, hide)  # type: ignore[arg-type]
        assert end + 4 <= right_start


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", CODES)
def test_every_translation_of_a_tag_fits_whole(language: str, code: str) -> None:
    """The real words, at a long game's widest: the tag is never cut short and meets nothing
    (a game in play: 999 moves, a 4-digit score; a finished one, with its WON or LOST badge:
    a 3-digit score)."""
    words = dict(renderer.labels.resolve(picture_labels(language)))
    title = words["bakers" if code.startswith("BK") else "calculation"]
    for tag in renderer.TAGS:
        whole = pill_sprite(words[tag], header.TAG_TEXT, *reversed(header.TAG_STYLE[tag]), L.HEADER_BG)
        for outcome in (None, SimpleNamespace(won=True), SimpleNamespace(won=False)):
            for hide in (False, True):
                score = 1500 if outcome is None else 999
                game = SimpleNamespace(code=code, move_count=999, score=score, outcome=outcome)
                canvas = bakers.BOARD.background(4, tuple(words.items())).copy()
                end, right_start = header.draw_dynamic(canvas, game, title, words, tag, hide)  # type: ignore[arg-type]
                assert end + 4 <= right_start, (language, tag)
                top = (L.HEADER_H - whole.height) // 2
                drawn = canvas.convert("RGB").crop((end - whole.width, top, end, top + whole.height))
                assert drawn.tobytes() == whole.convert("RGB").tobytes(), (language, tag, outcome, hide)


def test_an_unknown_tag_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tag"):
        renderer.render_png(engine.new_game(CODES[0]), tag="stock")
