"""The board message as one Components V2 card: its text, its picture and its controls.

A board is a ``LayoutView`` holding one ``Container`` in its game's accent colour: a
``TextDisplay`` with the status line (``bot.play.board_text``), a ``MediaGallery`` showing the
picture (``attachment://board.png``, described by the alt text) and, beneath, the controls in
``ActionRow``s. Every control is a ``DynamicItem`` registered with the client
(``BOARD_ITEMS``), so a board keeps working after a restart: its custom id carries the game
id, the game's version when the board was drawn (a press on an out-of-date board is refused
as stale and the board redrawn), the selected source (two-press play) and the action. Which
buttons a board has, and what they mean, is its game front's (``bot.games``); what a press does
is ``bot.adapter.press``'s, reached through the client (``BoardHandler``), because that module
edits boards drawn here. Where this process serves the Activity (``serves_cards``), a board in
play of a game the Activity offers also gets "Play on the cards" (``CardsButton``), its own
last row.
"""

from __future__ import annotations

import io
import re
from typing import Any, Protocol, runtime_checkable

import discord

from bot.adapter.again import finished_items
from bot.adapter.game_buttons import GameButtonBase
from bot.games.base import HINT
from bot.languages.i18n import Translator
from bot.play.service import Board
from bot.running.inflight import Tracked

# The selection slot takes any one letter or digit: which places a selection may hold is
# each front's (``GameFront.selections``, checked on the press), so ids posted before stay valid.
CUSTOM_ID = r"g:(?P<gid>[0-9]+):(?P<ver>[0-9]+):(?P<sel>[0-9a-z]?):(?P<act>[a-z0-9]{1,2})"
MENU_ID = r"m:(?P<gid>[0-9]{1,20}):(?P<ver>[0-9]{1,10})"
CARDS_ID = r"k:(?P<gid>[0-9]{1,20})"
FILENAME = "board.png"
MEDIA = f"attachment://{FILENAME}"
ALT_TEXT_LIMIT = 1024  # Discord's longest attachment (and media item) description
ROW_WIDTH = 5  # buttons in one action row
MENU_ROW = 4  # the front's rows 0-3 hold buttons; the "Another move…" menu comes next
CARDS_ROW = 5  # "Play on the cards", alone under the menu


@runtime_checkable
class BoardHandler(Protocol):
    """What a board's controls call (``bot.adapter.press.Presses``, held by the client as
    ``presses``: this module draws the boards that module edits, so it is handed, not imported)."""

    async def pressed(self, interaction: discord.Interaction[Any], button: GameButton) -> None: ...

    async def chosen(
        self, interaction: discord.Interaction[Any], menu: MoveMenu, values: list[str]
    ) -> None: ...

    async def launch(self, interaction: discord.Interaction[Any], button: CardsButton) -> None: ...


def board_handler(interaction: discord.Interaction[Any]) -> BoardHandler:
    handler = getattr(interaction.client, "presses", None)
    if not isinstance(handler, BoardHandler):
        raise RuntimeError("this client does not handle board components")
    return handler


def alt_text(tr: Translator, board: Board) -> str:
    """The picture in words: the game, the score and the position."""
    alt = board.front.alt_text(tr, board.game)
    return alt if len(alt) <= ALT_TEXT_LIMIT else alt[: ALT_TEXT_LIMIT - 1] + "…"


def board_file(board: Board, alt: str) -> discord.File:
    """The picture as an attachment, described by ``alt`` (``alt_text``)."""
    return discord.File(io.BytesIO(board.png), filename=FILENAME, description=alt)


