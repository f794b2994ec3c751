"""The hint player: a Monte-Carlo lookahead over what the player can see.

For each candidate move it plays the rest of the game many times with the
unseen cards reshuffled (the same shuffles for every candidate, so the
comparison is fair) using the need-distance heuristic (``fast.playout``), and
picks the move that wins most often (then the highest average score, then the
heuristic's own choice). Each decision plays at most ``FAST_WORK`` cards over all
its playouts, so early decisions (long playouts) get fewer reshuffles than late
ones and the CPU per decision is bounded; within it the candidates are halved in
rounds (sequential halving), so the close calls get most of the reshuffles. There is
one setting: 45,000 cards won 79.3 % of held-out decks against 73.3 % at 30,000
(paired p = 0.07, docs/BENCHMARKS.md). It never reads the stock order:
its inputs are the foundations, the waste piles, the turned card and
``unseen_cards()``.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engine.calculation.fast import choose_pile, distances, playout, unwind_key
from engine.calculation.notation import FOUNDATION, TURNED
from engine.calculation.position import CalculationMove
from engine.cards import rank_of

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

FAST_ROLLOUTS = 2048  # reshuffles per candidate, at most (late in a game, where playouts are short)
FAST_WORK = 45_000  # cards played per decision, at most: p99 114 ms CPU (see docs/BENCHMARKS.md)
BATCH = 32  # reshuffles between pruning checks
PRUNE_MIN = 3  # a candidate is dropped only when at least this many wins behind …
PRUNE_Z2 = 6.25  # … and behind by more than 2.5 standard deviations of a sign test
HALVING = True  # with a work budget, halve the candidates in equal rounds (see ``evaluate``)


class SeenGame(Protocol):
    """What the hint player reads of a game: what its player sees, never the stock order.

    ``CalculationGame`` is one; the game passes itself in (``CalculationGame.hint``), so this
    module needs nothing of the game's."""

    @property
    def foundations(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def waste(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def turned(self) -> int | None: ...

    def unseen_cards(self) -> frozenset[int]: ...

    def legal_move_objects(self) -> list[CalculationMove]: ...


@dataclass(frozen=True, slots=True)
class View:
    """What the player sees, in ranks: foundation progress, waste piles, turned card, unseen ranks."""

    prog: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    turned: int  # rank, 0 when the stock is used up
    unseen: tuple[int, ...]  # sorted ranks

    @classmethod
    def of(cls, game: SeenGame) -> View:
        turned = game.turned
        return cls(
            tuple(len(f) for f in game.foundations),
            tuple(tuple(rank_of(c) for c in w) for w in game.waste),
            0 if turned is None else rank_of(turned),
            tuple(sorted(rank_of(c) for c in game.unseen_cards())),
        )

    def after(self, move: CalculationMove) -> tuple[list[int], list[list[int]], int]:
        """Progress and piles after ``move``, and the turned rank still to place (0 if none)."""
        prog = list(self.prog)
        piles = [list(p) for p in self.piles]
        turned = self.turned
        if move.src_kind == TURNED:
            turned = 0
        else:
            piles[move.src].pop()
        if move.dst_kind == FOUNDATION:
            prog[move.dst] += 1
        else:
            piles[move.dst].append(rank_of(move.card))
        return prog, piles, turned


def candidates(game: SeenGame) -> list[CalculationMove]:
    """The moves worth comparing, best-guess first. Foundation plays come first and are
    taken at once, one rank at a time; the real choices are then which copy of that rank
    goes home when several could (the turned card or a waste top: it decides which pile
    is unwound; 42% -> 64.5% at 128 reshuffles) and to which foundation when several
    fit. Otherwise the turned card goes to the waste, and waste piles holding the same
    ranks are the same choice, so only the first of them is kept."""
    moves = game.legal_move_objects()
    view = View.of(game)
    home = [m for m in moves if m.dst_kind == FOUNDATION]
    if home:
        rank = rank_of(home[0].card)
        same_rank = [m for m in home if rank_of(m.card) == rank]
        return _distinct(same_rank, view, lambda m: _home_order(m, view, game))
    if not moves:
        return []
    best = _heuristic_pile(view)
    return _distinct(moves, view, lambda m: m.dst != best)


def _distinct(
    moves: list[CalculationMove], view: View, order: Callable[[CalculationMove], SupportsRichComparison]
) -> list[CalculationMove]:
    """``moves`` sorted by ``order``, keeping one of each set that leads to the same position
    (waste piles holding the same ranks are interchangeable)."""
    seen: set[tuple[object, ...]] = set()
    unique = []
    for m in sorted(moves, key=order):
        src = () if m.src_kind == TURNED else view.piles[m.src]
        dst = m.dst if m.dst_kind == FOUNDATION else view.piles[m.dst]
        key = (m.src_kind, src, m.dst_kind, dst)
        if key not in seen:
            seen.add(key)
            unique.append(m)
    return unique


def _home_order(m: CalculationMove, view: View, game: SeenGame) -> tuple[int, tuple[int, int], int]:
    """As the playouts do: the turned card first, then the pile whose next card is needed
    soonest, onto the least advanced foundation."""
    if m.src_kind == TURNED:
        return (0, (0, 0), len(game.foundations[m.dst]))
    return (1, unwind_key(distances(view.prog), view.piles[m.src]), len(game.foundations[m.dst]))


def _heuristic_pile(view: View) -> int:
    waiting = [0] * 14
    for p in view.piles:
        for r in p:
            waiting[r] += 1
    return choose_pile(distances(view.prog), waiting, view.piles, view.turned)


def _seed_for(view: View, seed: int) -> int:
    """The reshuffle stream's seed: a stable hash (BLAKE2b, 64 bits) of the whole view and ``seed``.

    Every part counts, so different positions or seeds draw different reshuffles, and
    the same position and seed always draw the same ones, on any machine and Python
    (no ``hash()``, which is salted per process). (Until issue 13 the seed was the low
    61 bits of the text itself: the tail of the unseen ranks, the same for almost
    every position, with ``seed`` dropped altogether.)"""
    text = f"{seed}|{view.prog}|{view.piles}|{view.turned}|{view.unseen}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


@dataclass(slots=True)
class Tally:
    """One candidate's record over the shared reshuffles: which of them it won, and its score."""

    wins: int = 0  # bit n set when reshuffle n was won
    score: int = 0
    plays: int = 0
    active: bool = True

    def key(self) -> tuple[int, int]:
        return self.wins.bit_count(), self.score


def _prune(tallies: list[Tally]) -> None:
    """Drop candidates that lose clearly to the leader on the same reshuffles (a sign test on
    the reshuffles where exactly one of the two won), so the budget goes to close calls."""
    live = [t for t in tallies if t.active]
    leader = max(live, key=Tally.key)
    for t in live:
        if t is leader:
            continue
        discordant = (leader.wins ^ t.wins).bit_count()
        margin = leader.wins.bit_count() - t.wins.bit_count()
        if margin >= PRUNE_MIN and margin * margin > PRUNE_Z2 * discordant:
            t.active = False


def _halve(tallies: list[Tally], keep: int) -> None:
    """Sequential halving: keep the ``keep`` best live candidates (fewer may be live already,
    after pruning: then all of them go on)."""
    live = sorted((t for t in tallies if t.active), key=Tally.key, reverse=True)
    for t in live[keep:]:
        t.active = False


def evaluate(
    game: SeenGame,
    moves: list[CalculationMove],
    rollouts: int,
    seed: int,
    time_limit: float | None,
    work: int | None = None,
) -> list[Tally]:
    """Play each move out on up to ``rollouts`` reshuffles of the unseen cards (the same ones for
    every move), dropping moves that fall clearly behind after each batch. ``work`` bounds the
    cards played over all playouts (a playout of ``n`` cards costs ``n + 4``), so a decision
    costs about the same CPU early (long playouts, few of them) as late (short, many). With a
    budget the candidates are also halved (sequential halving): the budget is cut into
    ceil(log2(candidates)) equal rounds, and after each only the better half of the candidates
    (counted from the start, rounded up) goes on, so the close calls get most of the reshuffles."""
    view = View.of(game)
    rng = random.Random(_seed_for(view, seed))
    starts = [view.after(m) for m in moves]
    tallies = [Tally() for _ in moves]
    deck = list(view.unseen)
    cost = len(deck) + 5
    budget = (1 << 62) if work is None else work
    rounds = max(1, (len(moves) - 1).bit_length()) if HALVING and work is not None else 1
    per_round = budget // rounds
    boundary = budget - per_round
    keep = len(moves)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    for n in range(rollouts):
        rng.shuffle(deck)
        for (prog, piles, turned), tally in zip(starts, tallies, strict=True):
            if tally.active:
                score = playout(prog[:], [p[:] for p in piles], [turned, *deck] if turned else deck)
                tally.wins |= (score == 52) << n
                tally.score += score
                tally.plays += 1
                budget -= cost
        if budget <= boundary and rounds > 1:
            keep = (keep + 1) // 2
            _halve(tallies, keep)
            rounds -= 1
            boundary -= per_round
            if sum(t.active for t in tallies) == 1:
                break
        if n % BATCH == BATCH - 1:
            _prune(tallies)
            if sum(t.active for t in tallies) == 1 or budget <= 0:
                break
            if deadline is not None and time.perf_counter() > deadline:
                break
    return tallies


def best_move(
    game: SeenGame,
    *,
    rollouts: int = FAST_ROLLOUTS,
    seed: int = 0,
    time_limit: float | None = None,
    work: int | None = FAST_WORK,
) -> str | None:
    """The recommended move's notation, or None when no move is left.

    Deterministic for a position, ``seed`` and ``rollouts`` (``time_limit``, if given,
    may cut the rollouts short and so trades that for a bound on thinking time)."""
    moves = candidates(game)
    if not moves:
        return None
    if len(moves) == 1:
        return moves[0].notation
    tallies = evaluate(game, moves, rollouts, seed, time_limit, work)
    best = max((k for k, t in enumerate(tallies) if t.active), key=lambda k: (tallies[k].key(), -k))
    return moves[best].notation
