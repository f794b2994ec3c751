"""The four-colour deck: its inks stay apart for colour-blind players, and are drawn.

Colour-vision deficiencies are simulated with Machado, Oliveira & Fernandes (2009)'s
matrices at full severity, applied to linear RGB; differences are CIE76 ΔE in CIELAB
(D65). ``python -m tests.test_render_deck`` prints the table quoted in the docs.
"""

from __future__ import annotations

import io
import itertools
import math

import pytest
from PIL import Image

import engine
import renderer
from engine.cards import make_card
from renderer import layout as L
from renderer.cards import corner_layout
from renderer.games import tableau

MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = ("normal", *MACHADO)
MIN_DELTA_E = 25  # clearly different colours, not shades of one
MIN_CONTRAST = 4.5  # each ink against the card face (WCAG AA for text)
SUITS = "♠♥♦♣"


def _linear(v: int) -> float:
    c = v / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def simulate(rgb: L.RGB, vision: str) -> tuple[float, float, float]:
    """Linear RGB as someone with ``vision`` sees ``rgb``."""
    lin = tuple(_linear(v) for v in rgb)
    if vision == "normal":
        return lin  # type: ignore[return-value]
    r, g, b = (
        min(1.0, max(0.0, sum(m * x for m, x in zip(row, lin, strict=True)))) for row in MACHADO[vision]
    )
    return r, g, b


def lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: L.RGB, b: L.RGB, vision: str) -> float:
    return math.dist(lab(simulate(a, vision)), lab(simulate(b, vision)))


def contrast(a: L.RGB, b: L.RGB) -> float:
    def lum(c: L.RGB) -> float:
        r, g, bl = (_linear(v) for v in c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * bl

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def table(inks: tuple[L.RGB, ...]) -> dict[str, dict[str, float]]:
    """ΔE of every pair of suits under every vision."""
    return {
        vision: {
            f"{SUITS[i]}{SUITS[j]}": delta_e(inks[i], inks[j], vision)
            for i, j in itertools.combinations(range(4), 2)
        }
        for vision in VISIONS
    }


@pytest.mark.parametrize("vision", VISIONS)
def test_the_four_suits_differ_by_colour_alone_under_each_vision(vision: str) -> None:
    pairs = table(L.DECKS["four"])[vision]
    assert min(pairs.values()) >= MIN_DELTA_E, pairs


def test_the_classic_four_colour_deck_would_fail_deuteranopes() -> None:
    classic = (L.BLACK, L.RED, (0, 64, 200), (0, 128, 0))  # black, red, blue, green
    assert table(classic)["deuteranopia"]["♥♣"] < 10  # red and green: the same brown


@pytest.mark.parametrize("ink", L.DECKS["four"])
def test_every_ink_reads_on_every_card_face(ink: L.RGB) -> None:
    assert contrast(ink, L.CARD) >= MIN_CONTRAST
    for face in (L.LAST_FACE, L.PICK_FACE):
        assert contrast(ink, face) >= 3.5


def test_each_suit_is_drawn_in_its_ink() -> None:
    game = engine.new_game("BK1-C4-AAAAA24")
    cols = game.position.cols
    for c in range(4):  # one card of each suit on top of columns 1-4
        card = make_card(c, 5)
        for col in cols:
            if card in col:
                col.remove(card)
        cols[c].append(card)
    im = Image.open(io.BytesIO(renderer.render_png(game, deck="four"))).convert("RGB")
    for c in range(4):
        x, y = tableau.slot_x(c), tableau.TABLEAU_Y + (len(cols[c]) - 1) * L.FAN
        _, _, end = corner_layout(make_card(c, 5))
        corner = im.crop((x + 3, y + 2, x + end, y + L.CORNER_STRIP)).getcolors(4096) or []
        inks = {colour for n, colour in corner if n > 15}
        assert L.DECKS["four"][c] in inks
        assert not inks & (set(L.DECKS["four"]) - {L.DECKS["four"][c]})
    assert renderer.render_png(game, deck="two") != renderer.render_png(game, deck="four")


if __name__ == "__main__":
    for name, inks in (("four", L.DECKS["four"]), ("classic", (L.BLACK, L.RED, (0, 64, 200), (0, 128, 0)))):
        print(name, [f"{SUITS[i]} {inks[i]} contrast {contrast(inks[i], L.CARD):.1f}" for i in range(4)])
        for vision, pairs in table(inks).items():
            print(
                f"  {vision:13}",
                "  ".join(f"{k} {v:5.1f}" for k, v in pairs.items()),
                f"  min {min(pairs.values()):.1f}",
            )
