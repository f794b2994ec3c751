"""The bot's metrics, in Prometheus' text format (``GET /metrics``, ``bot.running.http``).

One registry per process (never the module-level default: tests run several bots in one
interpreter). What is measured, and where it is taken, so that no game or command module
needs to know about metrics:

* interactions by kind and outcome, acknowledgement and completion latency: ``Inflight``
  (``bot.running.inflight``), entered at the adapter's own entry points (commands, every
  restart-proof component, the presses discord.py drops);
* errors by class: ``bot.adapter.errors.report`` marks the interaction, counted when it finishes;
* Discord responses by status (429s included, those discord.py retries by itself too):
  the aiohttp trace every REST request goes through;
* storage time per operation, games started and finished, daily posts made and refused:
  the store's operations, wrapped in place (``timed_store``);
* renders and render time, hint time and the solver's queue: wrappers around the render
  pool's and the solver's coroutines;
* gateway latency per shard: read from discord.py at every scrape.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

import storage
from bot.running.inflight import Inflight

PREFIX = "boulanger"
#: Seconds: Discord's 3 s deadline for the first answer sits between two buckets.
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 15.0)
STORAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
#: The store's operations timed one by one (anything else is "other"); private helpers never.
STORE_OPERATIONS = frozenset(
    name
    for name in dir(storage.Store)
    if not name.startswith("_") and name != "close" and callable(getattr(storage.Store, name))
)


class Metrics:
    """Every metric of one bot process, registered in its own ``registry``."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.interactions = Counter(
            f"{PREFIX}_interactions",
            "Interactions finished, by kind and outcome",
            ["kind", "outcome"],
            registry=r,
        )
        self.ack_seconds = Histogram(
            f"{PREFIX}_interaction_ack_seconds",
            "Time from receiving an interaction to Discord accepting its first response",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.done_seconds = Histogram(
            f"{PREFIX}_interaction_completion_seconds",
            "Time from receiving an interaction to its last handler finishing",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.errors = Counter(
            f"{PREFIX}_errors", "Errors reported to players, by class", ["error"], registry=r
        )
        self.games_started = Counter(
            f"{PREFIX}_games_started", "Games started, per game", ["game"], registry=r
        )
        self.games_finished = Counter(
            f"{PREFIX}_games_finished", "Games ended, per game and status", ["game", "status"], registry=r
        )
        self.renders = Histogram(
            f"{PREFIX}_render_seconds", "Pictures drawn and the time each took", ["what"], registry=r
        )
        self.hints = Histogram(
            f"{PREFIX}_hint_seconds",
            "Hints asked of the solver and the time each took",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.solver_queue = Gauge(
            f"{PREFIX}_solver_queue", "Hints waiting for or running in the solver now", registry=r
        )
        self.storage_seconds = Histogram(
            f"{PREFIX}_storage_seconds",
            "Storage operations and the time each took",
            ["operation"],
            buckets=STORAGE_BUCKETS,
            registry=r,
        )
        self.discord_responses = Counter(
            f"{PREFIX}_discord_responses",
            "Responses from Discord's REST API, by status",
            ["status"],
            registry=r,
        )
        self.daily_posts = Counter(
            f"{PREFIX}_daily_posts",
            "Daily challenge posts made or refused by Discord",
            ["outcome"],
            registry=r,
        )
        self.inflight = Inflight(self.finished)

    def finished(self, kind: str, outcome: str, acked: float | None, done: float, error: str | None) -> None:
        """One interaction finished (``Inflight``'s observer)."""
        self.interactions.labels(kind, outcome).inc()
        if acked is not None:
            self.ack_seconds.labels(kind).observe(acked)
        self.done_seconds.labels(kind).observe(done)
        if error:
            self.errors.labels(error).inc()

    # -- where the numbers come from ----------------------------------------------------
    def trace(self, config: aiohttp.TraceConfig) -> None:
        """Count Discord's responses (and see interactions acknowledged) on discord.py's trace."""

        async def on_end(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
            self.discord_responses.labels(str(params.response.status)).inc()
            if params.response.status < 300:
                self.inflight.acknowledged(params.url.path)

        config.on_request_end.append(on_end)

    def shards(self, client: discord.AutoShardedClient) -> None:
        """Gateway latency per shard, read at every scrape."""
        self.registry.register(_GatewayLatency(client))

    def time_hints(self, solver: Any) -> None:
        """Wrap ``solver.hint``: its time, and how many are waiting or running."""
        hint = solver.hint

        @functools.wraps(hint)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            self.solver_queue.inc()
            started = time.perf_counter()
            try:
                return await hint(*args, **kwargs)
            finally:
                self.solver_queue.dec()
                self.hints.observe(time.perf_counter() - started)

        solver.hint = timed

    def time_renders(self, pictures: Any) -> None:
        """Wrap the render pool's board and replay pictures."""
        for name, what in (("render", "board"), ("render_replay", "replay")):
            setattr(pictures, name, self._timed(getattr(pictures, name), self.renders.labels(what)))

    @staticmethod
    def _timed(call: Callable[..., Awaitable[Any]], histogram: Histogram) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(call)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            with histogram.time():
                return await call(*args, **kwargs)

        return timed

    def timed_store(self, store: storage.Store) -> storage.Store:
        """Time each public operation of ``store`` (in place: it stays the same object, of the
        same class); count starts, endings and daily posts on the way."""
        counts: dict[str, Callable[..., None]] = {
            "create_game": self._count_create_game,
            "finish_game": self._count_finish_game,
            "record_daily_post_message": self._count_daily_post,
            "set_guild_settings": self._count_guild_settings,
        }
        for name in STORE_OPERATIONS:
            operation = getattr(store, name, None)
            if callable(operation):
                setattr(store, name, self._timed_operation(name, operation, counts.get(name)))
        return store

    def _timed_operation(
        self, name: str, operation: Callable[..., Awaitable[Any]], count: Callable[..., None] | None
    ) -> Callable[..., Awaitable[Any]]:
        histogram = self.storage_seconds.labels(name)

        @functools.wraps(operation)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            with histogram.time():
                result = await operation(*args, **kwargs)
            if count is not None:
                count(result, **kwargs)
            return result

        return timed

    def _count_create_game(self, row: storage.GameRow, **kwargs: Any) -> None:
        self.games_started.labels(row.kind).inc()

    def _count_finish_game(self, row: storage.GameRow, **kwargs: Any) -> None:
        self.games_finished.labels(row.kind, row.status).inc()

    def _count_daily_post(self, result: Any, **kwargs: Any) -> None:
        self.daily_posts.labels("made").inc()

    def _count_guild_settings(self, result: Any, **kwargs: Any) -> None:
        if isinstance(kwargs.get("daily_disabled"), str):
            self.daily_posts.labels("refused").inc()


class _GatewayLatency(Collector):
    def __init__(self, client: discord.AutoShardedClient) -> None:
        self.client = client

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            f"{PREFIX}_gateway_latency_seconds", "Heartbeat round trip per shard (seconds)", labels=["shard"]
        )
        for shard_id, latency in self.client.latencies:
            if latency == latency and latency != float("inf"):  # nan/inf before the first heartbeat
                family.add_metric([str(shard_id)], latency)
        yield family
