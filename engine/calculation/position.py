"""A Calculation position: foundations, waste piles and the stock, with its move rules.

``Position`` knows nothing of history or undo policy; ``CalculationGame`` adds
those. It does know the stock order (it must, to turn cards) but never shows it:
only ``turned`` and ``stock_count`` are meant for players.
"""

from __future__ import annotations

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

    # -- moves ----------------------------------------------------------------------
    def legal_moves(self) -> list[CalculationMove]:
        moves = []
        turned = self.turned
        if turned is not None:
            for i in range(NUM_FOUNDATIONS):
                if self.fits(turned, i):
                    moves.append(self._move(TURNED, 0, FOUNDATION, i, turned))
            for j in range(NUM_WASTE):
                moves.append(self._move(TURNED, 0, WASTE, j, turned))
        for j, pile in enumerate(self.waste):
            if pile:
                for i in range(NUM_FOUNDATIONS):
                    if self.fits(pile[-1], i):
                        moves.append(self._move(WASTE, j, FOUNDATION, i, pile[-1]))
        return moves

    def has_foundation_move(self) -> bool:
        tops = [p[-1] for p in self.waste if p]
        if self.turned is not None:
            tops.append(self.turned)
        return any(self.fits(c, i) for c in tops for i in range(NUM_FOUNDATIONS))

    def _move(self, src_kind: str, src: int, dst_kind: str, dst: int, card: int) -> CalculationMove:
        turned_next = src_kind == TURNED and self.turn + 1 < len(self.stock)
        return CalculationMove(
            src_kind, src, dst_kind, dst, card, format_notation(src_kind, src, dst_kind, dst), turned_next
        )

    def resolve(self, parsed: ParsedMove) -> CalculationMove:
        """The legal move ``parsed`` names here, or ``IllegalMove`` saying why not."""
        if parsed.src_kind == TURNED:
            card = self.turned
            if card is None:
                raise IllegalMove("the stock is used up: there is no turned card", "stock_empty")
        else:
            pile = self.waste[parsed.src]
            if not pile:
                raise IllegalMove(f"waste pile {parsed.src + 1} is empty", "empty_pile", pile=parsed.src + 1)
            card = pile[-1]
        if parsed.dst_kind == FOUNDATION:
            self._check_fit(card, parsed.dst)
        return self._move(parsed.src_kind, parsed.src, parsed.dst_kind, parsed.dst, card)

    def _check_fit(self, card: int, i: int) -> None:
        needed = self.needs(i)
        if needed is None:
            raise IllegalMove(
                f"foundation {i + 1} is complete (it ends on K)", "foundation_complete", foundation=i + 1
            )
        if rank_of(card) != needed:
            raise IllegalMove(
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
