"""The Klondike board: the stock, the waste and the foundations on top, piles 1-7 below.

The stock is a card back with the number of cards left on it; empty, it shows a redeal
mark (↻) while the waste has cards to turn back over, else an empty outline. The waste
fans its top three cards to the right for draw three (only the rightmost, the top one,
plays; the others show their whole corner), its top card alone for draw one. The four
foundations (♠ ♥ ♦ ♣) sit on the gold-rimmed tray the other games' foundations use. A pile
stacks its face-down cards as card backs ``BACK_STEP`` px apart (enough to count them)
and fans its face-up cards ``layout.FAN`` px apart, so every face-up card's corner shows
whole. The picture is as tall as its longest pile needs, at most ``FULL_HEIGHT``: six
face-down cards under a king and its whole run down to the ace (19 cards).

The picture reads the game only through ``view`` (a ``KlondikeView`` of plain numbers). A
face-down card or a card in the stock is drawn from its count alone, so the picture
cannot give away a hidden card.

Highlights: ``("p", i)`` selects pile i (0-based; its face-up cards are marked), ``("w", 0)``
the waste's top card, ``("h", s)`` foundation s's top card (a card may come back from a
foundation); or their names ``"1"``-``"7"``, ``"w"``, ``"hs"``/``"hh"``/``"hd"``/``"hc"``. The
last move turns its source's label amber and gives the cards it put down an amber face.

Words (``WORDS``; the front translates them, see its ``picture_keys``): the title under
``KIND``, and its places' words under keys of its own, ``STOCK``, ``WASTE`` and ``HOMES``
(the words are Calculation's "stock" and the eight-column boards' "foundations", but a
board's keys are its own: unregistering one board forgets its keys, never another's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.cards import SUIT_SYMBOLS
from engine.game import Outcome
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
    slot_sprite,
    tray_sprite,
)
from renderer.games import tableau
from renderer.labels import Labels, Word
from renderer.palette import new_canvas, put, to_palette
from renderer.png import band_starts
from renderer.text import overlay_pill, paste, pill_sprite, text_sprite

KIND = "klondike"
STOCK, WASTE, HOMES = "klondike.stock", "klondike.waste", "klondike.foundations"
WORDS: dict[str, Word] = {
    KIND: tableau.title_word("Klondike"),
    STOCK: ("stock", 18, 108),
    WASTE: ("waste", 18, 108),
    HOMES: ("foundations", L.LABEL_TEXT, 300),
}
SUIT_LETTERS = "shdc"  # a foundation's name after "h": hs, hh, hd, hc (♠ ♥ ♦ ♣)
PILES = 7
SIDE = 10  # felt left and right of the piles
PILE_GAP = (L.WIDTH - 2 * SIDE - PILES * L.CARD_W) // (PILES - 1)  # 21
CAPTION_Y = L.HEADER_H + 1  # "stock", "waste", "foundations"
TOP_Y = CAPTION_Y + L.LABEL_ROW  # the stock, the waste and the foundations
STOCK_X = SIDE
WASTE_X = STOCK_X + L.CARD_W + 8
WASTE_DX = 62  # a draw-three fan's step: the widest corner ("10♥") shows whole
WASTE_FAN = 3  # cards fanned for draw three
HOME_X = SIDE + 3 * (L.CARD_W + PILE_GAP)  # foundation ♠, over pile 4
HOME_BOX = (  # the foundations' tray: their caption and the four of them, a rim around the cards
    HOME_X - L.HOME_PAD,
    CAPTION_Y + 1,
    L.WIDTH - SIDE + L.HOME_PAD,
    TOP_Y + L.CARD_H + L.HOME_PAD,
)
NUMBER_Y = HOME_BOX[3] + 2  # pile numbers
PILE_Y = NUMBER_Y + L.LABEL_ROW
BACK_STEP = 12  # face-down cards: each back's rim and a strip of its lattice show
MOST_DOWN = PILES - 1  # the face-down cards dealt under pile 7's top card
FULL_HEIGHT = PILE_Y + MOST_DOWN * BACK_STEP + 12 * L.FAN + L.CARD_H + L.BOTTOM
MIN_HEIGHT = PILE_Y + MOST_DOWN * BACK_STEP + L.CARD_H + L.BOTTOM  # a new deal's pile 7
COUNT_TEXT = 24  # the stock's count
REDEAL_MARK, REDEAL_SIZE = "↻", 48

Last = tuple[str, int, str, int, int]  # (source kind, index, destination kind, index, cards moved)


@dataclass(frozen=True, slots=True)
class KlondikeView:
    """All the picture reads of a game, as plain numbers (cards are 0..51, SPEC §3).

    ``piles``: each pile bottom to top; ``face_down``: how many cards at the bottom of each pile
    are face down; ``stock``: the cards left to turn, the next first; ``waste``: bottom to top;
    ``foundations``: cards home per suit (♠ ♥ ♦ ♣); ``draw``: 1 or 3. ``last``: the last move
    as (source kind, index, destination kind, index, cards moved), kinds ``"s"`` stock, ``"w"``
    waste, ``"p"`` pile (0-6), ``"h"`` foundation (suit 0-3), or None. ``code``, ``score``,
    ``move_count`` and ``outcome`` are the header's (under the names ``renderer.header`` reads).
    """

    piles: tuple[tuple[int, ...], ...]
    face_down: tuple[int, ...]
    stock: tuple[int, ...]
    waste: tuple[int, ...]
    foundations: tuple[int, ...]
    draw: int
    code: str
    score: int
    move_count: int
    outcome: Outcome | None = None
    last: Last | None = None

    @property
    def is_won(self) -> bool:
        return self.outcome is not None and self.outcome.won


def view(game: Any) -> KlondikeView:
    """What the picture needs of a Klondike game: ``game.seen_state()`` (what the player has
    seen: ``piles``, ``face_down``, ``stock``, ``waste``, ``foundations``, ``draw`` as in
    ``KlondikeView``; a card never seen is -1, and the picture draws such cards from their
    count alone), ``game.last_move`` (with ``src_kind``, ``src``, ``dst_kind``, ``dst`` and
    ``cards``, or None) and the header's ``code``, ``score``, ``move_count`` and ``outcome``."""
    seen = game.seen_state()
    move = game.last_move
    last = None if move is None else (move.src_kind, move.src, move.dst_kind, move.dst, len(move.cards))
    return KlondikeView(
        piles=tuple(tuple(pile) for pile in seen.piles),
        face_down=tuple(seen.face_down),
        stock=tuple(seen.stock),
        waste=tuple(seen.waste),
        foundations=tuple(seen.foundations),
        draw=int(seen.draw),
        code=str(game.code),
        score=int(game.score),
        move_count=int(game.move_count),
        outcome=game.outcome,
        last=last,
    )


