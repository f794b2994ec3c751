"""Calculation move notation: ``sf2``, ``sw3``, ``w3f1``; a bare ``f2`` / ``w3`` means the turned card.

Parsing is purely textual; whether the move is allowed is for the position.
Error params are numbers and card labels only, so front ends can translate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engine.errors import IllegalMove

TURNED, WASTE, FOUNDATION = "s", "w", "f"
_PLACE = re.compile(r"([swf])([0-9]*)")
_DIGITS = frozenset("0123456789")


@dataclass(frozen=True, slots=True)
class ParsedMove:
    src_kind: str  # "s" or "w"
    src: int  # waste pile index (0-based); 0 for the turned card
    dst_kind: str  # "w" or "f"
    dst: int  # 0-based

    @property
    def notation(self) -> str:
        return format_notation(self.src_kind, self.src, self.dst_kind, self.dst)


def format_notation(src_kind: str, src: int, dst_kind: str, dst: int) -> str:
    head = TURNED if src_kind == TURNED else f"{WASTE}{src + 1}"
    return f"{head}{dst_kind}{dst + 1}"


def _malformed(text: str) -> IllegalMove:
    return IllegalMove(
        f"{text!r} is not a move: write the source then the destination, e.g. sf2, sw3, w3f1, "
        "or just f2 / w3 for the turned card",
        "malformed",
        text=text,
    )


def _index(kind: str, digits: str, text: str) -> int:
    # ASCII digits only (str.isdigit() also takes "²" or "١").
    if not digits or not set(digits) <= _DIGITS:
        raise _malformed(text)
    number = int(digits)
    if not 1 <= number <= 4:
        reason = "no_such_pile" if kind == WASTE else "no_such_foundation"
        what = "waste pile" if kind == WASTE else "foundation"
        raise IllegalMove(f"there is no {what} {number}: they are numbered 1 to 4", reason, number=number)
    return number - 1


@lru_cache(maxsize=1024)
def parse_notation(text: str) -> ParsedMove:
    """Read one move; raise ``IllegalMove`` (``malformed``, ``no_such_pile`` …) if it is not notation."""
    t = text.strip().lower().replace(" ", "")
    parts = _PLACE.findall(t)
    if not parts or "".join(k + d for k, d in parts) != t or len(parts) > 2:
        raise _malformed(text)
    if len(parts) == 1:
        if parts[0][0] == TURNED:
            raise _malformed(text)
        parts = [(TURNED, ""), *parts]
    (src_kind, src_digits), (dst_kind, dst_digits) = parts
    if src_kind == FOUNDATION:
        raise IllegalMove("cards never leave the foundations (only undo takes one back)", "foundation_final")
    if dst_kind == TURNED:
        raise IllegalMove("nothing can be put back on the stock", "to_stock")
    if src_kind == TURNED:
        if src_digits:
            raise _malformed(text)
        src = 0
    else:
        src = _index(WASTE, src_digits, text)
    dst = _index(dst_kind, dst_digits, text)
    if src_kind == WASTE and dst_kind == WASTE:
        raise IllegalMove(
            "a waste pile's top card can only go to a foundation, never to another waste pile",
            "waste_to_waste",
            src=src + 1,
            dst=dst + 1,
        )
    return ParsedMove(src_kind, src, dst_kind, dst)


def place_name(kind: str, index: int) -> str:
    if kind == TURNED:
        return "the turned card"
    if kind == WASTE:
        return f"waste pile {index + 1}"
    return f"foundation {index + 1}"
