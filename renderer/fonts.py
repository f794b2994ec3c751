"""The one font the renderer uses, shipped in ``renderer/assets`` (never a host font).

DejaVu Sans Bold (Bitstream Vera licence, see ``assets/DejaVu-LICENSE.txt``):
it has the four suit symbols and Cyrillic, for translated captions.
"""

from __future__ import annotations

from pathlib import Path

from PIL import ImageFont

from renderer.cache import cached

FONT_PATH = Path(__file__).with_name("assets") / "DejaVuSans-Bold.ttf"


@cached()
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_PATH), size)


@cached()
def ascent(size: int) -> int:
    """Pixels from the top of a text sprite to its baseline (text sprites are line-high)."""
    return font(size).getmetrics()[0]
