"""Game codes: ``BK1-C4-AAAAA24`` and ``CA1-AAAAA24`` (SPEC §3).

A code is the whole identity of a deal; parsing refuses anything else with a
message that names the wrong part (game, version, cells, length, alphabet).

Which prefixes, versions and cell parts exist is not written here: each game
class declares them and ``engine.registry.register`` hands them to
``register_code``, so a new game needs no change in this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import CodeError

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
DEAL_DIGITS = 7
MAX_DEAL = 32**DEAL_DIGITS - 1  # 35 bits
MAX_CODE_INPUT = 64
CELL_COUNTS = (4, 2, 1)
_ASCII_DIGITS = frozenset("0123456789")
_ASCII_CAPITALS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


@dataclass(frozen=True, slots=True)
class CodeSpec:
    """How one game's codes are written: ``BK1-C4-AAAAA24`` is prefix, version, cells, deal."""

    kind: str
    prefix: str
    title: str
    versions: tuple[int, ...]
    has_cells: bool

    def example(self) -> str:
        cells = f"-C{CELL_COUNTS[0]}" if self.has_cells else ""
        return f"{self.prefix}{self.versions[0]}{cells}-AAAAA24"


# Registered games, by kind, in registration order.
SPECS: dict[str, CodeSpec] = {}
# Derived views kept for callers of the old module-level tables; register_code updates them.
GAME_PREFIXES: dict[str, str] = {}  # prefix -> kind
KIND_PREFIXES: dict[str, str] = {}  # kind -> prefix
VERSIONS: dict[str, tuple[int, ...]] = {}  # kind -> versions


def register_code(
    kind: str, prefix: str, *, title: str, versions: tuple[int, ...], has_cells: bool
) -> CodeSpec:
    """Make a game's codes known (``engine.registry.register`` calls this for each game class)."""
    if len(prefix) < 2 or not set(prefix) <= _ASCII_CAPITALS:
        raise ValueError(f"a code prefix is two or more capital letters A-Z, not {prefix!r}")
    if not versions or any(v < 1 for v in versions):
        raise ValueError(f"versions must be positive numbers, not {versions!r}")
    for other in SPECS.values():
        if other.kind != kind and (other.prefix.startswith(prefix) or prefix.startswith(other.prefix)):
            raise ValueError(
                f"code prefix {prefix!r} of {kind!r} clashes with {other.prefix!r} of {other.kind!r}"
            )
    old = SPECS.get(kind)
    if old is not None:
        GAME_PREFIXES.pop(old.prefix, None)
    spec = CodeSpec(kind, prefix, title, tuple(versions), has_cells)
    SPECS[kind] = spec
    GAME_PREFIXES[prefix] = kind
    KIND_PREFIXES[kind] = prefix
    VERSIONS[kind] = spec.versions
    return spec


def code_spec(kind: str) -> CodeSpec:
    spec = SPECS.get(kind)
    if spec is None:
        known = ", ".join(SPECS) or "none"
        raise ValueError(f"unknown game {kind!r} (registered: {known})")
    return spec


def _either(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _is_ascii_number(text: str) -> bool:
    return bool(text) and set(text) <= _ASCII_DIGITS


@dataclass(frozen=True, slots=True)
class GameCode:
    kind: str  # a registered kind: "bakers", "calculation"
    version: int
    deal: int
    cells: int | None = None  # free cells, for games whose codes have a cell part

    def __str__(self) -> str:
        spec = code_spec(self.kind)
        cells = f"-C{self.cells}" if spec.has_cells else ""
        return f"{spec.prefix}{self.version}{cells}-{encode_deal(self.deal)}"


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
    spec = code_spec(kind)
    if version not in spec.versions:
        raise ValueError(f"{spec.title} has no code version {version}")
    if spec.has_cells:
        cells = CELL_COUNTS[0] if cells is None else cells
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
    specs = list(SPECS.values())
    if len(text) > MAX_CODE_INPUT:
        looks = " or ".join(s.example() for s in specs[:1])
        raise CodeError(
            f"that is too long for a game code ({len(text)} characters); codes look like {looks}",
            "length",
        )
    raw = text.strip().upper()
    parts = raw.split("-")
    head = parts[0]
    matching = [s for s in specs if head.startswith(s.prefix)]
    if not matching:
        starts = _either([f"{s.prefix} ({s.title})" for s in specs]) if specs else "a registered game"
        raise CodeError(
            f"{text.strip()!r} is not a game code: it must start with {starts}",
            "game",
            text=text.strip(),
        )
    spec = max(matching, key=lambda s: len(s.prefix))
    version_text = head[len(spec.prefix) :]
    # ASCII digits only: str.isdigit() also accepts "²" or "١", which int() then refuses or reads.
    if not _is_ascii_number(version_text) or int(version_text) not in spec.versions:
        known = ", ".join(str(v) for v in spec.versions)
        raise CodeError(
            f"unknown version {version_text!r} in {raw!r}: this bot knows version {known}",
            "version",
            version=version_text,
        )
    version = int(version_text)
    cells = None
    if spec.has_cells:
        if len(parts) != 3:
            raise CodeError(f"{raw!r} must have three parts, like {spec.example()}", "length", text=raw)
        cell_text = parts[1]
        allowed = [f"C{n}" for n in CELL_COUNTS]
        if cell_text not in allowed:
            raise CodeError(
                f"the free-cell part {cell_text!r} must be {_either(allowed)}", "cells", text=cell_text
            )
        cells = int(cell_text[1:])
    elif len(parts) != 2:
        raise CodeError(f"{raw!r} must have two parts, like {spec.example()}", "length", text=raw)
    return GameCode(spec.kind, version, decode_deal(parts[-1]), cells)
