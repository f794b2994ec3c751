"""The bot's command layer without Discord: real SQLite files, the real engine and renderer."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
from typing import Any

import pytest
from PIL import Image

import engine
import storage
from bot.adapter.errors import UserFeedback, error_text
from bot.adapter.views import board_layout
from bot.games import front_for
from bot.games.bakers import BakersFront, shipped_winnable
from bot.games.base import Advice, GameFront
from bot.games.calculation import CalculationFront
from bot.languages.i18n import Translator
from bot.play import dailycodes
from bot.play.board_text import board_content, share_line
from bot.play.service import GameInProgress, GameService, HintAnswer
from bot.play.solving import Solver
from bot.play.starting import StartRequest

ALICE, BOB = 111, 222
DEAL_CODE = "BK1-C4-AAAAA24"
C = engine.parse_code  # typed codes cross into the service: players' text is parsed once, at the edge
bakers_press = BakersFront().press
calculation_press = CalculationFront().press


class InlineSolver(Solver):
    """The real hint workers, run inline instead of in a process pool (same code path)."""

    async def hint(self, front: GameFront, game: engine.Game, seconds: float) -> Advice:
        return front.hint_worker(game.code, game.moves, seconds)


@pytest.fixture
async def store(tmp_path):
    s = await storage.open_store(str(tmp_path / "bot.sqlite3"))
    yield s
    await s.close()


@pytest.fixture
def service(store):
    return GameService(store, solver=InlineSolver(), hint_seconds=2.0)


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


async def test_new_game_is_a_winnable_deal_with_a_picture(service, store):
    started = await service.start(StartRequest(ALICE, "bakers", cells=2))
    row = started.board.row
    assert row.is_active and row.variant == "2" and row.owner_id == ALICE
    assert engine.parse_code(row.code).deal in shipped_winnable(2)
    assert started.verified
    assert decode(started.board.png).size[0] > 400


async def test_start_with_code_replays_that_deal(service):
    started = await service.start(StartRequest(ALICE, "bakers", code=C(" bk1-c4-aaaaa24 ")))
    assert started.board.row.code == DEAL_CODE
    assert started.board.game.board_text() == engine.new_game(DEAL_CODE).board_text()


@pytest.mark.parametrize(
    ("code", "reason"),
    [("XX1-C4-AAAAA24", "code_game"), ("BK1-C3-AAAAA24", "code_cells"), ("BK1-C4-AAAA", "code_length")],
)
async def test_bad_code_is_refused_and_starts_nothing(service, store, code, reason):
    with pytest.raises(engine.CodeError) as info:
        await service.start(StartRequest(ALICE, "bakers", code=C(code)))
    assert info.value.reason == reason
    assert "{" not in error_text("en", info.value)
    assert await store.active_games(ALICE) == []


async def test_code_of_the_other_game_is_refused(service, store):
    with pytest.raises(UserFeedback) as info:
        await service.start(StartRequest(ALICE, "bakers", code=C("CA1-AAAAA24")))
    assert info.value.key == "error.code_other_game.calculation"
    assert "/calculation" in info.value.text("en")
    assert await store.active_games(ALICE) == []


async def test_new_game_replaces_a_previous_one_with_no_moves_without_asking(service, store):
    first = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    second = await service.start(StartRequest(ALICE, "bakers"))
    assert second.replaced is not None and second.replaced.id == first.id
    assert (await store.get_game(first.id)).status == "resigned"


async def test_a_game_with_moves_is_not_ended_without_the_players_consent(service, store):
    first = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    await service.play(ALICE, first.id, "6h")
    with pytest.raises(GameInProgress) as caught:
        await service.start(StartRequest(ALICE, "bakers", cells=2))
    assert caught.value.row.id == first.id and not caught.value.stale
    assert caught.value.row.move_count == 1 and caught.value.row.score == 10
    kept = await store.get_game(first.id)
    assert kept.status == "active" and kept.moves == ("6h",)
    assert [r.id for r in await store.active_games(ALICE)] == [first.id]
    with pytest.raises(GameInProgress):  # the quick check the cogs run before dealing
        await service.check_can_start(ALICE, "bakers")
    await service.check_can_start(ALICE, "calculation")  # the other kind is not affected
    # Consent names the game and the version it was given for:
    second = await service.start(
        StartRequest(ALICE, "bakers", code=C("BK1-C2-AAAAA24"), replace=(kept.id, kept.version))
    )
    assert second.replaced.id == first.id and second.board.row.code == "BK1-C2-AAAAA24"
    assert (await store.get_result(first.id)).status == "resigned"
    assert (await store.get_game(first.id)).moves == ("6h",)


async def test_a_confirmation_for_an_older_state_is_refused_and_changes_nothing(service, store):
    first = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    moved = await service.play(ALICE, first.id, "6h")
    agreed = (first.id, moved.row.version)
    await service.play(ALICE, first.id, "8a")  # the game moved on after the question
    with pytest.raises(GameInProgress) as caught:
        await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE), replace=agreed))
    assert caught.value.stale and caught.value.row.move_count == 2
    assert (await store.get_game(first.id)).status == "active"
    assert len(await store.active_games(ALICE)) == 1
    # Consent for a game that ended meanwhile: nothing is at stake any more, the new one starts.
    await service.resign(ALICE, first.id)
    started = await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE), replace=agreed))
    assert started.replaced is None and started.board.row.is_active


async def test_a_daily_attempt_is_asked_about_even_before_its_first_move(store):
    day = dt.datetime(2026, 11, 29, 15, tzinfo=dt.UTC)
    service = GameService(store, clock=lambda: day)
    daily = (await service.start(StartRequest(ALICE, "calculation", daily=True))).board.row
    with pytest.raises(GameInProgress) as caught:
        await service.start(StartRequest(ALICE, "calculation", code=C("CA1-AAAAA24")))
    assert caught.value.row.daily_date == day.date()
    assert (await store.get_game(daily.id)).status == "active"


async def test_two_starts_at_once_leave_one_active_game(service, store):
    results = await asyncio.gather(
        service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE))),
        service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE))),
    )
    active = await store.active_games(ALICE)
    assert len(active) == 1 and active[0].id in {r.board.row.id for r in results}


async def test_one_press_plays_the_double_tap_and_commits(service, store):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    expected = engine.new_game(DEAL_CODE).double_tap_target("8")
    moved = await service.press(ALICE, row.id, row.version, "", "8")
    stored = await store.get_game(row.id)
    assert stored.moves == (expected,) == ("8a",) and stored.version == row.version + 1
    assert moved.row.version == stored.version and moved.played == "8a" and moved.selection == ""
    assert "J♦ from column 8 to free cell a" in board_content(Translator("en"), moved)


async def test_a_board_drawn_before_one_press_play_still_means_source_then_destination(service, store):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    moved = await service.press(ALICE, row.id, row.version, "8", "b")  # its selection was column 8
    assert moved.played == "8b" and (await store.get_game(row.id)).moves == ("8b",)


async def test_the_menu_offers_every_other_useful_move_and_plays_it(service, store):
    from bot.games.bakers import BakersFront

    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    game = engine.new_game(DEAL_CODE)
    menu = dict(BakersFront().move_menu(Translator("en"), game))
    one_press = {game.double_tap_target(p) for p in "12345678"}
    assert menu and not set(menu) & one_press and not any(n.endswith("h") for n in menu)
    assert set(menu) <= set(game.legal_moves()) and len(menu) <= 25
    notation = next(iter(menu))
    board = await service.play(ALICE, row.id, notation, version=row.version)
    assert board.played == notation and menu[notation] in board_content(Translator("en"), board)


async def test_same_source_twice_is_the_double_tap(service, store):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    expected = engine.new_game(DEAL_CODE).double_tap_target("6")  # A♦ goes home
    board = await service.press(ALICE, row.id, row.version, "6", "6")
    assert board.played == expected == "6h"
    assert board.game.score == 10


async def test_illegal_move_changes_nothing(service, store):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    with pytest.raises(engine.IllegalMove) as info:
        await service.press(ALICE, row.id, row.version, "1", "2")  # 10♥ on 3♠
    assert "10♥ cannot go on 3♠" in error_text("en", info.value)
    stored = await store.get_game(row.id)
    assert stored.moves == () and stored.version == row.version
    again = await service.play(ALICE, row.id, "6h")  # the cached game was not touched
    assert again.game.moves == ("6h",)


async def test_another_players_click_is_refused(service, store):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    with pytest.raises(UserFeedback) as info:
        await service.press(BOB, row.id, row.version, "", "6")
    assert info.value.key == "error.not_your_game"
    assert (await store.get_game(row.id)).version == row.version


async def test_stale_button_is_refused(service, store):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    await service.press(ALICE, row.id, row.version, "6", "h")
    with pytest.raises(UserFeedback) as info:
        await service.press(ALICE, row.id, row.version, "8", "a")  # drawn before the last move
    assert info.value.key == "error.stale_board"
    assert (await store.get_game(row.id)).moves == ("6h",)


async def test_two_clicks_at_once_play_exactly_one_move(service, store):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    results = await asyncio.gather(
        service.press(ALICE, row.id, row.version, "6", "h"),
        service.press(ALICE, row.id, row.version, "8", "a"),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert len((await store.get_game(row.id)).moves) == 1


async def test_home_sends_what_can_go_and_undo_button_undoes(service, store):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    board = await service.press(ALICE, row.id, row.version, "", "h")
    assert board.played == "6h" and board.game.score == 10
    with pytest.raises(UserFeedback) as info:  # nothing else can go home now
        await service.press(ALICE, row.id, board.row.version, "", "h")
    assert info.value.key == "error.nothing_home"
    undone = await service.press(ALICE, row.id, board.row.version, "", "u")
    assert undone.played == "undo" and undone.game.score == 0
    assert (await store.get_game(row.id)).moves == ("6h", "undo")


async def test_home_and_finish_play_many_cards_as_one_action_and_one_undo(service, store):
    from engine.solver import solve

    code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(code)))).board.row
    mirror = engine.new_game(code)
    board = None
    for move in solve(engine.new_game(code), time_limit=20).moves:
        if mirror.home_finishes():
            break
        board = await service.play(ALICE, row.id, move)
        mirror.play(move)
    assert board is not None and mirror.home_finishes()
    labels = [
        b["label"]
        for b in _buttons(board_layout(Translator("en"), board, "", ""))
        if b["custom_id"].endswith(":h")
    ]
    assert labels == ["Finish"]
    left = 52 - sum(mirror.foundation_counts())
    finished = await service.press(ALICE, row.id, board.row.version, "", "h")
    assert finished.row.status == "won" and finished.game.move_count == mirror.move_count + left
    stored = await store.get_game(row.id)
    assert stored.moves[-1] == ",".join(mirror.home_run()) and stored.move_count == mirror.move_count + left
    assert f"{left} cards home" in board_content(Translator("en"), finished)


async def test_selecting_an_empty_place_is_refused(service):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    with pytest.raises(UserFeedback) as info:
        await service.press(ALICE, row.id, row.version, "", "a")
    assert info.value.key == "error.empty_cell"


def test_button_into_an_empty_column_moves_the_longest_run():
    from engine.bakers import import_board

    game = engine.new_game(DEAL_CODE)
    game.position = import_board(
        "Foundations: S-0 H-K D-K C-K\nFreecells: - - - -\n: 9S TS JS\n:\n: AS 2S 3S 4S 5S 6S 7S 8S QS KS\n"
        + ":\n" * 5
    )
    assert bakers_press(game, "3", "2").value == "32"  # one card: plain notation
    game.position = import_board(
        "Foundations: S-0 H-K D-K C-K\nFreecells: - - - -\n: 9S KS QS JS\n:\n: AS 2S 3S 4S 5S 6S 7S 8S TS\n"
        + ":\n" * 5
    )
    press = bakers_press(game, "1", "2")
    assert press.value == "12v3"
    game.play(press.value)
    assert len(game.position.cols[1]) == 3


async def test_restart_continues_the_same_game(tmp_path):
    path = str(tmp_path / "restart.sqlite3")
    store = await storage.open_store(path)
    first = GameService(store)
    row = (await first.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    board = await first.press(ALICE, row.id, row.version, "6", "h")
    await store.close()
    store = await storage.open_store(path)
    try:
        second = GameService(store)
        board2 = await second.press(ALICE, row.id, board.row.version, "8", "a")  # the old buttons' version
        assert board2.game.moves == ("6h", "8a")
        assert board2.game.board_text() == engine.replay(DEAL_CODE, ["6h", "8a"]).board_text()
    finally:
        await store.close()


async def test_whole_game_won_through_the_service(service, store):
    from engine.solver import solve

    code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(code)))).board.row
    solution = solve(engine.new_game(code), time_limit=20).moves
    board = None
    for move in solution:
        board = await service.play(ALICE, row.id, move)
    assert board is not None and board.finished and board.row.status == "won"
    assert board.result is not None and board.result.won
    assert "Won in" in board_content(Translator("en"), board)
    with pytest.raises(UserFeedback) as info:
        await service.play(ALICE, row.id, "1h")
    assert info.value.key == "error.game_over"
    stats = await store.player_stats(ALICE, "bakers")
    assert (stats.played, stats.won) == (1, 1)


async def test_a_dead_end_offers_undo_or_end_game_recorded_as_lost(service, store):
    from bot.adapter.views import board_layout

    row = (await service.start(StartRequest(ALICE, "bakers", code=C("BK1-C1-AAAAA24")))).board.row
    for move in ("1a", "6h", "64"):  # one free cell: three moves to a position with no legal move
        board = await service.play(ALICE, row.id, move)
    assert board.notice == "board.no_moves_left" and board.row.is_active
    actions = [b["custom_id"].split(":")[-1] for b in _buttons(board_layout(Translator("en"), board, "", ""))]
    assert "r" in actions and "u" in actions
    ended = await service.press(ALICE, row.id, board.row.version, "", "r")
    assert ended.row.status == "lost" and ended.result is not None and not ended.result.won
    again = [c["custom_id"] for c in _buttons(board_layout(Translator("en"), ended, "", ""))]
    assert again[0] == "a:b:1" and not any(cid.startswith("g:") for cid in again)  # play again, no moves


async def test_a_calculation_dead_end_is_recorded_lost_at_once(service, store):
    game = engine.new_game("CA1-AAAAA24")
    moves = []
    while not game.is_over:  # everything on waste pile 1, then whatever still goes home
        move = "sw1" if game.turned is not None else game.legal_moves()[0]
        game.play(move)
        moves.append(move)
    assert game.is_lost
    row = (await service.start(StartRequest(ALICE, "calculation", code=C("CA1-AAAAA24")))).board.row
    for move in moves:
        board = await service.play(ALICE, row.id, move)
    assert board.row.status == "lost" and board.result is not None and not board.result.won
    assert (await store.get_game(row.id)).status == "lost"
    assert (await store.player_stats(ALICE, "calculation")).played == 1


async def test_hint_for_each_game(service):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    answer = await service.hint(ALICE, row.id)
    assert isinstance(answer, HintAnswer) and answer.row.id == row.id
    advice = answer.advice
    assert advice.status == "move" and advice.move in engine.new_game(DEAL_CODE).legal_moves()
    row = (await service.start(StartRequest(ALICE, "calculation", code=C("CA1-AAAAA24")))).board.row
    advice = (await service.hint(ALICE, row.id)).advice
    assert advice.move in engine.new_game("CA1-AAAAA24").legal_moves()


async def test_hints_undos_cards_home_and_time_reach_the_record(service, store):
    row = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    answer = await service.hint(ALICE, row.id)
    assert answer.row.hints == 1 and answer.row.version == row.version  # a hint moves no version
    board = await service.play(ALICE, row.id, answer.advice.move)
    board = await service.undo(ALICE, row.id)
    board = await service.play(ALICE, row.id, answer.advice.move)
    assert (board.row.hints, board.row.undos, board.row.home) == (1, 1, board.game.cards_home)
    assert board.row.first_move_at is not None
    done = await service.resign(ALICE, row.id)
    result = await store.get_result(row.id)
    assert (result.hints, result.undos, result.home, result.assisted) == (1, 1, done.game.cards_home, True)
    assert result.seconds is not None and result.seconds >= 0


async def test_calculation_buttons(service, store):
    row = (await service.start(StartRequest(ALICE, "calculation", code=C("CA1-AAAAA24")))).board.row
    # 6♠ is turned; it fits foundation 3 (3, 6, …).
    with pytest.raises(engine.IllegalMove):
        await service.press(ALICE, row.id, row.version, "", "f1")
    board = await service.press(ALICE, row.id, row.version, "", "w1")
    assert board.played == "sw1" and board.game.turned is not None
    game = board.game
    assert calculation_press(game, "", "p1").value == "w1f3"  # one foundation fits: straight home
    board = await service.press(ALICE, row.id, board.row.version, "", "p1")
    assert board.played == "w1f3" and board.game.score == 5
    assert (await store.get_game(row.id)).moves == ("sw1", "w1f3")


async def test_the_daily_code_is_drawn_once_a_day_shared_and_proven_winnable(service):
    from engine.solver import Refused, solve_code

    day = dt.date(2026, 11, 29)
    code = await service.daily_code("bakers", day)
    found = solve_code(code, (), 20)
    assert not isinstance(found, Refused) and found.verdict == "winnable"
    assert engine.parse_code(code).deal not in shipped_winnable(4)  # not a stock deal
    assert await service.daily_code("bakers", day) == code  # stored once, read back
    again = GameService(service.store)  # another process on the same database
    assert await again.daily_code("bakers", day) == code
    assert await service.daily_code("bakers", day + dt.timedelta(days=1)) != code


async def test_a_days_code_once_known_is_not_read_again(service, monkeypatch):
    """Every start asks whether its deal is today's: the code, stored once, is remembered."""
    day = dt.date(2026, 11, 29)
    reads = []
    real = service.store.daily_code

    async def daily_code(kind, date):
        reads.append((kind, date))
        return await real(kind, date)

    monkeypatch.setattr(service.store, "daily_code", daily_code)
    other = GameService(service.store)  # another process drew it first
    code = await other.daily_code("bakers", day)
    assert [await service.daily_code("bakers", day) for _ in range(3)] == [code] * 3
    assert reads == [("bakers", day), ("bakers", day)]  # each service read it once
    assert await service.daily_code("calculation", day) != code
    assert reads[-1] == ("calculation", day)


