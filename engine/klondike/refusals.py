"""Why a Klondike move is refused: only explains, once ``Position.moves`` has found no such move.

Each refusal is an ``IllegalMove`` whose reason and params (card labels, pile numbers) let a
front end say it in the player's language; the English message is the engine's own.
"""

from __future__ import annotations

from engine.cards import SUIT_SYMBOLS, card_label, is_red, rank_of, rank_text, suit_of
from engine.errors import IllegalMove
from engine.klondike.notation import HOME, PILE, STOCK, WASTE, ParsedMove
from engine.klondike.position import Position
from engine.klondike.rules import KING, builds_on, run_start


def refusal(pos: Position, parsed: ParsedMove) -> IllegalMove:
    """Why ``parsed`` is not a legal move in ``pos``."""
    if parsed.src_kind == STOCK:
        return IllegalMove("the stock and the waste are both empty: there is nothing to turn", "stock_empty")
    cards = _movable(pos, parsed)
    if isinstance(cards, IllegalMove):
        return cards
    if parsed.dst_kind == HOME:
        return _not_home(pos, cards[-1])
    return _not_onto(pos, parsed, cards)


def _movable(pos: Position, parsed: ParsedMove) -> list[int] | IllegalMove:
    """The cards the source could give (a pile: its top run), or why it has none."""
    if parsed.src_kind == WASTE:
        if not pos.waste:
            return IllegalMove("the waste is empty: turn the stock (s)", "empty_waste")
        return [pos.waste[-1]]
    if parsed.src_kind == HOME:
        home = pos.found[parsed.src]
        if home == 0:
            symbol = SUIT_SYMBOLS[parsed.src]
            return IllegalMove(f"the {symbol} foundation is empty", "empty_foundation", suit=symbol)
        return [parsed.src * 13 + home - 1]
    pile = pos.piles[parsed.src]
    if not pile:
        return IllegalMove(f"pile {parsed.src + 1} is empty", "empty_pile", pile=parsed.src + 1)
    return pile[run_start(pile, pos.down[parsed.src]) :]


def _not_home(pos: Position, card: int) -> IllegalMove:
    suit = suit_of(card)
    needed = pos.needs(suit)
    label, symbol = card_label(card), SUIT_SYMBOLS[suit]
    if needed is None:  # cannot happen with one deck; said plainly all the same
        return IllegalMove(f"the {symbol} foundation is complete", "foundation_complete", suit=symbol)
    wanted = card_label(suit * 13 + needed - 1)
    return IllegalMove(
        f"{label} cannot go home: the {symbol} foundation takes {wanted} next",
        "not_home",
        card=label,
        needs=wanted,
    )


def _not_onto(pos: Position, parsed: ParsedMove, cards: list[int]) -> IllegalMove:
    target = pos.top(parsed.dst)
    if target is None:
        return _not_to_empty(pos, parsed, cards)
    what = " ".join(card_label(c) for c in cards)
    wanted = _wanted(target)
    if parsed.src_kind == PILE:
        covered = _covered(pos, parsed.src, target)
        if covered is not None:
            return covered
        return IllegalMove(
            f"no card of pile {parsed.src + 1}'s top run ({what}) fits on {card_label(target)} "
            f"(pile {parsed.dst + 1}): it takes {wanted}",
            "no_fit",
            src=parsed.src + 1,
            dst=parsed.dst + 1,
            target=card_label(target),
        )
    return IllegalMove(
        f"{what} does not fit on {card_label(target)} (pile {parsed.dst + 1}): it takes {wanted}",
        "no_fit",
        card=what,
        dst=parsed.dst + 1,
        target=card_label(target),
    )


def _wanted(target: int) -> str:
    rank = rank_of(target)
    if rank == 1:
        return "nothing (no card goes on an ace)"
    colour = "black" if is_red(target) else "red"
    return f"a {colour} {rank_text(rank - 1, ten='10')}"


def _covered(pos: Position, p: int, target: int) -> IllegalMove | None:
    """A face-up card of pile ``p`` that would fit but lies under a break (after an undo)."""
    pile = pos.piles[p]
    for card in pile[pos.down[p] : run_start(pile, pos.down[p])]:
        if builds_on(card, target):
            label = card_label(card)
            return IllegalMove(
                f"{label} on pile {p + 1} is covered by cards that do not build on it: they move first",
                "covered",
                card=label,
                pile=p + 1,
            )
    return None


def _not_to_empty(pos: Position, parsed: ParsedMove, cards: list[int]) -> IllegalMove:
    kings = [c for c in cards if rank_of(c) == KING]
    if parsed.src_kind == PILE and kings and pos.piles[parsed.src][0] == kings[0]:
        label = card_label(kings[0])
        return IllegalMove(
            f"{label} already lies at the bottom of pile {parsed.src + 1}: "
            "moving it to an empty pile changes nothing",
            "king_at_bottom",
            card=label,
            pile=parsed.src + 1,
        )
    return IllegalMove(
        f"only a king, or a run headed by one, goes to an empty pile (pile {parsed.dst + 1})",
        "not_a_king",
        dst=parsed.dst + 1,
    )
