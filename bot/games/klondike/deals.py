"""Klondike's proven-winnable deals: the stock new games are dealt from and the daily, each a
deal the thoughtful solver (``engine.klondike.solving``: knowing every card) has won.

The searches are bounded by positions, not seconds, so whether a deal is taken does not depend
on the machine's load; a deal the budget does not settle is dropped, not waited for.
"""

from __future__ import annotations

import json
import random
import time
from functools import cache
from pathlib import Path

import engine
from engine.klondike import KlondikeGame
from engine.klondike.solving import is_winnable, layout_of

# A deal tried for the stock: at most this many positions (about 1.5 s of one core; the
# benchmark's thoughtful share was measured at 20,000 a deal, docs/BENCHMARKS.md).
STOCK_NODES = 20_000
# The daily: the first of a few deals drawn from the day's draw that the solver wins within a
# small budget (a player, or the daily post, may be waiting for the first daily of the day: at
# most about 1 s of one core over 15 days measured).
DAILY_NODES, DAILY_TRIES = 5_000, 20


DEALS_FILE = Path(__file__).with_name("deals.json")


@cache
def shipped(draw: int) -> tuple[int, ...]:
    """The shipped proven-winnable deals drawing ``draw`` (``deals.json``): a new bot's stock,
    so its first games are dealt at once instead of after a search."""
    data = json.loads(DEALS_FILE.read_text(encoding="utf-8"))
    return tuple(int(d) for d in data["deals"].get(str(draw), ()))


def proven(code: engine.GameCode, nodes: int) -> bool:
    """Whether the solver wins the deal ``code`` within ``nodes`` positions."""
    game = engine.new_game(str(code))
    assert isinstance(game, KlondikeGame)
    return is_winnable(layout_of(game.state()), nodes)


def winnable_deal(draw: int, rng: random.Random, nodes: int, tries: int) -> int | None:
    """A random deal the solver wins drawing ``draw``, or None when ``tries`` deals were not."""
    deals = engine.codes.SPECS["klondike"].deals
    for _ in range(tries):
        deal = rng.randint(deals.low, deals.high)
        if proven(engine.make_code("klondike", deal, draw), nodes):
            return deal
    return None


def find_winnable(draw: int, seed: int, wanted: int, seconds_each: float, budget: float) -> list[int]:
    """Worker: random deals the solver won drawing ``draw``, until ``wanted`` are found or
    ``budget`` seconds have passed (``seconds_each`` is not used: each deal's search is bounded
    by positions, ``STOCK_NODES``)."""
    rng = random.Random(seed)
    found: list[int] = []
    deadline = time.monotonic() + budget
    while len(found) < wanted and time.monotonic() < deadline:
        deal = winnable_deal(draw, rng, STOCK_NODES, 1)
        if deal is not None and deal not in found:
            found.append(deal)
    return found
