"""What the solver answers: a verdict with its solution, and a hint for a player."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SOLVABLE, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """``verdict`` is a proof either way, or ``"unknown"`` when the budget ran out.

    ``moves`` (engine notation, single-card moves and sends home) wins from the
    position searched when the verdict is ``"solvable"``; it is empty otherwise.
    """

    verdict: str
    moves: list[str] = field(default_factory=list)
    seconds: float = 0.0
    nodes: int = 0

    @property
    def solvable(self) -> bool:
        return self.verdict == SOLVABLE

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# Hint statuses
MOVE, WON, LOST = "move", "won", "lost"


@dataclass(frozen=True, slots=True)
class Hint:
    """Advice for the current position.

    * ``"move"``: ``move`` is the next move of ``solution``, a win from here.
    * ``"won"``: nothing to do.
    * ``"lost"``: this position can no longer be won (proven). ``undos`` is the
      fewest undos back to a position proven winnable, or None when none was
      found: ``exhausted`` is True when every position the undo history can
      reach was proven lost too, False when the budget ran out first. With
      ``undos``, ``solution`` wins from the position that many undos restore.
    * ``"unknown"``: the search ran out of time before deciding.

    ``winnable``: whether the current position can still be won (True for
    ``"move"`` and ``"won"``, False for ``"lost"``), None when unknown.
    """

    status: str
    move: str | None = None
    solution: list[str] = field(default_factory=list)
    undos: int | None = None
    exhausted: bool = False
    winnable: bool | None = None
    seconds: float = 0.0
    nodes: int = 0


def hint_json(hint: Hint) -> dict[str, Any]:
    """The command line's hint object: ``{"move": notation or None, "undo": undos needed or 0,
    "winnable": True, False or None}`` (``python -m engine hint``; the same keys for every game)."""
    return {"move": hint.move, "undo": hint.undos or 0, "winnable": hint.winnable}


class SolverError(RuntimeError):
    """The search produced a step the engine refuses: a solver bug, never a player's fault."""