async def test_the_daily_code_comes_from_a_random_draw_not_from_the_date(tmp_path, monkeypatch):
    """Derived from the date, a coming day's deal could be worked out and practised first."""
    day = dt.date(2026, 11, 29)
    codes = []
    for n, draw in enumerate((1, 2, 1)):
        monkeypatch.setattr(dailycodes, "draw", lambda d=draw: d)
        store = await storage.open_store(str(tmp_path / f"{n}.sqlite3"))
        try:
            codes.append(await GameService(store).daily_code("bakers", day))
        finally:
            await store.close()
    assert codes[0] != codes[1] and codes[0] == codes[2]  # the draw decides, the same day


def test_daily_calculation_deal_is_winnable():
    from engine.calculation.perfect import solve

    front = front_for("calculation")
    for draw in (20261201, 2**63 + 25):
        code = front.daily_code(draw)
        assert code == front.daily_code(draw)
        assert solve(engine.new_game(code), time_limit=20, from_start=True).winnable


async def test_daily_game_and_share_line(store):
    day = dt.datetime(2026, 11, 29, 15, tzinfo=dt.UTC)
    service = GameService(store, clock=lambda: day)
    board = (await service.start(StartRequest(ALICE, "calculation", daily=True))).board
    assert board.row.daily_date == day.date()
    assert board.row.code == await service.daily_code("calculation", day.date())
    assert share_line(Translator("en"), board) is None  # not finished yet
    first = engine.new_game(board.row.code).legal_moves()[0]
    await service.play(
        ALICE, board.row.id, first
    )  # played: a game ended before its first move counts nowhere
    done = await service.resign(ALICE, board.row.id)
    line = share_line(Translator("en"), done)
    assert line is not None and "2026-11-29" in line and "/52" in line
    for move in engine.new_game(board.row.code).legal_moves():
        assert move not in line.split()
    assert "practice" not in line  # the first finished attempt is the counted one
    again = (await service.start(StartRequest(ALICE, "calculation", daily=True))).board  # a second attempt
    ended = await service.resign(ALICE, again.row.id)
    second = share_line(Translator("en"), ended)
    assert second is not None and "(practice: only the first finished attempt counts)" in second
    assert "(practice: only the first finished attempt counts)" in board_content(Translator("en"), ended)
    assert "practice" not in board_content(Translator("en"), done)


