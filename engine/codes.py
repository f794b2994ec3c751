"""Game codes: ``BK1-C4-AAAAA24`` and ``CA1-AAAAA24`` (SPEC §3).

A code is the whole identity of a deal; parsing refuses anything else with a
message that names the wrong part (game, version, cells, length, alphabet).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import CodeError

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
DEAL_DIGITS = 7
MAX_DEAL = 32**DEAL_DIGITS - 1  # 35 bits
MAX_CODE_INPUT = 64
GAME_PREFIXES = {"BK": "bakers", "CA": "calculation"}
KIND_PREFIXES = {kind: prefix for prefix, kind in GAME_PREFIXES.items()}
VERSIONS = {"bakers": (1,), "calculation": (1,)}
CELL_COUNTS = (4, 2, 1)


@dataclass(frozen=True, slots=True)
class GameCode:
    kind: str  # "bakers" or "calculation"
    version: int
    deal: int
    cells: int | None = None  # free cells, Jeu du Boulanger only

    def __str__(self) -> str:
        head = f"{KIND_PREFIXES[self.kind]}{self.version}"
        cells = f"-C{self.cells}" if self.kind == "bakers" else ""
        return f"{head}{cells}-{encode_deal(self.deal)}"


def encode_deal(deal: int) -> str:
    if not 0 <= deal <= MAX_DEAL:
        raise ValueError(f"deal number out of range 0..{MAX_DEAL}: {deal}")
    out = []
    for _ in range(DEAL_DIGITS):
        out.append(ALPHABET[deal & 31])
        deal >>= 5
    return "".join(reversed(out))


def decode_deal(text: str) -> int:
    if len(text) != DEAL_DIGITS:
        raise CodeError(
            f"the deal part {text!r} must have {DEAL_DIGITS} characters, not {len(text)}",
            "length",
            text=text,
        )
    value = 0
    for ch in text:
        digit = ALPHABET.find(ch)
        if digit < 0:
            raise CodeError(
                f"the deal part {text!r} may only use A-Z and 2-7 (found {ch!r})",
                "alphabet",
                text=text,
                char=ch,
            )
        value = value * 32 + digit
    return value


def make_code(kind: str, deal: int, cells: int | None = None, version: int = 1) -> GameCode:
    if kind == "bakers":
        cells = 4 if cells is None else cells
        if cells not in CELL_COUNTS:
            raise ValueError(f"free cells must be 4, 2 or 1, not {cells}")
    else:
        cells = None
    encode_deal(deal)
    return GameCode(kind, version, deal, cells)


def parse_code(text: str) -> GameCode:
    """Parse a code, case-insensitive, surrounding spaces allowed."""
    if not isinstance(text, str):
        raise CodeError("a game code must be text", "game")
    if len(text) > MAX_CODE_INPUT:
        raise CodeError(
            f"that is too long for a game code ({len(text)} characters); codes look like BK1-C4-AAAAA24",
            "length",
        )
    raw = text.strip().upper()
    parts = raw.split("-")
    head = parts[0]
    kind = GAME_PREFIXES.get(head[:2])
    if kind is None:
        raise CodeError(
            f"{text.strip()!r} is not a game code: it must start with BK (Jeu du Boulanger) "
            "or CA (Calculation)",
            "game",
            text=text.strip(),
        )
    version_text = head[2:]
    if not version_text.isdigit() or int(version_text) not in VERSIONS[kind]:
        known = ", ".join(str(v) for v in VERSIONS[kind])
        raise CodeError(
            f"unknown version {version_text!r} in {raw!r}: this bot knows version {known}",
            "version",
            version=version_text,
        )
    version = int(version_text)
    cells = None
    if kind == "bakers":
        if len(parts) != 3:
            raise CodeError(f"{raw!r} must have three parts, like BK1-C4-AAAAA24", "length", text=raw)
        cell_text = parts[1]
        if cell_text not in ("C4", "C2", "C1"):
            raise CodeError(f"the free-cell part {cell_text!r} must be C4, C2 or C1", "cells", text=cell_text)
        cells = int(cell_text[1])
    elif len(parts) != 2:
        raise CodeError(f"{raw!r} must have two parts, like CA1-AAAAA24", "length", text=raw)
    return GameCode(kind, version, decode_deal(parts[-1]), cells)
