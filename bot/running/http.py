"""Health and metrics over HTTP, on ``BOULANGER_HTTP`` (off when unset).

* ``GET /healthz``: 200 while the process runs and its database answers (503 otherwise);
* ``GET /readyz``: 200 once every shard of this process is connected to the gateway, 503
  before (and while one is reconnecting, and once the bot is stopping);
* ``GET /metrics``: ``bot.running.metrics`` in Prometheus' text format.

The address is ``host:port``; like the Discord address settings (``bot.running.endpoints``)
only a loopback host is accepted unless ``BOULANGER_HTTP_ALLOW_REMOTE`` is set (``0.0.0.0``
in a container, where compose's health check and a scraper reach it): the metrics say how
busy the bot is, which nobody outside needs to know.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from typing import TYPE_CHECKING, Any

from aiohttp import web
from discord.ext import commands
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.running.endpoints import is_loopback

if TYPE_CHECKING:
    BoulangerBot = Any  # the client (bot.adapter.app), not imported: running sits below the adapter

log = logging.getLogger(__name__)

ALLOW_REMOTE = "BOULANGER_HTTP_ALLOW_REMOTE"
#: Seconds /healthz waits for the database before calling it unhealthy.
DATABASE_TIMEOUT = 3.0


def parse_address(
    variable: str, text: str, *, allow_remote: bool, allow_name: str = ALLOW_REMOTE
) -> tuple[str, int] | str:
    """(host, port) from ``host:port`` (``[::1]:9100`` for IPv6), or why it is refused."""
    host, sep, port_text = text.strip().rpartition(":")
    host = host.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or not port_text.isdigit():
        return f"{variable} must be host:port, e.g. 127.0.0.1:9100, not {text!r}"
    port = int(port_text)
    if not 1 <= port <= 65535:
        return f"{variable}: the port must be between 1 and 65535, not {port}"
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return f"{variable} must name an IP address or localhost, not {host!r}"
    if not is_loopback(host) and not allow_remote:
        return (
            f"{variable} listens on {host!r}, which other machines can reach: only loopback "
            f"addresses (127.0.0.1, ::1, localhost) are accepted; set {allow_name}=1 to allow it "
            "(in a container, where the health check and the scraper come from outside)."
        )
    return host, port


class Readiness:
    """Which of this process's shards are connected (READY or RESUMED, and not dropped since)."""

    def __init__(self, client: commands.AutoShardedBot) -> None:
        self.client = client
        self.up: set[int] = set()
        self.stopping = False
        client.add_listener(self._up, "on_shard_ready")
        client.add_listener(self._up, "on_shard_resumed")
        client.add_listener(self._down, "on_shard_disconnect")

    async def _up(self, shard_id: int) -> None:
        self.up.add(shard_id)

    async def _down(self, shard_id: int) -> None:
        self.up.discard(shard_id)

    def expected(self) -> list[int] | None:
        """The shards this process runs; None until Discord or the settings said how many."""
        count = self.client.shard_count
        if count is None:
            return None
        return list(self.client.shard_ids) if self.client.shard_ids is not None else list(range(count))

    def missing(self) -> str:
        """Why the process is not ready (a short sentence), or "" when it is."""
        if self.stopping:
            return "stopping"
        expected = self.expected()
        if expected is None:
            return "not connected to the gateway yet"
        down = [s for s in expected if s not in self.up]
        if down:
            return f"shards {', '.join(map(str, down))} of {self.client.shard_count} not connected"
        return ""


class HealthServer:
    """The HTTP endpoints of one bot process."""

    def __init__(self, bot: BoulangerBot, host: str, port: int) -> None:
        self.bot = bot
        self.host, self.port = host, port
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        log.info("health and metrics on http://%s:%d (/healthz, /readyz, /metrics)", self.host, self.port)

    async def close(self) -> None:
        await self._runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        store = getattr(self.bot, "store", None)
        if store is None:
            return web.Response(status=503, text="starting: the database is not open yet\n")
        try:
            await asyncio.wait_for(store.ping(), DATABASE_TIMEOUT)
        except Exception as exc:
            return web.Response(status=503, text=f"the database does not answer: {type(exc).__name__}\n")
        return web.Response(text="ok\n")

    async def readyz(self, request: web.Request) -> web.Response:
        waiting = self.bot.readiness.missing()
        if waiting:
            return web.Response(status=503, text=f"not ready: {waiting}\n")
        return web.Response(text="ready\n")

    async def metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(self.bot.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
