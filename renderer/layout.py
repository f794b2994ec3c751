"""Sizes and colours shared by both boards, derived once here.

The picture is 960 px wide: Discord shows it inline at roughly half that, so
every glyph a player must read (rank, suit, column number) is drawn at least
~24 px high here and stays ~12 px high inline.
"""

from __future__ import annotations

WIDTH = 960
HEIGHT = 860

CARD_W = 106
CARD_H = 136
RADIUS = 9
BORDER = 2
MARGIN = 14
GAP = 12  # between Baker's Game columns: 8 * 106 + 7 * 12 + 2 * 14 = 960

FAN = 40  # vertical step of a fanned pile when there is room
CORNER_SIZE = 30  # rank/suit font size in a card's corner
CORNER_PAD = 3  # from the card's top edge to the corner glyphs
CORNER_STRIP = 28  # a fan step at least this tall shows the full-size corner

HEADER_H = 44
HEADER_TEXT = 22
LABEL_TEXT = 20  # column numbers, cell letters, captions

RGB = tuple[int, int, int]

FELT: RGB = (35, 107, 60)
SLOT: RGB = (29, 90, 50)  # inside an empty slot
SLOT_LINE: RGB = (88, 150, 104)  # slot outlines and placeholder symbols
HEADER_BG: RGB = (20, 64, 37)
TEXT: RGB = (244, 243, 232)
TEXT_DIM: RGB = (168, 204, 176)
CARD: RGB = (252, 251, 246)
EDGE: RGB = (112, 112, 112)
RED: RGB = (200, 26, 44)
BLACK: RGB = (24, 24, 30)
LAST_FACE: RGB = (255, 240, 190)  # the card(s) the last move put down
LAST_EDGE: RGB = (240, 150, 0)
PICK_FACE: RGB = (208, 228, 255)  # a selected source (two-click play)
PICK_EDGE: RGB = (30, 100, 230)
WON: RGB = (242, 190, 40)
LOST: RGB = (190, 36, 40)
BACK: RGB = (40, 70, 150)  # the stock's card back
BACK_LINE: RGB = (90, 125, 200)


def fan_step(count: int, room: int, most: int = FAN) -> int:
    """How far apart ``count`` fanned cards sit so the pile fits in ``room`` px."""
    if count <= 1:
        return most
    return max(1, min(most, (room - CARD_H) // (count - 1)))
