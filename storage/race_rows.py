"""Races' rows for every backend: column lists, converters, the checks of their arguments."""

from __future__ import annotations

import datetime as dt
from typing import Any

from storage import validate as v
from storage.interface import MAX_RACE_PLAYERS, InvalidValue, RacePlayer, RaceRecord, RaceRow
from storage.rows import Decoding, Row

RACE_COLUMNS = (
    "id, guild_id, channel_id, message_id, kind, variant, code, creator_id, language, status, created_at, "
    "starts_at, time_limit, started_at, ends_at, finished_at, result_message_id, settled, cancelled_by, "
    "result_claimed_at, chosen"
)
PLAYER_COLUMNS = "race_id, user_id, joined_at, game_id, place"
# A player still in a race: in its lobby, or in the run with their game unfinished (or not given yet).
STILL_IN = (
    "(r.status = 'lobby' OR p.game_id IS NULL OR EXISTS "
    "(SELECT 1 FROM games g WHERE g.id = p.game_id AND g.status = 'active'))"
)
# A race is won by its winner only: first place in a race nobody won (the time limit came,
# every game lost or resigned) is a place, not a win. Both need the player's game joined.
WITH_GAME = "JOIN games g ON g.id = p.game_id"
RACE_WON = "p.place = 1 AND g.status = 'won'"
# A friendly race (a deal its creator chose, and so may have practised) counts for no one.
COUNTED = "NOT r.chosen"
# Longest time limit and lobby wait accepted (a day): far above any real race.
MAX_RACE_SECONDS = 24 * 3600


def race_row(row: Row, decode: Decoding) -> RaceRow:
    return RaceRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        message_id=row[3],
        kind=row[4],
        variant=row[5],
        code=decode.text(row[6]),
        creator_id=row[7],
        language=row[8],
        status=row[9],
        created_at=decode.moment(row[10]),
        starts_at=decode.moment(row[11]),
        time_limit=row[12],
        started_at=decode.maybe_moment(row[13]),
        ends_at=decode.maybe_moment(row[14]),
        finished_at=decode.maybe_moment(row[15]),
        result_message_id=row[16],
        settled=bool(row[17]),
        cancelled_by=row[18],
        result_claimed_at=decode.maybe_moment(row[19]),
        chosen=bool(row[20]),
    )


def player_row(row: Row, decode: Decoding) -> RacePlayer:
    return RacePlayer(
        race_id=row[0], user_id=row[1], joined_at=decode.moment(row[2]), game_id=row[3], place=row[4]
    )


def record_row(row: Row) -> RaceRecord:
    return RaceRecord(user_id=row[0], played=int(row[1]), won=int(row[2] or 0))


def new_race(
    kind: object,
    code: object,
    creator_id: object,
    guild_id: object,
    channel_id: object,
    variant: object,
    starts_at: object,
    time_limit: object,
    language: object,
    chosen: object = False,
) -> dict[str, Any]:
    """A new race's checked values."""
    limit = v.count("time_limit", time_limit)
    if not 0 < limit <= MAX_RACE_SECONDS:
        raise InvalidValue(f"time_limit must be 1 to {MAX_RACE_SECONDS} seconds, not {limit}")
    return {
        "kind": v.kind(kind),
        "code": v.code(code),
        "creator_id": v.snowflake("creator_id", creator_id),
        "guild_id": v.snowflake("guild_id", guild_id, optional=True),
        "channel_id": v.snowflake("channel_id", channel_id),
        "variant": v.variant(variant),
        "starts_at": v.moment("starts_at", starts_at),
        "time_limit": limit,
        "language": v.text("language", language, optional=True, max_length=35),
        "chosen": v.flag("chosen", chosen),
    }


def player_limit(value: object) -> int:
    limit = v.count("limit", value)
    if not 1 <= limit <= MAX_RACE_PLAYERS:
        raise InvalidValue(f"limit must be 1 to {MAX_RACE_PLAYERS}, not {limit}")
    return limit


def places(values: object) -> list[tuple[int, int]]:
    """(user id, place) pairs: places 1, 2, 3... each once."""
    if not isinstance(values, list | tuple):
        raise InvalidValue("places must be a sequence of (user id, place) pairs")
    checked = [(v.snowflake("user_id", u), v.count("place", p)) for u, p in values]
    if sorted(p for _, p in checked) != list(range(1, len(checked) + 1)):
        raise InvalidValue("places must be 1 to the number of players, each once")
    return checked


def ends(started: dt.datetime, time_limit: int) -> dt.datetime:
    return started + dt.timedelta(seconds=time_limit)
