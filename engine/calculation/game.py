"""Calculation as a ``Game``: undo that never un-turns a card, outcome, text and JSON forms."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.calculation.hints import FAST_ROLLOUTS, best_move
from engine.calculation.notation import FOUNDATION, TURNED, WASTE, parse_notation
from engine.calculation.position import CalculationMove, Position
from engine.calculation.record import CALCULATION
from engine.calculation.rules import NUM_FOUNDATIONS, NUM_WASTE
from engine.cards import card_text, rank_text
from engine.codes import GameCode
from engine.errors import IllegalMove
from engine.game import HOME_SHIFT, Finish, Game, Outcome

# A Calculation game's ranking key: cards not home (52 home = won = 0).
CALCULATION_TOP = 52
PLACES = (
    TURNED,
    *(f"{WASTE}{j + 1}" for j in range(NUM_WASTE)),
    *(f"{FOUNDATION}{i + 1}" for i in range(NUM_FOUNDATIONS)),
)


class CalculationGame(Game[CalculationMove]):
    """Calculation (Broken Intervals): four foundations building by 1, 2, 3 and 4."""

    record = CALCULATION

    position: Position

    def __init__(self, code: GameCode) -> None:
        super().__init__(code)
        self.position = Position.deal(code.deal)

    # -- what players see ---------------------------------------------------------
    @property
    def foundations(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(f) for f in self.position.foundations)

    @property
    def waste(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(w) for w in self.position.waste)

    @property
    def turned(self) -> int | None:
        return self.position.turned

    @property
    def stock_count(self) -> int:
        return self.position.stock_count

    def needs(self, i: int) -> int | None:
        return self.position.needs(i)

    @staticmethod
    def step(i: int) -> int:
        """Foundation ``i`` (0-based) builds by ``i + 1``."""
        return i + 1

    def unseen_cards(self) -> frozenset[int]:
        """Cards still face down: all the hint player may know is that they are these."""
        pos = self.position
        return frozenset(pos.stock[pos.turn + 1 :])

    def seen_copy(self) -> CalculationGame:
        """The same game as its player sees it: foundations, waste piles and turned card as
        here, the face-down cards in a fixed order (sorted by card) that tells nothing of
        the real one. What the benchmark asks the hint player, so it cannot peek."""
        pos = self.position
        copy = CalculationGame(self.game_code)
        copy.position = Position(
            [f[:] for f in pos.foundations],
            [w[:] for w in pos.waste],
            (*pos.stock[: pos.turn + 1], *sorted(pos.stock[pos.turn + 1 :])),
            pos.turn,
        )
        return copy

    def places(self) -> tuple[str, ...]:
        """The places a player acts on, by notation name: ``s`` (the turned card), waste piles
        ``w1``-``w4``, foundations ``f1``-``f4``."""
        return PLACES

    def _pile(self, place: str) -> tuple[int, ...]:
        name = place.strip().lower() if isinstance(place, str) else ""
        if name not in PLACES:
            raise IllegalMove(f"{place!r} is not a place: s, w1-w4 or f1-f4", "malformed", text=str(place))
        pos = self.position
        if name == TURNED:
            return () if pos.turned is None else (pos.turned,)
        piles = pos.waste if name[0] == WASTE else pos.foundations
        return tuple(piles[int(name[1]) - 1])

    def top_card(self, place: str) -> int | None:
        """The top card of a place (``s``: the turned card), or None if it has none."""
        pile = self._pile(place)
        return pile[-1] if pile else None

    def is_empty(self, place: str) -> bool:
        return not self._pile(place)

    # -- Game interface -------------------------------------------------------------
    @property
    def score(self) -> int:
        return self.position.score()

    @property
    def is_won(self) -> bool:
        return self.position.is_won()

    @property
    def outcome(self) -> Outcome | None:
        pos = self.position
        if pos.is_won():
            return Outcome("won", "all four foundations end on K")
        # With a turned card there is always a move (onto a waste pile), so this is
        # "the stock is used up and no waste card fits a foundation".
        if not pos.has_legal_move():
            return Outcome("lost", "the stock is used up and no waste card fits a foundation")
        return None

    def iter_legal_moves(self) -> Iterator[CalculationMove]:
        return self.position.moves()

    @property
    def cards_home(self) -> int:
        return self.position.score()

    @classmethod
    def cards_home_of(cls, status: str, score: int) -> int | None:
        return score  # the score is the cards home

    @classmethod
    def rank_key(cls, finish: Finish) -> int:
        """Lower is better: more cards home (52 is a win), then unassisted (no hint), then
        fewer moves, then less time."""
        short = CALCULATION_TOP - max(0, min(finish.score, CALCULATION_TOP))
        return (short << HOME_SHIFT) | finish.help_moves_and_time()

    def hint(
        self, *, rollouts: int | None = None, seed: int = 0, time_limit: float | None = None
    ) -> str | None:
        """The hint player's move, or None when no move is left; it sees only what the player
        sees. Deterministic, at most ~0.15 s CPU a decision; ``time_limit``
        bounds the thinking time. See ``engine.calculation.hints.best_move``."""
        return best_move(self, rollouts=rollouts or FAST_ROLLOUTS, seed=seed, time_limit=time_limit)

    def board_text(self) -> str:
        pos = self.position
        lines = [f"{self.title} {self.code}"]
        for i, pile in enumerate(pos.foundations):
            need = pos.needs(i)
            tail = "complete" if need is None else f"needs {rank_text(need)}"
            lines.append(f"f{i + 1} +{i + 1}: {' '.join(map(card_text, pile))}  ({tail})")
        for j, pile in enumerate(pos.waste):
            lines.append(f"w{j + 1}: {' '.join(map(card_text, pile))}".rstrip())
        turned = pos.turned
        lines.append(f"turned: {card_text(turned) if turned is not None else '-'}")
        lines.append(f"stock: {pos.stock_count}")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        pos = self.position
        data.update(
            foundations=[[card_text(c) for c in f] for f in pos.foundations],
            needs=[pos.needs(i) for i in range(NUM_FOUNDATIONS)],
            waste=[[card_text(c) for c in w] for w in pos.waste],
            turned=card_text(pos.turned) if pos.turned is not None else None,
            stock_count=pos.stock_count,
        )
        return data

    # -- play and undo ----------------------------------------------------------------
    def _find(self, text: str) -> CalculationMove | None:
        return self.position.find(parse_notation(text))

    def _resolve(self, text: str) -> CalculationMove:
        return self.position.resolve(parse_notation(text))

    def _play(self, text: str) -> CalculationMove:
        move = self._resolve(text)
        self.position.apply(move)
        return move

    def _rollback(self, move: CalculationMove) -> None:
        self.position.revert(move)

    def _take_back(self, record: CalculationMove) -> CalculationMove:
        if record.turned_next:
            raise IllegalMove(
                f"{record.notation} cannot be undone: a new card was turned after it, and undo "
                "never turns a card back face down",
                "undo_would_unturn",
                move=record.notation,
            )
        self.position.revert(record)
        return record
