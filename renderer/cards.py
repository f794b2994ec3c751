"""Card faces, the stock's back and empty slots: drawn once per variant, then pasted.

A variant is (card, style, under, corner, deck): ``style`` marks the last move
or a selected source, ``under`` is what shows through the rounded corners (the
felt, or the card beneath in a fan), ``corner`` the size of the rank and suit
glyphs, ``deck`` the suit colours.

Decks (``layout.DECKS``): ``"two"`` is the usual red and black. ``"four"``
gives every suit its own ink: ♠ black (24, 24, 30), ♥ vermilion (220, 20, 0),
♦ blue (30, 0, 240), ♣ teal green (20, 115, 85). The classic four-colour deck
(black, red, blue, green) fails deuteranopes: its red and green simulate to
almost the same brown (ΔE 4). These four were picked by a search over reds,
blues and greens with at least 4.5:1 contrast on the card face, maximising the
smallest CIELAB ΔE between any two inks under normal vision and Machado et
al.'s (2009) full-severity protanopia, deuteranopia and tritanopia: red and
green then differ in lightness and in the blue-yellow axis deuteranopes keep,
blue and green in lightness for tritanopes. Smallest pairwise ΔE76: normal 51,
protanopia 31, deuteranopia 35, tritanopia 33 (``tests/test_render_deck.py``
checks ≥ 25 under each, and the contrast).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.cards import SUIT_SYMBOLS, rank_of, rank_text, suit_of
from renderer import layout as L
from renderer.cache import cached
from renderer.fonts import font
from renderer.palette import put, to_palette

PLAIN, LAST, PICK = "plain", "last", "pick"
ON_FELT, ON_CARD, ON_HOME = "felt", "card", "home"  # ON_HOME: the foundations' tray
TWO, FOUR = "two", "four"

_STYLES = {  # face, edge, edge width
    PLAIN: (L.CARD, L.EDGE, L.BORDER),
    LAST: (L.LAST_FACE, L.LAST_EDGE, 3),
    PICK: (L.PICK_FACE, L.PICK_EDGE, 3),
}
_SS = 4  # supersampling for the rounded outline


def check_deck(deck: str) -> str:
    """``deck`` itself if it names a deck, else ``ValueError``."""
    if deck not in L.DECKS:
        raise ValueError(f"deck {deck!r} is not one of: {', '.join(L.DECKS)}")
    return deck


def ink(card: int, deck: str = TWO) -> L.RGB:
    """The colour ``card``'s rank and suit are drawn in."""
    return L.DECKS[deck][suit_of(card)]


@cached()
def _round_mask(w: int, h: int, radius: int) -> Image.Image:
    big = Image.new("L", (w * _SS, h * _SS), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * _SS - 1, h * _SS - 1), radius=radius * _SS, fill=255)
    return big.resize((w, h), Image.Resampling.BOX)


