"""The registry of board modules, keyed by game kind: the renderer's one dispatch point.

Each game's picture lives in its own module (``renderer.games`` registers the
built-in ones; another game registers its own with ``renderer.register``): its
picture function, its highlights, its words (``WORDS``). Nothing here knows a game.
"""

from __future__ import annotations

from typing import Any, Protocol

from PIL import Image

from renderer.labels import SHARED, Labels, Word, add, forget


class Board(Protocol):
    """What a board module provides (each takes its own game class, hence ``Any``)."""

    KIND: str  # the engine's game kind it draws
    WORDS: dict[str, Word]  # its own words: its title (under its kind) and its places' words
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


_BOARDS: dict[str, Board] = {}


def register(board: Board) -> Board:
    """Make ``board`` draw its game kind (and its words known); ``ValueError`` if the kind has
    a board already or a word is taken."""
    if board.KIND in _BOARDS and _BOARDS[board.KIND] is not board:
        raise ValueError(f"game kind {board.KIND!r} has a board already")
    if board.KIND not in board.WORDS:
        raise ValueError(f"a board's WORDS must hold its title, under its kind {board.KIND!r}")
    add(board.WORDS, f"the board of {board.KIND!r}")
    _BOARDS[board.KIND] = board
    return board


def unregister(kind: str) -> None:
    board = _BOARDS.pop(kind, None)
    if board is not None:
        forget(board.WORDS)


def tallest() -> int:
    """The tallest picture of any registered board."""
    return max(board.FULL_HEIGHT for board in _BOARDS.values())


def board_for(game: object) -> Board:
    """The module with ``render`` and ``parse_highlight`` for ``game.kind``; ``ValueError`` otherwise."""
    kind = getattr(game, "kind", None)
    board = _BOARDS.get(kind) if isinstance(kind, str) else None
    if board is None:
        raise ValueError(f"cannot draw {game!r}: no board for game kind {kind!r}")
    return board


def words_of(board: Board) -> tuple[str, ...]:
    """The words a board draws: the shared ones and its own."""
    return (*SHARED, *board.WORDS)
