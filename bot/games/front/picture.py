"""A front's picture: the board as PNG bytes (the renderer's board module for the game's kind
draws it), a won game's replay, its description for screen readers (required: every board
is a picture) and the console's text board.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar

from bot.games.front.part import G, Part
from bot.languages.i18n import Translator
from storage import Deck


class Picture(Part[G], ABC):
    """How the board looks: the renderer's picture, its replay, its alt text and text form."""

    accent_colour: ClassVar[int] = 0x5865F2  # the edge of its board's card (Components V2 container)
    has_replay: ClassVar[bool] = True  # a won game offers its animation (``render_replay``)

    def render(
        self,
        game: G,
        *,
        highlight: str | None,
        labels: Mapping[str, str] | None,
        deck: Deck = "two",
        tag: str | None = None,
        hide_code: bool = False,
    ) -> bytes:
        """The board picture as PNG bytes (called in a worker thread), in the player's deck;
        ``tag`` (a ``renderer.TAGS`` key: where the deal came from) and ``hide_code`` (a
        race's board) go to the header."""
        import renderer

        return renderer.render_png(
            game, highlight=highlight, labels=labels, deck=deck, tag=tag, hide_code=hide_code
        )

    def render_replay(
        self, code: str, moves: tuple[str, ...], *, labels: Mapping[str, str] | None, max_bytes: int
    ) -> bytes:
        """A won game as an animated GIF of at most ``max_bytes`` (called in a worker thread)."""
        import renderer

        return renderer.render_replay(code, moves, labels=labels, max_bytes=max_bytes)

    @abstractmethod
    def alt_text(self, tr: Translator, game: G) -> str:
        """The picture's description for screen readers: the key facts of the position."""

    def text_board(self, tr: Translator, game: G) -> str:
        """The position as text, for the console: each pile named as a typed move names it,
        cards as players read them (``10♥``). By default the engine's own board text."""
        return game.board_text().rstrip()
