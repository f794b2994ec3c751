"""Home in one action: every card that can go home, as one batch that one undo takes back."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bakers import BakersGame
from engine.bakers.notation import FOUNDATION
from engine.solver import solve

CODE = "BK1-C4-AAAAA24"


def _random_position(seed: int) -> BakersGame:
    rng = random.Random(seed)
    game = engine.new_game(engine.code_for("bakers", rng.randrange(10_000), rng.choice((4, 2, 1))))
    for _ in range(rng.randrange(80)):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    return game


@pytest.mark.parametrize("seed", range(200))
def test_the_home_run_sends_every_card_that_can_go_and_one_undo_takes_it_back(seed):
    game = _random_position(seed)
    before = (game.board_text(), game.score, game.move_count, game.undo_depth)
    run = game.home_run()
    if not run:
        with pytest.raises(engine.IllegalMove) as info:
            game.play_home()
        assert info.value.reason == "nothing_home"
        assert (game.board_text(), game.score, game.move_count, game.undo_depth) == before
        return
    played = game.play_home()
    assert [m.notation for m in played] == run and all(m.dst_kind == FOUNDATION for m in played)
    assert not any(m.dst_kind == FOUNDATION for m in game.legal_move_objects())  # nothing left to send
    assert game.score == before[1] + 10 * len(run) and game.move_count == before[2] + len(run)
    assert game.moves[-1] == ",".join(run) and game.last_action == tuple(played)
    assert engine.replay(game.code, game.moves).board_text() == game.board_text()
    game.undo()
    assert (game.board_text(), game.score, game.move_count, game.undo_depth) == before


def test_finish_is_offered_only_when_the_home_run_wins():
    game = engine.new_game(CODE)
    assert not game.home_finishes()
    for move in solve(game.copy() if hasattr(game, "copy") else engine.new_game(CODE), time_limit=20).moves:
        if game.home_finishes():
            break
        game.play(move)
    assert game.home_finishes() and not game.is_won
    game.play_home()
    assert game.is_won and game.home_run() == []


def test_a_batch_is_all_or_nothing():
    game = engine.new_game(CODE)
    before = game.board_text()
    with pytest.raises(engine.IllegalMove):
        game.play("6h,zz")
    with pytest.raises(engine.IllegalMove):
        game.play("6h,undo")
    assert game.board_text() == before and game.moves == () and game.undo_depth == 0


def test_a_calculation_batch_that_fails_rolls_back_its_turned_cards():
    game = engine.new_game("CA1-AAAAA24")
    before = game.board_text()
    with pytest.raises(engine.IllegalMove):
        game.play("sw1,sw2,w9f1")
    assert game.board_text() == before and game.turned == engine.new_game("CA1-AAAAA24").turned


@pytest.mark.parametrize(
    "code", ["BK1-C4-AAAAA24", "BK1-C2-AAAAAGK", "BK1-C1-AAAAA7Q", "FC1-C4-MS11982", "FC1-C1-MS617"]
)
def test_every_place_s_double_tap_at_once_is_each_place_s_own(code):
    """``double_tap_targets`` (one listing of the moves, for the board's menu) says what
    ``double_tap_target`` says of each place, along random games."""
    rng = random.Random(code)
    game = engine.new_game(code)
    for _ in range(60):
        each = {}
        for place in game.places():
            try:
                each[place] = game.double_tap_target(place)
            except engine.IllegalMove:
                continue
        assert game.double_tap_targets() == each
        legal = game.legal_moves()
        if not legal:
            break
        game.play(rng.choice(legal))
