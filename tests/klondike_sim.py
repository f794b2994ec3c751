"""Klondike for the solver's tests, written from the rules alone (issue 43 item 1,
KLONDIKE.md), sharing no code with the solver: the dealing of version 1 and a plain
simulator that replays a line of notation and refuses any illegal move. The real engine's
dealing and replay replace these when the rules package lands."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dealing import shuffled_deck
from engine.klondike.solving import Layout

SUITS = "shdc"


def dealt_layout(deal: int, draw: int) -> Layout:
    """Deal ``deal`` as KLONDIKE.md's version 1: cards 0..27 row by row onto piles r..6,
    the rest the stock, card 28 turned first."""
    deck = shuffled_deck(deal)
    piles: list[list[int]] = [[] for _ in range(7)]
    dealt = iter(deck[:28])
    for row in range(7):
        for p in range(row, 7):
            piles[p].append(next(dealt))
    return Layout(tuple(map(tuple, piles)), tuple(range(7)), tuple(deck[28:]), (), (0, 0, 0, 0), draw)


def red(card: int) -> bool:
    return card // 13 in (1, 2)


def rank(card: int) -> int:
    return card % 13 + 1


class Illegal(ValueError):
    """A move the rules refuse."""


@dataclass
class Table:
    """A Klondike table: each pile a list of ``[card, face_up]``."""

    piles: list[list[list[int | bool]]]
    stock: list[int]  # the next card to turn is stock[0]
    waste: list[int]  # the top is waste[-1]
    found: list[int]
    draw: int
    log: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, layout: Layout) -> Table:
        piles = [
            [[c, i >= d] for i, c in enumerate(p)]
            for p, d in zip(layout.piles, layout.face_down, strict=True)
        ]
        for pile in piles:
            if pile:
                pile[-1][1] = True
        return cls(piles, list(layout.stock), list(layout.waste), list(layout.foundations), layout.draw)

    def won(self) -> bool:
        return self.found == [13, 13, 13, 13]

    def play(self, move: str) -> None:
        move = move.lower()
        if move == "s":
            self.turn()
        elif move[0] == "w":
            self.from_waste(move[1])
        elif move[0] == "h":
            self.from_home(SUITS.index(move[1]), int(move[2]) - 1)
        elif move[1] == "h":
            self.pile_home(int(move[0]) - 1)
        else:
            self.pile_to_pile(int(move[0]) - 1, int(move[1]) - 1)
        self.log.append(move)

    def turn(self) -> None:
        if self.stock:
            taken, self.stock = self.stock[: self.draw], self.stock[self.draw :]
            self.waste += taken
        elif self.waste:
            self.stock, self.waste = self.waste, []
        else:
            raise Illegal("no card to turn")

    def home_ok(self, card: int) -> bool:
        return self.found[card // 13] == rank(card) - 1

    def build_ok(self, card: int, pile: int) -> bool:
        target = self.piles[pile]
        if not target:
            return rank(card) == 13
        top = int(target[-1][0])
        return rank(top) == rank(card) + 1 and red(top) != red(card)

    def from_waste(self, where: str) -> None:
        if not self.waste:
            raise Illegal("the waste is empty")
        card = self.waste[-1]
        if where == "h":
            if not self.home_ok(card):
                raise Illegal("the waste card cannot go home")
            self.found[card // 13] += 1
        else:
            pile = int(where) - 1
            if not self.build_ok(card, pile):
                raise Illegal("the waste card does not fit")
            self.piles[pile].append([card, True])
        self.waste.pop()

    def from_home(self, suit: int, pile: int) -> None:
        if not self.found[suit]:
            raise Illegal("that foundation is empty")
        card = suit * 13 + self.found[suit] - 1
        if not self.build_ok(card, pile):
            raise Illegal("the foundation card does not fit")
        self.found[suit] -= 1
        self.piles[pile].append([card, True])

    def pile_home(self, pile: int) -> None:
        if not self.piles[pile] or not self.home_ok(int(self.piles[pile][-1][0])):
            raise Illegal("that pile's top cannot go home")
        card = int(self.piles[pile].pop()[0])
        self.found[card // 13] += 1
        self.uncover(pile)

    def pile_to_pile(self, src: int, dst: int) -> None:
        pile = self.piles[src]
        starts = [i for i, (c, up) in enumerate(pile) if up and self.build_ok(int(c), dst)]
        if len(starts) != 1 or src == dst:
            raise Illegal("no single run fits")
        run = pile[starts[0] :]
        del pile[starts[0] :]
        self.piles[dst] += run
        self.uncover(src)

    def uncover(self, pile: int) -> None:
        if self.piles[pile]:
            self.piles[pile][-1][1] = True


def replay(layout: Layout, moves: list[str]) -> Table:
    """The table after ``moves`` from ``layout``; raises ``Illegal`` on a refused move."""
    table = Table.of(layout)
    for move in moves:
        table.play(move)
    return table
