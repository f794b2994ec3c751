"""Klondike as a ``Game``: score, undo that never hides a card again, outcome, Finish, text forms.

Rules (``engine.klondike.position``): seven piles of 1 to 7 cards, the top one face up, 24 in
the stock; piles build down in alternating colours; a run of face-up cards moves as a unit;
only a king, or a run headed by one, goes to an empty pile; a face-down card turns up when
uncovered; foundations build up by suit from the ace, and a foundation's top card may come back
to a pile; ``s`` turns one or three cards (the code's ``D1`` / ``D3``) to the waste, whose top
card plays, and with the stock empty turns the waste back over as the stock, as often as the
player likes.

Undo takes back the last of up to 100 actions, as in the other games, but a pile's card once
turned up stays face up: the run whose move uncovered it comes back on top of it, so undo never
shows a card the player had not seen (nor does undoing ``s``: the cards go back under the
stock, already seen). Such a run need not build on the card it covers; what moves from a pile
is then its top run only, and the card under the break moves once the run has gone (a move onto
it, or its trip home, follows the usual rules). The points of an undone move are taken back,
but for the +5 of the card it turned up, which stays with the card: playing the move again
turns up nothing and earns no +5.

Ranked boards count undos as the other games do: an undo is part of play, never a penalty (it
cannot reveal a card); moves undone leave ``move_count`` (the moves on the board at the end),
and the undo actions are kept and shown with the result (storage's ``undos``). Wins rank
first, unassisted (no hint) first, then by fewer moves and less time; games not won below them,
by more cards home. The score (Windows' standard scoring, ``engine.klondike.rules``) is shown,
not ranked.

Finish (auto-complete): when every card not home is face up in the piles and the waste (the
stock used up) and sending cards home one after another, from the piles' tops and the waste's
top, wins the game, ``home_finishes`` is true and ``play_home`` plays them all as one action,
the Windows-like auto-complete. Before then ``play_home`` is Home: it sends what can go home
now, and what that frees, never a card that was face down when pressed (so the run, and whether
it wins, says nothing of hidden cards). A Finish that would need the waste turned over again
(draw three's order) is left to the player.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from engine.codes import GameCode
from engine.errors import IllegalMove
from engine.game import HOME_SHIFT, Finish, Game, Outcome
from engine.klondike.boardtext import board_text
from engine.klondike.hints import best_move
from engine.klondike.notation import HOME, STOCK, WASTE, parse_notation
from engine.klondike.position import KlondikeMove, Position
from engine.klondike.record import KLONDIKE
from engine.klondike.refusals import refusal
from engine.klondike.rules import DRAWS, TURN_UP
from engine.klondike.solving import NODE_BUDGET, layout_of, solve
from engine.klondike.state import KlondikeState, full_state, seen_state
from engine.solver.result import SolveResult

# Keys of games not won start here: above every win (win keys stay below 1 << HOME_SHIFT).
NOT_WON_BASE = 1 << 60


class KlondikeGame(Game[KlondikeMove]):
    """Klondike, draw one or three, unlimited passes through the stock."""

    record = KLONDIKE  # its kind, title and codes (the option part: D1 or D3)

    position: Position

    def __init__(self, code: GameCode) -> None:
        super().__init__(code)
        if code.cells not in DRAWS:
            raise ValueError(f"Klondike draws 1 or 3 cards, not {code.cells}")
        self.position = Position.deal(code.deal, code.cells)
        self._points = 0  # the score before the floor at 0

    # -- what players and searches see -------------------------------------------------
    @property
    def draw(self) -> int:
        """Cards turned from the stock at a time: 1 or 3."""
        return self.position.draw

    def state(self) -> KlondikeState:
        """Every card where it lies, face down or not: for a solver (``engine.klondike.state``)."""
        return full_state(self.position)

    def seen_state(self) -> KlondikeState:
        """Only what the player knows: cards never seen are ``UNKNOWN`` and listed in ``unseen``."""
        return seen_state(self.position)

    def solve(self, *, time_limit: float | None = None, node_limit: int | None = None) -> SolveResult:
        """Whether this position can be won knowing every card ("thoughtful" Klondike), with
        a winning line in the game's notation (``engine.klondike.solving``). Bounded by
        ``node_limit`` positions and ``time_limit`` CPU seconds; with neither, by the
        solver's default budget; with a time limit alone, by the time only."""
        budget = node_limit or (NODE_BUDGET if time_limit is None else sys.maxsize)
        return solve(layout_of(self.state()), budget=budget, time_limit=time_limit)

    def hint(self, *, seed: int = 0, time_limit: float | None = None) -> str | None:
        """The fair hint player's move (``engine.klondike.hints``), or None when no move is left.
        It is handed only ``seen_state()``: it cannot read a card the player has not seen."""
        return best_move(self.seen_state(), seed=seed, time_limit=time_limit)

    def seen_text(self) -> str:
        """The board as a player sees it (face-down cards as ``##``, the stock as a count)."""
        return board_text(self.position, self._header(), seen=True)

    def _header(self) -> str:
        return f"{self.title} {self.code}, draw {self.draw}"

    # -- Game interface ------------------------------------------------------------------
    @property
    def score(self) -> int:
        return max(0, self._points)

    @property
    def is_won(self) -> bool:
        return self.position.is_won()

    @property
    def outcome(self) -> Outcome | None:
        if self.position.is_won():
            return Outcome("won", "all 52 cards are on the foundations")
        if self._stuck():
            return Outcome("lost", "no card can move, and turning the stock brings none that can")
        return None

    def _stuck(self) -> bool:
        """No move but ``s``, and a whole round of ``s`` shows no waste card that can move
        (turning the stock changes nothing else)."""
        pos = self.position
        if any(m.notation != STOCK for m in pos.moves()):
            return False
        probe = pos.copy()
        for _ in range(2 * (len(pos.stock) + len(pos.waste) + 1)):
            turn = probe.stock_move()
            if turn is None:
                return True
            probe.apply(turn)
            if next(probe.moves((WASTE, 0)), None) is not None:
                return False
        return True

    def iter_legal_moves(self) -> Iterator[KlondikeMove]:
        return self.position.moves()

    def board_text(self) -> str:
        """Every card, face-down ones in parentheses (``engine.klondike.boardtext``): for the
        command line and checks; players are shown ``seen_text``."""
        return board_text(self.position, self._header())

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        pos = self.position
        data.update(
            draw=pos.draw, stock_count=len(pos.stock), face_down=pos.face_down(), recycles=pos.recycles
        )
        return data

    @property
    def cards_home(self) -> int:
        return self.position.cards_home()

    @classmethod
    def cards_home_of(cls, status: str, score: int) -> int | None:
        return 52 if status == "won" else None  # the score mixes in other points

    @classmethod
    def rank_key(cls, finish: Finish) -> int:
        """Lower is better. Wins first: unassisted (no hint) first, then fewer moves, then less
        time. Then games not won: more cards home, then unassisted, fewer moves, less time."""
        if finish.status == "won":
            return finish.help_moves_and_time()
        short = 52 - max(0, min(finish.home or 0, 52))
        return NOT_WON_BASE | (short << HOME_SHIFT) | finish.help_moves_and_time()

    # -- play and undo -------------------------------------------------------------------
    def _find(self, text: str) -> KlondikeMove | None:
        return self.position.find(parse_notation(text))

    def _resolve(self, text: str) -> KlondikeMove:
        parsed = parse_notation(text)
        move = self.position.find(parsed)
        if move is None:
            raise refusal(self.position, parsed)
        return move

    def _play(self, text: str) -> KlondikeMove:
        move = self._resolve(text)
        self.position.apply(move)
        self._points += move.points
        return move

    def _take_back(self, move: KlondikeMove) -> KlondikeMove:
        self.position.revert(move)
        self._points -= move.points - (TURN_UP if move.turns_up else 0)
        return move

    def _rollback(self, move: KlondikeMove) -> None:
        self.position.revert(move, rehide=True)
        self._points -= move.points

    # -- Home and Finish ---------------------------------------------------------------
    def home_run(self) -> list[str]:
        """The cards that can go home now and those that frees, in the order they go, never
        one face down now: what Home (or Finish) plays, as one batch."""
        if self.is_won:
            return []
        pos = self.position.copy()
        hidden = {c for pile, down in zip(pos.piles, pos.down, strict=True) for c in pile[:down]}
        run: list[str] = []
        while True:
            move = next((m for m in pos.moves(dst=(HOME, 0)) if m.cards[0] not in hidden), None)
            if move is None:
                return run
            pos.apply(move)
            run.append(move.notation)

    def home_finishes(self, run: list[str] | None = None) -> bool:
        """Whether the Home run wins the game: Finish (every card left is face up)."""
        run = self.home_run() if run is None else run
        return bool(run) and len(run) + self.position.cards_home() == 52

    def play_home(self) -> list[KlondikeMove]:
        """Play the Home run as one action (one undo); ``IllegalMove`` when no card can go home."""
        run = self.home_run()
        if not run:
            raise IllegalMove("no card can go home now", "nothing_home")
        return self.play_batch(run)
