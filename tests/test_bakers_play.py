"""Tap, double tap, undo, score and the end of a Jeu du Boulanger game."""

import json
import subprocess
import sys

import pytest

import engine
from engine.bakers import BakersGame
from engine.bakers.position import Position
from engine.codes import parse_code
from tests.bakers_boards import build, cards


def game_at(pos, cells=4) -> BakersGame:
    game = BakersGame(parse_code(f"BK1-C{cells}-AAAAA24"))
    game.position = pos
    return game


def test_tap_sends_home_or_says_why():
    game = game_at(build({1: "AH", 2: "3H"}, held="AS"))
    assert game.tap("1").notation == "1h"
    assert game.tap("a").notation == "ah"
    with pytest.raises(engine.IllegalMove) as info:
        game.tap("2")
    assert info.value.reason == "foundation_order"
    with pytest.raises(engine.IllegalMove):
        game.tap("z")
    assert game.score == 20


def test_double_tap_prefers_foundation():
    game = game_at(build({1: "AH", 2: "2H"}, empty=(8,)))
    assert game.double_tap("1").notation == "1h"


def test_double_tap_then_fitting_column():
    game = game_at(build({1: "KD 7C", 2: "3H 8C"}, empty=(8,)))
    assert game.double_tap_target("1") == "12"


def test_double_tap_longest_column_on_a_tie_rule():
    # Only one card can fit on a given card in Baker's Game; make sure the fitting
    # column wins over empty columns and cells wherever it stands.
    game = game_at(build({6: "KS QS JS 8C", 3: "9C"}, empty=(1, 2)))
    assert game.double_tap_target("6") == "63"


def test_double_tap_then_leftmost_empty_column_then_leftmost_cell():
    game = game_at(build({1: "KH 5C", 2: "9D"}, empty=(4, 7), held="2S"))
    assert game.double_tap_target("1") == "14"
    game = game_at(build({1: "KH 5C"}, held="2S"))
    assert game.double_tap_target("1") == "1b"
    game = game_at(build({1: "KH 5C"}, held="2S 3S 4S 6S"))
    with pytest.raises(engine.IllegalMove) as info:
        game.double_tap("1")
    assert info.value.reason == "nowhere_to_go"


def test_double_tap_from_a_cell_never_goes_to_another_cell():
    game = game_at(build({1: "KH 5C"}, held="9D"))
    with pytest.raises(engine.IllegalMove):
        game.double_tap("a")
    game = game_at(build({1: "KH 5C"}, held="9D", empty=(3,)))
    assert game.double_tap_target("a") == "a3"


def test_undo_restores_position_and_score_exactly():
    game = game_at(build({1: "8S", 2: "AD"}, held="7S"))
    before = (game.board_text(), game.score)
    game.play("a1")
    game.play("2h")
    assert game.score == 15
    game.undo()
    game.undo()
    assert (game.board_text(), game.score) == before
    assert game.moves == ("a1", "2h", "undo", "undo")
    with pytest.raises(engine.IllegalMove) as info:
        game.undo()
    assert info.value.reason == "nothing_to_undo"


def test_undo_keeps_the_last_100_actions():
    game = game_at(build({1: "8S"}, held="7S"))
    for _ in range(60):
        game.play("a1")
        game.play("1a")
    assert game.undo_depth == 100 and game.score == 300
    for _ in range(100):
        game.undo()
    with pytest.raises(engine.IllegalMove):
        game.undo()
    assert game.move_count == 20 and game.score == 50


def test_group_move_is_one_undo():
    game = game_at(build({1: "KH 6C 5C 4C", 2: "7C"}))
    game.play("12")
    game.undo()
    assert game.position.cols[0] == cards("KH 6C 5C 4C")


def test_won_when_all_cards_home():
    home = {"S": 13, "H": 13, "D": 13, "C": 12}
    game = game_at(build({1: "KC"}, empty=(2, 3, 4, 5, 6, 7, 8), home=home))
    assert game.outcome is None
    game.play("1h")
    assert game.is_won and game.outcome.result == "won"
    assert game.legal_moves() == []
    with pytest.raises(engine.IllegalMove) as info:
        game.play("11")
    assert info.value.reason in {"game_over", "same_place"}


def lost_position():
    """Eight columns topped by kings and jacks, the only cell full: nothing can move."""
    tops = cards("KS KH KD KC JS JH JD JC")
    held = cards("9S")
    rest = [c for c in range(52) if c not in tops and c not in held]
    cols = [[*rest[i::8], tops[i]] for i in range(8)]
    return Position(cols, held, [0, 0, 0, 0])


def test_lost_when_no_legal_move_is_left():
    game = game_at(lost_position(), cells=1)
    assert game.legal_moves() == []
    assert game.is_lost and not game.is_won
    assert "no legal move" in game.outcome.reason


def test_not_lost_while_a_cell_is_free():
    pos = lost_position()
    pos.cells = [-1, -1]
    pos.cols[0].append(cards("9S")[0])
    game = game_at(pos, cells=2)
    assert not game.is_lost and game.outcome is None


def test_replay_gives_identical_game():
    game = engine.new_game("BK1-C4-AAAAA24")
    for move in ["6h", "1a", "1b", "1c", "undo", "1c", "1d", "1h", "1h", "64"]:
        game.play(move)
    again = engine.replay(game.code, game.moves)
    assert again.board_text() == game.board_text()
    assert (again.score, again.move_count, again.undo_depth) == (game.score, game.move_count, game.undo_depth)
    for _ in range(game.undo_depth):
        assert again.undo().notation == game.undo().notation


def test_replay_reports_which_action_failed():
    with pytest.raises(engine.IllegalMove) as info:
        engine.replay("BK1-C4-AAAAA24", ["6h", "6h", "zz"])
    assert info.value.params["index"] == 2


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.processes
def test_cli_deal_prints_fcsolve_board():
    out = run_cli("deal", "bk1-c4-aaaaa24")
    assert out.returncode == 0
    assert out.stdout.splitlines()[2] == ": 4C 2C AC 9C QS JS TH"


@pytest.mark.processes
def test_cli_play_prints_json():
    out = run_cli("play", "BK1-C4-AAAAA24", "6h", "1a", "undo", "1b")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["code"] == "BK1-C4-AAAAA24"
    assert (data["score"], data["moves"], data["won"], data["lost"]) == (10, 2, False, False)
    assert "Freecells: - TH - -" in data["board"]


@pytest.mark.processes
@pytest.mark.parametrize(("moves", "position"), [(["6h", "9x"], 2), (["6h", "6h"], 2), (["undo"], 1)])
def test_cli_play_refuses_bad_moves(moves, position):
    out = run_cli("play", "BK1-C4-AAAAA24", *moves)
    assert out.returncode == 2
    assert out.stdout == ""
    assert f"move {position} " in out.stderr


@pytest.mark.processes
def test_cli_bad_code():
    out = run_cli("play", "BK1-C5-AAAAA24")
    assert out.returncode == 2 and out.stdout == "" and "C4, C2 or C1" in out.stderr
