"""The Activity: time from a drop to the confirmed position on the page, and moves per second.

    .venv/bin/python benchmarks/activity.py [--games 3] [--api-games 20] [--kind bakers|freecell]

1. **Drop to confirmed position**: headless Chromium (Debian's, through Playwright) plays
   stock deals of Jeu du Boulanger to a win by drag and drop alone (the solver's moves), on
   the real page, server, SQLite file and engine, signed in through the fake Discord's OAuth2.
   The page itself times each drop, from the pointer's release to the server's answer drawn
   (``state.timings``, ``performance.now()``): wall-clock on this machine, with the browser,
   the server and the fake sharing its two cores. Target: p95 ≤ 100 ms.
2. **Moves per second** through the game API alone (an aiohttp client in the same process,
   no browser): CPU time of this process per move (``time.process_time``: the server's
   handling, the engine, storage's commit, the client and the fake Discord together, so an
   upper bound on the server's own cost), and wall-clock moves per second.
3. **A full table's polls** (``--table 25``): that many players at one instance, each with a
   game, each polling ``/api/room`` as the page does; CPU of this process per poll and the
   snapshots made (one per table per ``SNAPSHOT_SECONDS``, whatever the number of players).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.adapter.cooldowns import Rate
from bot.games import front_for
from engine import make_code
from tests.activity_browser import CHROMIUM, drag, open_page, settled, version
from tests.activity_rig import activity_rig, drop_of, solution
from tests.fakediscord import FakeDiscord

PLENTY = {"move": Rate(100_000, 1.0), "start": Rate(1000, 1.0), "hint": Rate(1000, 1.0)}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def browser_drops(games: int, codes: list[str], kind: str) -> list[float]:
    from playwright.async_api import async_playwright

    timings: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake, async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            async with activity_rig(fake, Path(tmp), rates=PLENTY) as rig:
                for i, code in enumerate(codes[:games]):
                    user = fake.add_user(f"player{i}")
                    token = await rig.sign_in(user)
                    await rig.start(token, kind, code)
                    page = await open_page(browser, rig, user, kind=kind, width=1280, height=900)
                    for move in solution(code):
                        before = await version(page)
                        await drag(page, *drop_of(move))
                        await settled(page, before)
                    assert await page.evaluate("window.boulanger.state.view.game.status") == "won"
                    timings += await page.evaluate("window.boulanger.state.timings")
                    await page.context.close()
            await browser.close()
    return timings


async def api_moves(games: int, codes: list[str], kind: str) -> tuple[int, float, float]:
    """(moves, CPU seconds, wall seconds) of ``games`` wins through the JSON API."""
    plans = [(code, solution(code)) for code in codes[:games]]
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake, activity_rig(fake, Path(tmp), rates=PLENTY) as rig:
            moves = 0
            cpu = wall = 0.0
            for i, (code, plan) in enumerate(plans):
                user = fake.add_user(f"api{i}")
                token = await rig.sign_in(user)
                view = await rig.start(token, kind, code)
                game = view["game"]
                c0, w0 = time.process_time(), time.perf_counter()
                for move in plan:
                    source, target, count = drop_of(move)
                    body = {
                        "game": game["id"],
                        "version": game["version"],
                        "act": "drop",
                        "source": source,
                        "target": target,
                        "count": count,
                    }
                    status, data = await rig.call(token, "/api/play", body)
                    assert status == 200, data
                    game = data["view"]["game"]
                cpu += time.process_time() - c0
                wall += time.perf_counter() - w0
                moves += len(plan)
                assert game["status"] == "won"
    return moves, cpu, wall


async def table_polls(players: int, rounds: int, codes: list[str], kind: str) -> tuple[int, float, int, int]:
    """(polls, CPU seconds, snapshots made, Discord instance checks) of ``players`` polling a
    table ``rounds`` times each, every round 0.5 s apart (the page: every 2 s)."""
    made = 0
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake, activity_rig(fake, Path(tmp), rates=PLENTY) as rig:
            assert rig.server.rooms is not None
            original = rig.server.rooms._make

            async def counted(*args: object) -> object:
                nonlocal made
                made += 1
                return await original(*args)  # type: ignore[arg-type]

            rig.server.rooms._make = counted  # type: ignore[method-assign]
            users = [fake.add_user(f"table{i}") for i in range(players)]
            instance = fake.launch_activity(fake.channel, *users)
            tokens = [await rig.sign_in(u) for u in users]
            for token, code in zip(tokens, codes, strict=False):
                await rig.start(token, kind, code)
            c0 = time.process_time()
            for n in range(rounds):
                answers = await asyncio.gather(
                    *(rig.call(t, f"/api/room?instance={instance}") for t in tokens)
                )
                assert all(status == 200 for status, _ in answers)
                if n >= 3:  # the first snapshot (kept 1 s) may predate the later arrivals
                    assert all(len(data["players"]) == players for _, data in answers)
                await asyncio.sleep(0.5)
            cpu = time.process_time() - c0
            return players * rounds, cpu, made, fake.instance_checks


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3, help="games won in the browser")
    parser.add_argument("--api-games", type=int, default=20, help="games won through the API alone")
    parser.add_argument("--kind", default="bakers", help="an eight-column game: bakers or freecell")
    parser.add_argument("--table", type=int, default=25, help="players polling one table")
    ns = parser.parse_args()
    codes = [str(make_code(ns.kind, deal, 4)) for deal in front_for(ns.kind).shipped_deals(4)]
    timings = await browser_drops(ns.games, codes, ns.kind)
    print(f"browser: {ns.games} {ns.kind} games won by drag, {len(timings)} drops")
    print(
        f"  drop to confirmed position: p50 {statistics.median(timings):.1f} ms, "
        f"p95 {percentile(timings, 0.95):.1f} ms, max {max(timings):.1f} ms"
    )
    moves, cpu, wall = await api_moves(ns.api_games, codes, ns.kind)
    print(f"API: {ns.api_games} games, {moves} moves")
    print(f"  CPU {cpu / moves * 1000:.2f} ms a move (this process), {moves / wall:.0f} moves/s wall-clock")
    polls, cpu, made, checks = await table_polls(ns.table, 20, codes, ns.kind)
    print(
        f"table: {ns.table} players, {polls} polls, {made} snapshots, {checks} instance checks with Discord"
    )
    print(f"  CPU {cpu / polls * 1000:.2f} ms a poll (this process: server, client and fake together)")


if __name__ == "__main__":
    asyncio.run(main())
