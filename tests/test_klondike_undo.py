"""Klondike's undo: 100 actions as in the other games, but a card once turned up stays face up."""

from __future__ import annotations

import random

import pytest

import engine
from engine.klondike import UNKNOWN, KlondikeGame
from tests.klondike_boards import cards, game_at


def uncovering() -> KlondikeGame:
    """Pile 1: 5♣ face down under T♦ 9♠ 8♥; pile 2: J♣; pile 3: 6♥."""
    return game_at(["5C TD 9S 8H", "JC", "6H"], down=[1, 0, 0, 0, 0, 0, 0])


def test_undo_puts_the_run_back_on_the_card_it_turned_up_which_stays_face_up():
    game = uncovering()
    game.play("12")
    game.undo()
    assert game.position.piles[0] == list(cards("5C TD 9S 8H"))
    assert game.position.down[0] == 0
    assert "1: 5C TD 9S 8H" in game.seen_text() and "##" not in game.seen_text()
    assert game.seen_state().piles[0] == cards("5C TD 9S 8H")


def test_the_run_moves_again_without_turning_anything_up():
    game = uncovering()
    game.play("12")
    game.undo()
    again = game.play("12")
    assert again.cards == cards("TD 9S 8H") and not again.turns_up
    assert game.position.piles[0] == list(cards("5C"))


def test_a_card_under_a_break_waits_for_the_run_above_it():
    game = uncovering()
    game.play("12")
    game.undo()
    error = _refused(game, "13")
    assert (error.reason, str(error)) == (
        "covered",
        "5♣ on pile 1 is covered by cards that do not build on it: they move first",
    )
    assert "13" not in game.legal_moves()
    game.play("12")
    assert game.play("13").cards == cards("5C")


def test_undoing_a_card_sent_home_leaves_the_card_it_uncovered_face_up():
    game = game_at(["9D AS"], down=[1, 0, 0, 0, 0, 0, 0], found=(0, 8, 8, 13))
    game.play("1h")
    game.undo()
    assert game.position.piles[0] == list(cards("9D AS")) and game.position.down[0] == 0


def test_undoing_a_turn_of_the_stock_puts_the_cards_back_seen():
    game = engine.new_game("KL1-D3-AAAAA24")
    assert isinstance(game, KlondikeGame)
    first = game.state().stock[:3]
    assert game.seen_state().stock[:3] == (UNKNOWN,) * 3
    game.play("s")
    game.undo()
    assert game.position.waste == [] and game.state().stock[:3] == first
    assert game.seen_state().stock[:3] == first and game.seen_state().stock[3] == UNKNOWN
    assert set(first).isdisjoint(game.seen_state().unseen)


def test_undoing_a_turn_of_the_waste_gives_the_stock_back_to_the_waste():
    game = game_at([], stock="KS KH", found=(12, 12, 13, 13))
    for _ in range(3):
        game.play("s")
    assert game.position.recycles == 1
    game.undo()
    assert game.position.recycles == 0 and game.position.stock == []
    assert game.position.waste == list(cards("KS KH"))


def test_undo_reaches_back_100_actions_only():
    game = game_at([], stock="KS KH", found=(12, 12, 13, 13), draw=3)
    for _ in range(101):
        game.play("s")
    for _ in range(100):
        game.undo()
    with pytest.raises(engine.IllegalMove) as info:
        game.undo()
    assert info.value.reason == "nothing_to_undo"


def test_a_batch_that_fails_hides_again_what_it_turned_up():
    game = uncovering()
    before = (game.board_text(), game.seen_state(), game.score)
    with pytest.raises(engine.IllegalMove):
        game.play("12,s,17")
    assert (game.board_text(), game.seen_state(), game.score) == before
    assert game.position.down[0] == 1 and game.moves == ()


def test_a_log_with_undos_replays_to_the_same_board_and_score():
    game = engine.new_game("KL1-D1-AAAAAAC")
    for text in ["s", "s", "undo", "s", "s", "s", "undo", "undo", "s"]:
        game.play(text)
    for text in game.legal_moves()[:3]:
        game.play(text)
        game.undo()
    replayed = engine.replay(game.code, game.moves)
    assert replayed.board_text() == game.board_text()
    assert (replayed.score, replayed.seen_state()) == (game.score, game.seen_state())


def _refused(game: KlondikeGame, text: str) -> engine.IllegalMove:
    with pytest.raises(engine.IllegalMove) as info:
        game.play(text)
    return info.value


@pytest.mark.parametrize(("code", "seed"), [("KL1-D1-AAAAAAE", 4), ("KL1-D3-AAAAAAF", 5)])
def test_through_random_play_and_undo_nothing_seen_is_ever_hidden_again(code, seed):
    rng = random.Random(seed)
    game = engine.new_game(code)
    assert isinstance(game, KlondikeGame)
    known = {c for c in game.seen_state().piles[0] if c != UNKNOWN}
    for _ in range(300):
        listed = game.legal_moves()
        if not listed or game.is_over:
            break
        game.play("undo" if game.undo_depth and rng.random() < 0.3 else rng.choice(listed))
        seen = game.seen_state()
        now = {c for c in range(52) if c not in seen.unseen}
        assert known <= now
        known = now
    assert len(known) > 30


def test_moves_say_what_they_do():
    game = uncovering()
    assert game.describe("12") == "10♦…8♥ (3 cards) from pile 1 to pile 2, turning up a card"
    assert game.describe("s") == "turn a card from the stock"  # not which: it is face down
    assert engine.new_game("KL1-D3-AAAAA24").describe("s") == "turn 3 cards from the stock"
