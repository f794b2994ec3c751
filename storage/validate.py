"""Argument checks shared by every backend: bad input is refused before any SQL runs."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Literal, overload

import engine
from storage.interface import FINISHED_STATUSES, MAX_ACTION_LENGTH, InvalidValue

INT64_MAX = (1 << 63) - 1
# Longest code, language tag or other free text accepted (far above any real one).
MAX_TEXT = 200


@overload
def snowflake(name: str, value: object, *, optional: Literal[False] = False) -> int: ...
@overload
def snowflake(name: str, value: object, *, optional: bool) -> int | None: ...
def snowflake(name: str, value: object, *, optional: bool = False) -> int | None:
    """A Discord id (or any row id): a non-negative integer that fits SQLite's 64 bits."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= INT64_MAX:
        raise InvalidValue(f"{name} must be an integer from 0 to 2**63-1, not {value!r:.80}")
    return value


def count(name: str, value: object) -> int:
    """A score, move count or version: a non-negative integer."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= INT64_MAX:
        raise InvalidValue(f"{name} must be a non-negative integer, not {value!r:.80}")
    return value


def kind(value: object) -> str:
    """A game kind registered in the engine (``engine.GAMES``): a new game needs no storage change."""
    if not isinstance(value, str) or value not in engine.GAMES:
        known = ", ".join(sorted(engine.GAMES))
        raise InvalidValue(f"kind must be one of {known}, not {value!r:.80}")
    return value


def cells(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 8:
        raise InvalidValue(f"cells must be None or an integer from 0 to 8, not {value!r:.80}")
    return value


def finished_status(value: object, allowed: Sequence[str] = FINISHED_STATUSES) -> str:
    if value not in allowed:
        raise InvalidValue(f"a finished game's status must be one of {', '.join(allowed)}, not {value!r:.80}")
    return str(value)


@overload
def text(
    name: str, value: object, *, optional: Literal[False] = False, max_length: int = MAX_TEXT
) -> str: ...
@overload
def text(name: str, value: object, *, optional: bool, max_length: int = MAX_TEXT) -> str | None: ...
def text(name: str, value: object, *, optional: bool = False, max_length: int = MAX_TEXT) -> str | None:
    """Any Unicode text up to ``max_length`` characters (NUL, quotes, emoji... are fine)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InvalidValue(f"{name} must be text, not {type(value).__name__}")
    if len(value) > max_length:
        raise InvalidValue(f"{name} is {len(value)} characters long; at most {max_length} are accepted")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidValue(f"{name} is not valid Unicode text ({error.reason})") from None
    return value


def action(value: object) -> str:
    """One action-log entry: short text without whitespace (the log is stored space-joined)."""
    checked = text("a move", value, max_length=MAX_ACTION_LENGTH)
    if not checked or any(ch.isspace() for ch in checked) or "\x00" in checked:
        raise InvalidValue(f"a move must be non-empty text without spaces, not {checked!r}")
    return checked


def actions(values: object) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InvalidValue("actions must be a sequence of moves")
    if not values:
        raise InvalidValue("actions must not be empty")
    return [action(v) for v in values]


@overload
def day(name: str, value: object, *, optional: Literal[False] = False) -> dt.date: ...
@overload
def day(name: str, value: object, *, optional: bool) -> dt.date | None: ...
def day(name: str, value: object, *, optional: bool = False) -> dt.date | None:
    if value is None and optional:
        return None
    if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
        raise InvalidValue(f"{name} must be a datetime.date, not {value!r:.80}")
    return value


def moment(name: str, value: object) -> dt.datetime:
    if not isinstance(value, dt.datetime) or value.tzinfo is None:
        raise InvalidValue(f"{name} must be a timezone-aware datetime, not {value!r:.80}")
    return value


def page(limit: object, offset: object) -> tuple[int, int]:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
        raise InvalidValue(f"limit must be an integer from 1 to 1000, not {limit!r:.80}")
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= INT64_MAX:
        raise InvalidValue(f"offset must be a non-negative integer, not {offset!r:.80}")
    return limit, offset
