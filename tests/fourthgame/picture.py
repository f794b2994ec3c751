"""Climb's board module for the renderer: the stock on the left, the waste fanned down beside
it, the pile they climb on the right, each under its caption.

Built from the renderer's shared parts (header, card sprites, pills) and registered like a
deployment would (``renderer.register``). Its own words (``WORDS``: its title and its three
captions) come with it in English; the bot passes them translated from Climb's front.
"""

from __future__ import annotations

from PIL import Image

from engine.cards import make_card
from renderer import header
from renderer import layout as L
from renderer.cards import LAST, TWO, back_sprite, card_sprite, paste_pile, slot_sprite
from renderer.labels import Labels, Word
from renderer.palette import new_canvas
from renderer.text import paste, pill_sprite
from tests.fourthgame.game import PASSES, SUIT, ClimbGame
from tests.fourthgame.record import CLIMB

KIND = CLIMB.kind
CAPTIONS = ("climb.stock", "climb.waste", "climb.pile")
WORDS: dict[str, Word] = {
    KIND: (CLIMB.title, 18, 180),
    **{key: (key.split(".")[1], 18, 150) for key in CAPTIONS},
}
LABEL_Y = L.HEADER_H + 1
PILE_Y = LABEL_Y + L.LABEL_ROW
STOCK_X = L.MARGIN
WASTE_X = STOCK_X + L.CARD_W + 6 * L.GAP
PILE_X = L.WIDTH - L.MARGIN - L.CARD_W
FULL_HEIGHT = PILE_Y + 12 * L.FAN + L.CARD_H + L.BOTTOM  # all thirteen on the waste


def height(game: ClimbGame) -> int:
    return PILE_Y + max(0, len(game.waste) - 1) * L.FAN + L.CARD_H + L.BOTTOM


def _caption(canvas: Image.Image, text: str, x: int) -> None:
    """A caption over the card at ``x``: centred, or ending at the picture's margin if wider."""
    pill = pill_sprite(text, L.LABEL_TEXT, L.TEXT, L.FELT, L.FELT)
    centre = min(x + L.CARD_W // 2, L.WIDTH - L.MARGIN - pill.width // 2)
    paste(canvas, pill, centre, LABEL_Y, "m")


def _stock(canvas: Image.Image, game: ClimbGame) -> None:
    """The stock's back (or an empty place) with its cards left and the pass it is on."""
    canvas.paste(
        back_sprite() if game.stock else slot_sprite("↻" if game.can_redeal() else "", 40), (STOCK_X, PILE_Y)
    )
    count = pill_sprite(f"{len(game.stock)} · {game.passes}/{PASSES}", L.LABEL_TEXT, L.TEXT, L.BLACK, L.FELT)
    paste(canvas, count, STOCK_X + L.CARD_W // 2, PILE_Y + L.CARD_H + 4, "m")


def render(
    game: ClimbGame,
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
    for key, x in zip(CAPTIONS, (STOCK_X, WASTE_X, PILE_X), strict=True):
        _caption(canvas, words[key], x)
    _stock(canvas, game)
    canvas.paste(slot_sprite(), (WASTE_X, PILE_Y))
    paste_pile(
        canvas, WASTE_X, PILE_Y, game.waste, L.FAN, {len(game.waste) - 1: LAST} if game.waste else {}, deck
    )
    top = card_sprite(make_card(SUIT, game.home), deck=deck) if game.home else slot_sprite("A", 44)
    canvas.paste(top, (PILE_X, PILE_Y))
    return canvas


def parse_highlight(game: ClimbGame, highlight: object) -> tuple[str, int] | None:
    """Climb has no selection: nothing is ever highlighted."""
    if highlight is None or highlight == "":
        return None
    raise ValueError(f"highlight {highlight!r}: Climb's board has no place to highlight")
