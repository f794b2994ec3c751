"""Jeu du Boulanger's record: its codes, names and start command (``engine.record``)."""

from __future__ import annotations

from engine.record import GameOption, GameRecord, StartWords

BAKERS = GameRecord(
    kind="bakers",
    prefix="BK",
    title="Jeu du Boulanger",
    short_name="Boulanger",
    letter="b",
    versions=(1,),
    option=GameOption("cells", "C", (4, 2, 1), "Free cells: 4 (default), 2 or 1 — fewer is much harder"),
    command=StartWords(
        "boulanger",
        "Start a game of Jeu du Boulanger (Baker's Game)",
        code="Replay a deal by its code, e.g. BK1-C4-AAAAA24",
        any_deal="Deal any shuffle, even one that cannot be won (default: only winnable deals)",
    ),
    game="engine.bakers.game:BakersGame",
    board="renderer.games.bakers:BOARD",
    front="bot.games.bakers:BakersFront",
)
