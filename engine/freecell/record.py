"""FreeCell's record: its codes (Microsoft's numbered deals), names and start command."""

from __future__ import annotations

from engine.freecell.deals import MS_DEALS
from engine.record import GameOption, GameRecord, StartWords

FREECELL = GameRecord(
    kind="freecell",
    prefix="FC",
    title="FreeCell",
    short_name="FreeCell",
    letter="f",
    versions=(1,),
    option=GameOption(
        "cells", "C", (4, 3, 2, 1), "Free cells: 4 (default), 3, 2 or 1 — fewer is much harder"
    ),
    command=StartWords(
        "freecell",
        "Start a game of FreeCell (Microsoft's deals by number)",
        code="Replay a deal by its code, e.g. FC1-C4-MS11982 (or #11982)",
        any_deal="Deal any number, even one that cannot be won (default: only winnable deals)",
        deal="Microsoft's deal number, 1 to 1000000 (e.g. 11982)",
    ),
    game="engine.freecell.game:FreeCellGame",
    board="renderer.games.freecell:BOARD",
    front="bot.games.freecell:FreeCellFront",
    deals=MS_DEALS,
)
