"""Playing by command: /move (with autocomplete), /undo, /hint, /resign, /board, /code, /rules, /help."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.adapter import cooldowns, replies
from bot.adapter.errors import send
from bot.adapter.interactions import game_choices, service_of
from bot.adapter.press import refuse_stale, send_hint, warn_when_decided
from bot.games import front_for, front_of, fronts, notation_help, rules_help
from bot.languages.locale import player_translator
from bot.play.describe import filter_choices, legal_moves_in_words
from bot.play.feedback import UserFeedback
from bot.play.service import Board, StaleBoard, is_private

if TYPE_CHECKING:
    from bot.adapter.app import BoulangerBot

GAME_CHOICES = game_choices()
MAX_CHOICES = 25
_service = service_of


def _kind(game: app_commands.Choice[str] | None) -> str | None:
    return game.value if game else None


async def _after_command(interaction: discord.Interaction, board: Board, text: str) -> None:
    """Confirm privately first (the move is saved), then update the board message in place.

    The answer never waits on the board edit (Discord's 3 s); a new game's board still
    being posted is waited for (briefly) and edited; a board message that is gone is
    posted again; one Discord keeps refusing to edit gets a private "saved, see /board".
    A board the bot reaches only through interactions (``bot.adapter.places``) is edited
    through the last one while its token lasts; after that the answer is the new board."""
    service = _service(interaction)
    row = board.row
    where: tuple[int | None, int | None] | None = None
    if not row.message_id and service.boards.pending(row.id):
        await send(interaction, text, ephemeral=True)
        where = await service.boards.wait_posted(row.id)
        answered = True
    elif (row.message_id or service.boards.last_posted(row.id)) and replies.can_edit(service, row):
        await send(interaction, text, ephemeral=True)
        where = service.boards.last_posted(row.id)  # newer than the row if posted just after it was read
        answered = True
    else:
        answered = False
    edited = await replies.update_board_message(interaction, service, board, where) if answered else "none"
    if edited in ("gone", "none"):
        note = "" if answered else text
        await replies.send_new_board(interaction, service, board, note, followup=answered)
    elif edited == "failed":
        await replies.say_saved_not_shown(interaction)
    await replies.send_share_line(interaction, board)
    if edited == "edited":
        shown = where or (row.channel_id, row.message_id)
        await warn_when_decided(interaction, service, board, shown)


class Play(commands.Cog):
    def __init__(self, bot: BoulangerBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="move", description="Play a move by its notation (start typing to see legal moves)"
    )
    @app_commands.describe(notation=notation_help())
    async def move(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 64]) -> None:
        service = _service(interaction)
        row = await service.game_for_move(interaction.user.id, notation)
        try:
            board = await replies.within_deadline(
                interaction, service.play(interaction.user.id, row.id, notation), ephemeral=True
            )
        except StaleBoard as stale:  # another process moved it meanwhile: nothing was played
            await refuse_stale(interaction, service, stale)
            return
        tr = await player_translator(interaction)
        if board.played == engine.UNDO:
            text = tr("reply.undone")
        else:
            text = tr("reply.played", move=front_of(board.game).describe_action(tr, board.game.last_action))
        await _after_command(interaction, board, text)

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves in words (the value is the notation), filtered by what was typed."""
        tr = await player_translator(interaction)
        options: list[tuple[str, str]] = []
        for _row, game in await _service(interaction).active_engine_games(interaction.user.id):
            options += legal_moves_in_words(tr, game)
            if game.undo_depth:
                options.append((engine.UNDO, tr("reply.undo_choice")))
        return [
            app_commands.Choice(name=f"{words} · {notation}"[:100], value=notation)
            for notation, words in filter_choices(options, current, MAX_CHOICES)
        ]

    @app_commands.command(name="undo", description="Take back your last move")
    @app_commands.choices(game=GAME_CHOICES)
    async def undo(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        service = _service(interaction)
        row = await service.find(interaction.user.id, _kind(game))
        try:
            board = await service.undo(interaction.user.id, row.id)
        except StaleBoard as stale:
            await refuse_stale(interaction, service, stale)
            return
        await _after_command(interaction, board, (await player_translator(interaction))("reply.undone"))

    @app_commands.command(name="hint", description="Ask for a good next move")
    @app_commands.choices(game=GAME_CHOICES)
    @cooldowns.command_quota(cooldowns.HINT)  # one bucket with the board's Hint button
    async def hint(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        service = _service(interaction)
        row = await service.find(interaction.user.id, _kind(game))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_hint(interaction, await service.hint(interaction.user.id, row.id))

    @app_commands.command(name="resign", description="Give up your current game")
    @app_commands.choices(game=GAME_CHOICES)
    async def resign(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        service = _service(interaction)
        row = await service.find(interaction.user.id, _kind(game))
        board = await service.resign(interaction.user.id, row.id)
        tr = await player_translator(interaction)
        await _after_command(interaction, board, tr("reply.resigned", code=board.row.code))

    @app_commands.command(
        name="board", description="Show your current game again (the buttons move to the new message)"
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def board(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        service = _service(interaction)
        shown = await replies.within_deadline(interaction, service.show(interaction.user.id, _kind(game)))
        await replies.send_new_board(interaction, service, shown)

    @app_commands.command(
        name="code", description="Show your current game's code, to replay or share the deal"
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def code(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        row = await _service(interaction).find(interaction.user.id, _kind(game))
        if is_private(row):  # a race's deal stays secret until the result
            raise UserFeedback("race.error.code_secret")
        tr = await player_translator(interaction)
        command = front_for(row.kind).command
        await send(interaction, tr("reply.code", code=row.code, command=command), ephemeral=True)

    @app_commands.command(name="rules", description=rules_help())
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        tr = await player_translator(interaction)
        front = front_for(game.value)
        embed = discord.Embed(title=front.title(tr), description=front.rules(tr))
        await send(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="What this bot does and how to play with buttons")
    async def help(self, interaction: discord.Interaction) -> None:
        tr = await player_translator(interaction)
        embed = discord.Embed(title=tr("help.title"), description=tr("help.body"))
        for front in fronts():  # a game's own paragraph, for a game that brings one
            words = front.help(tr)
            if words:
                embed.add_field(name=front.title(tr), value=words, inline=False)
        embed.add_field(name=tr("help.races.title"), value=tr("help.races"), inline=False)
        await send(interaction, embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(cast("BoulangerBot", bot)))
