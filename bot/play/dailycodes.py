"""The daily challenge's dates and draws: one deal per UTC day, the same on every server.

A day's deal comes from a fresh random draw (``draw``), not from the date: a
deal derived from the date alone could be worked out from this code for any
coming day and practised before it counts. The first process that needs a
day's code draws it and stores it once (``Store.set_daily_code``: an earlier
one wins); every other process, and a restarted one, reads that code back.
How a game turns the draw into a deal is its front's ``daily_code``.
"""

from __future__ import annotations

import datetime as dt
import secrets


def draw() -> int:
    """64 unpredictable bits for a day's deal."""
    return secrets.randbits(64)


def utc_today(now: dt.datetime | None = None) -> dt.date:
    return (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).date()


def next_reset(now: dt.datetime | None = None) -> dt.datetime:
    """The next 00:00 UTC (when the next challenge begins)."""
    today = utc_today(now)
    return dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
