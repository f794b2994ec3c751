"""The ``commands.Bot`` subclass: opens storage, registers restart-proof buttons and the cogs."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord.ext import commands

import storage
from bot.adapter import cooldowns, places
from bot.adapter.activity import serve
from bot.adapter.again import AgainButton, WinnableButton
from bot.adapter.cogs.starting import start_game
from bot.adapter.confirm import StartChoice
from bot.adapter.errors import ErrorTree, report
from bot.adapter.invalid_requests import InvalidRequests
from bot.adapter.press import Presses
from bot.adapter.replays import ReplayButton
from bot.adapter.views import BOARD_ITEMS
from bot.languages.command_translator import CatalogueTranslator
from bot.play.races import RaceKeeper
from bot.play.render_pool import RenderPool
from bot.play.replay_cache import Replays
from bot.play.service import GameService
from bot.play.solving import Solver
from bot.running import database, heap
from bot.running.config import Config
from bot.running.http import HealthServer, Readiness
from bot.running.inflight import Tracked
from bot.running.metrics import Metrics
from bot.running.sharding import describe, runs_first_shard, shard_options
from bot.running.shutdown import Work

log = logging.getLogger(__name__)

# Every game's start command (built from its record), then the shared commands.
COGS = (
    "bot.adapter.cogs.starting",
    "bot.adapter.cogs.play",
    "bot.adapter.cogs.daily",
    "bot.adapter.cogs.leaderboard",
    "bot.adapter.cogs.language",
    "bot.adapter.cogs.race",
)


class BoulangerBot(commands.AutoShardedBot):
    """Jeu du Boulanger and Calculation on Discord; all game logic lives in ``service``."""

    service: GameService
    store: storage.Store
    races: RaceKeeper  # set by the race cog (bot.adapter.cogs.race)
    exit_code = 0  # non-zero once the bot must stop (bot.running.database: the database was lost)

    def __init__(
        self,
        config: Config,
        *,
        sync_global: bool = False,
        serve_activity: bool = True,
        settle_heap: bool = False,
        **options: Any,
    ) -> None:
        self.settle_heap = settle_heap  # bot.running.heap, once set up
        intents = discord.Intents.none()
        intents.guilds = True
        invalid = InvalidRequests()
        trace = invalid.trace_config()
        self.metrics = Metrics()  # bot.running.metrics: what GET /metrics shows
        self.metrics.trace(trace)
        # No voice here: discord.py's class-wide switches for its "PyNaCl / davey is not installed,
        # voice will NOT be supported" warnings, which would send an operator looking for a fault.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=ErrorTree,
            # Every command in both installs and every context unless it says otherwise
            # (bot.adapter.places: the servers' own commands).
            allowed_installs=places.EVERY_INSTALL,
            allowed_contexts=places.EVERY_CONTEXT,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=trace,
            **{**shard_options(config), **options},
        )
        self.invalid_requests = invalid  # 401/403/429 counted; optional REST work pauses on many
        self.config = config
        self.sync_global = sync_global or config.sync_global
        self.solver = Solver(config.solver_workers)
        self.quotas = cooldowns.Quotas()  # per-player hints, replays and starts
        self.replays = Replays()
        self.templates: list[re.Pattern[str]] = []  # every restart-proof component's custom id
        self.presses: Presses | None = None  # the board's controls, answered (bot.adapter.press)
        self.pictures = RenderPool(config.render_workers)
        self.metrics.time_hints(self.solver)
        self.metrics.time_renders(self.pictures)
        self.metrics.shards(self)
        self.metrics.inflight.name_kinds(commands=self._command_names, prefixes=self._custom_id_prefixes)
        self.readiness = Readiness(self)  # GET /readyz
        self.work = Work()  # background rounds a graceful stop waits for (bot.running.shutdown)
        self.health: HealthServer | None = None
        self.activity_server: Any = None  # the Activity's server (bot.adapter.activity), when served
        self.chat_boards: Any = None  # the chat boards Activity moves edit
        self.serve_activity = serve_activity and config.activity is not None  # not for `python -m bot sync`
        self.tree.wants_entry_point = config.activity is not None  # type: ignore[attr-defined]
        self.tree.bot_token = config.token  # type: ignore[attr-defined]

    async def setup_hook(self) -> None:
        self.store = self.metrics.timed_store(await database.open_store(self))
        self.service = GameService(
            self.store, solver=self.solver, hint_seconds=self.config.hint_seconds, pictures=self.pictures
        )
        self.presses = Presses(self.service, self.templates)
        self.add_dynamic_items(*BOARD_ITEMS, ReplayButton, StartChoice, AgainButton, WinnableButton)
        await self.tree.set_translator(CatalogueTranslator())
        for name in extensions():
            await self.load_extension(name)
        log.info("running %s", describe(self.config))
        if self.sync_global or runs_first_shard(self.config):  # one process syncs, not every one
            await self.sync_commands()
        if self.serve_activity:
            self.activity_server, self.chat_boards = await serve(self, self.config, self.service, self.quotas)
        self._warming = asyncio.create_task(self.solver.warm())
        self._warming_pictures = asyncio.create_task(self.pictures.warm())
        self.service.top_up_all()
        if self.settle_heap:  # the bot's own process only (not a test's, with bots started again and again)
            log.debug("%d objects of the start-up frozen out of the collector's way", heap.settle())

    async def sync_commands(self) -> None:
        """Sync instantly to the development guild; globally only when asked (it is rate-limited)."""
        if self.config.dev_guild_id:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), guild.id)
        if self.sync_global:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info(
            "connected as %s (id %s) to %d guilds", self.user, getattr(self.user, "id", "?"), len(self.guilds)
        )

    async def serve_health(self) -> None:
        """Health and metrics over HTTP (``BOULANGER_HTTP``), from before the login on."""
        if self.config.http is not None and self.health is None:
            self.health = HealthServer(self, *self.config.http)
            await self.health.start()

    async def close(self) -> None:
        self.readiness.stopping = True
        if self.activity_server is not None:
            await self.activity_server.close()
            self.activity_server = None
        if self.chat_boards is not None:
            self.chat_boards.close()
        await super().close()
        self.solver.close()
        self.pictures.close()
        store = getattr(self, "store", None)
        if store is not None:
            await database.close_store(store)
        if self.health is not None:
            await self.health.close()
            self.health = None

    def _command_names(self) -> set[str]:
        return {command.name for command in self.tree.get_commands()}

    def _custom_id_prefixes(self) -> set[str]:
        """The first part of every custom id template registered (``g`` of ``g:...``)."""
        return {t.pattern.lstrip("^").split(":", 1)[0] for t in self.templates}

    # -- what buttons reach through the client (``bot.adapter.interactions``, ``views``) --
    async def start_game(
        self,
        interaction: discord.Interaction[Any],
        kind: str,
        *,
        cells: int | None = None,
        daily: bool = False,
    ) -> None:
        """The shared start path, for the buttons under a finished board and the daily post."""
        await start_game(interaction, kind, cells=cells, daily=daily)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register restart-proof components, remembering their custom id templates (the
        presses discord.py drops: ``bot.adapter.press``; the metrics' kinds)."""
        for item in items:
            if not issubclass(item, Tracked):  # its presses would be answered as unknown too
                raise TypeError(f"{item.__name__} must mix in bot.running.inflight.Tracked")
        super().add_dynamic_items(*items)
        self.templates.extend(item.custom_id_pattern for item in items if issubclass(item, Tracked))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A press discord.py drops (an id none of ours, or not on the message it came with: a fast
        second tap, a forged id) gets an answer too; the player would see "did not respond"."""
        if self.presses is not None:
            await self.presses.dropped(interaction)

    async def on_error(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("unhandled error in %s", event)

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        await report(interaction, error)


def extensions() -> list[str]:
    """The cogs to load: every game's start command, then the shared ones."""
    return list(COGS)
