"""``python -m bot console``: the same command layer without Discord, plain text, pictures
saved as files when asked (``--png``: every board; ``board --png``: that one)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

pytestmark = pytest.mark.processes  # every test here starts the bot or another program (tests/conftest.py)

REPO = Path(__file__).resolve().parent.parent


def test_console_with_png_plays_and_saves_each_board(tmp_path):
    script = "\n".join(
        [
            "new boulanger BK1-C4-AAAAA24",
            "press home",
            "press home",  # nothing left to send home: refused, nothing saved
            "move 8a",
            "move 12",  # illegal: refused, nothing saved
            "undo",
            "new calculation CA1-AAAAA24",
            "press f3",
            "quit",
        ]
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--db",
            str(tmp_path / "c.sqlite3"),
            "--out",
            str(tmp_path / "out"),
            "--png",
        ],
        cwd=REPO,
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "A♦ from column 6 home" in out and "Score 10" in out
    assert "J♦ from column 8 to free cell a" in out
    assert "! 10♥ cannot go on 3♠" in out
    assert "! No card can go home right now." in out
    assert "6♠ from the turned card to foundation 3" in out
    pictures = sorted((tmp_path / "out").glob("board-*.png"))
    assert len(pictures) == 6  # new, home, 8a, undo, new, f3
    for path in pictures:
        with Image.open(io.BytesIO(path.read_bytes())) as im:
            assert im.size[0] >= 400


def run_console(tmp_path, lines: list[str], *options: str) -> str:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--db",
            str(tmp_path / "c.sqlite3"),
            "--out",
            str(tmp_path / "o"),
            *options,
        ],
        cwd=REPO,
        input="\n".join(lines),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_console_asks_before_a_new_game_ends_one_in_progress(tmp_path):
    out = run_console(
        tmp_path,
        [
            "new boulanger BK1-C4-AAAAA24",
            "move 6h",
            "new boulanger BK1-C2-AAAAA24",  # asks
            "no",  # keeps it
            "code",
            "new boulanger BK1-C2-AAAAA24",  # asks again
            "yes",
            "code",
            "move 6h",
            "new boulanger BK1-C1-AAAAA24 --force",  # no question
            "code",
            "quit",
        ],
    )
    asked = "already have a game of Jeu du Boulanger in progress: BK1-C4-AAAAA24 · 1 move · score 10"
    assert out.count(asked) == 2 and out.count("Type yes") == 2 and "`" not in out
    assert out.count("already have a game") == 2  # --force did not ask
    assert "Nothing changed: your game goes on." in out
    codes = [line for line in out.splitlines() if line.startswith("BK1-")]
    assert codes == ["BK1-C4-AAAAA24", "BK1-C2-AAAAA24", "BK1-C1-AAAAA24"]
    assert out.count("Your previous game (BK1-C4-AAAAA24) was ended as resigned.") == 1
    assert out.count("Your previous game (BK1-C2-AAAAA24) was ended as resigned.") == 1
    assert not (tmp_path / "o").exists()  # no picture was asked for


def test_console_answers_every_odd_line_and_never_overwrites_a_picture(tmp_path):
    odd = [
        "new boulanger 2 BK1-C2-AAAAA24",
        "new boulanger 2 BK1-C4-AAAAA24",  # cells and code disagree
        "press z",
        "press 9",
        "press 0",
        "press",
        "press p1",  # a Calculation button in a Jeu du Boulanger game
        "press c",  # a 2-cell game has no cell c
        "press end",  # moves are left: End is refused
        'move "6h',  # an unmatched quote
        "move 6h 8a",  # both, in order
        "/rules boulanger",
        "/help",
        "leaderboard boulanger",
        "language nl",
        "replay",
        "quit",
    ]
    out = run_console(tmp_path, odd, "--png")
    assert "Traceback" not in out
    assert "! BK1-C4-AAAAA24 is a deal with 4 free cells, not 2" in out
    assert out.count("! That button is not known to this version of the bot.") == 6  # z 9 0 '' p1 c
    assert "still has legal moves" in out
    assert "could not read that line" in out
    assert "A♦ from column 6 home" in out and "J♦ from column 8 to free cell a" in out
    assert "\nGoal: build" in out and "**" not in out  # the rules, plain text, slash and all
    assert "press BUTTON" in out  # the help
    assert "Jeu du Boulanger — best in this channel, all time" in out
    assert "Vanaf nu antwoord ik je in het Nederlands." in out
    assert "! replay: win a game first" in out
    first = sorted((tmp_path / "o").glob("board-*.png"))
    run_console(tmp_path, ["board --png", "quit"])  # a restarted console numbers on
    second = sorted((tmp_path / "o").glob("board-*.png"))
    assert len(second) == len(first) + 1 and all(p.read_bytes() for p in first)
