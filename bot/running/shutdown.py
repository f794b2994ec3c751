"""The graceful stop: SIGTERM or SIGINT, and the bot is done within ``STOP_SECONDS``.

What happens, in order (``GracefulStop.stop``):

1. no new background work: the background loops (the daily poster, the race keeper)
   finish the round they are in and start no other; the winnable-deal top-ups stop;
2. the gateway is closed, shard by shard: Discord sends this process no new interaction
   (after a restart, or to another process, it will);
3. every interaction already received is answered: the stop waits for their handlers
   (``bot.running.inflight``), a hint's search included;
4. the client's HTTP session, the solver and render workers and the store are closed;
5. one log line says what was done and how long it took, and ``python -m bot`` exits 0.

Whatever is still running at the deadline is cut off (the log line says how many
interactions), so a supervisor's grace period (compose's default is 10 s) is never
overrun. A second signal stops at once: ``os._exit``, nothing more is waited for (every
acknowledged move is already committed; the database is durable at each commit).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from discord.ext import tasks

if TYPE_CHECKING:
    BoulangerBot = Any  # the client (bot.adapter.app), not imported: running sits below the adapter

log = logging.getLogger(__name__)

#: Seconds from the signal to the end: inside compose's default 10 s stop grace period.
STOP_SECONDS = 8.0
#: Of those, at most this long for closing the gateway.
GATEWAY_SECONDS = 2.0
SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Work:
    """Background rounds in progress (a daily post check, a race keeper round): the stop waits
    for them to end, and none starts once the bot is stopping."""

    def __init__(self) -> None:
        self.stopping = False
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def round(self) -> AsyncIterator[bool]:
        """``async with work.round() as go:`` -- do the round only if ``go`` (not stopping)."""
        if self.stopping:
            yield False
            return
        self._busy += 1
        self._idle.clear()
        try:
            yield True
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def idle(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True


class GracefulStop:
    """The signal handlers of one ``python -m bot`` run."""

    def __init__(self, bot: BoulangerBot, *, seconds: float = STOP_SECONDS) -> None:
        self.bot = bot
        self.seconds = seconds
        self.task: asyncio.Task[None] | None = None
        self.signal_name = ""

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in SIGNALS:
            loop.add_signal_handler(signum, self.signalled, signum)
        # Worker processes forked from now on (solver, renderer) must not inherit these
        # handlers: they would swallow the SIGTERM that ends them with the bot (bot.play.solving).
        os.register_at_fork(after_in_child=_default_signals)

    def signalled(self, signum: int) -> None:
        name = signal.Signals(signum).name
        if self.task is not None:  # the second signal: the operator does not want to wait
            print(f"{name} again: stopping at once", file=sys.stderr, flush=True)
            end_workers()
            os._exit(128 + signum)
        self.signal_name = name
        self.task = asyncio.get_running_loop().create_task(self.stop(), name="graceful-stop")

    async def stop(self) -> None:
        bot = self.bot
        started = time.monotonic()
        deadline = started + self.seconds
        bot.work.stopping = True
        bot.readiness.stopping = True
        loops = background_loops(bot)
        for loop in loops:
            loop.stop()  # after the round in progress, if any
        service = getattr(bot, "service", None)
        if service is not None:
            service.stop_background()
        shards = list(bot.shards.values())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(s.disconnect() for s in shards), return_exceptions=True), GATEWAY_SECONDS
            )
        waiting = len(bot.metrics.inflight)
        answered = await bot.metrics.inflight.idle(max(0.0, deadline - time.monotonic()))
        rounds_done = await bot.work.idle(max(0.0, deadline - time.monotonic()))
        for loop in loops:
            loop.cancel()  # asleep between rounds, or cut off at the deadline
        left = len(bot.metrics.inflight)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(bot.close(), max(0.5, deadline - time.monotonic()))
        end_workers()  # a search cut off at the deadline would hold the exit up
        log.info(
            "stopped on %s in %.1f s: %d interaction(s) in flight %s, background work %s, "
            "gateway and database closed",
            self.signal_name,
            time.monotonic() - started,
            waiting,
            "all answered" if answered else f"({left} cut off at the deadline)",
            "at a safe point" if rounds_done else "cut off at the deadline",
        )


def _default_signals() -> None:
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)


def end_workers() -> None:
    """Kill the solver's and renderer's worker processes: whatever they still compute is
    no longer wanted, and an orphan would keep running (and holding the log's pipe)."""
    for child in multiprocessing.active_children():
        child.kill()


def background_loops(bot: BoulangerBot) -> list[tasks.Loop[Any]]:
    """Every running ``tasks.loop`` of the bot's cogs."""
    found: list[tasks.Loop[Any]] = []
    for cog in bot.cogs.values():
        for name in dir(type(cog)):
            if isinstance(getattr(type(cog), name, None), tasks.Loop):
                loop = getattr(cog, name)
                if loop.is_running():
                    found.append(loop)
    return found
