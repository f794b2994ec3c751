"""The Activity's page on a phone's network: drop to drawn, drop to confirmed, rollbacks, lost moves.

    .venv/bin/python benchmarks/activity_phone.py [--rounds 2] [--bursts 4] [--before def4558]

Headless Chromium (Debian's, through Playwright) plays stock deals of Jeu du Boulanger on the
real page, server, SQLite file and engine, reaching the server through a delaying proxy
(tests/activity_network.py ``phone``: 150 ms round trip, 50 ms jitter, each way half of it give
or take half the jitter, answers free to overtake one another). Two ways of playing:

* **paced**: a whole game won by drag and drop (the solver's moves), each drop made once the
  previous one is confirmed: a player looking at the table between moves;
* **bursts**: ten drops made back to back without waiting (the solver's next ten moves), then
  the page left to settle: a player sending cards home one after another.

The page times each drop itself (``performance.now()`` against the pointer event's
``timeStamp``): to its cards drawn in their new place (``state.drawn``: the next animation
frame after the drawing) and to the server's confirmed position drawn (``state.timings``).
Rollbacks (``state.rollbacks``), refusals, and lost moves (drops made that the stored game
lacks) are counted.

``--moves-cost``: instead, what listing the page's moves costs the server a view
(``bot.activity.moves.page_moves``: CPU per position, over positions of random legal play).

``--before REF``: the same runs with the page of commit REF (``bot/activity/static`` at REF),
alternated with this one round by round (before, after, before, after …) on this busy
machine. A page without ``state.drawn`` draws a drop only when its answer comes: its drop to
drawn is its drop to confirmed.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.adapter.cooldowns import Rate
from bot.games import front_for
from engine import make_code
from tests.activity_browser import CHROMIUM, drag, open_page, version
from tests.activity_network import phone
from tests.activity_rig import activity_rig, drop_of, solution
from tests.fakediscord import FakeDiscord

PLENTY = {"move": Rate(100_000, 1.0), "start": Rate(1000, 1.0), "hint": Rate(1000, 1.0)}
ROOT = Path(__file__).resolve().parent.parent
IDLE = "() => { const s = window.boulanger.state; return !(s.queue && s.queue.length) && !s.sending && !s.busy; }"


@dataclass
class Tally:
    drawn: list[float] = field(default_factory=list)
    confirmed: list[float] = field(default_factory=list)
    drops: int = 0
    stored: int = 0
    rollbacks: int = 0
    refusals: int = 0

    def add(self, other: Tally) -> None:
        self.drawn += other.drawn
        self.confirmed += other.confirmed
        for name in ("drops", "stored", "rollbacks", "refusals"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def page_of(ref: str, into: Path) -> Path:
    """``bot/activity/static`` as it was at commit ``ref``."""
    archive = subprocess.run(
        ["git", "archive", ref, "bot/activity/static"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "bot" / "activity" / "static"


async def measured(page, rig, game_id: int, drops: int) -> Tally:
    await page.wait_for_function(IDLE, timeout=60_000)
    await page.wait_for_timeout(300)  # a refused drop's answer, if any, is in
    got = await page.evaluate(
        "(() => { const s = window.boulanger.state; return {drawn: s.drawn || null, timings: s.timings,"
        " rollbacks: s.rollbacks || 0, refusals: s.refusals || 0}; })()"
    )
    row = await rig.service.store.get_game(game_id)
    confirmed = list(got["timings"])
    drawn = list(got["drawn"]) if got["drawn"] is not None else confirmed
    said = (await page.locator("#say").text_content()) or ""
    refusals = got["refusals"] if got["drawn"] is not None else int(bool(said))
    return Tally(drawn, confirmed, drops, len(row.moves), got["rollbacks"], refusals)


async def paced(browser, rig, fake, code: str, n: int) -> Tally:
    user = fake.add_user(f"paced{n}")
    view = await rig.start(await rig.sign_in(user), "bakers", code)
    page = await open_page(browser, rig, user, width=390, height=844)
    moves = solution(code)
    for move in moves:
        before = await version(page)
        await drag(page, *drop_of(move))
        await page.wait_for_function(
            f"() => ({IDLE})() && window.boulanger.state.view.game.version !== {before}", timeout=60_000
        )
    tally = await measured(page, rig, view["game"]["id"], len(moves))
    await page.context.close()
    return tally


async def burst(browser, rig, fake, code: str, n: int) -> Tally:
    user = fake.add_user(f"burst{n}")
    view = await rig.start(await rig.sign_in(user), "bakers", code)
    page = await open_page(browser, rig, user, width=390, height=844)
    moves = solution(code)[:10]
    for move in moves:
        try:
            await drag(page, *drop_of(move))
        except AssertionError:  # an earlier drop was not played: this one's cards are not there
            continue
    tally = await measured(page, rig, view["game"]["id"], len(moves))
    await page.context.close()
    return tally


async def run(
    static: Path | None, codes: list[str], bursts: int, browser, label: str, n: int
) -> tuple[Tally, Tally]:
    with tempfile.TemporaryDirectory() as tmp:
        async with (
            FakeDiscord() as fake,
            activity_rig(fake, Path(tmp), rates=PLENTY, network=phone(seed=n), static=static) as rig,
        ):
            steady = await paced(browser, rig, fake, codes[n % len(codes)], n)
            quick = Tally()
            for b in range(bursts):
                quick.add(await burst(browser, rig, fake, codes[(n + b + 1) % len(codes)], n * 100 + b))
    print(f"  round {n} {label}: paced {len(steady.confirmed)} drops, bursts {quick.drops} drops", flush=True)
    return steady, quick


def report(label: str, steady: Tally, quick: Tally) -> None:
    print(f"{label}:")
    for name, t in (("paced", steady), ("bursts", quick)):
        print(
            f"  {name}: {t.drops} drops, {t.stored} stored ({t.drops - t.stored} lost), "
            f"{t.refusals} refused, {t.rollbacks} rollbacks"
        )
        if t.drawn:
            print(
                f"    drop to drawn: p50 {statistics.median(t.drawn):.1f} ms, p95 {percentile(t.drawn, 0.95):.1f} ms"
                f" ({len(t.drawn)} drops)"
            )
        if t.confirmed:
            print(
                f"    drop to confirmed: p50 {statistics.median(t.confirmed):.1f} ms, "
                f"p95 {percentile(t.confirmed, 0.95):.1f} ms ({len(t.confirmed)} drops)"
            )


def moves_cost(positions: int = 300) -> None:
    import random
    import time

    import engine
    from bot.activity.moves import page_moves
    from bot.games import front_of
    from bot.languages.i18n import Translator

    tr = Translator("en")
    chance = random.Random(7)
    for code in ("BK1-C4-AAAAA24", "FC1-C4-MS1", "CA1-AAAAA24"):
        spent, seen, listed = 0.0, 0, 0
        while seen < positions:
            game = engine.new_game(engine.parse_code(code))
            front = front_of(game)
            while seen < positions and (moves := game.legal_moves()):
                table = front.table(tr, game)
                start = time.process_time()
                found = page_moves(front, game, table)
                spent += time.process_time() - start
                seen += 1
                listed += len(found["drops"])
                game.play(chance.choice(moves))
        print(
            f"{code}: {spent / seen * 1000:.3f} ms CPU a view ({seen} positions, {listed / seen:.1f} drops each)"
        )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2, help="rounds (each: one paced game and the bursts)")
    parser.add_argument("--bursts", type=int, default=4, help="bursts of ten quick drops a round")
    parser.add_argument("--before", help="a commit whose page is measured too, alternated with this one")
    parser.add_argument("--moves-cost", action="store_true", help="only: the server's cost of view.moves")
    ns = parser.parse_args()
    if ns.moves_cost:
        moves_cost()
        return
    from playwright.async_api import async_playwright

    codes = [str(make_code("bakers", deal, 4)) for deal in front_for("bakers").shipped_deals(4)]
    sides = {"after": (None, Tally(), Tally())}
    with tempfile.TemporaryDirectory() as old:
        if ns.before:
            sides = {"before": (page_of(ns.before, Path(old)), Tally(), Tally()), **sides}
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for n in range(ns.rounds):
                for label, (static, steady, quick) in sides.items():
                    s, q = await run(static, codes, ns.bursts, browser, label, n)
                    steady.add(s)
                    quick.add(q)
            await browser.close()
    print("network: 150 ms round trip, 50 ms jitter (a delaying proxy); page at 390 x 844")
    for label, (_, steady, quick) in sides.items():
        report(f"{label} ({ns.before})" if label == "before" else label, steady, quick)


if __name__ == "__main__":
    asyncio.run(main())
