"""The board message: its text, its picture and its buttons.

Buttons are ``DynamicItem``s whose custom id carries everything needed to act
on them after a restart: the game id, the game's version when the board was
drawn (a click on an out-of-date board is refused as stale), the selected
source (two-click play) and the action. At most 5 rows of 5 buttons:

Jeu du Boulanger  row 1-2: columns 1-4 / 5-8 (each labelled with its top card)
                  row 3: the free cells in play, then Home
                  row 4: Undo, Hint, Clear selection
Calculation       row 1: the four foundations (for the turned card or a selected pile)
                  row 2: the four waste piles (for the turned card)
                  row 3: each waste pile's top card, sent home
                  row 4: Undo, Hint, Clear selection
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any

import discord

from bot import describe
from bot.errors import report
from bot.i18n import Translator
from bot.locale import player_translator
from bot.service import Board
from engine.cards import card_label

log = logging.getLogger(__name__)

CUSTOM_ID = r"g:(?P<gid>[0-9]+):(?P<ver>[0-9]+):(?P<sel>[0-9a-d]?):(?P<act>[a-z0-9]{1,2})"
FILENAME = "board.png"


def board_file(png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), filename=FILENAME)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID):
    """One button of a board; all state lives in its custom id."""

    def __init__(
        self,
        game_id: int,
        version: int,
        sel: str,
        act: str,
        *,
        label: str = "\u200b",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                disabled=disabled,
                row=row,
                custom_id=f"g:{game_id}:{version}:{sel}:{act}",
            )
        )
        self.game_id = game_id
        self.version = version
        self.sel = sel
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(int(match["gid"]), int(match["ver"]), match["sel"], match["act"])

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Only the game's owner may press its buttons; anyone else is told how to start their own."""
        service = interaction.client.service  # type: ignore[attr-defined]
        tr = await player_translator(interaction)  # also the language of the picture drawn next
        try:
            row, _ = await service.load(self.game_id)
        except Exception as exc:
            await report(interaction, exc)
            return False
        if row.owner_id != interaction.user.id:
            await report_text(interaction, tr("error.not_your_game", owner=f"<@{row.owner_id}>"))
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.client.on_board_press(interaction, self)  # type: ignore[attr-defined]
        except Exception as exc:
            await report(interaction, exc)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"r:(?P<gid>[0-9]+)"):
    """Under a won board: anyone may watch the game again as an animation."""

    def __init__(self, game_id: int, label: str = "Replay") -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=discord.ButtonStyle.primary, custom_id=f"r:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            tr = await player_translator(interaction)
            await interaction.response.defer(thinking=True)  # an animation takes a moment to draw
            gif = await interaction.client.service.replay(self.game_id)  # type: ignore[attr-defined]
            file = discord.File(io.BytesIO(gif), filename="replay.gif")
            await interaction.followup.send(tr("reply.replay", user=interaction.user.mention), file=file)
        except Exception as exc:
            await report(interaction, exc)


async def report_text(interaction: discord.Interaction, text: str) -> None:
    try:
        await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not refuse interaction %s", interaction.id)


# -- building boards -------------------------------------------------------------------
def board_view(tr: Translator, board: Board) -> discord.ui.View | None:
    """The buttons for a board; None once the game is over (nothing left to press)."""
    if board.finished:
        if board.row.status != "won":
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(ReplayButton(board.row.id, tr("button.replay")))
        return view
    view = discord.ui.View(timeout=None)
    items = _bakers_buttons(tr, board) if board.game.kind == "bakers" else _calculation_buttons(tr, board)
    for item in items:
        view.add_item(item)
    return view


def _controls(tr: Translator, board: Board, row: int) -> list[GameButton]:
    gid, ver, sel = board.row.id, board.row.version, board.selection
    return [
        GameButton(gid, ver, sel, "u", label=tr("button.undo"), row=row, disabled=board.game.undo_depth == 0),
        GameButton(gid, ver, sel, "i", label=tr("button.hint"), row=row, style=discord.ButtonStyle.success),
        GameButton(gid, ver, "", "x", label=tr("button.clear"), row=row, disabled=not sel),
    ] + (
        # No legal move is left: offer to end the game (it is recorded as lost).
        [
            GameButton(
                gid, ver, "", "r", label=tr("button.end_game"), row=row, style=discord.ButtonStyle.danger
            )
        ]
        if board.game.is_lost
        else []
    )


