"""A Klondike position in plain numbers, for searches and hint players (``KlondikeState``).

Two views of one position:

* the whole truth (``full_state``): every card where it is, face down or not, what a solver
  proving a deal ("thoughtful" Klondike) may read;
* what the player knows (``seen_state``): the same with each card the player has never seen
  replaced by ``UNKNOWN`` (-1) -- the face-down pile cards, and the stock's cards never turned
  yet -- and those cards listed in ``unseen``, so a fair hint player can deal them out at
  random (``Position.from_state`` takes a state whose unknowns were so filled). A stock card
  once turned is known for good, and so is where it lies: the stock's order never changes, the
  waste turned over is the stock again in the same order.

Cards are the project's 0..51 (suit-major ♠ ♥ ♦ ♣, index = suit * 13 + rank - 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.klondike.position import Position
from engine.klondike.rules import FULL, NUM_PILES

UNKNOWN = -1


@dataclass(frozen=True, slots=True)
class KlondikeState:
    """Everything a search needs.

    ``piles``: the 7 piles, bottom card first (the last is the top, the one that plays);
    ``face_down``: for each pile, how many of its bottom cards are face down; ``stock``: the
    next card to turn first; ``waste``: bottom first (the last plays); ``foundations``: cards
    home per suit ♠ ♥ ♦ ♣ (a foundation holding 3 has A, 2, 3: its top card is
    ``suit * 13 + 2``); ``draw``: 1 or 3 cards a turn; ``recycles``: how often the waste has
    been turned over (scoring only). ``unseen``: in a seen view, the cards behind the
    ``UNKNOWN`` entries, sorted; () in the full view.
    """

    piles: tuple[tuple[int, ...], ...]
    face_down: tuple[int, ...]
    stock: tuple[int, ...]
    waste: tuple[int, ...]
    foundations: tuple[int, int, int, int]
    draw: int
    recycles: int = 0
    unseen: tuple[int, ...] = ()

    @property
    def known(self) -> bool:
        """Whether every card is given (no ``UNKNOWN``): a state a position can be built from."""
        return UNKNOWN not in self.stock and all(UNKNOWN not in p for p in self.piles)


def full_state(pos: Position) -> KlondikeState:
    """Every card of ``pos`` where it lies."""
    f = pos.found
    return KlondikeState(
        tuple(tuple(p) for p in pos.piles),
        tuple(pos.down),
        tuple(pos.stock),
        tuple(pos.waste),
        (f[0], f[1], f[2], f[3]),
        pos.draw,
        pos.recycles,
    )


def seen_state(pos: Position) -> KlondikeState:
    """``pos`` as its player knows it: the cards never seen are ``UNKNOWN``, listed in ``unseen``."""
    full = full_state(pos)
    piles = tuple(
        tuple(UNKNOWN if i < down else c for i, c in enumerate(p))
        for p, down in zip(full.piles, full.face_down, strict=True)
    )
    stock = tuple(c if c in pos.seen else UNKNOWN for c in full.stock)
    hidden = [c for p, down in zip(full.piles, full.face_down, strict=True) for c in p[:down]]
    hidden += [c for c in full.stock if c not in pos.seen]
    return KlondikeState(
        piles,
        full.face_down,
        stock,
        full.waste,
        full.foundations,
        full.draw,
        full.recycles,
        tuple(sorted(hidden)),
    )


def position_of(state: KlondikeState) -> Position:
    """A position to play from a state with every card given (a full view, or a seen view
    whose unknowns a hint player filled in); ``ValueError`` if it is not a deck's 52 cards in
    a Klondike layout. Every card not face down in a pile counts as seen: a hint player's
    sample is all the truth it plays on."""
    if not state.known:
        raise ValueError("the state has unknown cards: fill them in first")
    if len(state.piles) != NUM_PILES or len(state.face_down) != NUM_PILES or state.draw not in (1, 3):
        raise ValueError("a Klondike state has 7 piles and draws 1 or 3")
    home = [c for suit, n in enumerate(state.foundations) for c in range(suit * 13, suit * 13 + n)]
    cards = [*home, *state.stock, *state.waste, *(c for p in state.piles for c in p)]
    if sorted(cards) != list(range(52)) or any(not 0 <= n <= FULL for n in state.foundations):
        raise ValueError("a Klondike state holds each of the 52 cards once")
    if any(not 0 <= d <= max(len(p) - 1, 0) for p, d in zip(state.piles, state.face_down, strict=True)):
        raise ValueError("a pile's top card is face up: face_down is below its length")
    seen = set(range(52)) - {c for p, d in zip(state.piles, state.face_down, strict=True) for c in p[:d]}
    return Position(
        [list(p) for p in state.piles],
        list(state.face_down),
        list(state.stock),
        list(state.waste),
        list(state.foundations),
        state.draw,
        state.recycles,
        seen,
    )
