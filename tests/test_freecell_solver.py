"""The solver on FreeCell: verdicts against the real fc-solve (``-g freecell``, atomic moves,
exhaustive), Microsoft's #11982 proven unwinnable, every solution replayed by an independent
referee, hints that never return to a position, "lost: undo N", and new games' winnable deals.

The few-hundred-deal comparison is ``benchmarks/freecell.py`` (figures in docs/BENCHMARKS.md);
here a sample small enough for the suite, plus a slow-marked wider one."""

from __future__ import annotations

import random

import pytest

import engine
from engine.freecell import FreeCellGame, registered
from engine.freecell.winnable import winnable_freecell_deal
from engine.solver import (
    Hint,
    Refused,
    SolveResult,
    Standing,
    clear_plans,
    hint,
    hint_code,
    position_key,
    solve,
    solve_code,
    visited_keys,
)
from tests import fcsolve
from tests.freecell_validator import replays

needs_fcsolve = pytest.mark.skipif(fcsolve.missing(), reason="fc-solve is not installed")


@pytest.fixture(autouse=True)
def freecell():
    with registered():
        yield


def new(deal: int, cells: int, *, autoplay: bool = True) -> FreeCellGame:
    game = engine.new_game(f"FC1-C{cells}-MS{deal}")
    assert isinstance(game, FreeCellGame)
    game.autoplay = autoplay
    return game


def test_11982_is_proven_unwinnable_with_four_cells():
    result = solve(new(11982, 4), time_limit=None)
    assert result.verdict == "lost" and result.moves == []
    assert solve(new(11982, 4), time_limit=None, node_limit=1000).verdict == "unknown"


# Deals our solver decides in well under a second each, so the suite stays quick.
SAMPLE = {
    4: [1, 2, 3, 5, 7, 8, 13, 14, 16, 18, 19, 20],
    2: [2, 3, 4, 6, 8, 11, 14, 15],
    1: [1, 2, 3, 4, 6, 8, 9, 10],
}


def check_agrees(deal: int, cells: int) -> str:
    game = new(deal, cells)
    ours = solve(game, time_limit=60)
    theirs = fcsolve.run(game.board_text(), cells, game="freecell")
    assert ours.verdict == theirs.verdict, (deal, cells)
    if ours.winnable:
        board = game.board_text()
        assert replays(board, cells, ours.moves, autoplay=True), (deal, cells)
        written = solve(game.position, time_limit=60)
        assert replays(board, cells, written.moves, autoplay=False), (deal, cells)
        played = engine.replay(game.code, ())
        for move in ours.moves:
            played.play(move)  # with auto-play, as a player presses them
        assert played.is_won
    return ours.verdict


@pytest.mark.fcsolve
@needs_fcsolve
@pytest.mark.parametrize("cells", [4, 2, 1])
def test_verdicts_agree_with_fc_solve_and_solutions_replay(cells):
    verdicts = [check_agrees(deal, cells) for deal in SAMPLE[cells]]
    if cells < 4:
        assert {"winnable", "lost"} <= set(verdicts)


@pytest.mark.fcsolve
@needs_fcsolve
@pytest.mark.slow
def test_verdicts_agree_on_random_deals_at_three_cells():
    for deal in random.Random(3).sample(range(1, 1_000_001), 3):
        check_agrees(deal, 3)


def test_following_hints_wins_without_returning_to_a_position():
    clear_plans()
    for deal, cells, autoplay in [(3, 4, True), (8, 2, False)]:
        game = new(deal, cells, autoplay=autoplay)
        seen = {position_key(game.position)}
        while not game.is_won:
            advice = hint(game, time_limit=20)
            assert advice.status == "move" and advice.verdict == "winnable", advice
            game.play(advice.move)
            key = position_key(game.position)
            assert key not in seen
            seen.add(key)
            assert len(seen) < 400
        assert visited_keys(game) >= seen


def test_a_lost_position_says_how_many_undos_mend_it():
    rng = random.Random(7)
    game = new(2, 1)
    assert solve(game, time_limit=30).winnable
    while True:  # random play until the solver proves the position lost
        legal = game.legal_moves()
        assert legal, "stuck before losing"
        game.play(rng.choice(legal))
        advice = hint(game, time_limit=20)
        if advice.status == "lost":
            break
    assert advice.verdict == "lost" and advice.undos is not None and advice.undos >= 1
    back = engine.replay(game.code, game.moves)
    for _ in range(advice.undos):
        back.undo()
    for move in advice.solution:  # as pressed: auto-play on
        back.play(move)
    assert back.is_won
    assert hint(new(11982, 4), time_limit=20).exhausted  # lost from the deal: nothing to undo


def test_pool_functions_take_the_players_auto_play_setting():
    on = solve_code("FC1-C4-MS3", (), 20)
    off = solve_code("FC1-C4-MS3", (), 20, autoplay=False)
    assert isinstance(on, SolveResult) and isinstance(off, SolveResult)
    assert on.verdict == off.verdict == "winnable"
    assert len(off.moves) > len(on.moves)  # the cards auto-play sends are written out
    hinted = hint_code("FC1-C4-MS3", (), 20, autoplay=False)
    assert isinstance(hinted, Hint) and hinted.status == "move"
    assert isinstance(solve_code("FC1-C4-MS0"), Refused)


