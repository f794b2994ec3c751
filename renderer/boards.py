"""Which board module draws which game kind (the renderer's one dispatch point)."""

from __future__ import annotations

from typing import Any, Protocol

from PIL import Image

from renderer import bakers, calculation
from renderer.labels import Labels


class Board(Protocol):
    """What a board module provides (each takes its own game class, hence ``Any``)."""

    FULL_HEIGHT: int  # the tallest picture (a replay's frame height)

    def render(
        self,
        game: Any,
        highlight: tuple[str, int] | None,
        labels: Labels,
        deck: str = ...,
        fit: bool = ...,
        tag: str | None = ...,
        hide_code: bool = ...,
    ) -> Image.Image: ...

    def height(self, game: Any) -> int: ...

    def parse_highlight(self, game: Any, highlight: object) -> tuple[str, int] | None: ...


BOARDS: dict[str, Board] = {"bakers": bakers, "calculation": calculation}
HEIGHT = max(board.FULL_HEIGHT for board in BOARDS.values())  # the tallest picture of any board


def board_for(game: object) -> Board:
    """The module with ``render`` and ``parse_highlight`` for ``game.kind``; ``ValueError`` otherwise."""
    kind = getattr(game, "kind", None)
    board = BOARDS.get(kind) if isinstance(kind, str) else None
    if board is None:
        raise ValueError(f"cannot draw {game!r}: no board for game kind {kind!r}")
    return board
