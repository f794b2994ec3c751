"""A race's standings: each player's position as their game stands, and the ranking.

Wins rank first, by the moment (to the millisecond) each was stored, then by game id; the
others by cards on the foundations, then (among players who moved) fewer moves, then less
time from the race's start to their last move.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import storage


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's position in a race, as the standings and the result show it."""

    user_id: int
    status: str  # "waiting" (no game yet), "active", "won", "lost" or "resigned"
    home: int  # cards on the foundations
    moves: int
    seconds: int  # from the race's start to the player's last move (or their end)
    finished_ms: int  # when a won game was stored (ms since the start): who won first
    game_id: int

    @property
    def done(self) -> bool:
        return self.status in storage.FINISHED_STATUSES

    def key(self) -> tuple[int, ...]:
        """Smaller is better: wins first by the moment stored, then cards home, then (among
        players who moved: a player who never moved is last at equal cards home) fewer moves,
        then less time."""
        if self.status == "won":
            return (0, self.finished_ms, self.game_id)
        return (1, -self.home, 0 if self.moves else 1, self.moves, self.seconds, self.user_id)


def standing(
    player: storage.RacePlayer, game: storage.GameRow | None, started: dt.datetime, now: dt.datetime
) -> Standing:
    if game is None:
        return Standing(player.user_id, "waiting", 0, 0, 0, 0, 0)
    last = game.finished_at or (game.updated_at if game.move_count else now)
    elapsed = max(0, int((last - started).total_seconds()))
    finished_ms = 0
    if game.finished_at is not None:
        finished_ms = max(0, (game.finished_at - started) // dt.timedelta(milliseconds=1))
    return Standing(
        player.user_id, game.status, game.home or 0, game.move_count, elapsed, finished_ms, game.id
    )


def rank(standings: Sequence[Standing]) -> list[Standing]:
    return sorted(standings, key=Standing.key)


@dataclass(frozen=True, slots=True)
class RaceView:
    """A race and its players as they are now, ranked (the standings message's content)."""

    race: storage.RaceRow
    players: list[storage.RacePlayer]
    standings: list[Standing]  # ranked; empty in the lobby

    def place_of(self, user_id: int) -> int | None:
        return next((p.place for p in self.players if p.user_id == user_id), None)
