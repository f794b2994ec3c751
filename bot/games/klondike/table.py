"""Klondike's table for the Activity's page (``ActivityTable``): the stock, the waste and the four
foundations on the first row, the seven piles below, and the notation of what the page proposes.

The table is built from the player's view only (``KlondikeGame.seen_state``): a face-down pile
card and the stock reach the page as backs (``""``), never as a card, so neither the page nor
anyone reading its traffic learns a hidden card. Places are the notation's: ``s`` the stock (a
tap turns it), ``w`` the waste (its top card is picked up; draw three shows its top three side
by side), ``hs`` ``hh`` ``hd`` ``hc`` the foundations (each takes a drop as ``h``; its top card
may be dragged back to a pile: ``hs3``), ``1``-``7`` the piles (any face-up card is picked up
with the cards on it: ``35``).

A dropped group is played only if it is the group the notation moves: ``35`` moves the one part
of pile 3's top run that fits on pile 5, so a drop of more or fewer cards than that is refused
in the engine's words rather than played as another move. A double tap sends a card home, else
to its best pile (``double_tap``); Home sends every card that can go home, or Finish wins.
"""

from __future__ import annotations

from typing import ClassVar

from bot.games.front.table import ActivityTable, Pile, Table
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from engine import IllegalMove
from engine.cards import SUIT_SYMBOLS, SUITS, card_label, card_text, suit_of
from engine.game import BATCH
from engine.klondike import UNKNOWN, KlondikeGame, KlondikeMove, KlondikeState, parse_notation
from engine.klondike.notation import HOME, PILE, PILE_DIGITS, STOCK, SUIT_LETTERS, WASTE
from renderer.games.klondike import HOMES, STOCK as STOCK_WORD, WASTE as WASTE_WORD

FOUNDATIONS = tuple(HOME + s for s in SUIT_LETTERS)  # "hs", "hh", "hd", "hc": ♠ ♥ ♦ ♣
PILE_ROW = 1.3  # the piles' row, in card heights: under the stock's caption
WASTE_SPREAD = 3  # draw three's waste: its top three cards side by side
REDEAL = "↻"  # the empty stock while the waste can be turned back over (the picture's mark)
EMPTY_PILE = "K"  # only a king (or a run headed by one) goes to an empty pile


