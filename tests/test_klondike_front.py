"""Klondike's front without Discord: what one press plays, when a press selects, the stock
button, Home and Finish, refusals, the menu and the words (``bot.games.klondike``)."""

from __future__ import annotations

import pytest

import engine
from bot.games import front_for
from bot.games.base import Press
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from tests.klondike_boards import game_at
from tests.test_klondike_finish import near_won

EN = Translator("en")
FRONT = front_for("klondike")


def labels(game, sel=""):
    return {b.act: b.label for b in FRONT.buttons(EN, game, sel)}


def test_a_card_goes_home_before_it_goes_onto_a_pile():
    game = game_at(["8S", "9H", "AH"], found=(0, 0, 13, 13))
    assert FRONT.press(game, "", "3") == Press("play", "3h")
    assert FRONT.press(game, "", "1") == Press("play", "12")  # 8♠ on 9♥: its only pile


def test_a_run_with_two_places_to_go_is_selected_then_sent_where_the_next_press_says():
    # 7♥ fits on 8♠ (pile 2) and on 8♣ (pile 3): the press selects, the next names the pile.
    game = game_at(["7H", "8S", "8C"], found=(0, 0, 13, 0))
    assert FRONT.press(game, "", "1") == Press("select", "1")
    assert FRONT.press(game, "1", "3") == Press("play", "13")
    assert FRONT.press(game, "1", "1") == Press("play", "12")  # the same again: its best pile
    assert "Selected: pile 1" in EN(FRONT.key("board.selected"), place=FRONT.selected_place(EN, "1"))
    with pytest.raises(UserFeedback) as refused:
        FRONT.press(game, "1", "w")
    assert refused.value.key == "error.klondike.to_waste"


def test_the_best_pile_is_the_one_that_turns_a_card_up():
    # Pile 1's 8♠ 7♥ over a face-down card: the whole run on 9♥ turns it up, 7♥ alone on 8♣ not.
    game = game_at(["2D 8S 7H", "9H", "8C"], down=[1, 0, 0, 0, 0, 0, 0], found=(0, 0, 1, 0))
    assert FRONT.press(game, "", "1") == Press("select", "1")
    assert FRONT.press(game, "1", "1") == Press("play", "12")


def test_the_stock_button_turns_and_then_turns_the_waste_over():
    game = game_at(["KS"], stock="KH", found=(12, 12, 13, 13))
    assert labels(game)["s"] == "Stock · 1" and FRONT.press(game, "", "s") == Press("play", "s")
    game.play("s")
    assert labels(game)["s"] == "↻ Turn over" and labels(game)["w"] == "Waste · K♥"


def test_home_and_finish():
    game = near_won()
    assert labels(game)["h"] == "Finish"
    assert FRONT.press(game, "", "h").value == ",".join(game.home_run())
    stuck = game_at(["KS QH", "KH QS"], found=(10, 10, 13, 13))
    assert labels(stuck)["h"] == "Home"
    with pytest.raises(UserFeedback) as refused:
        FRONT.press(stuck, "", "h")
    assert refused.value.key == "error.nothing_home"


def test_an_empty_or_stuck_place_is_refused_in_words():
    game = game_at(["KS QH", "", "KH QS"], found=(10, 10, 13, 13))
    for place, key in [("2", "error.klondike.empty_pile"), ("1", "error.klondike.pile_stuck")]:
        with pytest.raises(UserFeedback) as refused:
            FRONT.press(game, "", place)
        assert refused.value.key == key
    with pytest.raises(UserFeedback) as refused:
        FRONT.press(game, "", "w")
    assert refused.value.key == "error.klondike.empty_waste"
    with pytest.raises(UserFeedback):
        FRONT.press(game, "", "9")  # a forged button


def test_the_menu_lists_what_no_press_plays_and_a_stock_turn_names_no_card():
    game = game_at(["7H", "8S", "8C"], stock="2D 3D", found=(0, 0, 1, 0))
    menu = dict(FRONT.move_menu(EN, game))
    assert menu == {"13": "7♥ from pile 1 to pile 3"}  # "12" is the selection's best, pressed twice
    assert "s" not in menu  # the stock button turns it
    words = dict(FRONT.ranked_moves(EN, game))
    assert words["s"] == "turn 1 card from the stock" and "2♦" not in " ".join(words.values())


@pytest.mark.parametrize("draw", [1, 3])
def test_the_shipped_deals_are_won_by_the_solver(draw):
    """A new bot deals Klondike at once from its shipped stock: 40 deals a draw, each one the
    thoughtful solver wins (three of them searched again here: the next two took 1 s of CPU each)."""
    from bot.games.klondike.deals import STOCK_NODES, proven, shipped

    deals = front_for("klondike").shipped_deals(draw)
    assert deals == shipped(draw) and len(set(deals)) == 40
    for deal in deals[:3]:
        assert proven(engine.make_code("klondike", deal, draw), STOCK_NODES)
