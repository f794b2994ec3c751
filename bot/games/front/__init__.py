"""The parts a game's front is made of, each a mixin with defaults (``bot.games.base.GameFront``
assembles them): ``controls`` (buttons, presses, selections, the menu, typed moves),
``words`` (title, rules, help, picture words, moves in words), ``results`` (endings,
rankings, races), ``solving`` (hint and verdict workers, the winnable stock), ``table`` (the
Activity's table), ``picture`` (render, replay, alt text, text board) and ``options`` (free
cells, codes, the daily's deal, players' settings).

A game implements only what it has: the abstract methods left are those every game needs
(``REQUIRED`` in ``bot.games.base``).
"""
