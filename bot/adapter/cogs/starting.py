"""Starting a game, shared by every game's start command and the daily buttons; and the start
commands themselves, one per registered game, built from its record's words
(``engine.record.StartWords``): ``/boulanger cells code any_deal``, ``/calculation code``,
``/freecell cells deal code any_deal``. Their translations are the catalogues' keys
``command.<name>.…`` and ``option.<name>.<option>.…`` (``bot.languages.command_translator``).
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.adapter import cooldowns, replies
from bot.adapter.confirm import Request, question
from bot.adapter.errors import send
from bot.adapter.interactions import service_of
from bot.games import front_for, fronts
from bot.games.base import GameFront
from bot.languages.locale import player_translator
from bot.play.service import GameInProgress, Started, check_code_kind
from engine.codes import MAX_CODE_INPUT, NumberedDeals
from engine.record import GameRecord

if TYPE_CHECKING:
    StartCommand = app_commands.Command[Any, ..., None]


async def start_game(
    interaction: discord.Interaction[Any],
    kind: str,
    *,
    cells: int | None = None,
    code: str | None = None,
    any_deal: bool = False,
    daily: bool = False,
) -> None:
    """Check the code first (a bad one is refused before anything happens), then deal and post.

    A game of this kind in progress with something at stake is not ended silently: the
    player is asked (ephemerally) and the new game starts only from the question's button.
    """
    service = service_of(interaction)
    front = front_for(kind)
    cooldowns.hit(interaction, cooldowns.START)  # every way of starting draws from one quota
    tr = await player_translator(interaction)  # before dealing: the picture is drawn in it
    # A bare number (``11982``, ``#11982``) is a deal of this game, for a game that numbers them.
    parsed = engine.parse_code(code, kind=kind, cells=cells) if code else None  # CodeError → the ladder
    if parsed is not None:
        check_code_kind(front, parsed)
    elif not daily:
        cells = front.check_cells(cells)
    request = Request(kind, cells=cells, code=parsed, any_deal=any_deal, daily=daily)
    try:
        await service.check_can_start(interaction.user.id, kind)  # quick: ask before any deferral
        started: Started = await replies.within_deadline(
            interaction,
            service.start(
                request.for_player(interaction.user.id, interaction.guild_id, interaction.channel_id)
            ),
        )
    except GameInProgress as exc:
        content, view = question(tr, exc, request)
        await send(interaction, content, view=view, ephemeral=True)
        return
    await replies.post_started(interaction, service, started)


def start_command(front: GameFront[Any]) -> StartCommand:
    """A game's slash command: its record's name and words; its option (free cells, or a
    game's own) as choices, its deal number (a game with numbered deals: shorthand for ``#<number>``), a code and
    ``any_deal`` as the record offers them."""
    kind, option = front.kind, front.record.option

    async def start(interaction: discord.Interaction[Any], **chosen: Any) -> None:
        deal, code = chosen.get("deal"), chosen.get("code")
        typed = f"#{deal}" if deal is not None and code is None else code
        picked = chosen.get(option.name) if option is not None else None
        count = picked.value if picked is not None else None
        await start_game(interaction, kind, cells=count, code=typed, any_deal=chosen.get("any_deal", False))

    # discord.py reads a command's options from its callback's signature: this game's only.
    interaction = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    options = _options(front.record)
    start.__dict__["__signature__"] = inspect.Signature([interaction, *(p for p, _ in options)])
    app_commands.describe(**{p.name: words for p, words in options})(start)
    if option is not None:
        choices = [app_commands.Choice(name=str(n), value=n) for n in option.values]
        app_commands.choices(**{option.name: choices})(start)
    words = front.record.command
    return app_commands.Command(name=words.name, description=words.description, callback=start)


def _options(record: GameRecord) -> list[tuple[inspect.Parameter, str]]:
    """A start command's options in the order players see them, each with its description."""

    def option(name: str, annotation: object, default: object = None) -> inspect.Parameter:
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)

    words, out = record.command, []
    if record.option is not None:  # its free cells, or another game's own choice
        out.append((option(record.option.name, app_commands.Choice[int]), record.option.description))
    if words.deal is not None:
        assert isinstance(record.deals, NumberedDeals)  # a GameRecord checks it
        number = app_commands.Range[int, record.deals.low, record.deals.high]
        out.append((option("deal", number), words.deal))
    out.append((option("code", app_commands.Range[str, 1, MAX_CODE_INPUT]), words.code))
    if words.any_deal is not None:
        out.append((option("any_deal", bool, False), words.any_deal))
    return out


def start_commands() -> list[StartCommand]:
    """Every registered game's start command, in registration order."""
    return [start_command(front) for front in fronts()]


async def setup(bot: commands.Bot) -> None:
    for command in start_commands():
        bot.tree.add_command(command)


async def teardown(bot: commands.Bot) -> None:
    for front in fronts():
        bot.tree.remove_command(front.command)
