"""What ``python -m engine`` and ``python -m engine solve|hint`` share: refusing odd input in one line.

Every refusal is a ``UsageError`` (exit status 2, one line on stderr, nothing
on stdout); ``engine.__main__.main`` turns it into that. The limits below keep
one command-line call cheap whatever it is given.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Sequence
from typing import Any, NoReturn

from engine.game import Game
from engine.registry import new_game as _new_game

USAGE_EXIT = 2
MAX_ARGS = 10_000  # moves in one call: a stored action log is far shorter
MAX_ARG_CHARS = 200  # a code is at most 64 characters, a move at most 32
MAX_TIME_LIMIT = 60.0  # seconds of search one call may ask for
MAX_NODE_LIMIT = 100_000_000

_DECIMAL = re.compile(r"\+?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?", re.ASCII)
_WHOLE = re.compile(r"\+?[0-9]{1,12}", re.ASCII)


class UsageError(Exception):
    """Input the command line refuses; ``str`` is the one-line message."""


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are a ``UsageError`` (one line) instead of usage + exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see --help)")


def one_line(text: str) -> str:
    """``text`` on one line, at most 500 characters (a message never floods a terminal)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= 500 else flat[:499] + "…"


def check_argv(argv: list[str]) -> None:
    """Refuse argument lists no real call has: too many, too long, not text, NUL or lone surrogates."""
    if len(argv) > MAX_ARGS:
        raise UsageError(f"too many arguments ({len(argv)}); at most {MAX_ARGS}")
    for i, arg in enumerate(argv, 1):
        if not isinstance(arg, str):
            raise UsageError(f"argument {i} is not text")
        if len(arg) > MAX_ARG_CHARS:
            raise UsageError(f"argument {i} is too long ({len(arg)} characters; at most {MAX_ARG_CHARS})")
        if "\0" in arg:
            raise UsageError(f"argument {i} contains a NUL character")
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError(f"argument {i} is not valid text (undecodable bytes)") from None


def seconds(text: str) -> float:
    """An argparse ``type``: a plain decimal number of seconds, above 0 and at most MAX_TIME_LIMIT."""
    value = float(text) if _DECIMAL.fullmatch(text.strip()) else math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_TIME_LIMIT):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of seconds above 0 and at most {MAX_TIME_LIMIT:g}"
        )
    return value


def node_count(text: str) -> int:
    """An argparse ``type``: a whole number of search nodes, 1 to MAX_NODE_LIMIT."""
    value = int(text) if _WHOLE.fullmatch(text.strip()) else 0
    if not 1 <= value <= MAX_NODE_LIMIT:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to {MAX_NODE_LIMIT:,}")
    return value


def new_game(code: str) -> Game[Any]:
    """The game of ``code``, any refusal (``CodeError`` or an odd ``ValueError``) as a ``UsageError``."""
    try:
        return _new_game(code)
    except (ValueError, OverflowError) as exc:  # CodeError is a ValueError
        raise UsageError(f"bad game code {code.strip()[:64]!r}: {exc}") from exc


def play_position(code: str, moves: Sequence[str]) -> Game[Any]:
    """The game ``code`` reaches after ``moves``, each played as a player presses it (a game's
    safe auto-play riding along, ``undo`` taking back an action): the one way every command
    line reads moves (``python -m engine play|solve|hint``, ``python -m renderer``), so what one
    prints the others accept. ``UsageError`` for a bad code or move."""
    game = new_game(code)
    play_moves(game, moves)
    return game


def play_moves(game: Game[Any], moves: Sequence[str]) -> None:
    """Apply ``moves`` in order; a refused one (``IllegalMove`` or an odd ``ValueError``) as a ``UsageError``."""
    for i, move in enumerate(moves, 1):
        try:
            game.play(move)
        except (ValueError, OverflowError) as exc:  # IllegalMove is a ValueError
            raise UsageError(f"move {i} ({move!r}) failed: {exc}") from exc


__all__ = [
    "MAX_ARGS",
    "MAX_ARG_CHARS",
    "MAX_NODE_LIMIT",
    "MAX_TIME_LIMIT",
    "USAGE_EXIT",
    "Parser",
    "UsageError",
    "check_argv",
    "new_game",
    "node_count",
    "one_line",
    "play_moves",
    "play_position",
    "seconds",
]
