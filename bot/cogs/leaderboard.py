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

import engine
import storage
from bot import dailycodes
from bot.errors import report, send
from bot.feedback import UserFeedback
from bot.games import front_by_letter, front_for
from bot.i18n import Translator
from bot.interactions import game_choices, service_of
from bot.locale import player_translator, shared_locale
from bot.race_texts import race_board
from bot.service import check_code_kind

if TYPE_CHECKING:
    from bot.app import BoulangerBot

PAGE_SIZE = 10
Period = Literal["all", "week", "daily"]
PERIODS: dict[str, Period] = {"a": "all", "w": "week", "d": "daily"}
# A deal's board: every game of one code (its custom id carries the code where a date would be).
DEAL = "x"
GAME_CHOICES = game_choices()


def entry_line(tr: Translator, entry: storage.LeaderboardEntry) -> str:
    result = front_for(entry.best.kind).result_words(tr, entry.best)
    record = tr("lb.record", won=entry.won, played=entry.played)
    parts = [f"**{entry.rank}.** <@{entry.user_id}>", *result, record]
    return " · ".join(p for p in parts if p)


async def leaderboard_page(
    tr: Translator,
    store: storage.Store,
    kind: str,
    period: Period,
    channel_id: int,
    day: dt.date,
    page: int,
    *,
    cells: int | None = None,
    code: str | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of a board: the main boards (all, week: stock deals of one cell count), the
    daily board, or with ``code`` one deal's board (every game of that code, any source)."""
    front = front_for(kind)
    scope: dict[str, Any] = {"channel_id": channel_id, "period": "all" if code else period}
    if code is not None:
        scope["code"] = code
        title = tr("lb.title.code", game=front.title(tr), code=code)
    elif period == "daily":
        scope["daily_date"] = day
        title = tr("lb.title.daily", game=front.title(tr), date=day.isoformat())
    else:
        cells = front.check_cells(cells)
        scope["cells"] = cells
        title = tr(f"lb.title.{period}", game=front.title(tr))
        if cells is not None:
            title += " · " + tr("lb.cells", cells=cells)
    total = await store.leaderboard_size(kind, **scope)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    entries = await store.leaderboard(kind, limit=PAGE_SIZE, offset=page * PAGE_SIZE, **scope)
    body = "\n".join(entry_line(tr, e) for e in entries) or tr("lb.empty")
    embed = discord.Embed(title=title, description=body)
    embed.set_footer(text=tr("lb.page", page=page + 1, pages=pages))
    view = discord.ui.View(timeout=None)
    if code is not None:
        key = f"{front.letter}:{DEAL}:{code}"
    else:
        key = f"{front.letter}:{period[0]}{cells or ''}:{day.strftime('%Y%m%d')}"
    view.add_item(PageButton(key, page - 1, "◀", disabled=page == 0))
    view.add_item(PageButton(key, page + 1, "▶", disabled=page >= pages - 1))
    return embed, view


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"lb:(?P<kind>[a-z]):(?P<period>[awdx])(?P<cells>[0-9]?):(?P<day>[0-9]{8}|[A-Za-z0-9-]{1,64})"
        r":(?P<page>-?[0-9]{1,6})"
    ),
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
        return cls(f"{match['kind']}:{match['period']}{match['cells']}:{match['day']}", int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            letter, board, day_s = self.code.split(":")
            kind = front_by_letter(letter).kind
            period_c, cells_s = board[:1], board[1:]
            code = day_s if period_c == DEAL else None
            service = service_of(interaction)
            if code is not None:
                day = dailycodes.utc_today(service.clock())
            else:
                try:
                    day = dt.datetime.strptime(day_s, "%Y%m%d").date()
                except ValueError:
                    raise UserFeedback("error.unknown_button") from None
            embed, view = await leaderboard_page(
                Translator(await shared_locale(interaction)),
                service.store,
                kind,
                PERIODS.get(period_c, "all"),
                interaction.channel_id or 0,
                day,
                self.page,
                cells=int(cells_s) if cells_s else None,
                code=code,
            )
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as exc:
            await report(interaction, exc)


class Leaderboard(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot
        bot.add_dynamic_items(PageButton)

    @app_commands.command(name="leaderboard", description="This channel's best players")
    @app_commands.describe(
        cells="Jeu du Boulanger: the boards of this many free cells (default 4)",
        code="One deal's board: everyone's best on this code, practice games included",
    )
    @app_commands.choices(cells=[app_commands.Choice(name=str(n), value=n) for n in (4, 2, 1)])
    @app_commands.choices(
        game=GAME_CHOICES,
        period=[
            app_commands.Choice(name="All time", value="all"),
            app_commands.Choice(name="This week", value="week"),
            app_commands.Choice(name="Today's daily challenge", value="daily"),
            app_commands.Choice(name="Races won", value="races"),
        ],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        period: app_commands.Choice[str] | None = None,
        cells: app_commands.Choice[int] | None = None,
        code: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        service = self.bot.service
        if period is not None and period.value == "races":  # bot.race_texts: race wins in this channel
            tr = Translator(await shared_locale(interaction))
            records = await service.store.race_leaderboard(game.value, channel_id=interaction.channel_id or 0)
            title, body = race_board(tr, game.value, records)
            await send(interaction, embed=discord.Embed(title=title, description=body))
            return
        day = dailycodes.utc_today(service.clock())
        deal = None
        if code:
            parsed = engine.parse_code(code)  # engine.CodeError → the error ladder
            check_code_kind(front_for(game.value), parsed)
            deal = str(parsed)
        embed, view = await leaderboard_page(
            Translator(await shared_locale(interaction)),
            service.store,
            game.value,
            PERIODS.get(period.value[:1], "all") if period else "all",
            interaction.channel_id or 0,
            day,
            0,
            cells=cells.value if cells else None,
            code=deal,
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
            lines.append(front.best_line(tr, stats.best))  # the best non-practice game
        if stats.practice:
            lines.append(tr("stats.practice", practice=stats.practice))
        races = await service.store.race_record(user.id, game.value)
        if races.played:
            lines.append(tr("stats.races", played=races.played, won=races.won))
        embed = discord.Embed(
            title=tr("stats.title", game=front.title(tr), player=user.display_name),
            description="\n".join(lines),
        )
        await send(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaderboard(cast("BoulangerBot", bot)))
