"""FreeCell-family positions as text in fc-solve's board format, both ways.

Export hands any position to fc-solve (or a test's golden file); import reads
one back. One line per column, bottom card first, with optional
``Foundations:`` and ``Freecells:`` lines; tens may be ``T`` or ``10``.
"""

from __future__ import annotations

from typing import TypeVar

from engine.cards import RANKS, SUITS, card_text, parse_card
from engine.errors import BoardTextError
from engine.tableau.position import EMPTY, NUM_COLUMNS, TableauPosition

MAX_BOARD_TEXT = 4096
P = TypeVar("P", bound=TableauPosition)


def _rank_or_zero(n: int) -> str:
    return "0" if n == 0 else RANKS[n - 1]


def export_board(pos: TableauPosition) -> str:
    found = " ".join(f"{SUITS[s]}-{_rank_or_zero(pos.found[s])}" for s in range(4))
    lines = [f"Foundations: {found}"]
    if pos.cells:
        cells = " ".join("-" if c == EMPTY else card_text(c) for c in pos.cells)
        lines.append(f"Freecells: {cells}")
    for col in pos.cols:
        lines.append((": " + " ".join(card_text(c) for c in col)).rstrip())
    return "\n".join(lines) + "\n"


def _card(token: str) -> int:
    try:
        return parse_card(token)
    except ValueError as exc:
        raise BoardTextError(str(exc), "board_card", token=token) from None


def read_board(text: str, cells: int | None, cls: type[P]) -> P:
    """Read a board as a ``cls`` position; ``cells`` (1 to 4) defaults to the Freecells line's
    length, else 4."""
    if len(text) > MAX_BOARD_TEXT:
        raise BoardTextError("board text is too long", "board_size")
    found = [0, 0, 0, 0]
    cell_cards: list[int] | None = None
    cols: list[list[int]] = []
    for raw in text.splitlines():
        line = raw.strip()
        low = line.lower()
        if low.startswith("foundations:"):
            for token in line.split(":", 1)[1].split():
                suit_text, _, rank_text = token.upper().partition("-")
                if suit_text not in SUITS or not rank_text:
                    raise BoardTextError(f"bad foundation {token!r}", "board_foundation", token=token)
                rank = 0 if rank_text == "0" else 10 if rank_text == "10" else RANKS.find(rank_text) + 1
                if rank < 0 or (rank == 0 and rank_text != "0"):
                    raise BoardTextError(f"bad foundation {token!r}", "board_foundation", token=token)
                found[SUITS.index(suit_text)] = rank
        elif low.startswith("freecells:"):
            tokens = line.split(":", 1)[1].split()
            cell_cards = [EMPTY if t == "-" else _card(t) for t in tokens]
        elif line.startswith(":") or line:
            body = line[1:] if line.startswith(":") else line
            cols.append([_card(t) for t in body.split()])
        # blank lines are ignored
    if len(cols) > NUM_COLUMNS:
        raise BoardTextError(f"{len(cols)} columns; {cls.GAME_TITLE} has {NUM_COLUMNS}", "board_columns")
    while len(cols) < NUM_COLUMNS:
        cols.append([])
    if cells is None:
        cells = len(cell_cards) if cell_cards else 4
    if cell_cards is None:
        cell_cards = []
    cell_cards = [c for c in cell_cards]
    held = [c for c in cell_cards if c != EMPTY]
    if len(held) > cells or len(cell_cards) > 4:
        raise BoardTextError(f"more cards in free cells than the {cells} cells in play", "board_cells")
    cell_cards = (
        (cell_cards + [EMPTY] * cells)[:cells]
        if len(cell_cards) <= cells
        else held + [EMPTY] * (cells - len(held))
    )
    pos = cls(cols, cell_cards, found)
    cards = pos.all_cards()
    if len(cards) != 52 or len(set(cards)) != 52:
        missing = 52 - len(set(cards))
        raise BoardTextError(
            f"a board needs each of the 52 cards exactly once ({len(cards)} cards, {missing} missing)",
            "board_cards",
        )
    return pos
