"""``/race``: a lobby with Join, Leave, Start now and Cancel; live standings with "My board"; the result.

The rules and the state are the race keeper's (``bot.play.races``, all in storage); this
module is their Discord face:

* every button is a ``DynamicItem`` whose custom id carries the race id, so the lobby
  and the standings keep working after a restart;
* the lobby message becomes the standings, edited through a ``Throttle``: at most one
  edit every ``race_edit_seconds`` (5 s) per race, the last state always shown;
* a loop (every ``race_check_seconds``) starts due lobbies, ends races at their time
  limit and finishes what a crash interrupted, for the races of this process's shards;
* the result is posted once: claimed in storage, sent with an enforced nonce (a retried
  send after a 5xx gets the same message back), recorded, and only then the race is
  settled.

Boards are private: "My board" answers with the player's own board, ephemerally (in a
race everyone has the same deal, and a board in the channel could be copied move for
move); its buttons edit that private message in place, after a restart too.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands, tasks

import engine
import storage
from bot.adapter import cooldowns, places, replies
from bot.adapter.channel_history import find_own_post
from bot.adapter.cogs.starting import start_game
from bot.adapter.confirm import stake_line
from bot.adapter.errors import report, send
from bot.adapter.interactions import game_choices, service_of
from bot.adapter.layouts import UPGRADE, Accent, Card
from bot.adapter.throttle import Throttle
from bot.games import cells_help, chosen_option, draw_help, front_by_letter, front_for, option_choices
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator, shared_locale
from bot.play.feedback import UserFeedback
from bot.play.race_texts import message_blocks, result_blocks
from bot.play.races import (
    DEFAULT_START_IN,
    DEFAULT_TIME_LIMIT,
    RaceJoinAsk,
    RaceKeeper,
    RaceView,
    check_deal,
)
from bot.play.service import GameInProgress
from bot.running.inflight import Tracked
from bot.running.sharding import shard_of

if TYPE_CHECKING:
    from bot.adapter.app import BoulangerBot

log = logging.getLogger(__name__)

JOIN, LEAVE, START, CANCEL, BOARD = "j", "l", "s", "x", "m"
GAME_CHOICES = game_choices()
# A claimed result not recorded this long after (the poster crashed) may be sent again: the
# same nonce, within Discord's dedupe window, gives back the message already sent.
RESULT_STALE = dt.timedelta(seconds=30)


def keeper_of(interaction: discord.Interaction[Any]) -> RaceKeeper:
    keeper = getattr(interaction.client, "races", None)
    if not isinstance(keeper, RaceKeeper):
        raise RuntimeError("the bot has no race keeper")
    return keeper


def result_nonce(race_id: int) -> int:
    """One nonce per race's result, sent enforced (as the daily post's ``post_nonce``)."""
    digest = hashlib.sha256(f"boulanger-race-result:{race_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class RaceButton(
    Tracked,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"q:(?P<rid>[0-9]{1,20}):(?P<act>[jlsxm])",
):
    """A lobby or standings button: join, leave, start now, cancel, my board."""

    def __init__(
        self,
        race_id: int,
        act: str,
        label: str = "\u200b",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=f"q:{race_id}:{act}"))
        self.race_id = race_id
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RaceButton:
        return cls(int(match["rid"]), match["act"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await press(interaction, self.race_id, self.act)
        except RaceJoinAsk as ask:
            tr = await player_translator(interaction)
            content, view = join_question(tr, ask, interaction.user.id, self.race_id)
            await send(interaction, content, view=view, ephemeral=True)
        except Exception as exc:
            await report(interaction, exc)


async def press(interaction: discord.Interaction, race_id: int, act: str) -> None:
    keeper = keeper_of(interaction)
    user = interaction.user.id
    tr = await player_translator(interaction)
    if act == BOARD:
        game_id = await keeper.game_of(user, race_id)
        service = service_of(interaction)
        board = await replies.within_deadline(interaction, service.board_of(user, game_id), ephemeral=True)
        await replies.send_new_board(interaction, service, board)
        return
    if act == JOIN:
        race = await keeper.join(user, race_id)
        text = tr("race.joined", start=f"<t:{int(race.starts_at.timestamp())}:R>")
    elif act == LEAVE:
        await keeper.leave(user, race_id)
        text = tr("race.left")
    elif act == START:  # deals up to 25 games: acknowledged first if that takes a while
        await replies.within_deadline(interaction, keeper.start_now(user, race_id), ephemeral=True)
        text = tr("race.started")
    else:
        await keeper.cancel(user, race_id)
        text = tr("race.cancelled")
    await send(interaction, text, ephemeral=True)


def join_question(
    tr: Translator, ask: GameInProgress, user_id: int, race_id: int
) -> tuple[str, discord.ui.View]:
    text = "\n".join(
        [
            stake_line(tr, ask),
            tr("race.confirm.ends"),
        ]
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        JoinChoice("j", user_id, race_id, tr("button.race_join_anyway"), discord.ButtonStyle.danger)
    )
    view.add_item(JoinChoice("k", user_id, race_id, tr("button.keep_playing")))
    return text, view


class JoinChoice(
    Tracked,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"qy:(?P<act>[jk]):(?P<uid>[0-9]{1,20}):(?P<rid>[0-9]{1,20})",
):
    """Under "joining ends your game in progress": join anyway, or keep playing."""

    def __init__(
        self,
        act: str,
        user_id: int,
        race_id: int,
        label: str = "\u200b",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        custom_id = f"qy:{act}:{user_id}:{race_id}"
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id))
        self.act, self.user_id, self.race_id = act, user_id, race_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinChoice:
        return cls(match["act"], int(match["uid"]), int(match["rid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            tr = await player_translator(interaction)
            if interaction.user.id != self.user_id:
                await send(interaction, tr("confirm.not_yours"), ephemeral=True)
                return
            if self.act == "k":
                await interaction.response.edit_message(content=tr("confirm.kept"), view=None)
                return
            race = await keeper_of(interaction).join(self.user_id, self.race_id, agreed=True)
            text = tr("race.joined", start=f"<t:{int(race.starts_at.timestamp())}:R>")
            await interaction.response.edit_message(content=text, view=None)
        except Exception as exc:
            await report(interaction, exc)


@dataclass(frozen=True)
class NewRace:
    """What ``/race`` asked for, replayed as is from the question's button."""

    kind: str
    cells: int | None
    code: engine.GameCode | None
    start_in: int
    time_limit: int

    def custom_id(self, user_id: int) -> str:
        front = front_for(self.kind)  # the option as its front writes it (0: none)
        option = front.option_token(self.cells) or 0
        return f"qc:{user_id}:{front.letter}:{option}:{self.start_in}:{self.time_limit}:{self.code or ''}"


