"""Moves and places in words, in the player's language (for autocomplete and replies).

The engine describes moves in English for logs; players get these, built from
the engine's resolved move objects and the message catalogue.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.i18n import Translator
from engine.cards import card_label

_CELLS = "abcd"


def place(tr: Translator, kind: str, index: int) -> str:
    """A place on either board: column/cell/foundation (Baker), turned/waste/foundation (Calculation)."""
    if kind == "c":
        return tr("place.column", n=index + 1)
    if kind == "f" and index < 0:
        return tr("place.foundation")
    if kind == "s":
        return tr("place.turned")
    if kind == "w":
        return tr("place.waste", n=index + 1)
    return tr("place.cell", letter=_CELLS[index])


def describe_bakers(tr: Translator, move: Any) -> str:
    """``7♥ from column 3 to column 5``; a group names its size and range."""
    src = place(tr, move.src_kind, move.src)
    top = card_label(move.cards[-1])
    if len(move.cards) > 1:
        what = tr.n("move.group", len(move.cards), low=card_label(move.cards[0]), high=top)
    else:
        what = top
    if move.dst_kind == "h":
        return tr("move.home", what=what, src=src)
    return tr("move.to", what=what, src=src, dst=place(tr, move.dst_kind, move.dst))


def describe_calculation(tr: Translator, move: Any) -> str:
    src = place(tr, move.src_kind, move.src)
    dst = tr("place.calc_foundation", n=move.dst + 1) if move.dst_kind == "f" else place(tr, "w", move.dst)
    return tr("move.to", what=card_label(move.card), src=src, dst=dst)


def describe(tr: Translator, game: engine.Game, notation: str) -> str:
    """A move that is legal now in words; the notation itself if it is not."""
    try:
        move = game.resolve(notation)  # type: ignore[attr-defined]
    except engine.EngineError:
        return notation
    return describe_move(tr, game, move)


def describe_move(tr: Translator, game: engine.Game, move: Any) -> str:
    if game.kind == "bakers":
        return describe_bakers(tr, move)
    return describe_calculation(tr, move)


def legal_moves_in_words(tr: Translator, game: engine.Game) -> list[tuple[str, str]]:
    """(notation, words) for every legal move, in the engine's order."""
    objects = game.legal_move_objects()  # type: ignore[attr-defined]
    return [(m.notation, describe_move(tr, game, m)) for m in objects]


def filter_choices(options: list[tuple[str, str]], typed: str, limit: int = 25) -> list[tuple[str, str]]:
    """Autocomplete: (notation, words) pairs whose notation starts with, or words contain, ``typed``."""
    text = typed.strip().lower()
    out = [(n, w) for n, w in options if not text or n.startswith(text) or text in w.lower()]
    return out[:limit]
