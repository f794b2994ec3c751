"""The standings throttle: at most one run per key per interval, and the last request always runs."""

from __future__ import annotations

import asyncio

from bot.adapter.throttle import Throttle


async def test_a_burst_runs_once_now_and_once_at_the_end_of_the_interval():
    loop = asyncio.get_running_loop()
    runs: list[tuple[float, int]] = []
    state = {"value": 0}

    async def job() -> None:
        runs.append((loop.time(), state["value"]))  # reads the state when it runs

    throttle = Throttle(0.3, clock=loop.time)
    for value in range(1, 11):
        state["value"] = value
        throttle.request("race", job)
        await asyncio.sleep(0.01)
    await throttle.drain()
    assert [v for _, v in runs] == [1, 10]  # the first at once, then one showing the last state
    assert runs[1][0] - runs[0][0] >= 0.3 * 0.99


async def test_keys_are_independent_and_a_quiet_key_runs_at_once():
    loop = asyncio.get_running_loop()
    runs: list[str] = []

    def job(key: str):
        async def run() -> None:
            runs.append(key)

        return run

    throttle = Throttle(5.0, clock=loop.time)
    throttle.request("a", job("a"))
    throttle.request("b", job("b"))
    await asyncio.sleep(0.05)
    assert sorted(runs) == ["a", "b"]  # two races' messages do not wait for each other
    throttle.request("a", job("a2"))
    await asyncio.sleep(0.05)
    assert "a2" not in runs  # within the interval: waits …
    throttle.cancel()  # … and closing drops it (a restart redraws what is due)
    await asyncio.sleep(0.05)
    assert "a2" not in runs


async def test_a_failing_job_does_not_stop_later_runs():
    loop = asyncio.get_running_loop()
    runs: list[int] = []

    async def failing() -> None:
        raise RuntimeError("Discord said no")

    async def fine() -> None:
        runs.append(1)

    throttle = Throttle(0.05, clock=loop.time)
    throttle.request("k", failing)
    await throttle.drain()
    throttle.request("k", fine)
    await throttle.drain()
    assert runs == [1]
