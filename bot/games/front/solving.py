"""A front's solving: the workers that advise on a position (required: every board has a
Hint button), decide whether it can still be won and find winnable deals, and what is known
without a search (shipped deals, a known win's line). Workers run in the bot's process
pools, so each is a module-level function and its answer plain values that pickle.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from bot.games.front.part import G, Part

AdviceStatus = Literal["move", "won", "lost", "unknown"]
VerdictStatus = Literal["winnable", "lost", "unknown"]


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint worker's answer; plain values, so it crosses the process pool."""

    status: AdviceStatus
    move: str | None = None
    undos: int | None = None  # for "lost": undos back to a winnable position, if found
    # For "lost" without undos: whether the deal could be won from its start, when known
    # (False: no move of the player lost it; True: it was winnable and no longer is).
    deal_winnable: bool | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a position can still be won (a verdict worker's answer; plain values, so it
    crosses the process pool). ``line``: the marks (``Solving.mark``) of the positions a
    win from here passes through, so a move onto it needs no search; ``undos``, for "lost":
    the undos back to a winnable position, when known."""

    status: VerdictStatus
    line: tuple[Hashable, ...] = ()
    undos: int | None = None
    nodes: int = 0


# A worker run in the solver's process pool: (code, action log, seconds) → advice.
HintWorker = Callable[[str, tuple[str, ...], float], Advice]
# A worker deciding whether a position can still be won, run in the players' (hint) pool:
# (code, action log, seconds, node budget, search back for the undos, marks of positions
# known to be winnable, in their line's order: a search may stop on reaching one, the undos
# back to the first of them or None) → verdict.
VerdictWorker = Callable[[str, tuple[str, ...], float, int, bool, tuple[Hashable, ...], int | None], Verdict]
# A worker that finds proven-winnable deals: (cells, seed, wanted, seconds each, budget) → deals.
WinnableFinder = Callable[[int, int, int, float, float], list[int]]

R = TypeVar("R")


class WorkerPool(Protocol):
    """Where a front's slow searches run, off the event loop (``bot.play.solving.Solver``, passed in)."""

    async def run(self, fn: Callable[..., R], *args: Any, timeout: float | None = None) -> R: ...


class Solving(Part[G], ABC):
    """Hints (required), and the optional verdicts and winnable stock: none by default, so a
    game without them never warns and deals any deal."""

    stock_cells: ClassVar[tuple[int, ...]] = ()  # cell counts dealt from the winnable stock

    @property
    @abstractmethod
    def hint_worker(self) -> HintWorker:
        """A module-level function (it must pickle) that advises on a position."""

    def hint_worker_for(self, game: G) -> HintWorker:
        """The worker advising on ``game``: ``hint_worker``, unless the advice depends on its
        player's settings (given to ``game`` by ``use_settings``), which a front's override
        passes to its worker (a ``functools.partial`` of a module-level function pickles)."""
        return self.hint_worker

    @property
    def verdict_worker(self) -> VerdictWorker | None:
        """The worker that decides whether a position can still be won (None: the game's
        boards never warn, e.g. one with hidden cards)."""
        return None

    def mark(self, game: G) -> Hashable | None:
        """A cheap mark of the position, equal for equal positions, compared with a verdict's
        ``line`` on the event loop (None when the game has no verdict worker)."""
        return None

    def known_line(self, game: G) -> tuple[Hashable, ...] | None:
        """For a game as dealt: the marks of the positions a known win of its deal passes
        through (a shipped solution), so its first verdict needs no whole new search; None
        when no win of the deal is known here."""
        return None

    def shipped_deals(self, cells: int) -> tuple[int, ...]:
        """Proven-winnable deals shipped with the project (the stock's seed and fallback)."""
        return ()

    @property
    def winnable_finder(self) -> WinnableFinder | None:
        """For games dealt from a stock of proven-winnable deals: the worker that finds more."""
        return None
