"""A Calculation position: foundations, waste piles and the stock, with its move rules.

``Position`` knows nothing of history or undo policy; ``CalculationGame`` adds
those. It does know the stock order (it must, to turn cards) but never shows it:
only ``turned`` and ``stock_count`` are meant for players.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.calculation.notation import FOUNDATION, TURNED, WASTE, ParsedMove, format_notation, place_name
from engine.calculation.rules import FULL, NUM_FOUNDATIONS, NUM_WASTE, SEQUENCES, deal_cards
from engine.cards import card_label, rank_of, rank_text
from engine.errors import IllegalMove


@dataclass(frozen=True, slots=True)
class CalculationMove:
    """A resolved, legal move; ``turned_next`` says whether playing it turned a new card."""

    src_kind: str  # "s" (turned card) or "w"
    src: int
    dst_kind: str  # "w" or "f"
    dst: int
    card: int
    notation: str
    turned_next: bool = False

    def describe(self) -> str:
        dest = place_name(self.dst_kind, self.dst)
        if self.dst_kind == FOUNDATION:
            dest += f" (+{self.dst + 1})"
        return f"{card_label(self.card)} from {place_name(self.src_kind, self.src)} to {dest}"

    def __str__(self) -> str:
        return self.notation


class Position:
    """Foundations and waste piles (cards bottom first), the stock and how far it is turned."""

    __slots__ = ("foundations", "stock", "turn", "waste")

    def __init__(
        self, foundations: list[list[int]], waste: list[list[int]], stock: tuple[int, ...], turn: int
    ) -> None:
        self.foundations = foundations
        self.waste = waste
        self.stock = stock
        self.turn = turn  # index in ``stock`` of the turned card; len(stock) once exhausted

    def copy(self) -> Position:
        return Position([f[:] for f in self.foundations], [w[:] for w in self.waste], self.stock, self.turn)

    @classmethod
    def deal(cls, deal_number: int) -> Position:
        starters, stock = deal_cards(deal_number)
        return cls([[c] for c in starters], [[] for _ in range(NUM_WASTE)], stock, 0)

    # -- what players see ---------------------------------------------------------
    @property
    def turned(self) -> int | None:
        return self.stock[self.turn] if self.turn < len(self.stock) else None

    @property
    def stock_count(self) -> int:
        """Cards still face down (the turned card not included)."""
        return max(0, len(self.stock) - self.turn - 1)

    def needs(self, i: int) -> int | None:
        """The rank foundation ``i`` (0-based) takes next, or None once it ends on K."""
        pile = self.foundations[i]
        return None if len(pile) == FULL else SEQUENCES[i][len(pile)]

    def fits(self, card: int, i: int) -> bool:
        return self.needs(i) == rank_of(card)

    def score(self) -> int:
        return sum(len(f) for f in self.foundations)

    def is_won(self) -> bool:
        return self.score() == 52

    # -- the rule ---------------------------------------------------------------------
    def moves(
        self, src: tuple[str, int] | None = None, dst: tuple[str, int] | None = None
    ) -> Iterator[CalculationMove]:
        """Every legal move, in listing order: the one place the rules of play are stated.
        The turned card goes to a foundation it fits or onto any waste pile; a waste pile's
        top card goes to a foundation it fits. ``src`` / ``dst`` (kind, index) keep only the
        moves from or to one place."""
        sources: list[tuple[str, int, int]] = []
        turned = self.turned
        if turned is not None and (src is None or src[0] == TURNED):
            sources.append((TURNED, 0, turned))
        for j in range(NUM_WASTE) if src is None else (src[1],) if src[0] == WASTE else ():
            pile = self.waste[j]
            if pile:
                sources.append((WASTE, j, pile[-1]))
        to_foundations = range(NUM_FOUNDATIONS) if dst is None else (dst[1],) if dst[0] == FOUNDATION else ()
        to_waste = range(NUM_WASTE) if dst is None else (dst[1],) if dst[0] == WASTE else ()
        for kind, s, card in sources:
            for i in to_foundations:
                if self.fits(card, i):
                    yield self._move(kind, s, FOUNDATION, i, card)
            if kind == TURNED:
                for j in to_waste:
                    yield self._move(TURNED, 0, WASTE, j, card)

    def legal_moves(self) -> list[CalculationMove]:
        return list(self.moves())

    def has_legal_move(self) -> bool:
        return next(self.moves(), None) is not None

    def has_foundation_move(self) -> bool:
        return any(m.dst_kind == FOUNDATION for m in self.moves())

    def _move(self, src_kind: str, src: int, dst_kind: str, dst: int, card: int) -> CalculationMove:
        turned_next = src_kind == TURNED and self.turn + 1 < len(self.stock)
        return CalculationMove(
            src_kind, src, dst_kind, dst, card, format_notation(src_kind, src, dst_kind, dst), turned_next
        )

    def find(self, parsed: ParsedMove) -> CalculationMove | None:
        """The legal move ``parsed`` names here, looked up among ``moves``, or None."""
        return next(self.moves((parsed.src_kind, parsed.src), (parsed.dst_kind, parsed.dst)), None)

    def resolve(self, parsed: ParsedMove) -> CalculationMove:
        """The legal move ``parsed`` names here, or ``IllegalMove`` saying why there is none."""
        move = self.find(parsed)
        if move is None:
            raise self.refusal(parsed)
        return move

    def refusal(self, parsed: ParsedMove) -> IllegalMove:
        """Why ``parsed`` is not a legal move. Only explains: ``moves`` has already found none."""
        if parsed.src_kind == TURNED:
            card = self.turned
            if card is None:
                return IllegalMove("the stock is used up: there is no turned card", "stock_empty")
        else:
            pile = self.waste[parsed.src]
            if not pile:
                return IllegalMove(f"waste pile {parsed.src + 1} is empty", "empty_pile", pile=parsed.src + 1)
            card = pile[-1]
        i = parsed.dst
        needed = self.needs(i)
        if needed is None:
            return IllegalMove(
                f"foundation {i + 1} is complete (it ends on K)", "foundation_complete", foundation=i + 1
            )
        return IllegalMove(
            f"{card_label(card)} does not fit foundation {i + 1}: it needs a {rank_text(needed, ten='10')}",
            "no_fit",
            card=card_label(card),
            foundation=i + 1,
            needs=needed,
        )

    def apply(self, move: CalculationMove) -> None:
        if move.src_kind == TURNED:
            self.turn += 1
        else:
            self.waste[move.src].pop()
        target = self.foundations if move.dst_kind == FOUNDATION else self.waste
        target[move.dst].append(move.card)

    def revert(self, move: CalculationMove) -> None:
        target = self.foundations if move.dst_kind == FOUNDATION else self.waste
        target[move.dst].pop()
        if move.src_kind == TURNED:
            self.turn -= 1
        else:
            self.waste[move.src].append(move.card)
