"""Tower's record: its codes, names and start command, all the registries read of it."""

from __future__ import annotations

from engine.record import GameRecord, StartWords

TOWER = GameRecord(
    kind="tower",
    prefix="TW",
    title="Tower",
    short_name="Tower",
    letter="t",
    versions=(1,),
    option=None,
    command=StartWords("tower", "Start a game of Tower", code="Replay a deal by its code"),
    game="tests.thirdgame.game:TowerGame",
    board="tests.thirdgame.picture",
    front="tests.thirdgame.front:TowerFront",
)
