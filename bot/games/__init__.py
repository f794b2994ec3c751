"""The game fronts, keyed by the engine's kind, registered from the games' records.

A game is declared once, by its record (``engine.record.GameRecord``, listed in
``engine.games.RECORDS``): it names its front (``record.front``, a ``GameFront`` subclass
naming that record), which is registered here at import; its start command is built from
the record's words (``bot.adapter.cogs.starting``). A game added later (a deployment's, a
test's) is registered from its record alone by ``add``. Nothing else in ``bot/`` needs to
change.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.games.base import Advice, ButtonSpec, GameFront, Press
from bot.languages.i18n import CLIENT_LOCALES, has, share_param, t
from bot.play.feedback import UserFeedback
from engine.games import RECORDS
from engine.record import GameRecord, load
from engine.registry import declare
from engine.registry import unregister as unregister_game

_FRONTS: dict[str, GameFront[Any]] = {}


def register(front: GameFront[Any]) -> GameFront[Any]:
    """Make a game playable in the bot; its kind must be registered in the engine."""
    if front.kind not in engine.GAMES:
        raise ValueError(f"no engine game of kind {front.kind!r}")
    clash = next((f for f in _FRONTS.values() if f.letter == front.letter and f.kind != front.kind), None)
    if clash is not None:
        raise ValueError(f"letter {front.letter!r} is taken by {clash.kind!r}")
    _FRONTS[front.kind] = front
    return front


def unregister(kind: str) -> None:
    _FRONTS.pop(kind, None)


def front_from(record: GameRecord) -> GameFront[Any]:
    """A game's front, from the class its record names (which must name that record)."""
    front: GameFront[Any] = load(record.front)()
    if front.record is not record:
        raise ValueError(f"{record.front} is not the front of {record.kind!r}'s record")
    return front


def add(record: GameRecord) -> GameFront[Any]:
    """Make a game playable from its record alone: its codes in the engine, its board in the
    renderer, its front and start command here (a game not in ``engine.games.RECORDS``)."""
    import renderer  # here: the bot's own process draws no picture, so it does not load it

    declare(record)
    renderer.register(load(record.board))
    return register(front_from(record))


def remove(kind: str) -> None:
    """Forget a game ``add`` made playable."""
    import renderer

    unregister(kind)
    renderer.unregister(kind)
    unregister_game(kind)


def fronts() -> tuple[GameFront[Any], ...]:
    """Every registered front, in registration order (the order choices and posts use)."""
    return tuple(_FRONTS.values())


def front_for(kind: str) -> GameFront[Any]:
    """The front of a kind; ``UserFeedback`` for one this bot does not know (a forged id)."""
    front = _FRONTS.get(kind)
    if front is None:
        raise UserFeedback("error.unknown_button")
    return front


def front_of(game: engine.Game[Any]) -> GameFront[Any]:
    return front_for(game.kind)


def front_by_letter(letter: str) -> GameFront[Any]:
    for front in _FRONTS.values():
        if front.letter == letter:
            return front
    raise UserFeedback("error.unknown_button")


# The shared commands' descriptions name no game: a list of the games would outgrow Discord's
# 100 characters, and every language's catalogue would need it again for each new game.
_OPTION_HELP = {
    ("leaderboard", "cells"): "Free cells: the boards of games played with this many (default 4)",
    ("race", "cells"): "Free cells, for a game played with them: 4 (default) or fewer, harder",
    ("leaderboard", "draw"): "Cards turned from the stock: the boards of games played with this draw",
    ("race", "draw"): "Cards turned from the stock, for a game with one: 1 (default) or 3, harder",
}


def option_choices(name: str) -> tuple[int, ...]:
    """Every value some game offers for its option called ``name`` (its record's option name:
    ``cells``, ``draw``), most first: the choices of /leaderboard's and /race's option of that
    name."""
    chosen = {n for front in _FRONTS.values() if front.option_name == name for n in front.cell_choices}
    return tuple(sorted(chosen, reverse=True))


def cell_options() -> tuple[int, ...]:
    """Every free-cell count some game offers (the ``cells`` option's choices), most first."""
    return option_choices("cells")


def cells_help(command: str) -> str:
    """The English description of ``command``'s ``cells`` option (a game's option: free cells)."""
    return _OPTION_HELP[(command, "cells")]


def draw_help(command: str) -> str:
    """The English description of ``command``'s ``draw`` option (a game's option: cards turned)."""
    return _OPTION_HELP[(command, "draw")]


def chosen_option(kind: str, given: dict[str, int | None]) -> int | None:
    """The option value a command gives a game of ``kind``, from its options by name (``cells``,
    ``draw``): the one named as the game's option; a value under another name is refused."""
    front = front_for(kind)
    if any(value is not None for name, value in given.items() if name != front.option_name):
        raise UserFeedback(front.key("error.bad_cells"))
    return given.get(front.option_name)


def notation_help() -> str:
    """``/move``'s description."""
    return "Your move in the game's notation (e.g. 3h, a5, w1f4); start typing to pick one"


def rules_help() -> str:
    """``/rules``'s description."""
    return "How to play each game: the goal, the layout and the moves"


def front_named(word: str) -> GameFront[Any] | None:
    """The front a player's word names: its kind or its start command (console, case-insensitive)."""
    word = word.strip().lower()
    return next((f for f in _FRONTS.values() if word in (f.kind, f.command)), None)


def _command(front: GameFront[Any], language: str) -> str:
    """A start command as the player's Discord shows it: its translated name where the player's
    Discord locale has one (Catalan has no Discord locale; a game may bring no translation of
    its command), else its own name, as Discord then shows it."""
    key = f"command.{front.command}.name"
    localised = language in CLIENT_LOCALES.values() and has(language, key)
    return "/" + (t(language, key) if localised else front.command)


def start_commands(language: str) -> str:
    """``/boulanger, /calculation, …``: every game's start command, for the texts that list them."""
    return ", ".join(_command(f, language) for f in _FRONTS.values())


def start_list(language: str) -> str:
    """Every game's start command and name, for /help: ``/boulanger`` (Jeu du Boulanger), …"""
    return ", ".join(f"`{_command(f, language)}` ({f.title_in(language)})" for f in _FRONTS.values())


def code_prefixes(language: str) -> str:
    """Every game's code prefix and name: ``BK (Jeu du Boulanger), CA (Calculation), …``."""
    return ", ".join(f"{engine.GAMES[f.kind].code_prefix} ({f.title_in(language)})" for f in _FRONTS.values())


def notations(language: str) -> str:
    """Typed moves of every game, games with the same notation together:
    ``3h, a5, 27, 18v2 (Jeu du Boulanger, …); sf2, w3, w1f4 (Calculation)``."""
    by_notation: dict[str, list[str]] = {}
    for front in _FRONTS.values():
        by_notation.setdefault(front.notation_examples, []).append(front.title_in(language))
    return "; ".join(f"{examples} ({', '.join(names)})" for examples, names in by_notation.items())


for _name, _fill in {
    "start_commands": start_commands,
    "start_list": start_list,
    "code_prefixes": code_prefixes,
    "notations": notations,
}.items():
    share_param(_name, _fill)

for _record in RECORDS:
    register(front_from(_record))

__all__ = [
    "Advice",
    "ButtonSpec",
    "GameFront",
    "Press",
    "add",
    "cell_options",
    "cells_help",
    "chosen_option",
    "draw_help",
    "front_by_letter",
    "front_for",
    "front_named",
    "front_of",
    "fronts",
    "notation_help",
    "option_choices",
    "register",
    "remove",
    "rules_help",
    "unregister",
]
