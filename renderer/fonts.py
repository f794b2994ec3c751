"""The renderer's two faces, shipped in ``renderer/assets`` (never a host font).

Both come from Debian's ``fonts-dejavu-core`` 2.37 (Bitstream Vera licence,
see ``assets/DejaVu-LICENSE.txt``). DejaVu Sans Bold has the four suit
symbols and Cyrillic, for translated captions; DejaVu Sans Mono Bold draws
the game code, where 5 and S, 0 and O, 1 and I must never be confused.
"""

from __future__ import annotations

from pathlib import Path

from PIL import ImageFont

from renderer.cache import cached

ASSETS = Path(__file__).with_name("assets")
FONT_PATH = ASSETS / "DejaVuSans-Bold.ttf"
MONO_PATH = ASSETS / "DejaVuSansMono-Bold.ttf"
SANS, MONO = "sans", "mono"
_PATHS = {SANS: FONT_PATH, MONO: MONO_PATH}


@cached()
def font(size: int, face: str = SANS) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_PATHS[face]), size)


@cached()
def ascent(size: int, face: str = SANS) -> int:
    """Pixels from the top of a text sprite to its baseline (text sprites are line-high)."""
    return font(size, face).getmetrics()[0]