async def test_a_won_bakers_share_says_the_cells_not_four_green_squares(store):
    from bot.games.bakers import BakersFront

    game = engine.new_game("BK1-C2-AAAAA24")
    assert BakersFront().share_squares(Translator("en"), game) == "⬛⬛⬛⬛ · 2 free cells"
    game.play("6h")
    assert BakersFront().share_squares(Translator("en"), game) == "⬛⬛🟨⬛ · 2 free cells"
    won = engine.new_game("BK1-C2-AAAAA24")
    won.position.found[:] = [13, 13, 13, 13]  # a won position, as far as the share line looks
    assert BakersFront().share_squares(Translator("en"), won) == "· 2 free cells"


async def test_a_finished_daily_says_its_time_hints_and_undos_and_that_it_counted(tmp_path):
    """The clock starts at the first move: 4 min 32 s later the resigned daily says ⏱ 4:32, its
    hint and its undo, on the board and in the share line (cards home, not the farmable score)."""
    now = [dt.datetime(2026, 11, 29, 15, tzinfo=dt.UTC)]
    store = await storage.open_store(str(tmp_path / "clock.sqlite3"), clock=lambda: now[0])
    try:
        service = GameService(store, solver=InlineSolver(), hint_seconds=2.0, clock=lambda: now[0])
        board = (await service.start(StartRequest(ALICE, "bakers", daily=True))).board
        now[0] += dt.timedelta(minutes=3)  # thinking before the first move is free
        answer = await service.hint(ALICE, board.row.id)
        move = answer.advice.move
        assert move is not None
        await service.play(ALICE, board.row.id, move)
        await service.undo(ALICE, board.row.id)
        played = await service.play(ALICE, board.row.id, move)
        await service.play(ALICE, board.row.id, played.game.legal_moves()[0])
        now[0] += dt.timedelta(minutes=4, seconds=32)
        done = await service.resign(ALICE, board.row.id)
        en = Translator("en")
        text = board_content(en, done)
        assert "⏱ 4:32 · 💡 1 hint · ↩ 1 undo" in text, text
        assert "Counted: your first finished attempt at this daily challenge is on its board." in text
        line = share_line(en, done)
        home = done.game.cards_home
        assert line is not None and line.startswith(
            f"Jeu du Boulanger daily 2026-11-29: {home}/52 cards home in 2 moves "
        )
        assert line.endswith(
            "· 4 free cells · ⏱ 4:32 · 💡 1 hint · ↩ 1 undo (counted: first finished attempt)"
        )
        assert "score" not in line and move not in line.split()
        stats = await store.player_stats(ALICE, "bakers")
        assert stats.best is not None and stats.best.seconds == 272
        assert (
            BakersFront().best_line(en, stats.best) == f"Best: {home}/52 cards home in 2 moves (not won yet)"
        )
    finally:
        await store.close()


