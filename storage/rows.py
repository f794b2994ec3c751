"""Rows to the interface's dataclasses, for every backend: column lists, converters, summary keys.

A backend hands each mapper a positional row (an aiosqlite row, an asyncpg
``Record``...) and a ``Decoding`` saying how it stores times and dates: SQLite
as UTC milliseconds and ISO text, PostgreSQL natively. Everything else about
a row - which column is which, how moves are joined, which summaries a
finished game counts in - is decided here once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine import Finish
from storage.interface import DailyPost, Deck, FinishedGame, GameRow, GuildSettings, LeaderboardEntry

GAME_COLUMNS = (
    "id, kind, code, variant, owner_id, guild_id, channel_id, message_id, moves, status, score, "
    "move_count, started_at, updated_at, finished_at, daily_date, version, source, hints, undos, home, "
    "first_move_at"
)
RESULT_COLUMNS = (
    "game_id, kind, code, variant, user_id, guild_id, channel_id, status, score, move_count, "
    "finished_at, daily_date, counts_for_daily, source, hints, undos, home, seconds"
)
RESULT_WIDTH = len(RESULT_COLUMNS.split(","))
GUILD_COLUMNS = "guild_id, daily_channel_id, post_minute, language, daily_disabled"
POST_COLUMNS = "guild_id, date, channel_id, message_id, claimed_at, posted_at"
RANK_ORDER = "rank_key, finished_at, game_id"
# The only source the main (all time, this week) leaderboards rank.
MAIN_SOURCE = "stock"
SUMMARY_COLUMNS = "played, won, best_score, rank_key, finished_at, game_id, won_seconds, timed_wins, fastest"
# player_bests.variant for "every variant" (a game without variants has only this one); no
# game's variant can be it (``validate.variant``).
ALL_VARIANTS = "*"


class Row(Protocol):
    """A row as a driver returns it, read by position (an aiosqlite row, an asyncpg Record...)."""

    def __getitem__(self, index: int, /) -> Any: ...


def _plain(value: str) -> str:
    return value


@dataclass(frozen=True, slots=True)
class Decoding:
    """How a backend returns a time, a date and a free-text column (never called with NULL)."""

    moment: Callable[[Any], dt.datetime]
    day: Callable[[Any], dt.date]
    text: Callable[[str], str] = _plain

    def maybe_moment(self, value: Any) -> dt.datetime | None:
        return None if value is None else self.moment(value)

    def maybe_day(self, value: Any) -> dt.date | None:
        return None if value is None else self.day(value)

    def maybe_text(self, value: str | None) -> str | None:
        return None if value is None else self.text(value)


PLAIN = Decoding(moment=lambda value: value, day=lambda value: value)


@dataclass(frozen=True, slots=True)
class Encoding:
    """How a backend stores a time, a date, free text and a flag (the mirror of ``Decoding``)."""

    moment: Callable[[dt.datetime], Any]
    day: Callable[[dt.date], Any]
    text: Callable[[str], str] = _plain
    flag: Callable[[bool], Any] = bool

    def maybe_day(self, value: dt.date | None) -> Any:
        return None if value is None else self.day(value)


def seconds_played(game: GameRow) -> int | None:
    """A finished game's time: first move to finish in whole seconds (None without a move)."""
    if game.finished_at is None or game.first_move_at is None:
        return None
    return max(0, int((game.finished_at - game.first_move_at).total_seconds()))


def finish_of(game: GameRow) -> Finish:
    """What the game's ranking rule is asked about a finished game."""
    return Finish(game.status, game.score, game.move_count, game.home, seconds_played(game), game.hints)


def result_values(game: GameRow, counts_for_daily: bool, rank_key: int, encode: Encoding) -> tuple[Any, ...]:
    """A finished game's history row: the values of ``RESULT_COLUMNS``, then ``rank_key``."""
    assert game.finished_at is not None, "a finished game has its finish time"
    return (
        game.id,
        game.kind,
        encode.text(game.code),
        game.variant,
        game.owner_id,
        game.guild_id,
        game.channel_id,
        game.status,
        game.score,
        game.move_count,
        encode.moment(game.finished_at),
        encode.maybe_day(game.daily_date),
        encode.flag(counts_for_daily),
        game.source,
        game.hints,
        game.undos,
        game.home,
        seconds_played(game),
        rank_key,
    )


def summary_values(game: GameRow, rank_key: int, encode: Encoding) -> list[tuple[Any, ...]]:
    """The player_bests rows a finished game is folded into: (scope, scope_id, kind, variant, source,
    user_id, won, rank_key, finished_at, game_id, best_score, won_seconds, timed_wins, fastest)."""
    assert game.finished_at is not None, "a finished game has its finish time"
    won = 1 if game.status == "won" else 0
    finished_at = encode.moment(game.finished_at)
    seconds = seconds_played(game) if won else None
    return [
        (
            scope,
            scope_id,
            game.kind,
            variant,
            game.source,
            game.owner_id,
            won,
            rank_key,
            finished_at,
            game.id,
            game.score,
            seconds or 0,
            0 if seconds is None else 1,
            seconds,
        )
        for scope, scope_id, variant in summary_keys(game)
    ]


def join_moves(actions: Sequence[str]) -> str:
    """The action log as stored: entries joined by single spaces (they never contain one)."""
    return " ".join(actions)


def split_moves(stored: str) -> tuple[str, ...]:
    return tuple(stored.split(" ")) if stored else ()


