"""The thoughtful-Klondike search state and its moves, in plain numbers for speed.

A state is immutable: seven piles (bottom → top), how many cards at the bottom of each are
face down, the talon (the waste bottom → top followed by the stock in turning order, so a
redeal only moves ``pos`` back to 0) with ``pos`` (how many talon cards are in the waste),
and the four foundation counts (♠ ♥ ♦ ♣). A move is a "macro": the stock turns it needs are
part of it (Bjarnason et al. 2007), so the search never expands a bare turn. Each successor
is settled first: a card that can never be needed off the foundations goes home at once.
"""

from __future__ import annotations

from typing import NamedTuple

SUIT = tuple(c // 13 for c in range(52))
RANK = tuple(c % 13 + 1 for c in range(52))
RED = tuple(SUIT[c] in (1, 2) for c in range(52))
KING = 13
OPPOSITE = ((1, 2), (0, 3), (0, 3), (1, 2))  # the other colour's two suits
TWIN = (3, 2, 1, 0)  # the other suit of the same colour
SUIT_LETTERS = "shdc"
MARKS = tuple(bytes((100 + n,)) for n in range(60))  # separators no card index uses


class State(NamedTuple):
    piles: tuple[bytes, ...]
    down: tuple[int, ...]
    talon: bytes
    pos: int
    found: tuple[int, ...]


class Child(NamedTuple):
    """A successor: its search priority (lower first), the moves in notation, the state."""

    rank: int
    moves: list[str]
    state: State


def fits(card: int, onto: int) -> bool:
    """Whether ``card`` builds on ``onto`` in a pile (one rank lower, the other colour)."""
    return RANK[onto] == RANK[card] + 1 and RED[onto] != RED[card]


def is_safe(card: int, found: tuple[int, ...]) -> bool:
    """Whether ``card`` can go home now and never be needed back (dominance).

    Only a card of the other colour one rank lower can use ``card`` as a base, and only a
    card of ``card``'s colour two ranks lower can use that one, and so on; when every such
    card is home (the other colour up to rank - 1, the same colour up to rank - 2), no line
    gains by keeping ``card`` out, even one that brings cards back from the foundations.
    Aces and twos are always safe: nothing but an ace can sit on a two.
    """
    suit, rank = SUIT[card], RANK[card]
    if found[suit] != rank - 1:
        return False
    if rank <= 2:
        return True
    a, b = OPPOSITE[suit]
    return found[a] >= rank - 1 and found[b] >= rank - 1 and found[TWIN[suit]] >= rank - 2


def goes_home(card: int, found: tuple[int, ...]) -> bool:
    return found[SUIT[card]] == RANK[card] - 1


def home(found: tuple[int, ...], card: int) -> tuple[int, ...]:
    suit = SUIT[card]
    return (*found[:suit], found[suit] + 1, *found[suit + 1 :])


def _uncovered(down: tuple[int, ...], pile: int, length: int) -> tuple[int, ...]:
    """Face-down counts after pile ``pile`` shrank to ``length`` (its new top turns up)."""
    if down[pile] and down[pile] >= length:
        return (*down[:pile], max(length - 1, 0), *down[pile + 1 :])
    return down


def _set(piles: tuple[bytes, ...], i: int, pile: bytes) -> tuple[bytes, ...]:
    return (*piles[:i], pile, *piles[i + 1 :])


def settle(state: State, moves: list[str], draw: int) -> State:
    """Send home every safe pile top, and with draw one every safe waste top, repeatedly,
    writing the moves down. Drawing three, a waste card is never sent home unasked: taking a
    card out of the waste regroups the stock's later turns of three, which may lose the only
    way to reach another card (deal 20 drawing three is won only by leaving it)."""
    piles, down, talon, pos, found = state
    moved = True
    while moved:
        moved = False
        for i, pile in enumerate(piles):
            if pile and is_safe(pile[-1], found):
                found = home(found, pile[-1])
                piles = _set(piles, i, pile[:-1])
                down = _uncovered(down, i, len(pile) - 1)
                moves.append(f"{i + 1}h")
                moved = True
        while draw == 1 and pos and is_safe(talon[pos - 1], found):
            found = home(found, talon[pos - 1])
            talon = talon[: pos - 1] + talon[pos:]
            pos -= 1
            moves.append("wh")
            moved = True
    return State(piles, down, talon, pos, found)


def reachable(length: int, pos: int, draw: int) -> list[tuple[int, int]]:
    """``(q, turns)``: each waste size ``q`` > 0 reachable by turning the stock, with the
    fewest turns; the waste's top is then talon card ``q - 1``."""
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    q, turns = pos, 0
    while True:
        if q and q not in seen:
            seen.add(q)
            out.append((q, turns))
        if q == length:
            break
        q, turns = min(q + draw, length), turns + 1
    if pos:  # the redeal, then a second pass from an empty waste
        q, turns = 0, turns + 1
        while q < length:
            q, turns = min(q + draw, length), turns + 1
            if q not in seen:
                seen.add(q)
                out.append((q, turns))
    return out


def is_won(state: State) -> bool:
    return sum(state.found) == 52


def _place(piles: tuple[bytes, ...], card: int) -> list[int]:
    """The piles ``card`` can go on: every pile whose top it fits, and, for a king, the
    first empty pile only (empty piles are interchangeable)."""
    out = [j for j, pile in enumerate(piles) if pile and fits(card, pile[-1])]
    if RANK[card] == KING:
        out += [j for j, pile in enumerate(piles) if not pile][:1]
    return out


def talon_moves(state: State, draw: int) -> list[Child]:
    """Every reachable waste card to its foundation or a pile, stock turns included."""
    piles, down, talon, _, found = state
    out: list[Child] = []
    for q, turns in reachable(len(talon), state.pos, draw):
        card = talon[q - 1]
        rest = talon[: q - 1] + talon[q:]
        turned = ["s"] * turns
        if goes_home(card, found):
            out.append(Child(20 + turns, [*turned, "wh"], State(piles, down, rest, q - 1, home(found, card))))
        for j in _place(piles, card):
            after = State(_set(piles, j, piles[j] + bytes((card,))), down, rest, q - 1, found)
            out.append(Child(30 + turns, [*turned, f"w{j + 1}"], after))
    return out


def pile_moves(state: State, narrow: bool) -> list[Child]:
    """Pile tops home and runs between piles. A run that turns a face-down card up comes
    first (more hidden cards below, sooner); one that only splits a face-up run comes last,
    and ``narrow`` leaves it out unless the card it uncovers can go home."""
    piles, down, talon, pos, found = state
    out: list[Child] = []
    for i, pile in enumerate(piles):
        if not pile:
            continue
        if goes_home(pile[-1], found):
            after = State(_set(piles, i, pile[:-1]), _uncovered(down, i, len(pile) - 1), talon, pos, found)
            out.append(
                Child(
                    10 if down[i] == len(pile) - 1 else 40,
                    [f"{i + 1}h"],
                    after._replace(found=home(found, pile[-1])),
                )
            )
        for j, k in _run_targets(piles, down, i):
            if narrow and k > down[i] and not goes_home(pile[k - 1], found):
                continue
            moved = State(
                _set(_set(piles, j, piles[j] + pile[k:]), i, pile[:k]),
                _uncovered(down, i, k),
                talon,
                pos,
                found,
            )
            rank = (8 - down[i]) if k == down[i] and k else (50 if k == 0 else 60)
            out.append(Child(rank, [f"{i + 1}{j + 1}"], moved))
    return out


def _run_targets(piles: tuple[bytes, ...], down: tuple[int, ...], i: int) -> list[tuple[int, int]]:
    """``(j, k)``: pile ``i``'s run from index ``k`` fits on pile ``j``. A king already at
    the bottom of its pile is never moved to an empty one (nothing would change). Only the
    top run moves: after an undo in the game the face-up cards need not all build."""
    pile = piles[i]
    start = len(pile) - 1
    while start > down[i] and fits(pile[start], pile[start - 1]):
        start -= 1
    out: list[tuple[int, int]] = []
    empty = -1
    for j, target in enumerate(piles):
        if j == i:
            continue
        if not target:
            empty = j if empty < 0 else empty
            continue
        k = len(pile) - (RANK[target[-1]] - RANK[pile[-1]])
        if start <= k < len(pile) and RED[pile[k]] != RED[target[-1]]:
            out.append((j, k))
    if empty >= 0:
        king = len(pile) - 1 - (KING - RANK[pile[-1]])
        if start <= king and king > 0:
            out.append((empty, king))
    return out


def return_moves(state: State) -> list[Child]:
    """A foundation's top card back to a pile, last of all (rarely needed, but sometimes)."""
    piles, down, talon, pos, found = state
    out: list[Child] = []
    for suit, count in enumerate(found):
        if not count:
            continue
        card = suit * 13 + count - 1
        back = (*found[:suit], count - 1, *found[suit + 1 :])
        if is_safe(card, back):
            continue  # it would go straight home again
        for j in _place(piles, card):
            after = State(_set(piles, j, piles[j] + bytes((card,))), down, talon, pos, back)
            out.append(Child(70, [f"h{SUIT_LETTERS[suit]}{j + 1}"], after))
    return out


def children(state: State, draw: int, narrow: bool = False) -> list[Child]:
    """Every successor, settled, best first; ``narrow``: only those likeliest to lead to a
    win (no split runs that free nothing for home, no cards back from home), a quick first
    look that proves nothing when it fails."""
    out = [*pile_moves(state, narrow), *talon_moves(state, draw)]
    if not narrow:
        out += return_moves(state)
    out = [c._replace(state=settle(c.state, c.moves, draw)) for c in out]
    out.sort(key=lambda c: c.rank)
    return out


def key(state: State, draw: int) -> bytes:
    """The transposition key: the piles as a set (their order changes nothing), each with
    its face-down count, and the talon; the waste size only for draw three (with draw one
    every talon card is reachable from any waste size). Foundations follow from the rest."""
    parts = sorted([MARKS[d] + pile for d, pile in zip(state.down, state.piles, strict=True)])
    return b"".join(parts) + (b"c" if draw == 1 else MARKS[state.pos]) + state.talon


def finish(state: State, draw: int) -> list[str] | None:
    """With no face-down card left, the moves that send everything home greedily (any pile
    top or reachable waste card that goes home), or None when that gets stuck."""
    moves: list[str] = []
    while not is_won(state):
        step = _home_step(state, draw)
        if step is None:
            return None
        moves += step.moves
        state = step.state
    return moves


def _home_step(state: State, draw: int) -> Child | None:
    piles, down, talon, pos, found = state
    for i, pile in enumerate(piles):
        if pile and goes_home(pile[-1], found):
            return Child(
                0, [f"{i + 1}h"], State(_set(piles, i, pile[:-1]), down, talon, pos, home(found, pile[-1]))
            )
    for q, turns in reachable(len(talon), pos, draw):
        card = talon[q - 1]
        if goes_home(card, found):
            after = State(piles, down, talon[: q - 1] + talon[q:], q - 1, home(found, card))
            return Child(0, [*["s"] * turns, "wh"], after)
    return None
