"""Build Jeu du Boulanger positions for tests from a few named columns and cells."""

from __future__ import annotations

from engine.bakers.position import EMPTY, Position
from engine.cards import parse_card


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def build(
    columns: dict[int, str],
    *,
    cells: int = 4,
    held: str = "",
    empty: tuple[int, ...] = (),
    home: dict[str, int] | None = None,
) -> Position:
    """Columns 1-8 given as text (bottom first); every other card not home or held
    is spread over the columns that are neither given nor in ``empty``."""
    home = home or {}
    found = [home.get(s, 0) for s in "SHDC"]
    cols: list[list[int]] = [[] for _ in range(8)]
    for number, text in columns.items():
        cols[number - 1] = cards(text)
    cell_cards = cards(held)
    used = {c for col in cols for c in col} | set(cell_cards)
    used |= {s * 13 + r for s in range(4) for r in range(found[s])}
    rest = [c for c in range(52) if c not in used]
    fillers = [i for i in range(8) if i + 1 not in columns and i + 1 not in empty]
    assert fillers or not rest, "no column left for the other cards"
    for k, card in enumerate(rest):
        cols[fillers[k % len(fillers)]].append(card)
    cell_list = cell_cards + [EMPTY] * (cells - len(cell_cards))
    pos = Position(cols, cell_list, found)
    assert sorted(pos.all_cards()) == list(range(52))
    return pos
