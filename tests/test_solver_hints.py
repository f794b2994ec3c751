"""Issue 13: Jeu du Boulanger hints make progress.

Following the hints (play the hint's move, or undo when it says so, through ``engine``
only) wins every stock deal tried without a position coming twice; the two games that
used to loop (``c8``/``8c``, ``b5``/``5b``) no longer do; hints read batched actions;
the search's ``avoid`` really keeps a solution off the positions it is given.
"""

from __future__ import annotations

import pytest

import engine
from engine.bakers import BakersGame, Position
from engine.bakers.deals import winnable_deals
from engine.solver import Hint, clear_plans, hint, hint_code, position_key, solve, visited_keys

HINT_SECONDS = 10.0  # generous: a hint that ran out of time would fail these tests, not hang them

# 20 four-cell, 20 two-cell and 10 one-cell deals: the first of each shipped stock list.
STOCK_50 = (
    [(d, 4) for d in winnable_deals(4)[:20]]
    + [(d, 2) for d in winnable_deals(2)[:20]]
    + [(d, 1) for d in winnable_deals(1)[:10]]
)
# Looped c8, 8c, c8 … (+5 points a loop) before issue 13.
LOOP_CODE = "BK1-C4-AAAAA24"
LOOP_MOVES = [
    "6h",
    "7a",
    "7h",
    "4b",
    "48",
    "3c",
    "8d",
    "87",
    "38",
    "d7",
    "3d",
    "31",
    "35",
    "b8",
    "4b",
    "41",
    "42",
    "45",
    "c4",
    "8c",
    "d4",
    "7d",
]
# Looped b5, 5b … from the deal, twenty hints in.
LOOP_DEAL = "BK1-C4-AAAAACJ"
# After LOOP_MOVES, these leave three cards to send home: the Home press plays 8h,2h,2h.
HOME_PREFIX = ["c8", "1c", "d7", "1d", "14", "d4", "8d", "c4", "8c", "81", "c1", "8c"]


def board(game: BakersGame) -> tuple[object, ...]:
    """The board as the player sees it: columns in order, cells by slot, foundations."""
    pos = game.position
    return tuple(map(tuple, pos.cols)), tuple(pos.cells), tuple(pos.found)


def follow_hints(
    code: str, moves: list[str] | tuple[str, ...] = (), *, reuse: bool = True, limit: int = 500
) -> BakersGame:
    """Play hints from a position until the game is won, checking that no board comes twice
    (the boards of the given moves included) and that each hint is legal."""
    game = engine.replay(code, moves)
    assert isinstance(game, BakersGame)
    seen = {board(game)}
    scratch = engine.new_game(code)
    for action in moves:
        scratch.play(action)
        seen.add(board(scratch))  # type: ignore[arg-type]
    for _ in range(limit):
        if game.is_won:
            return game
        advice = hint(game, HINT_SECONDS, reuse=reuse)
        if advice.status == "lost" and advice.undos:
            for _ in range(advice.undos):
                game.undo()
            continue
        assert advice.status == "move", (code, game.moves[-3:], advice)
        assert advice.move is not None and game.is_legal(advice.move)
        game.play(advice.move)
        now = board(game)
        assert now not in seen, f"{code}: the hint {advice.move} returned to an earlier position"
        seen.add(now)
    raise AssertionError(f"{code}: not won after {limit} hints")


@pytest.mark.parametrize(("deal", "cells"), STOCK_50)
def test_following_hints_from_the_deal_wins_without_a_repeat(deal: int, cells: int) -> None:
    """All 50 take about 10 s together (the plan a hint found is remembered, so following it
    costs one search a game), so none is marked slow."""
    assert follow_hints(engine.code_for("bakers", deal, cells)).is_won


def test_the_fifty_deals_mix_cell_counts() -> None:
    assert len(set(STOCK_50)) == 50 and {c for _, c in STOCK_50} == {4, 2, 1}


