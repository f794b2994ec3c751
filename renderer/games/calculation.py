"""The Calculation board: stock and turned card on the left, foundations f1-f4 with
their step and the rank each needs next, and the waste piles w1-w4 fanned below.

Highlights: ``("s", 0)`` selects the turned card, ``("w", i)`` waste pile i
(0-based). The last move (``game.last_move``) turns its source's label amber
and gives the card it put down an amber face.

A waste pile fans down ``layout.FAN`` px a card; past ``WRAP`` cards it wraps
into two fans side by side (the older half on the left, the newer half
``SPLIT_DX`` px to its right, so the left fan's corners stay uncovered) at
``layout.CORNER_STRIP`` px a card, the smallest step that still shows a whole
corner. Every card keeps full-size corner glyphs: a 48-card pile is two fans of
24, and the picture grows to hold them (``height``).
"""

from __future__ import annotations

from PIL import Image

from engine.calculation import CalculationGame
from engine.calculation.record import CALCULATION
from engine.cards import rank_text
from renderer import header
from renderer import layout as L
from renderer.cache import cached
from renderer.cards import (
    LAST,
    ON_CARD,
    ON_FELT,
    ON_HOME,
    PICK,
    PLAIN,
    TWO,
    back_sprite,
    card_sprite,
    corner_size,
    slot_sprite,
    tray_sprite,
)
from renderer.fonts import font
from renderer.header import paste_words
from renderer.labels import Labels, Word
from renderer.palette import new_canvas, put
from renderer.png import band_starts
from renderer.text import PAD, overlay_pill, paste, pill_sprite, text_sprite

