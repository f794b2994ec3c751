"""The FreeCell-family ``Game`` (Jeu du Boulanger, FreeCell): score, undo, places, tap and
double tap, the Home run. Each game is a subclass naming its position class and its deal."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from engine.cards import card_label
from engine.codes import GameCode
from engine.errors import IllegalMove
from engine.game import HOME_SHIFT, Finish, Game, Outcome
from engine.tableau.boardtext import export_board
from engine.tableau.notation import (
    CELL,
    CELL_LETTERS,
    COLUMN,
    COLUMN_DIGITS,
    FOUNDATION,
    ParsedMove,
    parse_notation,
)
from engine.tableau.position import EMPTY, TableauMove, TableauPosition

# Ranking keys of games not won start here, so any win ranks above them.
# Keys of games not won start here: above every win (win keys stay below 1 << HOME_SHIFT).
NOT_WON_BASE = 1 << 60
P = TypeVar("P", bound=TableauPosition)


def _source(text: str, cells: int) -> tuple[str, int]:
    t = text.strip().lower() if isinstance(text, str) else ""
    if len(t) == 1 and t in COLUMN_DIGITS:
        return COLUMN, COLUMN_DIGITS.index(t)
    if len(t) == 1 and t in CELL_LETTERS[:cells]:
        return CELL, CELL_LETTERS.index(t)
    raise IllegalMove(
        f"{text!r} is not a column (1-8) or a free cell ({CELL_LETTERS[:cells]})",
        "malformed",
        text=text,
    )


def _source_text(kind: str, index: int) -> str:
    return COLUMN_DIGITS[index] if kind == COLUMN else CELL_LETTERS[index]


class TableauGame(Game[TableauMove], Generic[P]):
    """Eight columns, free cells, four foundations; the build rule is the position's."""

    has_cells = True
    # Whether the moves the game's rules play by themselves follow each move (FreeCell's safe
    # auto-play, a player's setting); a game that has none leaves it off.
    autoplay = False

    position: P

    def __init__(self, code: GameCode) -> None:
        super().__init__(code)
        assert code.cells is not None
        self.position = self.deal_position(code)
        self._score = 0

    def deal_position(self, code: GameCode) -> P:
        """The starting position of a code (each game's own dealing)."""
        raise NotImplementedError

    # -- what players see -----------------------------------------------------------
    @property
    def cells(self) -> int:
        """Free cells in play (4, 2 or 1)."""
        return self.position.num_cells

    def places(self) -> tuple[str, ...]:
        """The places a player acts on, by notation name: columns ``1``-``8``, then the
        free cells in play (``a`` …)."""
        return tuple(COLUMN_DIGITS) + tuple(CELL_LETTERS[: self.cells])

    def top_card(self, place: str) -> int | None:
        """The card a player could move from a place (a column's top card, a cell's card)."""
        kind, index = _source(place, self.cells)
        if kind == COLUMN:
            col = self.position.cols[index]
            return col[-1] if col else None
        held = self.position.cells[index]
        return None if held == EMPTY else held

    def is_empty(self, place: str) -> bool:
        return self.top_card(place) is None

    def cards_at(self, place: str) -> tuple[int, ...]:
        """Every card of a place, bottom first (a column's whole pile, a cell's card)."""
        kind, index = _source(place, self.cells)
        if kind == COLUMN:
            return tuple(self.position.cols[index])
        held = self.position.cells[index]
        return () if held == EMPTY else (held,)

    def foundation_counts(self) -> tuple[int, int, int, int]:
        """Cards home per suit, in ``engine.cards.SUITS`` order."""
        found = self.position.found
        return (found[0], found[1], found[2], found[3])

    def most_to_empty(self, place: str) -> int:
        """How many cards of a place's top run may move into an empty column now (a cell: its
        one card)."""
        kind, index = _source(place, self.cells)
        if kind == COLUMN:
            return self.position.most_to_empty(index)
        return 0 if self.position.cells[index] == EMPTY else 1

    # -- Game interface ---------------------------------------------------------------
    @property
    def score(self) -> int:
        return self._score

    @property
    def is_won(self) -> bool:
        return sum(self.position.found) == 52  # Position.is_won, without two calls (every play asks)

    @property
    def outcome(self) -> Outcome | None:
        if self.position.is_won():
            return Outcome("won", "all 52 cards are on the foundations")
        if not self.has_legal_move():
            return Outcome("lost", "no legal move is left: undo or start over")
        return None

    def iter_legal_moves(self) -> Iterator[TableauMove]:
        return self.position.moves()

    def board_text(self) -> str:
        return export_board(self.position)

    @property
    def cards_home(self) -> int:
        return sum(self.position.found)

    @classmethod
    def cards_home_of(cls, status: str, score: int) -> int | None:
        return 52 if status == "won" else None  # the score mixes in the farmable +5s

    @classmethod
    def rank_key(cls, finish: Finish) -> int:
        """Lower is better. Wins first: unassisted (no hint) first, then fewer moves, then less
        time. Then games not won: more cards home, then unassisted, fewer moves, less time.
        The reference score is never asked: a cell-column shuttle raises it forever."""
        if finish.status == "won":
            return finish.help_moves_and_time()
        short = 52 - max(0, min(finish.home or 0, 52))
        return NOT_WON_BASE | (short << HOME_SHIFT) | finish.help_moves_and_time()

    def _find(self, text: str) -> TableauMove | None:
        return self.position.find(parse_notation(text, len(self.position.cells)))

    def _resolve(self, text: str) -> TableauMove:
        return self.position.resolve(parse_notation(text, len(self.position.cells)))

    def _play(self, text: str) -> TableauMove:
        move = self._resolve(text)
        self.position.apply(move)
        self._score += move.points
        return move

    def _take_back(self, move: TableauMove) -> TableauMove:
        self.position.revert(move)
        self._score = max(0, self._score - move.points)
        return move

    # -- taps -------------------------------------------------------------------
    def tap(self, source: str) -> TableauMove:
        """Send a top card (column or cell) to its foundation, or say why not."""
        kind, index = _source(source, self.cells)
        return self.play(_source_text(kind, index) + "h")

    def double_tap_target(self, source: str) -> str:
        """Where a double tap sends a card, among the legal moves from that place: its
        foundation, else the longest column it fits on, else the leftmost empty column
        (not for a column's lone card), else the leftmost free cell. Returns the notation."""
        kind, index = _source(source, self.cells)
        pos = self.position
        card = self.top_card(source)
        if card is None:
            raise pos.refusal(ParsedMove(kind, index, FOUNDATION, 0, None))  # "empty_source"
        target = self._double_tap(kind, index, list(pos.moves((kind, index))))
        if target is None:
            raise IllegalMove(f"{card_label(card)} has nowhere to go", "nowhere_to_go", card=card_label(card))
        return target

    def double_tap_targets(self) -> dict[str, str]:
        """Every place's ``double_tap_target`` at once, from one listing of the legal moves
        (a board's menu leaves each place's one-press move out): {place: notation}, without
        the empty places and those whose card has nowhere to go."""
        by_source: dict[tuple[str, int], list[TableauMove]] = {}
        for move in self.position.moves():
            by_source.setdefault((move.src_kind, move.src), []).append(move)
        out: dict[str, str] = {}
        for place in self.places():
            kind, index = _source(place, self.cells)
            target = self._double_tap(kind, index, by_source.get((kind, index), []))
            if target is not None:
                out[place] = target
        return out

    def _double_tap(self, kind: str, index: int, moves: list[TableauMove]) -> str | None:
        """The double tap among ``moves``, the legal moves from one place (None: none fits)."""
        pos = self.position
        singles = [m for m in moves if len(m.cards) == 1]
        for m in singles:
            if m.dst_kind == FOUNDATION:
                return m.notation
        onto = [m for m in singles if m.dst_kind == COLUMN and not m.to_empty]
        if onto:
            return max(onto, key=lambda m: len(pos.cols[m.dst])).notation
        lone = kind == COLUMN and len(pos.cols[index]) == 1  # to another empty column: no change
        for m in singles:
            if m.to_empty and not lone:
                return m.notation
        for m in singles:
            if m.dst_kind == CELL:
                return m.notation
        return None

    def double_tap(self, source: str) -> TableauMove:
        return self.play(self.double_tap_target(source))

    # -- home in one action -----------------------------------------------------------
    def home_run(self) -> list[str]:
        """Every card that can go home now and every card that frees, in the order they go:
        what the Home button plays, as one batch (``play_batch``).

        In Jeu du Boulanger each of them is safe to send: only the same-suit card one rank
        lower could ever be put on such a card, and that card is already home, which is
        final (the proof the solver's auto-moves rest on, ``engine.solver.search``). So
        sending them never loses a win. In FreeCell the button is the player's choice: a
        card home may be one a lower card of the other colour still needed.
        """
        if self.is_won:
            return []
        pos = self.position.copy()
        run: list[str] = []
        while True:
            move = next(pos.moves(dst=(FOUNDATION, 0)), None)  # the first move home
            if move is None:
                return run
            pos.apply(move)
            run.append(move.notation)

    def home_finishes(self, run: list[str] | None = None) -> bool:
        """Whether the Home run wins the game (the rest is only foundation moves: Finish)."""
        run = self.home_run() if run is None else run
        return bool(run) and len(run) + sum(self.position.found) == 52

    def play_home(self) -> list[TableauMove]:
        """Play the Home run as one action; ``IllegalMove`` when no card can go home."""
        run = self.home_run()
        if not run:
            raise IllegalMove("no card can go home now", "nothing_home")
        return self.play_batch(run)