@pytest.mark.slow
@pytest.mark.parametrize(("deal", "cells"), [STOCK_50[0], STOCK_50[20], STOCK_50[40]])
def test_fresh_solves_every_hint_also_win_without_a_repeat(deal: int, cells: int) -> None:
    """Without the remembered plan (as the command line, one process a hint, runs): every
    hint is a new search from the position, with the positions visited excluded."""
    clear_plans()
    assert follow_hints(engine.code_for("bakers", deal, cells), reuse=False).is_won


def test_the_cell_column_ping_pong_is_gone() -> None:
    clear_plans()
    game = engine.replay(LOOP_CODE, LOOP_MOVES)
    first = hint(game, HINT_SECONDS, reuse=False)
    assert first.move == "c8"  # the same first move as before …
    game.play("c8")
    second = hint(game, HINT_SECONDS, reuse=False)
    assert second.status == "move" and second.move != "8c"  # … but no way back
    assert follow_hints(LOOP_CODE, LOOP_MOVES, reuse=False).is_won
    assert follow_hints(LOOP_CODE, LOOP_MOVES).is_won


def test_the_b5_5b_loop_is_gone() -> None:
    clear_plans()
    assert follow_hints(LOOP_DEAL, reuse=False).is_won
    assert follow_hints(LOOP_DEAL).is_won


def test_a_hint_never_leads_back_to_an_undone_position() -> None:
    """Positions of lines undone count as visited too: play the hint's move and undo it, and
    the next hint takes another way (while there is one that wins)."""
    clear_plans()
    game = engine.new_game(engine.code_for("bakers", 1, 4))
    assert isinstance(game, BakersGame)
    given = []
    for _ in range(3):
        advice = hint(game, HINT_SECONDS)
        assert advice.status == "move" and advice.move not in given
        given.append(advice.move)
        game.play(advice.move or "")
        game.undo()
    for move in given:
        after = engine.new_game(game.code)
        after.play(move or "")
        assert position_key(after.position) in visited_keys(game)


def test_when_every_move_revisits_the_hint_still_shows_the_win() -> None:
    """After ``c8`` and an undo, both legal moves (``c8``: redo it, ``d7``: take back ``7d``)
    lead back to positions the game has been in, and both still win: the hint gives one of
    them, with a plan that wins from here, rather than hide the win. (Which one is the plain
    search's first move, so it follows the search's order; the plan is what must hold.)"""
    game = engine.replay(LOOP_CODE, [*LOOP_MOVES, "c8", "undo"])
    assert isinstance(game, BakersGame)
    assert sorted(game.legal_moves()) == ["c8", "d7"]
    seen = visited_keys(game)
    for move in ("c8", "d7"):
        after = engine.replay(game.code, [*game.moves, move])
        assert position_key(after.position) in seen
    advice = hint(game, HINT_SECONDS, reuse=False)
    assert (advice.status, advice.verdict) == ("move", "winnable")
    assert advice.move in ("c8", "d7") and advice.solution[0] == advice.move
    assert engine.replay(game.code, [*game.moves, *advice.solution]).is_won


# -- batched actions in the log -------------------------------------------------------------


def test_replay_and_hint_read_batched_actions() -> None:
    """A Home press is one action ``6h,ah,…``: replay rebuilds it, the history counts the
    positions inside it, and the hint plays on from it (and across the CLI)."""
    game = engine.replay(LOOP_CODE, [*LOOP_MOVES, *HOME_PREFIX])
    assert isinstance(game, BakersGame)
    run = game.home_run()
    assert run == ["8h", "2h", "2h"]
    game.play_home()
    batch = game.moves[-1]
    assert batch == ",".join(run)
    again = engine.replay(game.code, game.moves)
    assert board(again) == board(game) and again.score == game.score and again.undo_depth == game.undo_depth
    keys = visited_keys(again)
    inside = engine.replay(game.code, game.moves[:-1])
    for move in run:
        inside.play(move)
        assert position_key(inside.position) in keys
    advice = hint(again, HINT_SECONDS, reuse=False)
    assert advice.status == "move" and again.is_legal(advice.move or "")
    found = hint_code(game.code, game.moves, HINT_SECONDS)
    assert isinstance(found, Hint) and (found.status, found.verdict) == ("move", "winnable")
    assert follow_hints(game.code, game.moves).is_won
    # undo takes the whole batch back; the hint after it still avoids the batch's positions
    again.undo()
    advice = hint(again, HINT_SECONDS, reuse=False)
    assert advice.status == "move"
    after = engine.replay(again.code, again.moves)
    after.play(advice.move or "")
    assert position_key(after.position) not in visited_keys(again)


