"""Which ``Game`` class plays which code, read from the games' records.

A game is declared once, by its record (``engine.record.GameRecord``, in its own package:
``engine/bakers/record.py``) listed in ``engine.games.RECORDS``; ``engine`` declares each
(``declare``) at import. Its codes are known at once and its class (``record.game``) is
imported the first time it is asked for (``GAMES[kind]``, ``new_game``; issue 26: start-up),
so a command that plays Jeu du Boulanger never loads Calculation. The class names its record
(``Game.record``), so what it says is what was declared (checked when loaded).

``register(SomeGame)`` makes a class play its codes at once (tests; a class written with its
identity as class attributes).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, MutableMapping
from typing import Any, TypeVar

from engine import codes
from engine.codes import (
    CELL_COUNTS,
    CELLS,
    CodeSpec,
    GameCode,
    make_code,
    parse_code,
    register_code,
    unregister_code,
)
from engine.game import Game
from engine.record import GameRecord

# Any: each class plays its own move type (Game is invariant in it: undo takes moves back in).
GameClass = type[Game[Any]]
G = TypeVar("G", bound=Game[Any])


class GameClasses(MutableMapping[str, GameClass]):
    """Kind → game class; a declared game's class is imported when first looked up. Membership,
    iteration and ``len`` see declared games without importing them."""

    def __init__(self) -> None:
        self._classes: dict[str, GameClass] = {}
        self._declared: dict[str, tuple[str, CodeSpec]] = {}  # kind -> ("module:Class", spec)

    def declare(self, kind: str, where: str, spec: CodeSpec) -> None:
        self._classes.pop(kind, None)
        self._declared[kind] = (where, spec)

    def __getitem__(self, kind: str) -> GameClass:
        cls = self._classes.get(kind)
        if cls is not None:
            return cls
        if kind not in self._declared:
            raise KeyError(kind)
        where, spec = self._declared[kind]
        module, _, name = where.partition(":")
        loaded: GameClass = getattr(importlib.import_module(module), name)
        register(loaded)
        if codes.SPECS.get(kind) != spec:  # read at call time: tests swap the table
            raise RuntimeError(
                f"{where} does not play the codes declared for {kind!r}: {codes.SPECS.get(kind)}"
            )
        return loaded

    def __setitem__(self, kind: str, cls: GameClass) -> None:
        self._declared.pop(kind, None)
        self._classes[kind] = cls

    def __delitem__(self, kind: str) -> None:
        if kind not in self._classes and kind not in self._declared:
            raise KeyError(kind)
        self._classes.pop(kind, None)
        self._declared.pop(kind, None)

    def __contains__(self, kind: object) -> bool:
        return kind in self._classes or kind in self._declared

    def __iter__(self) -> Iterator[str]:
        yield from self._classes
        yield from (k for k in self._declared if k not in self._classes)

    def __len__(self) -> int:
        return len(self._classes.keys() | self._declared.keys())

    def pop(self, kind: str, *default: Any) -> Any:
        """Forget a game without importing it."""
        if kind in self._classes:
            cls = self._classes.pop(kind)
            self._declared.pop(kind, None)
            return cls
        if kind in self._declared:
            return self._declared.pop(kind)[0]
        if default:
            return default[0]
        raise KeyError(kind)


GAMES = GameClasses()


def register(cls: type[G]) -> type[G]:
    """Make a game class play its codes (usable as a class decorator)."""
    register_code(
        cls.kind,
        cls.code_prefix,
        title=cls.title,
        versions=tuple(cls.versions),
        has_cells=cls.has_cells,
        cell_counts=tuple(cls.cell_counts),
        deals=cls.deal_form,
        option=cls.code_option,
    )
    GAMES[cls.kind] = cls
    return cls


def declare(record: GameRecord) -> None:
    """Make a game's codes known now and its class (``record.game``) importable on first use;
    the class must say the same (``register`` from it is compared then)."""
    spec = register_code(record.kind, record.prefix, **_code_words(record))
    GAMES.declare(record.kind, record.game, spec)


def _code_words(record: GameRecord) -> dict[str, Any]:
    """What ``register_code`` takes of a record besides its kind and prefix."""
    option = record.option
    return {
        "title": record.title,
        "versions": tuple(record.versions),
        "has_cells": option is not None,
        "cell_counts": option.values if option is not None else CELL_COUNTS,
        "deals": record.deals,
        "option": option.code_part() if option is not None else CELLS,
    }


def unregister(kind: str) -> None:
    """Forget a game (its class and its codes): for a game registered for a while, in tests."""
    GAMES.pop(kind, None)
    unregister_code(kind)


def new_game(code: str | GameCode) -> Game[Any]:
    """A fresh game from a code; ``engine.CodeError`` on a bad code."""
    gc = code if isinstance(code, GameCode) else parse_code(code)
    return GAMES[gc.kind](gc)


def replay(code: str | GameCode, moves: Iterable[str]) -> Game[Any]:
    """Rebuild a game from its persistent form (code + action log)."""
    game = new_game(code)
    game.replay(moves)
    return game


def code_for(kind: str, deal: int, cells: int | None = None) -> str:
    return str(make_code(kind, deal, cells))
