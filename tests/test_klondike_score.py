"""Klondike's score: Windows' standard scoring without time (``engine.klondike.rules``)."""

from __future__ import annotations

import pytest

from tests.klondike_boards import game_at


@pytest.mark.parametrize(
    ("piles", "down", "waste", "move", "points"),
    [
        (["8S"], 0, "7H", "w1", 5),  # waste to a pile
        ([], 0, "AS", "wh", 10),  # waste home
        (["AS"], 0, "", "1h", 10),  # pile home
        (["7D AS"], 1, "", "1h", 15),  # pile home, turning up a card
        (["7D 8S", "9H"], 1, "", "12", 5),  # pile to pile, turning up a card
        (["7D 8S", "9H"], 0, "", "12", 0),  # pile to pile
        (["6H", "6S"], 0, "", "hs1", -15),  # back from a foundation (5♠ home)
    ],
)
def test_each_move_scores_as_windows_standard_scoring_does(piles, down, waste, move, points):
    game = game_at(piles, waste=waste, down=[down, 0, 0, 0, 0, 0, 0])
    game._points = 100  # as if earned before: the floor at 0 stays out of the way
    assert game.play(move).points == points
    assert game.score == 100 + points


def test_the_score_never_shows_below_zero_and_the_floor_earns_nothing():
    game = game_at(["7C"], found=(13, 6, 13, 6))
    game.play("hh1")  # -15 from 0
    assert game.score == 0
    game.play("1h")  # +10: still -5 underneath
    assert game.score == 0
    for _ in range(5):
        game.play("hh1")
        game.play("1h")
    assert game.score == 0


def test_draw_one_pays_100_for_each_turn_of_the_waste():
    game = game_at([], stock="KS KH", found=(12, 12, 13, 13), draw=1)
    game._points = 250
    for _ in range(2):
        game.play("s")
    assert game.play("s").points == -100 and game.score == 150


def test_draw_three_turns_the_waste_over_free_three_times_then_pays_20():
    game = game_at([], stock="KS KH", found=(12, 12, 13, 13), draw=3)
    game._points = 100
    points = []
    for _ in range(6):
        game.play("s")  # turns both
        points.append(game.play("s").points)  # turns the waste over
    assert points == [0, 0, 0, -20, -20, -20] and game.score == 40


@pytest.mark.parametrize("notation", ["w1", "wh", "hh2"])
def test_undo_takes_back_a_moves_points(notation):
    game = game_at(["8S", "7C"], waste="7H", found=(7, 6, 13, 6))
    game._points = 50
    game.play(notation)
    assert game.score != 50
    game.undo()
    assert game.score == 50


def test_undo_keeps_the_five_points_of_a_card_turned_up_and_the_move_again_earns_none():
    game = game_at(["5C TD 9S 8H", "JC"], down=[1, 0, 0, 0, 0, 0, 0])
    assert game.play("12").points == 5
    game.undo()
    assert game.score == 5
    assert game.play("12").points == 0 and game.score == 5
