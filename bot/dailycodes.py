"""The daily challenge's dates and hashes: the same on every server, derived from the UTC date alone.

A hash of the date picks the deal, so any process (or a restarted one) on any
machine arrives at the same code without talking to the others; how a game
turns the hash into a deal is its front's ``daily_code``. The code is also
stored once per date, so every later reader gets the same one.
"""

from __future__ import annotations

import datetime as dt
import hashlib


def day_hash(kind: str, date: dt.date) -> int:
    digest = hashlib.sha256(f"boulanger-daily:{kind}:{date.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def shipped_winnable(cells: int) -> tuple[int, ...]:
    """The project's shipped list of proven-winnable deals (``engine/solver/winnable_deals.json``)."""
    from engine.solver.deals import winnable_deals

    return tuple(winnable_deals(cells))


def daily_code(kind: str, date: dt.date) -> str:
    """The challenge code of ``kind`` for the UTC day ``date`` (its front decides the deal)."""
    from bot.games import front_for

    return str(front_for(kind).daily_code(date))


def utc_today(now: dt.datetime | None = None) -> dt.date:
    return (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).date()


def next_reset(now: dt.datetime | None = None) -> dt.datetime:
    """The next 00:00 UTC (when the next challenge begins)."""
    today = utc_today(now)
    return dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