def game_row(row: Row, decode: Decoding) -> GameRow:
    return GameRow(
        id=row[0],
        kind=row[1],
        code=decode.text(row[2]),
        variant=row[3],
        owner_id=row[4],
        guild_id=row[5],
        channel_id=row[6],
        message_id=row[7],
        moves=split_moves(row[8]),
        status=row[9],
        score=row[10],
        move_count=row[11],
        started_at=decode.moment(row[12]),
        updated_at=decode.moment(row[13]),
        finished_at=decode.maybe_moment(row[14]),
        daily_date=decode.maybe_day(row[15]),
        version=row[16],
        source=row[17],
        hints=row[18],
        undos=row[19],
        home=row[20],
        first_move_at=decode.maybe_moment(row[21]),
    )


def result_row(row: Row, decode: Decoding) -> FinishedGame:
    return FinishedGame(
        game_id=row[0],
        kind=row[1],
        code=decode.text(row[2]),
        variant=row[3],
        user_id=row[4],
        guild_id=row[5],
        channel_id=row[6],
        status=row[7],
        score=row[8],
        move_count=row[9],
        finished_at=decode.moment(row[10]),
        daily_date=decode.maybe_day(row[11]),
        counts_for_daily=bool(row[12]),
        source=row[13],
        hints=row[14],
        undos=row[15],
        home=row[16],
        seconds=None if row[17] is None else int(row[17]),
    )


def leaderboard_page(found: Iterable[Row], offset: int, decode: Decoding) -> list[LeaderboardEntry]:
    """Rows of ``RESULT_COLUMNS`` then played and won, best first, as the page from ``offset``."""
    return [
        LeaderboardEntry(
            rank=offset + i + 1,
            user_id=row[4],
            best=result_row(row, decode),
            played=row[RESULT_WIDTH],
            won=row[RESULT_WIDTH + 1],
        )
        for i, row in enumerate(found)
    ]


def deck_of(stored: object) -> Deck | None:
    """A stored deck choice; anything else (NULL, a value from a newer version) is the default."""
    return "four" if stored == "four" else "two" if stored == "two" else None


def guild_row(row: Row, decode: Decoding = PLAIN) -> GuildSettings:
    return GuildSettings(
        guild_id=row[0],
        daily_channel_id=row[1],
        post_minute=row[2],
        language=decode.maybe_text(row[3]),
        daily_disabled=decode.maybe_text(row[4]),
    )


def post_row(row: Row, decode: Decoding) -> DailyPost:
    return DailyPost(
        guild_id=row[0],
        date=decode.day(row[1]),
        channel_id=row[2],
        message_id=row[3],
        claimed_at=decode.moment(row[4]),
        posted_at=decode.maybe_moment(row[5]),
    )


def prefixed(alias: str, columns: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


def summary_keys(game: GameRow) -> list[tuple[str, int, str]]:
    """The (scope, scope_id, variant) rows of player_bests a finished game counts in."""
    scopes = [("p", 0)]
    if game.guild_id is not None:
        scopes.append(("g", game.guild_id))
    if game.channel_id is not None:
        scopes.append(("c", game.channel_id))
    variant_keys = [ALL_VARIANTS] if game.variant == "" else [ALL_VARIANTS, game.variant]
    return [(scope, scope_id, variant) for scope, scope_id in scopes for variant in variant_keys]


def summary_scope(channel_id: int | None, guild_id: int | None, variant: str | None) -> tuple[str, int, str]:
    """The (scope, scope_id, variant) key of one leaderboard's player_bests rows."""
    scope, scope_id = ("c", channel_id) if channel_id is not None else ("g", guild_id)
    assert scope_id is not None, "a leaderboard has a channel or a guild"
    return scope, scope_id, ALL_VARIANTS if variant is None else variant


# Sources whose games give a player's best (practice chose its deal; a race ranks in its race).
BEST_SOURCES = ("stock", "daily")


@dataclass(frozen=True, slots=True)
class Summary:
    """A player's summary rows of one scope, added up over the sources."""

    played: int = 0
    won: int = 0
    best_score: int = 0
    best: FinishedGame | None = None
    practice: int = 0
    fastest_win: int | None = None
    average_win: float | None = None


def combine_stats(found: Iterable[Row], decode: Decoding) -> Summary:
    """A player's summary rows of one scope (``source`` then ``SUMMARY_COLUMNS``, then the best
    game's ``RESULT_COLUMNS``), one per source, folded into one ``Summary``: played and won
    over every source; best, best score and winning times over ``BEST_SOURCES``."""
    rows_ = list(found)
    ranked = [r for r in rows_ if r[0] in BEST_SOURCES]
    top = min(ranked, key=lambda r: (r[4], r[5], r[6]), default=None)
    width = len(SUMMARY_COLUMNS.split(",")) + 1
    timed = sum(int(r[8]) for r in ranked)
    fastest = [int(r[9]) for r in ranked if r[9] is not None]
    return Summary(
        played=sum(int(r[1]) for r in rows_),
        won=sum(int(r[2]) for r in rows_),
        best_score=max((int(r[3]) for r in ranked), default=0),
        best=None if top is None else result_row([top[width + i] for i in range(RESULT_WIDTH)], decode),
        practice=sum(int(r[1]) for r in rows_ if r[0] == "practice"),
        fastest_win=min(fastest, default=None),
        average_win=sum(int(r[7]) for r in ranked) / timed if timed else None,
    )


def stats_scope(guild_id: int | None) -> tuple[str, int]:
    """Player stats read the everywhere summary, or one guild's."""
    return ("p", 0) if guild_id is None else ("g", guild_id)
