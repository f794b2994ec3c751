"""Klondike's moves written again from the rules, to replay a line in KLONDIKE.md's notation
(``s``, ``w3``, ``wh``, ``3h``, ``35``, ``hs3``) from a position and say whether it wins.

It checks the oracle's own lines and the engine solver's: a move that is not legal where it is
played is an :class:`IllegalMove`, never skipped.
"""

from __future__ import annotations

from tests.klondike_oracle.layout import SUITS, Position, goes_on, rank, suit


class IllegalMove(ValueError):
    pass


class Table:
    """A position being played: piles with their face-down counts, stock, waste, foundations."""

    def __init__(self, position: Position, draw: int) -> None:
        position.check()
        if draw not in (1, 3):
            raise ValueError("Klondike draws 1 or 3")
        self.draw = draw
        self.piles = [list(p) for p in position.piles]
        self.down = list(position.face_down)
        self.stock = list(position.stock)
        self.waste = list(position.waste)
        self.home = list(position.foundations)

    def won(self) -> bool:
        return self.home == [13, 13, 13, 13]

    def play(self, move: str) -> None:
        word = move.strip().lower()
        if word == "s":
            self._turn()
        elif len(word) == 2 and word[0] == "w":
            self._place(self._waste_top(), word[1])
            self.waste.pop()
        elif len(word) == 3 and word[0] == "h" and word[1] in "shdc":
            self._from_home(SUITS.lower().index(word[1]), word[2])
        elif len(word) == 2 and word[0] in "1234567":
            self._from_pile(int(word[0]) - 1, word[1])
        else:
            raise IllegalMove(f"{move!r} is not a Klondike move")

    def _turn(self) -> None:
        if self.stock:
            turned, self.stock = self.stock[: self.draw], self.stock[self.draw :]
            self.waste.extend(turned)
        elif self.waste:
            self.stock, self.waste = self.waste, []
        else:
            raise IllegalMove("s: the stock and the waste are both empty")

    def _waste_top(self) -> int:
        if not self.waste:
            raise IllegalMove("the waste is empty")
        return self.waste[-1]

    def _place(self, card: int, where: str) -> None:
        """``card`` onto its foundation (``h``) or onto pile ``where``; the caller takes it away."""
        if where == "h":
            if self.home[suit(card)] != rank(card) - 1:
                raise IllegalMove(f"{card} does not go on its foundation")
            self.home[suit(card)] += 1
            return
        pile = self._pile(where)
        if not self._fits(card, pile):
            raise IllegalMove(f"{card} does not go on pile {where}")
        self.piles[pile].append(card)

    def _pile(self, where: str) -> int:
        if where not in "1234567" or len(where) != 1:
            raise IllegalMove(f"{where!r} is not a pile")
        return int(where) - 1

    def _fits(self, card: int, pile: int) -> bool:
        cards = self.piles[pile]
        return goes_on(card, cards[-1]) if cards else rank(card) == 13

    def _from_home(self, which: int, where: str) -> None:
        if self.home[which] == 0:
            raise IllegalMove("that foundation is empty")
        card = which * 13 + self.home[which] - 1
        pile = self._pile(where)
        if not self._fits(card, pile):
            raise IllegalMove(f"the foundation's top does not go on pile {where}")
        self.piles[pile].append(card)
        self.home[which] -= 1

    def _from_pile(self, source: int, where: str) -> None:
        cards = self.piles[source]
        if not cards:
            raise IllegalMove(f"pile {source + 1} is empty")
        if where == "h":
            self._place(cards[-1], "h")
            cards.pop()
        else:
            target = self._pile(where)
            if target == source:
                raise IllegalMove("a pile onto itself")
            up = range(self.down[source], len(cards))
            starts = [i for i in up if self._fits(cards[i], target)]
            if not starts:
                raise IllegalMove(f"no run of pile {source + 1} goes on pile {where}")
            self.piles[target].extend(cards[starts[0] :])
            del cards[starts[0] :]
        if cards and self.down[source] == len(cards):
            self.down[source] -= 1


def replay(position: Position, draw: int, line: str) -> bool:
    """Whether ``line`` (moves separated by spaces) wins from ``position``; IllegalMove if a move
    cannot be played."""
    table = Table(position, draw)
    for move in line.split():
        table.play(move)
    return table.won()
