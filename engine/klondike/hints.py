"""Klondike's fair hint player: hindsight optimisation over what the player has seen.

The one entry point, ``best_move``, takes a ``KlondikeState`` from ``seen_state()``: the cards
never seen are ``UNKNOWN`` there, so nothing this module does can read one. It deals those
cards (``unseen``) out at random many times (each deal a *sample*: one world consistent with
everything seen), asks the thoughtful solver (``engine.klondike.solving``) for a win in each
within a small budget, and plays the first move most winning lines begin with (Bjarnason,
Fern and Tadepalli's hindsight optimisation, ICAPS 2009). A card that can never be needed off
its foundation goes home at once (the solver's own safe move) and a lone ``s`` is played
without thinking; when no sample finds a win the move is chosen by what it shows or sends
home (``fallback_order``). The samples are seeded by a stable hash of the seen state and ``seed``,
so a hint is repeatable, and two games that differ only in cards never seen get the same one.

Strength and CPU (samples x budget): docs/BENCHMARKS.md, "Klondike: the blind hint player".
"""

from __future__ import annotations

import hashlib
import random
import time
from collections import Counter

from engine.klondike.notation import HOME, PILE, STOCK, WASTE
from engine.klondike.position import KlondikeMove, Position
from engine.klondike.solver_state import is_safe
from engine.klondike.solving import Layout, solve
from engine.klondike.state import UNKNOWN, KlondikeState, position_of
from engine.solver.result import WINNABLE

SAMPLES = 8  # worlds dealt per hint, at most
SAMPLE_BUDGET = 400  # solver positions per world: 8 x 400 measured 0.30 s p99 CPU a hint


def best_move(
    state: KlondikeState,
    *,
    seed: int = 0,
    samples: int = SAMPLES,
    budget: int = SAMPLE_BUDGET,
    time_limit: float | None = None,
) -> str | None:
    """The recommended move's notation for the seen ``state``, or None when no move is left.

    Deterministic for a state, ``seed``, ``samples`` and ``budget``; ``time_limit`` (CPU
    seconds), if given, may stop the sampling early and so trades that for a bound."""
    rng = random.Random(seed_for(state, seed))
    probe = position_of(fill(state, rng))  # any world lists the same legal moves
    moves = list(probe.moves())
    if not moves or probe.is_won():
        return None
    quick = _obvious(probe, moves)
    if quick is not None:
        return quick
    votes = _votes(state, rng, samples, budget, time_limit)
    if votes:
        order = {m.notation: k for k, m in enumerate(fallback_order(probe, moves))}
        return max(votes, key=lambda n: (votes[n], -order.get(n, len(order))))
    return fallback_order(probe, moves)[0].notation


def seed_for(state: KlondikeState, seed: int) -> int:
    """The samples' seed: a stable hash (BLAKE2b, 64 bits) of the whole seen state and ``seed``,
    the same on any machine and Python (no salted ``hash()``)."""
    text = f"{seed}|{state.piles}|{state.face_down}|{state.stock}|{state.waste}|{state.foundations}"
    text += f"|{state.draw}|{state.unseen}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def fill(state: KlondikeState, rng: random.Random) -> KlondikeState:
    """One world consistent with ``state``: its ``UNKNOWN`` cards dealt from ``unseen`` at random."""
    deck = list(state.unseen)
    rng.shuffle(deck)
    cards = iter(deck)
    piles = tuple(tuple(next(cards) if c == UNKNOWN else c for c in p) for p in state.piles)
    stock = tuple(next(cards) if c == UNKNOWN else c for c in state.stock)
    return KlondikeState(
        piles, state.face_down, stock, state.waste, state.foundations, state.draw, state.recycles
    )


def _obvious(pos: Position, moves: list[KlondikeMove]) -> str | None:
    """A move needing no thought: a card home that can never be needed back (what the solver
    itself plays at once), or ``s`` when nothing else can move."""
    found = tuple(pos.found)
    for m in moves:
        if m.dst_kind == HOME and m.src_kind in (PILE, WASTE) and is_safe(m.cards[0], found):
            return m.notation
    if all(m.notation == STOCK for m in moves):
        return STOCK
    return None


def _votes(
    state: KlondikeState, rng: random.Random, samples: int, budget: int, time_limit: float | None
) -> Counter[str]:
    """Per first move, how many sampled worlds the solver won by a line starting with it.
    Stops once the leader cannot be caught by the samples left."""
    votes: Counter[str] = Counter()
    started = time.process_time()
    for n in range(samples):
        world = fill(state, rng)
        result = solve(
            Layout(world.piles, world.face_down, world.stock, world.waste, world.foundations, world.draw),
            budget=budget,
        )
        if result.verdict == WINNABLE and result.moves:
            votes[result.moves[0]] += 1
        ranked = votes.most_common(2)
        left = samples - n - 1
        if ranked and ranked[0][1] > (ranked[1][1] if len(ranked) > 1 else 0) + left:
            break
        if time_limit is not None and time.process_time() - started > time_limit:
            break
    return votes


def fallback_order(pos: Position, moves: list[KlondikeMove]) -> list[KlondikeMove]:
    """The legal moves, likeliest first by what they visibly do: turn a face-down card up
    (the pile with most still face down first), send a card home, play the waste, turn the
    stock; moves that only shuffle face-up cards between piles, or take a card back from its
    foundation, come last (they can go round in circles)."""

    def rank(m: KlondikeMove) -> tuple[int, int]:
        if m.turns_up:
            return 0, -pos.down[m.src]
        if m.dst_kind == HOME:
            return 1, 0
        if m.src_kind == WASTE:
            return 2, 0
        if m.notation == STOCK:
            return 3, 0
        return 4, 0

    return sorted(moves, key=rank)
