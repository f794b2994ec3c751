"""Game codes: ``BK1-C4-AAAAA24``, ``CA1-AAAAA24`` (SPEC §3), ``FC1-C4-MS11982``, ``KL1-D3-AAAAA24``.

A code is the whole identity of a deal; parsing refuses anything else with a
message that names the wrong part (game, version, cells, length, alphabet).

Which prefixes, versions, options and deal parts exist is not written here:
each game class declares them and ``engine.registry.register`` hands them to
``register_code``, so a new game needs no change in this module. A deal part is
either the project's 7 base32 characters (``BASE32``) or a game's own numbered
deals (``NumberedDeals``: ``MS11982`` is Microsoft's deal 11982); a game with
numbered deals also takes a bare number, ``11982`` or ``#11982``, as shorthand
when the caller says which game it is starting (``parse_code(text, kind=...)``).

A game's one option, when its codes carry one, is a letter and a number (``OptionPart``):
free cells ``C4`` by default, or a game's own (``D3``: cards drawn). ``GameCode.cells`` holds
its number whatever the letter, and the game's ``cell_counts`` its allowed numbers.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass

from engine.errors import CodeError

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
DEAL_DIGITS = 7
MAX_DEAL = 32**DEAL_DIGITS - 1  # 35 bits
MAX_CODE_INPUT = 64
CELL_COUNTS = (4, 2, 1)
MAX_SHORTHAND = 16  # "#1000000" and spaces: longer is not a deal number


@dataclass(frozen=True, slots=True)
class NumberedDeals:
    """A deal part that is a tag and a decimal number in a range: ``MS11982`` (1 to 1,000,000)."""

    tag: str
    low: int
    high: int
    source: str  # who numbered them, for messages (a game's own words)

    def write(self, deal: int) -> str:
        return f"{self.tag}{deal}"

    def check(self, deal: int) -> None:
        if not self.low <= deal <= self.high:
            raise ValueError(f"deal number out of range {self.low}..{self.high}: {deal}")

    def read(self, text: str) -> int:
        number = text[len(self.tag) :]
        if not text.startswith(self.tag) or not _is_ascii_number(number):
            raise CodeError(
                f"the deal part {text!r} must be {self.tag} and a deal number, like {self.tag}{self.low}",
                "deal_number",
                text=text,
            )
        if len(number) > len(str(self.high)) or number != str(int(number)) or not self.check_ok(int(number)):
            raise CodeError(
                f"the deal part {text!r} must name one of {self.source}'s deals, "
                f"{self.tag}{self.low} to {self.tag}{self.high} (no leading zeros)",
                "deal_range",
                text=text,
                low=self.low,
                high=self.high,
            )
        return int(number)

    def check_ok(self, deal: int) -> bool:
        return self.low <= deal <= self.high

    def example(self) -> str:
        return f"{self.tag}{self.low}"


@dataclass(frozen=True, slots=True)
class Base32Deals:
    """The project's deal part: 7 characters of RFC 4648 base32, a 35-bit number."""

    low: int = 0
    high: int = 32**DEAL_DIGITS - 1

    def write(self, deal: int) -> str:
        return encode_deal(deal)

    def check(self, deal: int) -> None:
        encode_deal(deal)

    def read(self, text: str) -> int:
        return decode_deal(text)

    def example(self) -> str:
        return "AAAAA24"


DealForm = Base32Deals | NumberedDeals


@dataclass(frozen=True, slots=True)
class OptionPart:
    """How a code writes its option: ``letter`` and the number (``C4``). A refusal names the
    part: ``part`` for machines (``CodeError.part``, the reason ``code_<part>``), ``name`` for
    people ("the free-cell part 'C3' must be ..."); ``values`` says what the number counts
    ("free cells must be 4, 2 or 1")."""

    letter: str
    part: str
    name: str
    values: str

    def write(self, value: int) -> str:
        return f"{self.letter}{value}"

    def refusal(self, text: str, values: tuple[int, ...]) -> CodeError:
        allowed = [self.write(n) for n in values]
        return CodeError(
            f"the {self.name} part {text!r} must be {_either(allowed)}",
            self.part,
            text=text,
            allowed=", ".join(allowed),
        )


CELLS = OptionPart("C", "cells", "free-cell", "free cells")
BASE32 = Base32Deals()
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
    cell_counts: tuple[int, ...] = CELL_COUNTS  # the first is the default
    deals: DealForm = BASE32
    option: OptionPart = CELLS  # how the option part is written, for games with one

    def example(self) -> str:
        cells = f"-{self.option.write(self.cell_counts[0])}" if self.has_cells else ""
        return f"{self.prefix}{self.versions[0]}{cells}-{self.deals.example()}"


# Registered games, by kind, in registration order.
SPECS: dict[str, CodeSpec] = {}
# Derived views kept for callers of the old module-level tables; register_code updates them.
GAME_PREFIXES: dict[str, str] = {}  # prefix -> kind
KIND_PREFIXES: dict[str, str] = {}  # kind -> prefix
VERSIONS: dict[str, tuple[int, ...]] = {}  # kind -> versions


