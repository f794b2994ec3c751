"""Animated replays and the ``python -m renderer`` command line."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import engine
import renderer
from tests.actions import random_actions

BK = "BK1-C4-AAAAA24"
CA = "CA1-AAAAA24"
ROOT = Path(__file__).resolve().parents[1]


def test_a_200_action_gif_has_one_frame_per_action_and_stays_under_8_mib() -> None:
    actions = random_actions(BK, 200)
    assert len(actions) == 200 and "undo" in actions
    data = renderer.render_replay(BK, actions)
    assert len(data) <= 8 * 2**20
    im = Image.open(io.BytesIO(data))
    assert (im.format, im.size, im.n_frames) == (
        "GIF",
        (renderer.WIDTH, renderer.games.tableau.FULL_HEIGHT),
        201,
    )
    for frame in (0, 1, 100, 200):  # every frame shows the board after that many actions
        im.seek(frame)
        board = Image.open(io.BytesIO(renderer.render_png(engine.replay(BK, actions[:frame]))))
        shown = im.convert("RGB")  # frames are the tallest board's height; boards are cropped
        assert shown.crop((0, 0, *board.size)).tobytes() == board.convert("RGB").tobytes()
        assert shown.crop((0, board.height, shown.width, shown.height)).getcolors() == [
            (shown.width * (shown.height - board.height), renderer.layout.FELT)
        ]


def test_calculation_replay_as_animated_png() -> None:
    actions = random_actions(CA, 60)
    data = renderer.render_replay(CA, actions, fmt="png")
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG" and im.is_animated and im.n_frames == len(actions) + 1


def test_replay_of_an_illegal_action_says_which_one() -> None:
    with pytest.raises(engine.IllegalMove, match=r"action 2 \('1h'\) failed"):
        renderer.render_replay(BK, ["1a", "1h"])


@pytest.mark.parametrize(
    ("kwargs", "message"), [({"fmt": "webp"}, "replay format"), ({"labels": {"nope": "x"}}, "unknown label")]
)
def test_replay_refuses_bad_options(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        renderer.render_replay(BK, ["1a"], **kwargs)


def test_replay_refuses_a_bad_code() -> None:
    with pytest.raises(engine.CodeError):
        renderer.render_replay("BK1-C9-AAAAA24", [])


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "renderer", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


@pytest.mark.processes
def test_cli_writes_the_board_and_a_replay(tmp_path: Path) -> None:
    board, replay = tmp_path / "board.png", tmp_path / "replay.gif"
    done = run_cli(BK, "1a", "2b", "undo", "-o", str(board), "--highlight", "a", "--replay", str(replay))
    assert done.returncode == 0, done.stderr
    expected = renderer.render_png(engine.replay(BK, ["1a", "2b", "undo"]), highlight="a")
    assert board.read_bytes() == expected
    assert Image.open(replay).n_frames == 4


@pytest.mark.processes
def test_cli_draws_the_four_colour_deck(tmp_path: Path) -> None:
    board = tmp_path / "board.png"
    done = run_cli(BK, "1a", "-o", str(board), "--deck", "four")
    assert done.returncode == 0, done.stderr
    assert board.read_bytes() == renderer.render_png(engine.replay(BK, ["1a"]), deck="four")


@pytest.mark.processes
@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((BK.replace("C4", "C9"), "-o", "x.png"), "free-cell part"),
        ((BK, "1z", "-o", "x.png"), "1z"),
        ((CA, "-o", "x.png", "--highlight", "q"), "not a source"),
    ],
)
def test_cli_reports_bad_input_and_writes_nothing(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    args = tuple(str(tmp_path / a) if a == "x.png" else a for a in args)
    done = run_cli(*args)
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.startswith("error:")
    assert not (tmp_path / "x.png").exists()
