"""Races without Discord: a lobby, the same deal for every player, live standings, one result.

The race keeper sits between the cog (``bot.adapter.cogs.race``) and storage + the game
service. Everything a race is lives in storage (``races``, ``race_players``) and
in its players' games, so a restarted bot picks every race up where it was:
``due`` (called by the cog's loop) starts lobbies whose time has come, ends races
past their time limit and finds races whose end or result was interrupted.

Rules (README, "Races"):

* the first player to win wins and the race ends there; it also ends when every
  player's game is over, or at the time limit;
* the others rank by cards on the foundations, then fewer moves, then less time
  (from the start of the race to their last move); two wins rank by the moment
  (to the millisecond) each was stored, then by game id;
* games still in play when the race ends are ended (resigned) after their
  position is taken for the ranking.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import engine
import storage
from bot.games import GameFront, front_for
from bot.play.feedback import UserFeedback
from bot.play.race_standings import RaceView, Standing, rank, standing
from bot.play.service import RACE_SOURCE, GameInProgress, GameService, StartRequest, at_stake, check_code_kind

__all__ = [
    "DEFAULT_START_IN",
    "DEFAULT_TIME_LIMIT",
    "RaceJoinAsk",
    "RaceKeeper",
    "RaceView",
    "Standing",
    "check_deal",
    "rank",
    "standing",
]

log = logging.getLogger(__name__)

MIN_PLAYERS = 2
DEFAULT_START_IN = 2  # minutes from the lobby to the start
DEFAULT_TIME_LIMIT = 30  # minutes from the start to the end

Notify = Callable[[storage.RaceRow], Awaitable[None]]


def check_deal(front: GameFront[Any], cells: int | None, code: engine.GameCode | None) -> int | None:
    """A race's deal as asked: a code of the game raced (the answer names the right race), or
    a cell count the game deals (returned; a code carries its own)."""
    if code is not None:
        check_code_kind(front, code, race=True)
        return code.cells
    return front.check_cells(cells)


class RaceJoinAsk(GameInProgress):
    """Joining (``race``) or creating (None) a race would end, at its start, a game with
    something at stake: ask first."""

    def __init__(self, row: storage.GameRow, race: storage.RaceRow | None) -> None:
        super().__init__(row)
        self.race = race


class RaceKeeper:
    """Create, join, leave, start and end races; told of every race game's change by the service."""

    def __init__(self, service: GameService, *, notify: Notify | None = None) -> None:
        self.service = service
        self.store = service.store
        self.notify = notify  # the standings changed: the cog edits (throttled)
        self._game_races: dict[int, int] = {}  # game id → race id, for the games started here
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seen: set[int] = set()  # running races this process has picked up
        service.watchers.append(self._game_changed)

    def _lock(self, race_id: int) -> asyncio.Lock:
        lock = self._locks.get(race_id)
        if lock is None:
            lock = self._locks[race_id] = asyncio.Lock()
        return lock

    def _spawn(self, work: Awaitable[Any], name: str) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("race work %s failed", name)

        task = asyncio.create_task(run(), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait for the work started by game changes (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- the lobby ------------------------------------------------------------------------
    async def create(
        self,
        creator_id: int,
        kind: str,
        *,
        guild_id: int | None,
        channel_id: int,
        cells: int | None = None,
        code: engine.GameCode | None = None,
        start_in: int = DEFAULT_START_IN,
        time_limit: int = DEFAULT_TIME_LIMIT,
        language: str | None = None,
        agreed: bool = False,
    ) -> storage.RaceRow:
        """A lobby with its creator in it; the deal is chosen now and shown only in the result."""
        front = front_for(kind)
        cells = check_deal(front, cells, code)
        if code is not None and await self.service.is_todays_daily(front, code):  # a rehearsal
            raise UserFeedback("race.error.daily_code")
        await self.check_can_join(creator_id, kind, agreed=agreed)
        chosen = code is not None  # its creator knew the deal (and may have practised it)
        if code is None:
            code = await self.service.race_deal(kind, cells)
        starts = self.service.clock() + dt.timedelta(minutes=start_in)
        race = await self.store.create_race(
            kind,
            str(code),
            creator_id,
            guild_id,
            channel_id,
            variant=front.variant(code.cells),
            starts_at=starts,
            time_limit=time_limit * 60,
            language=language,
            chosen=chosen,
        )
        log.info("race %s created by %s in channel %s: %s", race.id, creator_id, channel_id, code)
        return race

    async def check_can_join(
        self, user_id: int, kind: str, race: storage.RaceRow | None = None, *, agreed: bool = False
    ) -> None:
        """One open race of a kind at a time; a game with something at stake is not ended unasked
        (``RaceJoinAsk``; ``agreed``: the player said yes to ending it at the start)."""
        other = await self.store.open_race_of(user_id, kind)
        if other is not None and (race is None or other.id != race.id):
            raise UserFeedback("race.error.other_race")
        if agreed:
            return
        active = await self.store.active_game(user_id, kind)
        if active is not None and at_stake(active):
            raise RaceJoinAsk(active, race)

    async def join(self, user_id: int, race_id: int, *, agreed: bool = False) -> storage.RaceRow:
        race = await self.store.get_race(race_id)
        if race.status != "lobby":
            raise UserFeedback("race.error.closed")
        await self.check_can_join(user_id, race.kind, race, agreed=agreed)
        outcome = await self.store.join_race(race_id, user_id)
        if outcome == "already":
            raise UserFeedback("race.error.already")
        if outcome == "full":
            raise UserFeedback("race.error.full", limit=storage.MAX_RACE_PLAYERS)
        if outcome == "closed":
            raise UserFeedback("race.error.closed")
        await self._changed(race)
        return race

    async def leave(self, user_id: int, race_id: int) -> storage.RaceRow:
        race = await self.store.get_race(race_id)
        if race.status == "running":
            raise UserFeedback("race.error.leave_running")
        left = await self.store.leave_race(race_id, user_id)
        if left is None:
            raise UserFeedback("race.error.not_in" if race.status == "lobby" else "race.error.closed")
        await self._changed(left)
        return left

    async def cancel(self, user_id: int, race_id: int) -> storage.RaceRow:
        race = await self.store.get_race(race_id)
        self._check_creator(race, user_id)
        cancelled = await self.store.cancel_race(race_id)
        if cancelled is None:
            raise UserFeedback("race.error.closed")
        log.info("race %s cancelled by its creator", race_id)
        await self._changed(cancelled)
        return cancelled

    @staticmethod
    def _check_creator(race: storage.RaceRow, user_id: int) -> None:
        if race.creator_id != user_id:
            raise UserFeedback("race.error.not_creator", creator=f"<@{race.creator_id}>")

    # -- the start ------------------------------------------------------------------------
    async def start_now(self, user_id: int, race_id: int) -> storage.RaceRow:
        """The creator starts early (with at least two players)."""
        race = await self.store.get_race(race_id)
        self._check_creator(race, user_id)
        if race.status != "lobby":
            raise UserFeedback("race.error.closed")
        if len(await self.store.race_players(race_id)) < MIN_PLAYERS:
            raise UserFeedback("race.error.too_few", least=MIN_PLAYERS)
        started = await self.start(race_id)
        if started is None or started.status != "running":
            raise UserFeedback("race.error.closed")
        return started

    async def start(self, race_id: int) -> storage.RaceRow | None:
        """Lobby → running (or cancelled, too few players), then every player's game."""
        async with self._lock(race_id):
            race = await self.store.start_race(race_id, min_players=MIN_PLAYERS)
            if race is None:
                return None
            log.info("race %s %s", race.id, "started" if race.status == "running" else "cancelled: too few")
            if race.status == "running":
                await self._deal(race)
        await self._changed(race)
        return race

    async def _deal(self, race: storage.RaceRow) -> None:
        """Every player without a game gets theirs (also after a crash in the middle of this).

        A player whose game cannot be made now (storage busy...) is dealt again at the keeper's
        next round: the race stays out of ``_seen`` until everyone has a game."""
        code = engine.parse_code(race.code)
        dealt = True
        for player in await self.store.race_players(race.id):
            if player.game_id is not None:
                self._game_races[player.game_id] = race.id
                continue
            try:
                await self._deal_one(race, code, player.user_id)
            except Exception:
                log.exception("race %s: dealing %s's game failed (tried again)", race.id, player.user_id)
                dealt = False
        if dealt:
            self._seen.add(race.id)
        else:
            self._seen.discard(race.id)

    async def _deal_one(self, race: storage.RaceRow, code: engine.GameCode, user_id: int) -> None:
        active = await self.store.active_game(user_id, race.kind)
        made = active is not None and active.source == RACE_SOURCE and active.code == race.code
        if made and active is not None and await self.store.race_of_game(active.id) is None:
            await self._link(race, user_id, active.id)  # made just before a crash, never linked
            return
        started = await self.service.start(
            StartRequest(
                user_id, race.kind, code=code, guild_id=race.guild_id, channel_id=race.channel_id, race=True
            )
        )
        await self._link(race, user_id, started.board.row.id)

    async def _link(self, race: storage.RaceRow, user_id: int, game_id: int) -> None:
        await self.store.set_race_game(race.id, user_id, game_id)
        self._game_races[game_id] = race.id

    # -- progress and the end -------------------------------------------------------------
    async def _game_changed(self, row: storage.GameRow) -> None:
        """A move, undo or ending of any game: a race game's moves the standings on."""
        if row.source != RACE_SOURCE:
            return
        self._spawn(self._progress(row), f"race-progress-{row.id}")

    async def _progress(self, row: storage.GameRow) -> None:
        race_id = self._game_races.get(row.id)
        race = (
            await self.store.race_of_game(row.id) if race_id is None else await self.store.get_race(race_id)
        )
        if race is None or race.status != "running":
            return
        self._game_races[row.id] = race.id
        if not row.is_active:
            await self.end_if_over(race)
        await self._changed(race)

    async def end_if_over(self, race: storage.RaceRow, *, now: dt.datetime | None = None) -> bool:
        """End a running race that someone won, whose games are all over, or past its limit."""
        games = await self.store.race_games(race.id)
        players = await self.store.race_players(race.id)
        moment = now or self.service.clock()
        timed_out = race.ends_at is not None and race.ends_at <= moment
        all_given = len(games) == len(players)
        if (
            timed_out
            or any(g.status == "won" for g in games)
            or (all_given and all(not g.is_active for g in games))
        ):
            return await self.end(race.id)
        return False

    async def end(self, race_id: int) -> bool:
        """Rank the players as they are, record the places, then end the games still in play."""
        async with self._lock(race_id):
            race = await self.store.get_race(race_id)
            if race.status != "running":
                return False
            view = await self.view(race)
            places = [(s.user_id, n) for n, s in enumerate(view.standings, 1)]
            done = await self.store.finish_race(race_id, places)
            if done is None:
                return False
            log.info("race %s finished: %s", race_id, places)
            for s in view.standings:
                if s.status == "active":
                    await self._retire(s.game_id)
        await self._changed(done)
        return True

    async def _retire(self, game_id: int) -> None:
        try:
            await self.service.end_game(game_id)
        except (storage.GameNotActive, storage.StorageError, UserFeedback) as exc:
            log.info("race game %s was not ended: %s", game_id, exc)

    # -- reading --------------------------------------------------------------------------
    async def view(self, race: storage.RaceRow) -> RaceView:
        players = await self.store.race_players(race.id)
        if race.started_at is None:
            return RaceView(race, players, [])
        games = {g.id: g for g in await self.store.race_games(race.id)}
        now = min(self.service.clock(), race.finished_at or race.ends_at or self.service.clock())
        rows = [
            standing(p, games.get(p.game_id) if p.game_id else None, race.started_at, now) for p in players
        ]
        if race.status == "finished" and all(p.place is not None for p in players):
            places = {p.user_id: p.place or 0 for p in players}
            return RaceView(race, players, sorted(rows, key=lambda s: places[s.user_id]))
        return RaceView(race, players, rank(rows))

    async def game_of(self, user_id: int, race_id: int) -> int:
        """The player's game in this race (for the "My board" button)."""
        race = await self.store.get_race(race_id)
        player = next((p for p in await self.store.race_players(race_id) if p.user_id == user_id), None)
        if player is None:
            raise UserFeedback("race.error.not_in")
        if race.status == "lobby":
            raise UserFeedback("race.error.not_started")
        if player.game_id is None:
            raise UserFeedback("race.error.no_game")
        return player.game_id

    # -- the clock ------------------------------------------------------------------------
    async def due(self, owns: Callable[[storage.RaceRow], bool]) -> list[storage.RaceRow]:
        """Start due lobbies, end races past their limit or already over; returns the races this
        process looks after that still need message work (announce, settle)."""
        now = self.service.clock()
        pending: list[storage.RaceRow] = []
        for race in await self.store.unsettled_races():
            if not owns(race):
                continue
            if race.status == "lobby" and race.starts_at <= now:
                started = await self.start(race.id)
                race = started or await self.store.get_race(race.id)
            elif race.status == "running":
                ended = False
                if race.id not in self._seen:  # a restart: deal what is missing, end what is over
                    await self._resume(race)
                    ended = await self.end_if_over(race, now=now)
                elif race.ends_at is not None and race.ends_at <= now:
                    ended = await self.end(race.id)
                if ended:
                    race = await self.store.get_race(race.id)
            if race.status in ("finished", "cancelled"):
                pending.append(race)
        return pending

    async def _resume(self, race: storage.RaceRow) -> None:
        """First sight of a running race in this process (a restart): deal what is missing, redraw."""
        async with self._lock(race.id):
            fresh = await self.store.get_race(race.id)
            if fresh.status == "running":
                await self._deal(fresh)
        await self._changed(race)

    async def _changed(self, race: storage.RaceRow) -> None:
        if self.notify is not None:
            await self.notify(race)
