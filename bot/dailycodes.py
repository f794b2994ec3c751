"""The daily challenge's codes: the same on every server, derived from the UTC date alone.

A hash of the date picks the deal, so any process (or a restarted one) on any
machine arrives at the same code without talking to the others. Jeu du
Boulanger picks from the shipped list of proven-winnable 4-cell deals;
Calculation takes the first of the date's candidate deals that the
perfect-information search does not prove unwinnable (about 99.7% of deals can
be won, and the search nearly always finds the win within its budget). A slow
machine can only turn a proof into "unknown", which keeps the same candidate, so
the choice does not depend on speed except for the rare unwinnable deal. The
code is also stored once per date, so every later reader gets the same one.
"""

from __future__ import annotations

import datetime as dt
import hashlib

import engine
from engine.codes import MAX_DEAL

DAILY_CELLS = 4
CALCULATION_CANDIDATES = 8
PROOF_SECONDS = 1.0


def _hash(kind: str, date: dt.date) -> int:
    digest = hashlib.sha256(f"boulanger-daily:{kind}:{date.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def shipped_winnable(cells: int) -> tuple[int, ...]:
    """The project's shipped list of proven-winnable deals (``engine/solver/winnable_deals.json``)."""
    from engine.solver.deals import winnable_deals

    return tuple(winnable_deals(cells))


def daily_code(kind: str, date: dt.date) -> str:
    """The challenge code of ``kind`` for the UTC day ``date``."""
    h = _hash(kind, date)
    if kind == "bakers":
        deals = shipped_winnable(DAILY_CELLS)
        deal = deals[h % len(deals)] if deals else h % (MAX_DEAL + 1)
        return engine.code_for("bakers", deal, DAILY_CELLS)
    candidates = [
        engine.code_for(kind, (h + i * 0x9E3779B1) % (MAX_DEAL + 1)) for i in range(CALCULATION_CANDIDATES)
    ]
    return next((c for c in candidates if not _proven_unwinnable(c)), candidates[0])


def _proven_unwinnable(code: str) -> bool:
    from engine.calculation.perfect import NOT_WINNABLE, solve

    result = solve(engine.new_game(code), time_limit=PROOF_SECONDS, from_start=True)  # type: ignore[arg-type]
    return result.verdict == NOT_WINNABLE


def utc_today(now: dt.datetime | None = None) -> dt.date:
    return (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).date()


def next_reset(now: dt.datetime | None = None) -> dt.datetime:
    """The next 00:00 UTC (when the next challenge begins)."""
    today = utc_today(now)
    return dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
