"""``python -m engine`` for Klondike, called in-process: deal, play, and hint refused in a line
(``solve``: tests/test_klondike_solver.py)."""

from __future__ import annotations

import json

import pytest

from engine.__main__ import main
from tests.test_klondike_deal import DEAL_860


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_deal_prints_the_documented_text_form(capsys):
    assert run(capsys, "deal", "KL1-D1-AAAAA24") == (0, DEAL_860, "")


def test_play_plays_draw_three_and_prints_json(capsys):
    status, out, err = run(capsys, "play", "KL1-D3-AAAAA24", "s", "S", "undo", "s")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert (data["game"], data["moves"], data["actions"], data["draw"]) == ("klondike", 2, 4, 3)
    assert data["stock_count"] == 18 and data["face_down"] == 21 and not data["won"]
    assert "Waste: 3C KS QD 3H QS TC\n" in data["board"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "KL1-D3-AAAAA24", "x9"], "error: move 1 ('x9') failed: 'x9' is not a move"),
        (
            ["deal", "KL1-D2-AAAAA24"],
            "error: bad game code 'KL1-D2-AAAAA24': the draw part 'D2' must be D1 or D3",
        ),
    ],
)
def test_refusals_are_one_line_with_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(message) and err.count("\n") == 1