CREATE_CHOICE = re.compile(
    r"qc:(?P<uid>[0-9]{1,20}):(?P<letter>[a-z]):(?P<option>[0-9a-z]{1,8}):(?P<start>[0-9]{1,2})"
    r":(?P<limit>[0-9]{1,3}):(?P<code>[A-Z0-9-]{0,40})"
)


class CreateChoice(Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=CREATE_CHOICE):
    """Under "a race ends your game in progress when it starts": create it anyway."""

    def __init__(self, custom_id: str, label: str = "\u200b") -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=discord.ButtonStyle.danger, custom_id=custom_id)
        )
        self.custom_id = custom_id
        match = CREATE_CHOICE.fullmatch(custom_id)
        assert match is not None, "made by NewRace.custom_id or matched by discord.py"
        self._match = match

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CreateChoice:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            tr = await player_translator(interaction)
            if interaction.user.id != int(self._match["uid"]):
                await send(interaction, tr("confirm.not_yours"), ephemeral=True)
                return
            request = self.request()  # a forged one is refused before the question is touched
            await interaction.response.edit_message(content=tr("confirm.starting"), view=None)
            await create_and_post(interaction, request, agreed=True)
        except Exception as exc:
            await report(interaction, exc)

    def request(self) -> NewRace:
        """The race the button carries; ``UserFeedback``/``CodeError`` for a forged one (checked
        as ``RaceKeeper.create`` will: before the question is edited, not after)."""
        match = self._match
        front = front_by_letter(match["letter"])
        code = engine.parse_code(match["code"]) if match["code"] else None
        cells = front.parse_option(match["option"])
        check_deal(front, cells, code)
        return NewRace(
            front.kind,
            cells,
            code,
            _within(int(match["start"]), 1, 60),
            _within(int(match["limit"]), 1, 180),
        )


def _within(value: int, low: int, high: int) -> int:
    """A number the slash command bounds (``app_commands.Range``); out of them, the id was forged."""
    if not low <= value <= high:
        raise UserFeedback("error.unknown_button")
    return value


