"""A solver's solution as a player would press it on the board: one press, Home, or the menu.

The solver sends cards home one at a time; Home sends every card that can go
at once, so some of the solver's later moves are of cards already home: by the
proof in ``engine.solver.search``, leaving them out still wins, so they are
skipped (their cards are tracked on a copy that follows the solver exactly).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import engine
from engine.bakers.notation import FOUNDATION


@dataclass(frozen=True)
class Step:
    kind: Literal["place", "home", "menu"]
    value: str  # the place pressed, or the notation chosen in the menu ("" for Home)
    moves: int  # moves it plays


def _one_press(game: engine.BakersGame, move: str) -> bool:
    try:
        return game.double_tap_target(move[0]) == move
    except engine.IllegalMove:
        return False


def presses(code: str, solution: list[str]) -> list[Step]:
    """The steps that win ``code`` following ``solution`` with the board's controls."""
    plan = engine.new_game(code)
    game = engine.new_game(code)
    assert isinstance(plan, engine.BakersGame) and isinstance(game, engine.BakersGame)
    steps: list[Step] = []
    for move in solution:
        if game.is_won:
            break
        cards = plan.resolve(move).cards
        plan.play(move)
        if all(game.foundation_counts()[c // 13] > c % 13 for c in cards):
            continue  # already sent home by a Home press
        resolved = game.resolve(move)
        if resolved.dst_kind == FOUNDATION or game.home_finishes():
            run = game.home_run()
            game.play(",".join(run))
            steps.append(Step("home", "", len(run)))
        elif _one_press(game, move):
            game.play(move)
            steps.append(Step("place", move[0], 1))
        else:
            game.play(move)
            steps.append(Step("menu", move, 1))
    while not game.is_won and game.home_run():
        run = game.home_run()
        game.play(",".join(run))
        steps.append(Step("home", "", len(run)))
    assert game.is_won, f"{code}: the steps did not win"
    return steps
