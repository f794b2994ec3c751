"""What a press on a Klondike board plays: one press a move, a selection only when a card has
several places to go.

A pile's or the waste's press sends its card home when its foundation takes it, else plays
its best move onto a pile (the one that turns a card up, then the longest run, then onto
cards rather than into an empty pile, then the leftmost); when the run could go to two
different piles (or onto cards and into an empty pile) the press selects it instead and the
next press on a pile says where (the same place again plays the best). The stock's press
turns it (or turns the waste back over). Home sends every card that can go home, Finish
when that wins. Every other move is in the menu.
"""

from __future__ import annotations

from engine.klondike import KlondikeGame, KlondikeMove
from engine.klondike.notation import HOME, PILE, PILE_DIGITS, STOCK, WASTE

SOURCES = PILE_DIGITS + WASTE  # the places a press picks up from (and a selection holds)


def source_place(place: str) -> tuple[str, int]:
    """A button's place as the engine names it: ``("w", 0)`` the waste, ``("p", i)`` a pile."""
    return (WASTE, 0) if place == WASTE else (PILE, PILE_DIGITS.index(place))


def _best(game: KlondikeGame, moves: list[KlondikeMove]) -> KlondikeMove:
    piles = game.position.piles
    return max(moves, key=lambda m: (m.turns_up, bool(piles[m.dst]), len(m.cards), -m.dst))


def pile_moves(game: KlondikeGame, place: str) -> list[KlondikeMove]:
    """The moves from ``place`` onto a pile (the empty piles as one: any of them is the same)."""
    moves = [m for m in game.position.moves(source_place(place)) if m.dst_kind == PILE]
    piles = game.position.piles
    first_empty = min((m.dst for m in moves if not piles[m.dst]), default=None)
    return [m for m in moves if piles[m.dst] or m.dst == first_empty]


def one_press(game: KlondikeGame, place: str) -> str | None:
    """The move one press on ``place`` plays (notation), None when nothing there can move."""
    home = next(game.position.moves(source_place(place), (HOME, 0)), None)
    if home is not None:
        return home.notation
    onto = pile_moves(game, place)
    return _best(game, onto).notation if onto else None


def needs_choice(game: KlondikeGame, place: str) -> bool:
    """Whether a press on ``place`` selects it: no card goes home and its run has two places to go."""
    if next(game.position.moves(source_place(place), (HOME, 0)), None) is not None:
        return False
    return len(pile_moves(game, place)) > 1


def one_presses(game: KlondikeGame) -> dict[str, str]:
    """Every place's one-press move at once ({place: notation}), the stock's included."""
    out = {p: n for p in SOURCES if (n := one_press(game, p)) is not None}
    if game.position.stock_move() is not None:
        out[STOCK] = STOCK
    return out


def ranked(game: KlondikeGame) -> list[KlondikeMove]:
    """Every legal move, the most useful first: home, onto a pile (turning a card up first),
    a foundation's card back, the stock."""
    moves = game.legal_move_objects()

    def order(m: KlondikeMove) -> tuple[int, int]:
        if m.dst_kind == HOME:
            return (0, 0)
        if m.src_kind in (PILE, WASTE):
            return (1, 0 if m.turns_up else 1)
        return (2, 0) if m.src_kind == HOME else (3, 0)

    return sorted(moves, key=order)