def test_a_new_game_without_a_number_is_a_deal_the_solver_won():
    for cells in (4, 1):
        deal = winnable_freecell_deal(cells, random.Random(cells))
        assert deal is not None and 1 <= deal <= 1_000_000
        assert solve(new(deal, cells), time_limit=60).winnable
    with pytest.raises(ValueError):
        winnable_freecell_deal(5)


@pytest.mark.parametrize("log", [["2a,1h,2h"], ["2a"], []])
def test_the_boards_verdict_works_with_auto_play_on_and_off(log):
    """The "can no longer be won" verdict (``standing_code``) of a FreeCell game, whether its
    moves auto-played (``2a,1h,2h``) or not (``2a``, aces left in play): a winnable line of
    every move written, which passes through the position a player reaches with auto-play."""
    from engine.solver import standing_code

    found = standing_code("FC1-C4-MS2", log, 10.0)
    assert isinstance(found, Standing) and found.verdict == "winnable" and found.line, found
    game = engine.replay("FC1-C4-MS2", log)
    game.autoplay = True
    hinted = hint_code("FC1-C4-MS2", log, 5.0)
    assert isinstance(hinted, Hint) and hinted.move is not None
    game.play(hinted.move)  # the hint's move, auto-played
    assert position_key(game.position) in found.line


@pytest.mark.slow
def test_the_second_search_makes_wins_shorter_and_they_replay():
    """``solve`` looks for a shorter win once it has one (the same search with FreeCell's
    price per step, ``Search(step_price=…)``): on the sample deals the wins are far shorter
    than the first search's, and each still replays."""
    short = plain = 0
    for deal in SAMPLE[4]:
        game = new(deal, 4)
        mine = solve(game, time_limit=60)
        short += len(mine.moves)
        plain += len(solve(game, time_limit=60, short=False).moves)
        assert replays(game.board_text(), 4, mine.moves, autoplay=True), deal
    assert short < 0.85 * plain, (short, plain)


@pytest.mark.parametrize("deal", [4, 7])
def test_a_hints_plan_is_played_with_the_games_own_auto_play_setting(deal):
    """A hint's plan as the player presses it: with auto-play off, every move (the moves home
    included) played without auto-play wins; with it on, the shorter plan played with auto-play
    wins, and the same plan played without auto-play does not (cards it leaves to auto-play
    stay, or a move is refused)."""
    clear_plans()
    off = hint(new(deal, 4, autoplay=False), time_limit=20)
    on = hint(new(deal, 4), time_limit=20)
    assert off.status == on.status == "move" and len(on.solution) < len(off.solution)
    assert (off.move, on.move) == (off.solution[0], on.solution[0])
    assert wins(deal, off.solution, autoplay=False) and wins(deal, on.solution, autoplay=True)
    assert not wins(deal, on.solution, autoplay=False)


def wins(deal: int, plan: list[str], *, autoplay: bool) -> bool:
    """Whether ``plan`` played move by move wins deal ``deal`` (4 cells) with that auto-play."""
    game = new(deal, 4, autoplay=autoplay)
    try:
        for move in plan:
            game.play(move)
    except engine.IllegalMove:
        return False
    return game.is_won


def fc_plan_keys(deal: int, moves: list[str]) -> list[bytes]:
    """The position after each of ``moves`` (every move written) from deal ``deal``, 4 cells."""
    game = new(deal, 4, autoplay=False)
    out = []
    for move in moves:
        game.play(move)
        out.append(position_key(game.position))
    assert game.is_won
    return out


@pytest.mark.parametrize("deal", [1, 3, 5, 7, 13])
def test_the_second_search_keeps_off_avoided_positions(deal: int) -> None:
    """``avoid`` holds for the second, shorter-minded search too (``Search(step_price=…)``): with
    every position of a win avoided but its last and those up to its first step (the
    cards the deal sends home at once are not steps: ``Search``'s ``avoid``), the win
    ``solve`` finds passes through none of them and is still the second search's (shorter
    than the first search's under the same ``avoid``)."""
    game = new(deal, 4, autoplay=False)
    plain = solve(game, time_limit=30, compact=False, autoplay=False)
    lead = next(i for i, move in enumerate(plain.moves) if not move.endswith("h"))
    avoid = set(fc_plan_keys(deal, plain.moves)[lead + 1 : -1])
    other = solve(game, time_limit=30, avoid=avoid, compact=False, autoplay=False)
    first = solve(game, time_limit=30, avoid=avoid, compact=False, autoplay=False, short=False)
    assert other.verdict == first.verdict == "winnable"
    assert not avoid & set(fc_plan_keys(deal, other.moves))
    assert len(other.moves) < len(first.moves)
