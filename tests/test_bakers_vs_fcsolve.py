"""Differential test of the engine against the real fc-solve (issue 2 §5).

Each deal is exported with ``export_board``, solved by
``fc-solve -g bakers_game --freecells-num C -sel -m -snx``, and fc-solve's
solution (group moves with ``v`` counts included) is replayed through the
engine: every move must be legal, the game won, and the score what the rules
give (+10 for each of the 52 cards home, +5 for each move from a free cell to
the tableau, counted here from fc-solve's own text).

The deal numbers are constants found once (solvable 2- and 1-cell deals are
rare: about 4% and 0.2%); fc-solve still runs on every one of them.
"""

from __future__ import annotations

import pytest

import engine
from engine.bakers import BakersGame, export_board
from tests import fcsolve

pytestmark = [
    pytest.mark.fcsolve,
    pytest.mark.skipif(fcsolve.missing(), reason="fc-solve (freecell-solver-bin) is not installed"),
]

DEALS_4 = [
    1,
    3,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
    15,
    16,
    17,
    18,
    19,
    20,
    21,
    22,
    27,
    28,
    31,
    32,
    33,
    34,
    36,
    37,
    38,
    39,
    40,
    41,
]
DEALS_2 = [20, 69, 75, 77]
DEALS_1 = [168, 1066, 1102, 1744]
CASES = [(d, 4) for d in DEALS_4] + [(d, 2) for d in DEALS_2] + [(d, 1) for d in DEALS_1]


def expected_score(moves: list[str]) -> int:
    from_cell_to_tableau = sum(1 for m in moves if m[0] in "abcd" and m[1] in "12345678")
    return 10 * 52 + 5 * from_cell_to_tableau


@pytest.mark.parametrize(("deal", "cells"), CASES, ids=[f"deal{d}-C{c}" for d, c in CASES])
def test_fcsolve_solution_replays_to_a_win(deal: int, cells: int) -> None:
    game = engine.new_game(engine.code_for("bakers", deal, cells))
    assert isinstance(game, BakersGame)
    result = fcsolve.run(export_board(game.position), cells, exact=False, moves=True)
    assert result.verdict == "winnable", f"fc-solve did not solve deal {deal} with {cells} cells"
    assert result.moves
    for i, move in enumerate(result.moves, 1):
        assert not game.is_won, f"won before fc-solve's move {i} ({move})"
        game.play(move)  # IllegalMove fails the test, naming the move
    assert game.is_won
    assert game.position.found == [13, 13, 13, 13]
    assert game.score == expected_score(result.moves)


def test_counted_group_moves_replay() -> None:
    """Deal 860 (SPEC's test vector): fc-solve's solution moves 9 cards into an empty column (``63v9``)."""
    game = engine.new_game("BK1-C4-AAAAA24")
    result = fcsolve.run(export_board(game.position), 4, exact=False, moves=True)
    counted = [m for m in result.moves if "v" in m and int(m.split("v")[1], 16) > 1]
    assert counted
    sizes = [len(game.play(m).cards) for m in result.moves]
    assert game.is_won
    assert max(sizes) > 1
    assert game.score == expected_score(result.moves)
