"""A clock the storage tests set by hand, so times and periods are exact."""

from __future__ import annotations

import datetime as dt


class FakeClock:
    def __init__(self, start: dt.datetime = dt.datetime(2026, 3, 4, 12, 0, tzinfo=dt.UTC)) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> dt.datetime:
        self.now += dt.timedelta(**delta)
        return self.now

    def set(self, moment: dt.datetime) -> None:
        self.now = moment
