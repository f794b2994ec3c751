"""A tiny third game, to show that a new game is an engine module, a front and a registration."""