def test_times_read_as_a_clock():
    from bot.games.base import elapsed

    assert [elapsed(s) for s in (0, 5, 272, 3599, 3600, 3723)] == [
        "0:00",
        "0:05",
        "4:32",
        "59:59",
        "1:00:00",
        "1:02:03",
    ]


async def test_typed_move_finds_the_right_game(service):
    bk = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    ca = (await service.start(StartRequest(ALICE, "calculation", code=C("CA1-AAAAA24")))).board.row
    assert (await service.game_for_move(ALICE, "6h")).id == bk.id
    assert (await service.game_for_move(ALICE, "sw1")).id == ca.id
    with pytest.raises(UserFeedback) as info:
        await service.game_for_move(BOB, "6h")
    assert info.value.key == "error.no_active_game"


async def test_the_confirm_buttons_carry_the_whole_request_within_discords_limit():
    import re

    from bot.adapter.confirm import CUSTOM_ID, Request, StartChoice

    request = Request("bakers", cells=1, code=C("BK1-C1-AAAAA24"), any_deal=True, daily=False)
    big = 2**64 - 1  # the largest snowflake / id
    item = StartChoice("s", big, big, 10**9, request)
    custom_id = item.item.custom_id
    assert len(custom_id) <= 100
    match = re.fullmatch(CUSTOM_ID, custom_id)
    back = await StartChoice.from_custom_id(None, item.item, match)
    assert (back.act, back.user_id, back.game_id, back.version, back._request()) == (
        "s",
        big,
        big,
        10**9,
        request,
    )
    daily = Request("calculation", daily=True)
    again = StartChoice("k", 5, 6, 7, daily)
    back = await StartChoice.from_custom_id(None, again.item, re.fullmatch(CUSTOM_ID, again.item.custom_id))
    assert back._request() == daily and back._request().options() == {
        "cells": None,
        "code": None,
        "any_deal": False,
        "daily": True,
    }


