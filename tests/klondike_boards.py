"""Klondike games at positions a test writes out, in the engine's card text (``"AS 2H"``)."""

from __future__ import annotations

import engine
from engine.cards import parse_card
from engine.klondike import KlondikeGame, KlondikeState, position_of
from engine.solver import SolveResult

HEARTS, SPADES = 1, 0


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def rest_home(*kept: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Foundations holding, in each suit, every card below the lowest card ``kept`` elsewhere."""
    lowest = [14, 14, 14, 14]
    for group in kept:
        for c in group:
            lowest[c // 13] = min(lowest[c // 13], c % 13 + 1)
    return (lowest[0] - 1, lowest[1] - 1, lowest[2] - 1, lowest[3] - 1)


def game_at(
    piles: list[str],
    *,
    down: list[int] | None = None,
    stock: str = "",
    waste: str = "",
    found: tuple[int, int, int, int] | None = None,
    draw: int = 1,
) -> KlondikeGame:
    """A fresh game (no history) at the position given: 7 piles bottom first, ``down`` face-down
    counts, the stock next-to-turn first, the waste bottom first; foundations by default each
    suit's cards below the lowest written. Cards neither written nor home go to the stock's end."""
    pile_cards = [cards(p) for p in piles] + [()] * (7 - len(piles))
    stock_cards, waste_cards = cards(stock), cards(waste)
    if found is None:
        found = rest_home(*pile_cards, stock_cards, waste_cards)
    placed = {c for group in (*pile_cards, stock_cards, waste_cards) for c in group}
    placed |= {s * 13 + r for s in range(4) for r in range(found[s])}
    stock_cards += tuple(c for c in range(52) if c not in placed)
    game = engine.new_game(f"KL1-D{draw}-AAAAAAA")
    assert isinstance(game, KlondikeGame)
    state = KlondikeState(tuple(pile_cards), tuple(down or [0] * 7), stock_cards, waste_cards, found, draw)
    game.position = position_of(state)
    return game


def winning_line(game: KlondikeGame, node_limit: int) -> SolveResult:
    """The thoughtful solver's answer for ``game`` (every card known), lent to ``tests.lines``
    until the game solves itself (``KlondikeGame.solve``)."""
    from bot.games.klondike.deals import layout_of
    from engine.klondike.solving import solve

    return solve(layout_of(game), budget=node_limit)
