"""The Jeu du Boulanger solver: verdicts checked against the real fc-solve, solutions replayed
through the engine, budgets that never fake a proof, hints, par and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import engine
from engine.bakers import BakersGame, export_board, import_board
from engine.bakers.solving import settle
from engine.solver import (
    Hint,
    Refused,
    SolverError,
    SolveResult,
    hint,
    hint_code,
    par,
    shorten,
    solve,
    solve_code,
    to_notation,
)
from engine.solver.search import CELL, HOME, state_key
from tests import fcsolve

ROOT = Path(__file__).resolve().parent.parent
needs_fcsolve = pytest.mark.skipif(fcsolve.missing(), reason="fc-solve is not installed")

# A 4-cell deal 11 game that a player has lost: 5 undos lead back to a winnable position.
LOST_CODE = engine.code_for("bakers", 11, 4)
LOST_MOVES = [
    "2h", "6h", "8a", "7b", "34", "3c", "3d", "3h", "36", "b6", "3b", "3h", "53",
    "16", "b1", "3b", "d3", "b3", "7b", "7d", "b5", "8b", "27", "26", "b2", "3b",
]  # fmt: skip
LOST_UNDOS = 5


def bakers(deal: int, cells: int, moves: tuple[str, ...] = ()) -> BakersGame:
    game = engine.replay(engine.code_for("bakers", deal, cells), moves)
    assert isinstance(game, BakersGame)
    return game


def rule_score(moves: list[str], cards_home: int = 52) -> int:
    return 10 * cards_home + 5 * sum(1 for m in moves if m[0] in "abcd" and m[1] in "12345678")


# -- solutions replay to a win ---------------------------------------------------------------


@pytest.mark.parametrize(("deal", "cells"), [(1, 4), (3, 4), (860, 4), (20, 2), (6, 2), (168, 1), (2116, 1)])
def test_solution_replays_to_a_win(deal: int, cells: int) -> None:
    game = bakers(deal, cells)
    result = solve(game, time_limit=30)
    assert result.verdict == "winnable"
    assert result.nodes > 0
    won = engine.replay(game.code, result.moves)
    assert won.is_won
    assert won.score == rule_score(result.moves)
    assert game.move_count == 0, "solving must not change the game"


def test_solution_from_a_mid_game_position() -> None:
    game = bakers(860, 4, ("6h", "1a", "1b"))
    before = export_board(game.position)
    result = solve(game, time_limit=30)
    assert result.verdict == "winnable"
    assert export_board(game.position) == before
    for move in result.moves:
        game.play(move)
    assert game.is_won


def test_a_won_position_needs_no_move() -> None:
    game = bakers(3, 4)
    game.replay(solve(game).moves)
    result = solve(game)
    assert (result.verdict, result.moves) == ("winnable", [])


# -- verdicts against the real fc-solve (exact preset) ---------------------------------------

VERDICT_CASES = (
    [(d, 4) for d in range(1, 31)]
    + [(d, 2) for d in range(1, 31)]
    + [(d, 1) for d in range(1, 21)]
    + [(6, 2), (2116, 1), (168, 1)]  # solvable; fc-solve's fast preset misses 6 and 2116
)


@pytest.mark.fcsolve
@needs_fcsolve
def test_verdicts_match_fcsolve() -> None:
    seen = set()
    for deal, cells in VERDICT_CASES:
        game = bakers(deal, cells)
        theirs = fcsolve.run(export_board(game.position), cells, exact=True)
        ours = solve(game, time_limit=30)
        assert theirs.verdict in ("winnable", "lost")
        assert ours.verdict == theirs.verdict, f"deal {deal} with {cells} cells"
        seen.add((cells, ours.verdict))
    # both verdicts were exercised, for every cell count that has both in range
    assert {(4, "winnable"), (4, "lost"), (2, "winnable"), (2, "lost")} <= seen
    assert {(1, "winnable"), (1, "lost")} <= seen


@pytest.mark.fcsolve
@needs_fcsolve
def test_lost_mid_game_position_matches_fcsolve() -> None:
    game = engine.replay(LOST_CODE, LOST_MOVES)
    theirs = fcsolve.run(game.board_text(), 4, exact=True)
    assert theirs.verdict == "lost"
    assert solve(game).verdict == "lost"


def test_imported_board_with_cells_and_foundations() -> None:
    """Positions from board text (free cells held, cards home) solve and replay too."""
    game = bakers(860, 4, ("6h", "1a", "1b", "1c"))
    pos = import_board(game.board_text())
    result = solve(pos)
    assert result.verdict == "winnable"
    game.replay(result.moves)
    assert game.is_won


# -- budgets never fake a proof --------------------------------------------------------------


@pytest.mark.parametrize("deal", [2, 4, 29])
def test_tiny_budget_is_unknown_never_unsolvable(deal: int) -> None:
    game = bakers(deal, 4)
    full = solve(game, time_limit=30)
    assert full.verdict == "lost"
    assert full.nodes > 1000
    for limit in (0, 1, 10, 100, full.nodes // 2, full.nodes - 1):
        assert solve(game, node_limit=limit).verdict == "unknown", limit
    assert solve(game, time_limit=0).verdict == "unknown"
    assert solve(game, node_limit=full.nodes + 1).verdict == "lost"


def test_tiny_budget_on_a_solvable_deal() -> None:
    game = bakers(7, 4)
    needed = solve(game).nodes  # the search's own count, so the test follows its speed-ups
    assert needed > 5
    for limit in (0, 5, needed - 1):
        r = solve(game, node_limit=limit)
        assert r.verdict == "unknown"
        assert r.moves == []
    assert solve(game, node_limit=needed).verdict == "winnable"


# -- hints ------------------------------------------------------------------------------------


def test_hint_gives_a_legal_next_move_of_a_win() -> None:
    game = bakers(3, 4)
    for _ in range(15):
        h = hint(game, time_limit=10)
        assert h.status == "move"
        assert h.move == h.solution[0]
        assert h.move in game.legal_moves()
        game.play(h.move)
    game.replay(hint(game, time_limit=10).solution)
    assert game.is_won
    assert hint(game).status == "won"


def test_hint_on_a_lost_position_counts_the_undos() -> None:
    game = engine.replay(LOST_CODE, LOST_MOVES)
    h = hint(game, time_limit=10)
    assert (h.status, h.undos, h.move) == ("lost", LOST_UNDOS, None)
    # independently: exactly that many undos are needed
    back = engine.replay(LOST_CODE, LOST_MOVES)
    for _ in range(LOST_UNDOS - 1):
        back.undo()
    assert solve(back).verdict == "lost"
    back.undo()
    result = solve(back)
    assert result.verdict == "winnable"
    # the hint's solution wins from the mended position
    back.replay(h.solution)
    assert back.is_won
    assert game.moves == tuple(LOST_MOVES), "the hint must not change the game"


def test_hint_on_an_unwinnable_deal_says_no_undo_helps() -> None:
    game = bakers(2, 4, ("1a", "2b"))
    h = hint(game, time_limit=10)
    assert (h.status, h.undos, h.exhausted) == ("lost", None, True)


def test_hint_out_of_time_is_unknown() -> None:
    assert hint(bakers(29, 4), time_limit=0).status == "unknown"


# -- par, the pool function, the CLI ----------------------------------------------------------


def test_par() -> None:
    code = engine.code_for("bakers", 3, 4)
    assert par(code) == len(solve(engine.new_game(code)).moves)
    assert par(engine.code_for("bakers", 2, 4)) is None


def test_solve_code_runs_in_a_process_pool() -> None:
    code = engine.code_for("bakers", 860, 4)
    with ProcessPoolExecutor(1) as pool:
        out = pool.submit(solve_code, code, ["6h", "1a"], 30).result()
        bad = pool.submit(solve_code, "BK1-C4-AAAA", [], 1).result()
        illegal = pool.submit(solve_code, code, ["1h"], 1).result()
        lost = pool.submit(hint_code, LOST_CODE, LOST_MOVES, 10).result()
        bad_hint = pool.submit(hint_code, "XX1-AAAAAAA", [], 1).result()
    assert isinstance(lost, Hint) and (lost.status, lost.undos, lost.verdict) == ("lost", LOST_UNDOS, "lost")
    assert isinstance(bad_hint, Refused)
    assert isinstance(out, SolveResult) and out.verdict == "winnable"
    assert engine.replay(code, ["6h", "1a", *out.moves]).is_won
    assert isinstance(bad, Refused) and "7 characters" in bad.error
    assert isinstance(illegal, Refused) and "cannot go home" in illegal.error


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "solve", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


@pytest.mark.processes
def test_cli_solve_prints_one_json_object() -> None:
    proc = run_cli("BK1-C4-AAAAA24", "6h", "1a", "--time-limit", "20")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"verdict", "moves", "seconds"}
    assert out["verdict"] == "solvable"
    assert engine.replay("BK1-C4-AAAAA24", ["6h", "1a", *out["moves"]]).is_won


@pytest.mark.processes
def test_cli_solve_proves_unsolvable() -> None:
    proc = run_cli(engine.code_for("bakers", 2, 4))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "verdict": "unsolvable",
        "moves": [],
        "seconds": pytest.approx(0, abs=30),
    }


@pytest.mark.processes
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("BK1-C4-AAAAA2",), "bad game code"),
        (("BK1-C4-AAAAA24", "6h", "1h"), "move 2 ('1h') failed"),
        (("BK1-C4-AAAAA24", "--time-limit", "0"), "--time-limit"),
    ],
)
def test_cli_solve_refuses_bad_input(args: tuple[str, ...], message: str) -> None:
    proc = run_cli(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert message in proc.stderr


# -- the building blocks ----------------------------------------------------------------------


def test_settle_sends_every_playable_card_home_in_order() -> None:
    # column 1: 2♠ covered by A♠; column 2: 3♠ alone; A♥ in a cell.
    cols = [bytes([1, 0]), bytes([2]), b""]
    cells = [13]
    found = [0, 0, 0, 0]
    home = settle(cols, cells, found)
    assert home == [0, 1, 2, 13]
    assert found == [3, 1, 0, 0]
    assert cols == [b"", b"", b""] and cells == []


def test_settle_leaves_cards_that_cannot_go_home() -> None:
    cols = [bytes([0, 1]), bytes([14])]  # 2♠ covers A♠; 2♥ without A♥
    cells: list[int] = []
    found = [0, 0, 0, 0]
    assert settle(cols, cells, found) == []
    assert cols == [bytes([0, 1]), bytes([14])] and found == [0, 0, 0, 0]


def test_state_key_ignores_column_and_cell_order_but_not_suits() -> None:
    a = state_key([b"\x01\x02", b"", b"\x05"], [7, 3])
    b = state_key([b"\x05", b"\x01\x02", b""], [3, 7])
    c = state_key([b"\x0e\x0f", b"", b"\x05"], [7, 3])  # same ranks, hearts instead of spades
    assert a == b
    assert a != c


def test_to_notation_refuses_a_step_the_engine_would_not_play() -> None:
    pos = bakers(860, 4).position
    with pytest.raises(SolverError):
        to_notation(pos, [(51, HOME)])  # K♣ is not even a top card
    with pytest.raises(SolverError):
        to_notation(pos, [(pos.cols[0][-1], CELL)])  # legal, but does not end in a win


def test_shorten_uses_group_moves_and_keeps_the_win() -> None:
    game = bakers(1, 4)
    raw = solve(game, compact=False).moves
    short = shorten(game.position, raw)
    assert len(short) < len(raw)
    assert any("v" in m for m in short), "deal 1's shortcut includes a counted group move"
    won = engine.replay(game.code, short)
    assert won.is_won
    assert solve(game).moves == short


def test_each_games_search_rules_put_cards_where_the_engine_does() -> None:
    """``Rules.onto`` (the search's steps, and where ``shorten`` looks for group moves) lists
    exactly the engine's build rule ``FIT`` for both games: a card on a card the engine
    refuses would be a solver bug, one missed a shortcut or a state never searched. Each
    game hands its rules through its position class."""
    from engine.bakers.position import Position
    from engine.freecell.position import FreeCellPosition
    from engine.solver.rules import rules_of

    for cls in (Position, FreeCellPosition):
        rules, fit = rules_of(cls.deal(1, 4)), cls.FIT
        for card in range(52):
            assert sorted(rules.onto[card]) == [t for t in range(52) if fit[t][card] == 1], (rules.name, card)