async def test_todays_daily_code_is_refused_as_a_typed_code_until_the_counted_attempt_is_done(store):
    day = dt.datetime(2026, 11, 29, 15, tzinfo=dt.UTC)
    service = GameService(store, clock=lambda: day)
    daily = await service.daily_code("bakers", day.date())
    with pytest.raises(UserFeedback) as info:
        await service.start(StartRequest(ALICE, "bakers", code=C(daily)))
    assert info.value.key == "error.daily_rehearsal" and "/daily" in info.value.text("en")
    assert await store.active_games(ALICE) == []  # nothing started
    other = await service.start(StartRequest(BOB, "bakers", code=C(DEAL_CODE)))  # any other code is fine
    assert other.board.row.code == DEAL_CODE
    attempt = (await service.start(StartRequest(ALICE, "bakers", daily=True))).board
    first = engine.new_game(attempt.row.code).legal_moves()[0]
    await service.play(ALICE, attempt.row.id, first)
    await service.resign(ALICE, attempt.row.id)  # the counted attempt, played and finished
    practice = await service.start(StartRequest(ALICE, "bakers", code=C(daily)))
    assert practice.board.row.code == daily and practice.board.row.daily_date is None


async def test_each_start_records_where_its_deal_came_from(service, store):
    """README, Ranking rules: a new deal is 'stock', a typed code or any_deal 'practice', /daily 'daily'."""
    stock = (await service.start(StartRequest(ALICE, "bakers", cells=4))).board.row
    assert stock.source == "stock"
    typed = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board.row
    assert typed.source == "practice"
    anything = (await service.start(StartRequest(ALICE, "bakers", cells=1, any_deal=True))).board.row
    assert anything.source == "practice"
    shuffled = (await service.start(StartRequest(ALICE, "calculation"))).board.row
    assert shuffled.source == "stock"
    daily = (
        await service.start(
            StartRequest(ALICE, "calculation", daily=True, replace=(shuffled.id, shuffled.version))
        )
    ).board.row
    assert daily.source == "daily" and daily.daily_date is not None


