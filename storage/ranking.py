"""Ranking, periods and streaks: the rules of ``storage.interface`` as pure functions.

Kept apart from SQL so every backend ranks the same way: a result's
``rank_key`` is stored with it (lower is better) and every ordering is
``rank_key, finished_at, game_id``.

Which game ranks how is the game's own rule: a ``Game`` class in
``engine.GAMES`` with a ``rank_key(status, score, move_count)`` classmethod
is asked directly. For classes without one, ``RANK_RULES`` keeps the rules
of the games that existed before the engine had that hook (exactly the keys
already stored in every database), and any other kind ranks by
``higher_score_first``. So a new game needs no change here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

import engine

# rank_key(status, score, move_count) -> int, lower is better.
RankRule = Callable[[str, int, int], int]

# Keys of Jeu du Boulanger games not won start here, so any win ranks above them.
NOT_WON_BASE = 1 << 62
# Scores and move counts beyond this are clamped (far beyond any real game).
CLAMP = 1 << 61
CALCULATION_TOP = 52
# The default rule packs score and moves into one key: 31 bits each, so it fits 62.
PART = (1 << 31) - 1


def _clamp(value: int, top: int = CLAMP) -> int:
    return max(0, min(value, top))


def bakers_rule(status: str, score: int, move_count: int) -> int:
    """Wins by fewer moves, then (all below any win) non-wins by higher score."""
    if status == "won":
        return _clamp(move_count)
    return NOT_WON_BASE - _clamp(score)


def calculation_rule(status: str, score: int, move_count: int) -> int:
    """Higher score (cards home, 52 = won)."""
    return CALCULATION_TOP - _clamp(score)


def higher_score_first(status: str, score: int, move_count: int) -> int:
    """The default: higher score first, then fewer moves (status does not matter)."""
    return ((PART - _clamp(score, PART)) << 31) + _clamp(move_count, PART)


RANK_RULES: dict[str, RankRule] = {"bakers": bakers_rule, "calculation": calculation_rule}


def rule_for(kind: str) -> RankRule:
    """The game class's own ``rank_key`` if it has one, else the table, else the default."""
    cls = engine.GAMES.get(kind)
    hook = getattr(cls, "rank_key", None) if cls is not None else None
    if callable(hook):

        def ask_game(status: str, score: int, move_count: int) -> int:
            return int(hook(status, score, move_count))

        return ask_game
    return RANK_RULES.get(kind, higher_score_first)


def rank_key(kind: str, status: str, score: int, move_count: int) -> int:
    """Lower is better; see ``storage.interface`` for each game's rules."""
    return rule_for(kind)(status, score, move_count)


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
