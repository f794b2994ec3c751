"""A Jeu du Boulanger position and its rules: what may move where, and how far.

``Position`` knows nothing of history or score; ``BakersGame`` adds those.
Cards are ints (see ``engine.cards``); a column lists its cards bottom first.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bakers.notation import (
    CELL,
    COLUMN,
    FOUNDATION,
    ParsedMove,
    format_notation,
    place_name,
)
from engine.cards import SUIT_NAMES, card_label, rank_of, suit_of
from engine.dealing import shuffled_deck
from engine.errors import IllegalMove

NUM_COLUMNS = 8
EMPTY = -1


@dataclass(frozen=True, slots=True)
class BakersMove:
    """A resolved, legal move: where from, where to, and which cards (bottom first)."""

    src_kind: str
    src: int
    dst_kind: str
    dst: int
    cards: tuple[int, ...]
    notation: str
    to_empty: bool = False

    @property
    def count(self) -> int:
        return len(self.cards)

    @property
    def points(self) -> int:
        """What the move earns: +10 a card home, +5 a card from a cell to the tableau."""
        if self.dst_kind == FOUNDATION:
            return 10 * len(self.cards)
        if self.src_kind == CELL and self.dst_kind == COLUMN:
            return 5
        return 0

    def describe(self) -> str:
        first = card_label(self.cards[-1])
        if len(self.cards) == 1:
            what = first
        else:
            what = f"{len(self.cards)} cards ({card_label(self.cards[0])}–{first})"
        dest = "home" if self.dst_kind == FOUNDATION else f"to {place_name(self.dst_kind, self.dst)}"
        return f"{what} from {place_name(self.src_kind, self.src)} {dest}"

    def __str__(self) -> str:
        return self.notation


class Position:
    """Columns, free cells and foundations; moves are checked before they change anything."""

    __slots__ = ("cells", "cols", "found")

    def __init__(self, cols: list[list[int]], cells: list[int], found: list[int]) -> None:
        self.cols = cols
        self.cells = cells  # EMPTY where a cell in play holds nothing
        self.found = found  # per suit: how many cards are home (0..13)

    @classmethod
    def deal(cls, deal_number: int, cells: int) -> Position:
        deck = shuffled_deck(deal_number)
        cols: list[list[int]] = [[] for _ in range(NUM_COLUMNS)]
        for k, card in enumerate(deck):
            cols[k % NUM_COLUMNS].append(card)
        return cls(cols, [EMPTY] * cells, [0, 0, 0, 0])

    def copy(self) -> Position:
        return Position([c[:] for c in self.cols], self.cells[:], self.found[:])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.cols == other.cols
            and self.cells == other.cells
            and self.found == other.found
        )

    __hash__ = None  # type: ignore[assignment]

    # -- measures ---------------------------------------------------------------
    @property
    def num_cells(self) -> int:
        return len(self.cells)

    def free_cells(self) -> int:
        return self.cells.count(EMPTY)

    def empty_columns(self) -> int:
        return sum(1 for c in self.cols if not c)

    def capacity(self, to_empty: bool) -> int:
        """Largest group move: (free cells + 1) × 2^(empty columns, destination excluded)."""
        empties = max(0, self.empty_columns() - (1 if to_empty else 0))
        return (self.free_cells() + 1) << empties

    def most_to_empty(self, col: int) -> int:
        """How many cards of a column's top run may move into an empty column at once."""
        return min(self.run_length(col), self.capacity(True))

    def run_length(self, col: int) -> int:
        """How many cards at the top of a column form a same-suit descending run."""
        c = self.cols[col]
        n = len(c)
        if n == 0:
            return 0
        k = 1
        while k < n:
            above, below = c[n - k], c[n - k - 1]
            if below != above + 1 or below % 13 == 0:
                break
            k += 1
        return k

    def cards_home(self) -> int:
        return sum(self.found)

    def is_won(self) -> bool:
        return self.cards_home() == 52

    def all_cards(self) -> list[int]:
        """Every card, foundations included (for checks that nothing is lost)."""
        out = [card for col in self.cols for card in col]
        out += [c for c in self.cells if c != EMPTY]
        out += [s * 13 + r for s in range(4) for r in range(self.found[s])]
        return out

    # -- rules ------------------------------------------------------------------
    def resolve(self, p: ParsedMove) -> BakersMove:
        """Check a parsed move against this position; return it with its cards."""
        if p.src_kind == COLUMN:
            col = self.cols[p.src]
            if not col:
                raise IllegalMove(
                    f"column {p.src + 1} is empty", "empty_source", place=place_name(COLUMN, p.src)
                )
            card = col[-1]
        else:
            card = self.cells[p.src]
            if card == EMPTY:
                raise IllegalMove(
                    f"free cell {'abcd'[p.src]} is empty", "empty_source", place=place_name(CELL, p.src)
                )
        if p.dst_kind == FOUNDATION:
            return self._to_foundation(p, card)
        if p.dst_kind == CELL:
            held = self.cells[p.dst]
            if held != EMPTY:
                raise IllegalMove(
                    f"free cell {'abcd'[p.dst]} already holds {card_label(held)}",
                    "cell_full",
                    cell="abcd"[p.dst],
                    card=card_label(held),
                )
            return BakersMove(
                p.src_kind,
                p.src,
                CELL,
                p.dst,
                (card,),
                format_notation(p.src_kind, p.src, CELL, p.dst, 1, False),
            )
        return self._to_column(p, card)

    def _to_foundation(self, p: ParsedMove, card: int) -> BakersMove:
        suit, rank = suit_of(card), rank_of(card)
        have = self.found[suit]
        if rank != have + 1:
            need = card_label(suit * 13 + have)
            raise IllegalMove(
                f"{card_label(card)} cannot go home yet: the {SUIT_NAMES[suit]} foundation needs {need} first",
                "foundation_order",
                card=card_label(card),
                need=need,
            )
        return BakersMove(
            p.src_kind,
            p.src,
            FOUNDATION,
            suit,
            (card,),
            format_notation(p.src_kind, p.src, FOUNDATION, suit, 1, False),
        )

    def _to_column(self, p: ParsedMove, card: int) -> BakersMove:
        dest = self.cols[p.dst]
        if p.src_kind == CELL:
            if dest and (dest[-1] != card + 1 or dest[-1] % 13 == 0):
                raise self._no_fit(card, dest[-1])
            return BakersMove(
                CELL,
                p.src,
                COLUMN,
                p.dst,
                (card,),
                format_notation(CELL, p.src, COLUMN, p.dst, 1, not dest),
                not dest,
            )
        run = self.run_length(p.src)
        if dest:
            top = dest[-1]
            need = top - 1
            k = need - card + 1
            if top % 13 == 0 or need // 13 != card // 13 or not 1 <= k <= run:
                if run == 1 or (top % 13 != 0 and need // 13 == card // 13 and need < card):
                    raise self._no_fit(card, top)
                raise IllegalMove(
                    f"no card at the top of column {p.src + 1} fits on {card_label(top)}"
                    + (f" (it needs {card_label(need)})" if top % 13 else " (nothing goes on an ace)"),
                    "no_fit",
                    column=p.src + 1,
                    target=card_label(top),
                )
            if p.count is not None and p.count != k:
                raise IllegalMove(
                    f"onto {card_label(top)} exactly {k} {'card moves' if k == 1 else 'cards move'}, not {p.count}",
                    "bad_count",
                    count=p.count,
                    fits=k,
                )
            to_empty = False
        else:
            k = 1 if p.count is None else p.count
            if k > run:
                raise IllegalMove(
                    f"column {p.src + 1} has only {run} ordered {'card' if run == 1 else 'cards'} on top, not {k}",
                    "run_too_short",
                    column=p.src + 1,
                    run=run,
                    count=k,
                )
            to_empty = True
        cap = self.capacity(to_empty)
        if k > cap:
            raise IllegalMove(
                f"moving {k} cards needs more room: with {self.free_cells()} free "
                f"{'cell' if self.free_cells() == 1 else 'cells'} and "
                f"{self.empty_columns() - to_empty} empty "
                f"{'column' if self.empty_columns() - to_empty == 1 else 'columns'}"
                f"{' (not counting the one you move into)' if to_empty else ''}, "
                f"at most {cap} {'card' if cap == 1 else 'cards'} can move together",
                "too_many",
                count=k,
                capacity=cap,
            )
        cards = tuple(self.cols[p.src][-k:])
        return BakersMove(
            COLUMN,
            p.src,
            COLUMN,
            p.dst,
            cards,
            format_notation(COLUMN, p.src, COLUMN, p.dst, k, to_empty),
            to_empty,
        )

    @staticmethod
    def _no_fit(card: int, top: int) -> IllegalMove:
        if top % 13 == 0:
            return IllegalMove(
                f"{card_label(card)} cannot go on {card_label(top)}: nothing goes on an ace",
                "no_fit",
                card=card_label(card),
                target=card_label(top),
            )
        return IllegalMove(
            f"{card_label(card)} cannot go on {card_label(top)}: a card goes on the next higher "
            f"card of the same suit ({card_label(card + 1) if card % 13 != 12 else 'none for a king'})",
            "no_fit",
            card=card_label(card),
            target=card_label(top),
        )

    # -- changing ---------------------------------------------------------------
    def apply(self, m: BakersMove) -> None:
        n = len(m.cards)
        if m.src_kind == COLUMN:
            del self.cols[m.src][-n:]
        else:
            self.cells[m.src] = EMPTY
        if m.dst_kind == COLUMN:
            self.cols[m.dst].extend(m.cards)
        elif m.dst_kind == CELL:
            self.cells[m.dst] = m.cards[0]
        else:
            self.found[m.dst] += 1

    def revert(self, m: BakersMove) -> None:
        n = len(m.cards)
        if m.dst_kind == COLUMN:
            del self.cols[m.dst][-n:]
        elif m.dst_kind == CELL:
            self.cells[m.dst] = EMPTY
        else:
            self.found[m.dst] -= 1
        if m.src_kind == COLUMN:
            self.cols[m.src].extend(m.cards)
        else:
            self.cells[m.src] = m.cards[0]

    # -- listing ----------------------------------------------------------------
    def legal_moves(self) -> list[BakersMove]:
        """Every legal move, one per distinct notation."""
        out: list[BakersMove] = []
        free_idx = [i for i, c in enumerate(self.cells) if c == EMPTY]
        cap_full = self.capacity(False)
        cap_empty = self.capacity(True)
        cols = self.cols
        for s, col in enumerate(cols):
            if not col:
                continue
            card = col[-1]
            if rank_of(card) == self.found[card // 13] + 1:
                out.append(BakersMove(COLUMN, s, FOUNDATION, card // 13, (card,), f"{s + 1}h"))
            run = self.run_length(s)
            for d, dest in enumerate(cols):
                if d == s:
                    continue
                if dest:
                    top = dest[-1]
                    k = top - card
                    if top % 13 and (top - 1) // 13 == card // 13 and 1 <= k <= min(run, cap_full):
                        out.append(BakersMove(COLUMN, s, COLUMN, d, tuple(col[-k:]), f"{s + 1}{d + 1}"))
                else:
                    for k in range(1, min(run, cap_empty) + 1):
                        out.append(
                            BakersMove(
                                COLUMN,
                                s,
                                COLUMN,
                                d,
                                tuple(col[-k:]),
                                format_notation(COLUMN, s, COLUMN, d, k, True),
                                True,
                            )
                        )
            for i in free_idx:
                out.append(BakersMove(COLUMN, s, CELL, i, (card,), f"{s + 1}{'abcd'[i]}"))
        for i, card in enumerate(self.cells):
            if card == EMPTY:
                continue
            letter = "abcd"[i]
            if rank_of(card) == self.found[card // 13] + 1:
                out.append(BakersMove(CELL, i, FOUNDATION, card // 13, (card,), f"{letter}h"))
            for d, dest in enumerate(cols):
                if not dest or (dest[-1] == card + 1 and dest[-1] % 13):
                    out.append(BakersMove(CELL, i, COLUMN, d, (card,), f"{letter}{d + 1}", not dest))
        return out

    def has_legal_move(self) -> bool:
        if any(c == EMPTY for c in self.cells) and any(self.cols):
            return True
        return bool(self.legal_moves())