def test_a_start_request_names_its_deal_and_refuses_a_race_without_one():
    """A race's game is the race's deal: asked for without a code (or as a daily), nothing starts."""
    with pytest.raises(ValueError):
        StartRequest(ALICE, "bakers", race=True)
    with pytest.raises(ValueError):
        StartRequest(ALICE, "bakers", code=C(DEAL_CODE), race=True, daily=True)
    raced = StartRequest(ALICE, "bakers", code=C(DEAL_CODE), race=True)
    assert (raced.source, StartRequest(ALICE, "bakers", daily=True, any_deal=True).source) == (
        "race",
        "daily",
    )
    assert StartRequest(ALICE, "bakers", any_deal=True).source == "practice"
    with pytest.raises(TypeError):  # only the player and the game go by position
        StartRequest(ALICE, "bakers", 4)


async def test_a_new_deal_says_it_counted_and_a_chosen_deal_says_practice(service):
    en = Translator("en")
    stock = (await service.start(StartRequest(ALICE, "calculation"))).board
    ended = await service.resign(ALICE, stock.row.id)
    assert "Counted on the leaderboards (a new deal)." in board_content(en, ended)
    chosen = (await service.start(StartRequest(ALICE, "calculation", code=C("CA1-AAAAA24")))).board
    practised = board_content(en, await service.resign(ALICE, chosen.row.id))
    assert "practice" in practised and "Counted" not in practised
    assert "⏱" not in practised  # resigned before a move: no time to show


