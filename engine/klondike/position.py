"""A Klondike position: seven piles, the stock, the waste and the foundations, with the move rule.

``Position`` knows nothing of history, score or undo policy (``KlondikeGame`` adds those). It
holds every card, face down or not, so it must never be shown as it is: the game's text forms
and views (``engine.klondike.state``) say what a player may see.

A pile is a list bottom first, its ``down`` bottom cards face down. The face-up cards above
them are usually one run (each card one rank below the one under it, in the other colour),
but not always: undo leaves a card it uncovered face up, and the run comes back on top of it.
What moves from a pile is always part of its *top run*, the longest run at its top
(``rules.run_start``); a face-up card under a break moves once what covers it has gone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.cards import SUIT_SYMBOLS, card_label, rank_of, suit_of
from engine.klondike.notation import HOME, PILE, STOCK, WASTE, ParsedMove, format_notation, place_name
from engine.klondike.rules import (
    FOUNDATION_TO_PILE,
    FULL,
    KING,
    NUM_PILES,
    TO_FOUNDATION,
    TURN_UP,
    WASTE_TO_PILE,
    builds_on,
    deal_layout,
    recycle_points,
    run_start,
)

Place = tuple[str, int]  # (STOCK | WASTE | PILE | HOME, index)


@dataclass(frozen=True, slots=True)
class KlondikeMove:
    """A resolved, legal move and what playing it does.

    ``cards``: the cards moved, bottom first (a turn of the stock: the cards turned, in the
    order turned; turning the waste over: none). ``turns_up``: it uncovers a pile's face-down
    card, which turns up. ``points``: its score, the turn-up's included. ``fresh``: the cards a
    turn of the stock shows for the first time.
    """

    src_kind: str
    src: int  # a pile; from a foundation, its suit
    dst_kind: str
    dst: int  # a pile; to a foundation, its suit
    cards: tuple[int, ...]
    notation: str
    turns_up: bool = False
    points: int = 0
    fresh: tuple[int, ...] = ()

    @property
    def is_recycle(self) -> bool:
        """Turning the waste back over as the stock (``s`` with the stock empty)."""
        return self.dst_kind == STOCK

    def describe(self) -> str:
        if self.src_kind == STOCK:  # words said before the move is played: never its cards
            return (
                "turn a card from the stock"
                if len(self.cards) == 1
                else f"turn {len(self.cards)} cards from the stock"
            )
        if self.is_recycle:
            return "turn the waste back over as the stock"
        moved = card_label(self.cards[0])
        if len(self.cards) > 1:
            moved = f"{moved}…{card_label(self.cards[-1])} ({len(self.cards)} cards)"
        src = (
            f"the {SUIT_SYMBOLS[self.src]} foundation"
            if self.src_kind == HOME
            else place_name(self.src_kind, self.src)
        )
        text = f"{moved} from {src} to {place_name(self.dst_kind, self.dst)}"
        return text + (", turning up a card" if self.turns_up else "")

    def __str__(self) -> str:
        return self.notation


class Position:
    """Piles (bottom first) with their face-down counts, the stock (next to turn first), the
    waste (bottom first), cards home per suit, the draw, and the waste's turns so far.

    ``seen`` holds every card ever turned from the stock: a player knows those, and where they
    are, even once the waste is turned over again (the order never changes).
    """

    __slots__ = ("down", "draw", "found", "piles", "recycles", "seen", "stock", "waste")

    def __init__(
        self,
        piles: list[list[int]],
        down: list[int],
        stock: list[int],
        waste: list[int],
        found: list[int],
        draw: int,
        recycles: int = 0,
        seen: set[int] | None = None,
    ) -> None:
        self.piles = piles
        self.down = down
        self.stock = stock
        self.waste = waste
        self.found = found
        self.draw = draw
        self.recycles = recycles
        self.seen = set() if seen is None else seen

    @classmethod
    def deal(cls, deal_number: int, draw: int) -> Position:
        piles, stock = deal_layout(deal_number)
        return cls([list(p) for p in piles], [len(p) - 1 for p in piles], list(stock), [], [0] * 4, draw)

    def copy(self) -> Position:
        return Position(
            [p[:] for p in self.piles],
            self.down[:],
            self.stock[:],
            self.waste[:],
            self.found[:],
            self.draw,
            self.recycles,
            set(self.seen),
        )

    # -- what the rules ask -------------------------------------------------------------
    def top(self, p: int) -> int | None:
        pile = self.piles[p]
        return pile[-1] if pile else None

    def needs(self, suit: int) -> int | None:
        """The rank the suit's foundation takes next, or None once it ends on K."""
        home = self.found[suit]
        return None if home == FULL else home + 1

    def goes_home(self, card: int) -> bool:
        return self.found[suit_of(card)] + 1 == rank_of(card)

    def cards_home(self) -> int:
        return sum(self.found)

    def is_won(self) -> bool:
        return sum(self.found) == 52

    def face_down(self) -> int:
        """Pile cards still face down."""
        return sum(self.down)

    # -- the rule --------------------------------------------------------------------------
    def moves(self, src: Place | None = None, dst: Place | None = None) -> Iterator[KlondikeMove]:
        """Every legal move, in listing order: the one place the rules of play are stated. From
        the waste, each pile, each foundation, then the stock; ``src`` / ``dst`` (kind, index)
        keep only the moves from or to one place (a foundation as destination: any)."""
        if src is None or src[0] == WASTE:
            yield from self._from_waste(dst)
        for p in range(NUM_PILES) if src is None else (src[1],) if src[0] == PILE else ():
            yield from self._from_pile(p, dst)
        if dst is None or dst[0] == PILE:
            for suit in range(4) if src is None else (src[1],) if src[0] == HOME else ():
                yield from self._from_foundation(suit, dst)
        if (src is None or src[0] == STOCK) and (dst is None or dst[0] in (WASTE, STOCK)):
            turn = self.stock_move()
            if turn is not None:
                yield turn

    def _targets(self, dst: Place | None) -> range | tuple[int, ...]:
        if dst is None:
            return range(NUM_PILES)
        return (dst[1],) if dst[0] == PILE else ()

    def _from_waste(self, dst: Place | None) -> Iterator[KlondikeMove]:
        if not self.waste:
            return
        card = self.waste[-1]
        if (dst is None or dst[0] == HOME) and self.goes_home(card):
            yield self._move(WASTE, 0, HOME, suit_of(card), (card,))
        for d in self._targets(dst):
            if self._lands(card, d):
                yield self._move(WASTE, 0, PILE, d, (card,))

    def _from_pile(self, p: int, dst: Place | None) -> Iterator[KlondikeMove]:
        pile = self.piles[p]
        if not pile:
            return
        if (dst is None or dst[0] == HOME) and self.goes_home(pile[-1]):
            yield self._move(PILE, p, HOME, suit_of(pile[-1]), (pile[-1],))
        start = run_start(pile, self.down[p])
        for d in self._targets(dst):
            k = self._fitting(p, start, d)
            if k is not None:
                yield self._move(PILE, p, PILE, d, tuple(pile[k:]))

    def _fitting(self, p: int, start: int, d: int) -> int | None:
        """Where the part of pile ``p``'s top run (from ``start``) that fits on pile ``d`` begins:
        at most one card of a run fits a given pile. A king already at the bottom of its pile
        does not move to an empty pile: nothing would change but which pile it is."""
        if d == p:
            return None
        pile, target = self.piles[p], self.top(d)
        for k in range(start, len(pile)):
            card = pile[k]
            if target is None and rank_of(card) == KING:
                return k if k > 0 else None
            if target is not None and builds_on(card, target):
                return k
        return None

    def _from_foundation(self, suit: int, dst: Place | None) -> Iterator[KlondikeMove]:
        home = self.found[suit]
        if home == 0:
            return
        card = suit * 13 + home - 1
        for d in self._targets(dst):
            if self._lands(card, d):
                yield self._move(HOME, suit, PILE, d, (card,))

    def _lands(self, card: int, d: int) -> bool:
        """Whether a single card (from the waste or a foundation) may go onto pile ``d``."""
        target = self.top(d)
        return rank_of(card) == KING if target is None else builds_on(card, target)

    def stock_move(self) -> KlondikeMove | None:
        """``s``: turn the stock, or with it empty turn the waste over; None with both empty."""
        if self.stock:
            cards = tuple(self.stock[: self.draw])
            fresh = tuple(c for c in cards if c not in self.seen)
            return KlondikeMove(STOCK, 0, WASTE, 0, cards, STOCK, fresh=fresh)
        if self.waste:
            return KlondikeMove(
                WASTE, 0, STOCK, 0, (), STOCK, points=recycle_points(self.draw, self.recycles)
            )
        return None

    def _move(self, src_kind: str, src: int, dst_kind: str, dst: int, cards: tuple[int, ...]) -> KlondikeMove:
        turns_up = (
            src_kind == PILE and self.down[src] > 0 and len(self.piles[src]) - len(cards) == self.down[src]
        )
        points = TURN_UP if turns_up else 0
        if dst_kind == HOME:
            points += TO_FOUNDATION
        elif src_kind == WASTE:
            points += WASTE_TO_PILE
        elif src_kind == HOME:
            points += FOUNDATION_TO_PILE
        notation = format_notation(src_kind, src, dst_kind, dst)
        return KlondikeMove(src_kind, src, dst_kind, dst, cards, notation, turns_up, points)

    def find(self, parsed: ParsedMove) -> KlondikeMove | None:
        """The legal move ``parsed`` names here, looked up among ``moves``, or None."""
        if parsed.src_kind == STOCK:
            return self.stock_move()
        dst = None if parsed.dst_kind == HOME else (parsed.dst_kind, parsed.dst)
        return next(
            (m for m in self.moves((parsed.src_kind, parsed.src), dst) if m.dst_kind == parsed.dst_kind), None
        )

    # -- playing ---------------------------------------------------------------------------
    def apply(self, move: KlondikeMove) -> None:
        if move.src_kind == STOCK:
            del self.stock[: len(move.cards)]
            self.waste.extend(move.cards)
            self.seen.update(move.cards)
            return
        if move.is_recycle:
            self.stock, self.waste = self.waste, []
            self.recycles += 1
            return
        self._take(move)
        if move.dst_kind == HOME:
            self.found[move.dst] += 1
        else:
            self.piles[move.dst].extend(move.cards)

    def _take(self, move: KlondikeMove) -> None:
        if move.src_kind == WASTE:
            self.waste.pop()
        elif move.src_kind == HOME:
            self.found[move.src] -= 1
        else:
            del self.piles[move.src][-len(move.cards) :]
            if move.turns_up:
                self.down[move.src] -= 1

    def revert(self, move: KlondikeMove, *, rehide: bool = False) -> None:
        """Take back ``move``, the last one applied. A card it turned up stays face up, and the
        cards it turned from the stock stay seen, unless ``rehide`` (a batch that never happened)."""
        if move.src_kind == STOCK:
            del self.waste[-len(move.cards) :]
            self.stock[:0] = move.cards
            if rehide:
                self.seen.difference_update(move.fresh)
            return
        if move.is_recycle:
            self.waste, self.stock = self.stock, []
            self.recycles -= 1
            return
        if move.dst_kind == HOME:
            self.found[move.dst] -= 1
        else:
            del self.piles[move.dst][-len(move.cards) :]
        if move.src_kind == WASTE:
            self.waste.append(move.cards[0])
        elif move.src_kind == HOME:
            self.found[move.src] += 1
        else:
            self.piles[move.src].extend(move.cards)
            if move.turns_up and rehide:
                self.down[move.src] += 1
