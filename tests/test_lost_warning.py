"""Issue 28 below the bot: the solver's standing, the verdicts kept along a game's undo path,
the service's warning, and what storage keeps (both backends: the ``store`` fixture)."""

from __future__ import annotations

import pytest

import engine
import storage
from bot.games.base import Verdict
from bot.play.service import GameService
from bot.play.solving import Solver
from bot.play.starting import StartRequest
from bot.play.verdicts import Verdicts
from engine.solver import Refused, position_key, standing_code

LOSING_CODE = "BK1-C4-AAAAAGK"  # winnable; "61" (Q♠ onto K♠) makes it unwinnable
CODE = "BK1-C4-AAAAA24"


# -- the solver -------------------------------------------------------------------------------
def test_standing_proves_the_losing_move_and_finds_the_undo_back():
    lost = standing_code(LOSING_CODE, ("61",), 10.0, back=True)
    assert (lost.verdict, lost.undos, lost.line) == ("lost", 1, [])
    assert standing_code(LOSING_CODE, ("61",), 10.0).undos is None  # not asked to look back


def test_standing_gives_the_line_of_a_win_and_says_unknown_past_its_budget():
    found = standing_code(LOSING_CODE, (), 10.0)
    assert found.verdict == "winnable" and found.line
    game = engine.new_game(LOSING_CODE)
    assert position_key(game.position) not in found.line  # the positions after each move
    assert standing_code(LOSING_CODE, ("61",), 10.0, 50, back=True).verdict == "unknown"
    assert isinstance(standing_code("BK1-C4-NOPE", ()), Refused)


@pytest.mark.slow
def test_a_move_off_a_known_line_rejoins_it_instead_of_solving_anew():
    line = standing_code(CODE, (), 10.0).line
    before = position_key(engine.new_game(CODE).position)
    rejoins = 0
    game = engine.new_game(CODE)
    for move in game.legal_moves():
        game.play(move)
        if position_key(game.position) not in line:  # off the line
            fresh = standing_code(CODE, (move,), 10.0)
            rejoined = standing_code(CODE, (move,), 10.0, known=(before, *line))
            assert rejoined.verdict == fresh.verdict  # the same answer ...
            assert rejoined.nodes <= fresh.nodes  # ... never dearer
            if rejoined.verdict == "winnable" and rejoined.nodes < fresh.nodes:
                rejoins += 1
                new = rejoined.line
                assert new[-1] == line[-1] and set(new) & set(line)  # it ends on the known line
                # Its first position (one move on) is winnable indeed.
                nxt = next(m for m in game.legal_moves() if _key_after(game, m) == new[0])
                assert standing_code(CODE, (move, nxt), 10.0).verdict == "winnable"
        game.undo()
    assert rejoins >= 4


def _key_after(game: engine.Game, move: str) -> bytes:
    game.play(move)
    try:
        return position_key(game.position)
    finally:
        game.undo()


def test_a_lost_position_needs_no_search_past_a_known_winnable_one():
    lost = standing_code(LOSING_CODE, ("61",), 10.0, back=True, known=(b"unreachable",), within=1)
    assert (lost.verdict, lost.undos) == ("lost", 1)
    # Two undos back is winnable by what is known: the one undo between is searched.
    start = standing_code(LOSING_CODE, (), 10.0)
    deeper = standing_code(LOSING_CODE, ("61", "5a"), 10.0, back=True, known=tuple(start.line), within=2)
    assert (deeper.verdict, deeper.undos) == ("lost", 2)


# -- the verdicts along the undo path ------------------------------------------------------------
def test_a_search_is_handed_the_nearest_winnable_position_on_the_path():
    v = Verdicts()
    v.step(3, 1, 2, "a", "b", undo=False)
    v.learned(3, 2, Verdict("winnable", ("c", "won")))
    off = v.step(3, 2, 3, "b", "x", undo=False)
    assert (off.known, off.within) == (("b", "c", "won"), 1)
    # Its search never ran (the player moved on): the next one still starts from "b".
    later = v.step(3, 3, 4, "x", "y", undo=False)
    assert later.verdict is None and later.back
    assert (later.known, later.within) == (("b", "c", "won"), 2)
    assert v.step(9, 1, 2, "p", "q", undo=False).known == ()  # nothing known: a whole search


