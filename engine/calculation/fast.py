"""Rank-only Calculation for search: plain ints and lists, no Game objects.

Suits never matter, so a state is each foundation's progress (cards on it,
1..13), the waste piles as lists of ranks, and the ranks still to be turned.
The hint player runs thousands of playouts per move with these functions, so
they are written for CPython speed (table look-ups, few calls) over elegance.

The playout policy ("need distance", tuned on deals 0-2999; issue 26 retuned it on
random shuffles of seeds 777 and 4242, 11.4% -> 13.8% won alone):
- a card that fits a foundation goes there at once (the least advanced
  foundation if several fit), and every waste top that then fits follows;
  when several tops of the same rank fit, the pile whose next card is needed
  soonest is unwound (which copy goes home is a real choice: 8.4% -> 11.9%
  alone on deals 0-2999);
- otherwise a king goes on an empty pile, else on a king;
- any other card goes on the pile of least cost: covering a top needed later
  costs the gap (so the smallest gap wins; the top's need distance is that of the
  last of its rank's waiting copies), covering a top needed sooner costs
  ``BURY_TOP``, an empty pile costs ``EMPTY``, and every card in the pile needed
  sooner than the new card adds ``BLOCK`` plus ``BLOCK`` per step sooner.
A card's need distance is how many cards a foundation takes before it; with
``m`` copies of its rank already waiting in the waste piles, it is the
(m+1)-th nearest foundation's distance, since the nearer ones will be served
by those copies.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.calculation.rules import FULL, KING, PLACE, SEQUENCES

NEVER = 99  # need distance of a rank no foundation takes any more
# Placement costs, in need-distance steps (tuned on deals 0-2999, see docs/BENCHMARKS.md):
EMPTY = 20  # taking an empty pile
BURY_TOP = 30  # covering a top that is needed before the card
BLOCK = 3  # per card covered that is needed before it, plus this much per step earlier
EMPTIED = 50  # unwinding order: a pile left empty ranks as if its next card were needed this far off
# NEED_AT[i][k]: the rank foundation i takes when it holds k cards (0 once complete).
NEED_AT: tuple[tuple[int, ...], ...] = tuple((*seq, 0) for seq in SEQUENCES)
MUL = (14**3, 14**2, 14, 1)
# _DIST[key][rank]: the sorted need distances of that rank over the foundations.
_DIST: dict[int, tuple[tuple[int, ...], ...]] = {}


def prog_key(prog: Sequence[int]) -> int:
    return prog[0] * MUL[0] + prog[1] * MUL[1] + prog[2] * MUL[2] + prog[3]


def _distances(key: int) -> tuple[tuple[int, ...], ...]:
    prog = (key // MUL[0], key // MUL[1] % 14, key // MUL[2] % 14, key % 14)
    out: list[tuple[int, ...]] = [(NEVER,)]
    for r in range(1, 14):
        ds = sorted(PLACE[i][r] - prog[i] for i in range(4) if prog[i] < FULL and PLACE[i][r] >= prog[i])
        out.append(tuple(ds) or (NEVER,))
    dist = tuple(out)
    _DIST[key] = dist
    return dist


def distances(prog: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """For each rank (index 1..13) the sorted distances at which foundations need it."""
    key = prog_key(prog)
    return _DIST.get(key) or _distances(key)


def choose_pile(
    dist: Sequence[Sequence[int]], waiting: Sequence[int], piles: Sequence[Sequence[int]], r: int
) -> int:
    """The pile the policy puts rank ``r`` on; ``waiting[r]`` counts ranks in the waste piles."""
    ds = dist[r]
    dc = ds[waiting[r]] if waiting[r] < len(ds) else ds[-1]
    if r == KING:
        for j in range(4):
            if not piles[j]:
                return j
        for j in range(4):
            if piles[j][-1] == KING:
                return j
    best = 0
    best_cost = 1 << 30
    for j in range(4):
        p = piles[j]
        if p:
            t = p[-1]
            if t == r:
                dt = dc  # equal ranks are interchangeable
            else:  # copy-aware too: the last of the waiting copies of its rank
                dd = dist[t]
                dt = dd[waiting[t] - 1] if waiting[t] <= len(dd) else dd[-1]
            cost = dt - dc if dt >= dc else BURY_TOP
            for x in p:
                dx = dc if x == r else dist[x][0]
                if dx < dc:
                    cost += BLOCK + BLOCK * (dc - dx)
        else:
            cost = EMPTY
        if cost < best_cost:
            best_cost = cost
            best = j
    return best


def playout(
    prog: list[int],
    piles: list[list[int]],
    cards: Sequence[int],
    record: list[tuple[str, int, str, int]] | None = None,
) -> int:
    """Play ``cards`` in order with the policy above, after first sending every waste top
    that fits home. Mutates ``prog`` and ``piles``; returns the final score (4..52).
    With ``record``, appends each move as (src_kind, src, dst_kind, dst) in notation's kinds."""
    need = [NEED_AT[0][prog[0]], NEED_AT[1][prog[1]], NEED_AT[2][prog[2]], NEED_AT[3][prog[3]]]
    key = prog[0] * 2744 + prog[1] * 196 + prog[2] * 14 + prog[3]
    waiting = [0] * 14
    for p in piles:
        for t in p:
            waiting[t] += 1
    cascade = True
    for r in (0, *cards):
        if r:
            if r in need:
                i = need.index(r) if need.count(r) == 1 else least_advanced(need, prog, r)
                k = prog[i] = prog[i] + 1
                need[i] = NEED_AT[i][k]
                key += MUL[i]
                cascade = True
                if record is not None:
                    record.append(("s", 0, "f", i))
            else:
                j = choose_pile(_DIST.get(key) or _distances(key), waiting, piles, r)
                piles[j].append(r)
                waiting[r] += 1
                if record is not None:
                    record.append(("s", 0, "w", j))
                continue
        while cascade:
            cascade = False
            for j in range(4):
                p = piles[j]
                if p and p[-1] in need:
                    t = p[-1]
                    if waiting[t] > 1:
                        j = unwind_choice(_DIST.get(key) or _distances(key), piles, t, j)
                        p = piles[j]
                    p.pop()
                    waiting[t] -= 1
                    i = need.index(t) if need.count(t) == 1 else least_advanced(need, prog, t)
                    k = prog[i] = prog[i] + 1
                    need[i] = NEED_AT[i][k]
                    key += MUL[i]
                    cascade = True
                    if record is not None:
                        record.append(("w", j, "f", i))
                    break
    return prog[0] + prog[1] + prog[2] + prog[3]


def least_advanced(need: Sequence[int], prog: Sequence[int], r: int) -> int:
    """Of the foundations that need rank ``r``, the least advanced (where the policy sends it)."""
    return min((q for q in range(4) if need[q] == r), key=prog.__getitem__)


def unwind_key(dist: Sequence[Sequence[int]], pile: Sequence[int]) -> tuple[int, int]:
    """Order in which piles with the same rank on top send it home (lowest first): the one
    whose next card is needed soonest, then the taller one."""
    return (dist[pile[-2]][0] if len(pile) > 1 else EMPTIED, -len(pile))


def unwind_choice(dist: Sequence[Sequence[int]], piles: Sequence[Sequence[int]], t: int, first: int) -> int:
    """Which pile topped by rank ``t`` (``first`` is the lowest such) sends its copy home."""
    best, best_key = first, unwind_key(dist, piles[first])
    for q in range(first + 1, 4):
        p = piles[q]
        if p and p[-1] == t:
            k = unwind_key(dist, p)
            if k < best_key:
                best, best_key = q, k
    return best
