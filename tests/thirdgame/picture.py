"""Tower's board module for the renderer: three piles fanned down, the spades' home on the right.

It is built from the renderer's shared parts (header, card sprites, labels) and
registered by the test like a deployment would (``renderer.register``); its own
words (``WORDS``: its title and "home") come with it, and the bot passes them
translated from Tower's front.
"""

from __future__ import annotations

from PIL import Image

from renderer import header
from renderer import layout as L
from renderer.cards import PICK, TWO, card_sprite, paste_pile, slot_sprite
from renderer.labels import Labels, Word
from renderer.palette import new_canvas
from renderer.text import paste, pill_sprite
from tests.thirdgame.game import PILES, TowerGame
from tests.thirdgame.record import TOWER

KIND = TOWER.kind
WORDS: dict[str, Word] = {KIND: (TOWER.title, 18, 180), "home": ("home", 18, 108)}
LABEL_Y = L.HEADER_H + 1
PILE_Y = LABEL_Y + L.LABEL_ROW
HOME_X = L.WIDTH - L.MARGIN - L.CARD_W
FULL_HEIGHT = PILE_Y + 12 * L.FAN + L.CARD_H + L.BOTTOM  # all thirteen spades on one pile


def slot_x(i: int) -> int:
    return L.MARGIN + i * (L.CARD_W + 4 * L.GAP)


def height(game: TowerGame) -> int:
    longest = max(3, *(len(pile) for pile in game.position))
    return PILE_Y + (longest - 1) * L.FAN + L.CARD_H + L.BOTTOM


def _label(canvas: Image.Image, text: str, x: int, fill: L.RGB | None = None) -> None:
    pill = pill_sprite(text, L.LABEL_TEXT, L.TEXT, fill or L.FELT, L.FELT)
    paste(canvas, pill, x + L.CARD_W // 2, LABEL_Y, "m")


def render(
    game: TowerGame,
    highlight: tuple[str, int] | None,
    labels: Labels,
    deck: str = TWO,
    fit: bool = False,
    tag: str | None = None,
    hide_code: bool = False,
) -> Image.Image:
    words = dict(labels)
    canvas = new_canvas((L.WIDTH, height(game) if fit else FULL_HEIGHT), L.FELT)
    header.draw_static(canvas, words[KIND])
    header.draw_dynamic(canvas, game, words[KIND], words, tag, hide_code)
    for i, pile in enumerate(game.position):
        picked = highlight == ("p", i)
        _label(canvas, str(i + 1), slot_x(i), L.PICK_EDGE if picked else None)
        canvas.paste(slot_sprite(), (slot_x(i), PILE_Y))
        styles = {len(pile) - 1: PICK} if picked and pile else {}
        paste_pile(canvas, slot_x(i), PILE_Y, pile, L.FAN, styles, deck)
    _label(canvas, words["home"], HOME_X)
    home = card_sprite(game.home - 1, deck=deck) if game.home else slot_sprite("♠", 44)
    canvas.paste(home, (HOME_X, PILE_Y))
    if game.is_won:
        pill = pill_sprite(words["won"], L.BANNER_TEXT, L.BLACK, L.WON, L.FELT)
        paste(canvas, pill, L.WIDTH // 2, PILE_Y + L.CARD_H + L.FAN, "m")
    return canvas


def parse_highlight(game: TowerGame, highlight: object) -> tuple[str, int] | None:
    """``("p", 0..2)`` a pile, or its name ``"1"``-``"3"``."""
    if highlight is None:
        return None
    if isinstance(highlight, str) and highlight.strip() in game.places():
        return ("p", int(highlight) - 1)
    if highlight in [("p", i) for i in range(PILES)]:
        return ("p", highlight[1])  # type: ignore[index]
    raise ValueError(f"highlight {highlight!r} is not a pile of Tower: use 1-{PILES}")