def slot_x(i: int) -> int:
    """Left edge of pile ``i`` (0-6); foundation ``s`` is over pile ``3 + s``."""
    return SIDE + i * (L.CARD_W + PILE_GAP)


def pile_spots(down: int, up: int) -> list[int]:
    """How far below PILE_Y each card of a pile (``down`` backs under ``up`` faces) lies."""
    return [k * BACK_STEP for k in range(down)] + [down * BACK_STEP + k * L.FAN for k in range(up)]


def _pile_height(down: int, up: int) -> int:
    spots = pile_spots(down, up)
    return spots[-1] + L.CARD_H if spots else L.CARD_H


def height_of(v: KlondikeView) -> int:
    """The picture's height: down to the longest pile's last card (and a little felt)."""
    tallest = max(_pile_height(d, len(p) - d) for p, d in zip(v.piles, v.face_down, strict=True))
    return min(FULL_HEIGHT, max(MIN_HEIGHT, PILE_Y + tallest + L.BOTTOM))


def height(game: Any) -> int:
    return height_of(view(game))


@cached()
def bands(height: int) -> tuple[int, ...]:
    """Where the PNG's bands start (``renderer.png.band_starts``): the header's two rows, the
    captions, the top row, the pile numbers, then one band per ``BACK_STEP`` down the piles."""
    return band_starts((L.HEADER_ROW, L.HEADER_H, TOP_Y, NUMBER_Y - 2), PILE_Y, BACK_STEP, height)