def _bakers_buttons(tr: Translator, board: Board) -> list[GameButton]:
    game: Any = board.game
    pos = game.position
    gid, ver, sel = board.row.id, board.row.version, board.selection
    out: list[GameButton] = []
    for i, col in enumerate(pos.cols):
        place = str(i + 1)
        top = card_label(col[-1]) if col else tr("button.empty")
        style = discord.ButtonStyle.primary if sel == place else discord.ButtonStyle.secondary
        out.append(GameButton(gid, ver, sel, place, label=f"{place} · {top}", style=style, row=i // 4))
    for i, held in enumerate(pos.cells):
        place = "abcd"[i]
        top = card_label(held) if held != -1 else tr("button.empty")
        style = discord.ButtonStyle.primary if sel == place else discord.ButtonStyle.secondary
        out.append(GameButton(gid, ver, sel, place, label=f"{place} · {top}", style=style, row=2))
    out.append(
        GameButton(
            gid,
            ver,
            sel,
            "h",
            label=tr("button.home"),
            row=2,
            disabled=not sel,
            style=discord.ButtonStyle.success,
        )
    )
    return out + _controls(tr, board, 3)


def _calculation_buttons(tr: Translator, board: Board) -> list[GameButton]:
    game: Any = board.game
    gid, ver, sel = board.row.id, board.row.version, board.selection
    source = f"w{sel}" if sel else "s"
    out: list[GameButton] = []
    for i in range(4):
        need = game.needs(i)
        label = (
            tr("button.foundation", n=i + 1, need=_rank(need))
            if need
            else tr("button.foundation_full", n=i + 1)
        )
        legal = game.is_legal(f"{source}f{i + 1}")
        out.append(GameButton(gid, ver, sel, f"f{i + 1}", label=label, row=0, disabled=not legal))
    turned = game.turned
    for i in range(4):
        out.append(
            GameButton(
                gid, ver, "", f"w{i + 1}", label=tr("button.waste", n=i + 1), row=1, disabled=turned is None
            )
        )
    for i, pile in enumerate(game.waste):
        fits = pile and any(game.is_legal(f"w{i + 1}f{j + 1}") for j in range(4))
        label = (
            tr("button.waste_top", n=i + 1, card=card_label(pile[-1]))
            if pile
            else tr("button.waste_empty", n=i + 1)
        )
        style = discord.ButtonStyle.primary if sel == str(i + 1) else discord.ButtonStyle.secondary
        out.append(GameButton(gid, ver, sel, f"p{i + 1}", label=label, style=style, row=2, disabled=not fits))
    return out + _controls(tr, board, 3)


def _rank(rank: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


def board_content(tr: Translator, board: Board) -> str:
    """The text above the picture: game, code, score, moves, last move, state."""
    game, row = board.game, board.row
    title = tr(f"game.{game.kind}")
    cells = f" · {tr.n('board.cells', row.cells)}" if row.cells else ""
    daily = f" · {tr('board.daily', date=row.daily_date.isoformat())}" if row.daily_date else ""
    lines = [
        f"**{title}**{cells}{daily} · `{row.code}`",
        tr("board.status", score=game.score) + " · " + tr.n("board.moves", game.move_count),
    ]
    if board.played == "undo":
        lines.append(tr("board.undone"))
    elif board.played:
        last = game.last_move  # type: ignore[attr-defined]
        if last is not None:
            lines.append(tr("board.last", move=describe.describe_move(tr, game, last)))
    if board.selection:
        lines.append(tr(f"board.selected.{game.kind}", place=_selected_name(tr, board)))
    if row.status == "won":
        lines.append(tr(f"board.won.{game.kind}", moves=game.move_count, score=game.score))
    elif row.status in ("lost", "resigned"):
        lines.append(tr(f"board.ended.{row.status}", score=game.score))
    elif board.notice:
        lines.append(tr(board.notice, **board.notice_params))
    return "\n".join(lines)


def _selected_name(tr: Translator, board: Board) -> str:
    sel = board.selection
    if board.game.kind == "calculation":
        return describe.place(tr, "w", int(sel) - 1)
    if sel.isdigit():
        return describe.place(tr, "c", int(sel) - 1)
    return describe.place(tr, "f", "abcd".index(sel))


def share_line(tr: Translator, board: Board) -> str | None:
    """A spoiler-safe one-line result of a finished daily game: outcome and emoji, no moves."""
    row, game = board.row, board.game
    if row.daily_date is None or row.is_active:
        return None
    if game.kind == "bakers":
        found = game.position.found  # type: ignore[attr-defined]
        squares = "".join("🟩" if n == 13 else ("🟨" if n else "⬛") for n in found)
    else:
        squares = "".join(
            "🟩" if game.needs(i) is None else ("🟨" if len(game.foundations[i]) > 1 else "⬛")  # type: ignore[attr-defined]
            for i in range(4)
        )
    key = f"share.{game.kind}.{'won' if row.status == 'won' else 'lost'}"
    return tr(key, date=row.daily_date.isoformat(), moves=game.move_count, score=game.score, squares=squares)
