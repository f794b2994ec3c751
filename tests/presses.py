"""A solver's solution as a player would press it on the board: one press, Home, or the menu.

The solver sends cards home one at a time; Home sends every card that can go
at once, so some of the solver's later moves are of cards already home: by the
proof in ``engine.solver.search``, leaving them out still wins, so they are
skipped (their cards are tracked on a copy that follows the solver exactly).

Empty columns are all alike, and so are empty free cells: the board offers a move into
an empty column or a free cell into the first one only. A solver's move into another is
played into the first, and from then on the two trade names between the solver's copy
and the board (``_Names``): both are empty on the board, so the board's position is the
solver's up to those names.

FreeCell: the solution is the one a player with auto-play presses (``engine.solver``'s
``autoplay_form``), and both copies auto-play as the bot's game does. A card Home sends may
be one the solution still needs in its column, so for a move home Home is pressed only when
the rest of the solution still plays after it (checked on a copy, as a player who sees that
nothing else needs those cards); otherwise the move home is its place's one press (a
card's first choice is its foundation).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Literal

import engine
from engine.bakers import BakersGame
from engine.tableau import TableauGame
from engine.tableau.notation import CELL, CELL_LETTERS, COLUMN, COLUMN_DIGITS, FOUNDATION


@dataclass(frozen=True)
class Step:
    kind: Literal["place", "home", "menu"]
    value: str  # the place pressed, or the notation chosen in the menu ("" for Home)
    moves: int  # moves it plays


@dataclass
class _Names:
    """Which board place each place of the solver's copy is (columns and free cells)."""

    board: dict[str, str] = field(default_factory=lambda: {p: p for p in COLUMN_DIGITS + CELL_LETTERS})

    def move(self, notation: str) -> str:
        return "".join(self.board.get(c, c) for c in notation[:2]) + notation[2:]

    def swap(self, planned: str, first: str) -> None:
        """The solver's place that ``planned`` stands for is now the board's ``first``."""
        other = next(p for p, b in self.board.items() if b == first)
        self.board[planned], self.board[other] = first, self.board[planned]


def one_press(game: TableauGame, place: str) -> str:
    """The move one press on ``place`` plays: the game's front decides (``TableauFront.one_press``)."""
    from bot.games import front_of

    target: str = front_of(game).one_press(game, place)
    return target


def _one_press(game: TableauGame, move: str) -> bool:
    try:
        return one_press(game, move[0]) == move
    except engine.IllegalMove:
        return False


def _into_first(game: TableauGame, move: str, names: _Names) -> str:
    """``move`` (board names) into the board's first empty column or free cell when it goes
    into another one; ``names`` learns the trade."""
    resolved = game.resolve(move)
    if resolved.dst_kind == COLUMN and resolved.to_empty:
        first = COLUMN_DIGITS[min(i for i, col in enumerate(game.position.cols) if not col)]
    elif resolved.dst_kind == CELL:
        first = next(c for c in CELL_LETTERS[: game.cells] if game.is_empty(c))
    else:
        return move
    if move[1] == first:
        return move
    planned = next(p for p, b in names.board.items() if b == move[1])
    names.swap(planned, first)
    return move[0] + first + move[2:]


def _still_wins(game: TableauGame, plan: TableauGame, rest: list[str], names: _Names) -> bool:
    """Whether ``rest`` of the solution, its moves of cards already home left out, wins from
    ``game`` (``plan``: the solver's position before ``rest``)."""
    game, plan, names = copy.deepcopy(game), copy.deepcopy(plan), copy.deepcopy(names)
    for move in rest:
        if game.is_won:
            return True
        cards = plan.resolve(move).cards
        plan.play(move)
        if all(game.foundation_counts()[c // 13] > c % 13 for c in cards):
            continue
        try:
            game.play(_into_first(game, names.move(move), names))
        except engine.IllegalMove:
            return False
    while not game.is_won and game.home_run():
        game.play(",".join(game.home_run()))
    return game.is_won


def _home_keeps(game: TableauGame, plan: TableauGame, rest: list[str], names: _Names) -> bool:
    """Whether pressing Home now (the solver's next move goes home) leaves ``rest`` winning."""
    trial = copy.deepcopy(game)
    trial.play(",".join(trial.home_run()))
    return _still_wins(trial, plan, rest, names)


def presses(code: str, solution: list[str]) -> list[Step]:
    """The steps that win ``code`` following ``solution`` with the board's controls."""
    plan = engine.new_game(code)
    game = engine.new_game(code)
    assert isinstance(plan, TableauGame) and isinstance(game, TableauGame)
    home_is_safe = isinstance(game, BakersGame)  # every card Home sends is (engine.solver)
    names = _Names()
    steps: list[Step] = []
    for i, planned in enumerate(solution):
        if game.is_won:
            break
        cards = plan.resolve(planned).cards
        plan.play(planned)
        if all(game.foundation_counts()[c // 13] > c % 13 for c in cards):
            continue  # already sent home by a Home press
        move = names.move(planned)
        resolved = game.resolve(move)
        rest = solution[i + 1 :]
        home = resolved.dst_kind == FOUNDATION and (home_is_safe or _home_keeps(game, plan, rest, names))
        if home or game.home_finishes():
            run = game.home_run()
            game.play(",".join(run))
            steps.append(Step("home", "", len(run)))
            continue
        move = _into_first(game, move, names)
        step = Step("place", move[0], 1) if _one_press(game, move) else Step("menu", move, 1)
        game.play(move)
        steps.append(step)
    while not game.is_won and game.home_run():
        run = game.home_run()
        game.play(",".join(run))
        steps.append(Step("home", "", len(run)))
    assert game.is_won, f"{code}: the steps did not win"
    return steps