def waste_x(draw: int) -> tuple[int, int]:
    """The waste's left edge and the centre of its caption (over the fan for draw three)."""
    shown = WASTE_FAN if draw == WASTE_FAN else 1
    return WASTE_X, WASTE_X + ((shown - 1) * WASTE_DX + L.CARD_W) // 2


@cached()
def card_mask() -> Image.Image:
    """A card's rounded outline as a mask (supersampled), for laying cards on cards."""
    ss = 4
    big = Image.new("L", (L.CARD_W * ss, L.CARD_H * ss), 0)
    box = (0, 0, L.CARD_W * ss - 1, L.CARD_H * ss - 1)
    ImageDraw.Draw(big).rounded_rectangle(box, radius=L.RADIUS * ss, fill=255)
    return big.resize((L.CARD_W, L.CARD_H), Image.Resampling.BOX)


def _compose(size: tuple[int, int], layers: list[tuple[Image.Image, tuple[int, int]]]) -> Image.Image:
    """Cards laid one over another on the felt, each through its rounded outline (so a card's
    corner shows the back or the face under it), as one palette sprite."""
    im = Image.new("RGB", size, L.FELT)
    for sprite, xy in layers:
        im.paste(sprite.convert("RGB"), xy, card_mask())
    return to_palette(im)


@cached(limit=512)
def on_back(card: int, style: str, deck: str) -> Image.Image:
    """A card (a back for ``card`` -1) lying ``BACK_STEP`` px down a card back: its top corners
    show that back. Composed once per card variant, so a pile is pasted, not composed."""
    top = back_sprite() if card < 0 else card_sprite(card, style, deck=deck)
    return _compose((L.CARD_W, L.CARD_H), [(back_sprite(), (0, -BACK_STEP)), (top, (0, 0))])


#: Pile sprites kept: every pile of some 140 games being played at once.
PILE_SPRITES = 1024


@cached(limit=PILE_SPRITES)
def pile_sprite(
    down: int, faces: tuple[int, ...], styles: tuple[tuple[int, str], ...], deck: str
) -> Image.Image:
    """A pile as one sprite (read only): ``down`` card backs, then ``faces`` fanned. It knows
    the face-down cards' number only, never which cards they are. ``styles`` are
    ``(position among the faces, LAST or PICK)`` pairs. Each card's sprite shows under its
    corners what lies under it there (the felt, a back, a face), so pasting them is exact."""
    spots = pile_spots(down, len(faces))
    sprite = new_canvas((L.CARD_W, spots[-1] + L.CARD_H), L.FELT)
    for k, y in enumerate(spots[:down]):
        put(sprite, on_back(-1, PLAIN, TWO) if k else back_sprite(), (0, y))
    style = dict(styles)
    for k, card in enumerate(faces):
        if k == 0 and down:
            face = on_back(card, style.get(k, PLAIN), deck)
        else:
            face = card_sprite(card, style.get(k, PLAIN), ON_CARD if k else ON_FELT, deck=deck)
        put(sprite, face, (0, spots[down + k]))
    return sprite


@cached(limit=256)
def waste_sprite(cards: tuple[int, ...], top_style: str, deck: str) -> Image.Image:
    """The waste's shown cards (bottom first) fanned right ``WASTE_DX`` px apart, the top one
    (rightmost) in ``top_style``."""
    layers = []
    for k, card in enumerate(cards):
        style = top_style if k == len(cards) - 1 else PLAIN
        layers.append((card_sprite(card, style, ON_CARD, deck=deck), (k * WASTE_DX, 0)))
    return _compose(((len(cards) - 1) * WASTE_DX + L.CARD_W, L.CARD_H), layers)


