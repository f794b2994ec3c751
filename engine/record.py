"""A game's record: everything that says which game it is, written once.

Each game declares one ``GameRecord`` in its own engine package (``engine/bakers/record.py``)
and ``engine.games.RECORDS`` lists them; the engine's, the renderer's and the bot's
registries all read it, and the bot builds the game's start command from its words. The
engine imports nothing of the renderer or the bot, so the record names their modules as
``"module:attribute"`` strings, imported only when that side registers the game.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from engine.codes import BASE32, DealForm, NumberedDeals, OptionPart


@dataclass(frozen=True, slots=True)
class GameOption:
    """A choice a game's codes carry beside the deal, one letter and a number: free cells
    (``C4`` in ``BK1-C4-AAAAA24``), or another game's own (a draw of one or three, ``D1``/``D3``)."""

    name: str  # the start command's option: "cells"
    letter: str  # how a code writes it: "C"
    values: tuple[int, ...]  # the choices offered, the default first
    description: str  # the start command's English description of it
    noun: str = "free-cell"  # a refusal's name for its part: "the free-cell part 'C5' must be …"
    counts: str = "free cells"  # what its number counts: "free cells must be 4, 2 or 1"

    def __post_init__(self) -> None:
        if not self.values:
            raise ValueError(f"option {self.name!r} offers no value")

    def code_part(self) -> OptionPart:
        """How the codes write it and name it in a refusal."""
        return OptionPart(self.letter, self.name, self.noun, self.counts)


@dataclass(frozen=True, slots=True)
class StartWords:
    """A game's start command as players see it in English (its translations are catalogue
    keys ``command.<name>.…`` and ``option.<name>.<option>.…``)."""

    name: str  # the slash command: "boulanger"
    description: str
    code: str  # the ``code`` option's description
    any_deal: str | None = None  # the ``any_deal`` option's description; None: no such option
    deal: str | None = None  # the deal-number option's description (numbered deals only)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game's identity: its codes (kind, prefix, versions, option, deals), its names and
    the modules that play, draw and front it."""

    kind: str  # the registries' key and storage's: "bakers"
    prefix: str  # the code's first letters: "BK"
    title: str  # its English name: "Jeu du Boulanger"
    short_name: str  # its English name in help texts: "Boulanger"
    letter: str  # one character naming it inside custom ids
    versions: tuple[int, ...]
    option: GameOption | None
    command: StartWords
    game: str  # "module:Class" of its engine ``Game``
    board: str  # its board for the renderer: "module:attribute", or a module that is the board
    front: str  # "module:Class" of its bot front
    deals: DealForm = BASE32

    def __post_init__(self) -> None:
        if self.command.deal is not None and not isinstance(self.deals, NumberedDeals):
            raise ValueError(f"{self.kind!r}: a deal-number option needs numbered deals")


def load(where: str) -> Any:
    """What a record's ``"module:attribute"`` (or ``"module"``) names, imported now."""
    module, _, name = where.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, name) if name else loaded
