"""Sizes and colours shared by both boards, derived once here.

Discord shows a board about 500 px wide on a phone, so sizes are chosen for
what is left after scaling a WIDTH-px picture to 500 px (``DISPLAY_SCALE``):
the rank and suit in a card's corner are drawn with a cap height of ~17.5 px
(~12 px at 500 px wide), the game code ~16 px (~11 px). A fanned card always
shows its whole corner: piles grow downwards at a fixed step and the picture's
height follows the longest pile (``render_image`` crops to the content), so
long columns never squeeze their corners.
"""

from __future__ import annotations

WIDTH = 720
DISPLAY_WIDTH = 500  # how wide Discord shows a board on a phone
DISPLAY_SCALE = DISPLAY_WIDTH / WIDTH

CARD_W = 82
CARD_H = 104
RADIUS = 7
BORDER = 2
MARGIN = 11
GAP = 6  # between Baker's Game columns: 8 * 82 + 7 * 6 + 2 * 11 = 720
BOTTOM = 8  # felt below the lowest card

CORNER_SIZE = 24  # rank/suit font size in a card's corner (cap height ~17.5 px)
CORNER_PAD = 3  # from the card's top edge to the corner glyphs
CORNER_X = 5  # from the card's left edge to the rank
CORNER_STRIP = 27  # a fan step at least this tall shows the whole corner (J's hook included)
FAN = 30  # vertical step of a fanned pile
PIP_SIZE = 46  # the big suit in the middle of a card

HEADER_ROW = 31  # the header's first row: the game's name, the outcome, the deal's source
HEADER_H = 62  # and its second: the code, score and moves
HEADER_TEXT = 22  # score and move numbers: as large as the code
TITLE_TEXT = 20  # the game's name
HEADER_WORDS = 20  # "score", "moves"
CODE_TEXT = 22  # the game code, in the monospaced face (5 and S, 0 and O differ)
LABEL_TEXT = 20  # column numbers, cell letters, captions
LABEL_ROW = 28  # height of a row of labels
BANNER_TEXT = 44  # the WON banner over a finished board

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
# The foundations sit on a tray of their own (dark, gold-rimmed, labelled), so a card on one
# never reads as a free cell's; the colours are the header's and the WON badge's.
HOME: RGB = HEADER_BG
HOME_RIM: RGB = WON
HOME_PAD = 4  # the tray's rim around the cards on it
BACK: RGB = (40, 70, 150)  # the stock's card back
BACK_LINE: RGB = (90, 125, 200)

# Suit inks, indexed like engine.cards' suits (♠ ♥ ♦ ♣). The four-colour deck's
# colours are explained in renderer.cards' docstring (they stay apart under
# protanopia, deuteranopia and tritanopia: tests/test_render_deck.py).
FOUR_RED: RGB = (220, 20, 0)  # vermilion
FOUR_BLUE: RGB = (30, 0, 240)
FOUR_GREEN: RGB = (20, 115, 85)  # teal
DECKS: dict[str, tuple[RGB, RGB, RGB, RGB]] = {
    "two": (BLACK, RED, RED, BLACK),
    "four": (BLACK, FOUR_RED, FOUR_BLUE, FOUR_GREEN),
}
INKS: tuple[RGB, ...] = (BLACK, RED, FOUR_RED, FOUR_BLUE, FOUR_GREEN)


def fan_step(count: int, room: int | None = None, most: int = FAN) -> int:
    """How far apart ``count`` fanned cards sit: ``most``, or less if they must fit in ``room`` px."""
    if count <= 1 or room is None:
        return most
    return max(1, min(most, (room - CARD_H) // (count - 1)))
