"""Klondike's moves, places and board in the player's words, from what the player sees only:
a turn of the stock never names the cards it will show, a face-down card is counted, never
named (``KlondikeGame.seen_state``)."""

from __future__ import annotations

from bot.languages.i18n import Translator
from engine.cards import SUIT_SYMBOLS, card_label
from engine.klondike import KlondikeGame, KlondikeMove
from engine.klondike.notation import HOME, PILE, STOCK, WASTE


def place_words(tr: Translator, kind: str, index: int) -> str:
    """A pile, the waste, the stock or a foundation (``index``: its suit) in the player's words."""
    if kind == PILE:
        return tr("place.klondike.pile", n=index + 1)
    if kind == WASTE:
        return tr("place.klondike.waste")
    if kind == STOCK:
        return tr("place.klondike.stock")
    return tr("place.klondike.foundation", suit=SUIT_SYMBOLS[index])


def selected_words(tr: Translator, sel: str) -> str:
    """A selection (``"w"`` or a pile's digit) in words."""
    return place_words(tr, WASTE, 0) if sel == WASTE else place_words(tr, PILE, int(sel) - 1)


def describe_move(tr: Translator, move: KlondikeMove) -> str:
    """``7♥ from pile 3 to pile 5, turning up a card``; a turn of the stock says how many cards,
    never which (they are not seen before it is played)."""
    if move.src_kind == STOCK:
        return tr.n("move.klondike.turn", len(move.cards))
    if move.is_recycle:
        return tr("move.klondike.turn_over")
    top = card_label(move.cards[-1])
    what = (
        tr.n("move.group", len(move.cards), low=card_label(move.cards[0]), high=top)
        if len(move.cards) > 1
        else top
    )
    src = place_words(tr, move.src_kind, move.src)
    if move.dst_kind == HOME:
        text = tr("move.home", what=what, src=src)
    else:
        text = tr("move.to", what=what, src=src, dst=place_words(tr, move.dst_kind, move.dst))
    return tr("move.klondike.turning_up", move=text) if move.turns_up else text


def _pile_words(tr: Translator, cards: tuple[int, ...], down: int) -> str:
    faces = " ".join(card_label(c) for c in cards[down:])
    if not cards:
        return tr("alt.empty")
    return tr.n("alt.klondike.face_down", down, cards=faces) if down else faces


def alt_text(tr: Translator, game: KlondikeGame) -> str:
    """The picture for screen readers: the stock's count, the waste's cards on show, the
    foundations and each pile (its face-down cards counted, its face-up ones named)."""
    seen = game.seen_state()
    empty = tr("alt.empty")
    shown = seen.waste[-3:] if seen.draw == 3 else seen.waste[-1:]
    found = ", ".join(
        f"{SUIT_SYMBOLS[s]} {card_label(s * 13 + n - 1) if n else empty}"
        for s, n in enumerate(seen.foundations)
    )
    piles = "; ".join(
        f"{i + 1}: {_pile_words(tr, pile, down)}"
        for i, (pile, down) in enumerate(zip(seen.piles, seen.face_down, strict=True))
    )
    return tr(
        "alt.klondike",
        draw=seen.draw,
        score=game.score,
        moves=game.move_count,
        stock=len(seen.stock),
        waste=" ".join(map(card_label, shown)) or empty,
        found=found,
        piles=piles,
    )
