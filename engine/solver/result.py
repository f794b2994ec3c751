"""What the solver answers, in one vocabulary: whether a position can be won (``Verdict``:
"winnable", "lost", "unknown"), a solve with its solution, a hint for a player, the board's
standing, or a refusal of bad input. All plain frozen dataclasses, so they cross a process
pool as they are (the bot's hint and verdict workers return them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

Verdict = Literal["winnable", "lost", "unknown"]
WINNABLE: Final = "winnable"
LOST: Final = "lost"
UNKNOWN: Final = "unknown"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """``verdict`` is a proof either way, or ``"unknown"`` when the budget ran out.

    ``moves`` (engine notation, single-card moves and sends home) wins from the
    position searched when the verdict is ``"winnable"``; it is empty otherwise.
    """

    verdict: Verdict
    moves: list[str] = field(default_factory=list)
    seconds: float = 0.0
    nodes: int = 0

    @property
    def winnable(self) -> bool:
        return self.verdict == WINNABLE


# What a hint advises: a move, nothing (won), undos (lost), or nothing known in time.
Advice = Literal["move", "won", "lost", "unknown"]
MOVE: Final = "move"
WON: Final = "won"


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

    ``verdict``: whether the current position can still be won ("winnable" for
    ``"move"`` and ``"won"``, "lost" for ``"lost"``; "unknown" when not known: an
    ``"unknown"`` advice may still know the position winnable).
    """

    status: Advice
    move: str | None = None
    solution: list[str] = field(default_factory=list)
    undos: int | None = None
    exhausted: bool = False
    verdict: Verdict = UNKNOWN
    seconds: float = 0.0
    nodes: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    """Whether a game's position can still be won (``standing_code``: the board's lost-deal
    warning). ``line``, for "winnable": the ``position_key`` of each position a win from here
    passes through, so a player who keeps to it needs no further search; ``undos``, for
    "lost" when asked to look back: the fewest undos to a position proven winnable, None if
    none was found within the budget."""

    verdict: Verdict
    line: list[bytes] = field(default_factory=list)
    undos: int | None = None
    nodes: int = 0
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class Refused:
    """A code or an action log the solver cannot play (``error`` says why): a worker answers
    this rather than dying on bad input."""

    error: str


def hint_json(hint: Hint) -> dict[str, Any]:
    """The command line's hint object: ``{"move": notation or None, "undo": undos needed or 0,
    "winnable": True, False or None}`` (``python -m engine hint``; the same keys for every game)."""
    winnable = {WINNABLE: True, LOST: False}.get(hint.verdict)
    return {"move": hint.move, "undo": hint.undos or 0, "winnable": winnable}


class SolverError(RuntimeError):
    """The search produced a step the engine refuses: a solver bug, never a player's fault."""
