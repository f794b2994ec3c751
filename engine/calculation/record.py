"""Calculation's record: its codes, names and start command (``engine.record``)."""

from __future__ import annotations

from engine.record import GameRecord, StartWords

CALCULATION = GameRecord(
    kind="calculation",
    prefix="CA",
    title="Calculation",
    short_name="Calculation",
    letter="c",
    versions=(1,),
    option=None,
    command=StartWords(
        "calculation",
        "Start a game of Calculation (Broken Intervals)",
        code="Replay a deal by its code, e.g. CA1-AAAAA24",
    ),
    game="engine.calculation.game:CalculationGame",
    board="renderer.games.calculation",
    front="bot.games.calculation:CalculationFront",
)
