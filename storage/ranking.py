"""Ranking, periods and streaks: the rules of ``storage.interface`` as pure functions.

Kept apart from SQL so every backend ranks the same way: a result's
``rank_key`` is stored with it (lower is better) and every ordering is
``rank_key, finished_at, game_id``.

Which game ranks how is the game's own rule: a ``Game`` class in
``engine.GAMES`` has a ``rank_key(finish)`` classmethod, asked with an
``engine.Finish`` (status, score, moves, cards home, seconds, hints); a kind
without one ranks by ``higher_score_first``. So a new game needs no change
here. Keys stored before version 9 of the schema are recomputed on upgrade
(``storage.upgrade``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

import engine
from engine import Finish

# rank_key(finish) -> int, lower is better.
RankRule = Callable[[Finish], int]

# The default rule packs score and moves into one key: 31 bits each, so it fits 62.
PART = (1 << 31) - 1


def _clamp(value: int, top: int) -> int:
    return max(0, min(value, top))


def higher_score_first(finish: Finish) -> int:
    """The default: higher score first, then fewer moves (status does not matter)."""
    return ((PART - _clamp(finish.score, PART)) << 31) + _clamp(finish.move_count, PART)


def rule_for(kind: str) -> RankRule:
    """The game class's own ``rank_key`` if it has one, else the default."""
    cls = engine.GAMES.get(kind)
    hook = getattr(cls, "rank_key", None) if cls is not None else None
    if callable(hook):

        def ask_game(finish: Finish) -> int:
            return int(hook(finish))

        return ask_game
    return higher_score_first


def rank_key(kind: str, finish: Finish) -> int:
    """Lower is better; see ``storage.interface`` for each game's rules."""
    return rule_for(kind)(finish)


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
