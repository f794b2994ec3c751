"""The FreeCell-family position and its rules: what may move where, and how far.

Jeu du Boulanger and FreeCell share everything here (eight columns, free cells,
foundations, group-move capacity, notation, refusals) but the build rule: a
card goes on the next higher card of the same suit (Baker's) or of the opposite
colour (FreeCell). A subclass states that rule once, as its ``FIT`` table
(``fit_table``), and words its refusal (``_rule_words``, ``_need_words``).

``TableauPosition`` knows nothing of history or score; the games add those.
Cards are ints (see ``engine.cards``); a column lists its cards bottom first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import ClassVar, Self

from engine.cards import SUIT_NAMES, card_label, suit_of
from engine.errors import IllegalMove
from engine.tableau.notation import (
    CELL,
    CELL_LETTERS,
    COLUMN,
    COLUMN_DIGITS,
    FOUNDATION,
    ParsedMove,
    place_name,
)

NUM_COLUMNS = 8
EMPTY = -1
_ALL_COLUMNS = tuple(range(NUM_COLUMNS))
_ALL_CELLS = tuple(tuple(range(n)) for n in range(len(CELL_LETTERS) + 1))

FitTable = tuple[tuple[int, ...], ...]


def fit_table(sits_on: Callable[[int, int], bool]) -> FitTable:
    """``FIT[top][card]``: how deep in a source's ordered run, counting ``card`` (its top) as 1,
    lies the card that goes on ``top``; 0 when none of that run could. ``sits_on(a, b)``
    is the build rule: whether card ``a`` may go on card ``b`` in a column.

    The run above a fitting card is ordered by the same rule, so the card ``k`` deep has
    rank ``rank(card) + k - 1``; the table tries each depth against the rule with the
    ranks a run could hold, once, so listing moves costs one lookup per pair of tops."""
    # The card a run could have under each card, standing in for every such card: the rule
    # only looks at rank and suit or colour, so any one of them answers for the depth.
    below = [next((b for b in range(52) if sits_on(card, b)), None) for card in range(52)]
    table = []
    for top in range(52):
        row = []
        for card in range(52):
            depth = 0
            chain: int | None = card  # walk down an imagined ordered run from ``card``
            k = 1
            while chain is not None:
                if sits_on(chain, top):
                    depth = k
                    break
                chain, k = below[chain], k + 1
            row.append(depth)
        table.append(tuple(row))
    return tuple(table)


@dataclass(frozen=True, slots=True)
class TableauMove:
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
assert tuple(f.name for f in fields(TableauMove)) == _FIELDS, "update _make_move with TableauMove"
_set_src_kind, _set_src, _set_dst_kind, _set_dst, _set_cards, _set_notation, _set_to_empty = (
    TableauMove.__dict__[name].__set__ for name in _FIELDS
)


def _make_move(
    src_kind: str, src: int, dst_kind: str, dst: int, cards: tuple[int, ...], notation: str, to_empty: bool
) -> TableauMove:
    move = _new(TableauMove)
    _set_src_kind(move, src_kind)
    _set_src(move, src)
    _set_dst_kind(move, dst_kind)
    _set_dst(move, dst)
    _set_cards(move, cards)
    _set_notation(move, notation)
    _set_to_empty(move, to_empty)
    return move


class TableauPosition:
    """Columns, free cells and foundations; moves are checked before they change anything.

    Subclasses set ``FIT`` (``fit_table`` of their build rule) and ``GAME_TITLE``."""

    __slots__ = ("cells", "cols", "found")
    FIT: ClassVar[FitTable]
    GAME_TITLE: ClassVar[str]

    def __init__(self, cols: list[list[int]], cells: list[int], found: list[int]) -> None:
        self.cols = cols
        self.cells = cells  # EMPTY where a cell in play holds nothing
        self.found = found  # per suit: how many cards are home (0..13)

    @classmethod
    def from_deck(cls, deck: Sequence[int], cells: int) -> Self:
        """Card k of the dealt order onto column (k mod 8), each new card covering the last."""
        cols: list[list[int]] = [[] for _ in range(NUM_COLUMNS)]
        for k, card in enumerate(deck):
            cols[k % NUM_COLUMNS].append(card)
        return cls(cols, [EMPTY] * cells, [0, 0, 0, 0])

    def copy(self) -> Self:
        return self.__class__([c[:] for c in self.cols], self.cells[:], self.found[:])

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, TableauPosition)
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
        """How many cards at the top of a column form a run ordered by the build rule."""
        c = self.cols[col]
        n = len(c)
        if n == 0:
            return 0
        fit = self.FIT
        k = 1
        while k < n:
            if fit[c[n - k - 1]][c[n - k]] != 1:  # the card above does not sit on the one below
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
    ) -> Iterator[TableauMove]:
        """Every legal move, in listing order, one per canonical notation: the one place the
        rules of play are stated. ``src`` / ``dst`` (kind, index) keep only the moves from
        or to one place (the index is ignored for the foundation).

        A top card goes home when it is the next of its suit; a column's top card goes to a
        free cell; cards go onto a column whose top card takes them by the build rule
        (``FIT``: never onto an ace), taking as many of the source's ordered run as reach it, at
        most ``capacity(False)``; any 1 .. ``most_to_empty`` of a column's run, or a cell's
        card, go into an empty column.
        """
        cols, cells, found = self.cols, self.cells, self.found
        fit = self.FIT
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
                    k = fit[dest[-1]][card]  # the source's k-th card from the top is the one that fits
                    if k and k <= cap_full:
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

    def find(self, p: ParsedMove) -> TableauMove | None:
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

    def resolve(self, p: ParsedMove) -> TableauMove:
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
            k = self.FIT[top][card]
            if not 1 <= k <= run:
                if run == 1 or self._beyond(card, top):
                    return self._no_fit(card, top)
                return IllegalMove(
                    f"no card at the top of column {p.src + 1} fits on {card_label(top)}"
                    + (f" (it needs {self._need_words(top)})" if top % 13 else " (nothing goes on an ace)"),
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

    # -- how a subclass words its build rule ------------------------------------------------
    @staticmethod
    def _beyond(card: int, top: int) -> bool:
        """Whether ``card`` (a run's top) is past every card that could go on ``top``: the refusal
        then names the card itself rather than the run."""
        raise NotImplementedError

    @staticmethod
    def _need_words(top: int) -> str:
        """The card, or kind of card, that goes on ``top`` (not an ace): ``7♥``, ``a red 7``."""
        raise NotImplementedError

    @staticmethod
    def _rule_words(card: int) -> str:
        """The rule's reminder for ``card``: ``of the same suit (8♥)``."""
        raise NotImplementedError

    @classmethod
    def _no_fit(cls, card: int, top: int) -> IllegalMove:
        if top % 13 == 0:
            return IllegalMove(
                f"{card_label(card)} cannot go on {card_label(top)}: nothing goes on an ace",
                "no_fit",
                card=card_label(card),
                target=card_label(top),
            )
        return IllegalMove(
            f"{card_label(card)} cannot go on {card_label(top)}: a card goes on the next higher "
            f"card {cls._rule_words(card)}",
            "no_fit",
            card=card_label(card),
            target=card_label(top),
        )

    # -- changing ---------------------------------------------------------------
    def apply(self, m: TableauMove) -> None:
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

    def revert(self, m: TableauMove) -> None:
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
    def legal_moves(self) -> list[TableauMove]:
        """Every legal move, one per distinct notation."""
        return list(self.moves())

    def has_legal_move(self) -> bool:
        return next(self.moves(), None) is not None
