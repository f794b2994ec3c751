"""A Jeu du Boulanger position and its rules: what may move where, and how far.

``Position`` knows nothing of history or score; ``BakersGame`` adds those.
Cards are ints (see ``engine.cards``); a column lists its cards bottom first.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields

from engine.bakers.notation import (
    CELL,
    CELL_LETTERS,
    COLUMN,
    COLUMN_DIGITS,
    FOUNDATION,
    ParsedMove,
    place_name,
)
from engine.cards import SUIT_NAMES, card_label, suit_of
from engine.dealing import shuffled_deck
from engine.errors import IllegalMove

NUM_COLUMNS = 8
EMPTY = -1
_ALL_COLUMNS = tuple(range(NUM_COLUMNS))
_ALL_CELLS = tuple(tuple(range(n)) for n in range(len(CELL_LETTERS) + 1))


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


# A faster constructor for the moves ``Position.moves`` lists (it makes thousands a second):
# the same frozen object, its slots filled directly rather than through the frozen
# dataclass's __init__, which costs about three times as much.
_new = object.__new__
_FIELDS = ("src_kind", "src", "dst_kind", "dst", "cards", "notation", "to_empty")
assert tuple(f.name for f in fields(BakersMove)) == _FIELDS, "update _make_move with BakersMove"
_set_src_kind, _set_src, _set_dst_kind, _set_dst, _set_cards, _set_notation, _set_to_empty = (
    BakersMove.__dict__[name].__set__ for name in _FIELDS
)


def _make_move(
    src_kind: str, src: int, dst_kind: str, dst: int, cards: tuple[int, ...], notation: str, to_empty: bool
) -> BakersMove:
    move = _new(BakersMove)
    _set_src_kind(move, src_kind)
    _set_src(move, src)
    _set_dst_kind(move, dst_kind)
    _set_dst(move, dst)
    _set_cards(move, cards)
    _set_notation(move, notation)
    _set_to_empty(move, to_empty)
    return move


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

    # -- measures ---------------------------------------------------------------
    @property
    def num_cells(self) -> int:
        return len(self.cells)

    def free_cells(self) -> int:
        return self.cells.count(EMPTY)

    def empty_columns(self) -> int:
        return self.cols.count([])

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

    # -- the rule -------------------------------------------------------------------
    def moves(
        self, src: tuple[str, int] | None = None, dst: tuple[str, int] | None = None
    ) -> Iterator[BakersMove]:
        """Every legal move, in listing order, one per canonical notation: the one place the
        rules of play are stated. ``src`` / ``dst`` (kind, index) keep only the moves from
        or to one place (the index is ignored for the foundation).

        A top card goes home when it is the next of its suit; a column's top card goes to a
        free cell; cards go onto a column whose top card is one higher in the same suit
        (never onto an ace), taking as many of the source's ordered run as reach it, at
        most ``capacity(False)``; any 1 .. ``most_to_empty`` of a column's run, or a cell's
        card, go into an empty column.
        """
        cols, cells, found = self.cols, self.cells, self.found
        if dst is None:
            to_home, dst_cols, dst_cells = True, _ALL_COLUMNS, _ALL_CELLS[len(cells)]
        else:
            to_home = dst[0] == FOUNDATION
            dst_cols = (dst[1],) if dst[0] == COLUMN else ()
            dst_cells = (dst[1],) if dst[0] == CELL else ()
        cap_full = cap_empty = 0
        if dst_cols:  # group-move capacity and runs matter only for moves onto columns
            free = cells.count(EMPTY)
            empties = cols.count([])
            cap_full = (free + 1) << empties
            cap_empty = (free + 1) << max(0, empties - 1)
        # (kind, index, name, cards bottom first, ordered run on top: 0 until worked out)
        sources: list[tuple[str, int, str, Sequence[int], int]] = []
        if src is None or src[0] == COLUMN:
            for s in _ALL_COLUMNS if src is None else (src[1],):
                if cols[s]:
                    sources.append((COLUMN, s, COLUMN_DIGITS[s], cols[s], 0))
        if src is None or src[0] == CELL:
            for i in _ALL_CELLS[len(cells)] if src is None else (src[1],):
                if cells[i] != EMPTY:
                    sources.append((CELL, i, CELL_LETTERS[i], (cells[i],), 1))
        move = _make_move
        for kind, s, name, stack, run in sources:
            card = stack[-1]
            suit = card // 13
            if to_home and card % 13 == found[suit]:
                yield move(kind, s, FOUNDATION, suit, (card,), name + "h", False)
            for d in dst_cols:
                if d == s and kind == COLUMN:
                    continue
                dest = cols[d]
                if dest:
                    top = dest[-1]
                    k = top - card  # the source's k-th card from the top is the one that fits
                    if top % 13 and (top - 1) // 13 == suit and 1 <= k <= cap_full:
                        if k > 1 and not run:
                            run = self.run_length(s)
                        if k == 1 or k <= run:
                            yield move(kind, s, COLUMN, d, tuple(stack[-k:]), name + COLUMN_DIGITS[d], False)
                else:
                    if not run:
                        run = self.run_length(s)
                    for k in range(1, min(run, cap_empty) + 1):
                        notation = f"{name}{COLUMN_DIGITS[d]}v{k:x}" if k > 1 else name + COLUMN_DIGITS[d]
                        yield move(kind, s, COLUMN, d, tuple(stack[-k:]), notation, True)
            if kind == COLUMN:
                for i in dst_cells:
                    if cells[i] == EMPTY:
                        yield move(COLUMN, s, CELL, i, (card,), name + CELL_LETTERS[i], False)

    def find(self, p: ParsedMove) -> BakersMove | None:
        """The legal move a parsed notation names here, looked up among ``moves``, or None."""
        want = 1 if p.count is None else p.count
        for move in self.moves((p.src_kind, p.src), (p.dst_kind, p.dst)):
            if move.to_empty:
                if len(move.cards) == want:
                    return move
            elif p.count is None or p.count == len(move.cards):
                return move
            else:
                return None
        return None

    def resolve(self, p: ParsedMove) -> BakersMove:
        """The legal move a parsed notation names here, or ``IllegalMove`` saying why there is none."""
        move = self.find(p)
        if move is None:
            raise self.refusal(p)
        return move

    def refusal(self, p: ParsedMove) -> IllegalMove:
        """Why ``p`` is not a legal move. Only explains: ``moves`` has already found none."""
        if p.src_kind == COLUMN:
            col = self.cols[p.src]
            if not col:
                return IllegalMove(
                    f"column {p.src + 1} is empty", "empty_source", place=place_name(COLUMN, p.src)
                )
            card = col[-1]
        else:
            card = self.cells[p.src]
            if card == EMPTY:
                return IllegalMove(
                    f"free cell {CELL_LETTERS[p.src]} is empty",
                    "empty_source",
                    place=place_name(CELL, p.src),
                )
        if p.dst_kind == FOUNDATION:
            suit = suit_of(card)
            first = card_label(suit * 13 + self.found[suit])
            return IllegalMove(
                f"{card_label(card)} cannot go home yet: the {SUIT_NAMES[suit]} foundation needs {first} first",
                "foundation_order",
                card=card_label(card),
                need=first,
            )
        if p.dst_kind == CELL:
            held = self.cells[p.dst]
            return IllegalMove(
                f"free cell {CELL_LETTERS[p.dst]} already holds {card_label(held)}",
                "cell_full",
                cell=CELL_LETTERS[p.dst],
                card=card_label(held),
            )
        dest = self.cols[p.dst]
        if p.src_kind == CELL:
            return self._no_fit(card, dest[-1])
        run = self.run_length(p.src)
        if dest:
            top = dest[-1]
            need = top - 1
            k = need - card + 1
            if top % 13 == 0 or need // 13 != card // 13 or not 1 <= k <= run:
                if run == 1 or (top % 13 != 0 and need // 13 == card // 13 and need < card):
                    return self._no_fit(card, top)
                return IllegalMove(
                    f"no card at the top of column {p.src + 1} fits on {card_label(top)}"
                    + (f" (it needs {card_label(need)})" if top % 13 else " (nothing goes on an ace)"),
                    "no_fit",
                    column=p.src + 1,
                    target=card_label(top),
                )
            if p.count is not None and p.count != k:
                return IllegalMove(
                    f"onto {card_label(top)} exactly {k} {'card moves' if k == 1 else 'cards move'}, not {p.count}",
                    "bad_count",
                    count=p.count,
                    fits=k,
                )
            to_empty = False
        else:
            k = 1 if p.count is None else p.count
            if k > run:
                return IllegalMove(
                    f"column {p.src + 1} has only {run} ordered {'card' if run == 1 else 'cards'} on top, not {k}",
                    "run_too_short",
                    column=p.src + 1,
                    run=run,
                    count=k,
                )
            to_empty = True
        cap = self.capacity(to_empty)
        empty = self.empty_columns() - to_empty
        free = self.free_cells()
        return IllegalMove(
            f"moving {k} cards needs more room: with {free} free "
            f"{'cell' if free == 1 else 'cells'} and "
            f"{empty} empty {'column' if empty == 1 else 'columns'}"
            f"{' (not counting the one you move into)' if to_empty else ''}, "
            f"at most {cap} {'card' if cap == 1 else 'cards'} can move together",
            "too_many",
            count=k,
            capacity=cap,
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
        return list(self.moves())

    def has_legal_move(self) -> bool:
        return next(self.moves(), None) is not None
