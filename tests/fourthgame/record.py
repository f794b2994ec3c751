"""Climb's record: its codes, names and start command, all the registries read of it."""

from __future__ import annotations

from engine.record import GameRecord, StartWords

CLIMB = GameRecord(
    kind="climb",
    prefix="CL",
    title="Climb",
    short_name="Climb",
    letter="m",
    versions=(1,),
    option=None,
    command=StartWords("climb", "Start a game of Climb", code="Replay a deal by its code"),
    game="tests.fourthgame.game:ClimbGame",
    board="tests.fourthgame.picture",
    front="tests.fourthgame.front:ClimbFront",
)
