"""The games this project plays, in the order players see them: the one list of records
(``engine.record``). A new game is its own packages and one line here."""

from __future__ import annotations

from engine.bakers.record import BAKERS
from engine.calculation.record import CALCULATION
from engine.freecell.record import FREECELL
from engine.klondike.record import KLONDIKE
from engine.record import GameRecord

RECORDS: tuple[GameRecord, ...] = (BAKERS, CALCULATION, FREECELL, KLONDIKE)