def test_groups_into_empty_columns_do_not_crowd_the_free_cells_out_of_the_menu():
    """Many empty columns give every source six group sizes; the menu's 25 choices still hold a
    free cell for each source, and every source's largest group (found playing a real deal)."""
    from bot.games.bakers import BakersFront

    moves = [
        "8h",
        "7a",
        "1b",
        "a2",
        "6a",
        "64",
        "b6",
        "7b",
        "7h",
        "72",
        "72",
        "76",
        "16",
        "1h",
        "18",
        "a7",
        "5a",
        "57",
        "18",
        "a1",
        "5a",
        "b5",
        "3b",
        "38",
        "35",
        "b8",
        "1b",
        "13",
        "1h,bh,3h,3h",
        "41v2",
        "48",
        "4b",
        "4h",
        "42",
        "b2",
        "4b",
        "46",
        "b4",
        "3b",
        "36",
        "a4",
        "1a",
        "13",
        "81",
        "a3",
        "1a",
        "51",
        "a8",
        "56",
        "8a",
        "16",
        "81",
        "a1",
        "5a",
        "53",
        "85",
        "a3",
        "2a",
        "58",
        "25",
        "a5",
        "1a",
        "18",
        "21",
        "a8",
        "1a",
        "21",
        "a1",
        "5a",
        "51",
        "85",
        "a1",
        "2a",
        "58",
        "25",
        "a5",
        "2a",
        "2h,2h,3h,3h,3h,3h,3h,7h,7h,ah",
        "23",
        "2h,1h,1h,1h,1h,2h,5h,5h,3h,6h,6h,6h,6h,6h,6h,6h,6h,6h,4h,4h",
    ]
    game = engine.replay("BK1-C2-AAAAAAG", moves)
    menu = [n for n, _ in BakersFront().move_menu(Translator("en"), game)]
    assert len(menu) <= 25 and "6a" in menu  # the move this deal's winning line needs next
    # Into an empty column the menu offers the first one only: the others are the same move.
    first = min(m.dst for m in game.legal_move_objects() if m.to_empty)
    assert {game.resolve(n).dst for n in menu if game.resolve(n).to_empty} == {first}
    empty_sources = {n[0] for n in game.legal_moves() if game.resolve(n).to_empty}
    largest = {
        src: max(
            (m for m in game.legal_move_objects() if m.to_empty and m.dst == first and m.notation[0] == src),
            key=lambda m: len(m.cards),
        ).notation
        for src in empty_sources
    }
    one_press = {game.double_tap_target(p) for p in game.places() if not game.is_empty(p)}
    assert set(largest.values()) - one_press <= set(menu)


