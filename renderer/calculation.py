"""The Calculation board: stock and turned card on the left, foundations f1-f4 with
their step and the rank each needs next, and the waste piles w1-w4 fanned below.

Highlights: ``("s", 0)`` selects the turned card, ``("w", i)`` waste pile i
(0-based). The last move (``game.last_move``) turns its source's label amber
and gives the card it put down an amber face.
"""

from __future__ import annotations

from PIL import Image

from engine.calculation import CalculationGame
from engine.cards import rank_text
from renderer import header
from renderer import layout as L
from renderer.cache import cached
from renderer.cards import (
    LAST,
    ON_CARD,
    ON_FELT,
    PICK,
    PLAIN,
    back_sprite,
    card_sprite,
    corner_size,
    slot_sprite,
)
from renderer.header import paste_words
from renderer.labels import Labels
from renderer.palette import new_canvas
from renderer.text import paste, pill_sprite

CAPTION_Y = L.HEADER_H + 2  # "stock", "f1 +1"
TOP_Y = CAPTION_Y + 28  # stock and foundations
NEXT_Y = TOP_Y + L.CARD_H + 32  # baseline of "next 7"
PILE_LABEL_Y = NEXT_Y + 16  # "turned", "w1"
PILE_Y = PILE_LABEL_Y + 30
PILE_ROOM = L.HEIGHT - 10 - PILE_Y
STOCK_X = 44
FIRST_X = 204  # foundation 1 and waste pile 1; the stock column stands apart on the left
STEP_X = 192  # leaves room right of each pile for the second fan of a very long pile
SPLIT_BELOW = 16  # a fan step below this (about 30 cards) splits the pile into two fans
SPLIT_DX = 62  # the second fan's offset: the first fan's corners stay visible


def slot_x(i: int) -> int:
    """Left edge of place ``i``: 0 is the stock/turned column, 1-4 foundations and piles."""
    return STOCK_X if i == 0 else FIRST_X + (i - 1) * STEP_X


def waste_layout(count: int) -> list[tuple[int, int, int]]:
    """Where each card of a ``count``-card waste pile goes: (dx, dy, corner glyph size).

    One fan while its step stays readable; beyond that the older half fans down
    on the left and the newer half, ending with the top card, beside it.
    """
    step = L.fan_step(count, PILE_ROOM)
    if step >= SPLIT_BELOW:
        fans = [(0, count, step)]
    else:
        older = (count + 1) // 2
        fans = [
            (0, older, L.fan_step(older, PILE_ROOM)),
            (SPLIT_DX, count - older, L.fan_step(count - older, PILE_ROOM)),
        ]
    out = []
    for dx, n, fan in fans:
        out += [(dx, k * fan, corner_size(fan)) for k in range(n)]
    if out:
        out[-1] = (*out[-1][:2], L.CORNER_SIZE)  # the top card: nothing covers its corner
    return out


def _paste_waste(canvas: Image.Image, x: int, pile: tuple[int, ...], styles: dict[int, str]) -> None:
    for k, (card, (dx, dy, corner)) in enumerate(zip(pile, waste_layout(len(pile)), strict=True)):
        under = ON_FELT if k == 0 else ON_CARD  # the second fan lies on the first one's cards
        canvas.paste(card_sprite(card, styles.get(k, PLAIN), under, corner), (x + dx, PILE_Y + dy))


def _label(canvas: Image.Image, text: str, i: int, y: int, fill: L.RGB | None = None) -> None:
    ink = L.TEXT if fill is None or fill == L.PICK_EDGE else L.BLACK
    pill = pill_sprite(text, L.LABEL_TEXT, ink, fill or L.FELT, L.FELT)
    paste(canvas, pill, slot_x(i) + L.CARD_W // 2, y, "m")


@cached(limit=64)
def background(labels: Labels) -> Image.Image:
    """Everything that does not depend on the cards: read only, boards start from a copy."""
    words = dict(labels)
    canvas = new_canvas((L.WIDTH, L.HEIGHT), L.FELT)
    header.draw_static(canvas, words["calculation"])
    _label(canvas, words["stock"], 0, CAPTION_Y)
    _label(canvas, words["turned"], 0, PILE_LABEL_Y)
    canvas.paste(slot_sprite(), (slot_x(0), PILE_Y))
    for i in range(4):
        _label(canvas, f"f{i + 1}  +{i + 1}", i + 1, CAPTION_Y)
        canvas.paste(slot_sprite(f"+{i + 1}", 44), (slot_x(i + 1), TOP_Y))
        _label(canvas, f"w{i + 1}", i + 1, PILE_LABEL_Y)
        canvas.paste(slot_sprite(), (slot_x(i + 1), PILE_Y))
    return canvas


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


def render(game: CalculationGame, highlight: tuple[str, int] | None, labels: Labels) -> Image.Image:
    words = dict(labels)
    canvas = background(labels).copy()
    header.draw_dynamic(canvas, game, words["calculation"], words)
    marks = _Marks(game, highlight)
    _stock(canvas, game.stock_count)
    if game.turned is not None:
        canvas.paste(card_sprite(game.turned, marks.turned), (slot_x(0), PILE_Y))
    for i in range(4):
        home = game.foundations[i]
        if home:
            canvas.paste(card_sprite(home[-1], marks.homes.get(i, PLAIN)), (slot_x(i + 1), TOP_Y))
        need = game.needs(i)
        text = words["done"] if need is None else f"{words['next']} {rank_text(need, ten='10')}"
        paste_words(
            canvas,
            [(text, 24, L.TEXT if need else L.WON)],
            slot_x(i + 1) + L.CARD_W // 2,
            NEXT_Y,
            L.FELT,
            "m",
        )
        _paste_waste(canvas, slot_x(i + 1), game.waste[i], marks.piles[i])
    for kind, i, colour in marks.labels:
        if kind == "s":
            _label(canvas, words["turned"], 0, PILE_LABEL_Y, colour)
        elif kind == "w":
            _label(canvas, f"w{i + 1}", i + 1, PILE_LABEL_Y, colour)
    if game.is_won:
        pill = pill_sprite(words["won"], 64, L.BLACK, L.WON, L.FELT)
        paste(canvas, pill, L.WIDTH // 2, PILE_Y + PILE_ROOM // 2 - pill.height // 2, "m")
    return canvas


def _stock(canvas: Image.Image, count: int) -> None:
    x = slot_x(0)
    if count:
        canvas.paste(back_sprite(), (x, TOP_Y))
        pill = pill_sprite(str(count), 30, L.TEXT, L.BACK, L.BACK)
    else:
        pill = pill_sprite("0", 30, L.SLOT_LINE, L.SLOT, L.SLOT)
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
    raise ValueError(
        f"highlight {highlight!r} is not a source in Calculation: use ('s', 0) for the turned card "
        "or ('w', 0-3) for a waste pile (or their names s, w1-w4)"
    )


def cards_home(game: CalculationGame) -> int:
    """Cards on the foundations (the replay keeps every frame where this grows)."""
    return sum(len(pile) for pile in game.foundations)
