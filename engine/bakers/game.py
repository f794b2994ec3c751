"""Jeu du Boulanger as a ``Game``: score, undo records, tap and double tap."""

from __future__ import annotations

from engine.bakers.boardtext import export_board
from engine.bakers.notation import CELL, CELL_LETTERS, COLUMN, FOUNDATION, ParsedMove, parse_notation
from engine.bakers.position import EMPTY, BakersMove, Position
from engine.cards import card_label, rank_of
from engine.codes import GameCode
from engine.errors import IllegalMove
from engine.game import Game, Outcome


def _source(text: str, cells: int) -> tuple[str, int]:
    t = text.strip().lower()
    if len(t) == 1 and "1" <= t <= "8":
        return COLUMN, int(t) - 1
    if len(t) == 1 and t in CELL_LETTERS[:cells]:
        return CELL, CELL_LETTERS.index(t)
    raise IllegalMove(
        f"{text!r} is not a column (1-8) or a free cell ({CELL_LETTERS[:cells]})",
        "malformed",
        text=text,
    )


def _source_text(kind: str, index: int) -> str:
    return str(index + 1) if kind == COLUMN else CELL_LETTERS[index]


class BakersGame(Game):
    """Baker's Game: FreeCell's layout, building down in the same suit."""

    kind = "bakers"
    title = "Jeu du Boulanger"

    def __init__(self, code: GameCode) -> None:
        super().__init__(code)
        assert code.cells is not None
        self.position = Position.deal(code.deal, code.cells)
        self._score = 0

    @property
    def cells(self) -> int:
        return self.position.num_cells

    @property
    def score(self) -> int:
        return self._score

    @property
    def is_won(self) -> bool:
        return self.position.is_won()

    @property
    def outcome(self) -> Outcome | None:
        if self.position.is_won():
            return Outcome("won", "all 52 cards are on the foundations")
        if not self.position.has_legal_move():
            return Outcome("lost", "no legal move is left: undo or start over")
        return None

    @property
    def last_move(self) -> BakersMove | None:
        return self._undo[-1] if self._undo else None

    def legal_moves(self) -> list[str]:
        if self.position.is_won():
            return []
        return [m.notation for m in self.position.legal_moves()]

    def legal_move_objects(self) -> list[BakersMove]:
        return [] if self.position.is_won() else self.position.legal_moves()

    def resolve(self, text: str) -> BakersMove:
        """The move a notation means here, checked but not played."""
        return self.position.resolve(parse_notation(text, self.cells))

    def describe(self, text: str) -> str:
        return self.resolve(text).describe()

    def board_text(self) -> str:
        return export_board(self.position)

    def _apply(self, text: str) -> tuple[BakersMove, BakersMove]:
        move = self.resolve(text)
        self.position.apply(move)
        self._score += move.points
        return move, move

    def _revert(self, record: BakersMove) -> BakersMove:
        self.position.revert(record)
        self._score = max(0, self._score - record.points)
        return record

    # -- taps -------------------------------------------------------------------
    def tap(self, source: str) -> BakersMove:
        """Send a top card (column or cell) to its foundation, or say why not."""
        kind, index = _source(source, self.cells)
        return self.play(_source_text(kind, index) + "h")

    def double_tap_target(self, source: str) -> str:
        """Where a double tap sends a card: foundation, longest fitting column,
        leftmost empty column, leftmost free cell. Returns the notation."""
        kind, index = _source(source, self.cells)
        pos = self.position
        src = _source_text(kind, index)
        card = pos.cols[index][-1] if kind == COLUMN and pos.cols[index] else None
        if kind == CELL:
            card = pos.cells[index] if pos.cells[index] != EMPTY else None
        if card is None:
            pos.resolve(ParsedMove(kind, index, FOUNDATION, 0, None))  # raises "empty"
            raise AssertionError("unreachable")
        if rank_of(card) == pos.found[card // 13] + 1:
            return src + "h"
        best = None
        for d, dest in enumerate(pos.cols):
            if (kind, index) == (COLUMN, d) or not dest:
                continue
            if dest[-1] == card + 1 and dest[-1] % 13 and (best is None or len(dest) > len(pos.cols[best])):
                best = d
        if best is not None:
            return f"{src}{best + 1}"
        for d, dest in enumerate(pos.cols):
            if not dest and (kind, index) != (COLUMN, d):
                if kind == COLUMN and len(pos.cols[index]) == 1:
                    break  # moving a lone card to another empty column changes nothing
                return f"{src}{d + 1}"
        if kind == COLUMN:
            for i, held in enumerate(pos.cells):
                if held == EMPTY:
                    return f"{src}{CELL_LETTERS[i]}"
        raise IllegalMove(f"{card_label(card)} has nowhere to go", "nowhere_to_go", card=card_label(card))

    def double_tap(self, source: str) -> BakersMove:
        return self.play(self.double_tap_target(source))
