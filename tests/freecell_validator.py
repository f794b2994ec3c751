"""An independent FreeCell referee for tests: the rules written again from the rule sheet, on
card texts, sharing no code with the engine.

It reads fc-solve board text, lists every legal move in the canonical notation (``3h``,
``a5``, ``27``, ``3a``, ``18v2``), plays moves, and applies Microsoft's safe auto-play (a card
home when both foundations of the other colour hold at least its rank − 1) when asked.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED = "HD"


def rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def red(card: str) -> bool:
    return card[1] in RED


def goes_on(card: str, onto: str) -> bool:
    return rank(onto) == rank(card) + 1 and red(onto) != red(card)


class Referee:
    def __init__(self, board: str, cells: int) -> None:
        self.cols: list[list[str]] = []
        self.cells: list[str | None] = [None] * cells
        self.home = dict.fromkeys(SUITS, 0)
        for line in board.splitlines():
            line = line.strip()
            if line.startswith("Foundations:"):
                for part in line.split(":", 1)[1].split():
                    suit, _, r = part.partition("-")
                    self.home[suit] = 0 if r == "0" else rank(r + "S")
            elif line.startswith("Freecells:"):
                held = line.split(":", 1)[1].split()
                self.cells = [None if c == "-" else c for c in held] + [None] * (cells - len(held))
            elif line.startswith(":") or line:
                self.cols.append(line.lstrip(":").split())
        assert len(self.cols) == 8

    def won(self) -> bool:
        return sum(self.home.values()) == 52

    def _run(self, col: list[str]) -> int:
        k = 1 if col else 0
        while k < len(col) and goes_on(col[-k], col[-k - 1]):
            k += 1
        return k

    def _capacity(self, to_empty: bool) -> int:
        free = self.cells.count(None)
        empty = sum(1 for c in self.cols if not c) - (1 if to_empty else 0)
        return (free + 1) * 2**empty

    def legal(self) -> set[str]:
        out: set[str] = set()
        letters = "abcd"
        for i, col in enumerate(self.cols):
            if not col:
                continue
            top = col[-1]
            if rank(top) == self.home[top[1]] + 1:
                out.add(f"{i + 1}h")
            for j, cell in enumerate(self.cells):
                if cell is None:
                    out.add(f"{i + 1}{letters[j]}")
            run = self._run(col)
            for d, dest in enumerate(self.cols):
                if d == i:
                    continue
                if dest:
                    for k in range(1, min(run, self._capacity(False)) + 1):
                        if goes_on(col[-k], dest[-1]):
                            out.add(f"{i + 1}{d + 1}")
                else:
                    for k in range(1, min(run, self._capacity(True)) + 1):
                        out.add(f"{i + 1}{d + 1}" + (f"v{k:x}" if k > 1 else ""))
        for j, cell in enumerate(self.cells):
            if cell is None:
                continue
            if rank(cell) == self.home[cell[1]] + 1:
                out.add(f"{letters[j]}h")
            for d, dest in enumerate(self.cols):
                if not dest or goes_on(cell, dest[-1]):
                    out.add(f"{letters[j]}{d + 1}")
        return out

    def play(self, move: str, *, autoplay: bool) -> None:
        assert move in self.legal(), f"{move} is not legal here"
        letters = "abcd"
        src, dst = move[0], move[1]
        if src in letters:
            cards = [self.cells[letters.index(src)]]
            self.cells[letters.index(src)] = None
        else:
            col = self.cols[int(src) - 1]
            if dst in "12345678" and self.cols[int(dst) - 1]:
                top = self.cols[int(dst) - 1][-1]
                k = next(k for k in range(1, len(col) + 1) if goes_on(col[-k], top))
            else:
                k = int(move[3:], 16) if "v" in move else 1
            cards = col[-k:]
            del col[-k:]
        if dst == "h":
            self.home[cards[0][1]] += 1
        elif dst in letters:
            self.cells[letters.index(dst)] = cards[0]
        else:
            self.cols[int(dst) - 1].extend(cards)
        if autoplay:
            self.auto()

    def auto(self) -> None:
        """Microsoft's safe auto-play, until nothing more goes."""
        moved = True
        while moved:
            moved = False
            for place in [*(c[-1] for c in self.cols if c), *(c for c in self.cells if c)]:
                r = rank(place)
                others = [s for s in SUITS if (s in RED) != (place[1] in RED)]
                if self.home[place[1]] == r - 1 and all(self.home[s] >= r - 1 for s in others):
                    for col in self.cols:
                        if col and col[-1] == place:
                            col.pop()
                    self.cells = [None if c == place else c for c in self.cells]
                    self.home[place[1]] += 1
                    moved = True
                    break


def replays(board: str, cells: int, moves: list[str], *, autoplay: bool) -> bool:
    """Whether ``moves`` win from ``board`` under the referee."""
    ref = Referee(board, cells)
    for move in moves:
        ref.play(move, autoplay=autoplay)
    return ref.won()
