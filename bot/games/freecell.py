"""FreeCell's front: the eight-column front (``bot.games.tableau``: one press a move, Home and
Finish, the menu, the solver's hints and verdicts) with Microsoft's numbered deals, 4, 3, 2
or 1 free cells, safe auto-play, and its own words.

A new game without a number is a random Microsoft deal the solver has won at that cell
count (``engine.freecell.winnable.winnable_freecell_deal``), taken from the winnable stock
the bot keeps per cell count (``find_winnable`` refills it; ``freecell_deals.json`` is
its seed and fallback). A number is a deal: ``/freecell deal:11982``, or ``11982`` /
``#11982`` wherever a code is typed. The daily is a random deal proven winnable with 4
cells.

Auto-play: each move sends home, in the same action, the cards safe auto-play sends
(``engine.freecell``); one undo takes them back.

FreeCell's words (its name, rules, help, messages, the names of its command and options)
are in its own catalogues, ``bot/games/locales/freecell/<lang>.po``.
"""

from __future__ import annotations

import functools
import json
import random
import time
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import engine
from bot.games.base import GameSetting, HintWorker, WinnableFinder
from bot.games.tableau import TableauFront, tableau_hint
from bot.languages.i18n import Translator
from engine.cards import card_label
from engine.freecell import FreeCellGame, FreeCellMove
from engine.freecell.position import safe_home
from engine.freecell.record import FREECELL
from engine.tableau.notation import CELL, CELL_LETTERS, COLUMN, COLUMN_DIGITS, FOUNDATION

DAILY_CELLS = 4
# The daily's search, once a day in a thread of the bot's process (a deal with 4 cells
# usually takes a few thousand nodes; the shipped list is the fallback).
DAILY_NODES, DAILY_TRIES = 200_000, 10
# The stock's search: at most this many nodes a deal tried (hard deals are dropped, not
# waited for: the budget is the finder's seconds).
STOCK_NODES = 200_000
DEALS_FILE = Path(__file__).with_name("freecell_deals.json")


@cache
def shipped(cells: int) -> tuple[int, ...]:
    """The shipped proven-winnable deals with ``cells`` free cells (``freecell_deals.json``)."""
    data = json.loads(DEALS_FILE.read_text(encoding="utf-8"))
    return tuple(int(d) for d in data["deals"].get(str(cells), ()))


def find_winnable(cells: int, seed: int, wanted: int, seconds_each: float, budget: float) -> list[int]:
    """Worker: random Microsoft deals the solver won with ``cells`` free cells, until
    ``wanted`` are found or ``budget`` seconds have passed (``seconds_each`` is not used: each
    deal's search is bounded by nodes, ``STOCK_NODES``)."""
    from engine.freecell.winnable import winnable_freecell_deal

    rng = random.Random(seed)
    found: list[int] = []
    deadline = time.monotonic() + budget
    while len(found) < wanted and time.monotonic() < deadline:
        deal = winnable_freecell_deal(cells, rng, node_limit=STOCK_NODES, tries=1)
        if deal is not None and deal not in found:
            found.append(deal)
    return found


class FreeCellFront(TableauFront[FreeCellGame]):
    record = FREECELL
    accent_colour = 0x2E8B57  # the card table's green
    stock_cells = (4, 3, 2, 1)
    score_key = "lb.freecell_score"
    best_won_key = "stats.best_freecell"
    best_not_won_key = "stats.best_freecell_not_won"
    # Safe auto-play, on by default as in Microsoft's game; a player may turn it off in /settings.
    settings = (GameSetting("autoplay", ("on", "off")),)

    def use_settings(self, game: FreeCellGame, values: Mapping[str, str]) -> None:
        game.autoplay = values.get("autoplay", "on") != "off"

    def hint_worker_for(self, game: FreeCellGame) -> HintWorker:
        """The solver's advice as this player presses it: with auto-play off, the moves home
        auto-play would make are theirs to make, and no move relies on auto-play."""
        return functools.partial(tableau_hint, autoplay=game.autoplay)

    def help(self, tr: Translator) -> str:
        return tr("help.freecell")

    def shipped_deals(self, cells: int) -> tuple[int, ...]:
        return shipped(cells)

    def daily_code(self, draw: int) -> engine.GameCode:
        """A random Microsoft deal the solver wins with 4 cells (not a shipped one, which
        players meet as ordinary games); a shipped one if none was found in the budget."""
        from engine.freecell.winnable import winnable_freecell_deal

        deal = winnable_freecell_deal(
            DAILY_CELLS, random.Random(draw), node_limit=DAILY_NODES, tries=DAILY_TRIES
        )
        if deal is None:
            deals = self.shipped_deals(DAILY_CELLS)
            deal = deals[draw % len(deals)]
        return self.code(deal, DAILY_CELLS)

    @property
    def winnable_finder(self) -> WinnableFinder:
        return find_winnable

    def one_press(self, game: FreeCellGame, place: str) -> str:
        """FreeCell's one press: a card safe to send home goes home (with auto-play on it
        already has); else the most cards of the place's run that fit on a column with cards
        (building with runs is how FreeCell is played: the engine's double tap moves one
        card), onto the longest such column; else the double tap's (its foundation, an empty
        column, a free cell). A card that could go home but is not safe is one a lower card
        of the other colour may still need: the solver's wins put it on a column far more
        often than home (``benchmarks/clicks.py``), and Home still sends it."""
        if game.is_empty(place):
            return game.double_tap_target(place)
        pos = game.position
        source = (
            (COLUMN, COLUMN_DIGITS.index(place))
            if place in COLUMN_DIGITS
            else (CELL, CELL_LETTERS.index(place))
        )
        moves = list(pos.moves(source))
        home = next((m for m in moves if m.dst_kind == FOUNDATION and len(m.cards) == 1), None)
        if home is not None and safe_home(home.cards[0], pos.found):
            return home.notation
        onto = [m for m in moves if m.dst_kind == COLUMN and not m.to_empty]
        if not onto:
            return game.double_tap_target(place)
        cols = pos.cols
        return max(onto, key=lambda m: (len(m.cards), len(cols[m.dst]), -m.dst)).notation

    def one_presses(self, game: FreeCellGame) -> dict[str, str]:
        """FreeCell's own one press (``one_press``), place by place."""
        out: dict[str, str] = {}
        for place in game.places():
            if game.is_empty(place):
                continue
            try:
                out[place] = self.one_press(game, place)
            except engine.IllegalMove:
                continue
        return out

    def describe_action(self, tr: Translator, moves: tuple[FreeCellMove, ...]) -> str:
        """A move and the cards auto-play sent home after it: ``7♥ from column 2 to column 7;
        then home by themselves: A♠, 2♠``."""
        first, *rest = moves
        if rest and first.dst_kind != FOUNDATION and all(m.dst_kind == FOUNDATION for m in rest):
            cards = ", ".join(card_label(m.cards[0]) for m in rest)
            return tr("move.auto_home.freecell", move=self.describe_move(tr, first), cards=cards)
        return super().describe_action(tr, moves)
