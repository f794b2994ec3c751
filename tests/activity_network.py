"""A phone's network between the Activity's page and its server: a delaying HTTP proxy.

``DelayingProxy(upstream, delay)`` listens on 127.0.0.1 and forwards every request to
``upstream`` (the ``ActivityServer``), holding each request ``delay(request)[0]`` seconds on
its way there and its answer ``delay(request)[1]`` seconds on its way back, each request on its
own, so answers may overtake one another as on a jittery link. Chromium's own throttling
(``Network.emulateNetworkConditions``) adds a fixed latency without jitter and keeps answers in
order: it cannot make a late refresh arrive after a move's answer.

``phone(rtt=0.150, jitter=0.050)``: each way half the round trip, give or take half the
jitter (uniform), on the game API only (``/api/``; the page's files come at once).
``late(path, seconds)``: only the answers of ``path`` held back.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import aiohttp
from aiohttp import web

Delay = Callable[[web.Request], tuple[float, float]]  # (request way, answer way) in seconds
HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "host"}


def phone(rtt: float = 0.150, jitter: float = 0.050, *, seed: int = 42) -> Delay:
    chance = random.Random(seed)

    def delay(request: web.Request) -> tuple[float, float]:
        if not request.path.startswith("/api/"):
            return 0.0, 0.0
        return tuple(rtt / 2 + chance.uniform(-jitter / 2, jitter / 2) for _ in range(2))  # type: ignore[return-value]

    return delay


def late(path: str, seconds: float) -> Delay:
    def delay(request: web.Request) -> tuple[float, float]:
        return (0.0, seconds) if request.path == path else (0.0, 0.0)

    return delay


class DelayingProxy:
    def __init__(self, upstream: str, delay: Delay) -> None:
        self.upstream = upstream.rstrip("/")
        self.delay = delay
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._http: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = web.Application(client_max_size=1 << 20)
        app.router.add_route("*", "/{tail:.*}", self._forward)
        self._http = aiohttp.ClientSession(auto_decompress=False)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._http is not None:
            await self._http.close()

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        there, back = self.delay(request)
        body = await request.read()
        await asyncio.sleep(there)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        assert self._http is not None
        async with self._http.request(
            request.method, self.upstream + request.path_qs, headers=headers, data=body or None
        ) as answer:
            data = await answer.read()
            status = answer.status
            kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP}
        await asyncio.sleep(back)
        return web.Response(status=status, body=data, headers=kept)
