"""What every part of a game's front knows: the engine game class it serves and its kind.

A front is assembled from narrow parts (``controls``, ``words``, ``results``, ``solving``,
``table``, ``picture``, ``options``), each a mixin with defaults; the parts that name
catalogue keys or codes read the game's kind from here.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

import engine

G = TypeVar("G", bound="engine.Game[Any]")


class Part(Generic[G]):
    """The root of a front's parts: the engine's kind of the game (the registry's key)."""

    kind: ClassVar[str]

    def key(self, base: str) -> str:
        """This game's variant of a catalogue key: ``board.won`` → ``board.won.bakers``."""
        return f"{base}.{self.kind}"
