"""The header's tag: where the deal came from (practice, daily, race), beside the game's name,
and a race's hidden code.

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
    """Whether the code's sprite is drawn with its left edge at ``x`` on the second row."""
    mono = text_sprite(code, L.CODE_TEXT, L.TEXT, L.HEADER_BG, MONO).convert("RGB")
    top = header.baseline() - ascent(L.CODE_TEXT, MONO)
    return im.crop((x, top, x + mono.width, top + mono.height)).tobytes() == mono.tobytes()


def title_of(code: str, words: dict[str, str] | None = None) -> str:
    kind = {"BK": "bakers", "CA": "calculation", "FC": "freecell"}[code[:2]]
    return (words or dict(renderer.labels.resolve(None)))[kind]


def title_at(im: Image.Image, title: str) -> bool:
    """Whether the game's name is drawn whole where the first row starts."""
    sprite = text_sprite(title, L.TITLE_TEXT, L.TEXT, L.HEADER_BG).convert("RGB")
    top = header.title_baseline() - ascent(L.TITLE_TEXT)
    x = L.MARGIN - 2
    return im.crop((x, top, x + sprite.width, top + sprite.height)).tobytes() == sprite.tobytes()


def pill_columns(im: Image.Image, fill: L.RGB) -> list[int]:
    """The x of the first row's pixels in a pill's fill, along the row's middle."""
    return [x for x in range(L.WIDTH) if im.getpixel((x, L.HEADER_ROW // 2 + 1)) == fill]


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("tag", ["practice", "daily"])
def test_a_tag_beside_the_name_changes_the_first_row_only(code: str, tag: str) -> None:
    plain, tagged = picture(code), picture(code, tag=tag)
    box = changed_box(plain, tagged)
    assert box is not None and box[3] <= L.HEADER_ROW  # the first row differs, nothing below it
    title = title_of(code)
    assert title_at(plain, title) and title_at(tagged, title)  # the game's name stays
    assert box[0] >= header.title_end(title)  # ... untouched: the tag comes after it
    assert code_at(plain, code, header.code_x()) and code_at(tagged, code, header.code_x())
    fill, _ = header.TAG_STYLE[tag]
    assert colour_count(tagged.crop((0, 0, L.WIDTH, L.HEADER_ROW)), fill) > 400  # the pill (about 80 x 22 px)
    assert colour_count(plain.crop((0, 0, L.WIDTH, L.HEADER_H)), fill) == 0
    columns = pill_columns(tagged, fill)
    assert header.title_end(title) < min(columns) and max(columns) < L.WIDTH - L.MARGIN


@pytest.mark.parametrize("code", CODES)
def test_a_race_board_hides_its_code_and_keeps_its_name(code: str) -> None:
    plain, race = picture(code), picture(code, tag="race", hide_code=True)
    box = changed_box(plain, race)
    assert box is not None and box[3] <= L.HEADER_H
    assert not code_at(race, code, header.code_x())  # no code anywhere
    assert title_at(race, title_of(code))
    fill, _ = header.TAG_STYLE["race"]
    columns = pill_columns(race, fill)
    end = header.title_end(title_of(code))
    assert columns and end < min(columns) <= end + header.GAP + 4  # the pill right after the name
    shown = picture(code, tag="race")  # the tag alone does not hide the code
    assert code_at(shown, code, header.code_x()) and shown.tobytes() != race.tobytes()


@pytest.mark.parametrize("code", [*CODES, "FC1-C4-MS1"])
@pytest.mark.parametrize("tag", [None, "practice", "daily", "race"])
@pytest.mark.parametrize("outcome", [None, "won", "lost"])
def test_the_games_name_stays_beside_any_tag_and_outcome(
    code: str, tag: str | None, outcome: str | None
) -> None:
    """Issue 40: a tag (and an outcome) took the name's place ("FC1-C4-MS1 PRACTICE", no
    "FreeCell"). Every language's name, beside every tag and outcome, hidden code or not."""
    for language in LANGUAGES:
        words = dict(renderer.labels.resolve(picture_labels(language)))
        title = title_of(code, words)
        for hide in (False, True):
            game = SimpleNamespace(
                code=code,
                move_count=999,
                score=1500,
                outcome=None if outcome is None else SimpleNamespace(won=outcome == "won"),
            )
            canvas = bakers.BOARD.background(4, tuple(words.items())).copy()
            header.draw_static(canvas, title)
            header.draw_dynamic(canvas, game, title, words, tag, hide)  # type: ignore[arg-type]
            assert title_at(canvas.convert("RGB"), title), (language, tag, outcome, hide)


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("tag", ["practice", "daily", "race"])
def test_the_tag_reads_on_a_phone(code: str, tag: str) -> None:
    im = picture(code, tag=tag, hide_code=tag == "race")
    fill, ink = header.TAG_STYLE[tag]
    columns = pill_columns(im, fill)
    box = (min(columns) + 6, 2, max(columns) - 6, L.HEADER_ROW - 1)
    assert ink_height(on_phone(im), box, ink, fill) >= TAG_CAP_MIN


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize(
    ("tag", "hide"), [("practice", False), ("daily", False), ("race", True), ("race", False)]
)
def test_header_pieces_never_meet_with_a_tag_and_the_longest_translations(
    code: str, tag: str, hide: bool
) -> None:
    words = dict(renderer.labels.resolve({key: "Ш" * 24 for key in renderer.DEFAULT_LABELS}))
    title = title_of(code, words)
    for outcome in (None, SimpleNamespace(won=True), SimpleNamespace(won=False)):
        game = SimpleNamespace(code=code, move_count=9999, score=9999, outcome=outcome)
        canvas = bakers.BOARD.background(4, tuple(words.items())).copy()
        end, code_end, right_start = header.draw_dynamic(canvas, game, title, words, tag, hide)  # type: ignore[arg-type]
        assert end <= L.WIDTH - L.MARGIN and code_end + 4 <= right_start


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", CODES)
def test_every_translation_of_a_tag_fits_whole(language: str, code: str) -> None:
    """The real words, at a long game's widest: the tag is never cut short and meets nothing
    (a game in play: 999 moves, a 4-digit score; a finished one, with its WON or LOST badge)."""
    words = dict(renderer.labels.resolve(picture_labels(language)))
    title = title_of(code, words)
    for tag in renderer.TAGS:
        whole = pill_sprite(words[tag], header.TAG_TEXT, *reversed(header.TAG_STYLE[tag]), L.HEADER_BG)
        for outcome in (None, SimpleNamespace(won=True), SimpleNamespace(won=False)):
            for hide in (False, True):
                game = SimpleNamespace(code=code, move_count=999, score=1500, outcome=outcome)
                canvas = bakers.BOARD.background(4, tuple(words.items())).copy()
                end, code_end, right_start = header.draw_dynamic(canvas, game, title, words, tag, hide)  # type: ignore[arg-type]
                assert end <= L.WIDTH - L.MARGIN and code_end + 4 <= right_start, (language, tag)
                top = (L.HEADER_ROW - whole.height) // 2 + 1
                drawn = canvas.convert("RGB").crop((end - whole.width, top, end, top + whole.height))
                assert drawn.tobytes() == whole.convert("RGB").tobytes(), (language, tag, outcome, hide)


def test_an_unknown_tag_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tag"):
        renderer.render_png(engine.new_game(CODES[0]), tag="stock")