# -- the search's avoid set ---------------------------------------------------------------


def plan_keys(pos: Position, moves: list[str]) -> list[bytes]:
    game = engine.new_game(engine.code_for("bakers", 1, pos.num_cells))
    assert isinstance(game, BakersGame)
    game.position = pos.copy()
    out = []
    for move in moves:
        game.play(move)
        out.append(position_key(game.position))
    assert game.is_won
    return out


@pytest.mark.parametrize(("deal", "cells"), [(1, 4), (3, 4), (75, 2)])
def test_a_solution_avoiding_positions_passes_through_none_of_them(deal: int, cells: int) -> None:
    """Avoid every position of the plain solution but the last (cards sent home one by one
    included): the new solution wins without touching any of them. (With two cells a plan
    may pass a pair of positions every win needs, as deal 20's does: see the next test.)"""
    game = engine.new_game(engine.code_for("bakers", deal, cells))
    assert isinstance(game, BakersGame)
    plain = solve(game, time_limit=30, compact=False)
    keys = plan_keys(game.position, plain.moves)
    avoid = set(keys[1:-1])  # the first step's position stays open (nothing else may be)
    # some of them are passed on the way as several cards go home after one step
    assert any(
        a.endswith("h") and b.endswith("h") and not c.endswith("h")
        for c, a, b in zip(plain.moves, plain.moves[1:], plain.moves[2:], strict=False)
    )
    other = solve(game, time_limit=30, avoid=avoid, compact=False)
    assert other.verdict == "winnable"
    assert not avoid & set(plan_keys(game.position, other.moves))


def test_a_pair_every_win_passes_is_unsolvable_as_a_plain_search_agrees() -> None:
    """Deal 20 with two cells: every win passes the position after ``3a 3b 37 36`` or the one
    after ``3a 3b 37 36 24``. The search avoiding both says unsolvable, and so does a plain
    breadth-first walk of every engine move (group moves included, nothing sent home by
    itself) that never enters them: the verdict is the rules', not the search's."""
    code = engine.code_for("bakers", 20, 2)
    game = engine.new_game(code)
    assert isinstance(game, BakersGame)
    prefix = ["3a", "3b", "37", "36", "24"]
    avoid = {position_key(engine.replay(code, prefix[:n]).position) for n in (4, 5)}
    assert solve(game, time_limit=30, avoid=avoid, compact=False).verdict == "lost"
    for key in avoid:  # either one alone leaves a way round
        assert solve(game, time_limit=30, avoid={key}, compact=False).verdict == "winnable"
    seen = {position_key(game.position)}
    todo = [game.position.copy()]
    while todo:
        pos = todo.pop()
        assert not pos.is_won()
        for move in pos.legal_moves():
            after = pos.copy()
            after.apply(move)
            key = position_key(after)
            if key not in seen and key not in avoid:
                seen.add(key)
                todo.append(after)
    assert len(seen) < 5000  # the walk ended: the deal is small once the pair is closed


def test_avoiding_every_way_out_is_unsolvable_not_a_fake_win() -> None:
    game = engine.new_game(engine.code_for("bakers", 3, 4))
    assert isinstance(game, BakersGame)
    pos = game.position
    firsts = set()
    for move in pos.legal_moves():
        after = pos.copy()
        after.apply(move)
        firsts.add(position_key(after))
    result = solve(game, time_limit=30, avoid=firsts, compact=False)
    # single-card steps reach only those positions first (group moves are shortcuts of them)
    assert result.verdict == "lost"