def _under(under: str) -> Image.Image:
    im = Image.new("RGB", (L.CARD_W, L.CARD_H), L.HOME if under == ON_HOME else L.FELT)
    if under == ON_CARD:  # the card beneath: its face and side edges, down to mid-height
        im.paste(L.EDGE, (0, 0, L.CARD_W, L.CARD_H // 2))
        im.paste(L.CARD, (L.BORDER, 0, L.CARD_W - L.BORDER, L.CARD_H // 2))
    return im


def _blank(face: L.RGB, edge: L.RGB, width: int, under: str) -> Image.Image:
    im = _under(under)
    im.paste(edge, (0, 0, L.CARD_W, L.CARD_H), _round_mask(L.CARD_W, L.CARD_H, L.RADIUS))
    inner = _round_mask(L.CARD_W - 2 * width, L.CARD_H - 2 * width, max(2, L.RADIUS - width + 1))
    im.paste(face, (width, width, L.CARD_W - width, L.CARD_H - width), inner)
    return im


@cached()
def corner_size(step: int) -> int:
    """Corner glyph size for a fan step: full size when the strip is tall enough, else the
    largest size whose glyphs (Q's tail and J's hook included) fit above the next card."""
    if step >= L.CORNER_STRIP:
        return L.CORNER_SIZE
    for size in range(L.CORNER_SIZE, 8, -1):
        top, bottom = font(size).getbbox("QJ10♥")[1::2]
        if L.CORNER_PAD + bottom - top <= step - 1:
            return size
    return 8


@cached()
def corner_layout(card: int, corner: int = L.CORNER_SIZE) -> tuple[int, int, int]:
    """Where a card's corner glyphs are drawn: (rank's x, suit's x, the suit's advance end),
    from the card's left edge (tests measure the glyphs there)."""
    f = font(corner)
    rank = rank_text(rank_of(card), ten="10")
    suit_x = L.CORNER_X + round(f.getlength(rank)) + 1
    return L.CORNER_X, suit_x, suit_x + round(f.getlength(SUIT_SYMBOLS[suit_of(card)]))


@cached()
def card_sprite(
    card: int, style: str = PLAIN, under: str = ON_FELT, corner: int = L.CORNER_SIZE, deck: str = TWO
) -> Image.Image:
    face, edge, width = _STYLES[style]
    im = _blank(face, edge, width, under)
    draw = ImageDraw.Draw(im)
    colour = ink(card, deck)
    rank, suit = rank_text(rank_of(card), ten="10"), SUIT_SYMBOLS[suit_of(card)]
    f = font(corner)
    top = L.CORNER_PAD - f.getbbox(rank)[1]  # glyph tops at CORNER_PAD
    rank_x, suit_x, _ = corner_layout(card, corner)
    draw.text((rank_x, top), rank, font=f, fill=colour)
    draw.text((suit_x, top), suit, font=f, fill=colour)
    strip = L.CORNER_STRIP + 2
    draw.text(
        (L.CARD_W / 2, strip + (L.CARD_H - strip) / 2), suit, font=font(L.PIP_SIZE), fill=colour, anchor="mm"
    )
    return to_palette(im)


@cached()
def back_sprite() -> Image.Image:
    """The stock: a card back with a diagonal lattice (the count is pasted over it)."""
    im = _blank(L.BACK, L.TEXT, 3, ON_FELT)
    w, h = L.CARD_W - 12, L.CARD_H - 12
    lattice = Image.new("RGB", (w, h), L.BACK)
    draw = ImageDraw.Draw(lattice)
    for k in range(-h, w, 12):
        draw.line((k, 0, k + h, h), fill=L.BACK_LINE, width=2)
        draw.line((k + h, 0, k, h), fill=L.BACK_LINE, width=2)
    im.paste(lattice, (6, 6), _round_mask(w, h, 4))
    return to_palette(im)


@cached()
def slot_sprite(mark: str = "", size: int = 36, under: str = ON_FELT) -> Image.Image:
    """An empty place (column, cell, foundation, waste pile) with a faint mark in it; on the
    foundations' tray (``ON_HOME``) it is the tray's own colour, outlined and marked lighter."""
    fill, line = (L.HOME, L.TEXT_DIM) if under == ON_HOME else (L.SLOT, L.SLOT_LINE)
    im = _blank(fill, line, 2, under)
    if mark:
        ImageDraw.Draw(im).text((L.CARD_W / 2, L.CARD_H / 2), mark, font=font(size), fill=line, anchor="mm")
    return to_palette(im)


@cached()
def tray_sprite(width: int, height: int) -> Image.Image:
    """The foundations' tray: a dark, gold-rimmed rounded box on the felt, the cards laid
    ``layout.HOME_PAD`` px inside its edge (so the rim shows around them)."""
    im = Image.new("RGB", (width, height), L.FELT)
    radius = L.RADIUS + L.HOME_PAD
    im.paste(L.HOME_RIM, (0, 0, width, height), _round_mask(width, height, radius))
    rim = 3
    im.paste(
        L.HOME,
        (rim, rim, width - rim, height - rim),
        _round_mask(width - 2 * rim, height - 2 * rim, radius - rim),
    )
    return to_palette(im)


def paste_pile(
    canvas: Image.Image,
    x: int,
    y: int,
    cards: list[int] | tuple[int, ...],
    step: int,
    styles: dict[int, str],
    deck: str = TWO,
) -> None:
    """Fan ``cards`` (bottom first) down from (x, y), ``step`` px apart; ``styles`` maps a
    position in the pile to LAST or PICK."""
    corner = corner_size(step)
    for i, card in enumerate(cards):
        under = ON_FELT if i == 0 else ON_CARD
        size = L.CORNER_SIZE if i == len(cards) - 1 else corner
        put(canvas, card_sprite(card, styles.get(i, PLAIN), under, size, deck), (x, y + i * step))