def test_a_search_finishing_late_still_tells_about_the_positions_after():
    v = Verdicts()
    v.step(4, 1, 2, "a", "b", undo=False)
    v.step(4, 2, 3, "b", "c", undo=False)  # the player moved on before b's search ended
    assert not v.learned(4, 2, Verdict("winnable", ("c", "d", "won")))  # not the latest ...
    plan = v.plan(4, 3)
    assert plan is not None and plan.verdict == Verdict("winnable", ("d", "won"))  # ... but c follows
    assert v.plan(4, 2) is None  # b's search, still waiting, is not run any more
    v.step(5, 1, 2, "a", "b", undo=False)
    v.step(5, 2, 3, "b", "c", undo=False)
    v.learned(5, 2, Verdict("lost", undos=1))  # b was lost: so is c, one undo further
    lost = v.plan(5, 3)
    assert lost is not None and lost.verdict == Verdict("lost", undos=2)


def test_a_move_on_the_line_a_lost_move_and_undos_need_no_search():
    v = Verdicts()
    first = v.step(1, 1, 2, "p0", "p1", undo=False)
    assert first.verdict is None and first.back  # nothing known: search, and look back
    assert v.learned(1, 2, Verdict("winnable", ("p2", "p3", "won")))
    on_line = v.step(1, 2, 3, "p1", "p2", undo=False)
    assert on_line.verdict == Verdict("winnable", ("p3", "won"))
    off = v.step(1, 3, 4, "p2", "x", undo=False)
    assert off.verdict is None and not off.back  # the position before was winnable: undos = 1
    v.learned(1, 4, Verdict("lost", undos=1))
    deeper = v.step(1, 4, 5, "x", "y", undo=False)
    assert deeper.verdict == Verdict("lost", undos=2)
    assert v.step(1, 5, 6, "y", "x", undo=True).verdict == Verdict("lost", undos=1)
    assert v.step(1, 6, 7, "x", "p2", undo=True).verdict == Verdict("winnable", ("p3", "won"))
    # A verdict arriving after the game moved on is not kept for the newer position.
    assert not v.learned(1, 6, Verdict("lost", undos=9))
    # A position the keeper does not hold (another process moved it): start afresh.
    assert v.step(1, 3, 8, "p9", "q", undo=False).verdict is None


def test_an_undo_from_a_winnable_position_stays_on_its_line():
    v = Verdicts()
    v.step(2, 1, 2, "a", "b", undo=False)
    v.learned(2, 2, Verdict("winnable", ("c", "won")))
    back = v.step(2, 2, 3, "b", "a", undo=True)
    assert back.verdict is not None and back.verdict.status == "winnable"
    assert v.step(2, 3, 4, "a", "b", undo=False).verdict == Verdict("winnable", ("c", "won"))


# -- the service -------------------------------------------------------------------------------
@pytest.fixture
async def service(store):
    solver = Solver(1)
    yield GameService(store, solver=solver)
    solver.close()


async def settled(service, board):
    return board if board.pending is None else (await service.settle(board)) or board


async def test_the_service_warns_counts_undos_and_clears_on_undo(service, store):
    started = await service.start(StartRequest(7, "bakers", code=engine.parse_code(LOSING_CODE)))
    gid = started.board.row.id
    lost = await settled(service, await service.play(7, gid, "61"))
    assert lost.lost_undos == 1
    assert (await store.get_game(gid)).warned
    deeper = await service.play(7, gid, "1a")
    assert deeper.pending is None and deeper.lost_undos == 2  # no search needed
    assert (await service.undo(7, gid)).lost_undos == 1
    cleared = await service.undo(7, gid)
    assert cleared.lost_undos is None and cleared.pending is None


async def test_a_winning_line_never_warns_and_a_race_game_is_never_judged(service, store):
    from engine.solver import solve

    started = await service.start(StartRequest(8, "bakers", code=engine.parse_code(LOSING_CODE)))
    gid = started.board.row.id
    searches = 0
    for notation in solve(engine.new_game(LOSING_CODE), time_limit=20).moves[:20]:
        board = await service.play(8, gid, notation)
        searches += board.pending is not None
        assert (await settled(service, board)).lost_undos is None
    assert searches < 20 and not (await store.get_game(gid)).warned  # on the line: no search
    race = await service.start(StartRequest(9, "bakers", code=engine.parse_code(LOSING_CODE), race=True))
    board = await service.play(9, race.board.row.id, "61")
    assert board.pending is None and board.lost_undos is None


