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

from bot.games.front.controls import Controls
from bot.games.front.table import ActivityTable, Pile, Table
from bot.games.klondike import presses
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from engine import IllegalMove
from engine.cards import SUIT_SYMBOLS, SUITS, card_label, card_text, suit_of
from engine.klondike import UNKNOWN, KlondikeGame, KlondikeState, parse_notation
from engine.klondike.notation import HOME, PILE_DIGITS, STOCK, SUIT_LETTERS, WASTE

FOUNDATIONS = tuple(HOME + s for s in SUIT_LETTERS)  # "hs", "hh", "hd", "hc": ♠ ♥ ♦ ♣
PILE_ROW = 1.3  # the piles' row, in card heights: under the stock's caption
WASTE_SPREAD = 3  # draw three's waste: its top three cards side by side
REDEAL = "↻"  # the empty stock while the waste can be turned back over (the picture's mark)
EMPTY_PILE = "K"  # only a king (or a run headed by one) goes to an empty pile


class KlondikeTable(Controls[KlondikeGame], ActivityTable[KlondikeGame]):
    """The Activity's table of a Klondike front (the front inherits it; its chat press,
    ``Controls.press_place``, and its Home, ``home_move``, serve the page too)."""

    in_activity = True

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

    def _stock(self, tr: Translator, seen: KlondikeState) -> Pile:
        count = len(seen.stock)
        words = f"{tr('picture.stock')} {count}"  # as the picture says it
        label = words if count else (REDEAL if seen.waste else "")
        backs = ("",) if count else ()  # its count is on the label; no card of it is sent
        name = f"{tr('place.klondike.stock')}, {count}"
        return Pile(STOCK, "stock", 0.0, 0.0, backs, tap=True, label=label, name=name)

    def _waste(self, tr: Translator, seen: KlondikeState) -> Pile:
        spread = WASTE_SPREAD if seen.draw > 1 else 0
        cards = tuple(card_text(c) for c in seen.waste)
        label = tr("picture.klondike.waste")
        name = tr("place.klondike.waste")
        return Pile(WASTE, "waste", 1.0, 0.0, cards, drag="top", spread=spread, label=label, name=name)

    def _foundations(self, tr: Translator, seen: KlondikeState) -> list[Pile]:
        out = []
        for suit, home in enumerate(seen.foundations):
            cards = tuple(card_text(suit * 13 + rank) for rank in range(home))  # its top shows
            out.append(
                Pile(
                    FOUNDATIONS[suit],
                    "foundation",
                    3.0 + suit,
                    0.0,
                    cards,
                    drop=HOME,
                    drag="top",
                    label=SUIT_SYMBOLS[suit],
                    name=tr("place.klondike.foundation", suit=SUIT_SYMBOLS[suit]),
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
            name=tr("place.klondike.pile", n=p + 1),
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
        """The chat's press on ``place`` (the stock turns; a card goes home, else to its best
        pile), but where the press would ask which pile, the best one (``presses.one_press``).
        A foundation's card stays home: the engine says it goes back to a pile only."""
        if place in FOUNDATIONS:
            return place + HOME
        if place not in (STOCK, *presses.SOURCES):
            raise UserFeedback("error.unknown_button")
        best = presses.one_press(game, place) if place in presses.SOURCES else None
        return best or self.press_place(game, "", place).value  # none: the press says why


def _not_the_group(game: KlondikeGame, p: int, count: int, target: str) -> IllegalMove:
    """Why the ``count`` face-up cards on top of pile ``p`` were not played where they were
    dropped, when the notation would move another group from there: their first card does not
    go there (one card at most of a run fits a given place). Said with the engine's reasons."""
    pos = game.position
    head = pos.piles[p][-count]
    label = card_label(head)
    if target == HOME:
        if pos.goes_home(head):  # it would go, but the cards on it first
            return IllegalMove(
                f"one card at a time goes home: move the cards on {label} first", "one_home", card=label
            )
        needs = pos.needs(suit_of(head))
        wanted = card_label(suit_of(head) * 13 + (needs or 13) - 1)
        return IllegalMove(
            f"{label} cannot go home: its foundation takes {wanted} next",
            "not_home",
            card=label,
            needs=wanted,
        )
    d = PILE_DIGITS.index(target)
    top = pos.top(d)
    if top is None:
        return IllegalMove(
            f"only a king, or a run headed by one, goes to an empty pile (pile {d + 1})",
            "not_a_king",
            dst=d + 1,
        )
    onto = card_label(top)
    return IllegalMove(
        f"{label} does not fit on {onto} (pile {d + 1})", "no_fit", card=label, dst=d + 1, target=onto
    )
