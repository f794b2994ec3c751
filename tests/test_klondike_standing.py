"""Klondike's verdict (issue 43 item 5): whether a position can still be won, the undos back
from a lost one, a move off a known line rejoining it, and "unknown" past the budget; the
front's worker, which runs it in the hint pool, and its mark."""

from __future__ import annotations

import engine
from bot.games import front_for
from bot.games.klondike.front import klondike_verdict
from engine.klondike import KlondikeGame
from engine.klondike.standing import VERDICT_NODES, _replayed, mark, standing
from tests.test_bot_klondike_lost import CODE, LOSING_MOVE, OPENING

BIG = 250_000  # the eight-column games' node budget, which the bot hands every worker


def replayed(moves: tuple[str, ...]) -> KlondikeGame:
    game = engine.replay(CODE, moves)
    assert isinstance(game, KlondikeGame)
    return game


def test_a_lost_position_is_proven_lost_with_the_undos_back():
    lost = standing(replayed((*OPENING, LOSING_MOVE)), 5.0, back=True)
    assert lost.verdict == "lost" and lost.undos == 1 and lost.line == []
    # Two moves further (the stock turned twice): still lost, two undos further back.
    later = standing(replayed((*OPENING, LOSING_MOVE, "s", "s")), 5.0, back=True)
    assert later.verdict == "lost" and later.undos == 3
    # Without ``back`` no undos are looked for; with ``within`` the search stops there.
    assert standing(replayed((*OPENING, LOSING_MOVE)), 5.0).undos is None
    assert standing(replayed((*OPENING, LOSING_MOVE, "s", "s")), 5.0, back=True, within=2).undos == 2


def test_a_winnable_position_gives_the_marks_of_a_win_that_replays():
    game = replayed(OPENING)
    found = standing(game, 5.0)
    assert found.verdict == "winnable" and found.undos is None
    assert len(found.line) >= 52 - game.cards_home  # a position per move, every card home
    assert len(set(found.line)) == len(found.line)
    assert mark(game.position) not in found.line  # the line is what follows the position


def test_a_move_off_a_known_line_rejoins_it_for_fewer_positions():
    line = standing(replayed(()), 5.0).line
    start = mark(replayed(()).position)
    known = (start, *line)
    on_line = standing(replayed(()), 5.0, known=known)  # the known line passes here: no search
    assert (on_line.verdict, on_line.line, on_line.nodes) == ("winnable", line, 0)
    moves = [m.notation for m in replayed(()).iter_legal_moves()]
    off = next(g for g in (replayed((m,)) for m in moves) if mark(g.position) not in known)
    fresh = standing(off, 5.0)
    rejoined = standing(off, 5.0, known=known)
    assert rejoined.verdict == "winnable" and rejoined.nodes <= fresh.nodes
    joined = next(i for i, k in enumerate(known) if k in rejoined.line)
    assert rejoined.line[-len(known) + joined :] == list(known[joined:])


def test_past_a_tiny_budget_the_answer_is_unknown_never_lost():
    assert standing(replayed((*OPENING, LOSING_MOVE)), 5.0, nodes=2, back=True).verdict == "unknown"
    assert standing(replayed(()), 5.0, nodes=2).verdict == "unknown"
    assert standing(replayed((*OPENING, LOSING_MOVE)), 0.0, back=True).verdict == "unknown"


def test_a_win_that_does_not_replay_under_the_rules_is_not_believed():
    pos = replayed(()).position
    assert _replayed(pos, ["s", "s"], (), {}) is None  # legal, but no win and no known line
    assert _replayed(pos, ["w1"], (), {}) is None  # the waste is empty: no such move
    after = pos.copy()
    after.apply(after.find(engine.klondike.parse_notation("s")))
    assert _replayed(pos, ["s"], (mark(after), b"next"), {mark(after): 0}) == [mark(after), b"next"]


def test_the_worker_answers_plain_values_within_klondikes_own_budget():
    lost = klondike_verdict(CODE, (*OPENING, LOSING_MOVE), 5.0, BIG, True)
    assert (lost.status, lost.undos, lost.line) == ("lost", 1, ())
    assert lost.nodes <= VERDICT_NODES
    won = klondike_verdict(CODE, OPENING, 5.0, BIG, False)
    assert won.status == "winnable" and all(isinstance(k, bytes) for k in won.line)
    assert klondike_verdict(CODE, OPENING, 5.0, 2, False).status == "unknown"
    assert klondike_verdict(CODE, ("w7",), 5.0, BIG, False).status == "unknown"  # an illegal log


def test_the_front_marks_positions_by_the_solvers_key():
    front = front_for("klondike")
    assert front.verdict_worker is klondike_verdict
    game = replayed(OPENING)
    assert front.mark(game) == mark(game.position) == mark(replayed(OPENING).position)
    assert front.mark(game) != front.mark(replayed((*OPENING, LOSING_MOVE)))
