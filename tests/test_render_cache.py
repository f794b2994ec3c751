"""The sprite memo (renderer.cache): bounded ones keep what is in use, so fifty games drawn in
turn (benchmarks/bot.py) redraw only the columns a move changed."""

from __future__ import annotations

import random

import engine
from renderer import render_image
from renderer.cache import cached
from renderer.games import tableau


def test_a_bounded_memo_evicts_the_least_recently_used():
    built: list[int] = []

    @cached(limit=3)
    def square(n: int) -> int:
        built.append(n)
        return n * n

    for n in (1, 2, 3):
        square(n)
    square(1)  # used again: now the most recent
    square(4)  # full: 2, the least recently used, goes
    assert set(square.cache) == {(1,), (3,), (4,)}
    assert square(1) == 1 and built == [1, 2, 3, 4]  # a hit builds nothing
    square(2)
    assert built == [1, 2, 3, 4, 2] and (3,) not in square.cache


def test_fifty_games_in_turn_redraw_about_the_columns_their_moves_changed(monkeypatch):
    """With room for only 256 column sprites, 50 games drawn in turn missed 7 of 8 columns a
    board (every game's eight columns pushed out by the others'); now a board draws anew only
    the one or two columns its move changed."""
    tableau.column_sprite.cache.clear()
    drawn = {"n": 0}
    build = tableau.column_sprite._fn

    def counting(*args):
        drawn["n"] += 1
        return build(*args)

    monkeypatch.setattr(tableau.column_sprite, "_fn", counting)
    rng = random.Random(7)
    games = [engine.new_game(engine.code_for("bakers", 1000 + i, 4)) for i in range(50)]
    for game in games:
        render_image(game)
    drawn["n"] = 0
    boards = 0
    for _ in range(6):
        for game in games:
            moves = game.legal_moves()
            if moves:
                game.play(rng.choice(moves))
                render_image(game)
                boards += 1
    assert boards > 250
    assert drawn["n"] <= 2.5 * boards, f"{drawn['n']} columns drawn for {boards} boards"
