"""Argument checks shared by every backend: bad input is refused before any SQL runs."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

import engine
from storage.interface import (
    FINISHED_STATUSES,
    MAX_ACTION_LENGTH,
    SOURCES,
    UNCHANGED,
    InvalidValue,
    _Unchanged,
)
from storage.ranking import week_start

INT64_MAX = (1 << 63) - 1
# Longest code, language tag or other free text accepted (far above any real one).
MAX_TEXT = 200
MAX_VARIANT = 16
_VARIANT = re.compile(rf"[A-Za-z0-9_-]{{0,{MAX_VARIANT}}}")
MAX_SETTING = 64
_SETTING = re.compile(rf"[A-Za-z0-9_.-]{{1,{MAX_SETTING}}}")


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


def flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidValue(f"{name} must be True or False, not {value!r:.80}")
    return value


def kind(value: object) -> str:
    """A game kind registered in the engine (``engine.GAMES``): a new game needs no storage change."""
    if not isinstance(value, str) or value not in engine.GAMES:
        known = ", ".join(sorted(engine.GAMES))
        raise InvalidValue(f"kind must be one of {known}, not {value!r:.80}")
    return value


def variant(value: object) -> str:
    """A game's variant as its front names it: opaque to storage, "" for a game without one.

    Short letters, digits, ``-`` and ``_`` only, so it never collides with ``ALL_VARIANTS``.
    """
    if not isinstance(value, str) or not _VARIANT.fullmatch(value):
        raise InvalidValue(
            f"variant must be a text of at most {MAX_VARIANT} letters, digits, - or _, not {value!r:.40}"
        )
    return value


def setting_text(name: str, value: object) -> str:
    """A player setting's name or value: a short text of letters, digits, ``.``, ``-`` and ``_``
    (the names and values fronts choose, never a player's free text)."""
    if not isinstance(value, str) or not _SETTING.fullmatch(value):
        raise InvalidValue(
            f"a setting's {name} must be 1 to {MAX_SETTING} letters, digits, '.', '-' or '_', not {value!r:.40}"
        )
    return value


def board_variant(value: object) -> str | None:
    """A leaderboard's variant: None (or "", a game without variants) ranks every variant together."""
    return None if value is None or value == "" else variant(value)


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


# -- whole requests, checked the same way by every backend ------------------------
def code(value: object) -> str:
    checked = text("code", value)
    if not checked.strip():
        raise InvalidValue("code must not be empty")
    return checked


@dataclass(frozen=True, slots=True)
class NewGame:
    kind: str
    code: str
    variant: str
    owner_id: int
    guild_id: int | None
    channel_id: int | None
    daily_date: dt.date | None
    source: str = "stock"


def source(value: object) -> str:
    if value not in SOURCES:
        raise InvalidValue(f"source must be one of {', '.join(SOURCES)}, not {value!r:.40}")
    return str(value)


def new_game(
    kind_: object,
    code_: object,
    owner_id: object,
    guild_id: object,
    channel_id: object,
    variant_: object,
    daily_date: object,
    source_: object = "stock",
) -> NewGame:
    return NewGame(
        kind(kind_),
        code(code_),
        variant(variant_),
        snowflake("owner_id", owner_id),
        snowflake("guild_id", guild_id, optional=True),
        snowflake("channel_id", channel_id, optional=True),
        day("daily_date", daily_date, optional=True),
        source(source_),
    )


@dataclass(frozen=True, slots=True)
class Change:
    """A guarded change to a game: ``actions`` appended (maybe none), then ``status``."""

    game_id: int
    expected: int
    actions: list[str]
    score: int
    move_count: int
    status: str
    # Cards on the foundations after the change; None keeps the stored value.
    home: int | None = None

    @property
    def finishes(self) -> bool:
        return self.status != "active"

    @property
    def undos(self) -> int:
        return sum(1 for a in self.actions if a.lower() == "undo")


def moves(
    game_id: object,
    expected: object,
    actions_: object,
    score: object,
    move_count: object,
    finish: object,
    home: object = None,
) -> Change:
    return Change(
        snowflake("game_id", game_id),
        count("expected_version", expected),
        actions(actions_),
        count("score", score),
        count("move_count", move_count),
        "active" if finish is None else finished_status(finish),
        None if home is None else count("home", home),
    )


def finish(
    game_id: object, expected: object, status: object, score: object, move_count: object, home: object = None
) -> Change:
    return Change(
        snowflake("game_id", game_id),
        count("expected_version", expected),
        [],
        count("score", score),
        count("move_count", move_count),
        finished_status(status),
        None if home is None else count("home", home),
    )


@dataclass(frozen=True, slots=True)
class Board:
    """Which results a leaderboard ranks: one kind in a channel or a guild, maybe one variant,
    all time (``period`` "all"), since ``since`` ("week") or the first attempts at ``daily`` ("daily").
    The daily board may also be global (neither channel nor guild): the same deal everywhere."""

    kind: str
    channel_id: int | None
    guild_id: int | None
    variant: str | None
    period: str
    since: dt.datetime | None = None
    daily: dt.date | None = None
    # A deal's board: every game of this code, whatever its source (else ``stock`` only,
    # except the daily board, which ranks first daily attempts).
    code: str | None = None

    @property
    def summarised(self) -> bool:
        """Read from player_bests (the all-time main board) rather than the history."""
        return self.period == "all" and self.code is None

    @property
    def is_global(self) -> bool:
        """Every channel of every guild (only the daily board: the same deal everywhere)."""
        return self.channel_id is None and self.guild_id is None


def board(
    kind_: object,
    channel_id: object,
    guild_id: object,
    period: object,
    variant_: object,
    daily_date: object,
    now: dt.datetime,
    code_: object = None,
) -> Board:
    if channel_id is not None and guild_id is not None:
        raise InvalidValue("a leaderboard needs one of channel_id and guild_id, not both")
    if channel_id is None and guild_id is None and (period != "daily" or code_ is not None):
        raise InvalidValue(
            "a leaderboard needs one of channel_id and guild_id: only the daily board (no code) is global"
        )
    checked_kind = kind(kind_)
    channel = snowflake("channel_id", channel_id, optional=True)
    guild = snowflake("guild_id", guild_id, optional=True)
    checked_variant = board_variant(variant_)
    deal = None if code_ is None else code(code_)
    if period == "all":
        return Board(checked_kind, channel, guild, checked_variant, "all", code=deal)
    if period == "week":
        return Board(checked_kind, channel, guild, checked_variant, "week", since=week_start(now), code=deal)
    if period == "daily":
        date = day("daily_date", daily_date, optional=True) or now.astimezone(dt.UTC).date()
        return Board(checked_kind, channel, guild, checked_variant, "daily", daily=date, code=deal)
    raise InvalidValue(f"period must be all, week or daily, not {period!r:.80}")


def guild_changes(
    daily_channel_id: object, post_minute: object, language: object, daily_disabled: object = UNCHANGED
) -> dict[str, Any]:
    """The guild settings to change (``UNCHANGED`` ones left out), checked. A daily channel set
    again clears ``daily_disabled``: the admin chose it, so it is tried again."""
    changes: dict[str, Any] = {}
    if not isinstance(daily_channel_id, _Unchanged):
        changes["daily_channel_id"] = snowflake("daily_channel_id", daily_channel_id, optional=True)
        changes["daily_disabled"] = None
    if not isinstance(daily_disabled, _Unchanged):
        changes["daily_disabled"] = text("daily_disabled", daily_disabled, optional=True, max_length=200)
    if not isinstance(post_minute, _Unchanged):
        minute = count("post_minute", post_minute)
        if minute > 1439:
            raise InvalidValue(f"post_minute must be from 0 to 1439 (minutes after 00:00 UTC), not {minute}")
        changes["post_minute"] = minute
    if not isinstance(language, _Unchanged):
        changes["language"] = text("language", language, optional=True, max_length=35)
    return changes


def deal_stock(kind_: object, variant_: object) -> tuple[str, str]:
    """The (kind, variant) key of a winnable-deal stock ("" for a game without variants)."""
    return kind(kind_), variant(variant_)


def minutes_into(date: dt.date, moment: dt.datetime) -> int:
    """Whole minutes from ``date``'s 00:00 UTC to ``moment`` (negative before it)."""
    midnight = dt.datetime.combine(date, dt.time(), tzinfo=dt.UTC)
    return (moment - midnight) // dt.timedelta(minutes=1)
