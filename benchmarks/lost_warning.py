"""What the board's "this deal can no longer be won" (issue 28) costs: solver CPU per move, and
the press's acknowledgement with the warning on and off.

    .venv/bin/python benchmarks/lost_warning.py [--games 300] [--deviate 0.1] [--ack-games 10]

Part 1, solver CPU per move: stock deals (the presses benchmark's: the shipped proven-winnable
ones, 4, 2 and 1 free cells in turn) played through ``GameService.play`` on a real SQLite file
as a player would: the solver's solution, but at each move with probability ``--deviate`` a
random legal move instead; after a deviation the player follows a fresh solution from there
when there is one, and when the position is lost undoes as the board says (or, when it says
nothing, plays on at random). The verdict workers run in this process so their CPU time
(``time.process_time``) is measured per action: 0 for an action whose verdict follows
without a search. Pictures are not drawn (they cost the same with or without the warning).
The benchmark's own re-solving (the "player") is not counted.

Part 2, acknowledgement: the real bot process against the local fake Discord, two players
pressing the same moves of the same deals in turn (who goes first alternates; Home when
cards can go home, else a random one-press move), one with the warning on (the default),
one with ``/settings lost_warning:off``; interaction → acknowledgement and → final reply.
The machine may be shared: CPU time (part 1) is the figure to trust, the milliseconds of
part 2 compare the two players under the same load.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
import storage
from bot.games.bakers import shipped_winnable
from bot.play.render_pool import RenderPool
from bot.play.service import GameService
from bot.play.solving import Solver
from bot.play.starting import StartRequest
from engine.bakers import BakersGame
from engine.solver import position_key, solve

USER = 1
MAX_ACTIONS = 250


class MeasuredSolver(Solver):
    """The players' pool run in this process, each worker call's CPU time noted."""

    def __init__(self) -> None:
        super().__init__(1)
        self.cpu: list[float] = []
        self.nodes = 0

    async def run(self, fn: Callable[..., Any], *args: Any, timeout: float | None = None) -> Any:
        t0 = time.process_time()
        result = fn(*args)
        self.cpu.append(time.process_time() - t0)
        self.nodes += getattr(result, "nodes", 0)
        return result


class NoPictures(RenderPool):
    async def render(self, *args: Any, **kwargs: Any) -> bytes:
        return b""


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


async def play_game(
    service: GameService, solver: MeasuredSolver, code: str, rng: random.Random, deviate: float
) -> tuple[list[float], int, int]:
    """(solver CPU of each action, warnings shown, actions searched) of one game."""
    board = (await service.start(StartRequest(USER, "bakers", code=engine.parse_code(code)))).board
    gid = board.row.id
    plan = list(solve(engine.new_game(code), time_limit=30).moves)
    per_action: list[float] = []
    warnings = searched = 0
    while board.row.is_active and len(per_action) < MAX_ACTIONS:
        game = board.game
        if board.lost_undos is not None:  # the board said so: undo as it says, then re-plan
            notation = engine.UNDO
        elif plan and rng.random() >= deviate:
            notation = plan.pop(0)
        else:
            options = [m.notation for m in game.legal_move_objects()]
            if not options:
                notation = engine.UNDO if game.undo_depth else ""
                if not notation:
                    break
            else:
                notation = rng.choice(options)
            plan = []
        before = len(solver.cpu)
        board = await service.play(USER, gid, notation)  # the board is answered here
        settled = await service.settle(board)
        if settled is not None:
            board = settled
        if board.lost_undos is not None and notation != engine.UNDO:
            warnings += 1
        per_action.append(sum(solver.cpu[before:]))
        searched += len(solver.cpu) > before
        if not plan and board.row.is_active and board.lost_undos is None:
            fresh = solve(board.game, time_limit=2.0)  # the player's own way on (not counted)
            plan = list(fresh.moves) if fresh.winnable else []
    if board.row.is_active:
        await service.resign(USER, gid)
    return per_action, warnings, searched


async def part_one(ns: argparse.Namespace) -> None:
    rng = random.Random(ns.seed)
    stocks = {cells: list(shipped_winnable(cells)) for cells in (4, 2, 1)}
    codes = []
    for i in range(ns.games):
        cells = (4, 2, 1)[i % 3]
        codes.append(engine.code_for("bakers", stocks[cells][(i // 3) % len(stocks[cells])], cells))
    with tempfile.TemporaryDirectory() as tmp:
        store = await storage.open_store(str(Path(tmp) / "bench.sqlite3"))
        solver = MeasuredSolver()
        service = GameService(store, solver=solver, pictures=NoPictures())
        cpu: list[float] = []
        warnings = searched = 0
        t0 = time.perf_counter()
        try:
            for code in codes:
                actions, warned, looked = await play_game(service, solver, code, rng, ns.deviate)
                cpu += actions
                warnings += warned
                searched += looked
        finally:
            await store.close()
        wall = time.perf_counter() - t0
    ms = [c * 1000 for c in cpu]
    marks = []
    game = engine.new_game(codes[0])
    for _ in range(200):
        t = time.process_time()
        position_key(game.position)
        marks.append((time.process_time() - t) * 1e6)
    print(f"part 1: {ns.games} games, {len(cpu)} actions (moves and undos), deviation {ns.deviate:.0%}")
    print(f"  actions that needed a search {searched} ({searched / len(cpu):.1%}); warnings shown {warnings}")
    print(
        f"  solver CPU per action: median {statistics.median(ms):.2f} ms, p90 {pct(ms, 90):.1f} ms, "
        f"p99 {pct(ms, 99):.1f} ms, max {max(ms):.0f} ms; mean {statistics.fmean(ms):.2f} ms"
    )
    looked = [m for m in ms if m > 0]
    if looked:
        print(f"  per search: median {statistics.median(looked):.1f} ms, p99 {pct(looked, 99):.1f} ms")
    print(
        f"  nodes searched {solver.nodes}; on the event loop a position mark costs {statistics.median(marks):.0f} µs"
    )
    print(f"  wall {wall:.0f} s (the benchmark's own re-solving included)")


async def part_two(ns: argparse.Namespace) -> None:
    from tests.fakediscord import BotProcess, FakeDiscord

    rng = random.Random(ns.seed + 1)
    deals = shipped_winnable(4)
    acks: dict[str, list[float]] = {"on": [], "off": []}
    finals: dict[str, list[float]] = {"on": [], "off": []}
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            proc = BotProcess(fake, db_path=Path(tmp) / "ack.sqlite3", log_level="WARNING")
            await proc.start(timeout=60)
            try:
                users = {"on": fake.add_user("warned"), "off": fake.add_user("unwarned")}
                await fake.slash(users["off"], "settings", {"lost_warning": "off"})
                for g in range(ns.ack_games):
                    code = engine.code_for("bakers", deals[g % len(deals)], 4)
                    boards = {}
                    for who, user in users.items():
                        boards[who] = (
                            await fake.slash(user, "boulanger", {"code": code}, timeout=30)
                        ).message
                    mirror = engine.new_game(code)
                    for _ in range(ns.ack_moves):
                        run = mirror.home_run()
                        places = [p for p in mirror.places() if _tap(mirror, p)]
                        if run:  # like a player: cards that can go home go
                            place, notation = "h", ",".join(run)
                        elif places:
                            place = rng.choice(places)
                            notation = _tap(mirror, place) or ""
                        else:
                            break
                        ids = {who: _button(fake.message(boards[who].id), place) for who in users}
                        if None in ids.values():  # the game is over: next deal
                            break
                        # Who presses first alternates: the second drawing of the same board
                        # reuses the picture's cached bands, which must favour neither.
                        order = list(users.items())
                        if len(acks["on"]) % 2:
                            order.reverse()
                        for who, user in order:
                            board = fake.message(boards[who].id)
                            result = await fake.click(user, board, ids[who] or "", timeout=30)
                            acks[who].append(result.ack_ms or 0.0)
                            finals[who].append(result.elapsed_ms or 0.0)
                        mirror.play(notation)
                        await asyncio.sleep(ns.think)
                    for user in users.values():  # the next deal starts without a question
                        await fake.slash(user, "resign", {}, timeout=30)
            finally:
                await proc.stop()
    print(f"part 2: the bot process, {ns.ack_games} deals x up to {ns.ack_moves} presses per player")
    for who in ("on", "off"):
        a, f = acks[who], finals[who]
        print(
            f"  warning {who:3}: {len(a)} presses; acknowledgement p50 {statistics.median(a):.0f} ms, "
            f"p95 {pct(a, 95):.0f} ms, max {max(a):.0f} ms; final reply p50 {statistics.median(f):.0f} ms, "
            f"p95 {pct(f, 95):.0f} ms"
        )


def _button(message: Any, place: str) -> str | None:
    return next((b["custom_id"] for b in message.buttons() if b["custom_id"].endswith(f":{place}")), None)


def _tap(game: BakersGame, place: str) -> str | None:
    try:
        return game.double_tap_target(place)
    except engine.IllegalMove:
        return None


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--deviate", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--ack-games", type=int, default=10)
    parser.add_argument("--ack-moves", type=int, default=30)
    parser.add_argument("--think", type=float, default=0.3, help="seconds between presses (part 2)")
    parser.add_argument("--skip-ack", action="store_true")
    parser.add_argument("--skip-cpu", action="store_true")
    ns = parser.parse_args()
    if not ns.skip_cpu:
        await part_one(ns)
    if not ns.skip_ack:
        await part_two(ns)


if __name__ == "__main__":
    asyncio.run(main())
