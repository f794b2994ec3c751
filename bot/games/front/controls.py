"""A front's controls: what a board button means, which buttons a board gets, the selection
a press may leave, the select menu's moves and which typed moves are the game's.

Required of every game: its own buttons (``place_buttons``), what pressing one means
(``press_place``) and whether a typed move is in its notation (``claims_notation``). The
shared controls (Undo, Hint, Clear, End game) come with every board.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Literal

from bot.games.front.part import G, Part
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback

Style = Literal["primary", "secondary", "success", "danger"]
PressAction = Literal["select", "play", "undo", "hint", "clear", "resign"]

# The buttons every board has, whatever the game: their actions in custom ids.
UNDO, HINT, CLEAR, RESIGN = "u", "i", "x", "r"
CONTROLS: dict[str, PressAction] = {UNDO: "undo", HINT: "hint", CLEAR: "clear", RESIGN: "resign"}


@dataclass(frozen=True, slots=True)
class Press:
    """What a board button means in the current position."""

    action: PressAction
    value: str = ""  # the notation to play, or the place selected


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One board button as data: ``bot.adapter.views`` makes the discord.py component from it."""

    act: str
    label: str
    row: int
    style: Style = "secondary"
    disabled: bool = False
    keeps_selection: bool = True  # False: pressing it is meant to drop the selection


class Controls(Part[G], ABC):
    """The board's buttons and the moves a player picks or types."""

    selections: ClassVar[str] = ""  # the places a selection may hold, one character each
    uses_selection: ClassVar[bool] = True  # whether a press can select a place (and Clear it)
    menu_size: ClassVar[int] = 25  # Discord's most options in a select menu
    # Whether its boards offer hints: a game whose hint player is still to come has no Hint
    # button, and a hint asked for is refused (``error.no_hints``).
    offers_hints: ClassVar[bool] = True

    def press(self, game: G, sel: str, act: str) -> Press:
        """What pressing ``act`` means with ``sel`` selected; ``UserFeedback`` if nothing."""
        control = CONTROLS.get(act)
        if control is not None:
            return Press(control)
        if sel and sel not in self.selections:  # a forged id's selection
            raise UserFeedback("error.unknown_button")
        return self.press_place(game, sel, act)

    @abstractmethod
    def press_place(self, game: G, sel: str, act: str) -> Press:
        """A press on one of this game's own buttons (a place or a destination)."""

    def buttons(self, tr: Translator, game: G, sel: str) -> list[ButtonSpec]:
        """Every button of a board in play, its places first, then the shared controls."""
        places = self.place_buttons(tr, game, sel)
        row = max((b.row for b in places), default=-1) + 1
        return places + self.control_buttons(tr, game, sel, row)

    @abstractmethod
    def place_buttons(self, tr: Translator, game: G, sel: str) -> list[ButtonSpec]:
        """The game's own buttons (its places, a Home), rows from 0; the shared controls follow."""

    def control_buttons(self, tr: Translator, game: G, sel: str, row: int) -> list[ButtonSpec]:
        out = [ButtonSpec(UNDO, tr("button.undo"), row, disabled=game.undo_depth == 0)]
        if self.offers_hints:
            out.append(ButtonSpec(HINT, tr("button.hint"), row, style="success"))
        if self.uses_selection:
            out.append(ButtonSpec(CLEAR, tr("button.clear"), row, disabled=not sel, keeps_selection=False))
        if game.is_lost:  # no legal move is left: offer to end it (recorded as lost)
            out.append(ButtonSpec(RESIGN, tr("button.end_game"), row, style="danger", keeps_selection=False))
        return out

    def highlight(self, sel: str) -> str:
        """The renderer's name of the place a selection marks: by default the selection itself."""
        return sel

    def selected_place(self, tr: Translator, sel: str) -> str:
        """The selected place in words, for the line under the board: by default its name as
        the buttons and typed moves write it."""
        return sel

    def move_menu(self, tr: Translator, game: G) -> list[tuple[str, str]]:
        """The moves a board's select menu offers besides its buttons (none by default)."""
        return []

    @abstractmethod
    def claims_notation(self, text: str) -> bool:
        """Whether a typed move looks like this game's notation (which game /move is for)."""
