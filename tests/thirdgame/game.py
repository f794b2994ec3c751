"""The engine module of *Tower*: the thirteen spades in three piles, to be sent home A to K.

Moves: ``1h`` sends pile 1's top card home when it is the next rank; ``12``
puts pile 1's top card on pile 2 (any card on any pile). Always winnable.
The test registers it (and removes it after), as a deployment would at start-up.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import engine
from engine.cards import card_label, rank_of, suit_of
from engine.dealing import shuffled_deck
from engine.errors import IllegalMove
from engine.game import Finish, Game, Outcome
from tests.thirdgame.record import TOWER

PILES = 3
HOME = "h"


@dataclass(frozen=True, slots=True)
class TowerMove:
    src: int
    dst: int | None  # None: home
    card: int

    @property
    def notation(self) -> str:
        return f"{self.src + 1}{HOME if self.dst is None else self.dst + 1}"

    def describe(self) -> str:
        where = "home" if self.dst is None else f"to pile {self.dst + 1}"
        return f"{card_label(self.card)} from pile {self.src + 1} {where}"


class TowerGame(Game[TowerMove]):
    record = TOWER

    def __init__(self, code: engine.GameCode) -> None:
        super().__init__(code)
        spades = [c for c in shuffled_deck(code.deal) if suit_of(c) == 0]
        self.position = [spades[i::PILES] for i in range(PILES)]
        self.home = 0

    def places(self) -> tuple[str, ...]:
        return tuple(str(i + 1) for i in range(PILES))

    def top_card(self, place: str) -> int | None:
        pile = self.position[int(place) - 1]
        return pile[-1] if pile else None

    @property
    def score(self) -> int:
        return self.home

    @property
    def outcome(self) -> Outcome | None:
        return Outcome("won", "all thirteen spades are home") if self.home == 13 else None

    def iter_legal_moves(self) -> Iterator[TowerMove]:
        for s, pile in enumerate(self.position):
            if not pile:
                continue
            if rank_of(pile[-1]) == self.home + 1:
                yield TowerMove(s, None, pile[-1])
            for d in range(PILES):
                if d != s:
                    yield TowerMove(s, d, pile[-1])

    def _find(self, text: str) -> TowerMove | None:
        return next((m for m in self.iter_legal_moves() if m.notation == text.lower()), None)

    def _resolve(self, text: str) -> TowerMove:
        move = self._find(text)
        if move is not None:
            return move
        raise IllegalMove(f"{text!r} is not a move here", "malformed", text=text)

    def _play(self, text: str) -> TowerMove:
        move = self._resolve(text)
        self.position[move.src].pop()
        if move.dst is None:
            self.home += 1
        else:
            self.position[move.dst].append(move.card)
        return move

    def _take_back(self, move: TowerMove) -> TowerMove:
        if move.dst is None:
            self.home -= 1
        else:
            self.position[move.dst].pop()
        self.position[move.src].append(move.card)
        return move

    def board_text(self) -> str:
        return "\n".join(" ".join(map(card_label, p)) for p in self.position) + f"\nhome: {self.home}\n"

    @property
    def cards_home(self) -> int:
        return self.home

    @classmethod
    def rank_key(cls, finish: Finish) -> int:
        return (0 if finish.status == "won" else 1) * 10**6 + finish.move_count


def solve(game: TowerGame) -> str | None:
    """The next move of a simple winning plan: dig out the next rank, then send it home."""
    moves = game.legal_moves()
    if not moves:
        return None
    home = [m for m in moves if m.endswith(HOME)]
    if home:
        return home[0]
    need = game.home + 1
    for s, pile in enumerate(game.position):
        if any(rank_of(c) == need for c in pile):
            dst = (s + 1) % PILES
            return f"{s + 1}{dst + 1}"
    return moves[0]