def _label(
    canvas: Image.Image,
    text: str,
    x: int,
    y: int,
    fill: L.RGB | None = None,
    size: int = L.LABEL_TEXT,
    least: int = 3,
) -> int:
    """A place's name centred on ``x`` (its left edge at ``least`` or right of it): plain
    text, or on a coloured badge when marked. Returns its right edge."""
    ink = L.TEXT if fill is None or fill == L.PICK_EDGE else L.BLACK
    pill = pill_sprite(text, size, ink, fill or L.FELT, L.FELT)
    left = max(least, x - pill.width // 2)
    canvas.paste(pill, (left, y + (L.LABEL_TEXT - size) // 2))
    return left + pill.width


def _caption(
    canvas: Image.Image, words: dict[str, str], kind: str, draw: int, fill: L.RGB | None = None
) -> None:
    """The stock's (``kind`` "s") or the waste's ("w") caption; the waste's stays right of
    where the stock's ends when both are long (a translation), so they never meet."""
    size, centre = WORDS[STOCK][1], STOCK_X + L.CARD_W // 2
    if kind == "s":
        _label(canvas, words[STOCK], centre, CAPTION_Y, fill, size)
    else:
        stock = pill_sprite(words[STOCK], size, L.TEXT, L.FELT, L.FELT).width
        least = max(3, centre - stock // 2) + stock + 6
        _label(canvas, words[WASTE], waste_x(draw)[1], CAPTION_Y, fill, WORDS[WASTE][1], least)


@cached(limit=64)
def background(draw: int, labels: Labels) -> Image.Image:
    """Everything that does not depend on the cards: read only, boards start from a copy."""
    words = dict(labels)
    canvas = new_canvas((L.WIDTH, FULL_HEIGHT), L.FELT)
    header.draw_static(canvas, words[KIND])
    _caption(canvas, words, "s", draw)
    _caption(canvas, words, "w", draw)
    canvas.paste(slot_sprite(), (WASTE_X, TOP_Y))
    x0, y0, x1, y1 = HOME_BOX
    canvas.paste(tray_sprite(x1 - x0, y1 - y0), (x0, y0))
    caption = text_sprite(words[HOMES], L.LABEL_TEXT, L.HOME_RIM, L.HOME)
    paste(canvas, caption, (x0 + x1) // 2, CAPTION_Y + 3, "m")
    for s in range(4):
        canvas.paste(slot_sprite(SUIT_SYMBOLS[s], 44, ON_HOME), (slot_x(3 + s), TOP_Y))
    for p in range(PILES):
        _label(canvas, str(p + 1), slot_x(p) + L.CARD_W // 2, NUMBER_Y)
        canvas.paste(slot_sprite(), (slot_x(p), PILE_Y))
    return canvas


class _Marks:
    """Which cards get a marked face and which labels a badge, from the last move and the pick."""

    def __init__(self, v: KlondikeView, highlight: tuple[str, int] | None) -> None:
        self.v = v
        self.piles: list[dict[int, str]] = [{} for _ in range(PILES)]  # pile -> {face position: style}
        self.waste = PLAIN
        self.homes: dict[int, str] = {}
        self.labels: list[tuple[str, int, L.RGB]] = []  # (kind, index, badge colour)
        if v.last is not None:
            src_kind, src, dst_kind, dst, count = v.last
            self.labels.append((src_kind, src, L.LAST_EDGE))
            self._mark(dst_kind, dst, count, LAST)
        if highlight is not None:  # marked after the last move: a pick wins where both apply
            kind, i = highlight
            self.labels.append((kind, i, L.PICK_EDGE))
            self._mark(kind, i, len(v.piles[i]) if kind == "p" else 1, PICK)

    def _mark(self, kind: str, i: int, count: int, style: str) -> None:
        """The top ``count`` face-up cards of place ``i`` (a pile's, else its top card)."""
        if kind == "p":
            up = len(self.v.piles[i]) - self.v.face_down[i]
            self.piles[i].update(dict.fromkeys(range(max(0, up - count), up), style))
        elif kind == "w" and self.v.waste:
            self.waste = style
        elif kind == "h" and self.v.foundations[i]:
            self.homes[i] = style


def shown_waste(v: KlondikeView) -> tuple[int, ...]:
    """The waste's cards on show, bottom first: its top three for draw three, else its top one."""
    return v.waste[-(WASTE_FAN if v.draw == WASTE_FAN else 1) :] if v.waste else ()


def render(
    game: Any,
    highlight: tuple[str, int] | None,
    labels: Labels,
    deck: str = TWO,
    fit: bool = False,
    tag: str | None = None,
    hide_code: bool = False,
) -> Image.Image:
    """The board, ``FULL_HEIGHT`` tall (a replay's frames), or ``height(game)`` with ``fit``;
    ``tag`` and ``hide_code`` as in ``header.draw_dynamic``. Drawn from ``view(game)`` alone."""
    v = view(game)
    words = dict(labels)
    base = background(v.draw, labels)
    canvas = base.crop((0, 0, L.WIDTH, height_of(v))) if fit else base.copy()
    canvas.info["bands"] = bands(canvas.height)
    shown: Any = v  # the header reads code, score, move_count and outcome: the view has them
    header.draw_dynamic(canvas, shown, words[KIND], words, tag, hide_code)
    marks = _Marks(v, highlight)
    _stock(canvas, len(v.stock), len(v.waste))
    if v.waste:
        put(canvas, waste_sprite(shown_waste(v), marks.waste, deck), (WASTE_X, TOP_Y))
    for s, count in enumerate(v.foundations):
        if count:
            home = card_sprite(s * 13 + count - 1, marks.homes.get(s, PLAIN), ON_HOME, deck=deck)
            put(canvas, home, (slot_x(3 + s), TOP_Y))
    for p, (pile, down) in enumerate(zip(v.piles, v.face_down, strict=True)):
        if pile:
            styles = tuple(sorted(marks.piles[p].items()))
            put(canvas, pile_sprite(down, tuple(pile[down:]), styles, deck), (slot_x(p), PILE_Y))
    for kind, i, colour in marks.labels:
        if kind == "p":
            _label(canvas, str(i + 1), slot_x(i) + L.CARD_W // 2, NUMBER_Y, colour)
        else:
            _caption(canvas, words, kind, v.draw, colour)
    if v.is_won:  # across the middle of the empty piles, their outlines whole around it
        banner = pill_sprite(words["won"], L.BANNER_TEXT, L.BLACK, L.WON, L.FELT).height
        y = PILE_Y + (L.CARD_H - banner) // 2
        overlay_pill(canvas, words["won"], L.BANNER_TEXT, L.BLACK, L.WON, L.WIDTH // 2, y)
    return canvas


def _stock(canvas: Image.Image, count: int, waste: int) -> None:
    """The stock's back and count; empty, the redeal mark while the waste can be turned over."""
    if count:
        canvas.paste(back_sprite(), (STOCK_X, TOP_Y))
        pill = pill_sprite(str(count), COUNT_TEXT, L.TEXT, L.BACK, L.BACK)
        paste(canvas, pill, STOCK_X + L.CARD_W // 2, TOP_Y + (L.CARD_H - pill.height) // 2, "m")
    else:
        canvas.paste(slot_sprite(REDEAL_MARK if waste else "", REDEAL_SIZE), (STOCK_X, TOP_Y))


def parse_highlight(game: Any, highlight: object) -> tuple[str, int] | None:
    """``("p", 0..6)`` a pile, ``("w", 0)`` the waste, ``("h", 0..3)`` a foundation (♠ ♥ ♦ ♣), or
    their names ``"1"``-``"7"``, ``"w"``, ``"hs"``, ``"hh"``, ``"hd"``, ``"hc"``."""
    if highlight is None:
        return None
    if isinstance(highlight, str):
        t = highlight.strip().lower()
        if len(t) == 1 and "1" <= t <= str(PILES):
            return ("p", int(t) - 1)
        if t == "w":
            return ("w", 0)
        if len(t) == 2 and t[0] == "h" and t[1] in SUIT_LETTERS:
            return ("h", SUIT_LETTERS.index(t[1]))
        raise ValueError(
            f"{highlight!r} is not a place to select: name a pile (1 to 7), the waste (w) "
            "or a foundation (hs, hh, hd, hc)"
        )
    places = {("p", i) for i in range(PILES)} | {("w", 0)} | {("h", s) for s in range(4)}
    if isinstance(highlight, tuple) and highlight in places:
        return (str(highlight[0]), int(highlight[1]))
    raise ValueError(
        f"highlight {highlight!r} is not a place of Klondike: use ('p', 0-6) for a pile, ('w', 0) "
        "for the waste or ('h', 0-3) for a foundation (or their names 1-7, w, hs, hh, hd, hc)"
    )
