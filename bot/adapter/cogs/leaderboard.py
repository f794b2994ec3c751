"""Leaderboards (all time, this week, today's daily) of a channel or a server, the global daily
board, with paging; and player stats.

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
from bot.adapter import places
from bot.adapter.errors import report, send
from bot.adapter.interactions import game_choices, service_of
from bot.adapter.layouts import UPGRADE, Accent, Card, heading, thumbnail
from bot.games import cells_help, chosen_option, draw_help, front_by_letter, front_for, option_choices
from bot.games.base import elapsed
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator, shared_locale
from bot.play import dailycodes
from bot.play.feedback import UserFeedback
from bot.play.race_texts import race_board
from bot.play.service import check_code_kind
from bot.running.inflight import Tracked

if TYPE_CHECKING:
    from bot.adapter.app import BoulangerBot

PAGE_SIZE = 10
Period = Literal["all", "week", "daily"]
PERIODS: dict[str, Period] = {"a": "all", "w": "week", "d": "daily"}
# Where a board's games were played. Global is the daily board only (the same deal everywhere).
# In custom ids: no letter for a channel (the ids of boards posted before scopes), s, g.
Scope = Literal["channel", "server", "global"]
SCOPES: dict[str, Scope] = {"": "channel", "s": "server", "g": "global"}
SCOPE_LETTERS: dict[Scope, str] = {scope: letter for letter, scope in SCOPES.items()}
# The global board is read page by page without counting its players (a count reads every
# entry of the day); paging stops after this many pages (the first 10,000 players).
GLOBAL_PAGES = 1000
# A deal's board: every game of one code (its custom id carries the code where a date would be).
DEAL = "x"
GAME_CHOICES = game_choices()


def entry_line(tr: Translator, entry: storage.LeaderboardEntry, *, daily: bool = False) -> str:
    """Rank, player, the best game's result, time and help (undos too on the daily board, where
    everyone played the same deal once), and the player's record in the scope."""
    front = front_for(entry.best.kind)
    result = front.result_words(tr, entry.best)
    effort = front.effort_words(tr, entry.best, undos=daily)
    record = tr("lb.record", won=entry.won, played=entry.played)
    parts = [f"**{entry.rank}.** <@{entry.user_id}>", *result, *effort, record]
    return " · ".join(p for p in parts if p)


def scope_filter(scope: Scope, channel_id: int, guild_id: int | None) -> dict[str, Any]:
    """The store's arguments naming where a board's games were played."""
    if scope == "global":
        return {}
    if scope == "server":
        if guild_id is None:
            raise UserFeedback("error.lb_no_server")
        return {"guild_id": guild_id}
    return {"channel_id": channel_id}


def board_title(
    tr: Translator, game: str, period: Period, scope: Scope, day: dt.date, code: str | None
) -> str:
    suffix = "" if scope == "channel" else f".{scope}"
    if code is not None:
        return tr(f"lb.title.code{suffix}", game=game, code=code)
    if period == "daily":
        return tr(f"lb.title.daily{suffix}", game=game, date=day.isoformat())
    return tr(f"lb.title.{period}{suffix}", game=game)


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
    scope: Scope = "channel",
    guild_id: int | None = None,
    now: dt.datetime | None = None,
) -> discord.ui.LayoutView:
    """One page of a board as a card: the main boards (all, week: stock deals of one cell count), the
    daily board, or with ``code`` one deal's board (every game of that code, any source); in
    this channel, this server, or (the daily board only) everywhere."""
    front = front_for(kind)
    if scope == "global" and (period != "daily" or code is not None):
        raise UserFeedback("error.lb_global_daily")
    where: dict[str, Any] = {**scope_filter(scope, channel_id, guild_id), "period": "all" if code else period}
    title = board_title(tr, front.title(tr), period, scope, day, code)
    if code is not None:
        where["code"] = code
    elif period == "daily":
        where["daily_date"] = day
    else:
        cells = front.check_cells(cells)
        where["variant"] = None if cells is None else front.variant(cells)
        if cells is not None:
            title += " · " + front.option_words(tr, cells, "lb")
    if scope == "global":
        page = min(max(page, 0), GLOBAL_PAGES - 1)
        found = await store.leaderboard(kind, limit=PAGE_SIZE + 1, offset=page * PAGE_SIZE, **where)
        entries, more = found[:PAGE_SIZE], len(found) > PAGE_SIZE and page < GLOBAL_PAGES - 1
        footer = tr("lb.page_of_many", page=page + 1)
    else:
        total = await store.leaderboard_size(kind, **where)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        entries = await store.leaderboard(kind, limit=PAGE_SIZE, offset=page * PAGE_SIZE, **where)
        more = page < pages - 1
        footer = tr("lb.page", page=page + 1, pages=pages)
    daily = period == "daily" and code is None
    lines = [entry_line(tr, e, daily=daily) for e in entries] or [tr("lb.empty")]
    rule = front.ranking_rule(tr) if daily else None
    if daily and day == dailycodes.utc_today(now):
        lines.append(tr("daily.post.reset", reset=discord.utils.format_dt(dailycodes.next_reset(now), "R")))
    letter = SCOPE_LETTERS[scope]
    if code is not None:
        key = f"{front.letter}:{letter}{DEAL}:{code}"
    else:
        option = front.option_token(cells)
        key = f"{front.letter}:{letter}{period[0]}{option}:{day.strftime('%Y%m%d')}"
    card = Card(Accent.LEADERBOARD).heading(title).text(*lines)
    card.note(f"{rule} · {footer}" if rule else footer).separator()
    paging = [
        PageButton(key, page - 1, "◀", disabled=page == 0),
        PageButton(key, page + 1, "▶", disabled=not more),
    ]
    return card.buttons(paging).view()


