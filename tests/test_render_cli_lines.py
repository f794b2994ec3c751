"""``python -m renderer`` reads moves as ``python -m engine play`` does: the solver's own lines
draw at every step (FreeCell's auto-play included), and bad input is one line in the user's words.

Each deal's line is what ``python -m engine solve`` prints; the picture after each prefix is
the renderer command line's file, compared with the picture of the position the engine's
``play`` reaches (its board text checked against ``python -m engine play``'s JSON)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
import renderer
from engine.__main__ import run as engine_run
from renderer.__main__ import main as renderer_main

ROOT = Path(__file__).resolve().parents[1]
# Four FreeCell deals at 4, 3, 2 and 1 cells, and two Jeu du Boulanger deals at 4 cells.
DEALS = ["FC1-C4-MS1", "FC1-C3-MS164", "FC1-C2-MS5", "FC1-C1-MS2", "BK1-C4-AAAAA24", "BK1-C4-AAAAAIS"]


def solution(code: str) -> list[str]:
    answer = json.loads(engine_run(["solve", code, "--time-limit", "20"]))
    assert answer["verdict"] == "solvable", code
    moves: list[str] = answer["moves"]
    return moves


@pytest.mark.parametrize("code", DEALS)
def test_the_renderer_draws_every_prefix_of_the_solvers_line(code: str, tmp_path: Path) -> None:
    line = solution(code)
    game = engine.new_game(code)
    out = tmp_path / "board.png"
    for k in range(len(line) + 1):
        if k:
            game.play(line[k - 1])  # as a player presses it: auto-play rides along
        assert renderer_main([code, *line[:k], "-o", str(out)]) == 0, (code, k)
        assert out.read_bytes() == renderer.render_png(game), (code, k)
        if k % 10 == 0 or k == len(line):  # the engine's own command line reaches this position
            played = json.loads(engine_run(["play", code, *line[:k]]))
            assert played["board"] == game.board_text() and played["moves"] == game.move_count
    assert game.is_won and game.cards_home == 52


@pytest.mark.processes
def test_the_ninth_move_of_ms1_that_used_to_fail(tmp_path: Path) -> None:
    """Issue 40: without auto-play the 9th move (b6) found J♥ on A♣; a fresh process, as typed."""
    out = tmp_path / "ms1.png"
    line = solution("FC1-C4-MS1")[:9]
    done = subprocess.run(
        [sys.executable, "-m", "renderer", "FC1-C4-MS1", *line, "-o", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    game = engine.new_game("FC1-C4-MS1")
    for move in line:
        game.play(move)
    assert out.read_bytes() == renderer.render_png(game)


def test_a_replay_of_an_auto_played_line_ends_where_the_board_does(tmp_path: Path) -> None:
    line = solution("FC1-C4-MS1")[:12]
    board, replay = tmp_path / "b.png", tmp_path / "r.png"
    assert renderer_main(["FC1-C4-MS1", *line, "-o", str(board), "--replay", str(replay)]) == 0
    assert replay.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and board.stat().st_size > 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["FC1-C4-MS1", "--highlight", "z", "-o", "x.png"],
            "--highlight 'z' is not a place to select: name a column (1 to 8) or a free cell (a, b, c, d)",
        ),
        (["FC1-C2-MS1", "--highlight", "c", "-o", "x.png"], "a free cell (a, b)"),
        (
            ["CA1-AAAAA24", "--highlight", "w9", "-o", "x.png"],
            "name the turned card (s) or a waste pile (w1 to w4)",
        ),
        (
            ["FC1-C4-MS1", "-o", "y.gif"],
            "-o y.gif: a board is written as PNG; give a file name ending in .png",
        ),
        (["FC1-C4-MS1", "-o", "y"], "give a file name ending in .png"),
        (
            ["FC1-C4-MS1", "--replay", "y.bmp"],
            "--replay y.bmp: give a file name ending in .gif, .png or .apng",
        ),
        (["FC1-C4-MS1", "9z", "-o", "x.png"], "move 1 ('9z') failed"),
        (["FC1-C4-MS1"], "give -o board.png and/or --replay out.gif"),
        (["FC1-C4-MS1", "-o", "missing/x.png"], "cannot write missing/x.png: No such file or directory"),
    ],
)
def test_bad_input_is_one_line_in_the_users_words_and_nothing_is_written(
    args: list[str],
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert renderer_main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and words in err, err
    assert "('c'" not in err and "('w'" not in err  # no internals
    assert list(tmp_path.iterdir()) == []
