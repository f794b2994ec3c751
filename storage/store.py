"""The one public front of storage: every operation written once, checks first, then one database.

``Store`` is what the bot codes against. Each public method validates its
arguments (``storage.validate``), reads the clock, calls the method of the
same purpose on its database (``self._db``: a ``SqliteDatabase`` or a
``PostgresDatabase``) with checked values, and turns what it answers into the
interface's rows and errors. A database supplies only the SQL of its dialect
and its transactions, so the two can differ in how they store and lock, never
in what they accept or answer. ``_db`` is typed as the union of the two, so
``mypy`` checks every call against both: an operation a database lacks, or
takes differently, is a type error, with no third list of signatures to keep.

Every mutating call is one transaction, committed (durably) before it
returns. Optimistic concurrency: calls that change a game take the
``expected_version`` the caller last saw and raise ``VersionConflict`` if the
game moved on meanwhile; a successful change returns the new row with
``version`` increased by one.

A new operation: a public method here, plus its method in
``storage/sqlite/*.py`` and ``storage/postgres/*.py`` (see
``tests/test_storage_structure.py``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Self, TypeAlias

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
    UserChoices,
    _Unchanged,
)
from storage.rows import stats_scope

if TYPE_CHECKING:
    from storage.postgres.database import PostgresDatabase
    from storage.sqlite.database import SqliteDatabase

    Database: TypeAlias = SqliteDatabase | PostgresDatabase


class Store:
    """Async persistence of games, history, settings, daily posts, winnable deals and races.

    Open one with ``storage.open_store(path_or_url)``; ``SqliteStore`` and
    ``PostgresStore`` add only how each opens (and SQLite's lost-file watch).
    """

    def __init__(self, database: Database) -> None:
        self._db = database

    @property
    def path(self) -> str:
        """The SQLite file, or the PostgreSQL URL without its password."""
        return self._db.path

    def _now(self) -> dt.datetime:
        return self._db.now()

    def tell_when_lost(self, call: Callable[[DatabaseUnusable], None] | None) -> None:
        """Have ``call`` told once, with the error, when the database is found lost while in use:
        its file unlinked, replaced, truncated or its -wal removed (SQLite), its schema dropped
        (PostgreSQL), or the last game row this store wrote missing or older (both)."""
        self._db.on_lost = call

    async def close(self) -> None:
        """Finish the writes already under way, then close (twice is fine)."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def ping(self) -> None:
        """Answer a trivial query (the health check: the database is there and answers)."""
        await self._db.ping()

    async def integrity_check(self) -> list[str]:
        """Problems found by the database's own full check (empty list: all fine)."""
        return await self._db.integrity_check()

    # -- games --------------------------------------------------------------------
    async def create_game(
        self,
        kind: str,
        code: str,
        owner_id: int,
        guild_id: int | None,
        channel_id: int | None,
        *,
        variant: str = "",
        daily_date: dt.date | None = None,
        source: str = "stock",
    ) -> GameRow:
        """Start a game (``source``: one of ``SOURCES``; ``variant``: the game's option as its
        front names it, "" for none; boards, races and the stock never mix variants).

        ``ActiveGameExists`` if the owner already has an active one of this kind.
        """
        new = v.new_game(kind, code, owner_id, guild_id, channel_id, variant, daily_date, source)
        return self._db.note_written(await self._db.create_game(new, self._now()))

    async def get_game(self, game_id: int) -> GameRow:
        """The game with this id; ``GameNotFound`` if none."""
        checked = v.snowflake("game_id", game_id)
        game = await self._db.get_game(checked)
        if game is None:
            raise GameNotFound(checked)
        return game

    async def active_game(self, owner_id: int, kind: str) -> GameRow | None:
        """The owner's active game of this kind, if any (at most one: the schema says so)."""
        return await self._db.active_game(v.snowflake("owner_id", owner_id), v.kind(kind))

    async def active_games(self, owner_id: int) -> list[GameRow]:
        """The owner's active games, one per kind at most."""
        return await self._db.active_games(v.snowflake("owner_id", owner_id))

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
        """Append one action (a notation or ``"undo"``) and the resulting score, move count and
        cards home (``home``; None keeps the stored value).

        The first action starts the game's clock (``first_move_at``); an ``"undo"`` action
        is counted in ``undos``.

        ``finish`` ("won" or "lost") ends the game in the same transaction and
        writes its history row, so a winning move is never stored without its
        result. ``VersionConflict`` if stale, ``GameNotActive`` if finished.
        """
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
        """Several actions in one transaction (one version step); same rules as ``append_move``."""
        change = v.moves(game_id, expected_version, actions, score, move_count, finish, home)
        return self._db.note_written(await self._db.change(change, self._now()))

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
        """End an active game as won / lost / resigned and write its history row, atomically."""
        change = v.finish(game_id, expected_version, status, score, move_count, home)
        return self._db.note_written(await self._db.change(change, self._now()))

    async def record_hint(self, game_id: int) -> GameRow:
        """Count one hint given in an active game (no version step: a hint changes no position).

        ``GameNotFound`` if no such game, ``GameNotActive`` if it is finished.
        """
        checked = v.snowflake("game_id", game_id)
        return await self._active_or_why(checked, await self._db.record_hint(checked, self._now()))

    async def record_warning(self, game_id: int) -> GameRow:
        """Note that the board warned this active game its deal can no longer be won (no
        version step, and no help: the game stays unassisted).

        ``GameNotFound`` if no such game, ``GameNotActive`` if it is finished.
        """
        checked = v.snowflake("game_id", game_id)
        return await self._active_or_why(checked, await self._db.record_warning(checked, self._now()))

    async def _active_or_why(self, game_id: int, game: GameRow | None) -> GameRow:
        """The row an active-only update returned, or why there was none (no game, or finished)."""
        if game is not None:
            return self._db.note_written(game)
        current = await self._db.get_game(game_id)
        if current is None:
            raise GameNotFound(game_id)
        raise GameNotActive(current)

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> GameRow:
        """Record where the game's board message is (no version check: it never races a move)."""
        checked = v.snowflake("game_id", game_id)
        channel = v.snowflake("channel_id", channel_id, optional=True)
        message = v.snowflake("message_id", message_id, optional=True)
        game = await self._db.set_message(checked, channel, message, self._now())
        if game is None:
            raise GameNotFound(checked)
        return self._db.note_written(game)

    async def mark_damaged(self, game_id: int, reason: str) -> bool:
        """Record that game ``game_id``'s stored record no longer replays (``reason`` says why),
        leaving the game itself as it is; True the first time, False once it was marked."""
        checked = v.snowflake("game_id", game_id)
        why = v.text("reason", reason[:500] if isinstance(reason, str) else reason)
        return await self._db.mark_damaged(checked, why, self._now())

    async def get_result(self, game_id: int) -> FinishedGame | None:
        """The history row of a finished game (None while it is active)."""
        return await self._db.get_result(v.snowflake("game_id", game_id))

    # -- rankings and stats -------------------------------------------------------
    async def leaderboard(
        self,
        kind: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        period: str = "all",
        variant: str | None = None,
        daily_date: dt.date | None = None,
        now: dt.datetime | None = None,
        limit: int = 10,
        offset: int = 0,
        code: str | None = None,
    ) -> list[LeaderboardEntry]:
        """Players ranked by their best game in a channel or guild (give one of the two; neither:
        the global daily board, every player's first attempt at the day's deal, wherever played).

        ``period``: ``"all"``, ``"week"`` (since Monday 00:00 UTC) or
        ``"daily"`` (first attempts at ``daily_date``'s challenge, default
        today). ``variant`` narrows the board to one variant of the game (None
        or ``""``: every variant together). The
        ``all`` and ``week`` boards rank ``stock`` games only; with ``code``
        the board ranks every game of that exact deal, whatever its source.
        """
        board = self._board(kind, channel_id, guild_id, period, variant, daily_date, now, code)
        return await self._db.leaderboard(board, *v.page(limit, offset))

    async def leaderboard_size(
        self,
        kind: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        period: str = "all",
        variant: str | None = None,
        daily_date: dt.date | None = None,
        now: dt.datetime | None = None,
        code: str | None = None,
    ) -> int:
        """How many players the same leaderboard has (for paging).

        For the global daily board this reads one index entry per player of the day (about
        0.3 s for a million on either backend); its pages themselves stay in milliseconds.
        """
        return await self._db.leaderboard_size(
            self._board(kind, channel_id, guild_id, period, variant, daily_date, now, code)
        )

    def _board(
        self,
        kind: object,
        channel_id: object,
        guild_id: object,
        period: object,
        variant: object,
        daily_date: object,
        now: dt.datetime | None,
        code: object = None,
    ) -> v.Board:
        moment = self._now() if now is None else v.moment("now", now)
        return v.board(kind, channel_id, guild_id, period, variant, daily_date, moment, code)

    async def player_stats(
        self, user_id: int, kind: str, *, guild_id: int | None = None, today: dt.date | None = None
    ) -> PlayerStats:
        """A player's record in one kind: played, won, best, times, daily streaks (``interface``'s rules);
        ``guild_id`` narrows it to one server's games (streaks stay global)."""
        user = v.snowflake("user_id", user_id)
        checked = v.kind(kind)
        scope = stats_scope(v.snowflake("guild_id", guild_id, optional=True))
        day = v.day("today", today, optional=True) or self._now().astimezone(dt.UTC).date()
        summary, dates = await self._db.player_stats(user, checked, scope)
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
        """First attempts at one daily challenge, best first (optionally one guild's players)."""
        checked = (v.kind(kind), v.day("date", date), v.snowflake("guild_id", guild_id, optional=True))
        return await self._db.daily_results(*checked, *v.page(limit, offset))

    async def daily_code(self, kind: str, date: dt.date) -> str | None:
        """The day's stored challenge code of this kind (None before it is drawn)."""
        return await self._db.daily_code(v.kind(kind), v.day("date", date))

    async def set_daily_code(self, kind: str, date: dt.date, code: str) -> str:
        """Store the day's code once; returns the stored code (an earlier one wins a race)."""
        return await self._db.set_daily_code(v.kind(kind), v.day("date", date), v.code(code), self._now())

    # -- settings -----------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults if never set)."""
        guild = v.snowflake("guild_id", guild_id)
        return await self._db.guild_settings(guild) or GuildSettings(guild)

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        daily_channel_id: int | _Unchanged | None = UNCHANGED,
        post_minute: int | _Unchanged = UNCHANGED,
        language: str | _Unchanged | None = UNCHANGED,
        daily_disabled: str | _Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        """Change the given settings; a new ``daily_channel_id`` also clears ``daily_disabled``."""
        guild = v.snowflake("guild_id", guild_id)
        changes = v.guild_changes(daily_channel_id, post_minute, language, daily_disabled)
        return await self._db.set_guild_settings(guild, changes, self._now())

    async def user_choices(self, user_id: int) -> UserChoices:
        """A player's language, deck, warning and game settings, in one read."""
        return await self._db.user_choices(v.snowflake("user_id", user_id))

    async def user_language(self, user_id: int) -> str | None:
        """The language a player chose (None: follow Discord's locale)."""
        return await self._db.user_language(v.snowflake("user_id", user_id))

    async def user_deck(self, user_id: int) -> Deck | None:
        """The deck a player chose (None: the default two-colour deck)."""
        return await self._db.user_deck(v.snowflake("user_id", user_id))

    async def set_user_deck(self, user_id: int, deck: Deck | None) -> None:
        """Choose a player's deck (``DECKS``; None: back to the default)."""
        user = v.snowflake("user_id", user_id)
        if deck is not None and deck not in DECKS:
            raise InvalidValue(f"deck must be one of {', '.join(DECKS)} or None, not {deck!r:.40}")
        await self._db.set_user_deck(user, deck, self._now())

    async def user_lost_warning(self, user_id: int) -> bool | None:
        """Whether a player wants the board's "can no longer be won" warning (None: the
        default, on)."""
        return await self._db.user_lost_warning(v.snowflake("user_id", user_id))

    async def set_user_lost_warning(self, user_id: int, on: bool | None) -> None:
        """Turn a player's "can no longer be won" warning on or off (None: back to the default)."""
        user = v.snowflake("user_id", user_id)
        if on is not None and not isinstance(on, bool):
            raise InvalidValue(f"lost_warning must be True, False or None, not {on!r:.40}")
        await self._db.set_user_lost_warning(user, on, self._now())

    async def player_settings(self, user_id: int) -> dict[str, str]:
        """A player's settings by name, as ``set_player_setting`` stored them (a name not in
        it: its default, which the caller knows). Storage knows no name: a game's front
        chooses its own."""
        return await self._db.player_settings(v.snowflake("user_id", user_id))

    async def set_player_setting(self, user_id: int, name: str, value: str | None) -> None:
        """Store one of a player's settings (``value`` None: back to its default, no row)."""
        user = v.snowflake("user_id", user_id)
        key = v.setting_text("name", name)
        checked = None if value is None else v.setting_text("value", value)
        await self._db.set_player_setting(user, key, checked, self._now())

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """Choose a player's language (None: follow Discord's locale again)."""
        user = v.snowflake("user_id", user_id)
        checked = v.text("language", language, optional=True, max_length=35)
        await self._db.set_user_language(user, checked, self._now())

    # -- daily posts --------------------------------------------------------------
    async def pending_daily_posts(
        self, date: dt.date, *, now: dt.datetime | None = None
    ) -> list[GuildSettings]:
        """Guilds with a daily channel (not disabled) whose post for ``date`` is due and not sent."""
        day = v.day("date", date)
        minutes = v.minutes_into(day, self._now() if now is None else v.moment("now", now))
        return [] if minutes < 0 else await self._db.pending_daily_posts(day, minutes)

    async def claim_daily_post(
        self,
        guild_id: int,
        date: dt.date,
        channel_id: int,
        *,
        now: dt.datetime | None = None,
        stale_after: dt.timedelta = dt.timedelta(minutes=10),
    ) -> bool:
        """Atomically take the right to post; False if already posted or freshly claimed elsewhere.

        A claim never followed by ``record_daily_post_message`` (the poster
        crashed) can be taken again once it is ``stale_after`` old.
        """
        guild, day = v.snowflake("guild_id", guild_id), v.day("date", date)
        channel = v.snowflake("channel_id", channel_id)
        moment = self._now() if now is None else v.moment("now", now)
        return await self._db.claim_daily_post(guild, day, channel, moment, moment - stale_after)

    async def record_daily_post_message(self, guild_id: int, date: dt.date, message_id: int) -> DailyPost:
        """Record the sent message of a claimed daily post; ``InvalidValue`` if it was not claimed."""
        guild, day = v.snowflake("guild_id", guild_id), v.day("date", date)
        post = await self._db.record_daily_post(
            guild, day, v.snowflake("message_id", message_id), self._now()
        )
        if post is None:
            raise InvalidValue(
                f"no claimed daily post for guild {guild} on {day.isoformat()}: claim it first"
            )
        return post

    async def release_daily_post(self, guild_id: int, date: dt.date) -> None:
        """Give up an unsent claim (sending failed), so a later attempt may post."""
        await self._db.release_daily_post(v.snowflake("guild_id", guild_id), v.day("date", date))

    async def daily_post(self, guild_id: int, date: dt.date) -> DailyPost | None:
        """One guild's daily post of ``date`` (claimed or sent), if any."""
        return await self._db.daily_post(v.snowflake("guild_id", guild_id), v.day("date", date))

    # -- the solver's stock of proven-winnable deals ------------------------------
    async def add_winnable_deals(self, kind: str, variant: str, deals: Sequence[int]) -> int:
        """Add deal numbers to the stock (duplicates ignored); returns how many were new."""
        key = v.deal_stock(kind, variant)
        return await self._db.add_winnable_deals(*key, [v.count("deal", d) for d in deals], self._now())

    async def take_winnable_deal(self, kind: str, variant: str) -> int | None:
        """Atomically take one random unused deal out of the stock (None when empty)."""
        return await self._db.take_winnable_deal(*v.deal_stock(kind, variant), self._now())

    async def count_winnable_deals(self, kind: str, variant: str) -> int:
        """Unused deals left in the stock."""
        return await self._db.count_winnable_deals(*v.deal_stock(kind, variant))

    # -- what each backend provides ---------------------------------------------------
    # -- races --------------------------------------------------------------------
    async def create_race(
        self,
        kind: str,
        code: str,
        creator_id: int,
        guild_id: int | None,
        channel_id: int,
        *,
        variant: str,
        starts_at: dt.datetime,
        time_limit: int,
        language: str | None = None,
        chosen: bool = False,
    ) -> RaceRow:
        """A new race in its lobby, with its creator as the first player; ``chosen``: on a
        deal its creator typed (a friendly race, counted in no one's race record)."""
        new = race_rows.new_race(
            kind, code, creator_id, guild_id, channel_id, variant, starts_at, time_limit, language, chosen
        )
        return await self._db.create_race(new, self._now())

    async def get_race(self, race_id: int) -> RaceRow:
        """The race with this id; ``RaceNotFound`` if none."""
        checked = v.snowflake("race_id", race_id)
        race = await self._db.get_race(checked)
        if race is None:
            raise RaceNotFound(checked)
        return race

    async def set_race_message(self, race_id: int, message_id: int) -> RaceRow:
        """Record the race's lobby message; ``RaceNotFound`` if no such race."""
        checked = v.snowflake("race_id", race_id)
        race = await self._db.set_race_message(checked, v.snowflake("message_id", message_id))
        if race is None:
            raise RaceNotFound(checked)
        return race

    async def join_race(self, race_id: int, user_id: int, *, limit: int = MAX_RACE_PLAYERS) -> JoinOutcome:
        """Add a player to a lobby (atomically: never more than ``limit`` players)."""
        race, user = v.snowflake("race_id", race_id), v.snowflake("user_id", user_id)
        return await self._db.join_race(race, user, race_rows.player_limit(limit), self._now())

    async def leave_race(self, race_id: int, user_id: int) -> RaceRow | None:
        """Take a player out of a lobby; the creator's rights pass to the earliest other
        player, and a lobby left empty is cancelled. None if the player was not in a lobby."""
        race, user = v.snowflake("race_id", race_id), v.snowflake("user_id", user_id)
        return await self._db.leave_race(race, user, self._now())

    async def race_players(self, race_id: int) -> list[RacePlayer]:
        """The players in the order they joined."""
        return await self._db.race_players(v.snowflake("race_id", race_id))

    async def race_games(self, race_id: int) -> list[GameRow]:
        """The players' race games (those created so far)."""
        return await self._db.race_games(v.snowflake("race_id", race_id))

    async def start_race(self, race_id: int, *, min_players: int = 2) -> RaceRow | None:
        """Lobby → running (ends after its time limit), or → cancelled with fewer than
        ``min_players``; None if it was no longer a lobby (another process moved it)."""
        fewest = race_rows.player_limit(min_players)
        return await self._db.start_race(v.snowflake("race_id", race_id), fewest, self._now())

    async def cancel_race(self, race_id: int) -> RaceRow | None:
        """Lobby → cancelled; None if it was no longer a lobby."""
        return await self._db.cancel_race(v.snowflake("race_id", race_id), self._now())

    async def set_race_game(self, race_id: int, user_id: int, game_id: int) -> None:
        """Record the game a race player plays the race in."""
        race, user = v.snowflake("race_id", race_id), v.snowflake("user_id", user_id)
        await self._db.set_race_game(race, user, v.snowflake("game_id", game_id))

    async def finish_race(self, race_id: int, places: Sequence[tuple[int, int]]) -> RaceRow | None:
        """Running → finished with each (user id, place); None if it was not running."""
        checked = race_rows.places(list(places))
        return await self._db.finish_race(v.snowflake("race_id", race_id), checked, self._now())

    async def claim_race_result(
        self, race_id: int, *, stale_after: dt.timedelta = dt.timedelta(minutes=10)
    ) -> bool:
        """Take the right to post a finished race's result (as ``claim_daily_post``)."""
        now = self._now()
        return await self._db.claim_race_result(v.snowflake("race_id", race_id), now, now - stale_after)

    async def record_race_result(self, race_id: int, message_id: int) -> RaceRow:
        """Record the message of a claimed race result; ``InvalidValue`` if it was not claimed."""
        checked = v.snowflake("race_id", race_id)
        race = await self._db.record_race_result(checked, v.snowflake("message_id", message_id))
        if race is None:
            raise InvalidValue(f"race {checked} has no claimed result: claim it first")
        return race

    async def settle_race(self, race_id: int) -> None:
        """Nothing is left to post or edit for this race."""
        await self._db.settle_race(v.snowflake("race_id", race_id))

    async def unsettled_races(self) -> list[RaceRow]:
        """Races a (re)started bot must look after: lobbies, running, unannounced ends."""
        return await self._db.unsettled_races()

    async def race_of_game(self, game_id: int) -> RaceRow | None:
        """The race a game was played in (None for a game outside races)."""
        return await self._db.race_of_game(v.snowflake("game_id", game_id))

    async def open_race_of(self, user_id: int, kind: str) -> RaceRow | None:
        """The race of ``kind`` the player is still in: a lobby they joined, or a running race
        whose game they are still playing (or have not been given yet)."""
        return await self._db.open_race_of(v.snowflake("user_id", user_id), v.kind(kind))

    async def race_record(self, user_id: int, kind: str, *, guild_id: int | None = None) -> RaceRecord:
        """Finished races the player had a game in, and how many they won (place 1)."""
        user, checked = v.snowflake("user_id", user_id), v.kind(kind)
        guild = v.snowflake("guild_id", guild_id, optional=True)
        return await self._db.race_record(user, checked, guild) or RaceRecord(user, 0, 0)

    async def race_leaderboard(
        self,
        kind: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[RaceRecord]:
        """Players by races won in a channel or guild (then fewer played, then user id)."""
        channel = v.snowflake("channel_id", channel_id, optional=True)
        guild = v.snowflake("guild_id", guild_id, optional=True)
        if (channel is None) == (guild is None):
            raise InvalidValue("give exactly one of channel_id and guild_id")
        scope = ("channel_id", channel) if channel is not None else ("guild_id", guild)
        assert scope[1] is not None
        return await self._db.race_leaderboard(v.kind(kind), (scope[0], scope[1]), *v.page(limit, offset))
