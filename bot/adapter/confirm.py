"""Asking before a new game ends one in progress: the question and its two buttons.

A player who starts a game while one of that kind has moves on the board (or is a
daily attempt) is asked first, ephemerally. The buttons are ``DynamicItem``s whose
custom id carries the whole request (kind, cells, code, flags), the player's id
and the old game's id and version, so they work after a restart and a confirmation
given for an earlier state of the old game is caught: the service re-asks.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import discord

import engine
from bot.adapter import cooldowns, replies
from bot.adapter.errors import error_text, report
from bot.adapter.interactions import service_of
from bot.games import front_by_letter, front_for
from bot.languages.i18n import Translator
from bot.languages.locale import player_translator
from bot.play.service import GameInProgress, Started, StartRequest
from bot.running.inflight import Tracked, enter

log = logging.getLogger(__name__)

CUSTOM_ID = (
    r"n:(?P<act>[sk]):(?P<uid>[0-9]+):(?P<gid>[0-9]+):(?P<ver>[0-9]+):"
    r"(?P<kind>[a-z]):(?P<option>[0-9a-z]{1,8}):(?P<flags>a?d?):(?P<code>[A-Z0-9-]{0,40})"
)


@dataclass(frozen=True)
class Request:
    """What the player asked to start: replayed as is once they confirm."""

    kind: str
    cells: int | None = None
    code: engine.GameCode | None = None
    any_deal: bool = False
    daily: bool = False

    def options(self) -> dict[str, Any]:
        """The fields of ``StartRequest`` that say which deal this request asks for."""
        return {"cells": self.cells, "code": self.code, "any_deal": self.any_deal, "daily": self.daily}

    def for_player(
        self,
        user_id: int,
        guild_id: int | None,
        channel_id: int | None,
        *,
        replace: tuple[int, int] | None = None,
    ) -> StartRequest:
        """This request as the service starts it, for ``user_id`` where they asked."""
        return StartRequest(
            user_id, self.kind, replace=replace, guild_id=guild_id, channel_id=channel_id, **self.options()
        )

    def custom_id_part(self) -> str:
        flags = ("a" if self.any_deal else "") + ("d" if self.daily else "")
        front = front_for(self.kind)  # the option as its front writes it (0: none)
        return f"{front.letter}:{front.option_token(self.cells) or 0}:{flags}:{self.code or ''}"

    @classmethod
    def from_custom_id_part(cls, letter: str, option: str, flags: str, code: str) -> Request:
        """The request a button carries; ``UserFeedback``/``CodeError`` for a forged one."""
        front = front_by_letter(letter)
        return cls(
            kind=front.kind,
            cells=front.parse_option(option),
            code=engine.parse_code(code) if code else None,
            any_deal="a" in flags,
            daily="d" in flags,
        )


class StartChoice(Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID):
    """ "Start the new game" (``s``) or "Keep playing" (``k``) under the question."""

    def __init__(
        self,
        act: str,
        user_id: int,
        game_id: int,
        version: int,
        request: Request | str,
        *,
        label: str = "\u200b",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        # ``request`` is a Request, or as read back from a custom id, the text of one
        # (read when pressed, so a forged id gets an answer rather than silence).
        part = request.custom_id_part() if isinstance(request, Request) else request
        custom_id = f"n:{act}:{user_id}:{game_id}:{version}:{part}"
        if isinstance(request, Request):  # one we build must fit; one read back is never refused here
            assert len(custom_id) <= 100, custom_id
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id))
        self.act = act
        self.user_id = user_id
        self.game_id = game_id
        self.version = version
        self.request = request

    def _request(self) -> Request:
        if isinstance(self.request, Request):
            return self.request
        request = Request.from_custom_id_part(*self.request.split(":", 3))
        if request.code is None and not request.daily:
            front_for(request.kind).check_cells(request.cells)  # a forged count is refused
        return request

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StartChoice:
        part = f"{match['kind']}:{match['option']}:{match['flags']}:{match['code']}"
        return cls(match["act"], int(match["uid"]), int(match["gid"]), int(match["ver"]), part)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        enter(interaction)
        if interaction.user.id == self.user_id:
            return True
        tr = await player_translator(interaction)
        try:
            await interaction.response.send_message(tr("confirm.not_yours"), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not refuse interaction %s", interaction.id)
        return False

    async def callback(self, interaction: discord.Interaction) -> None:
        tr = await player_translator(interaction)
        if self.act == "k":
            await interaction.response.edit_message(content=tr("confirm.kept"), view=None)
            return
        try:  # a forged request is refused privately, before the question is touched
            request = self._request()
            cooldowns.hit(interaction, cooldowns.START)
        except Exception as exc:
            await report(interaction, exc)
            return
        await interaction.response.edit_message(content=tr("confirm.starting"), view=None)
        service = service_of(interaction)
        try:
            started: Started = await service.start(
                request.for_player(
                    self.user_id,
                    interaction.guild_id,
                    interaction.channel_id,
                    replace=(self.game_id, self.version),
                )
            )
        except GameInProgress as exc:  # the old game moved or was replaced: ask again
            content, view = question(tr, exc, request)
            await interaction.edit_original_response(content=content, view=view)
            return
        except Exception as exc:
            text = error_text(tr.locale, exc)
            if text is None:
                log.exception("starting a confirmed game failed", exc_info=exc)
                text = tr("error.unexpected")
            await interaction.edit_original_response(content=text, view=None)
            return
        await replies.post_started(interaction, service, started, followup=True)
        await interaction.edit_original_response(
            content=tr("confirm.started", code=started.board.row.code), view=None
        )


def stake_line(tr: Translator, exc: GameInProgress) -> str:
    """The game in progress a start would end: its game, code (unless secret), moves and score."""
    row = exc.row
    return tr(
        "confirm.question",
        game=front_for(row.kind).title(tr),
        code=exc.shown_code,
        moves=tr.n("board.moves", row.move_count),
        score=row.score,
    )


def question(tr: Translator, exc: GameInProgress, request: Request) -> tuple[str, discord.ui.View]:
    """What is at stake in the game in progress, and the two buttons."""
    row = exc.row
    lines = [tr("confirm.stale")] if exc.stale else []
    lines.append(stake_line(tr, exc))
    if row.daily_date is not None:
        lines.append(tr("confirm.daily", date=row.daily_date.isoformat()))
    lines.append(tr("confirm.ask"))
    view = discord.ui.View(timeout=None)
    for act, label, style in (
        ("s", tr("button.confirm_start"), discord.ButtonStyle.danger),
        ("k", tr("button.keep_playing"), discord.ButtonStyle.secondary),
    ):
        view.add_item(StartChoice(act, row.owner_id, row.id, row.version, request, label=label, style=style))
    return "\n".join(lines), view
