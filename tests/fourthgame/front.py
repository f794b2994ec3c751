"""Ladder's front: two buttons, the stock (turn a card, or the waste over) and the waste (its
top card onto the ladder).

Only what Ladder has: the required methods (``bot.games.base.REQUIRED``), its words (its name,
its board's captions, its moves, from ``tests.fourthgame.words``) and no selection; no daily,
no replay, no verdicts, no Activity table, the shared results' words.
"""

from __future__ import annotations

import engine
from bot.games.base import Advice, ButtonSpec, GameFront, HintWorker, Press
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from engine.cards import card_label
from tests.fourthgame import words
from tests.fourthgame.game import HOME, TURN, LadderGame, LadderMove, next_move

STOCK, WASTE = "s", "w"  # the buttons' acts in custom ids


def ladder_hint(code: str, moves: tuple[str, ...], seconds: float) -> Advice:
    """Worker: the forced plan's next move."""
    if LadderGame.kind not in engine.GAMES:  # a worker process started afresh (not forked)
        engine.register(LadderGame)
    game = engine.replay(code, moves)
    assert isinstance(game, LadderGame)
    if game.is_won:
        return Advice("won")
    move = next_move(game)
    return Advice("move", move) if move else Advice("lost")


class LadderFront(GameFront[LadderGame]):
    kind = "ladder"
    letter = "l"
    command = "ladder"
    name = "Ladder"
    short_name = "Ladder"
    commands_module = "tests.fourthgame.commands"
    notation_examples = "t, h"
    button_names = "s, w"
    uses_selection = False
    has_daily = False
    has_replay = False

    def title_in(self, language: str) -> str:
        return words.words(language)["ladder"]

    def picture_words(self, language: str) -> dict[str, str]:
        return words.picture_words(language)

    def press_place(self, game: LadderGame, sel: str, act: str) -> Press:
        if act == STOCK:
            return Press("play", TURN)
        if act == WASTE:
            return Press("play", HOME)
        raise UserFeedback("error.unknown_button")

    def place_buttons(self, tr: Translator, game: LadderGame, sel: str) -> list[ButtonSpec]:
        own, top = words.words(tr.locale), game.waste_top()
        left = str(len(game.stock)) if game.stock or not game.can_redeal() else "↻"
        return [
            ButtonSpec(STOCK, f"{own['ladder.stock']} · {left}", 0, disabled=not game.stock and not game.can_redeal()),
            ButtonSpec(WASTE, f"{own['ladder.waste']} · {card_label(top) if top is not None else '-'}", 0,
                       "primary", disabled=top is None),
        ]  # fmt: skip

    def describe_move(self, tr: Translator, move: LadderMove) -> str:
        return words.describe(tr.locale, move)

    def alt_text(self, tr: Translator, game: LadderGame) -> str:
        waste = " ".join(map(card_label, game.waste)) or "-"
        return f"{self.title_in(tr.locale)}: {len(game.stock)} in the stock; waste {waste}; {game.home} up"

    def claims_notation(self, text: str) -> bool:
        return text.strip().lower() in (TURN, HOME)

    @property
    def hint_worker(self) -> HintWorker:
        return ladder_hint
