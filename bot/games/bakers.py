"""Jeu du Boulanger's front: the eight-column front (``bot.games.tableau``: one press a move,
Home in one press, the menu, the solver's hints) with its command, its free cells (4, 2
or 1), its daily and its winnable stock."""

from __future__ import annotations

import itertools
import random
import time
from collections import OrderedDict
from collections.abc import Iterator

import engine
from bot.games.base import WinnableFinder
from bot.games.tableau import HOME, TableauFront, place_words, tableau_hint, tableau_verdict
from bot.languages.i18n import Translator
from engine.bakers import BakersGame
from engine.bakers.record import BAKERS

DAILY_CELLS = 4
# The daily's search, once a day in a thread of the bot's process: at most this many nodes
# (a deal usually takes a few thousand: a hard one is skipped, whatever the machine's load)
# and seconds per deal tried, and seconds in all (the shipped list is the fallback).
DAILY_NODES_EACH, DAILY_SECONDS_EACH, DAILY_BUDGET = 30_000, 0.5, 3.0
# The wins found for the dailies this process drew, by code, so a daily game starts on its
# line (``solution``); another process, or this one restarted, searches as for any deal.
DAILY_LINES_KEPT = 8
_daily_lines: OrderedDict[str, tuple[str, ...]] = OrderedDict()
# The workers under their earlier names (pickled by name into the pools).
bakers_hint, bakers_verdict = tableau_hint, tableau_verdict


def proven_deals(
    cells: int, rng: random.Random, seconds_each: float, budget: float, nodes_each: int | None = None
) -> Iterator[tuple[engine.GameCode, tuple[str, ...]]]:
    """Random deals with ``cells`` free cells the solver wins, each with its win, until
    ``budget`` seconds have passed (each deal's search within ``seconds_each`` and
    ``nodes_each``)."""
    from engine.solver import solve

    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        code = engine.make_code("bakers", rng.randrange(engine.codes.MAX_DEAL + 1), cells)
        seconds = min(seconds_each, max(0.0, deadline - time.monotonic()))
        found = solve(BakersGame(code), time_limit=seconds, node_limit=nodes_each, compact=False)
        if found.winnable:
            yield code, tuple(found.moves)


def shipped_winnable(cells: int) -> tuple[int, ...]:
    """The project's shipped list of proven-winnable deals (``engine/bakers/winnable_deals.json``)."""
    from engine.bakers.deals import winnable_deals

    return tuple(winnable_deals(cells))


def find_winnable(cells: int, seed: int, wanted: int, seconds_each: float, budget: float) -> list[int]:
    """Worker: try random deals with ``cells`` free cells; return those proven winnable."""
    found = proven_deals(cells, random.Random(seed), seconds_each, budget)
    return [code.deal for code, _ in itertools.islice(found, max(0, wanted))]


class BakersFront(TableauFront[BakersGame]):
    record = BAKERS
    accent_colour = 0xC8893B  # a baked crust
    stock_cells = (4, 2, 1)
    score_key = "lb.bakers_score"
    best_won_key = "stats.best_bakers"
    best_not_won_key = "stats.best_bakers_not_won"

    def help(self, tr: Translator) -> str:
        return tr(self.key("help"))

    def shipped_deals(self, cells: int) -> tuple[int, ...]:
        return shipped_winnable(cells)

    def solution(self, code: engine.GameCode) -> tuple[str, ...] | None:
        """A shipped stock deal's solution (``engine.bakers.deals``), for that deal as dealt
        today, or the win found when this process drew that daily."""
        from engine.bakers.deals import winnable_line

        if code.cells is None or code != engine.make_code(self.kind, code.deal, code.cells):
            return None  # an older version of the deal numbers: other cards
        return winnable_line(code.deal, code.cells) or _daily_lines.get(str(code))

    def daily_code(self, draw: int) -> engine.GameCode:
        """A random deal the solver proves winnable (a few ms each): not one of the shipped
        stock deals, which players meet as ordinary games and could have practised. The
        proof's win is kept for the daily's games (``solution``)."""
        rng = random.Random(draw)
        win = next(proven_deals(DAILY_CELLS, rng, DAILY_SECONDS_EACH, DAILY_BUDGET, DAILY_NODES_EACH), None)
        if win is not None:
            code, moves = win
            _daily_lines[str(code)] = moves
            while len(_daily_lines) > DAILY_LINES_KEPT:
                _daily_lines.popitem(last=False)
            return code
        deals = self.shipped_deals(DAILY_CELLS)  # the solver found none in time: a proven one
        deal = deals[draw % len(deals)] if deals else draw % (engine.codes.MAX_DEAL + 1)
        return self.code(deal, DAILY_CELLS)

    @property
    def winnable_finder(self) -> WinnableFinder:
        return find_winnable


__all__ = ["HOME", "BakersFront", "bakers_hint", "bakers_verdict", "find_winnable", "place_words"]