KIND = CALCULATION.kind
# This board's own words (the shared ones are in ``renderer.labels``): its title, its places'.
WORDS: dict[str, Word] = {
    KIND: (CALCULATION.title, L.TITLE_TEXT, 220),
    "stock": ("stock", 18, 108),
    "turned": ("turned", 18, 108),
    "next": ("next", 20, 104),
    "done": ("done", 20, 140),
}
CAPTION_Y = L.HEADER_H + 1  # "stock", "f1 +1"
TOP_Y = CAPTION_Y + L.LABEL_ROW  # stock and foundations
NEXT_TEXT = 20  # "next 7" (smaller when a translation needs it, down to NEXT_SMALLEST)
NEXT_SMALLEST = 14
STOCK_TEXT = 18  # "stock", "turned"
NEXT_Y = TOP_Y + L.CARD_H + 23  # baseline of "next 7"
# Each foundation's tray holds its caption, its card and what it needs next, apart from the
# waste pile below it; HOME_SIDE px wider than the card each side (the stock is just left of f1).
HOME_SIDE = 14
HOME_TOP, HOME_BOTTOM = CAPTION_Y + 1, NEXT_Y + 9
PILE_LABEL_Y = HOME_BOTTOM + 6  # "turned", "w1"
PILE_Y = PILE_LABEL_Y + L.LABEL_ROW
STOCK_X = L.MARGIN
FIRST_X = 109  # foundation 1 and waste pile 1; the stock column stands apart on the left
STEP_X = 150  # leaves room right of each pile for the second fan of a long pile
WRAP = 16  # a pile of more cards wraps into two fans
SPLIT_DX = 64  # the second fan's offset: the first fan's corner glyphs stay visible
MOST = 48  # every card not dealt to a foundation, all on one pile
MIN_CARDS = 3  # the pile area is never shorter than a fan of 3
PILE_ROOM = ((MOST + 1) // 2 - 1) * L.CORNER_STRIP + L.CARD_H  # a fan of 24 at the whole-corner step


def slot_x(i: int) -> int:
    """Left edge of place ``i``: 0 is the stock/turned column, 1-4 foundations and piles."""
    return STOCK_X if i == 0 else FIRST_X + (i - 1) * STEP_X


def waste_layout(count: int) -> list[tuple[int, int, int]]:
    """Where each card of a ``count``-card waste pile goes: (dx, dy, corner glyph size).

    One fan up to ``WRAP`` cards; beyond that the older half fans down on the
    left and the newer half, ending with the top card, beside it.
    """
    if count <= WRAP:
        fans = [(0, count, L.FAN)]
    else:
        older = (count + 1) // 2
        step = L.FAN if older <= WRAP else L.fan_step(older, PILE_ROOM, L.CORNER_STRIP)
        fans = [(0, older, step), (SPLIT_DX, count - older, step)]
    out = []
    for dx, n, fan in fans:
        out += [(dx, k * fan, corner_size(fan)) for k in range(n)]
    if out:
        out[-1] = (*out[-1][:2], L.CORNER_SIZE)  # the top card: nothing covers its corner
    return out


def pile_bottom(count: int) -> int:
    """How far below PILE_Y a ``count``-card pile reaches."""
    spots = waste_layout(count)
    return max(dy for _, dy, _ in spots) + L.CARD_H if spots else L.CARD_H


def height(game: CalculationGame) -> int:
    """The picture's height: down to the longest waste pile's last card (and a little felt)."""
    longest = max(MIN_CARDS, *(len(pile) for pile in game.waste))
    return PILE_Y + pile_bottom(min(longest, MOST)) + L.BOTTOM


FULL_HEIGHT = PILE_Y + pile_bottom(MOST) + L.BOTTOM


@cached()
def bands(height: int) -> tuple[int, ...]:
    """Where the PNG's bands start (``renderer.png.band_starts``): the header's two rows, the captions,
    the stock and foundations, the "next" line, the pile labels, then one band per card
    step down the waste piles, so a move or a pick re-deflates only the rows it touched."""
    return band_starts(
        (L.HEADER_ROW, L.HEADER_H, TOP_Y, TOP_Y + L.CARD_H, PILE_LABEL_Y, PILE_Y), PILE_Y, L.FAN, height
    )


def _paste_waste(
    canvas: Image.Image, x: int, pile: tuple[int, ...], styles: dict[int, str], deck: str
) -> None:
    for k, (card, (dx, dy, corner)) in enumerate(zip(pile, waste_layout(len(pile)), strict=True)):
        under = ON_FELT if k == 0 else ON_CARD  # the second fan lies on the first one's cards
        put(canvas, card_sprite(card, styles.get(k, PLAIN), under, corner, deck), (x + dx, PILE_Y + dy))


def _label(canvas: Image.Image, text: str, i: int, y: int, fill: L.RGB | None = None) -> None:
    """A place's name centred over it; the stock column's words ("stock", "turned", translated)
    are a little smaller and kept inside the picture's left edge."""
    ink = L.TEXT if fill is None or fill == L.PICK_EDGE else L.BLACK
    size = STOCK_TEXT if i == 0 else L.LABEL_TEXT
    pill = pill_sprite(text, size, ink, fill or L.FELT, L.FELT)
    canvas.paste(pill, (max(3, slot_x(i) + (L.CARD_W - pill.width) // 2), y + (L.LABEL_TEXT - size) // 2))


@cached(limit=64)
def background(labels: Labels) -> Image.Image:
    """Everything that does not depend on the cards: read only, boards start from a copy."""
    words = dict(labels)
    canvas = new_canvas((L.WIDTH, FULL_HEIGHT), L.FELT)
    header.draw_static(canvas, words[KIND])
    _label(canvas, words["stock"], 0, CAPTION_Y)
    _label(canvas, words["turned"], 0, PILE_LABEL_Y)
    canvas.paste(slot_sprite(), (slot_x(0), PILE_Y))
    for i in range(4):
        _home(canvas, i)
        _label(canvas, f"w{i + 1}", i + 1, PILE_LABEL_Y)
        canvas.paste(slot_sprite(), (slot_x(i + 1), PILE_Y))
    return canvas


def _home(canvas: Image.Image, i: int) -> None:
    """Foundation ``i``'s tray: its caption (its name and step) and its empty place."""
    x = slot_x(i + 1)
    canvas.paste(tray_sprite(L.CARD_W + 2 * HOME_SIDE, HOME_BOTTOM - HOME_TOP), (x - HOME_SIDE, HOME_TOP))
    caption = text_sprite(f"f{i + 1}  +{i + 1}", L.LABEL_TEXT, L.HOME_RIM, L.HOME)
    paste(canvas, caption, x + L.CARD_W // 2, HOME_TOP + 2, "m")
    canvas.paste(slot_sprite(f"+{i + 1}", 34, ON_HOME), (x, TOP_Y))


@cached(limit=256)
def need_size(text: str) -> int:
    """The font size "next 7" is drawn at: NEXT_TEXT, or less if a translation needs it to
    stay inside its tray."""
    room = L.CARD_W + 2 * HOME_SIDE - 8 - 2 * PAD
    for size in range(NEXT_TEXT, NEXT_SMALLEST, -1):
        if font(size).getlength(text) <= room:
            return size
    return NEXT_SMALLEST


class _Marks:
    """Which cards get a marked face and which labels a badge, from the last move and the pick."""

    def __init__(self, game: CalculationGame, highlight: tuple[str, int] | None) -> None:
        waste = game.waste
        self.piles: list[dict[int, str]] = [{} for _ in range(4)]  # pile -> {position: style}
        self.homes: dict[int, str] = {}
        self.turned = PLAIN
        self.labels: list[tuple[str, int, L.RGB]] = []  # (kind, index, badge colour)
        last = game.last_move
        if last is not None:
            self.labels.append((last.src_kind, last.src, L.LAST_EDGE))
            if last.dst_kind == "w":
                self.piles[last.dst][len(waste[last.dst]) - 1] = LAST
            else:
                self.homes[last.dst] = LAST
        if highlight is not None:  # drawn after the last move: a pick wins where both apply
            kind, i = highlight
            self.labels.append((kind, i, L.PICK_EDGE))
            if kind == "w" and waste[i]:
                self.piles[i][len(waste[i]) - 1] = PICK
            elif kind == "s":
                self.turned = PICK


def render(
    game: CalculationGame,
    highlight: tuple[str, int] | None,
    labels: Labels,
    deck: str = TWO,
    fit: bool = False,
    tag: str | None = None,
    hide_code: bool = False,
) -> Image.Image:
    """The board, ``FULL_HEIGHT`` tall (a replay's frames), or ``height(game)`` with ``fit``;
    ``tag`` and ``hide_code`` as in ``header.draw_dynamic``."""
    words = dict(labels)
    base = background(labels)
    canvas = base.crop((0, 0, L.WIDTH, height(game))) if fit else base.copy()
    canvas.info["bands"] = bands(canvas.height)
    header.draw_dynamic(canvas, game, words[KIND], words, tag, hide_code)
    marks = _Marks(game, highlight)
    _stock(canvas, game.stock_count)
    if game.turned is not None:
        put(canvas, card_sprite(game.turned, marks.turned, deck=deck), (slot_x(0), PILE_Y))
    for i in range(4):
        home = game.foundations[i]
        if home:
            top = card_sprite(home[-1], marks.homes.get(i, PLAIN), ON_HOME, deck=deck)
            put(canvas, top, (slot_x(i + 1), TOP_Y))
        need = game.needs(i)
        text = words["done"] if need is None else f"{words['next']} {rank_text(need, ten='10')}"
        piece = (text, need_size(text), L.TEXT if need else L.WON)
        paste_words(canvas, [piece], slot_x(i + 1) + L.CARD_W // 2, NEXT_Y, L.HOME, "m")
        _paste_waste(canvas, slot_x(i + 1), game.waste[i], marks.piles[i], deck)
    for kind, i, colour in marks.labels:
        if kind == "s":
            _label(canvas, words["turned"], 0, PILE_LABEL_Y, colour)
        elif kind == "w":
            _label(canvas, f"w{i + 1}", i + 1, PILE_LABEL_Y, colour)
    if game.is_won:  # over the empty piles, their outlines whole around it
        banner = pill_sprite(words["won"], L.BANNER_TEXT, L.BLACK, L.WON, L.FELT).height
        y = (PILE_Y + height(game) - banner) // 2
        overlay_pill(canvas, words["won"], L.BANNER_TEXT, L.BLACK, L.WON, L.WIDTH // 2, y)
    return canvas


def _stock(canvas: Image.Image, count: int) -> None:
    x = slot_x(0)
    if count:
        canvas.paste(back_sprite(), (x, TOP_Y))
        pill = pill_sprite(str(count), 24, L.TEXT, L.BACK, L.BACK)
    else:
        pill = pill_sprite("0", 24, L.SLOT_LINE, L.SLOT, L.SLOT)
    paste(canvas, pill, x + L.CARD_W // 2, TOP_Y + (L.CARD_H - pill.height) // 2, "m")


def parse_highlight(game: CalculationGame, highlight: object) -> tuple[str, int] | None:
    """``("s", 0)`` the turned card, ``("w", 0..3)`` a waste pile, or the names ``"s"``, ``"w1"``-``"w4"``."""
    if highlight is None:
        return None
    if isinstance(highlight, str):
        t = highlight.strip().lower()
        if t == "s":
            return ("s", 0)
        if len(t) == 2 and t[0] == "w" and t[1] in "1234":
            return ("w", int(t[1]) - 1)
    elif isinstance(highlight, tuple) and len(highlight) == 2 and isinstance(highlight[1], int):
        kind, i = highlight
        if (kind == "s" and i == 0) or (kind == "w" and 0 <= i < 4):
            return (kind, i)
    if isinstance(highlight, str):  # a name a person typed: answered in the board's words
        raise ValueError(
            f"{highlight!r} is not a source to select: name the turned card (s) or a waste pile (w1 to w4)"
        )
    raise ValueError(
        f"highlight {highlight!r} is not a source in Calculation: use ('s', 0) for the turned card "
        "or ('w', 0-3) for a waste pile (or their names s, w1-w4)"
    )
