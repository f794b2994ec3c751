"""Climb's front: two buttons, the stock (turn a card, or the waste over) and the waste (its
top card onto the pile).

Only what Climb has: the required methods (``bot.games.base.REQUIRED``), its words (its name,
its board's captions, its moves, from ``tests.fourthgame.words``) and no selection; no daily,
no replay, no verdicts, no Activity table, the shared results' words.
"""

from __future__ import annotations

import engine
from bot.games.base import Advice, ButtonSpec, GameFront, HintWorker, Press
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from engine.cards import card_label, make_card
from tests.fourthgame import words
from tests.fourthgame.game import HOME, SUIT, TURN, ClimbGame, ClimbMove, next_move
from tests.fourthgame.record import CLIMB

STOCK, WASTE = "s", "w"  # the buttons' acts in custom ids


def climb_hint(code: str, moves: tuple[str, ...], seconds: float) -> Advice:
    """Worker: the forced plan's next move."""
    if CLIMB.kind not in engine.GAMES:  # a worker process started afresh (not forked) declares it
        engine.registry.declare(CLIMB)
    game = engine.replay(code, moves)
    assert isinstance(game, ClimbGame)
    if game.is_won:
        return Advice("won")
    move = next_move(game)
    return Advice("move", move) if move else Advice("lost")


class ClimbFront(GameFront[ClimbGame]):
    record = CLIMB
    notation_examples = "t, h"
    button_names = "s, w"
    uses_selection = False
    has_daily = False
    has_replay = False

    def title_in(self, language: str) -> str:
        return words.words(language)["climb"]

    def picture_words(self, language: str) -> dict[str, str]:
        return words.picture_words(language)

    def press_place(self, game: ClimbGame, sel: str, act: str) -> Press:
        if act == STOCK:
            return Press("play", TURN)
        if act == WASTE:
            return Press("play", HOME)
        raise UserFeedback("error.unknown_button")

    def place_buttons(self, tr: Translator, game: ClimbGame, sel: str) -> list[ButtonSpec]:
        own, top = words.words(tr.locale), game.waste_top()
        can_turn = bool(game.stock) or game.can_redeal()
        left = str(len(game.stock)) if game.stock or not can_turn else "↻"
        shown = card_label(top) if top is not None else "-"
        return [
            ButtonSpec(STOCK, f"{own['climb.stock']} · {left}", 0, disabled=not can_turn),
            ButtonSpec(WASTE, f"{own['climb.waste']} · {shown}", 0, "primary", disabled=top is None),
        ]

    def describe_move(self, tr: Translator, move: ClimbMove) -> str:
        return words.describe(tr.locale, move)

    def alt_text(self, tr: Translator, game: ClimbGame) -> str:
        """Its picture in the player's words: the stock's count, the waste's cards, the pile's top."""
        own = words.words(tr.locale)
        waste = " ".join(map(card_label, game.waste)) or "-"
        pile = card_label(make_card(SUIT, game.home)) if game.home else "-"
        stock, waste_word, pile_word = (own[k] for k in ("climb.stock", "climb.waste", "climb.pile"))
        return f"{own['climb']}: {stock} {len(game.stock)}; {waste_word} {waste}; {pile_word} {pile}"

    def claims_notation(self, text: str) -> bool:
        return text.strip().lower() in (TURN, HOME)

    @property
    def hint_worker(self) -> HintWorker:
        return climb_hint