class PageButton(
    Tracked,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"lb:(?P<kind>[a-z]):(?P<scope>[sg]?)(?P<period>[awdx])(?P<option>[0-9a-z]{0,8})"
        r":(?P<day>[0-9]{8}|[A-Za-z0-9-]{1,64})"
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
        board = f"{match['scope']}{match['period']}{match['option']}"
        return cls(f"{match['kind']}:{board}:{match['day']}", int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            letter, board, day_s = self.code.split(":")
            front = front_by_letter(letter)
            scope = SCOPES["" if board[:1] not in ("s", "g") else board[:1]]
            board = board.removeprefix(SCOPE_LETTERS[scope])
            period_c, option = board[:1], board[1:]
            code = day_s if period_c == DEAL else None
            service = service_of(interaction)
            if code is not None:
                day = dailycodes.utc_today(service.clock())
            else:
                try:
                    day = dt.datetime.strptime(day_s, "%Y%m%d").date()
                except ValueError:
                    raise UserFeedback("error.unknown_button") from None
            card = await leaderboard_page(
                Translator(await shared_locale(interaction)),
                service.store,
                front.kind,
                PERIODS.get(period_c, "all"),
                interaction.channel_id or 0,
                day,
                self.page,
                cells=front.parse_option(option),
                code=code,
                scope=scope,
                guild_id=interaction.guild_id,
                now=service.clock(),
            )
            # a board posted in the old form (an embed) becomes a card: UPGRADE clears the embed
            await interaction.response.edit_message(view=card, **UPGRADE)
        except Exception as exc:
            await report(interaction, exc)


def best_game_line(tr: Translator, best: storage.FinishedGame) -> str:
    """The best stock or daily game by the ranking rules (its rank key: nothing a repeated move
    pair raises), its time and hints, and when it was played."""
    front = front_for(best.kind)
    when = tr("stats.finished", when=discord.utils.format_dt(best.finished_at, "R"))
    return " · ".join([front.best_line(tr, best), *front.effort_words(tr, best), when])


class Leaderboard(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot
        bot.add_dynamic_items(PageButton)

    @app_commands.command(name="leaderboard", description="This channel's best players")
    @app_commands.describe(
        cells=cells_help("leaderboard"),
        draw=draw_help("leaderboard"),
        code="One deal's board: everyone's best on this code, practice games included",
        scope="Whose games: this channel (default), this server, or everywhere (daily challenge only)",
    )
    @app_commands.choices(
        scope=[
            app_commands.Choice(name="This channel", value="channel"),
            app_commands.Choice(name="This server", value="server"),
            app_commands.Choice(name="Everywhere (daily challenge)", value="global"),
        ]
    )
    @app_commands.choices(
        cells=[app_commands.Choice(name=str(n), value=n) for n in option_choices("cells")],
        draw=[app_commands.Choice(name=str(n), value=n) for n in option_choices("draw")],
    )
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
        scope: app_commands.Choice[str] | None = None,
        draw: app_commands.Choice[int] | None = None,
    ) -> None:
        service = self.bot.service
        option = chosen_option(
            game.value, {"cells": cells.value if cells else None, "draw": draw.value if draw else None}
        )
        where: Scope = scope.value if scope and scope.value in SCOPE_LETTERS else "channel"
        daily_or_none = period is None or period.value == "daily"
        if scope is None and daily_or_none and not code and not places.bot_in_server(interaction):
            where = "global"  # no server board here: the daily board is everyone's
        if where != "global" or (period is not None and period.value == "races"):
            places.require_server_bot(interaction, "board")  # a server's boards are for its members
        if (
            period is not None and period.value == "races"
        ):  # bot.play.race_texts: race wins in this channel or server
            if where == "global":
                raise UserFeedback("error.lb_global_daily")
            tr = Translator(await shared_locale(interaction))
            place = scope_filter(where, interaction.channel_id or 0, interaction.guild_id)
            records = await service.store.race_leaderboard(game.value, **place)
            title, body = race_board(tr, game.value, records)
            await send(interaction, view=Card(Accent.LEADERBOARD).heading(title).text(body).view())
            return
        chosen: Period = PERIODS.get(period.value[:1], "all") if period else "all"
        if where == "global" and period is None and not code:
            chosen = "daily"  # everywhere means the daily board: the same deal for everyone
        day = dailycodes.utc_today(service.clock())
        deal = None
        if code:
            parsed = engine.parse_code(code, kind=game.value, cells=option)  # CodeError → ladder
            check_code_kind(front_for(game.value), parsed)
            deal = str(parsed)
        card = await leaderboard_page(
            Translator(await shared_locale(interaction)),
            service.store,
            game.value,
            chosen,
            interaction.channel_id or 0,
            day,
            0,
            cells=option,
            code=deal,
            scope=where,
            guild_id=interaction.guild_id,
            now=service.clock(),
        )
        await send(interaction, view=card)

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
            lines.append(best_game_line(tr, stats.best))
        if stats.fastest_win is not None and stats.average_win is not None:
            fastest, average = elapsed(stats.fastest_win), elapsed(round(stats.average_win))
            lines.append(tr("stats.times", fastest=fastest, average=average))
        if stats.practice:
            lines.append(tr("stats.practice", practice=stats.practice))
        races = await service.store.race_record(user.id, game.value)
        if races.played:
            lines.append(tr("stats.races", played=races.played, won=races.won))
        name = discord.utils.escape_markdown(user.display_name)  # a name is not formatting
        title = heading(tr("stats.title", game=front.title(tr), player=name))
        avatar = thumbnail(user.display_avatar.url, user.display_name)
        await send(interaction, view=Card(Accent.STATS).beside([title, "\n".join(lines)], avatar).view())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaderboard(cast("BoulangerBot", bot)))
