"""The hint in a lost deal, in the game layer: where the lost-deal warning says the deal can
no longer be won, the hint says so too with the undos back (Klondike's hint player would still
offer a move there), from the verdict already kept (no search on the press) or from the
warning's own search within its budget, shared with the board's; seen, not help; never in a
race, nor with the warning turned off."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

import engine
import storage
from bot.games.base import HINT, Advice
from bot.languages.i18n import Translator
from bot.languages.language import set_warns_lost
from bot.play.describe import hint_text
from bot.play.feedback import UserFeedback
from bot.play.service import GameService
from bot.play.solving import Solver
from bot.play.starting import StartRequest
from bot.play.verdicts import VERDICT_NODES, VERDICT_SECONDS
from tests.test_bot_klondike_lost import CODE, LOSING_MOVE, OPENING

BAKERS_LOSING = "BK1-C4-AAAAAGK"  # winnable; "61" (Q♠ onto K♠) makes it unwinnable


class Counted:
    """The solver's hint and verdict calls, counted (with the verdicts' budgets)."""

    def __init__(self, solver: Solver) -> None:
        self.hints = 0
        self.budgets: list[tuple[float, int]] = []
        hint, verdict = solver.hint, solver.verdict

        async def counted_hint(*args: Any, **kwargs: Any) -> Advice:
            self.hints += 1
            return await hint(*args, **kwargs)

        async def counted_verdict(
            front: Any, code: str, moves: Any, seconds: float, nodes: int, **kw: Any
        ) -> Any:
            self.budgets.append((seconds, nodes))
            return await verdict(front, code, moves, seconds, nodes, **kw)

        solver.hint, solver.verdict = counted_hint, counted_verdict  # type: ignore[method-assign]


class Layer:
    """The game layer on one database: services made on it, each with a solver of its own
    (two services on one store: a restart)."""

    def __init__(self, store: storage.Store) -> None:
        self.store = store
        self.solvers: list[Solver] = []

    def service(self, workers: int = 1) -> GameService:
        self.solvers.append(Solver(workers))
        return GameService(self.store, solver=self.solvers[-1])


@pytest.fixture
async def layer(tmp_path):
    made = Layer(await storage.open_store(str(tmp_path / "hints.sqlite3")))
    yield made
    for solver in made.solvers:
        solver.close()
    await made.store.close()


async def settled(service: GameService, board: Any) -> Any:
    return board if board.pending is None else (await service.settle(board)) or board


async def klondike_lost(service: GameService, user: int, *, settle: bool = True) -> Any:
    """A Klondike game of ``CODE`` in the position its losing move leads to."""
    started = await service.start(StartRequest(user, "klondike", code=engine.parse_code(CODE)))
    gid = started.board.row.id
    board = started.board
    for action in (*OPENING, LOSING_MOVE):
        board = await service.play(user, gid, action)
        board = await settled(service, board) if settle else board
    return board


def said(answer: Any) -> str:
    return hint_text(Translator(), answer.game, answer.advice)


async def test_the_hint_says_the_kept_verdict_with_no_search_seen_and_no_help(layer):
    service = layer.service()
    solver, store = service.solver, layer.store
    lost = await klondike_lost(service, 1)
    assert lost.lost_undos == 1  # the board warns
    gid = lost.row.id
    assert engine.replay(CODE, lost.row.moves).legal_moves()  # the hint player has moves to offer
    calls = Counted(solver)
    answer = await service.hint(1, gid)
    assert answer.advice == Advice("lost", undos=1)
    assert "can no longer be won. Undo 1 move" in said(answer)
    pressed = await service.press(1, gid, lost.row.version, "", HINT)  # the board's Hint button
    assert pressed.advice == Advice("lost", undos=1)
    assert (calls.hints, calls.budgets) == (0, [])  # the kept verdict: nothing searched
    row = await store.get_game(gid)
    assert row.warned and row.hints == 0  # the warning's news: seen, not help
    deeper = next(m for m in lost.game.legal_moves() if m != engine.UNDO)
    moved = await service.play(1, gid, deeper)
    assert moved.pending is None and moved.lost_undos == 2
    assert (await service.hint(1, gid)).advice == Advice("lost", undos=2)
    assert calls.budgets == []
    await service.undo(1, gid)
    await service.undo(1, gid)  # back where it can be won: the hint player's move again
    back = await service.hint(1, gid)
    assert back.advice.status == "move" and calls.hints == 1


async def test_with_nothing_kept_the_hint_searches_once_within_the_warnings_budget(layer):
    first = layer.service()
    lost = await klondike_lost(first, 2)
    restarted = layer.service()  # a restart: nothing is kept in memory
    solver = restarted.solver
    calls = Counted(solver)
    answer = await restarted.hint(2, lost.row.id)
    assert answer.advice == Advice("lost", undos=1)
    assert calls.budgets == [(VERDICT_SECONDS, VERDICT_NODES)] and calls.hints == 0
    assert (await restarted.hint(2, lost.row.id)).advice == Advice("lost", undos=1)
    assert len(calls.budgets) == 1  # kept since


async def test_a_hint_during_the_boards_search_shares_it(layer):
    service = layer.service(2)  # two workers: without sharing, two searches would run side by side
    solver = service.solver
    board = await klondike_lost(service, 3, settle=False)
    assert board.pending is not None
    calls = Counted(solver)
    warned, answer = await asyncio.gather(service.settle(board), service.hint(3, board.row.id))
    assert warned is not None and warned.lost_undos == 1
    assert answer.advice == Advice("lost", undos=1)
    assert len(calls.budgets) == 1


async def test_the_setting_off_leaves_the_hint_as_it_was(layer):
    service = layer.service()
    solver, store = service.solver, layer.store
    await set_warns_lost(store, 4, False)
    lost = await klondike_lost(service, 4)
    calls = Counted(solver)
    answer = await service.hint(4, lost.row.id)
    assert answer.advice.status == "move" and calls.budgets == []
    row = await store.get_game(lost.row.id)
    assert not row.warned and row.hints == 1


async def test_a_race_hint_is_refused_and_tells_nothing(layer):
    service = layer.service()
    solver, store = service.solver, layer.store
    started = await service.start(StartRequest(5, "klondike", code=engine.parse_code(CODE), race=True))
    gid = started.board.row.id
    for action in (*OPENING, LOSING_MOVE):
        board = await service.play(5, gid, action)
        assert board.pending is None and board.lost_undos is None
    calls = Counted(solver)
    asks: list[Callable[[], Any]] = [
        lambda: service.hint(5, gid),
        lambda: service.press(5, gid, board.row.version, "", HINT),
    ]
    for ask in asks:
        with pytest.raises(UserFeedback) as refused:
            await ask()
        assert refused.value.key == "race.error.no_hints"
    assert (calls.hints, calls.budgets) == (0, [])
    assert not (await store.get_game(gid)).warned


async def test_an_eight_column_game_says_the_kept_verdict_without_its_hint_search(layer):
    service = layer.service()
    solver, store = service.solver, layer.store
    started = await service.start(StartRequest(6, "bakers", code=engine.parse_code(BAKERS_LOSING)))
    gid = started.board.row.id
    assert (await settled(service, await service.play(6, gid, "61"))).lost_undos == 1
    calls = Counted(solver)
    answer = await service.hint(6, gid)
    assert answer.advice == Advice("lost", undos=1) and (calls.hints, calls.budgets) == (0, [])
    assert (await store.get_game(gid)).hints == 0


def test_hold_gives_what_is_kept_and_never_replaces_a_newer_position():
    from bot.games.base import Verdict
    from bot.play.verdicts import Verdicts

    v = Verdicts()
    assert v.hold(1, 5, "a") is None and v.current(1, 5)  # nothing known: held from now on
    v.learned(1, 5, Verdict("lost", undos=1))
    assert v.hold(1, 5, "a") == Verdict("lost", undos=1)
    v.step(1, 5, 6, "a", "b", undo=False)
    assert v.hold(1, 5, "a") is None  # a hint that read the game before its last move ...
    assert v.current(1, 6) and v.plan(1, 6).verdict == Verdict("lost", undos=2)  # ... changes nothing
