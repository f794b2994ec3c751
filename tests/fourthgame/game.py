"""The engine module of *Climb*: the thirteen hearts in a stock, climbed A to K on one pile.

Moves: ``t`` turns the stock's top card onto the waste (or, once the stock is empty, turns
the waste over as a new stock: three passes in all); ``h`` puts the waste's top card on the
pile when it is the next rank up. Won with the king on the pile; lost when no move is left.
Nothing is ever gained by waiting to play a fitting card, so the plan (``next_move``) is
forced and a deal is won or lost from its shuffle (``winnable``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import engine
from engine.cards import card_label, make_card, rank_of, suit_of
from engine.dealing import shuffled_deck
from engine.errors import IllegalMove
from engine.game import Finish, Game, Outcome
from tests.fourthgame.record import CLIMB

SUIT = 1  # hearts
PASSES = 3  # the stock is gone through at most three times
TURN, HOME = "t", "h"


@dataclass(frozen=True, slots=True)
class ClimbMove:
    notation: str  # TURN or HOME
    card: int | None  # the card turned or sent up; None: the waste turned over as the stock

    def describe(self) -> str:
        if self.card is None:
            return "the waste turned over as the stock"
        return f"{card_label(self.card)} {'turned' if self.notation == TURN else 'onto the pile'}"


class ClimbGame(Game[ClimbMove]):
    record = CLIMB

    def __init__(self, code: engine.GameCode) -> None:
        super().__init__(code)
        hearts = [c for c in shuffled_deck(code.deal) if suit_of(c) == SUIT]
        self.stock = hearts[::-1]  # the top card (last) is the first one turned
        self.waste: list[int] = []
        self.home = 0  # the ranks on the pile: A..home
        self.passes = 1

    def waste_top(self) -> int | None:
        return self.waste[-1] if self.waste else None

    def can_redeal(self) -> bool:
        return not self.stock and bool(self.waste) and self.passes < PASSES

    @property
    def score(self) -> int:
        return self.home

    @property
    def cards_home(self) -> int:
        return self.home

    @property
    def outcome(self) -> Outcome | None:
        if self.home == 13:
            return Outcome("won", "all thirteen hearts are on the pile")
        if not self.has_legal_move():
            return Outcome("lost", "the stock is spent and the waste's top card does not fit")
        return None

    def iter_legal_moves(self) -> Iterator[ClimbMove]:
        top = self.waste_top()
        if top is not None and rank_of(top) == self.home + 1:
            yield ClimbMove(HOME, top)
        if self.stock:
            yield ClimbMove(TURN, self.stock[-1])
        elif self.can_redeal():
            yield ClimbMove(TURN, None)

    def _find(self, text: str) -> ClimbMove | None:
        return next((m for m in self.iter_legal_moves() if m.notation == text.lower()), None)

    def _resolve(self, text: str) -> ClimbMove:
        move = self._find(text)
        if move is not None:
            return move
        top, word = self.waste_top(), text.lower()
        if word == HOME and top is None:
            raise IllegalMove("there is no card on the waste", "empty_source", place="the waste")
        if word == HOME and top is not None:
            need = card_label(make_card(SUIT, self.home + 1))
            raise IllegalMove(
                f"{card_label(top)} does not fit: the pile needs {need}",
                "foundation_order",
                card=card_label(top),
                need=need,
            )
        if word == TURN:
            raise IllegalMove("the stock is used up", "stock_empty")
        raise IllegalMove(f"{text!r} is not a move here", "malformed", text=text)

    def _play(self, text: str) -> ClimbMove:
        move = self._resolve(text)
        if move.notation == HOME:
            self.waste.pop()
            self.home += 1
        elif move.card is None:
            self.stock, self.waste = self.waste[::-1], []
            self.passes += 1
        else:
            self.waste.append(self.stock.pop())
        return move

    def _take_back(self, move: ClimbMove) -> ClimbMove:
        if move.notation == HOME:
            self.home -= 1
            self.waste.append(make_card(SUIT, self.home + 1))
        elif move.card is None:
            self.stock, self.waste = [], self.stock[::-1]
            self.passes -= 1
        else:
            self.stock.append(self.waste.pop())
        return move

    def board_text(self) -> str:
        waste = " ".join(map(card_label, self.waste)) or "-"
        return (
            f"stock: {len(self.stock)} (pass {self.passes} of {PASSES})\nwaste: {waste}\npile: {self.home}\n"
        )

    @classmethod
    def rank_key(cls, finish: Finish) -> int:
        return (0 if finish.status == "won" else 1) * 10**6 + finish.move_count


def next_move(game: ClimbGame) -> str | None:
    """The forced plan's next move: a fitting card goes up at once, else the stock turns."""
    moves = game.legal_moves()
    return HOME if HOME in moves else (moves[0] if moves else None)


def winnable(code: str) -> bool:
    """Whether the forced plan wins the deal ``code``."""
    game = engine.new_game(code)
    assert isinstance(game, ClimbGame)
    while (move := next_move(game)) is not None:
        game.play(move)
    return game.is_won
