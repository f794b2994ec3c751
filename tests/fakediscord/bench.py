"""`python -m tests.fakediscord.bench`: what the fake itself costs, so bot figures can be read fairly.

Prints (1) OpenAPI validation time for a small and a board-sized message body and (2) the
interaction-to-reply time of the tiny demo bot (a subprocess) for one player, then for 50 players
at once (a slash command, then 10 button edits each), with lost and doubled edits counted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from .botproc import BotProcess
from .openapi import load_spec
from .server import FakeDiscord


def _board_body(rows: int, per_row: int) -> dict:
    components = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": f"{r}{c}", "custom_id": f"g:1:{r}:{c}"}
                for c in range(per_row)
            ],
        }
        for r in range(rows)
    ]
    return {
        "type": 7,
        "data": {
            "content": "board",
            "components": components,
            "attachments": [{"id": 0, "filename": "b.png"}],
        },
    }


def validation_figures(repeat: int = 200) -> None:
    spec = load_spec()
    route = spec.match("POST", "/interactions/1/token/callback")
    assert route is not None
    for label, body in (("1 button", _board_body(1, 1)), ("20 buttons (4x5)", _board_body(4, 5))):
        assert spec.validate(route, body) == []
        start = time.perf_counter()
        for _ in range(repeat):
            spec.validate(route, body)
        print(
            f"OpenAPI validation, callback with {label}: {(time.perf_counter() - start) / repeat * 1000:.2f} ms"
        )


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


async def round_trips(players: int, clicks: int) -> None:
    async with FakeDiscord() as fake:
        bot = BotProcess(
            fake,
            db_path=Path(tempfile.mkdtemp()) / "unused",
            module="tests.fakediscord.demo_bot",
            log_level="WARNING",
        )
        await bot.start()
        try:
            users = [fake.add_user(f"player{i}") for i in range(players)]

            async def play(user) -> tuple[list[float], int]:
                times = []
                dealt = await fake.slash(user, "deal")
                times.append(dealt.elapsed_ms)
                for _ in range(clicks):
                    times.append((await fake.click(user, dealt.message, "demo:again")).elapsed_ms)
                return times, int(dealt.message.content.split()[-1])

            start = time.perf_counter()
            results = await asyncio.gather(*(play(u) for u in users))
            wall = time.perf_counter() - start
        finally:
            await bot.stop()
        times = [t for ts, _ in results for t in ts]
        lost = sum(max(0, clicks - edits) for _, edits in results)
        doubled = sum(max(0, edits - clicks) for _, edits in results)
        print(
            f"demo bot, {players} player(s) x (1 slash + {clicks} clicks): {len(times)} interactions in {wall:.2f} s, "
            f"p50 {statistics.median(times):.1f} ms, p95 {_percentile(times, 0.95):.1f} ms, "
            f"lost {lost}, doubled {doubled}, violations {len(fake.violations)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.fakediscord.bench", description=__doc__)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--clicks", type=int, default=10)
    args = parser.parse_args()
    validation_figures()
    asyncio.run(round_trips(1, args.clicks))
    asyncio.run(round_trips(args.players, args.clicks))


if __name__ == "__main__":
    main()
