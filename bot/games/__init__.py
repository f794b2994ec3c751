"""The game fronts, keyed by the engine's kind: the one place the bot learns which games exist.

A new game is an engine module (registered with ``engine.register``), a front
(a ``GameFront`` subclass with its start command's extension) and one
``register`` call here; nothing else in ``bot/`` needs to change.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.games.bakers import BakersFront
from bot.games.base import Advice, ButtonSpec, GameFront, Press
from bot.games.calculation import CalculationFront
from bot.play.feedback import UserFeedback

_FRONTS: dict[str, GameFront[Any]] = {}


def register(front: GameFront[Any]) -> GameFront[Any]:
    """Make a game playable in the bot; its kind must be registered in the engine."""
    if front.kind not in engine.GAMES:
        raise ValueError(f"no engine game of kind {front.kind!r}")
    clash = next((f for f in _FRONTS.values() if f.letter == front.letter and f.kind != front.kind), None)
    if clash is not None:
        raise ValueError(f"letter {front.letter!r} is taken by {clash.kind!r}")
    _FRONTS[front.kind] = front
    return front


def unregister(kind: str) -> None:
    _FRONTS.pop(kind, None)


def fronts() -> tuple[GameFront[Any], ...]:
    """Every registered front, in registration order (the order choices and posts use)."""
    return tuple(_FRONTS.values())


def front_for(kind: str) -> GameFront[Any]:
    """The front of a kind; ``UserFeedback`` for one this bot does not know (a forged id)."""
    front = _FRONTS.get(kind)
    if front is None:
        raise UserFeedback("error.unknown_button")
    return front


def front_of(game: engine.Game[Any]) -> GameFront[Any]:
    return front_for(game.kind)


def front_by_letter(letter: str) -> GameFront[Any]:
    for front in _FRONTS.values():
        if front.letter == letter:
            return front
    raise UserFeedback("error.unknown_button")


def front_named(word: str) -> GameFront[Any] | None:
    """The front a player's word names: its kind or its start command (console, case-insensitive)."""
    word = word.strip().lower()
    return next((f for f in _FRONTS.values() if word in (f.kind, f.command)), None)


register(BakersFront())
register(CalculationFront())

__all__ = [
    "Advice",
    "ButtonSpec",
    "GameFront",
    "Press",
    "front_by_letter",
    "front_for",
    "front_named",
    "front_of",
    "fronts",
    "register",
    "unregister",
]