def register_code(
    kind: str,
    prefix: str,
    *,
    title: str,
    versions: tuple[int, ...],
    has_cells: bool,
    cell_counts: tuple[int, ...] = CELL_COUNTS,
    deals: DealForm = BASE32,
    option: OptionPart = CELLS,
) -> CodeSpec:
    """Make a game's codes known (``engine.registry.register`` calls this for each game class)."""
    if len(prefix) < 2 or not set(prefix) <= _ASCII_CAPITALS:
        raise ValueError(f"a code prefix is two or more capital letters A-Z, not {prefix!r}")
    if not versions or any(v < 1 for v in versions):
        raise ValueError(f"versions must be positive numbers, not {versions!r}")
    if not cell_counts or any(not 0 <= n <= 9 for n in cell_counts):
        raise ValueError(f"option values must be 0 to 9, not {cell_counts!r}")
    if len(option.letter) != 1 or option.letter not in _ASCII_CAPITALS:
        raise ValueError(f"an option letter is one capital letter A-Z, not {option.letter!r}")
    for other in SPECS.values():
        if other.kind != kind and (other.prefix.startswith(prefix) or prefix.startswith(other.prefix)):
            raise ValueError(
                f"code prefix {prefix!r} of {kind!r} clashes with {other.prefix!r} of {other.kind!r}"
            )
    old = SPECS.get(kind)
    if old is not None:
        GAME_PREFIXES.pop(old.prefix, None)
    spec = CodeSpec(kind, prefix, title, tuple(versions), has_cells, tuple(cell_counts), deals, option)
    SPECS[kind] = spec
    GAME_PREFIXES[prefix] = kind
    KIND_PREFIXES[kind] = prefix
    VERSIONS[kind] = spec.versions
    return spec


def unregister_code(kind: str) -> None:
    """Forget a game's codes (``engine.registry.unregister``; tests that add a game for a while)."""
    spec = SPECS.pop(kind, None)
    if spec is not None:
        GAME_PREFIXES.pop(spec.prefix, None)
        KIND_PREFIXES.pop(kind, None)
        VERSIONS.pop(kind, None)


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
    # The option's number, for games whose codes have an option part: free cells (C4), or the
    # game's own option (D3: cards drawn).
    cells: int | None = None

    def __str__(self) -> str:
        spec = code_spec(self.kind)
        cells = f"-{spec.option.letter}{self.cells}" if spec.has_cells else ""
        return f"{spec.prefix}{self.version}{cells}-{spec.deals.write(self.deal)}"


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
        cells = spec.cell_counts[0] if cells is None else cells
        if cells not in spec.cell_counts:
            counts = _either([str(n) for n in spec.cell_counts])
            raise ValueError(f"{spec.option.values} must be {counts}, not {cells}")
    else:
        cells = None
    spec.deals.check(deal)
    return GameCode(kind, version, deal, cells)


def deal_range(kind: str) -> tuple[int, int]:
    """The lowest and highest deal number a game's codes can carry."""
    deals = code_spec(kind).deals
    return deals.low, deals.high


def _shorthand(text: str, kind: str, cells: int | None) -> GameCode | None:
    """``11982`` or ``#11982`` as a deal of ``kind``, if that game numbers its deals (else None)."""
    spec = code_spec(kind)
    raw = text.strip()
    if not isinstance(spec.deals, NumberedDeals) or len(raw) > MAX_SHORTHAND:
        return None
    number = raw[1:].strip() if raw.startswith("#") else raw
    if not _is_ascii_number(number):
        return None
    deals = spec.deals
    body = deals.tag + number.lstrip("0") if number.strip("0") else deals.tag + number
    deal = deals.read(body)  # a CodeError names the range
    if spec.has_cells:
        cells = spec.cell_counts[0] if cells is None else cells
        if cells not in spec.cell_counts:
            raise spec.option.refusal(spec.option.write(cells), spec.cell_counts)
    else:
        cells = None
    return GameCode(spec.kind, spec.versions[-1], deal, cells)


def _numbered_hint(text: str) -> str:
    """For a bare deal number (``11982``, ``#11982``) where a code was expected, its code in
    each game that numbers its deals so (``; <title>'s deal 11982 is <its code>``)."""
    raw = text.strip()
    number = raw[1:].strip() if raw.startswith("#") else raw
    if not _is_ascii_number(number) or len(number) > MAX_SHORTHAND:
        return ""
    codes = []
    for spec in SPECS.values():
        with suppress(CodeError):
            if (code := _shorthand(number, spec.kind, None)) is not None:
                codes.append(f"{spec.title}'s deal {code.deal} is {code}")
    return "; " + _either(codes) if codes else ""


def parse_code(text: str, *, kind: str | None = None, cells: int | None = None) -> GameCode:
    """Parse a code, case-insensitive, surrounding spaces allowed.

    With ``kind`` (the game the player is starting), a game that numbers its deals also takes
    the number alone, ``11982`` or ``#11982``, as its newest version's code with ``cells``
    free cells (default: its first cell count). A full code is parsed whatever ``kind`` says:
    the caller checks it is of the game it wanted."""
    if not isinstance(text, str):
        raise CodeError("a game code must be text", "game")
    if kind is not None and len(text) <= MAX_CODE_INPUT:
        short = _shorthand(text, kind, cells)
        if short is not None:
            return short
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
            f"{text.strip()!r} is not a game code: it must start with {starts}{_numbered_hint(text) if kind is None else ''}",
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
        if cell_text not in [spec.option.write(n) for n in spec.cell_counts]:
            raise spec.option.refusal(cell_text, spec.cell_counts)
        cells = int(cell_text[1:])
    elif len(parts) != 2:
        raise CodeError(f"{raw!r} must have two parts, like {spec.example()}", "length", text=raw)
    return GameCode(spec.kind, version, spec.deals.read(parts[-1]), cells)
