"""The interface both games share: play, undo, legal moves, score, outcome.

A game's persistent form is its code plus its action log (``moves``), where an
undo is the action ``"undo"``. Replaying the log rebuilds the identical
position, score and undo history, so storing those two fields is enough.

Each game states its move rule once, as the generator behind
``iter_legal_moves``; listing, ``has_legal_move``, ``resolve``, ``is_legal``
and ``play`` all come from it (a game's ``resolve`` looks the move a notation
names up among the moves that generator yields, and only explains refusals).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.codes import BASE32, CELL_COUNTS, CELLS, DealForm, GameCode, OptionPart
from engine.errors import IllegalMove
from engine.record import GameRecord

UNDO = "undo"
UNDO_LIMIT = 100
MAX_MOVE_INPUT = 32
# Several moves played as one action (one log entry, one undo): ``6h,ah,5h``.
BATCH = ","
MAX_BATCH = 52
# The parts a ranking key packs (``rank_key``), low to high: seconds (32 bits; up to
# SECONDS_CLAMP, an unknown time -- a game without moves, or finished before times were kept
# -- counts as UNTIMED, behind every known time), moves (20 bits, up to MOVE_CLAMP), the
# assisted bit, then from HOME_SHIFT up what each game ranks first (cards short of 52...).
MOVE_CLAMP = (1 << 20) - 1
UNTIMED = (1 << 32) - 1
SECONDS_CLAMP = UNTIMED - 1
ASSISTED_BIT = 1 << 52
HOME_SHIFT = 53


@dataclass(frozen=True, slots=True)
class Finish:
    """What a ranking knows of a finished game (storage keeps these facts with every result).

    ``home``: cards on the foundations at the end (None if not known); ``seconds``: first
    move to finish (None without a move); ``hints``: hints the player asked for.
    """

    status: str
    score: int
    move_count: int
    home: int | None = None
    seconds: int | None = None
    hints: int = 0

    @property
    def assisted(self) -> bool:
        return self.hints > 0

    def help_moves_and_time(self) -> int:
        """Unassisted first, then fewer moves, then less time: the low 53 bits of a key
        (lower is better), below what the game ranks first (from ``HOME_SHIFT``)."""
        moves = max(0, min(self.move_count, MOVE_CLAMP))
        seconds = UNTIMED if self.seconds is None else max(0, min(self.seconds, SECONDS_CLAMP))
        return (ASSISTED_BIT if self.assisted else 0) | (moves << 32) | seconds


class Move(Protocol):
    """What every game's move object offers: its canonical notation and a description."""

    @property
    def notation(self) -> str: ...

    def describe(self) -> str: ...


