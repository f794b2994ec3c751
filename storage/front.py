"""The ``Store`` protocol's methods written once for every backend: checks, then the backend's SQL.

Each public method validates its arguments (``storage.validate``), reads the
clock, calls one backend hook (``_create_game``, ``_leaderboard``...) with
checked values, and turns what it answers into the interface's rows and
errors. A backend (``SqliteStore``, ``PostgresStore``) implements only the
hooks: the SQL of its dialect and its transactions. So the two can differ in
how they store and lock, never in what they accept or answer.
"""

from __future__ import annotations

import datetime as dt
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from storage import race_rows, ranking
from storage import validate as v
from storage.interface import (
    DECKS,
    MAX_RACE_PLAYERS,
    UNCHANGED,
    DailyPost,
    DatabaseUnusable,
    Deck,
    FinishedGame,
    GameNotActive,
    GameNotFound,
    GameRow,
    GuildSettings,
    InvalidValue,
    JoinOutcome,
    LeaderboardEntry,
    PlayerStats,
    RaceNotFound,
    RacePlayer,
    RaceRecord,
    RaceRow,
    _Unchanged,
)
from storage.rows import Summary, stats_scope


class StoreFront(ABC):
    path: str
    # Called once, with the error, when the database is found lost (the bot stops on it).
    on_lost: Callable[[DatabaseUnusable], None] | None = None
    # The last game row this store wrote (id, version), to notice a database that lost it.
    _written: tuple[int, int] | None = None
    _record_lost: DatabaseUnusable | None = None

    @abstractmethod
    def _now(self) -> dt.datetime:
        """The store's clock, checked (timezone-aware)."""

    def _unusable(self, reason: str, detail: str) -> DatabaseUnusable:
        """The backend's ``DatabaseUnusable`` for ``reason`` (its advice in its own words)."""
        return DatabaseUnusable(
            f"Cannot use the database {self.path!r}: {reason} ({detail}).", path=self.path, reason=reason
        )

    def _report_lost(self, error: DatabaseUnusable) -> DatabaseUnusable:
        """Tell ``on_lost`` (once) that the database is lost; the error to raise."""
        if self._record_lost is None:
            self._record_lost = error
            if self.on_lost is not None:
                self.on_lost(error)
        return error

    def _wrote(self, row: GameRow) -> GameRow:
        if self._written is None or row.id != self._written[0] or row.version >= self._written[1]:
            self._written = (row.id, row.version)
        return row

    def _record_to_check(self) -> tuple[int, int] | None:
        """The (game id, version) a write transaction must still find before it commits (see
        ``_check_stored``); raises at once once the database was found lost."""
        if self._record_lost is not None:
            raise self._unusable(self._record_lost.reason, "found before")
        return self._written

    def _check_stored(self, written: tuple[int, int], version: int | None) -> None:
        """Inside a write transaction, before its commit: the database still holds the last game
        row this store wrote, at least at that version (games are never deleted, versions only
        go up). A restored older copy, or a database emptied underneath, is "rows_lost"."""
        game_id, expected = written
        if version is None or version < expected:
            found = "missing" if version is None else f"at version {version}"
            raise self._report_lost(
                self._unusable("rows_lost", f"game {game_id} written at version {expected}, {found}")
            )

    # -- games --------------------------------------------------------------------
    async def create_game(
        self,
        kind: str,
        code: str,
        owner_id: int,
        guild_id: int | None,
        channel_id: int | None,
        *,
        cells: int | None = None,
        daily_date: dt.date | None = None,
        source: str = "stock",
    ) -> GameRow:
        new = v.new_game(kind, code, owner_id, guild_id, channel_id, cells, daily_date, source)
        return self._wrote(await self._create_game(new, self._now()))

    async def get_game(self, game_id: int) -> GameRow:
        checked = v.snowflake("game_id", game_id)
        game = await self._get_game(checked)
        if game is None:
            raise GameNotFound(checked)
        return game

    async def active_game(self, owner_id: int, kind: str) -> GameRow | None:
        return await self._active_game(v.snowflake("owner_id", owner_id), v.kind(kind))

    async def active_games(self, owner_id: int) -> list[GameRow]:
        return await self._active_games(v.snowflake("owner_id", owner_id))

    async def append_move(
        self,
        game_id: int,
        expected_version: int,
        action: str,
        *,
        score: int,
        move_count: int,
        finish: str | None = None,
        home: int | None = None,
    ) -> GameRow:
        return await self.append_moves(
            game_id, expected_version, [action], score=score, move_count=move_count, finish=finish, home=home
        )

    async def append_moves(
        self,
        game_id: int,
        expected_version: int,
        actions: Sequence[str],
        *,
        score: int,
        move_count: int,
        finish: str | None = None,
        home: int | None = None,
    ) -> GameRow:
        change = v.moves(game_id, expected_version, actions, score, move_count, finish, home)
        return self._wrote(await self._change(change, self._now()))

    async def finish_game(
        self,
        game_id: int,
        expected_version: int,
        status: str,
        *,
        score: int,
        move_count: int,
        home: int | None = None,
    ) -> GameRow:
        change = v.finish(game_id, expected_version, status, score, move_count, home)
        return self._wrote(await self._change(change, self._now()))

    async def record_hint(self, game_id: int) -> GameRow:
        checked = v.snowflake("game_id", game_id)
        game = await self._record_hint(checked, self._now())
        if game is not None:
            return self._wrote(game)
        current = await self._get_game(checked)
        if current is None:
            raise GameNotFound(checked)
        raise GameNotActive(current)

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> GameRow:
        checked = v.snowflake("game_id", game_id)
        channel = v.snowflake("channel_id", channel_id, optional=True)
        message = v.snowflake("message_id", message_id, optional=True)
        game = await self._set_message(checked, channel, message, self._now())
        if game is None:
            raise GameNotFound(checked)
        return self._wrote(game)

    async def mark_damaged(self, game_id: int, reason: str) -> bool:
        """Record that the game's stored record no longer replays; True the first time only."""
        checked = v.snowflake("game_id", game_id)
        why = v.text("reason", reason[:500] if isinstance(reason, str) else reason)
        return await self._mark_damaged(checked, why, self._now())

    async def get_result(self, game_id: int) -> FinishedGame | None:
        return await self._get_result(v.snowflake("game_id", game_id))

    # -- rankings and stats -------------------------------------------------------
    async def leaderboard(
        self,
        kind: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        period: str = "all",
        cells: int | None = None,
        daily_date: dt.date | None = None,
        now: dt.datetime | None = None,
        limit: int = 10,
        offset: int = 0,
        code: str | None = None,
    ) -> list[LeaderboardEntry]:
        board = self._board(kind, channel_id, guild_id, period, cells, daily_date, now, code)
        return await self._leaderboard(board, *v.page(limit, offset))

    async def leaderboard_size(
        self,
        kind: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        period: str = "all",
        cells: int | None = None,
        daily_date: dt.date | None = None,
        now: dt.datetime | None = None,
        code: str | None = None,
    ) -> int:
        return await self._leaderboard_size(
            self._board(kind, channel_id, guild_id, period, cells, daily_date, now, code)
        )

    def _board(
        self,
        kind: object,
        channel_id: object,
        guild_id: object,
        period: object,
        cells: object,
        daily_date: object,
        now: dt.datetime | None,
        code: object = None,
    ) -> v.Board:
        moment = self._now() if now is None else v.moment("now", now)
        return v.board(kind, channel_id, guild_id, period, cells, daily_date, moment, code)

    async def player_stats(
        self, user_id: int, kind: str, *, guild_id: int | None = None, today: dt.date | None = None
    ) -> PlayerStats:
        user = v.snowflake("user_id", user_id)
        checked = v.kind(kind)
        scope = stats_scope(v.snowflake("guild_id", guild_id, optional=True))
        day = v.day("today", today, optional=True) or self._now().astimezone(dt.UTC).date()
        summary, dates = await self._player_stats(user, checked, scope)
        current, longest = ranking.streaks(dates, day)
        return PlayerStats(
            user_id=user,
            kind=checked,
            played=summary.played,
            won=summary.won,
            best=summary.best,
            current_streak=current,
            best_streak=longest,
            last_daily=max(dates) if dates else None,
            best_score=summary.best_score,
            practice=summary.practice,
            fastest_win=summary.fastest_win,
            average_win=summary.average_win,
        )

    async def daily_results(
        self, kind: str, date: dt.date, *, guild_id: int | None = None, limit: int = 100, offset: int = 0
    ) -> list[FinishedGame]:
        checked = (v.kind(kind), v.day("date", date), v.snowflake("guild_id", guild_id, optional=True))
        return await self._daily_results(*checked, *v.page(limit, offset))

    async def daily_code(self, kind: str, date: dt.date) -> str | None:
        return await self._daily_code(v.kind(kind), v.day("date", date))

    async def set_daily_code(self, kind: str, date: dt.date, code: str) -> str:
        return await self._set_daily_code(v.kind(kind), v.day("date", date), v.code(code), self._now())

    # -- settings -----------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        guild = v.snowflake("guild_id", guild_id)
        return await self._guild_settings(guild) or GuildSettings(guild)

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        daily_channel_id: int | _Unchanged | None = UNCHANGED,
        post_minute: int | _Unchanged = UNCHANGED,
        language: str | _Unchanged | None = UNCHANGED,
        daily_disabled: str | _Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        guild = v.snowflake("guild_id", guild_id)
        changes = v.guild_changes(daily_channel_id, post_minute, language, daily_disabled)
        return await self._set_guild_settings(guild, changes, self._now())

    async def user_language(self, user_id: int) -> str | None:
        return await self._user_language(v.snowflake("user_id", user_id))

    async def user_deck(self, user_id: int) -> Deck | None:
        return await self._user_deck(v.snowflake("user_id", user_id))

    async def set_user_deck(self, user_id: int, deck: Deck | None) -> None:
        user = v.snowflake("user_id", user_id)
        if deck is not None and deck not in DECKS:
            raise InvalidValue(f"deck must be one of {', '.join(DECKS)} or None, not {deck!r:.40}")
        await self._set_user_deck(user, deck, self._now())

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        user = v.snowflake("user_id", user_id)
        checked = v.text("language", language, optional=True, max_length=35)
        await self._set_user_language(user, checked, self._now())

    # -- daily posts --------------------------------------------------------------
    async def pending_daily_posts(
        self, date: dt.date, *, now: dt.datetime | None = None
    ) -> list[GuildSettings]:
        day = v.day("date", date)
        minutes = v.minutes_into(day, self._now() if now is None else v.moment("now", now))
        return [] if minutes < 0 else await self._pending_daily_posts(day, minutes)

    async def claim_daily_post(
        self,
        guild_id: int,
        date: dt.date,
        channel_id: int,
        *,
        now: dt.datetime | None = None,
        stale_after: dt.timedelta = dt.timedelta(minutes=10),
    ) -> bool:
        guild, day = v.snowflake("guild_id", guild_id), v.day("date", date)
        channel = v.snowflake("channel_id", channel_id)
        moment = self._now() if now is None else v.moment("now", now)
        return await self._claim_daily_post(guild, day, channel, moment, moment - stale_after)

    async def record_daily_post_message(self, guild_id: int, date: dt.date, message_id: int) -> DailyPost:
        guild, day = v.snowflake("guild_id", guild_id), v.day("date", date)
        post = await self._record_daily_post(guild, day, v.snowflake("message_id", message_id), self._now())
        if post is None:
            raise InvalidValue(
                f"no claimed daily post for guild {guild} on {day.isoformat()}: claim it first"
            )
        return post

    async def release_daily_post(self, guild_id: int, date: dt.date) -> None:
        await self._release_daily_post(v.snowflake("guild_id", guild_id), v.day("date", date))

    async def daily_post(self, guild_id: int, date: dt.date) -> DailyPost | None:
        return await self._daily_post(v.snowflake("guild_id", guild_id), v.day("date", date))

    # -- the solver's stock of proven-winnable deals ------------------------------
    async def add_winnable_deals(self, kind: str, cells: int | None, deals: Sequence[int]) -> int:
        key = v.deal_stock(kind, cells)
        return await self._add_winnable_deals(*key, [v.count("deal", d) for d in deals], self._now())

    async def take_winnable_deal(self, kind: str, cells: int | None) -> int | None:
        return await self._take_winnable_deal(*v.deal_stock(kind, cells), self._now())

    async def count_winnable_deals(self, kind: str, cells: int | None) -> int:
        return await self._count_winnable_deals(*v.deal_stock(kind, cells))

    # -- what each backend provides ---------------------------------------------------
    @abstractmethod
    async def _create_game(self, new: v.NewGame, now: dt.datetime) -> GameRow:
        """Insert, or ``ActiveGameExists`` with the owner's active game of that kind."""

    @abstractmethod
    async def _get_game(self, game_id: int) -> GameRow | None: ...

    @abstractmethod
    async def _active_game(self, owner_id: int, kind: str) -> GameRow | None: ...

    @abstractmethod
    async def _active_games(self, owner_id: int) -> list[GameRow]: ...

    @abstractmethod
    async def _change(self, change: v.Change, now: dt.datetime) -> GameRow:
        """The guarded update (+ history row when it finishes), or GameNotFound / GameNotActive /
        VersionConflict."""

    @abstractmethod
    async def _record_hint(self, game_id: int, now: dt.datetime) -> GameRow | None:
        """hints + 1 on an active game; None if there is no active game with this id."""

    @abstractmethod
    async def _set_message(
        self, game_id: int, channel_id: int | None, message_id: int | None, now: dt.datetime
    ) -> GameRow | None: ...

    @abstractmethod
    async def _get_result(self, game_id: int) -> FinishedGame | None: ...

    @abstractmethod
    async def _mark_damaged(self, game_id: int, reason: str, now: dt.datetime) -> bool: ...

    @abstractmethod
    async def _leaderboard(self, board: v.Board, limit: int, offset: int) -> list[LeaderboardEntry]: ...

    @abstractmethod
    async def _leaderboard_size(self, board: v.Board) -> int: ...

    @abstractmethod
    async def _player_stats(
        self, user_id: int, kind: str, scope: tuple[str, int]
    ) -> tuple[Summary, list[dt.date]]:
        """The player's summary in the scope (``rows.combine_stats``) and the daily days counted."""

    @abstractmethod
    async def _daily_results(
        self, kind: str, date: dt.date, guild_id: int | None, limit: int, offset: int
    ) -> list[FinishedGame]: ...

    @abstractmethod
    async def _daily_code(self, kind: str, date: dt.date) -> str | None: ...

    @abstractmethod
    async def _set_daily_code(self, kind: str, date: dt.date, code: str, now: dt.datetime) -> str: ...

    @abstractmethod
    async def _guild_settings(self, guild_id: int) -> GuildSettings | None: ...

    @abstractmethod
    async def _set_guild_settings(
        self, guild_id: int, changes: dict[str, Any], now: dt.datetime
    ) -> GuildSettings: ...

    @abstractmethod
    async def _user_language(self, user_id: int) -> str | None: ...

    @abstractmethod
    async def _set_user_language(self, user_id: int, language: str | None, now: dt.datetime) -> None: ...

    @abstractmethod
    async def _user_deck(self, user_id: int) -> Deck | None: ...

    @abstractmethod
    async def _set_user_deck(self, user_id: int, deck: Deck | None, now: dt.datetime) -> None: ...

    @abstractmethod
    async def _pending_daily_posts(self, date: dt.date, minutes: int) -> list[GuildSettings]: ...

    @abstractmethod
    async def _claim_daily_post(
        self, guild_id: int, date: dt.date, channel_id: int, now: dt.datetime, stale_before: dt.datetime
    ) -> bool:
        """Insert the claim, or retake an unsent one claimed at or before ``stale_before``."""

    @abstractmethod
    async def _record_daily_post(
        self, guild_id: int, date: dt.date, message_id: int, now: dt.datetime
    ) -> DailyPost | None: ...

    @abstractmethod
    async def _release_daily_post(self, guild_id: int, date: dt.date) -> None: ...

    @abstractmethod
    async def _daily_post(self, guild_id: int, date: dt.date) -> DailyPost | None: ...

    @abstractmethod
    async def _add_winnable_deals(self, kind: str, cells: int, deals: list[int], now: dt.datetime) -> int: ...

    @abstractmethod
    async def _take_winnable_deal(self, kind: str, cells: int, now: dt.datetime) -> int | None: ...

    @abstractmethod
    async def _count_winnable_deals(self, kind: str, cells: int) -> int: ...

    # -- races --------------------------------------------------------------------
    async def create_race(
        self,
        kind: str,
        code: str,
        creator_id: int,
        guild_id: int | None,
        channel_id: int,
        *,
        cells: int | None,
        starts_at: dt.datetime,
        time_limit: int,
        language: str | None = None,
        chosen: bool = False,
    ) -> RaceRow:
        new = race_rows.new_race(
            kind, code, creator_id, guild_id, channel_id, cells, starts_at, time_limit, language, chosen
        )
        return await self._create_race(new, self._now())

    async def get_race(self, race_id: int) -> RaceRow:
        checked = v.snowflake("race_id", race_id)
        race = await self._get_race(checked)
        if race is None:
            raise RaceNotFound(checked)
        return race

    async def set_race_message(self, race_id: int, message_id: int) -> RaceRow:
        checked = v.snowflake("race_id", race_id)
        race = await self._set_race_message(checked, v.snowflake("message_id", message_id))
        if race is None:
            raise RaceNotFound(checked)
        return race

    async def join_race(self, race_id: int, user_id: int, *, limit: int = MAX_RACE_PLAYERS) -> JoinOutcome:
        race, user = v.snowflake("race_id", race_id), v.snowflake("user_id", user_id)
        return await self._join_race(race, user, race_rows.player_limit(limit), self._now())

    async def leave_race(self, race_id: int, user_id: int) -> RaceRow | None:
        race, user = v.snowflake("race_id", race_id), v.snowflake("user_id", user_id)
        return await self._leave_race(race, user, self._now())

    async def race_players(self, race_id: int) -> list[RacePlayer]:
        return await self._race_players(v.snowflake("race_id", race_id))

    async def race_games(self, race_id: int) -> list[GameRow]:
        return await self._race_games(v.snowflake("race_id", race_id))

    async def start_race(self, race_id: int, *, min_players: int = 2) -> RaceRow | None:
        fewest = race_rows.player_limit(min_players)
        return await self._start_race(v.snowflake("race_id", race_id), fewest, self._now())

    async def cancel_race(self, race_id: int) -> RaceRow | None:
        return await self._cancel_race(v.snowflake("race_id", race_id), self._now())

    async def set_race_game(self, race_id: int, user_id: int, game_id: int) -> None:
        race, user = v.snowflake("race_id", race_id), v.snowflake("user_id", user_id)
        await self._set_race_game(race, user, v.snowflake("game_id", game_id))

    async def finish_race(self, race_id: int, places: Sequence[tuple[int, int]]) -> RaceRow | None:
        checked = race_rows.places(list(places))
        return await self._finish_race(v.snowflake("race_id", race_id), checked, self._now())

    async def claim_race_result(
        self, race_id: int, *, stale_after: dt.timedelta = dt.timedelta(minutes=10)
    ) -> bool:
        now = self._now()
        return await self._claim_race_result(v.snowflake("race_id", race_id), now, now - stale_after)

    async def record_race_result(self, race_id: int, message_id: int) -> RaceRow:
        checked = v.snowflake("race_id", race_id)
        race = await self._record_race_result(checked, v.snowflake("message_id", message_id))
        if race is None:
            raise InvalidValue(f"race {checked} has no claimed result: claim it first")
        return race

    async def settle_race(self, race_id: int) -> None:
        await self._settle_race(v.snowflake("race_id", race_id))

    async def unsettled_races(self) -> list[RaceRow]:
        return await self._unsettled_races()

    async def race_of_game(self, game_id: int) -> RaceRow | None:
        return await self._race_of_game(v.snowflake("game_id", game_id))

    async def open_race_of(self, user_id: int, kind: str) -> RaceRow | None:
        return await self._open_race_of(v.snowflake("user_id", user_id), v.kind(kind))

    async def race_record(self, user_id: int, kind: str, *, guild_id: int | None = None) -> RaceRecord:
        user, checked = v.snowflake("user_id", user_id), v.kind(kind)
        guild = v.snowflake("guild_id", guild_id, optional=True)
        return await self._race_record(user, checked, guild) or RaceRecord(user, 0, 0)

    async def race_leaderboard(
        self,
        kind: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[RaceRecord]:
        channel = v.snowflake("channel_id", channel_id, optional=True)
        guild = v.snowflake("guild_id", guild_id, optional=True)
        if (channel is None) == (guild is None):
            raise InvalidValue("give exactly one of channel_id and guild_id")
        scope = ("channel_id", channel) if channel is not None else ("guild_id", guild)
        assert scope[1] is not None
        return await self._race_leaderboard(v.kind(kind), (scope[0], scope[1]), *v.page(limit, offset))

    @abstractmethod
    async def _create_race(self, new: dict[str, Any], now: dt.datetime) -> RaceRow: ...

    @abstractmethod
    async def _get_race(self, race_id: int) -> RaceRow | None: ...

    @abstractmethod
    async def _set_race_message(self, race_id: int, message_id: int) -> RaceRow | None: ...

    @abstractmethod
    async def _join_race(self, race_id: int, user_id: int, limit: int, now: dt.datetime) -> JoinOutcome: ...

    @abstractmethod
    async def _leave_race(self, race_id: int, user_id: int, now: dt.datetime) -> RaceRow | None: ...

    @abstractmethod
    async def _race_players(self, race_id: int) -> list[RacePlayer]: ...

    @abstractmethod
    async def _race_games(self, race_id: int) -> list[GameRow]: ...

    @abstractmethod
    async def _start_race(self, race_id: int, min_players: int, now: dt.datetime) -> RaceRow | None: ...

    @abstractmethod
    async def _cancel_race(self, race_id: int, now: dt.datetime) -> RaceRow | None: ...

    @abstractmethod
    async def _set_race_game(self, race_id: int, user_id: int, game_id: int) -> None: ...

    @abstractmethod
    async def _finish_race(
        self, race_id: int, places: list[tuple[int, int]], now: dt.datetime
    ) -> RaceRow | None: ...

    @abstractmethod
    async def _claim_race_result(self, race_id: int, now: dt.datetime, stale_before: dt.datetime) -> bool: ...

    @abstractmethod
    async def _record_race_result(self, race_id: int, message_id: int) -> RaceRow | None: ...

    @abstractmethod
    async def _settle_race(self, race_id: int) -> None: ...

    @abstractmethod
    async def _unsettled_races(self) -> list[RaceRow]: ...

    @abstractmethod
    async def _race_of_game(self, game_id: int) -> RaceRow | None: ...

    @abstractmethod
    async def _open_race_of(self, user_id: int, kind: str) -> RaceRow | None: ...

    @abstractmethod
    async def _race_record(self, user_id: int, kind: str, guild_id: int | None) -> RaceRecord | None: ...

    @abstractmethod
    async def _race_leaderboard(
        self, kind: str, scope: tuple[str, int], limit: int, offset: int
    ) -> list[RaceRecord]: ...
