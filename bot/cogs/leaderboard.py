"""Channel leaderboards (all time, this week, today's daily) with paging, and player stats.

The ranking rules are storage's (see ``storage.interface``): for Jeu du
Boulanger a win always outranks a score; Calculation ranks by cards home.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

import storage
from bot import dailycodes
from bot.errors import report, send
from bot.feedback import UserFeedback
from bot.games import front_by_letter, front_for
from bot.i18n import Translator
from bot.interactions import game_choices, service_of
from bot.locale import player_translator, shared_locale

if TYPE_CHECKING:
    from bot.app import BoulangerBot

PAGE_SIZE = 10
Period = Literal["all", "week", "daily"]
PERIODS: dict[str, Period] = {"a": "all", "w": "week", "d": "daily"}
GAME_CHOICES = game_choices()


def entry_line(tr: Translator, entry: storage.LeaderboardEntry) -> str:
    result = front_for(entry.best.kind).result_words(tr, entry.best)
    record = tr("lb.record", won=entry.won, played=entry.played)
    parts = [f"**{entry.rank}.** <@{entry.user_id}>", *result, record]
    return " · ".join(p for p in parts if p)


async def leaderboard_page(
    tr: Translator, store: storage.Store, kind: str, period: Period, channel_id: int, day: dt.date, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    scope: dict[str, Any] = {"channel_id": channel_id, "period": period}
    if period == "daily":
        scope["daily_date"] = day
    total = await store.leaderboard_size(kind, **scope)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    entries = await store.leaderboard(kind, limit=PAGE_SIZE, offset=page * PAGE_SIZE, **scope)
    front = front_for(kind)
    title = tr(f"lb.title.{period}", game=front.title(tr), date=day.isoformat())
    body = "\n".join(entry_line(tr, e) for e in entries) or tr("lb.empty")
    embed = discord.Embed(title=title, description=body)
    embed.set_footer(text=tr("lb.page", page=page + 1, pages=pages))
    view = discord.ui.View(timeout=None)
    code = f"{front.letter}:{period[0]}:{day.strftime('%Y%m%d')}"
    view.add_item(PageButton(code, page - 1, "◀", disabled=page == 0))
    view.add_item(PageButton(code, page + 1, "▶", disabled=page >= pages - 1))
    return embed, view


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<kind>[a-z]):(?P<period>[awd]):(?P<day>[0-9]{8}):(?P<page>-?[0-9]{1,6})",
):
    """Anyone may page through a leaderboard; the page lives in the custom id."""

    def __init__(self, code: str, page: int, label: str = "▶", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled, custom_id=f"lb:{code}:{page}"))
        self.code = code
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(f"{match['kind']}:{match['period']}:{match['day']}", int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            letter, period_c, day_s = self.code.split(":")
            kind = front_by_letter(letter).kind
            try:
                day = dt.datetime.strptime(day_s, "%Y%m%d").date()
            except ValueError:
                raise UserFeedback("error.unknown_button") from None
            embed, view = await leaderboard_page(
                Translator(await shared_locale(interaction)),
                service_of(interaction).store,
                kind,
                PERIODS[period_c],
                interaction.channel_id or 0,
                day,
                self.page,
            )
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as exc:
            await report(interaction, exc)


class Leaderboard(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot
        bot.add_dynamic_items(PageButton)

    @app_commands.command(name="leaderboard", description="This channel's best players")
    @app_commands.choices(
        game=GAME_CHOICES,
        period=[
            app_commands.Choice(name="All time", value="all"),
            app_commands.Choice(name="This week", value="week"),
            app_commands.Choice(name="Today's daily challenge", value="daily"),
        ],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        period: app_commands.Choice[str] | None = None,
    ) -> None:
        service = self.bot.service
        day = dailycodes.utc_today(service.clock())
        embed, view = await leaderboard_page(
            Translator(await shared_locale(interaction)),
            service.store,
            game.value,
            PERIODS.get(period.value[:1], "all") if period else "all",
            interaction.channel_id or 0,
            day,
            0,
        )
        await send(interaction, embed=embed, view=view)

    @app_commands.command(name="stats", description="A player's games, wins and daily streaks")
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        player: discord.User | None = None,
    ) -> None:
        service = self.bot.service
        user = player or interaction.user
        tr = await player_translator(interaction)
        today = dailycodes.utc_today(service.clock())
        stats = await service.store.player_stats(user.id, game.value, today=today)
        lines = [
            tr("stats.played", played=stats.played, won=stats.won, rate=f"{stats.win_rate * 100:.0f}"),
            tr("stats.streak", current=stats.current_streak, best=stats.best_streak),
        ]
        front = front_for(game.value)
        if stats.best is not None:
            lines.append(front.best_line(tr, stats.best))
        embed = discord.Embed(
            title=tr("stats.title", game=front.title(tr), player=user.display_name),
            description="\n".join(lines),
        )
        await send(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaderboard(cast("BoulangerBot", bot)))
