"""The interface both games share: play, undo, legal moves, score, outcome.

A game's persistent form is its code plus its action log (``moves``), where an
undo is the action ``"undo"``. Replaying the log rebuilds the identical
position, score and undo history, so storing those two fields is enough.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.codes import GameCode
from engine.errors import IllegalMove

UNDO = "undo"
UNDO_LIMIT = 100
MAX_MOVE_INPUT = 32


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``result`` is ``"won"`` or ``"lost"``."""

    result: str
    reason: str

    @property
    def won(self) -> bool:
        return self.result == "won"


class Game(ABC):
    """One player's game: a position, its action log and its undo stack."""

    kind: ClassVar[str]
    title: ClassVar[str]

    def __init__(self, code: GameCode) -> None:
        self._code = code
        self._log: list[str] = []
        self._undo: deque[Any] = deque(maxlen=UNDO_LIMIT)

    # -- identity and history -------------------------------------------------
    @property
    def code(self) -> str:
        return str(self._code)

    @property
    def game_code(self) -> GameCode:
        return self._code

    @property
    def moves(self) -> tuple[str, ...]:
        """The action log: canonical move notations and ``"undo"`` entries."""
        return tuple(self._log)

    @property
    def move_count(self) -> int:
        """Moves on the board now: played moves minus undone ones."""
        return self._move_count

    @property
    def undo_depth(self) -> int:
        return len(self._undo)

    # -- playing ------------------------------------------------------------------
    def play(self, text: str) -> Any:
        """Apply one move given in notation; ``IllegalMove`` leaves everything unchanged."""
        if not isinstance(text, str):
            raise IllegalMove("a move must be text", "malformed", text=repr(text))
        cleaned = text.strip()
        if cleaned.lower() == UNDO:
            return self.undo()
        if len(cleaned) > MAX_MOVE_INPUT:
            raise IllegalMove(
                f"{cleaned[:MAX_MOVE_INPUT]!r}… is too long to be a move",
                "malformed",
                text=cleaned[:MAX_MOVE_INPUT],
            )
        if self.is_won:
            raise IllegalMove("the game is already won", "game_over")
        move, record = self._apply(cleaned)
        self._undo.append(record)
        self._log.append(move.notation)
        self._move_count += 1
        return move

    def undo(self) -> Any:
        """Take back the last action; ``IllegalMove`` if there is none (or it may not be)."""
        if not self._undo:
            raise IllegalMove("there is nothing to undo", "nothing_to_undo")
        record = self._undo[-1]
        move = self._revert(record)  # may raise IllegalMove before changing anything
        self._undo.pop()
        self._log.append(UNDO)
        self._move_count -= 1
        return move

    def replay(self, moves: Iterable[str]) -> None:
        """Apply a stored action log in order (moves and ``"undo"``)."""
        for i, text in enumerate(moves, 1):
            try:
                self.play(text)
            except IllegalMove as exc:
                raise IllegalMove(
                    f"action {i} ({text!r}) failed: {exc}", exc.reason, index=i, **exc.params
                ) from exc

    def is_legal(self, text: str) -> bool:
        return text in self.legal_moves()

    # -- state ------------------------------------------------------------------
    @property
    def is_won(self) -> bool:
        outcome = self.outcome
        return outcome is not None and outcome.won

    @property
    def is_lost(self) -> bool:
        outcome = self.outcome
        return outcome is not None and not outcome.won

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def to_json(self) -> dict[str, Any]:
        """The summary ``python -m engine play`` prints."""
        return {
            "code": self.code,
            "game": self.kind,
            "score": self.score,
            "won": self.is_won,
            "lost": self.is_lost,
            "moves": self.move_count,
            "actions": len(self._log),
            "board": self.board_text(),
        }

    # -- what each game provides -----------------------------------------------
    _move_count: int = 0

    @property
    @abstractmethod
    def score(self) -> int: ...

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def legal_moves(self) -> list[str]: ...

    @abstractmethod
    def board_text(self) -> str: ...

    @abstractmethod
    def describe(self, text: str) -> str:
        """A move in words for players, e.g. ``7♥ from column 3 to column 5``."""

    @abstractmethod
    def _apply(self, text: str) -> tuple[Any, Any]:
        """Validate and apply a move; return (move, undo record) or raise IllegalMove."""

    @abstractmethod
    def _revert(self, record: Any) -> Any:
        """Undo one record; raise IllegalMove (changing nothing) if it may not be undone."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.code} moves={self.move_count} score={self.score}>"
