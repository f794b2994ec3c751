"""Ranking, periods and streaks: the rules of ``storage.interface`` as pure functions.

Kept apart from SQL so every backend ranks the same way: a result's
``rank_key`` is stored with it (lower is better) and every ordering is
``rank_key, finished_at, game_id``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

# Keys of Jeu du Boulanger games not won start here, so any win ranks above them.
NOT_WON_BASE = 1 << 62
# Scores and move counts beyond this are clamped (far beyond any real game).
CLAMP = 1 << 61
CALCULATION_TOP = 52


def rank_key(kind: str, status: str, score: int, move_count: int) -> int:
    """Lower is better. Baker's: wins by fewer moves, then non-wins by higher score.

    Calculation: higher score (cards home, 52 = won).
    """
    score = max(0, min(score, CLAMP))
    if kind == "bakers":
        if status == "won":
            return max(0, min(move_count, CLAMP))
        return NOT_WON_BASE - score
    return CALCULATION_TOP - score


def week_start(now: dt.datetime) -> dt.datetime:
    """Monday 00:00 UTC of ``now``'s ISO week."""
    day = now.astimezone(dt.UTC).date()
    monday = day - dt.timedelta(days=day.weekday())
    return dt.datetime.combine(monday, dt.time(), tzinfo=dt.UTC)


def streaks(days: Iterable[dt.date], today: dt.date) -> tuple[int, int]:
    """(current, best) runs of consecutive days; current counts if it reaches today or yesterday."""
    ordered = sorted(set(days))
    best = run = 0
    previous: dt.date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and (today - previous).days in (0, 1)
    return (run if alive else 0), best
