"""Klondike move notation (KLONDIKE.md), case-insensitive, spaces ignored:

* ``s``: turn the stock (or, empty, turn the waste back over as the stock);
* ``w3`` / ``wh``: the waste's top card to pile 3 / to its foundation;
* ``3h``: pile 3's top card to its foundation;
* ``35``: from pile 3 to pile 5, the one run of pile 3's top that fits there;
* ``hs3`` / ``hh3`` / ``hd3`` / ``hc3``: the ♠/♥/♦/♣ foundation's top card back to pile 3.

Parsing is purely textual; whether the move is allowed is for the position. Error params are
numbers only, so front ends can translate.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.cards import SUITS
from engine.errors import IllegalMove
from engine.klondike.rules import NUM_PILES

STOCK, WASTE, PILE, HOME = "s", "w", "p", "h"
PILE_DIGITS = "1234567"
SUIT_LETTERS = SUITS.lower()  # "shdc": the foundations in hs3 ... hc3


@dataclass(frozen=True, slots=True)
class ParsedMove:
    """``src_kind``/``dst_kind`` are STOCK, WASTE, PILE or HOME; ``src`` is a pile (0-based) or,
    from a foundation, its suit; ``dst`` a pile (0-based), 0 otherwise."""

    src_kind: str
    src: int
    dst_kind: str
    dst: int

    @property
    def notation(self) -> str:
        return format_notation(self.src_kind, self.src, self.dst_kind, self.dst)


def format_notation(src_kind: str, src: int, dst_kind: str, dst: int) -> str:
    if src_kind == STOCK or dst_kind == STOCK:
        return STOCK
    head = {WASTE: WASTE, PILE: PILE_DIGITS[src % NUM_PILES], HOME: HOME + SUIT_LETTERS[src % 4]}[src_kind]
    return head + (HOME if dst_kind == HOME else PILE_DIGITS[dst])


def _malformed(text: str) -> IllegalMove:
    return IllegalMove(
        f"{text!r} is not a move: s turns the stock; w3 or wh plays the waste's card; 3h sends "
        "pile 3's card home; 35 moves from pile 3 to pile 5; hs3 brings the ♠ foundation's card "
        "back to pile 3",
        "malformed",
        text=text,
    )


def _pile(ch: str, text: str) -> int:
    if ch in PILE_DIGITS:
        return PILE_DIGITS.index(ch)
    if ch.isascii() and ch.isdigit():
        raise IllegalMove(
            f"there is no pile {ch}: they are numbered 1 to {NUM_PILES}", "no_such_pile", number=int(ch)
        )
    raise _malformed(text)


def _destination(ch: str, text: str) -> tuple[str, int]:
    if ch == HOME:
        return HOME, 0
    if ch == WASTE:
        raise IllegalMove("no card goes back to the waste", "to_waste")
    if ch == STOCK:
        raise IllegalMove("no card goes back to the stock: s only turns it", "to_stock")
    return PILE, _pile(ch, text)


@lru_cache(maxsize=1024)
def parse_notation(text: str) -> ParsedMove:
    """Read one move; ``IllegalMove`` (``malformed``, ``no_such_pile`` ...) if it is not notation."""
    t = text.strip().lower().replace(" ", "")
    if t == STOCK:
        return ParsedMove(STOCK, 0, WASTE, 0)
    if len(t) == 2 and t[0] == WASTE:
        return ParsedMove(WASTE, 0, *_destination(t[1], text))
    if len(t) == 2 and t[0] == STOCK:
        raise IllegalMove("the stock only turns (s): its cards play from the waste (w3, wh)", "from_stock")
    if len(t) == 2 and t[0] == HOME and t[1] in PILE_DIGITS:
        raise IllegalMove(
            f"say which foundation's card goes to pile {t[1]}: hs{t[1]}, hh{t[1]}, hd{t[1]} or hc{t[1]}",
            "which_foundation",
            pile=int(t[1]),
        )
    if len(t) == 3 and t[0] == HOME and t[1] in SUIT_LETTERS:
        dst_kind, dst = _destination(t[2], text)
        if dst_kind == HOME:
            raise IllegalMove("a foundation's card goes back to a pile, not home again", "home_to_home")
        return ParsedMove(HOME, SUIT_LETTERS.index(t[1]), PILE, dst)
    if len(t) == 2 and t[0].isascii() and t[0].isdigit():
        src = _pile(t[0], text)
        dst_kind, dst = _destination(t[1], text)
        if dst_kind == PILE and dst == src:
            raise IllegalMove(f"pile {src + 1} cannot move onto itself", "same_pile", pile=src + 1)
        return ParsedMove(PILE, src, dst_kind, dst)
    raise _malformed(text)


def place_name(kind: str, index: int) -> str:
    if kind == STOCK:
        return "the stock"
    if kind == WASTE:
        return "the waste"
    if kind == PILE:
        return f"pile {index + 1}"
    return "its foundation"
