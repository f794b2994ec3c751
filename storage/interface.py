"""What storage answers and refuses with: row types, errors, and the ranking rules.

The operations are ``storage.store.Store``'s methods (one front for both
databases: ``storage.sqlite``, aiosqlite, and ``storage.postgres``, asyncpg).
Rows are frozen dataclasses (plain values, no connection attached), ids of
Discord objects are ``int`` snowflakes, times are timezone-aware UTC
``datetime`` values and daily dates are ``datetime.date`` values (UTC days).

Ranking rules (also used by the README):

* **Jeu du Boulanger** (``kind="bakers"``): a won game always ranks above a
  game that was not won. Wins rank unassisted (no hint asked for) first, then
  by fewer moves (``move_count``: moves on the board at the end, undone moves
  not counted), then less time. Games not won rank below all wins by more
  cards on the foundations (``home``), then unassisted first, then fewer
  moves, then less time. The reference score is shown beside the entry but
  never ranks: a cell-column shuttle raises it without limit.
* **Calculation** (``kind="calculation"``): more cards on the foundations
  (the score; 52 is a win), then unassisted first, then fewer moves, then
  less time.
* **Time** is ``seconds``: from the game's first move to its finish, whole
  seconds (the clock starts at the first move, not at the deal). A game
  finished without a move, or before schema version 9 (when times were not
  kept), has no time and ranks after every timed game at the same moves.
* **Help**: ``hints`` counts the hints a player was given (a move to play, or
  "lost, undo N"), ``undos`` the undos taken; both are kept with the result.
  Undos do not rank (undo is part of the game); a hint does.
* **Variants**: a game's option that makes its boards incomparable (Jeu du
  Boulanger's free cells) is stored as an opaque ``variant`` text the game's
  front chooses (``"4"`` for four cells; ``""`` for a game without one, such as
  Calculation). Storage only compares it: a board narrowed to a variant ranks
  that variant's games, an unnarrowed board all of them.
* **Any other game**: storage accepts every kind registered in the engine
  (``engine.GAMES``) and ranks it by the game class's ``rank_key`` classmethod
  (asked with an ``engine.Finish``), else by higher score, then fewer moves
  (``storage.ranking``), so a new game needs no storage change.
* Then earlier finish.
* Final tie-break everywhere: the lower game id (the earlier-created game).
* **Leaderboards list players, not games**: each player appears once, with
  their best game in the scope (channel or guild, period), ranked by the rules
  above. The daily board may also be global (neither channel nor guild: the
  daily deal is the same everywhere); the other boards may not. ``week`` means since Monday 00:00 UTC of the current ISO week.
* **Comparable games only**: every game records its deal ``source``:
  ``stock`` (a new deal from the winnable stock, or Calculation's random
  deal), ``daily`` (the daily challenge) or ``practice`` (a typed code or
  ``any_deal``). The ``all`` and ``week`` leaderboards rank ``stock`` games
  only, and one variant when ``variant`` is given. A deal's board (``code``)
  ranks every finished game of that exact code in the scope, whatever its
  source (everyone played the same cards).
* **Daily challenge**: only a player's first finished attempt (won, lost or
  resigned) at a kind's challenge of a given date counts, in the daily
  leaderboard, the daily results and the daily streaks.
* **Stats**: played = finished games (won + lost + resigned), won, win % =
  won / played (practice games included), practice = finished practice
  games, best = the best stock or daily game by the ranking rules (so it
  cannot be farmed), best score = the highest score of those games (a
  reference figure, never a rank), fastest and average winning time = over
  the timed stock and daily wins. Daily streaks count
  consecutive UTC days on which the player finished that kind's daily
  challenge; the current streak is still alive if the last such day is today
  or yesterday (the player may not have played yet today). Streaks are global
  (the daily challenge is the same on every server) even when stats are
  filtered by guild.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

Status = Literal["active", "won", "lost", "resigned"]
Ending = Literal["won", "lost", "resigned"]
FINISHED_STATUSES: tuple[Ending, ...] = ("won", "lost", "resigned")
Period = Literal["all", "week", "daily"]
Deck = Literal["two", "four"]
# Where a game's deal came from: a new deal from the winnable stock (or Calculation's random
# deal), the daily challenge, or a deal the player chose (a typed code, ``any_deal``).
# ``race``: a game of a race (issue #17), ranked with its race, not on the main boards.
Source = Literal["stock", "daily", "practice", "race"]
SOURCES: tuple[Source, ...] = ("stock", "daily", "practice", "race")
DECKS: tuple[Deck, ...] = ("two", "four")

# Longest single action accepted by ``append_move``: engine notations are short, but a
# batch (the Home button: up to 52 moves as ``6h,ah,…``) is one action of up to 155.
MAX_ACTION_LENGTH = 160


# -- errors ---------------------------------------------------------------------
class StorageError(Exception):
    """Base class of every error storage raises on purpose."""


class DatabaseUnusable(StorageError):
    """The database file cannot be opened or used (corrupt, locked, unreadable, a directory...).

    Raised at start-up instead of crashing in a loop; the file is never modified
    or replaced. ``path`` is the file, ``reason`` a short machine key
    (``"corrupt"``, ``"locked"``, ``"unreadable"``, ``"not_a_file"``,
    ``"foreign"``, ``"readonly"``; while running: ``"vanished"`` or ``"replaced"``,
    the file was unlinked or swapped, and nothing is acknowledged any more), the
    message says what to do.
    """

    def __init__(self, message: str, *, path: str, reason: str) -> None:
        super().__init__(message)
        self.path = path
        self.reason = reason


class DatabaseTooNew(DatabaseUnusable):
    """The database was written by a newer version of the code (never downgraded)."""

    def __init__(self, message: str, *, path: str, found: int, supported: int) -> None:
        super().__init__(message, path=path, reason="too_new")
        self.found = found
        self.supported = supported


class DatabaseBusy(StorageError):
    """Another process kept the database locked longer than the busy timeout; nothing was changed."""


class GameNotFound(StorageError, LookupError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class VersionConflict(StorageError):
    """The game changed since the caller read it (another click or process won the race).

    ``current`` is the game as stored now, so the caller can re-render or retry.
    """

    def __init__(self, expected: int, current: GameRow) -> None:
        super().__init__(
            f"game {current.id} is at version {current.version}, not {expected}: it changed meanwhile"
        )
        self.expected = expected
        self.current = current


class GameNotActive(StorageError):
    """The game is already finished; it accepts no more moves."""

    def __init__(self, current: GameRow) -> None:
        super().__init__(f"game {current.id} is {current.status}, not active")
        self.current = current


class ActiveGameExists(StorageError):
    """The player already has an active game of this kind; ``existing`` is it."""

    def __init__(self, existing: GameRow) -> None:
        super().__init__(
            f"user {existing.owner_id} already has an active {existing.kind} game (id {existing.id})"
        )
        self.existing = existing


class InvalidValue(StorageError, ValueError):
    """An argument storage refuses before touching the database (bad kind, status, action...)."""


# -- rows -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GameRow:
    """One game as stored. ``code`` + ``moves`` is what ``engine.replay`` needs."""

    id: int
    kind: str
    code: str
    # The game's option as its front names it (``""``: none), e.g. Jeu du Boulanger's cell count.
    variant: str
    owner_id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    moves: tuple[str, ...]
    status: Status
    score: int
    move_count: int
    started_at: dt.datetime
    updated_at: dt.datetime
    finished_at: dt.datetime | None
    daily_date: dt.date | None
    version: int
    source: str = "stock"
    # Hints asked for and undos taken in this game (help on the record, shown with results).
    hints: int = 0
    undos: int = 0
    # Cards on the foundations now: the progress that ranks unfinished games and races (None
    # until a change reported it: a game without moves yet).
    home: int | None = None
    # When the first move was played: a game's time runs from here to its finish.
    first_move_at: dt.datetime | None = None
    # The board warned that the deal could no longer be won (no help: it ranks as before).
    warned: bool = False

    @property
    def is_active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One row of the score history: a game as it ended."""

    game_id: int
    kind: str
    code: str
    variant: str
    user_id: int
    guild_id: int | None
    channel_id: int | None
    status: Ending
    score: int
    move_count: int
    finished_at: dt.datetime
    daily_date: dt.date | None
    # True for the player's first finished attempt at this daily challenge.
    counts_for_daily: bool
    source: str = "stock"
    hints: int = 0
    undos: int = 0
    # Cards on the foundations at the end (None if the finish did not say).
    home: int | None = None
    # First move to finish in whole seconds; None for a game finished without a move (or
    # finished before schema version 9, when times were not kept).
    seconds: int | None = None
    # The board warned that the deal could no longer be won (not help: ``assisted`` ignores it).
    warned: bool = False

    @property
    def assisted(self) -> bool:
        return self.hints > 0

    @property
    def practice(self) -> bool:
        return self.source == "practice"

    @property
    def won(self) -> bool:
        return self.status == "won"


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """A player's place: their best game in the scope, plus how many they played and won there."""

    rank: int
    user_id: int
    best: FinishedGame
    played: int
    won: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    kind: str
    played: int
    won: int
    best: FinishedGame | None
    current_streak: int
    best_streak: int
    last_daily: dt.date | None
    # The highest score of any finished game (for Jeu du Boulanger not necessarily ``best``'s).
    best_score: int = 0
    # Finished practice games (a typed code, ``any_deal``), included in ``played`` and ``won``.
    practice: int = 0
    # Fastest win and the average winning time, in seconds, over the non-practice wins with a
    # known time (None when there is none).
    fastest_win: int | None = None
    average_win: float | None = None

    @property
    def win_rate(self) -> float:
        """Won / played, 0.0 when nothing was played (a fraction, not a percentage)."""
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    daily_channel_id: int | None = None
    # Minutes after 00:00 UTC at which the daily post goes out (0..1439).
    post_minute: int = 0
    language: str | None = None
    # Why Discord refused the daily channel (e.g. "403 Missing Access"); no post is due while set.
    # Setting ``daily_channel_id`` again clears it.
    daily_disabled: str | None = None


