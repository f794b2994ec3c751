"""The daily challenge: ``/daily``, the admins' ``/dailychannel``, and the 00:00 UTC post.

The post is claimed in storage before it is sent (an atomic claim), so two
processes or a restart never post twice; a guild whose post is due but not
sent (the bot was down at midnight) is caught up on the next check.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.adapter import invalid_requests, places
from bot.adapter.again import DailyButton
from bot.adapter.channel_history import find_own_post
from bot.adapter.cogs.starting import start_game
from bot.adapter.errors import send
from bot.adapter.interactions import game_choices
from bot.adapter.layouts import Accent, Card
from bot.games import GameFront, fronts
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator
from bot.play import dailycodes
from bot.play.service import GameService
from storage import GuildSettings

if TYPE_CHECKING:
    from bot.adapter.app import BoulangerBot

log = logging.getLogger(__name__)
# Daily posts sent at once by one round: a channel whose sends Discord retries holds up no other.
POSTERS = 8


def daily_fronts() -> list[GameFront[Any]]:
    return [front for front in fronts() if front.has_daily]


def daily_post_card(tr: Translator, day: dt.date, codes: dict[str, str]) -> discord.ui.LayoutView:
    """The daily post: the day's codes of every game with a daily, when they change, a Play
    button for each (its custom id also marks the post: ``Daily._find_post``)."""
    reset = dailycodes.next_reset(dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC))
    lines = [tr("daily.post.line", game=front.title(tr), code=codes[front.kind]) for front in daily_fronts()]
    card = Card(Accent.DAILY).heading(tr("daily.post.title", date=day.isoformat())).text(*lines)
    card.note(tr("daily.post.reset", reset=discord.utils.format_dt(reset, "R"))).separator()
    buttons = [
        DailyButton.of(front, day, tr("daily.post.play", game=front.title(tr))) for front in daily_fronts()
    ]
    return card.buttons(buttons).view()


class Daily(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot
        # The guilds whose post this process is sending now (a round skips them), each with what
        # /dailychannel waits for before telling the admin about a refusal. No lock is held while
        # Discord answers (its retries of a 5xx take ~25 s): other servers' posts and commands go on.
        self._in_flight: dict[int, asyncio.Future[None]] = {}
        bot.add_dynamic_items(DailyButton)

    async def cog_load(self) -> None:
        self.poster.change_interval(seconds=self.bot.config.daily_check_seconds)
        self.poster.start()

    @property
    def _service(self) -> GameService:
        return self.bot.service

    async def cog_unload(self) -> None:
        self.poster.cancel()

    @app_commands.command(
        name="daily", description="Play today's daily challenge (the same deal on every server)"
    )
    @app_commands.choices(game=[c for c in game_choices() if c.value in {f.kind for f in daily_fronts()}])
    async def daily(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """Only your first finished attempt counts for the daily leaderboard and streaks."""
        await start_game(interaction, game.value, daily=True)
        await self._tell_if_disabled(interaction)

    @app_commands.command(
        name="dailychannel", description="Choose where the daily challenge is posted at 00:00 UTC"
    )
    @app_commands.describe(channel="The channel for the daily post; leave empty to stop posting")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @places.in_servers
    @places.needs_server_bot("daily_channel")  # it posts in the channel itself
    async def dailychannel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        service = self._service
        assert interaction.guild_id is not None
        tr = await player_translator(interaction)
        await service.store.set_guild_settings(
            interaction.guild_id, daily_channel_id=channel.id if channel else None
        )
        if channel is None:
            await send(interaction, tr("daily.channel.off"), ephemeral=True)
            return
        reset = discord.utils.format_dt(dailycodes.next_reset(service.clock()), "R")
        await send(interaction, tr("daily.channel.set", channel=channel.mention, reset=reset), ephemeral=True)
        await self.post_due()
        await self._settled(interaction.guild_id)  # a post already under way for this server
        await self._tell_if_disabled(interaction)  # the first post was refused just now

    async def _tell_if_disabled(self, interaction: discord.Interaction) -> None:
        """Tell a Manage Server member (only them, privately) that Discord refused the daily channel."""
        permissions = getattr(interaction.user, "guild_permissions", None)
        if interaction.guild_id is None or permissions is None or not permissions.manage_guild:
            return
        settings = await self._service.store.guild_settings(interaction.guild_id)
        if settings.daily_disabled is None or settings.daily_channel_id is None:
            return
        tr = await player_translator(interaction)
        channel = f"<#{settings.daily_channel_id}>"
        try:
            await send(
                interaction,
                tr("daily.disabled", channel=channel, reason=settings.daily_disabled),
                ephemeral=True,
            )
        except discord.HTTPException as exc:
            log.info(
                "could not tell guild %s's admin that daily posts stopped: %s", interaction.guild_id, exc
            )

    @tasks.loop(seconds=30)
    async def poster(self) -> None:
        if invalid_requests.paused(self.bot):
            return  # Discord is counting invalid requests against us: the post can wait
        async with self.bot.work.round() as go:  # a graceful stop waits for this round
            if not go:
                return
            try:
                await self.post_due()
            except Exception:
                log.exception("daily post check failed")

    @poster.before_loop
    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def _find_post(self, channel_id: int, day: dt.date) -> int | None:
        """Our post of ``day`` among the channel's recent messages (sent, but not recorded)."""
        markers = {f"d:{f.letter}:{day.strftime('%Y%m%d')}" for f in daily_fronts()}
        return await find_own_post(self.bot, channel_id, markers)

    async def post_due(self) -> int:
        """Post today's challenge in every guild whose post is due; returns how many were sent.

        Up to ``POSTERS`` posts are sent at once, so one channel whose sends are retried
        holds up none of the others; a guild whose post is already being sent by this
        process is skipped (the store's claim keeps other processes off it)."""
        service = self._service
        store = service.store
        now = service.clock()
        day = dailycodes.utc_today(now)
        due = [s for s in await store.pending_daily_posts(day, now=now) if s.guild_id not in self._in_flight]
        if not due:
            return 0
        codes = {f.kind: await service.daily_code(f.kind, day) for f in daily_fronts()}
        queue = list(due)
        sent = 0

        async def poster() -> None:
            nonlocal sent
            while queue:
                settings = queue.pop(0)
                if settings.guild_id in self._in_flight:
                    continue
                done = asyncio.get_running_loop().create_future()
                self._in_flight[settings.guild_id] = done
                try:
                    sent += await self._post_one(settings, day, codes, now)
                finally:
                    del self._in_flight[settings.guild_id]
                    done.set_result(None)

        results = await asyncio.gather(
            *(poster() for _ in range(min(POSTERS, len(due)))), return_exceptions=True
        )
        for failure in results:
            if isinstance(failure, BaseException):
                raise failure
        return sent

    async def _settled(self, guild_id: int) -> None:
        """Wait until this process is no longer sending ``guild_id``'s post (no lock: a future)."""
        sending = self._in_flight.get(guild_id)
        if sending is not None:
            await asyncio.shield(sending)

    async def _post_one(
        self, settings: GuildSettings, day: dt.date, codes: dict[str, str], now: dt.datetime
    ) -> int:
        """One guild's post: claimed, checked, found (after a crash) or sent, recorded; 1 if sent."""
        store = self._service.store
        channel_id = settings.daily_channel_id
        if channel_id is None:
            return 0
        earlier = await store.daily_post(settings.guild_id, day)  # an unsent claim: a crash?
        if not await store.claim_daily_post(settings.guild_id, day, channel_id, now=now):
            return 0
        if not await self._still_wanted(settings.guild_id, channel_id):
            await store.release_daily_post(settings.guild_id, day)
            return 0
        found = await self._find_post(channel_id, day) if earlier is not None else None
        if found is not None:
            await store.record_daily_post_message(settings.guild_id, day, found)
            log.info("found the %s daily post of guild %s sent before a crash", day, settings.guild_id)
            return 0
        card = daily_post_card(Translator(settings.language or "en"), day, codes)
        try:
            message = await self.bot.get_partial_messageable(channel_id).send(
                view=card, nonce=post_nonce(settings.guild_id, day)
            )
        except discord.HTTPException as exc:
            # A 403/404 stops the guild's posts before the claim goes: no other check
            # (this process's next round, another process) sends into it meanwhile.
            await self._refused(settings.guild_id, channel_id, exc)
            await store.release_daily_post(settings.guild_id, day)
            return 0
        await store.record_daily_post_message(settings.guild_id, day, message.id)
        log.info("posted the %s daily challenge in guild %s", day, settings.guild_id)
        return 1

    async def _still_wanted(self, guild_id: int, channel_id: int) -> bool:
        """The guild's settings as they are now, after the claim: the list of due posts was read
        before it, and a refusal or a new channel may have come since."""
        now = await self._service.store.guild_settings(guild_id)
        return now.daily_disabled is None and now.daily_channel_id == channel_id

    async def _refused(self, guild_id: int, channel_id: int, exc: discord.HTTPException) -> None:
        """A failed post: 403/404 stop the guild's posting until /dailychannel; anything else is retried."""
        reason = refusal(exc)
        if reason is None:
            log.warning(
                "daily post to channel %s failed (tried again at the next check): %s", channel_id, exc
            )
            return
        await self._service.store.set_guild_settings(guild_id, daily_disabled=reason)
        log.warning(
            "daily posts of guild %s stopped: channel %s answered %s; they resume when an admin "
            "sets the channel again with /dailychannel",
            guild_id,
            channel_id,
            reason,
        )


def post_nonce(guild_id: int, day: dt.date) -> int:
    """One nonce per server and day, sent enforced (discord.py sets ``enforce_nonce``): when
    Discord created the post but answered 5xx, the next attempt within a few minutes gets the
    same message back instead of a second post. Later, the claim-and-find logic takes over."""
    digest = hashlib.sha256(f"boulanger-daily-post:{guild_id}:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits: at most 19 digits (Discord: 25)


def refusal(exc: discord.HTTPException) -> str | None:
    """Why Discord will keep refusing the channel (403 no access, 404 deleted), or None (try again)."""
    if exc.status not in (403, 404):
        return None
    return f"{exc.status} {exc.text or exc.response.reason or ''}".strip()[:200]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Daily(cast("BoulangerBot", bot)))