async def create_and_post(interaction: discord.Interaction, request: NewRace, *, agreed: bool) -> None:
    """Create the race (choosing its deal) and post its lobby in the channel."""
    keeper = keeper_of(interaction)
    # Every lobby is a public post: each try draws from its own quota, on either path (the
    # command, or the button under its "your game in progress ends" question).
    cooldowns.hit(interaction, cooldowns.RACE)
    language = await shared_locale(interaction)
    assert interaction.channel_id is not None
    race = await replies.within_deadline(
        interaction,
        keeper.create(
            interaction.user.id,
            request.kind,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            cells=request.cells,
            code=request.code,
            start_in=request.start_in,
            time_limit=request.time_limit,
            language=language,
            agreed=agreed,
        ),
    )
    tr = Translator(language)
    view = race_card(tr, race, await keeper.view(race))
    message: discord.Message | discord.WebhookMessage
    if interaction.response.is_done():
        message = await interaction.followup.send(view=view, wait=True)
    else:
        await interaction.response.send_message(view=view)
        message = await interaction.original_response()
    await keeper.store.set_race_message(race.id, message.id)


class DealButton(
    Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qp:(?P<rid>[0-9]{1,20})"
):
    """Under a race's result: play its deal (as practice), for whoever presses it.

    Its custom id also marks the result message, so a result that reached Discord but was
    never recorded (a crash, a lost answer) is found in the channel instead of posted twice."""

    def __init__(self, race_id: int, label: str = "\u200b") -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=discord.ButtonStyle.success, custom_id=deal_id(race_id))
        )
        self.race_id = race_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DealButton:
        return cls(int(match["rid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            race = await keeper_of(interaction).store.get_race(self.race_id)
            if race.status != "finished":  # a forged id must not reveal a running race's deal
                raise UserFeedback("race.error.not_over")
            await start_game(interaction, race.kind, code=race.code)
        except Exception as exc:
            await report(interaction, exc)


def deal_id(race_id: int) -> str:
    return f"qp:{race_id}"


def race_buttons(tr: Translator, race: storage.RaceRow) -> list[discord.ui.Item[Any]]:
    """The lobby's four buttons; "My board" once it runs; nothing once cancelled."""
    if race.status == "lobby":
        return [
            RaceButton(race.id, JOIN, tr("button.race_join"), discord.ButtonStyle.success),
            RaceButton(race.id, LEAVE, tr("button.race_leave")),
            RaceButton(race.id, START, tr("button.race_start"), discord.ButtonStyle.primary),
            RaceButton(race.id, CANCEL, tr("button.race_cancel"), discord.ButtonStyle.danger),
        ]
    if race.status in ("running", "finished"):
        return [RaceButton(race.id, BOARD, tr("button.race_board"), discord.ButtonStyle.primary)]
    return []


def race_card(tr: Translator, race: storage.RaceRow, view: RaceView) -> discord.ui.LayoutView:
    """The lobby message as a card: the race's title, its lobby or standings, its buttons."""
    title, text = message_blocks(tr, view)
    card = Card(Accent.RACE).heading(title).text(text)
    buttons = race_buttons(tr, race)
    if buttons:
        card.separator().buttons(buttons)
    return card.view()


def result_card(tr: Translator, race_id: int, view: RaceView) -> discord.ui.LayoutView:
    """The result post as a card: the winner, everyone's place, the deal, and Play this deal."""
    head, text = result_blocks(tr, view)
    card = Card(Accent.RACE).heading(head).text(text).separator()
    return card.buttons([DealButton(race_id, tr("button.race_play_deal"))]).view()


class Race(commands.Cog):
    throttle: Throttle
    keeper: RaceKeeper
    result_stale = RESULT_STALE

    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot
        bot.add_dynamic_items(RaceButton, JoinChoice, CreateChoice, DealButton)

    async def cog_load(self) -> None:
        self.throttle = Throttle(self.bot.config.race_edit_seconds)
        self.keeper = RaceKeeper(self.bot.service, notify=self.notify)
        self.bot.races = self.keeper
        self.keeper_loop.change_interval(seconds=self.bot.config.race_check_seconds)
        self.keeper_loop.start()

    async def cog_unload(self) -> None:
        self.keeper_loop.cancel()
        self.throttle.cancel()

    @app_commands.command(
        name="race", description="Race friends on the same deal: post a lobby in this channel"
    )
    @app_commands.describe(
        cells=cells_help("race"),
        draw=draw_help("race"),
        code="Race on this deal (default: a new winnable deal)",
        start_in="Minutes until the start (default 2)",
        time_limit="Minutes the race lasts at most (default 30)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.choices(
        cells=[app_commands.Choice(name=str(n), value=n) for n in option_choices("cells")],
        draw=[app_commands.Choice(name=str(n), value=n) for n in option_choices("draw")],
    )
    @places.in_servers
    @places.needs_server_bot("race")  # the lobby and standings are its posts
    async def race(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        cells: app_commands.Choice[int] | None = None,
        code: app_commands.Range[str, 1, 64] | None = None,
        start_in: app_commands.Range[int, 1, 60] = DEFAULT_START_IN,
        time_limit: app_commands.Range[int, 1, 180] = DEFAULT_TIME_LIMIT,
        draw: app_commands.Choice[int] | None = None,
    ) -> None:
        """Everyone who joins gets the same deal at the start; first to win wins."""
        cooldowns.hit(interaction, cooldowns.START)
        count = chosen_option(
            game.value, {"cells": cells.value if cells else None, "draw": draw.value if draw else None}
        )
        parsed = engine.parse_code(code, kind=game.value, cells=count) if code else None
        request = NewRace(game.value, count, parsed, start_in, time_limit)
        try:
            await create_and_post(interaction, request, agreed=False)
        except RaceJoinAsk as ask:
            tr = await player_translator(interaction)
            text = "\n".join(
                [
                    stake_line(tr, ask),
                    tr("race.confirm.ends"),
                ]
            )
            view = discord.ui.View(timeout=None)
            view.add_item(
                CreateChoice(request.custom_id(interaction.user.id), tr("button.race_create_anyway"))
            )
            await send(interaction, text, view=view, ephemeral=True)

    # -- the standings message ----------------------------------------------------------
    async def notify(self, race: storage.RaceRow) -> None:
        """The race changed: its result (once), then its message, at most one edit per interval."""
        if race.status == "finished":
            await self.announce(race.id)
        self.throttle.request(race.id, lambda: self.show(race.id))

    async def show(self, race_id: int) -> None:
        """Edit the race's message to its state now; settle the race once nothing is left to do."""
        race = await self.keeper.store.get_race(race_id)
        over = race.status == "cancelled" or (
            race.status == "finished" and race.result_message_id is not None
        )
        if race.message_id is not None:
            tr = Translator(race.language or "en")
            card = race_card(tr, race, await self.keeper.view(race))
            message = self.bot.get_partial_messageable(race.channel_id).get_partial_message(race.message_id)
            try:  # a lobby posted in the old form becomes a card here (UPGRADE clears its text)
                await message.edit(view=card, **UPGRADE)
            except (discord.NotFound, discord.Forbidden) as exc:
                log.info("race %s: its message %s is gone: %s", race.id, race.message_id, exc)
            except discord.HTTPException as exc:
                log.warning("race %s: could not edit its message (tried again later): %s", race.id, exc)
                return
        if over:
            await self.keeper.store.settle_race(race.id)
            self.throttle.forget(race.id)

    async def announce(self, race_id: int) -> None:
        """Post a finished race's result once (claim, enforced nonce, record)."""
        store = self.keeper.store
        race = await store.get_race(race_id)
        if race.status != "finished" or race.result_message_id is not None:
            return
        if not await store.claim_race_result(race.id, stale_after=self.result_stale):
            return
        if race.result_claimed_at is not None:  # an earlier attempt may have reached Discord
            found = await self._find_result(race)
            if found is not None:
                await store.record_race_result(race.id, found)
                log.info("race %s: found its result %s, posted but not recorded", race.id, found)
                return
        tr = Translator(race.language or "en")
        card = result_card(tr, race.id, await self.keeper.view(race))
        try:
            message = await self.bot.get_partial_messageable(race.channel_id).send(
                view=card, nonce=result_nonce(race.id)
            )
        except discord.HTTPException as exc:
            log.warning("race %s: its result was not posted (tried again later): %s", race.id, exc)
            return
        await store.record_race_result(race.id, message.id)
        log.info("race %s: result posted as message %s", race.id, message.id)

    async def _find_result(self, race: storage.RaceRow) -> int | None:
        """The race's result among the channel's recent messages (sent, but not recorded)."""
        return await find_own_post(self.bot, race.channel_id, {deal_id(race.id)})

    # -- the clock ----------------------------------------------------------------------
    def owns(self, race: storage.RaceRow) -> bool:
        """Whether this process looks after the race: its guild is on one of our shards."""
        ids, count = self.bot.shard_ids, self.bot.shard_count
        if ids is None or not count or race.guild_id is None:
            return True
        return shard_of(race.guild_id, count) in ids

    @tasks.loop(seconds=1)
    async def keeper_loop(self) -> None:
        async with self.bot.work.round() as go:  # a graceful stop waits for this round
            if not go:
                return
            try:
                for race in await self.keeper.due(self.owns):
                    await self.notify(race)
            except Exception:
                log.exception("race check failed")

    @keeper_loop.before_loop
    async def _wait_ready(self) -> None:
        await self.bot.wait_until_ready()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Race(cast("BoulangerBot", bot)))
