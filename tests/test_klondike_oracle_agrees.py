"""The engine's Klondike solver against the independent oracle (issue 43, "Done when"): on a few
hundred deals per draw, dealt by the engine's dealer (checked against the oracle's own, written
again from SPEC §3), the verdicts both decide agree and every line the engine calls winning
replays to a win in the oracle's simulator. The unknowns of each are counted and printed.

The suite's run (the first 20 deals a draw, the engine at its NODE_BUDGET of 30,000 nodes, the
oracle at 1,000,000 positions): drawing one 15 decided by both, all agreeing, the engine 2
unknown, the oracle 5; drawing three 15 agreeing, 4 unknown each; about half a minute of CPU a
draw. With KLONDIKE_ORACLE_DEALS=300 (6 December): 238 (draw 1) and 227 (draw 3) decided by
both, all agreeing, every one of the engine's 253 and 227 winning lines replayed; unknowns
engine 42 and 47, oracle 50 and 63; 7 and 6 min of CPU.

Drawing three, the solver's draft of 6 December called deal 20 lost, which the oracle wins in
121 moves (a line the klondike branch's own rules also play to a win): the harness's first
catch. The cause: sending a safe waste card home as a forced move, which drawing three is not
(taking a card out of the waste regroups the stock's later turns of three); without it the
draft wins deal 20 too."""

from __future__ import annotations

import os
import resource
import time

import pytest

from tests.klondike_oracle import deal, replay, run
from tests.klondike_oracle.solver import compiler_missing

# Per draw. The suite compares the first 20 deals of each draw, about half a minute of CPU a draw
# (an undecided deal costs each side 3-4 s); the few hundred the issue asks for are a run of this
# test with KLONDIKE_ORACLE_DEALS=300 (its figures: docs/BENCHMARKS.md, "Klondike: the engine's
# verdicts against the oracle").
DEALS = int(os.environ.get("KLONDIKE_ORACLE_DEALS", "20"))
# The engine searches at the NODE_BUDGET the bot proves deals with, unless
# KLONDIKE_ORACLE_ENGINE_BUDGET says otherwise.
ENGINE_BUDGET = int(os.environ.get("KLONDIKE_ORACLE_ENGINE_BUDGET", "0")) or None
ORACLE_BUDGET = 1_000_000


def _cpu() -> float:
    """This process's CPU seconds plus its finished children's (the oracle runs as a program)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


pytestmark = [
    pytest.mark.slow,
    pytest.mark.processes,
    pytest.mark.skipif(compiler_missing(), reason="g++ is not installed (the oracle is C++)"),
]


def _both_verdicts(number: int, draw: int, budget: int) -> tuple[str, str]:
    """(engine's, oracle's) verdicts on deal ``number``, once its dealing and any winning line of
    the engine's are checked against the oracle's own dealer and simulator."""
    from engine.klondike.rules import deal_layout
    from engine.klondike.solving import Layout, solve

    dealt = deal(number)
    piles, stock = deal_layout(number)
    assert (piles, stock) == (dealt.piles, dealt.stock), (
        f"deal {number}: the engine's dealer is not SPEC §3's"
    )
    layout = Layout(
        piles=piles, face_down=dealt.face_down, stock=stock, waste=(), foundations=(0, 0, 0, 0), draw=draw
    )
    theirs = solve(layout, budget=budget)
    ours = run(dealt, draw, ORACLE_BUDGET)
    print(
        f"draw {draw} deal {number}: engine {theirs.verdict} {theirs.nodes} nodes {theirs.seconds:.2f} s, "
        f"oracle {ours.verdict} {ours.positions} positions {ours.cpu:.2f} s"
    )
    if theirs.verdict == "winnable":
        assert replay(dealt, draw, " ".join(theirs.moves)), (
            f"deal {number}, draw {draw}: the engine's line does not win"
        )
    return theirs.verdict, ours.verdict


@pytest.mark.parametrize("draw", [1, 3])
def test_the_engine_and_the_oracle_agree(draw, record_property):
    from engine.klondike.solving import NODE_BUDGET

    budget = ENGINE_BUDGET or NODE_BUDGET
    unknown = {"engine": 0, "oracle": 0}
    compared = replayed = 0
    started = _cpu()
    for number in range(DEALS):
        theirs, ours = _both_verdicts(number, draw, budget)
        unknown["engine"] += theirs == "unknown"
        unknown["oracle"] += ours == "unknown"
        replayed += theirs == "winnable"
        if "unknown" not in (theirs, ours):
            compared += 1
            assert theirs == ours, f"deal {number}, draw {draw}: engine {theirs}, oracle {ours}"
    record_property("unknowns", unknown)
    print(
        f"draw {draw}: {compared} of {DEALS} deals decided by both and agreeing; unknowns {unknown}; "
        f"{replayed} winning lines replayed; engine budget {budget}, oracle {ORACLE_BUDGET}; "
        f"CPU {_cpu() - started:.1f} s"
    )
    assert compared >= DEALS // 2, f"too few deals decided by both to compare: {compared}, unknowns {unknown}"