class GameButton(Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID):
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
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80] or "\u200b",
                style=style,
                disabled=disabled,
                custom_id=f"g:{game_id}:{version}:{sel}:{act}",
            )
        )
        self.game_id = game_id
        self.version = version
        self.sel = sel
        self.act = act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        """Only splits the id (it must never raise); the press path checks what it carries."""
        return cls(int(match["gid"]), int(match["ver"]), match["sel"], match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await board_handler(interaction).pressed(interaction, self)


class MoveMenu(Tracked, discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_ID):
    """The board's last row: every other useful move, one choice away (the value is its notation)."""

    def __init__(
        self, game_id: int, version: int, placeholder: str = "…", options: list[tuple[str, str]] | None = None
    ) -> None:
        choices = [
            discord.SelectOption(label=words[:100], value=notation[:100], description=notation[:100])
            for notation, words in (options or [("-", "-")])[:25]
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"m:{game_id}:{version}", placeholder=placeholder[:150], options=choices
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveMenu:
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await board_handler(interaction).chosen(interaction, self, list(self.item.values))


class CardsButton(GameButtonBase, template=CARDS_ID):
    """ "Play on the cards": opens the Activity on this board's game (no version: any position
    of the game is the one the page shows)."""

    prefix = "k"
    default_label = "Play on the cards"
    style = discord.ButtonStyle.primary

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await board_handler(interaction).launch(interaction, self)


#: Every control of a board, registered with the client (``bot.adapter.press``).
BOARD_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton, MoveMenu, CardsButton)


def serves_cards(client: Any) -> bool:
    """Whether ``client`` serves the Activity (``BoulangerBot.activity_server``): only then do
    its boards offer "Play on the cards"."""
    return getattr(client, "activity_server", None) is not None


class BoardLayout(discord.ui.LayoutView):
    """A board message: one container, no timeout (its controls are dynamic items)."""

    def __init__(self, container: discord.ui.Container[Any]) -> None:
        super().__init__(timeout=None)
        self.add_item(container)
        self.container = container


def board_layout(tr: Translator, board: Board, text: str, alt: str, *, cards: bool = False) -> BoardLayout:
    """The board as one card: ``text`` above the picture (described by ``alt``, ``alt_text``:
    worked out once for the gallery and the attachment), the controls beneath; ``cards``: the
    Activity is served here (``serves_cards``)."""
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
        discord.MediaGalleryItem(MEDIA, description=alt)
    )
    rows = board_controls(tr, board, cards=cards)
    return BoardLayout(
        discord.ui.Container(
            discord.ui.TextDisplay(text), gallery, *rows, accent_colour=board.front.accent_colour
        )
    )


def board_controls(tr: Translator, board: Board, *, cards: bool = False) -> list[discord.ui.ActionRow[Any]]:
    """The controls under a board, in one place: a board in play gets its front's buttons and
    the move menu, and "Play on the cards" where ``cards_offered``; a finished one what comes
    after (``bot.adapter.again``)."""
    if board.finished:
        items = finished_items(tr, board)
        return [discord.ui.ActionRow(*items[i : i + ROW_WIDTH]) for i in range(0, len(items), ROW_WIDTH)]
    grouped: dict[int, list[discord.ui.Item[Any]]] = {}
    row = board.row
    for spec in board.front.buttons(tr, board.game, board.selection):
        if spec.act == HINT and board.private:
            continue  # a race's board: no Hint (the service refuses a stale one)
        sel = board.selection if spec.keeps_selection else ""
        button = GameButton(
            row.id,
            row.version,
            sel,
            spec.act,
            label=spec.label,
            style=STYLES[spec.style],
            disabled=spec.disabled,
        )
        grouped.setdefault(spec.row, []).append(button)
    options = board.front.move_menu(tr, board.game)
    if options:
        grouped.setdefault(MENU_ROW, []).append(
            MoveMenu(row.id, row.version, tr("board.other_move"), options)
        )
    if cards and cards_offered(board):
        grouped[CARDS_ROW] = [CardsButton(row.id, tr("board.cards"))]
    for items in grouped.values():
        if len(items) > ROW_WIDTH:
            raise ValueError("a board row holds at most five buttons")
    return [discord.ui.ActionRow(*grouped[n]) for n in sorted(grouped)]


def cards_offered(board: Board) -> bool:
    """A game in play the Activity offers (``in_activity``), not a race's private board: the
    Activity's table shows every player's game to the others at it."""
    return not board.finished and not board.private and board.front.in_activity


STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def without_controls(message: discord.Message) -> discord.ui.LayoutView | None:
    """What a board message shows once its controls are taken off (its game moved to a newer
    message): the same card without its action rows; None (no components) in the old form.
    A card must keep its components: Discord refuses to empty one, or to drop its flag."""
    if not message.flags.components_v2:
        return None
    kept: list[discord.ui.Item[Any]] = []
    colour: int | None = None
    for component in message.components:
        if isinstance(component, discord.components.Container):
            colour = component.accent_colour.value if component.accent_colour else None
            kept += [item for c in component.children if (item := shown_item(c)) is not None]
        elif (item := shown_item(component)) is not None:
            kept.append(item)
    return BoardLayout(discord.ui.Container(*kept, accent_colour=colour))


def shown_item(component: discord.components.Component) -> discord.ui.Item[Any] | None:
    """A board card's text or picture as an item to send again; None for its controls."""
    if isinstance(component, discord.components.TextDisplay):
        return discord.ui.TextDisplay(component.content)
    if isinstance(component, discord.components.MediaGalleryComponent):
        described = [item.description for item in component.items]
        return discord.ui.MediaGallery(
            *(discord.MediaGalleryItem(MEDIA, description=d) for d in described[:1])
        )
    return None
