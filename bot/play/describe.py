"""Moves and hints in words, in the player's language (for autocomplete and replies).

The engine describes moves in English for logs; players get these, built from
the engine's resolved move objects by each game's front and the catalogue.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.games import front_of
from bot.games.base import Advice
from bot.languages.i18n import Translator


def describe(tr: Translator, game: engine.Game[Any], notation: str) -> str:
    """A move that is legal now in words; the notation itself if it is not."""
    try:
        move = game.resolve(notation)
    except engine.EngineError:
        return notation
    return front_of(game).describe_move(tr, move)


def legal_moves_in_words(tr: Translator, game: engine.Game[Any]) -> list[tuple[str, str]]:
    """(notation, words) for every legal move, the most useful first (its front's order)."""
    return front_of(game).ranked_moves(tr, game)


def filter_choices(options: list[tuple[str, str]], typed: str, limit: int = 25) -> list[tuple[str, str]]:
    """Autocomplete: (notation, words) pairs whose notation starts with, or words contain, ``typed``."""
    text = typed.strip().lower()
    out = [(n, w) for n, w in options if not text or n.lower().startswith(text) or text in w.lower()]
    return out[:limit]


def hint_text(tr: Translator, game: engine.Game[Any], advice: Advice) -> str:
    """A hint worker's answer in words."""
    if advice.status == "move" and advice.move:
        return tr("hint.move", move=describe(tr, game, advice.move), notation=advice.move)
    if advice.status == "lost":
        return lost_text(tr, advice)
    if advice.status == "won":
        return tr("hint.won")
    return tr("hint.unknown")


def lost_text(tr: Translator, advice: Advice) -> str:
    """A lost position in words that say what is true: "can no longer be won" only of a deal
    that could be won before, "this deal cannot be won" of one that never could."""
    if advice.undos:
        return tr.n("hint.lost_undo", advice.undos)
    if advice.deal_winnable is False:
        return tr("hint.deal_lost")
    if advice.deal_winnable:
        return tr("hint.lost")
    return tr("hint.lost_unknown")