class KlondikeTable(ActivityTable[KlondikeGame]):
    """The Activity's table of a Klondike front (the front inherits it)."""

    in_activity = True
    picture_keys: ClassVar[dict[str, str]]  # the front's words of the picture (``Words``)

    def table(self, tr: Translator, game: KlondikeGame) -> Table:
        """What the player sees, as piles: built from ``seen_state`` alone."""
        seen = game.seen_state()
        piles = [
            self._stock(tr, seen),
            self._waste(tr, seen),
            *self._foundations(tr, seen),
            *(self._pile(tr, seen, p) for p in range(len(seen.piles))),
        ]
        run = game.home_run()
        if game.home_finishes(run):
            home = tr("button.finish")
        else:
            home = tr("button.home_run", n=len(run)) if run else tr("button.home")
        return Table(tuple(piles), width=7.0, height=PILE_ROW + 1.0, home=home, home_ready=bool(run))

    def _word(self, tr: Translator, picture_word: str, fallback: str) -> str:
        """A place's word as the picture draws it (the front's ``picture_keys``)."""
        keys = getattr(self, "picture_keys", {})
        return tr(keys.get(picture_word, fallback))

    def _stock(self, tr: Translator, seen: KlondikeState) -> Pile:
        count = len(seen.stock)
        words = f"{self._word(tr, STOCK_WORD, 'picture.stock')} {count}"
        label = words if count else (REDEAL if seen.waste else "")
        backs = ("",) if count else ()  # its count is on the label; no card of it is sent
        return Pile(STOCK, "stock", 0.0, 0.0, backs, tap=True, label=label, name=words)

    def _waste(self, tr: Translator, seen: KlondikeState) -> Pile:
        spread = WASTE_SPREAD if seen.draw > 1 else 0
        words = self._word(tr, WASTE_WORD, "picture.turned")
        cards = tuple(card_text(c) for c in seen.waste)
        return Pile(WASTE, "waste", 1.0, 0.0, cards, drag="top", spread=spread, name=words)

    def _foundations(self, tr: Translator, seen: KlondikeState) -> list[Pile]:
        words = self._word(tr, HOMES, "picture.foundations")
        out = []
        for suit, home in enumerate(seen.foundations):
            top = (card_text(suit * 13 + home - 1),) if home else ()
            out.append(
                Pile(
                    FOUNDATIONS[suit],
                    "foundation",
                    3.0 + suit,
                    0.0,
                    top,
                    drop=HOME,
                    drag="top",
                    label=SUIT_SYMBOLS[suit],
                    name=f"{words} {SUIT_SYMBOLS[suit]}",
                    suit=SUITS[suit],
                )
            )
        return out

    def _pile(self, tr: Translator, seen: KlondikeState, p: int) -> Pile:
        cards = tuple("" if c == UNKNOWN else card_text(c) for c in seen.piles[p])
        return Pile(
            PILE_DIGITS[p],
            "column",
            float(p),
            PILE_ROW,
            cards,
            fan=True,
            drop=PILE_DIGITS[p],
            drag="run",
            label=EMPTY_PILE,
            name=tr("place.column", n=p + 1),
        )

    # -- what the page proposes ----------------------------------------------------------------
    def drop(self, game: KlondikeGame, source: str, target: str, count: int) -> str:
        """``w3`` ``wh`` ``3h`` ``35`` ``hs3``: the engine judges it. A pile's drop is checked to
        move the very cards dropped (``35`` names no count); another group is refused."""
        to_pile = target in PILE_DIGITS and target != source
        if source == WASTE or source in FOUNDATIONS:
            if count != 1 or not (to_pile or (source == WASTE and target == HOME)):
                raise UserFeedback("error.unknown_button")
            return source + target
        if source not in PILE_DIGITS or not (to_pile or target == HOME):
            raise UserFeedback("error.unknown_button")
        p = PILE_DIGITS.index(source)
        pos = game.position
        if not 1 <= count <= len(pos.piles[p]) - pos.down[p]:  # face-up cards only
            raise UserFeedback("error.unknown_button")
        notation = source + target
        move = pos.find(parse_notation(notation))
        carried = None if move is None else len(move.cards)
        if (target == HOME and count > 1) or carried not in (None, count):
            raise _not_the_group(game, p, count, target)
        return notation

    def double_tap(self, game: KlondikeGame, place: str) -> str:
        """The stock turns; a card goes home, else to its best pile (``best_move``); a card with
        nowhere to go is sent home, for the engine to say why it cannot go."""
        if place == STOCK:
            return STOCK
        if place in FOUNDATIONS:
            return place + HOME  # the engine's word: a foundation's card goes back to a pile
        if place != WASTE and place not in PILE_DIGITS:
            raise UserFeedback("error.unknown_button")
        move = best_move(game, place)
        return place + HOME if move is None else move.notation

    def home_move(self, game: KlondikeGame) -> str:
        run = game.home_run()
        if not run:
            raise UserFeedback("error.nothing_home")
        return BATCH.join(run)


def best_move(game: KlondikeGame, place: str) -> KlondikeMove | None:
    """What one press on the waste or a pile plays: its card home, else the move to a pile that
    turns a card up, then onto a card rather than into an empty pile, then the longest part of
    the run, then the leftmost pile. None when it has no move."""
    kind, index = (WASTE, 0) if place == WASTE else (PILE, PILE_DIGITS.index(place))
    moves = list(game.position.moves((kind, index)))
    home = [m for m in moves if m.dst_kind == HOME]
    if home:
        return home[0]
    onto = [m for m in moves if m.dst_kind == PILE]
    if not onto:
        return None
    piles = game.position.piles
    return min(onto, key=lambda m: (not m.turns_up, not piles[m.dst], -len(m.cards), m.dst))


def _not_the_group(game: KlondikeGame, p: int, count: int, target: str) -> IllegalMove:
    """Why the ``count`` face-up cards on top of pile ``p`` were not played where they were
    dropped, when the notation would move another group from there: their first card does not
    go there (one card at most of a run fits a given place). Said with the engine's reasons."""
    pos = game.position
    head = pos.piles[p][-count]
    label = card_label(head)
    if target == HOME:
        if pos.goes_home(head):  # it would go, but the cards on it move first
            return IllegalMove(f"{label} on pile {p + 1} is covered: its cards move first", "covered", card=label, pile=p + 1)
        needs = pos.needs(suit_of(head))
        wanted = card_label(suit_of(head) * 13 + (needs or 13) - 1)
        return IllegalMove(f"{label} cannot go home: its foundation takes {wanted} next", "not_home", card=label, needs=wanted)
    d = PILE_DIGITS.index(target)
    top = pos.top(d)
    if top is None:
        return IllegalMove(f"only a king, or a run headed by one, goes to an empty pile (pile {d + 1})", "not_a_king", dst=d + 1)
    onto = card_label(top)
    return IllegalMove(f"{label} does not fit on {onto} (pile {d + 1})", "no_fit", card=label, dst=d + 1, target=onto)
