"""The engine's exception family.

Every error is a ``ValueError`` carrying a machine-readable ``reason`` key and
its ``params``, so a front end can translate it, plus an English message for
people and logs (the ``str`` of the exception).
"""

from __future__ import annotations

from typing import Any


class EngineError(ValueError):
    """Base of every error the engine raises for bad input."""

    def __init__(self, message: str, reason: str = "invalid", **params: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params


class CodeError(EngineError):
    """A game code that does not parse; ``part`` names the wrong part."""

    def __init__(self, message: str, part: str, **params: Any) -> None:
        super().__init__(message, f"code_{part}", part=part, **params)
        self.part = part


class IllegalMove(EngineError):
    """A move that is malformed or not allowed in the current position; nothing changed."""


class BoardTextError(EngineError):
    """A board text (fc-solve format) that cannot be read."""
