"""The shape every game front has: what the bot knows of one game, and nothing of Discord.

A front answers every game-specific question the rest of ``bot/`` asks: what a
board button means, which buttons a board gets, which place a selection
highlights, moves and places in words, the daily share squares, the hint
worker, the daily deal and the leaderboard line. Service,
views, replies, cogs and the daily poster ask the front of a game (through
``bot.games.front_for``) and never compare kinds themselves, so a new game is
its record, an engine module, a board and a front. A front's identity (kind,
letter, command, names, cell choices) is read from the record it names.

``GameFront`` is assembled from narrow parts with defaults (``bot/games/front/``:
controls, words, results, solving, table, picture, options); a caller that needs one
part may be typed against it. A new game implements the ``REQUIRED`` methods and
whatever else it has.

Fronts hold no state and import no Discord, so the service and the console use
them too; buttons are described as ``ButtonSpec`` data that ``bot.adapter.views`` turns
into discord.py components.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.games.front.controls import (
    CLEAR,
    CONTROLS,
    HINT,
    RESIGN,
    UNDO,
    ButtonSpec,
    Controls,
    Press,
    PressAction,
    Style,
)
from bot.games.front.options import GameSetting, Options
from bot.games.front.part import G
from bot.games.front.picture import Picture
from bot.games.front.results import Results, elapsed
from bot.games.front.solving import (
    Advice,
    AdviceStatus,
    HintWorker,
    Solving,
    Verdict,
    VerdictStatus,
    VerdictWorker,
    WinnableFinder,
    WorkerPool,
)
from bot.games.front.table import ActivityTable, Pile, Table
from bot.games.front.words import Words
from engine.record import GameRecord

# What every game's front must write itself: the rest of ``GameFront`` has defaults.
REQUIRED = frozenset(
    {
        "place_buttons",  # its own buttons (controls)
        "press_place",  # what pressing one means (controls)
        "claims_notation",  # whether a typed move is its (controls)
        "describe_move",  # a move in the player's words (words)
        "alt_text",  # its picture for screen readers (picture)
        "hint_worker",  # the Hint button's advice (solving)
    }
)


class GameFront(Controls[G], Words[G], Results[G], Solving[G], ActivityTable[G], Picture[G], Options[G]):
    """Everything game-specific the bot does, for the engine game class ``G``: its identity
    here, the rest in its parts."""

    # Its identity, read from the game's record (``__init_subclass__``): written nowhere else.
    record: ClassVar[GameRecord]
    kind: ClassVar[str]  # the engine's kind, the registry's key
    letter: ClassVar[str]  # one character naming the game inside custom ids
    command: ClassVar[str]  # the slash command that starts a game
    name: ClassVar[str]  # the English name in command choices (translated as ``choice.<kind>``)
    short_name: ClassVar[str]  # the English name in help texts ("Boulanger")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A front naming its game's ``record`` takes its identity and cell choices from it."""
        super().__init_subclass__(**kwargs)
        record: GameRecord | None = cls.__dict__.get("record")
        if record is None:
            return
        cls.kind, cls.letter, cls.command = record.kind, record.letter, record.command.name
        cls.name, cls.short_name = record.title, record.short_name
        option = record.option
        cls.cell_choices = option.values if option is not None else ()
        cls.option_name = option.name if option is not None else "cells"


__all__ = [
    "CLEAR",
    "CONTROLS",
    "HINT",
    "REQUIRED",
    "RESIGN",
    "UNDO",
    "ActivityTable",
    "Advice",
    "AdviceStatus",
    "ButtonSpec",
    "Controls",
    "GameFront",
    "GameSetting",
    "HintWorker",
    "Options",
    "Picture",
    "Pile",
    "Press",
    "PressAction",
    "Results",
    "Solving",
    "Style",
    "Table",
    "Verdict",
    "VerdictStatus",
    "VerdictWorker",
    "WinnableFinder",
    "Words",
    "WorkerPool",
    "elapsed",
]
