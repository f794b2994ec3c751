"""Tower's front: a button per pile (press to send its top card home, or pick it up and drop it).

Only what Tower has: the required methods (``bot.games.base.REQUIRED``), its selection's
words and its picture's own words; no daily, no replay, no verdicts, no Activity table,
the shared leaderboard words."""

from __future__ import annotations

import engine
from bot.games.base import Advice, ButtonSpec, GameFront, HintWorker, Press
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from engine.cards import card_label
from tests.thirdgame.game import HOME, TowerGame, TowerMove, solve
from tests.thirdgame.record import TOWER

# The words Tower's board draws (its title and "home"), in every language the bot speaks: a
# game brings its own, here with its front (a deployment could add them to the catalogues).
PICTURE_WORDS = {
    "en": {"tower": "Tower", "home": "home"},
    "bg": {"tower": "Кула", "home": "у дома"},
    "ca": {"tower": "Torre", "home": "casa"},
    "id": {"tower": "Menara", "home": "rumah"},
    "nl": {"tower": "Toren", "home": "thuis"},
    "ru": {"tower": "Башня", "home": "дом"},
}


def tower_hint(code: str, moves: tuple[str, ...], seconds: float) -> Advice:
    """Worker: the winning plan's next move."""
    if TOWER.kind not in engine.GAMES:  # a worker process started afresh (not forked) declares it
        engine.registry.declare(TOWER)
    game = engine.replay(code, moves)
    assert isinstance(game, TowerGame)
    if game.is_won:
        return Advice("won")
    move = solve(game)
    return Advice("move", move) if move else Advice("lost")


class TowerFront(GameFront[TowerGame]):
    record = TOWER
    selections = "123"
    notation_examples = "1h, 12"
    button_names = "1-3"
    has_daily = False
    has_replay = False  # no animation: the finished board has no buttons

    def picture_words(self, language: str) -> dict[str, str]:
        return PICTURE_WORDS.get(language, PICTURE_WORDS["en"])

    def press_place(self, game: TowerGame, sel: str, act: str) -> Press:
        if act not in game.places() or (sel and sel not in game.places()):
            raise UserFeedback("error.unknown_button")
        if not sel:
            if game.is_legal(act + HOME):
                return Press("play", act + HOME)
            if game.top_card(act) is None:
                raise UserFeedback("error.unknown_button")
            return Press("select", act)
        return Press("play", sel + act)

    def place_buttons(self, tr: Translator, game: TowerGame, sel: str) -> list[ButtonSpec]:
        out = []
        for place in game.places():
            card = game.top_card(place)
            label = f"{place} · {card_label(card) if card is not None else '-'}"
            out.append(ButtonSpec(place, label, 0, "primary" if sel == place else "secondary"))
        return out

    def selected_place(self, tr: Translator, sel: str) -> str:
        return f"pile {sel}"

    def describe_move(self, tr: Translator, move: TowerMove) -> str:
        return move.describe()

    def alt_text(self, tr: Translator, game: TowerGame) -> str:
        piles = "; ".join(" ".join(map(card_label, pile)) or "-" for pile in game.position)
        return f"Tower: {game.home} spades home; piles {piles}"

    def claims_notation(self, text: str) -> bool:
        return text.strip()[:1] in ("1", "2", "3") and text.strip()[1:2] in ("h", "1", "2", "3")

    @property
    def hint_worker(self) -> HintWorker:
        return tower_hint
