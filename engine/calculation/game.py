"""Calculation as a ``Game``: undo that never un-turns a card, outcome, text and JSON forms."""

from __future__ import annotations

from typing import Any

from engine.calculation.notation import parse_notation
from engine.calculation.position import CalculationMove, Position
from engine.calculation.rules import NUM_FOUNDATIONS
from engine.cards import card_text, rank_text
from engine.codes import GameCode
from engine.errors import IllegalMove
from engine.game import Game, Outcome


class CalculationGame(Game):
    """Calculation (Broken Intervals): four foundations building by 1, 2, 3 and 4."""

    kind = "calculation"
    title = "Calculation"

    def __init__(self, code: GameCode) -> None:
        super().__init__(code)
        self.position = Position.deal(code.deal)

    # -- what players see ---------------------------------------------------------
    @property
    def foundations(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(f) for f in self.position.foundations)

    @property
    def waste(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(w) for w in self.position.waste)

    @property
    def turned(self) -> int | None:
        return self.position.turned

    @property
    def stock_count(self) -> int:
        return self.position.stock_count

    def needs(self, i: int) -> int | None:
        return self.position.needs(i)

    @staticmethod
    def step(i: int) -> int:
        """Foundation ``i`` (0-based) builds by ``i + 1``."""
        return i + 1

    def unseen_cards(self) -> frozenset[int]:
        """Cards still face down: all the hint player may know is that they are these."""
        pos = self.position
        return frozenset(pos.stock[pos.turn + 1 :])

    @property
    def last_move(self) -> CalculationMove | None:
        return self._undo[-1] if self._undo else None

    # -- Game interface -------------------------------------------------------------
    @property
    def score(self) -> int:
        return self.position.score()

    @property
    def outcome(self) -> Outcome | None:
        pos = self.position
        if pos.is_won():
            return Outcome("won", "all four foundations end on K")
        if pos.turned is None and not pos.has_foundation_move():
            return Outcome("lost", "the stock is used up and no waste card fits a foundation")
        return None

    def legal_moves(self) -> list[str]:
        return [m.notation for m in self.legal_move_objects()]

    def legal_move_objects(self) -> list[CalculationMove]:
        return [] if self.position.is_won() else self.position.legal_moves()

    def resolve(self, text: str) -> CalculationMove:
        """The move a notation means here, checked but not played."""
        return self.position.resolve(parse_notation(text))

    def describe(self, text: str) -> str:
        return self.resolve(text).describe()

    def hint(
        self, *, rollouts: int | None = None, seed: int = 0, time_limit: float | None = None
    ) -> str | None:
        """The hint player's move, or None when no move is left; it sees only what the player
        sees. Default: the fast setting (deterministic, ~0.1 s a decision); ``time_limit``
        bounds the thinking time. See ``engine.calculation.hints.best_move``."""
        from engine.calculation.hints import FAST_ROLLOUTS, best_move

        return best_move(self, rollouts=rollouts or FAST_ROLLOUTS, seed=seed, time_limit=time_limit)

    def board_text(self) -> str:
        pos = self.position
        lines = [f"{self.title} {self.code}"]
        for i, pile in enumerate(pos.foundations):
            need = pos.needs(i)
            tail = "complete" if need is None else f"needs {rank_text(need)}"
            lines.append(f"f{i + 1} +{i + 1}: {' '.join(map(card_text, pile))}  ({tail})")
        for j, pile in enumerate(pos.waste):
            lines.append(f"w{j + 1}: {' '.join(map(card_text, pile))}".rstrip())
        turned = pos.turned
        lines.append(f"turned: {card_text(turned) if turned is not None else '-'}")
        lines.append(f"stock: {pos.stock_count}")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        pos = self.position
        data.update(
            foundations=[[card_text(c) for c in f] for f in pos.foundations],
            needs=[pos.needs(i) for i in range(NUM_FOUNDATIONS)],
            waste=[[card_text(c) for c in w] for w in pos.waste],
            turned=card_text(pos.turned) if pos.turned is not None else None,
            stock_count=pos.stock_count,
        )
        return data

    # -- undo ---------------------------------------------------------------------------
    def _apply(self, text: str) -> tuple[CalculationMove, CalculationMove]:
        move = self.resolve(text)
        self.position.apply(move)
        return move, move

    def _revert(self, record: CalculationMove) -> CalculationMove:
        if record.turned_next:
            raise IllegalMove(
                f"{record.notation} cannot be undone: a new card was turned after it, and undo "
                "never turns a card back face down",
                "undo_would_unturn",
                move=record.notation,
            )
        self.position.revert(record)
        return record
