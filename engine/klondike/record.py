"""Klondike's record: its codes (the draw, ``D1`` or ``D3``), names and start command."""

from __future__ import annotations

from engine.record import GameOption, GameRecord, StartWords

KLONDIKE = GameRecord(
    kind="klondike",
    prefix="KL",
    title="Klondike",
    short_name="Klondike",
    letter="o",  # klOndike: "k" is a button act of the race's posts
    versions=(1,),
    option=GameOption(
        "draw",
        "D",
        (1, 3),
        "Cards turned from the stock at a time: 1 (default) or 3 — three is much harder",
        noun="draw",
        counts="cards drawn",
    ),
    command=StartWords(
        "klondike",
        "Start a game of Klondike (the classic solitaire), drawing one card or three",
        code="Replay a deal by its code, e.g. KL1-D3-AAAAA24",
    ),
    game="engine.klondike.game:KlondikeGame",
    board="renderer.games.klondike",
    front="bot.games.klondike:KlondikeFront",
)