MoveT = TypeVar("MoveT", bound=Move)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``result`` is ``"won"`` or ``"lost"``."""

    result: str
    reason: str

    @property
    def won(self) -> bool:
        return self.result == "won"


def clean_input(text: object) -> str:
    """A move as typed, stripped; ``IllegalMove`` (``malformed``) if it is not short text."""
    if not isinstance(text, str):
        raise IllegalMove("a move must be text", "malformed", text=repr(text))
    cleaned = text.strip()
    if len(cleaned) > MAX_MOVE_INPUT:
        raise IllegalMove(
            f"{cleaned[:MAX_MOVE_INPUT]!r}… is too long to be a move",
            "malformed",
            text=cleaned[:MAX_MOVE_INPUT],
        )
    return cleaned


class Game(ABC, Generic[MoveT]):
    """One player's game: a position, its action log and its undo stack.

    A new game is a subclass naming its ``record`` (``engine.record.GameRecord``), which gives it
    its ``kind``, ``title`` and code description (``code_prefix``, ``versions``, ``has_cells``
    …); codes are parsed and written from the record once it is declared
    (``engine.registry.declare``).
    """

    kind: ClassVar[str]
    title: ClassVar[str]
    code_prefix: ClassVar[str]  # two or more capital letters: "BK" in BK1-C4-AAAAA24
    versions: ClassVar[tuple[int, ...]] = (1,)
    has_cells: ClassVar[bool] = False  # whether codes carry an option part (-C4: free cells)
    cell_counts: ClassVar[tuple[int, ...]] = CELL_COUNTS  # the option's choices, default first
    code_option: ClassVar[OptionPart] = CELLS  # how the option is written (C4; a game's own letter)
    deal_form: ClassVar[DealForm] = BASE32  # how the deal part is written (AAAAA24, MS11982)
    record: ClassVar[GameRecord]  # where the above are read from (``__init_subclass__``)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class naming its ``record`` takes its identity from it, written nowhere else."""
        super().__init_subclass__(**kwargs)
        record: GameRecord | None = cls.__dict__.get("record")
        if record is None:
            return
        cls.kind, cls.title, cls.code_prefix = record.kind, record.title, record.prefix
        cls.versions, cls.deal_form = record.versions, record.deals
        option = record.option
        cls.has_cells = option is not None
        cls.cell_counts = option.values if option is not None else CELL_COUNTS
        cls.code_option = option.code_part() if option is not None else CELLS

    # Each game's own position object (``engine.bakers.Position`` …); subclasses narrow it.
    position: object

    def __init__(self, code: GameCode) -> None:
        self._code = code
        self._log: list[str] = []
        # One entry per action: its moves in the order played (a batch has several).
        self._undo: deque[tuple[MoveT, ...]] = deque(maxlen=UNDO_LIMIT)
        self._move_count = 0

    # -- identity and history -------------------------------------------------
    @property
    def code(self) -> str:
        return str(self._code)

    @property
    def game_code(self) -> GameCode:
        return self._code

    @property
    def moves(self) -> tuple[str, ...]:
        """The action log: canonical move notations and ``"undo"`` entries."""
        return tuple(self._log)

    @property
    def move_count(self) -> int:
        """Moves on the board now: played moves minus undone ones."""
        return self._move_count

    @property
    def undo_depth(self) -> int:
        return len(self._undo)

    @property
    def last_move(self) -> MoveT | None:
        """The last move of the action the next undo would take back, if any."""
        return self._undo[-1][-1] if self._undo else None

    @property
    def last_action(self) -> tuple[MoveT, ...]:
        """Every move of the action the next undo would take back (several for a batch)."""
        return self._undo[-1] if self._undo else ()

    # -- moves ------------------------------------------------------------------
    @abstractmethod
    def iter_legal_moves(self) -> Iterator[MoveT]:
        """Every legal move, in listing order, one per canonical notation: the game's rule."""

    def legal_move_objects(self) -> list[MoveT]:
        return list(self.iter_legal_moves())

    def legal_moves(self) -> list[str]:
        """The canonical notations of every legal move."""
        return [m.notation for m in self.iter_legal_moves()]

    def has_legal_move(self) -> bool:
        return next(self.iter_legal_moves(), None) is not None

    def resolve(self, text: str) -> MoveT:
        """The move a notation means here (any case, surrounding spaces allowed), checked but
        not played; ``IllegalMove`` with the reason otherwise."""
        cleaned = clean_input(text)
        self._check_not_won()
        return self._resolve(cleaned)

    def is_legal(self, text: str) -> bool:
        """Whether ``play(text)`` would play a move (``"undo"`` is not a move: False). Cheaper
        than ``resolve``: a refusal is not explained."""
        try:
            cleaned = clean_input(text)
            self._check_not_won()
            return self._find(cleaned) is not None
        except IllegalMove:
            return False

    def describe(self, text: str) -> str:
        """A move in words for players, e.g. ``7♥ from column 3 to column 5``."""
        return self.resolve(text).describe()

    # -- playing ------------------------------------------------------------------
    def play(self, text: str) -> MoveT:
        """Apply one move given in notation (or ``"undo"``, or a batch ``6h,ah``: see
        ``play_batch``); ``IllegalMove`` leaves everything unchanged."""
        if isinstance(text, str) and BATCH in text:
            return self.play_batch(text.split(BATCH))[-1]
        cleaned = clean_input(text)
        if cleaned.lower() == UNDO:
            return self.undo()
        self._check_not_won()
        move = self._play(cleaned)
        self._undo.append((move,))
        self._log.append(move.notation)
        self._move_count += 1
        return move

    def play_batch(self, notations: Sequence[str]) -> list[MoveT]:
        """Several moves as one action: one log entry (``6h,ah,5h``), one undo, each move
        counted and scored as itself. All or nothing: an illegal one leaves everything
        as it was."""
        if not 1 <= len(notations) <= MAX_BATCH:
            raise IllegalMove(f"a batch holds 1 to {MAX_BATCH} moves, not {len(notations)}", "malformed")
        played: list[MoveT] = []
        try:
            for text in notations:
                cleaned = clean_input(text)
                if cleaned.lower() == UNDO or not cleaned:
                    raise IllegalMove(f"{text!r} cannot be part of a batch", "malformed", text=text)
                self._check_not_won()
                played.append(self._play(cleaned))
        except IllegalMove:
            for move in reversed(played):
                self._rollback(move)
            raise
        self._undo.append(tuple(played))
        self._log.append(BATCH.join(m.notation for m in played))
        self._move_count += len(played)
        return played

    def undo(self) -> MoveT:
        """Take back the last action (every move of a batch); ``IllegalMove`` if there is
        none (or it may not be), changing nothing."""
        if not self._undo:
            raise IllegalMove("there is nothing to undo", "nothing_to_undo")
        action = self._undo[-1]
        undone: list[MoveT] = []
        try:
            for move in reversed(action):
                undone.append(self._take_back(move))  # may refuse before changing anything
        except IllegalMove:
            for move in reversed(undone):
                self._play(move.notation)  # put back what this undo had already taken
            raise
        self._undo.pop()
        self._log.append(UNDO)
        self._move_count -= len(action)
        return action[0]

    def replay(self, moves: Iterable[str]) -> None:
        """Apply a stored action log in order (moves and ``"undo"``)."""
        for i, text in enumerate(moves, 1):
            try:
                self.play(text)
            except IllegalMove as exc:
                raise IllegalMove(
                    f"action {i} ({text!r}) failed: {exc}", exc.reason, index=i, **exc.params
                ) from exc

    def _check_not_won(self) -> None:
        if self.is_won:
            raise IllegalMove("the game is already won", "game_over")

    # -- state ------------------------------------------------------------------
    @property
    def is_won(self) -> bool:
        outcome = self.outcome
        return outcome is not None and outcome.won

    @property
    def is_lost(self) -> bool:
        outcome = self.outcome
        return outcome is not None and not outcome.won

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def to_json(self) -> dict[str, Any]:
        """The summary ``python -m engine play`` prints."""
        return {
            "code": self.code,
            "game": self.kind,
            "score": self.score,
            "won": self.is_won,
            "lost": self.is_lost,
            "moves": self.move_count,
            "actions": len(self._log),
            "board": self.board_text(),
        }

    # -- what each game provides -----------------------------------------------
    @property
    @abstractmethod
    def score(self) -> int: ...

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def board_text(self) -> str: ...

    @property
    @abstractmethod
    def cards_home(self) -> int:
        """Cards on the foundations now: progress that cannot be farmed (rankings, races)."""

    @classmethod
    def cards_home_of(cls, status: str, score: int) -> int | None:
        """Cards home at the end of a stored game when its status and score alone say it (so a
        schema upgrade need not replay it); None: only a replay tells."""
        return None

    @classmethod
    @abstractmethod
    def rank_key(cls, finish: Finish) -> int:
        """A finished game's place in rankings: lower is better (storage stores it)."""

    @abstractmethod
    def _find(self, text: str) -> MoveT | None:
        """The legal move a cleaned notation names, or None; ``IllegalMove`` only if the text
        is not notation at all. Must agree with ``_resolve``."""

    @abstractmethod
    def _resolve(self, text: str) -> MoveT:
        """The move a cleaned notation names, looked up among the legal moves, or
        ``IllegalMove`` saying why there is none."""

    @abstractmethod
    def _play(self, text: str) -> MoveT:
        """``_resolve`` the cleaned notation, apply the move (score included) and return it."""

    @abstractmethod
    def _take_back(self, move: MoveT) -> MoveT:
        """Revert ``move`` (the last one played) and return it, or raise ``IllegalMove``
        (changing nothing) if it may not be undone. The base class keeps the stack."""

    def _rollback(self, move: MoveT) -> None:
        """Revert a move of a batch that failed part-way: never refused (a game whose undo
        has rules of its own reverts here without them)."""
        self._take_back(move)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.code} moves={self.move_count} score={self.score}>"