async def test_a_stock_deal_starts_on_its_shipped_line(service, store):
    """Issue 26: a shipped deal's solution seeds its verdicts, so a move on it needs no search
    and a move off it a search handed that line (it may stop where it rejoins it)."""
    from engine.bakers.deals import winnable_deals, winnable_line

    deal = winnable_deals(4)[0]
    line = winnable_line(deal, 4)
    assert line is not None
    started = await service.start(StartRequest(11, "bakers", code=engine.make_code("bakers", deal, 4)))
    gid = started.board.row.id
    on = await service.play(11, gid, line[0])
    assert on.pending is None and on.lost_undos is None  # known winnable: no search
    off = next(m for m in on.game.legal_moves() if m != line[1])
    board = await service.play(11, gid, off)
    assert board.pending is not None
    plan = service.verdicts.plan(gid, board.row.version)
    assert plan is not None and plan.within == 1 and len(plan.known) == len(line)
    other = await service.start(StartRequest(12, "bakers", code=engine.parse_code(CODE)))  # no shipped line
    first = await service.play(12, other.board.row.id, next(iter(other.board.game.legal_moves())))
    assert first.pending is not None
    unseeded = service.verdicts.plan(other.board.row.id, first.row.version)
    assert unseeded is not None and unseeded.known == ()


async def test_a_daily_starts_on_the_win_found_when_it_was_drawn(service, store):
    from bot.games import front_for

    started = await service.start(StartRequest(13, "bakers", daily=True))
    line = front_for("bakers").solution(started.board.game.game_code)
    assert line is not None and engine.replay(started.board.row.code, line).is_won
    on = await service.play(13, started.board.row.id, line[0])
    assert on.pending is None and on.lost_undos is None  # known winnable: no search


async def test_the_setting_off_asks_the_solver_nothing(service, store):
    from bot.languages.language import set_warns_lost, warns_lost

    assert await warns_lost(store, 10)  # the default is on
    await set_warns_lost(store, 10, False)
    started = await service.start(StartRequest(10, "bakers", code=engine.parse_code(LOSING_CODE)))
    board = await service.play(10, started.board.row.id, "61")
    assert board.pending is None and board.lost_undos is None


# -- storage (both backends) ---------------------------------------------------------------------
async def test_the_warning_seen_is_on_the_record_without_help_or_a_version_step(store):
    game = await store.create_game("bakers", CODE, 1, 2, 3, variant="4")
    assert not game.warned
    warned = await store.record_warning(game.id)
    assert (warned.warned, warned.version, warned.hints) == (True, game.version, 0)
    moved = await store.append_move(game.id, game.version, "6h", score=10, move_count=1, home=1)
    assert moved.warned
    done = await store.finish_game(moved.id, moved.version, "resigned", score=10, move_count=1, home=1)
    result = await store.get_result(done.id)
    assert result.warned and not result.assisted
    with pytest.raises(storage.GameNotActive):
        await store.record_warning(game.id)
    with pytest.raises(storage.GameNotFound):
        await store.record_warning(999_999)
    other = await store.create_game("bakers", CODE, 4, 2, 3, variant="4")
    plain = await store.finish_game(other.id, other.version, "resigned", score=0, move_count=0, home=0)
    assert not (await store.get_result(plain.id)).warned


async def test_the_lost_warning_setting_is_kept_apart_from_the_deck(store):
    assert await store.user_lost_warning(9) is None
    await store.set_user_deck(9, "four")
    await store.set_user_lost_warning(9, False)
    assert (await store.user_lost_warning(9), await store.user_deck(9)) == (False, "four")
    await store.set_user_lost_warning(9, True)
    assert await store.user_lost_warning(9) is True
    await store.set_user_lost_warning(9, None)
    assert (await store.user_lost_warning(9), await store.user_deck(9)) == (None, "four")
    with pytest.raises(storage.InvalidValue):
        await store.set_user_lost_warning(9, "off")  # type: ignore[arg-type]