@dataclass(frozen=True, slots=True)
class UserChoices:
    """Everything a player chose for themselves, read at once (one round trip where a press
    needed three or four): None where they chose nothing (the default)."""

    language: str | None = None
    deck: Deck | None = None
    lost_warning: bool | None = None
    settings: tuple[tuple[str, str], ...] = ()  # the games' own (``player_settings``), by name


@dataclass(frozen=True, slots=True)
class DailyPost:
    """One guild's post of one day's challenges. ``message_id`` None means claimed but not sent yet."""

    guild_id: int
    date: dt.date
    channel_id: int
    message_id: int | None
    claimed_at: dt.datetime
    posted_at: dt.datetime | None


# -- races ----------------------------------------------------------------------
RaceStatus = Literal["lobby", "running", "finished", "cancelled"]
# Who or what cancelled a race: its creator, too few players at the start, everyone left the lobby.
CancelReason = Literal["creator", "too_few", "empty"]
# What ``join_race`` did: joined now, was already in, the race is full, or no longer a lobby.
JoinOutcome = Literal["joined", "already", "full", "closed"]
MAX_RACE_PLAYERS = 25


class RaceNotFound(StorageError, LookupError):
    """No race has this id."""

    def __init__(self, race_id: int) -> None:
        super().__init__(f"no race with id {race_id}")
        self.race_id = race_id


