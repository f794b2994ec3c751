"""A Jeu du Boulanger position: the shared FreeCell-family position (``engine.tableau``) with
Baker's build rule, a card on the next higher card of the same suit, and dealing version 1.

``Position`` knows nothing of history or score; ``BakersGame`` adds those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from engine.cards import card_label
from engine.dealing import shuffled_deck
from engine.tableau.position import (
    EMPTY,
    NUM_COLUMNS,
    TableauMove,
    TableauPosition,
    _make_move,
    fit_table,
)

if TYPE_CHECKING:
    from engine.solver.rules import Rules

BakersMove = TableauMove  # the moves of both games are the same objects


def same_suit_below(card: int, top: int) -> bool:
    """Baker's build rule: ``card`` goes on ``top`` when ``top`` is one higher, same suit."""
    return top == card + 1 and top // 13 == card // 13


class Position(TableauPosition):
    """Columns, free cells and foundations of Jeu du Boulanger."""

    __slots__ = ()
    FIT = fit_table(same_suit_below)
    GAME_TITLE = "Jeu du Boulanger"

    @classmethod
    def deal(cls, deal_number: int, cells: int) -> Self:
        """Dealing version 1 (SPEC §3): shuffled card k onto column (k mod 8)."""
        return cls.from_deck(shuffled_deck(deal_number), cells)

    @classmethod
    def solver_rules(cls) -> Rules:
        """Jeu du Boulanger's rules as the solver needs them (``engine.bakers.solving``)."""
        from engine.bakers.solving import RULES

        return RULES

    @staticmethod
    def _beyond(card: int, top: int) -> bool:
        return top % 13 != 0 and (top - 1) // 13 == card // 13 and top - 1 < card

    @staticmethod
    def _need_words(top: int) -> str:
        return card_label(top - 1)

    @staticmethod
    def _rule_words(card: int) -> str:
        return f"of the same suit ({card_label(card + 1) if card % 13 != 12 else 'none for a king'})"


__all__ = ["EMPTY", "NUM_COLUMNS", "BakersMove", "Position", "_make_move", "same_suit_below"]
