"""At most one run of a job per key every few seconds, the last request always run (trailing).

The race standings message is edited through this: a burst of moves becomes one edit
now and one more when the interval is over, showing the state as it is *then* (the job
reads it when it runs), so Discord's per-message rate limits are never reached and the
last state is always shown.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


@dataclass
class _Key:
    job: Job
    last: float = float("-inf")
    again: bool = False
    task: asyncio.Task[None] | None = None


class Throttle:
    def __init__(self, interval: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self._clock = clock
        self._keys: dict[Any, _Key] = {}

    def request(self, key: Any, job: Job) -> None:
        """Run ``job`` for ``key`` now if the interval allows, else once as soon as it does."""
        state = self._keys.get(key)
        if state is None:
            state = self._keys[key] = _Key(job)
        state.job = job
        if state.task is None or state.task.done():
            state.task = asyncio.create_task(self._run(state), name=f"throttle-{key}")
        else:
            state.again = True

    async def _run(self, state: _Key) -> None:
        while True:
            wait = state.last + self.interval - self._clock()
            if wait > 0:
                await asyncio.sleep(wait)
            state.again = False
            state.last = self._clock()
            try:
                await state.job()
            except Exception:
                log.exception("a throttled job failed")
            if not state.again:
                return  # no await between this check and the end: no request can slip by

    def forget(self, key: Any) -> None:
        """Drop a key once nothing more will be asked for it (its pending run still happens)."""
        state = self._keys.get(key)
        if state is not None and (state.task is None or state.task.done()):
            del self._keys[key]

    def cancel(self) -> None:
        """Drop every pending run (the bot is closing: a restart redraws what is due)."""
        for state in self._keys.values():
            if state.task is not None:
                state.task.cancel()
        self._keys.clear()

    async def drain(self) -> None:
        """Wait for every pending run (tests, shutdown)."""
        while True:
            tasks = [s.task for s in self._keys.values() if s.task is not None and not s.task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)
