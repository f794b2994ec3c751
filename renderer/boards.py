"""Which board module draws which game kind (the renderer's one dispatch point)."""

from __future__ import annotations

from types import ModuleType

from renderer import bakers, calculation

BOARDS: dict[str, ModuleType] = {"bakers": bakers, "calculation": calculation}


def board_for(game: object) -> ModuleType:
    """The module with ``render`` and ``parse_highlight`` for ``game.kind``; ``ValueError`` otherwise."""
    kind = getattr(game, "kind", None)
    board = BOARDS.get(kind) if isinstance(kind, str) else None
    if board is None:
        raise ValueError(f"cannot draw {game!r}: no board for game kind {kind!r}")
    return board
