"""FreeCell in the engine: Microsoft's deals against the real make-microsoft-freecell-board,
codes, the opposite-colour rule against an independent referee, safe auto-play as part of a
move's action, score, undo, and the command line."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys

import pytest

import engine
from engine.bakers import BakersGame
from engine.freecell import FreeCellGame, ms_deck, registered, safe_home
from tests.freecell_validator import Referee

MAKE_BOARD = shutil.which("make-microsoft-freecell-board") or "/usr/bin/make-microsoft-freecell-board"
needs_board_maker = pytest.mark.skipif(
    shutil.which("make-microsoft-freecell-board") is None, reason="freecell-solver-bin is not installed"
)


@pytest.fixture(autouse=True)
def freecell():
    with registered():
        yield


def microsoft(deal: int) -> list[str]:
    out = subprocess.run([MAKE_BOARD, "-t", str(deal)], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def columns(board: str) -> list[str]:
    return [line[2:] for line in board.splitlines() if line.startswith(": ")]


@pytest.mark.fcsolve
@pytest.mark.processes
@needs_board_maker
@pytest.mark.parametrize("deal", [1, 617, 11982, 1_000_000])
def test_engine_deal_prints_microsofts_deal(deal):
    out = subprocess.run(
        [sys.executable, "-m", "engine", "deal", f"FC1-C4-MS{deal}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("Foundations: S-0 H-0 D-0 C-0\nFreecells: - - - -\n")
    assert columns(out) == microsoft(deal)


@pytest.mark.fcsolve
@needs_board_maker
def test_three_hundred_random_deals_match_microsoft():
    rng = random.Random(22)
    for deal in rng.sample(range(1, 1_000_001), 300):
        assert columns(
            engine.new_game(f"FC1-C{rng.choice([4, 3, 2, 1])}-MS{deal}").board_text()
        ) == microsoft(deal), deal


def test_a_deal_is_52_cards_in_columns_of_7_and_6():
    game = engine.new_game("FC1-C3-MS11982")
    assert [len(c) for c in game.position.cols] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert sorted(ms_deck(11982)) == list(range(52))
    assert game.places() == (*"12345678", "a", "b", "c")
    assert "Freecells: - - -\n" in game.board_text()


# -- codes ---------------------------------------------------------------------------------------
def test_codes_parse_and_print():
    code = engine.parse_code(" fc1-c2-ms11982 ")
    assert (code.kind, code.version, code.deal, code.cells) == ("freecell", 1, 11982, 2)
    assert str(code) == "FC1-C2-MS11982"
    assert engine.code_for("freecell", 1_000_000, 1) == "FC1-C1-MS1000000"
    assert engine.code_for("freecell", 7) == "FC1-C4-MS7"
    assert isinstance(engine.new_game("FC1-C4-MS1"), FreeCellGame)


@pytest.mark.parametrize(
    ("text", "part", "words"),
    [
        ("FC1-C5-MS1", "cells", "the free-cell part 'C5' must be C4, C3, C2 or C1"),
        ("FC1-C0-MS1", "cells", "must be C4, C3, C2 or C1"),
        ("FC1-C4-MS0", "deal_range", "Microsoft FreeCell's deals, MS1 to MS1000000"),
        ("FC1-C4-MS1000001", "deal_range", "MS1 to MS1000000"),
        ("FC1-C4-MS011982", "deal_range", "no leading zeros"),
        ("FC1-C4-AAAAA24", "deal_number", "must be MS and a deal number, like MS1"),
        ("FC1-C4-MS12a", "deal_number", "must be MS and a deal number"),
        ("FC1-C4-MS", "deal_number", "must be MS and a deal number"),
        ("FC2-C4-MS1", "version", "unknown version '2'"),
        ("FC1-MS1", "length", "must have three parts, like FC1-C4-MS1"),
    ],
)
def test_bad_codes_say_which_part_is_wrong(text, part, words):
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code(text)
    assert info.value.part == part and words in str(info.value)


def test_bakers_codes_are_unchanged_beside_freecell():
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("BK1-C3-AAAAA24")
    assert str(info.value) == "the free-cell part 'C3' must be C4, C2 or C1"
    with pytest.raises(ValueError, match="free cells must be 4, 2 or 1, not 3"):
        engine.code_for("bakers", 5, 3)
    assert engine.code_for("bakers", 860) == "BK1-C4-AAAAA24"


def test_a_number_is_a_freecell_code_when_starting_freecell():
    assert str(engine.parse_code("11982", kind="freecell")) == "FC1-C4-MS11982"
    assert str(engine.parse_code(" #617 ", kind="freecell", cells=1)) == "FC1-C1-MS617"
    assert str(engine.parse_code("# 42", kind="freecell", cells=3)) == "FC1-C3-MS42"
    assert str(engine.parse_code("FC1-C2-MS5", kind="freecell", cells=4)) == "FC1-C2-MS5"  # a full code wins
    assert engine.parse_code("BK1-C4-AAAAA24", kind="freecell").kind == "bakers"  # the caller checks the kind
    for bad, part in [("#0", "deal_range"), ("1000001", "deal_range"), ("#x", "game"), ("", "game")]:
        with pytest.raises(engine.CodeError) as info:
            engine.parse_code(bad, kind="freecell")
        assert info.value.part == part, bad
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("12", kind="freecell", cells=5)
    assert info.value.part == "cells"
    with pytest.raises(engine.CodeError):  # Baker's numbers are not its codes
        engine.parse_code("860", kind="bakers")
    with pytest.raises(engine.CodeError):  # without the kind a number is no code
        engine.parse_code("11982")


def test_unregistered_freecell_leaves_the_other_games_alone():
    """The bot sees no FreeCell until it registers the game (its front comes later)."""
    order = list(engine.codes.SPECS)
    engine.registry.unregister("freecell")
    try:
        assert "freecell" not in engine.GAMES
        with pytest.raises(engine.CodeError) as info:
            engine.parse_code("FC1-C4-MS1")
        assert str(info.value) == (
            "'FC1-C4-MS1' is not a game code: it must start with BK (Jeu du Boulanger), CA (Calculation)"
            " or KL (Klondike)"
        )
    finally:
        engine.freecell.register_game()
        for kind in order:  # in the records' order again: messages list the games in it
            engine.codes.SPECS[kind] = engine.codes.SPECS.pop(kind)


# -- the rule ---------------------------------------------------------------------------------
def test_a_card_goes_on_the_next_higher_card_of_the_other_colour():
    game = engine.new_game("FC1-C4-MS1")
    game.autoplay = False
    # deal 1: column 5 ends 8H 6C, column 2 ends 9C; column 4 ends 6H, column 1 ends 6S
    assert not game.is_legal("52")  # 6♣ on 9♣
    game.play("5a")
    assert game.is_legal("52")  # 8♥ on 9♣
    assert not game.is_legal("41")  # 6♥ on 6♠
    with pytest.raises(engine.IllegalMove) as info:
        game.play("14")  # 6♠ on 6♥
    assert info.value.reason == "no_fit_colour"  # its own words: the shared no_fit names the same suit
    assert "a card goes on the next higher card of the opposite colour (a red 7)" in str(info.value)


def test_listing_matches_an_independent_referee_over_random_play():
    rng = random.Random(2222)
    checked = 0
    for _ in range(40):
        cells = rng.choice([4, 3, 2, 1])
        game = engine.new_game(f"FC1-C{cells}-MS{rng.randint(1, 1_000_000)}")
        game.autoplay = rng.random() < 0.5
        for _ in range(rng.randint(5, 60)):
            referee = Referee(game.board_text(), cells)
            assert set(game.legal_moves()) == referee.legal(), game.board_text()
            checked += 1
            legal = game.legal_moves()
            if not legal:
                break
            home = [m for m in legal if m.endswith("h")]
            move = rng.choice(home if home and rng.random() < 0.5 else legal)
            before = game.board_text()
            game.play(move)
            referee = Referee(before, cells)
            referee.play(move, autoplay=game.autoplay)
            assert Referee(game.board_text(), cells).__dict__ == referee.__dict__
    assert checked > 500


@pytest.mark.parametrize(
    ("free", "empty", "to_empty", "most"),
    [
        (0, 0, False, 1),
        (4, 1, False, 10),
        (4, 1, True, 5),
        (2, 2, False, 12),
        (2, 2, True, 6),
        (1, 0, False, 2),
    ],
)
def test_group_moves_follow_the_capacity_table(free, empty, to_empty, most):
    game = engine.new_game("FC1-C4-MS1")
    pos = game.position
    pos.cells = [-1] * free + [0] * (4 - free)  # cells held by some card; only the count matters
    for i in range(empty):
        pos.cols[7 - i] = []
    assert pos.capacity(to_empty) == most


# -- auto-play, score, undo -----------------------------------------------------------------------
def test_safe_auto_play_is_the_classic_rule():
    found = [0, 0, 0, 0]  # S H D C
    assert safe_home(0, found)  # an ace always
    assert not safe_home(14, [0, 1, 0, 0])  # 2♥ waits for both black aces
    assert safe_home(14, [1, 1, 0, 1])
    assert not safe_home(4, [4, 3, 4, 4])  # 5♠ needs 4♥ and 4♦ home: only 3♥ is
    assert safe_home(4, [4, 4, 4, 0])  # clubs, the same colour, do not matter
    assert not safe_home(5, [4, 4, 4, 4])  # not the next spade


def test_auto_play_is_part_of_the_moves_action_and_one_undo_takes_it_back():
    game = engine.new_game("FC1-C4-MS1")
    assert isinstance(game, FreeCellGame) and game.autoplay
    # Deal 1: column 6 is 7H QC AS AC 2C 3D.
    game.play("6a")  # 3D to a cell
    game.play("6b")  # 2C to a cell: AC goes home by itself, then AS; 2C waits for the red aces
    assert game.moves[-1] == "6b,6h,6h"
    assert game.foundation_counts() == (1, 0, 0, 1)
    assert game.score == 20 and game.move_count == 4
    game.undo()
    assert game.foundation_counts() == (0, 0, 0, 0) and game.score == 0 and game.move_count == 1
    assert game.moves[-1] == "undo"


def test_auto_play_can_be_turned_off_and_a_replay_plays_the_log_as_written():
    game = engine.new_game("FC1-C4-MS1")
    game.autoplay = False
    game.play("6a")
    game.play("6b")
    assert game.moves == ("6a", "6b") and game.foundation_counts() == (0, 0, 0, 0)
    again = engine.replay("FC1-C4-MS1", game.moves)  # a game whose player has auto-play on
    assert isinstance(again, FreeCellGame) and again.autoplay
    assert again.position == game.position
    with_auto = engine.replay("FC1-C4-MS1", ["6a", "6b,6h,6h"])
    assert with_auto.foundation_counts() == (1, 0, 0, 1)


def test_taps_play_with_auto_play_too():
    game = engine.new_game("FC1-C4-MS1")
    game.play("6a")
    game.double_tap("6")  # 2C to the next free cell, then auto-play
    assert game.foundation_counts() == (1, 0, 0, 1)
    assert game.last_action[0].notation == "6b"


def test_score_and_ranking_keep_jeu_du_boulanger_s_rules():
    assert FreeCellGame.rank_key is not None
    finish = engine.Finish("won", 520, 100, home=52, seconds=60)
    assert FreeCellGame.rank_key(finish) == BakersGame.rank_key(finish)
    lost = engine.Finish("lost", 100, 40, home=10, seconds=60)
    assert FreeCellGame.rank_key(lost) == BakersGame.rank_key(lost)


# -- command line -----------------------------------------------------------------------------
def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, check=False
    )


@pytest.mark.processes
def test_command_line_solve_play_and_hint():
    solved = run_cli("solve", "FC1-C4-MS3", "--time-limit", "20")
    assert solved.returncode == 0, solved.stderr
    result = json.loads(solved.stdout)
    assert result["verdict"] == "solvable"
    played = run_cli("play", "FC1-C4-MS3", *result["moves"])
    assert played.returncode == 0 and json.loads(played.stdout)["won"] is True
    hinted = json.loads(run_cli("hint", "FC1-C4-MS3", "--time-limit", "20").stdout)
    assert hinted["winnable"] is True and hinted["move"]
    bad = run_cli("deal", "FC1-C4-MS0")
    assert bad.returncode == 2 and "MS1 to MS1000000" in bad.stderr and bad.stdout == ""
