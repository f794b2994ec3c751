"""Several players in one Activity instance: who is at the table, their progress, a race for all.

Everyone who opens the Activity in one channel or call shares Discord's ``instanceId``. The
page names it; Discord says who is in it and where (``InstanceCheck``: the bot's
``GET /applications/{id}/activity-instances/{instance_id}``, kept ``INSTANCE_SECONDS``), so a
page cannot claim a table it is not at, nor the channel a race result is posted in.

A ``Room`` is kept in memory only (it is who is looking now, not a game): a player is in it
while their page polls (``/api/room``, every ``POLL_SECONDS`` on the page, on the ``room``
quota) and Discord lists them; ``PRESENCE_SECONDS`` after their last poll they are gone.
What the page shows is one snapshot per room, made at most once every ``SNAPSHOT_SECONDS``
whatever the number of players polling: each player's game (its kind, cards home, moves)
from the stored rows, and the room's race.

The race is the chat's (``bot.play.races.RaceKeeper``): the same lobby, deal, ranking and
result, in the instance's channel (the race cog posts the result there, as after /race). A
room holds at most one open race; the page starts it, the others join, its creator starts it
at once (or it starts by itself after ``DEFAULT_START_IN`` minutes, the cog's clock).

Why polling, not a WebSocket: the numbers of others change a few times a second at most and
are watched, not played on; a poll every 2 s through one shared snapshot costs one light
request per player and one set of row reads per room, passes through Discord's proxy like every
other call, keeps nothing open through a restart, and is bounded by the same quota machinery
as every other Activity call.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import storage
from bot.activity.seats import Seats
from bot.games import front_for
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from bot.play.races import RaceKeeper

MAX_ROOM_PLAYERS = storage.MAX_RACE_PLAYERS  # players shown at one table (a race's most)
MAX_ROOMS = 1024  # rooms remembered before the least recently polled is forgotten
PRESENCE_SECONDS = 15.0  # a player whose page has not polled this long has left
SNAPSHOT_SECONDS = 1.0  # one snapshot of a room serves every poll this long
INSTANCE_SECONDS = 10.0  # Discord's answer of who is in an instance is trusted this long
POLL_SECONDS = 2.0  # how often the page asks (app.js: ROOM_POLL_MS)
MOVE_SECONDS = 60.0  # a player back within this long in a new instance of the channel: same table
MAX_INSTANCE_ID = 160  # Discord's instance ids are a few dozen characters


class NotAtTable(Exception):
    """The page named an instance Discord does not know, or one the player is not in (HTTP 403)."""


@dataclass(frozen=True, slots=True)
class Instance:
    """An Activity instance as Discord describes it."""

    id: str
    channel_id: int
    guild_id: int | None
    users: frozenset[int]


Fetch = Callable[[str], Any]  # instance id → awaitable Discord JSON (None: no such instance)


class InstanceCheck:
    """Discord's word on an instance, kept briefly and bounded; one request per instance at once."""

    def __init__(self, fetch: Fetch, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._fetch = fetch
        self.clock = clock
        self._known: OrderedDict[str, tuple[Instance | None, float]] = OrderedDict()
        self._asking: dict[str, asyncio.Lock] = {}

    async def get(self, instance_id: str) -> Instance:
        if not instance_id or len(instance_id) > MAX_INSTANCE_ID or not instance_id.isprintable():
            raise NotAtTable("no such Activity instance")
        found = self._remembered(instance_id)
        if found is None:
            lock = self._asking.setdefault(instance_id, asyncio.Lock())
            async with lock:
                found = self._remembered(instance_id)
                if found is None:
                    found = (parse_instance(await self._fetch(instance_id)),)
                    self._known[instance_id] = (found[0], self.clock() + INSTANCE_SECONDS)
                    self._known.move_to_end(instance_id)
                    while len(self._known) > MAX_ROOMS:
                        self._known.popitem(last=False)
            self._asking.pop(instance_id, None)
        if found[0] is None:
            raise NotAtTable("Discord does not know this Activity instance")
        return found[0]

    def known(self, instance_id: str) -> Instance | None:
        """Discord's recent word on an instance the server asked about, without asking again."""
        found = self._remembered(instance_id)
        return None if found is None else found[0]

    def _remembered(self, instance_id: str) -> tuple[Instance | None] | None:
        found = self._known.get(instance_id)
        if found is None or self.clock() >= found[1]:
            return None
        return (found[0],)


def parse_instance(data: Any) -> Instance | None:
    if not isinstance(data, dict):
        return None
    try:
        location = data["location"]
        guild = location.get("guild_id")
        return Instance(
            str(data["instance_id"]),
            int(location["channel_id"]),
            int(guild) if guild else None,
            frozenset(int(u) for u in data["users"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


@dataclass
class Room:
    instance: Instance
    seen: dict[int, float] = field(default_factory=dict)  # player → last poll
    names: dict[int, str] = field(default_factory=dict)
    race_id: int | None = None
    snapshot: tuple[float, dict[str, Any]] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    moved: set[int] = field(default_factory=set)  # players Discord lists in a newer instance here

    def present(self, now: float) -> list[int]:
        """Players polling lately whom Discord lists in the instance (or, moved, in their new
        one of the same channel), first come first."""
        return [
            p
            for p, t in self.seen.items()
            if now - t < PRESENCE_SECONDS and (p in self.instance.users or p in self.moved)
        ]


class Rooms:
    def __init__(
        self, keeper: RaceKeeper, *, seats: Seats | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.keeper = keeper
        self.service = keeper.service
        self.seats = seats or Seats()  # the game each player's page shows in a channel
        self.clock = clock
        self._rooms: OrderedDict[str, Room] = OrderedDict()
        # (player, channel) → (the table they were last at there, when): see ``_table``.
        self._last: OrderedDict[tuple[int, int], tuple[str, float]] = OrderedDict()

    def enter(self, instance: Instance, player_id: int, name: str) -> Room:
        """The player's poll: at the table (Discord lists them), counted present; a full table
        refuses newcomers (``activity.room_full``)."""
        if player_id not in instance.users:
            raise NotAtTable("you are not in this Activity instance")
        room = self._table(instance, player_id)
        if room is None:
            room = self._rooms[instance.id] = Room(instance)
            while len(self._rooms) > MAX_ROOMS:
                self._rooms.popitem(last=False)
        if room.instance.id == instance.id:
            room.instance = instance  # Discord's latest word on who is in it
            room.moved.discard(player_id)
        else:
            room.moved.add(player_id)  # listed in a newer instance of the same channel
        self._rooms.move_to_end(room.instance.id)
        now = self.clock()
        self._last[(player_id, instance.channel_id)] = (room.instance.id, now)
        self._last.move_to_end((player_id, instance.channel_id))
        while len(self._last) > MAX_ROOMS * MAX_ROOM_PLAYERS:
            self._last.popitem(last=False)
        for gone in [p for p, t in room.seen.items() if now - t >= PRESENCE_SECONDS]:
            del room.seen[gone]
            room.moved.discard(gone)
        if player_id not in room.seen and len(room.present(now)) >= MAX_ROOM_PLAYERS:
            raise UserFeedback("activity.room_full", limit=MAX_ROOM_PLAYERS)
        room.seen[player_id] = now
        room.names[player_id] = name
        if len(room.names) > 4 * MAX_ROOM_PLAYERS:  # names of players long gone
            for old in [p for p in room.names if p not in room.seen][: len(room.names) // 2]:
                del room.names[old]
        return room

    def room(self, instance: Instance, player_id: int) -> Room:
        """The room of a player who is present in it (a race call)."""
        room = self._table(instance, player_id)
        if room is None or player_id not in room.present(self.clock()):
            raise NotAtTable("open the Activity's page first")
        if room.instance.id == instance.id:
            room.instance = instance
        return room

    def _table(self, instance: Instance, player_id: int) -> Room | None:
        """The table a player polling ``instance`` sits at: its own, or, for a player who was
        at another instance of the same channel moments ago (``MOVE_SECONDS``: a desktop
        player popping the Activity out gets a new instance id, Discord's known behaviour),
        that table while it has others at it or a race: they keep their table and race."""
        last = self._last.get((player_id, instance.channel_id))
        if last is not None and last[0] != instance.id and self.clock() - last[1] < MOVE_SECONDS:
            before = self._rooms.get(last[0])
            if before is not None and before.instance.channel_id == instance.channel_id:
                now = self.clock()
                others = [p for p in before.present(now) if p != player_id]
                if others or before.race_id is not None:
                    return before
        return self._rooms.get(instance.id)

    async def view(self, tr: Translator, room: Room) -> dict[str, Any]:
        """What the page shows of the room (the snapshot, shared by every poll for a second)."""
        now = self.clock()
        if room.snapshot is not None and now - room.snapshot[0] < SNAPSHOT_SECONDS:
            return room.snapshot[1]
        async with room.lock:
            if room.snapshot is not None and self.clock() - room.snapshot[0] < SNAPSHOT_SECONDS:
                return room.snapshot[1]
            made = await self._make(tr, room)
            room.snapshot = (self.clock(), made)
            return made

    def forget_snapshot(self, room: Room) -> None:
        room.snapshot = None

    async def _make(self, tr: Translator, room: Room) -> dict[str, Any]:
        store = self.service.store
        race = await store.get_race(room.race_id) if room.race_id is not None else None
        race_games: dict[int, storage.GameRow] = {}
        if race is not None and race.status in ("running", "finished"):
            race_games = {g.owner_id: g for g in await store.race_games(race.id)}
        players = []
        versions: dict[int, list[int]] = {}  # each player's shown game: [id, version]
        for user_id in room.present(self.clock()):
            row = race_games.get(user_id) if race is not None and race.status == "running" else None
            if row is None:
                row = await self._shown(user_id, room.instance.channel_id)
            players.append(
                {"id": str(user_id), "name": room.names.get(user_id, "?"), "game": _progress(tr, row)}
            )
            if row is not None:
                versions[user_id] = [row.id, row.version]
        race_view = await self._race(tr, room, race)
        return {"players": players, "race": race_view, "limit": MAX_ROOM_PLAYERS, "versions": versions}

    async def _shown(self, user_id: int, channel_id: int) -> storage.GameRow | None:
        """The game the player's page shows here (their seat, while it is theirs and active),
        else their latest active game."""
        seated = self.seats.game(user_id, channel_id)
        if seated is not None:
            try:
                row = await self.service.store.get_game(seated)
                if row.owner_id == user_id and row.is_active:
                    return row
            except storage.StorageError:
                pass
        try:
            return await self.service.find(user_id)
        except UserFeedback:
            return None

    @staticmethod
    def answer(view: dict[str, Any], player_id: int) -> dict[str, Any]:
        """What one player's page gets of the snapshot: everyone's progress, and the id and
        version of their own game as stored (the page refreshes its board when the chat has
        moved it on: the table panel and the board stay in step)."""
        shown = {k: v for k, v in view.items() if k != "versions"}
        return {"you": str(player_id), **shown, "yours": view["versions"].get(player_id)}

    async def _race(self, tr: Translator, room: Room, race: storage.RaceRow | None) -> dict[str, Any] | None:
        if race is None:
            return None
        view = await self.keeper.view(race)
        entered = [str(p.user_id) for p in view.players]
        standings = [
            {
                "id": str(s.user_id),
                "name": room.names.get(s.user_id, f"#{s.user_id}"),
                "status": s.status,
                "home": s.home,
                "moves": s.moves,
                "seconds": s.seconds,
                "place": n if race.status == "finished" else None,
            }
            for n, s in enumerate(view.standings, 1)
        ]
        return {
            "id": race.id,
            "status": race.status,  # lobby, running, finished, cancelled
            "kind": race.kind,
            "title": front_for(race.kind).title(tr),
            "creator": str(race.creator_id),
            "players": entered,
            "starts": int(race.starts_at.timestamp()),
            "standings": standings,
        }


def _progress(tr: Translator, row: storage.GameRow | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "kind": row.kind,
        "title": front_for(row.kind).title(tr),
        "home": row.home or 0,
        "moves": row.move_count,
        "status": row.status,
        "race": row.source == "race",
    }
