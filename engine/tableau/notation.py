"""FreeCell-family move notation (Jeu du Boulanger, FreeCell): standard FreeCell notation plus
fc-solve's ``v`` count.

Columns ``1``-``8``, free cells ``a``-``d``, foundation ``h``: ``3h``, ``a5``,
``27``, ``3a``, ``18v2``. Parsing here is purely textual; whether a move is
legal is decided by the position.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.errors import IllegalMove

COLUMN, CELL, FOUNDATION = "c", "f", "h"
CELL_LETTERS = "abcd"
COLUMN_DIGITS = "12345678"
MAX_GROUP = 52
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True, slots=True)
class ParsedMove:
    src_kind: str
    src: int
    dst_kind: str
    dst: int
    count: int | None  # explicit ``v`` count, if any


def _malformed(text: str) -> IllegalMove:
    return IllegalMove(
        f"{text!r} is not a move: write the source then the destination, e.g. 3h, a5, 27, 3a or 18v2",
        "malformed",
        text=text,
    )


def _place(ch: str, cells: int, text: str, *, allow_home: bool) -> tuple[str, int]:
    if "1" <= ch <= "8":
        return COLUMN, ord(ch) - ord("1")
    if ch in CELL_LETTERS:
        index = CELL_LETTERS.index(ch)
        if index >= cells:
            raise IllegalMove(
                f"there is no free cell {ch} in a game with {cells} free {'cell' if cells == 1 else 'cells'}",
                "no_such_cell",
                cell=ch,
                cells=cells,
            )
        return CELL, index
    if ch == "h":
        if allow_home:
            return FOUNDATION, 0
        raise IllegalMove(
            "cards never leave the foundations (only undo takes one back)",
            "foundation_final",
        )
    raise _malformed(text)


@lru_cache(maxsize=4096)
def parse_notation(text: str, cells: int) -> ParsedMove:
    """Read one move; raise ``IllegalMove`` (reason ``malformed`` …) if it is not notation."""
    t = text.strip().lower()
    if len(t) < 2 or len(t) > 8:
        raise _malformed(text)
    src_kind, src = _place(t[0], cells, text, allow_home=False)
    dst_kind, dst = _place(t[1], cells, text, allow_home=True)
    count = None
    if len(t) > 2:
        if t[2] != "v" or len(t) == 3:
            raise _malformed(text)
        # ASCII hex digits only: int(..., 16) would also take "+2", "0x2", "1_0" or "١".
        if not set(t[3:]) <= _HEX:
            raise _malformed(text)
        count = int(t[3:], 16)
        if not 1 <= count <= MAX_GROUP or dst_kind != COLUMN or src_kind != COLUMN:
            raise IllegalMove(
                f"{text!r}: a count (v…) only goes with a column-to-column move of 1 to 52 cards",
                "bad_count",
                text=text,
            )
    if src_kind == dst_kind and src == dst and dst_kind != FOUNDATION:
        raise IllegalMove(f"{text!r} moves a card onto its own place", "same_place", text=text)
    if src_kind == CELL and dst_kind == CELL:
        raise IllegalMove(
            "a card in a free cell can only go to a column or to its foundation",
            "cell_to_cell",
        )
    return ParsedMove(src_kind, src, dst_kind, dst, count)


def place_name(kind: str, index: int) -> str:
    if kind == COLUMN:
        return f"column {index + 1}"
    if kind == CELL:
        return f"free cell {CELL_LETTERS[index]}"
    return "its foundation"


def format_notation(src_kind: str, src: int, dst_kind: str, dst: int, count: int, to_empty: bool) -> str:
    """The canonical text of a resolved move (a count only into an empty column)."""
    a = str(src + 1) if src_kind == COLUMN else CELL_LETTERS[src]
    if dst_kind == FOUNDATION:
        return a + "h"
    b = str(dst + 1) if dst_kind == COLUMN else CELL_LETTERS[dst]
    if to_empty and count > 1:
        return f"{a}{b}v{count:x}"
    return a + b
