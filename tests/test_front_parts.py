"""What a new game's front must provide: the six required methods, and nothing else.

``GameFront`` is assembled from parts with defaults (``bot/games/front/``); these tests pin
the required set (the list ``docs/ARCHITECTURE.md`` gives a newcomer), show that a front
writing only those is a working front with every default in place, and that the test game
Tower writes only what it has.
"""

from __future__ import annotations

import datetime as dt

import pytest

import engine
import storage
from bot.games.base import REQUIRED, ButtonSpec, GameFront, HintWorker, Press
from bot.games.front.controls import Controls
from bot.games.front.picture import Picture
from bot.games.front.solving import Solving
from bot.games.front.words import Words
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from engine import codes
from tests.thirdgame.front import TowerFront, tower_hint
from tests.thirdgame.game import TowerGame, TowerMove
from tests.thirdgame.record import TOWER

# Spelled out here as in docs/ARCHITECTURE.md ("What a new game must provide").
MUST_PROVIDE = {"place_buttons", "press_place", "claims_notation", "describe_move", "alt_text", "hint_worker"}
IDENTITY = {
    "kind",
    "letter",
    "command",
    "name",
    "short_name",
    "record",
    "cell_choices",
    "option_name",
}  # from the record


class MinimalFront(GameFront[TowerGame]):
    """Tower's front as a newcomer's first draft: only the required methods."""

    record = TOWER

    def place_buttons(self, tr: Translator, game: TowerGame, sel: str) -> list[ButtonSpec]:
        return [ButtonSpec(place, place, 0) for place in game.places()]

    def press_place(self, game: TowerGame, sel: str, act: str) -> Press:
        return Press("play", act + "h")

    def claims_notation(self, text: str) -> bool:
        return text[:1] in "123"

    def describe_move(self, tr: Translator, move: TowerMove) -> str:
        return move.describe()

    def alt_text(self, tr: Translator, game: TowerGame) -> str:
        return "Tower"

    @property
    def hint_worker(self) -> HintWorker:
        return tower_hint


@pytest.fixture
def tower_engine():
    engine.register(TowerGame)
    yield
    engine.GAMES.pop("tower", None)
    for table in (codes.SPECS, codes.KIND_PREFIXES, codes.VERSIONS):
        table.pop("tower", None)
    codes.GAME_PREFIXES.pop("TW", None)


def test_a_front_must_provide_exactly_the_listed_methods():
    assert GameFront.__abstractmethods__ == MUST_PROVIDE == REQUIRED
    by_part = {part: set(part.__abstractmethods__) for part in (Controls, Words, Picture, Solving)}
    assert by_part == {
        Controls: {"place_buttons", "press_place", "claims_notation"},
        Words: {"describe_move"},
        Picture: {"alt_text"},
        Solving: {"hint_worker"},
    }
    for missing in sorted(MUST_PROVIDE):  # each one is needed: a front without it is refused
        lacking = type("Lacking", (GameFront,), {k: v for k, v in vars(MinimalFront).items() if k != missing})
        with pytest.raises(TypeError, match=missing):
            lacking()
    MinimalFront()  # with all six it is a front


def test_a_front_with_only_the_required_methods_has_every_default(tower_engine):
    front, tr = MinimalFront(), Translator("en")
    game = engine.new_game("TW1-AAAAAAF")
    acts = [b.act for b in front.buttons(tr, game, "")]
    assert acts == ["1", "2", "3", "u", "i", "x"]  # its places, then Undo, Hint, Clear
    assert front.press(game, "", "u") == Press("undo") and front.press(game, "", "2") == Press("play", "2h")
    assert front.highlight("2") == "2" and front.selected_place(tr, "2") == "2"
    assert front.move_menu(tr, game) == [] and front.describe_action(tr, ()) == ""
    assert front.check_cells(None) is None and front.variant(None) == "" and front.settings == ()
    daily = front.daily_code(7)
    assert daily == front.daily_code(7) and daily.kind == "tower" and daily != front.daily_code(8)
    assert front.table(tr, game) is None and not front.in_activity
    with pytest.raises(UserFeedback):
        front.drop(game, "1", "2", 1)
    assert front.verdict_worker is None and front.winnable_finder is None and front.mark(game) is None
    assert front.hint_worker_for(game) is tower_hint and front.shipped_deals(4) == ()
    assert front.text_board(tr, game) == game.board_text().rstrip()
    assert front.share_squares(tr, game) == "" and front.ranking_rule(tr) is None


def finished(won: bool, moves: int) -> storage.FinishedGame:
    when = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)
    status = "won" if won else "lost"
    return storage.FinishedGame(
        1, "tower", "TW1-AAAAAAF", "", 7, None, None, status, 5, moves, when, None, False
    )


@pytest.mark.parametrize(("won", "words", "best"), [
    (True, ["won in 21 moves"], "Best: won in 21 moves"),
    (False, ["not won", "21 moves"], "Best: not won, 21 moves"),
])  # fmt: skip
def test_the_default_results_are_a_win_and_its_moves(won, words, best):
    front, tr = MinimalFront(), Translator("en")
    assert front.result_words(tr, finished(won, 21)) == words
    assert front.best_line(tr, finished(won, 21)) == best
    assert Translator("nl")("stats.best", result="x") == "Beste: x"


def test_tower_writes_only_what_tower_has():
    own = {name for name in vars(TowerFront) if not name.startswith("_")}
    has = {"selections", "notation_examples", "button_names", "has_daily", "has_replay"}
    assert own - IDENTITY - REQUIRED == has | {"picture_words", "selected_place"}
    assert own >= REQUIRED
