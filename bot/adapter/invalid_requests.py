"""Counting the invalid requests Discord holds against this IP, and backing off well before its limit.

Discord restricts an IP for a while after 10,000 invalid requests (401, 403, 429
except 429s of shared scope) in 10 minutes. Every response discord.py receives
goes through an aiohttp trace (``trace_config``), so this counts them all, the
429s discord.py retries by itself included. From ``PAUSE_AT`` invalid requests
in the window (a tenth of Discord's limit) non-essential REST work pauses (the
daily post, tidying old boards' buttons) until the count falls to ``RESUME_AT``;
answering players is never paused.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

WINDOW = 600.0  # seconds: Discord's window
DISCORD_LIMIT = 10_000
PAUSE_AT = 1_000
RESUME_AT = 500
INVALID = frozenset({401, 403, 429})


class InvalidRequests:
    """A sliding count of invalid responses; ``paused()`` says whether optional REST work should wait."""

    def __init__(
        self,
        *,
        window: float = WINDOW,
        pause_at: int = PAUSE_AT,
        resume_at: int = RESUME_AT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.window = window
        self.pause_at = pause_at
        self.resume_at = min(resume_at, pause_at)
        self._clock = clock
        self._seen: deque[float] = deque()
        self._paused = False
        self.total = 0

    def record(self, status: int, scope: str | None = None) -> None:
        """One response: counted when Discord counts it as invalid."""
        if status not in INVALID or (status == 429 and scope == "shared"):
            return
        self.total += 1
        self._seen.append(self._clock())
        if not self._paused and self.count() >= self.pause_at:
            self._paused = True
            log.warning(
                "%d invalid Discord requests (401/403/429) in the last %.0f s (Discord restricts the IP "
                "at %d): pausing the daily post and other optional requests",
                self.count(),
                self.window,
                DISCORD_LIMIT,
            )

    def count(self) -> int:
        horizon = self._clock() - self.window
        while self._seen and self._seen[0] <= horizon:
            self._seen.popleft()
        return len(self._seen)

    def paused(self) -> bool:
        if self._paused and self.count() <= self.resume_at:
            self._paused = False
            log.info("invalid Discord requests back down to %d: optional requests resume", self.count())
        return self._paused

    def trace_config(self) -> aiohttp.TraceConfig:
        """Give this to discord.py (``Client(http_trace=...)``): it sees every response."""
        trace = aiohttp.TraceConfig()

        async def on_request_end(
            session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
        ) -> None:
            response = params.response
            self.record(response.status, response.headers.get("X-RateLimit-Scope"))

        trace.on_request_end.append(on_request_end)
        return trace


def paused(client: Any) -> bool:
    """Whether ``client`` (the bot) should skip optional REST work now."""
    counter = getattr(client, "invalid_requests", None)
    return isinstance(counter, InvalidRequests) and counter.paused()
