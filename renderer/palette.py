"""One fixed palette for every picture, so boards are drawn directly in "P" mode.

Quantizing a finished RGB board costs more than encoding it; instead
each sprite (card face, text, slot) is drawn in RGB once, mapped to this
palette once, and boards are assembled by pasting palette images. The palette
holds the flat colours plus short ramps between the colour pairs that meet at
anti-aliased edges (text on a card, a card's rounded corner on the felt), so
edges stay smooth without dithering.
"""

from __future__ import annotations

from PIL import Image

from renderer import layout as L

_RAMP_STEPS = 5  # intermediate shades between two colours that meet at an edge

_SOLIDS = (
    L.FELT, L.SLOT, L.SLOT_LINE, L.HEADER_BG, L.TEXT, L.TEXT_DIM, L.CARD, L.EDGE, L.RED,
    L.BLACK, L.LAST_FACE, L.LAST_EDGE, L.PICK_FACE, L.PICK_EDGE, L.WON, L.LOST, L.BACK,
    L.BACK_LINE, L.FOUR_RED, L.FOUR_BLUE, L.FOUR_GREEN,
)  # fmt: skip

_INK_PAIRS = tuple((face, ink) for ink in L.INKS for face in (L.CARD, L.LAST_FACE, L.PICK_FACE))
_PAIRS = (
    *_INK_PAIRS,
    (L.CARD, L.EDGE), (L.FELT, L.EDGE), (L.SLOT, L.EDGE), (L.FELT, L.CARD),
    (L.LAST_FACE, L.LAST_EDGE), (L.FELT, L.LAST_EDGE), (L.CARD, L.LAST_EDGE),
    (L.PICK_FACE, L.PICK_EDGE), (L.FELT, L.PICK_EDGE), (L.CARD, L.PICK_EDGE),
    (L.HEADER_BG, L.TEXT), (L.HEADER_BG, L.TEXT_DIM), (L.FELT, L.TEXT), (L.FELT, L.TEXT_DIM),
    (L.FELT, L.SLOT_LINE), (L.SLOT, L.SLOT_LINE), (L.LAST_EDGE, L.BLACK), (L.PICK_EDGE, L.TEXT),
    (L.WON, L.BLACK), (L.LOST, L.TEXT), (L.HEADER_BG, L.WON), (L.HEADER_BG, L.LOST),
    (L.FELT, L.WON), (L.BACK, L.BACK_LINE), (L.BACK, L.TEXT), (L.FELT, L.BACK),
    (L.HEADER_BG, L.LAST_EDGE), (L.HEADER_BG, L.PICK_EDGE),
    (L.HOME, L.EDGE),  # a card on the foundations' tray (its rim: (FELT, WON), (HEADER_BG, WON))
)  # fmt: skip


def _colours() -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    seen: set[tuple[int, int, int]] = set()

    def add(c: tuple[int, int, int]) -> None:
        if c not in seen:
            seen.add(c)
            out.append(c)

    for c in _SOLIDS:
        add(c)
    for a, b in _PAIRS:
        for k in range(1, _RAMP_STEPS + 1):
            t = k / (_RAMP_STEPS + 1)
            add(
                (
                    round(a[0] + (b[0] - a[0]) * t),
                    round(a[1] + (b[1] - a[1]) * t),
                    round(a[2] + (b[2] - a[2]) * t),
                )
            )
    if len(out) > 256:
        raise AssertionError(f"palette has {len(out)} colours, more than 256")
    return out


COLOURS = _colours()
_FLAT = [v for c in COLOURS for v in c]
_FLAT += [0] * (768 - len(_FLAT))

# An image whose palette ``Image.quantize`` maps onto (read only, never drawn on).
PALETTE_IMAGE = Image.new("P", (1, 1))
PALETTE_IMAGE.putpalette(_FLAT)


def index(colour: tuple[int, int, int]) -> int:
    """The palette entry of one of the layout's flat colours (for ImageDraw fills in P mode)."""
    return COLOURS.index(colour)


def to_palette(im: Image.Image) -> Image.Image:
    """Map an RGB sprite onto the shared palette (nearest colour, no dithering)."""
    return im.convert("RGB").quantize(palette=PALETTE_IMAGE, dither=Image.Dither.NONE)


def put(canvas: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """``canvas.paste(sprite, xy)`` for a palette sprite on a palette canvas made here
    (both in memory, same palette, the canvas writable), without ``Image.paste``'s
    checks and conversions: ~1.5 us a paste instead of ~4, some 60 pastes a board
    (issue 26). Pillow clips a box that runs off the canvas, as ``paste`` does."""
    x, y = xy
    canvas.im.paste(sprite.im, (x, y, x + sprite.width, y + sprite.height))


def new_canvas(size: tuple[int, int], colour: tuple[int, int, int]) -> Image.Image:
    """A blank "P" image with the shared palette, filled with one of its colours."""
    im = Image.new("P", size, index(colour))
    im.putpalette(_FLAT)
    return im
