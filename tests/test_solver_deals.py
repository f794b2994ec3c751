"""The shipped stock of winnable deals: big enough, well formed, reproducible and really winnable."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.bakers.deals import RANGES, STOCK_FILE, bad_lines, check_deal, winnable_deals, winnable_line
from engine.solver import solve

MINIMUM = {4: 200, 2: 50, 1: 10}


@pytest.mark.parametrize("cells", [4, 2, 1])
def test_stock_is_big_enough_and_well_formed(cells: int) -> None:
    deals = winnable_deals(cells)
    start, stop = RANGES[cells]
    assert len(deals) >= MINIMUM[cells]
    assert deals == sorted(set(deals))
    assert all(start <= d < stop for d in deals)
    stock = json.loads(STOCK_FILE.read_text(encoding="utf-8"))
    assert stock["ranges"][str(cells)] == [start, stop]
    assert stock["unknown"][str(cells)] == [], "every deal of the range was decided"
    assert len(stock["par"][str(cells)]) == len(deals)


@pytest.mark.parametrize("cells", [4, 2, 1])
def test_sampled_stock_deals_are_won_through_the_engine(cells: int) -> None:
    sample = random.Random(cells).sample(winnable_deals(cells), 4)
    for deal in sample:
        code = engine.code_for("bakers", deal, cells)
        result = solve(engine.new_game(code), time_limit=30)
        assert result.verdict == "winnable", deal
        assert engine.replay(code, result.moves).is_won


def test_stock_regenerates_identically_on_a_slice() -> None:
    """The generator's rule (fixed node budget, no clock) reproduces the shipped 2-cell list on its first 150 deals."""
    start, _ = RANGES[2]
    fresh = [d for d in range(start, start + 150) if check_deal(d, 2)[1] == "winnable"]
    shipped = [d for d in winnable_deals(2) if d < start + 150]
    assert fresh == shipped
    assert fresh, "the slice should contain winnable deals"


def test_unknown_cell_count_is_refused() -> None:
    with pytest.raises(ValueError, match="4, 2 or 1"):
        winnable_deals(3)


def test_every_shipped_line_replays_to_a_win_of_its_deal() -> None:
    stock = json.loads(STOCK_FILE.read_text(encoding="utf-8"))
    assert bad_lines(stock) == []
    deal = winnable_deals(4)[0]
    moves = winnable_line(deal, 4)
    assert moves is not None and engine.replay(engine.code_for("bakers", deal, 4), moves).is_won
    assert len(moves) == stock["par"]["4"][0]


def test_a_line_that_does_not_win_is_reported() -> None:
    stock = json.loads(STOCK_FILE.read_text(encoding="utf-8"))
    deal = stock["deals"]["1"][0]
    stock["lines"]["1"][0] = " ".join(stock["lines"]["1"][0].split()[:-1])  # one move short
    assert bad_lines(stock) == [f"deal {deal} with 1 cells: its line does not win"]
    stock["lines"]["2"] = stock["lines"]["2"][1:]
    assert f"2 cells: {len(stock['deals']['2'])} deals, {len(stock['deals']['2']) - 1} lines" in bad_lines(
        stock
    )


def test_a_deal_outside_the_stock_has_no_line() -> None:
    assert winnable_line(2, 4) is None  # not winnable, so not shipped
    assert winnable_line(winnable_deals(4)[0], 3) is None