@dataclass(frozen=True, slots=True)
class RaceRow:
    """One race: the same deal for every player, a lobby until ``started_at``, then a time limit.

    ``message_id`` is the lobby message (the standings once it runs); ``settled`` turns True
    once nothing is left to post or edit for it (the result posted, a cancellation shown).
    ``result_claimed_at`` is set by the first attempt to post the result: a later attempt
    knows that one may have reached Discord unrecorded."""

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    kind: str
    variant: str
    code: str
    creator_id: int
    language: str | None
    status: RaceStatus
    created_at: dt.datetime
    starts_at: dt.datetime
    time_limit: int  # seconds
    started_at: dt.datetime | None
    ends_at: dt.datetime | None
    finished_at: dt.datetime | None
    result_message_id: int | None
    settled: bool
    cancelled_by: CancelReason | None = None
    result_claimed_at: dt.datetime | None = None
    chosen: bool = False  # its creator chose the deal: a friendly race, counted for no one

    @property
    def open(self) -> bool:
        return self.status in ("lobby", "running")


@dataclass(frozen=True, slots=True)
class RacePlayer:
    """One player of a race: their game once it started, their final place once it ended."""

    race_id: int
    user_id: int
    joined_at: dt.datetime
    game_id: int | None
    place: int | None


@dataclass(frozen=True, slots=True)
class RaceRecord:
    """A player's races in a scope: finished races they played, and how many they won."""

    user_id: int
    played: int
    won: int


# Sentinel for "leave this setting unchanged" in ``set_guild_settings``.
class _Unchanged:
    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED: _Unchanged = _Unchanged()
