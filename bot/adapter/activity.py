"""The Activity beside the bot: its server on the bot's service, and the chat boards it moves.

``serve`` starts ``bot.activity.server.ActivityServer`` (``BOULANGER_ACTIVITY``) on the bot's
own ``GameService`` and quotas; ``ChatBoards.changed`` is the server's ``board_changed``:
a move made in the Activity edits that game's board message in the chat (when one is posted
and the bot can still edit it), at most once every ``EDIT_SECONDS`` per game and always to the
latest position (``Throttle``), so a quick run of drags never meets Discord's rate limits.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord

from bot.activity.auth import DiscordAuth
from bot.activity.server import ActivityServer
from bot.adapter import replies
from bot.adapter.throttle import Throttle
from bot.languages.i18n import Translator
from bot.languages.language import use_language, user_choice
from bot.play.service import Board, GameService
from bot.running.config import Config

log = logging.getLogger(__name__)

EDIT_SECONDS = 2.0


class ChatBoards:
    """Edits a game's chat board after the Activity moved it."""

    def __init__(self, client: discord.Client, service: GameService, interval: float = EDIT_SECONDS) -> None:
        self.client = client
        self.service = service
        self.throttle = Throttle(interval)

    def changed(self, board: Board) -> None:
        row = board.row
        if not row.message_id or board.private:  # no chat board, or one only its player saw
            return
        owner, game_id = row.owner_id, row.id

        async def edit() -> None:
            await self._edit(owner, game_id)

        self.throttle.request(game_id, edit)

    async def _edit(self, owner: int, game_id: int) -> None:
        store = self.service.store
        language = await user_choice(store, owner) or "en"
        use_language(language)
        board = await self.service.board_of(owner, game_id)  # as it is now, drawn under its lock
        if board.game.moves:  # the board says what was played last, as after a press
            board = replace(board, played=board.game.moves[-1])
        edited = await replies.edit_board(self.client, self.service, board, Translator(language))
        if edited != "edited":
            log.info("the chat board of game %s was not edited after an Activity move: %s", game_id, edited)

    async def drain(self) -> None:
        await self.throttle.drain()

    def close(self) -> None:
        self.throttle.cancel()


async def serve(
    client: Any, config: Config, service: GameService, quotas: Any
) -> tuple[ActivityServer, ChatBoards]:
    """Start the Activity's server (``config.activity`` is set)."""
    assert config.activity is not None
    client_id = config.client_id or client.application_id
    auth = DiscordAuth(
        int(client_id), config.client_secret or "", api_base=config.api_base, bot_token=config.token
    )
    boards = ChatBoards(client, service)
    races = getattr(client, "races", None)  # the race cog's keeper: a table's races are the chat's
    server = ActivityServer(service, auth, quotas=quotas, board_changed=boards.changed, races=races)
    await server.start(*config.activity)
    return server, boards
