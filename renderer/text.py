"""Text drawn once per (string, size, colours, face) and pasted: captions, scores, codes.

Text is anti-aliased against the one background it will sit on, then mapped to
the shared palette, so pasting it into a "P" board is a plain copy.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from renderer.cache import BUILD_LOCK, cached
from renderer.fonts import SANS, font
from renderer.layout import RGB
from renderer.palette import PALETTE_IMAGE, put, to_palette

PAD = 2


@cached(limit=4096)
def text_sprite(text: str, size: int, fg: RGB, bg: RGB, face: str = SANS) -> Image.Image:
    """``text`` on a ``bg`` box whose height is the font's line height (so baselines line up)."""
    f = font(size, face)
    ascent, descent = f.getmetrics()
    width = max(1, round(f.getlength(text))) + 2 * PAD
    im = Image.new("RGB", (width, ascent + descent), bg)
    ImageDraw.Draw(im).text((PAD, 0), text, font=f, fill=fg)
    return to_palette(im)


def _pill_size(text: str, size: int) -> tuple[int, int]:
    f = font(size)
    ascent, descent = f.getmetrics()
    h = ascent + descent + 4
    return max(h, round(f.getlength(text)) + h // 2 + 6), h


@cached(limit=256)
def _pill_mask(w: int, h: int) -> Image.Image:
    big = Image.new("L", (w * 4, h * 4), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * 4 - 1, h * 4 - 1), radius=h * 2, fill=255)
    return big.resize((w, h), Image.Resampling.BOX)


@cached(limit=1024)
def pill_sprite(text: str, size: int, fg: RGB, fill: RGB, bg: RGB) -> Image.Image:
    """``text`` on a rounded ``fill`` badge drawn over ``bg`` (column numbers, outcome)."""
    w, h = _pill_size(text, size)
    im = Image.new("RGB", (w, h), bg)
    im.paste(fill, (0, 0, w, h), _pill_mask(w, h))
    ImageDraw.Draw(im).text((w / 2, h / 2), text, font=font(size), fill=fg, anchor="mm")
    return to_palette(im)


@cached(limit=256)
def fitted_pill(text: str, size: int, fg: RGB, fill: RGB, bg: RGB, max_w: int) -> Image.Image:
    """``pill_sprite`` of ``text``, the text cut short with "…" so the pill is at most ``max_w`` wide."""
    f = font(size)
    ascent, descent = f.getmetrics()
    pad = (ascent + descent + 4) // 2 + 6  # pill_sprite's room around the text
    return pill_sprite(fitted(text, size, max_w - pad - 1), size, fg, fill, bg)


def paste(canvas: Image.Image, sprite: Image.Image, x: int, y: int, align: str = "l") -> tuple[int, int]:
    """Paste at top ``y``, ``x`` being the left edge, centre ("m") or right edge ("r");
    returns the sprite's (left, right) so callers can place the next piece."""
    w = sprite.width
    left = x if align == "l" else x - w // 2 if align == "m" else x - w
    put(canvas, sprite, (left, y))
    return left, left + w


@cached(limit=1024)
def fitted(text: str, size: int, max_px: int) -> str:
    """``text``, cut short with "…" if it is wider than ``max_px`` at ``size``."""
    f = font(size)
    if f.getlength(text) <= max_px:
        return text
    while text and f.getlength(text + "…") > max_px:
        text = text[:-1]
    return text.rstrip() + "…"


def overlay_pill(canvas: Image.Image, text: str, size: int, fg: RGB, fill: RGB, x: int, y: int) -> None:
    """A ``pill_sprite`` centred on ``x`` at top ``y``, drawn over what the canvas holds there
    (only the pill's rounded shape is painted, its edges smoothed against what lies under it):
    a banner that leaves the slots' outlines behind it whole. The sprite is kept by what lies
    under it (a won board's empty piles: always the same), so a board draws it once."""
    with BUILD_LOCK:  # FreeType faces are used by one thread at a time (renderer.cache)
        w, h = _pill_size(text, size)
    left = x - w // 2
    under = canvas.crop((left, y, left + w, y + h))
    put(canvas, _pill_over(text, size, fg, fill, under.tobytes(), w, h), (left, y))


@cached(limit=16)
def _pill_over(text: str, size: int, fg: RGB, fill: RGB, under: bytes, w: int, h: int) -> Image.Image:
    im = Image.frombytes("P", (w, h), under)
    im.putpalette(PALETTE_IMAGE.getpalette() or [])
    im = im.convert("RGB")
    im.paste(fill, (0, 0, w, h), _pill_mask(w, h))
    ImageDraw.Draw(im).text((w / 2, h / 2), text, font=font(size), fill=fg, anchor="mm")
    return to_palette(im)