def _buttons(view: Any) -> list[dict[str, Any]]:
    """The buttons of a board's view, as sent to Discord."""
    found, todo = [], list(view.to_components())
    while todo:
        component = todo.pop(0)
        found.append(component)
        todo.extend(component.get("components") or [])
    return [c for c in found if c["type"] == 2]


async def test_a_press_on_the_board_last_drawn_writes_without_reading_the_game_first(service, store):
    from bot.play.service import StaleBoard

    board = (await service.start(StartRequest(ALICE, "bakers", code=C(DEAL_CODE)))).board
    reads = 0
    real = store.get_game

    async def counted(game_id: int) -> storage.GameRow:
        nonlocal reads
        reads += 1
        return await real(game_id)

    store.get_game = counted  # type: ignore[method-assign]
    place = next(p for p in board.game.places() if _one_press(board.game, p))
    played = await service.press(ALICE, board.row.id, board.row.version, "", place)
    assert reads == 0 and played.row.version == board.row.version + 1  # one round trip: the write
    assert (await real(board.row.id)).moves == played.row.moves
    # A stranger, or a stale board, is refused as before (the stored game decides).
    with pytest.raises(UserFeedback):
        await service.press(BOB, board.row.id, played.row.version, "", "u")
    with pytest.raises(StaleBoard):
        await service.press(ALICE, board.row.id, board.row.version, "", "u")
    # Another process moved the game: the cached board is out of date, the write refuses it.
    moved = await store.append_move(board.row.id, played.row.version, "undo", score=0, move_count=0)
    with pytest.raises(StaleBoard) as stale:
        await service.press(ALICE, board.row.id, played.row.version, "", "u")
    assert stale.value.row.version == moved.version
    assert (await real(board.row.id)).moves == moved.moves  # nothing written twice


def _one_press(game: Any, place: str) -> str | None:
    try:
        return str(game.double_tap_target(place))
    except engine.IllegalMove:
        return None
