"""Klondike's rules, move by move, and the refusals' words (``IllegalMove`` like the other games)."""

from __future__ import annotations

import random

import pytest

import engine
from engine.klondike import KlondikeGame
from tests.klondike_boards import cards, game_at

# Every notation a Klondike move can have.
ALL_NOTATIONS = (
    ["s", "wh"]
    + [f"w{d}" for d in range(1, 8)]
    + [f"{p}h" for p in range(1, 8)]
    + [f"{p}{d}" for p in range(1, 8) for d in range(1, 8) if p != d]
    + [f"h{s}{d}" for s in "shdc" for d in range(1, 8)]
)


def refused(game: KlondikeGame, notation: str) -> engine.IllegalMove:
    before = (game.board_text(), game.moves, game.score)
    with pytest.raises(engine.IllegalMove) as info:
        game.play(notation)
    assert (game.board_text(), game.moves, game.score) == before
    return info.value


def test_a_run_in_alternating_colours_moves_as_a_unit_and_uncovers_a_card():
    game = game_at(["KS QH", "5C TD 9S 8H", "JC"], down=[0, 1, 0, 0, 0, 0, 0])
    move = game.play("23")
    assert move.cards == cards("TD 9S 8H") and move.turns_up
    assert game.position.piles[2] == list(cards("JC TD 9S 8H"))
    assert game.position.piles[1] == list(cards("5C")) and game.position.down[1] == 0


def test_only_the_part_of_the_run_that_fits_moves():
    game = game_at(["9C", "5C TD 9S 8H"], down=[0, 1, 0, 0, 0, 0, 0])
    move = game.play("21")
    assert move.cards == cards("8H") and not move.turns_up
    assert game.position.piles[1] == list(cards("5C TD 9S"))


def test_a_card_on_the_same_colour_or_the_wrong_rank_is_refused():
    game = game_at(["7S", "QH", "KS 9D 8C"], waste="6C", down=[0, 0, 1, 0, 0, 0, 0])
    error = refused(game, "w1")
    assert (error.reason, str(error)) == ("no_fit", "6♣ does not fit on 7♠ (pile 1): it takes a red 6")
    error = refused(game, "32")
    assert error.reason == "no_fit"
    assert str(error) == "no card of pile 3's top run (9♦ 8♣) fits on Q♥ (pile 2): it takes a black J"


def test_only_a_king_or_a_run_headed_by_one_goes_to_an_empty_pile():
    game = game_at(["", "4D KS QH", "QD", "KC"], waste="KH", down=[0, 1, 0, 0, 0, 0, 0])
    error = refused(game, "31")
    assert (error.reason, str(error)) == (
        "not_a_king",
        "only a king, or a run headed by one, goes to an empty pile (pile 1)",
    )
    error = refused(game, "41")
    assert (error.reason, str(error)) == (
        "king_at_bottom",
        "K♣ already lies at the bottom of pile 4: moving it to an empty pile changes nothing",
    )
    move = game.play("21")
    assert move.cards == cards("KS QH") and move.turns_up
    assert refused(game, "w2").reason == "no_fit"  # K♥ on 4♦
    assert game.play("w5").cards == cards("KH")


def test_the_waste_top_plays_and_the_waste_takes_no_card():
    game = game_at(["8S", "AH"], waste="9H 7D")
    assert game.play("w1").cards == cards("7D")
    assert game.position.waste == list(cards("9H"))
    assert refused(game, "1w").reason == "to_waste"
    game.play("2h")
    assert refused(game, "w2").reason == "not_a_king"  # 9♥ to the empty pile 2


def test_foundations_build_up_by_suit_from_the_ace():
    game = game_at(["2S", "3H"], waste="AS", found=(0, 1, 13, 13))
    game.position.stock.clear()  # the cards not written: only their foundations matter here
    assert game.play("wh").dst_kind == "h"
    assert game.play("1h").cards == cards("2S")
    error = refused(game, "2h")
    assert (error.reason, str(error)) == ("not_home", "3♥ cannot go home: the ♥ foundation takes 2♥ next")
    assert game.position.found == [2, 1, 13, 13]


def test_a_foundations_top_card_comes_back_to_a_pile():
    game = game_at(["6H", "6C", ""], found=(5, 0, 13, 5))
    move = game.play("hs1")
    assert (
        move.cards == cards("5S") and game.position.found[0] == 4 and game.position.top(0) == cards("5S")[0]
    )
    error = refused(game, "hh1")
    assert (error.reason, str(error)) == ("empty_foundation", "the ♥ foundation is empty")
    error = refused(game, "hs2")
    assert (error.reason, str(error)) == ("no_fit", "4♠ does not fit on 6♣ (pile 2): it takes a red 5")
    assert game.play("hd3").cards == cards("KD")  # a king from home to an empty pile


@pytest.mark.parametrize(("draw", "turned"), [(1, "KS"), (3, "KS KH KD")])
def test_the_stock_turns_one_or_three_onto_the_waste(draw, turned):
    game = game_at([], stock="KS KH KD KC", found=(12, 12, 12, 12), draw=draw)
    assert game.play("s").cards == cards(turned)
    assert game.position.waste == list(cards(turned))
    assert game.seen_state().waste == cards(turned)


def test_draw_three_turns_fewer_when_fewer_remain_and_the_waste_turns_back_in_order():
    game = game_at([], stock="KS KH KD KC", found=(12, 12, 12, 12), draw=3)
    game.play("s")
    assert game.play("s").cards == cards("KC")
    assert game.position.stock == [] and game.position.waste == list(cards("KS KH KD KC"))
    assert game.play("S").is_recycle
    assert game.position.stock == list(cards("KS KH KD KC")) and game.position.waste == []
    assert game.play("s").cards == cards("KS KH KD")


def test_the_waste_turns_over_as_often_as_the_player_likes():
    game = game_at([], stock="KS KH", found=(12, 12, 13, 13))
    for _ in range(30):
        game.play("s")
    assert game.position.recycles == 10 and game.outcome is None


def test_with_stock_and_waste_empty_there_is_nothing_to_turn():
    game = game_at(["KS"], found=(12, 13, 13, 13))
    error = refused(game, "s")
    assert (error.reason, str(error)) == (
        "stock_empty",
        "the stock and the waste are both empty: there is nothing to turn",
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("h3", "which_foundation"),
        ("38", "no_such_pile"),
        ("w0", "no_such_pile"),
        ("33", "same_pile"),
        ("3w", "to_waste"),
        ("3s", "to_stock"),
        ("s3", "from_stock"),
        ("hsh", "home_to_home"),
        ("x", "malformed"),
        ("hx3", "malformed"),
        ("", "malformed"),
        ("3", "malformed"),
        ("w33", "malformed"),
        ("３5", "malformed"),
    ],
)
def test_notation_refusals_say_what_is_wrong(text, reason):
    game = engine.new_game("KL1-D1-AAAAA24")
    assert refused(game, text).reason == reason


def test_which_foundation_is_asked_for_by_name():
    error = refused(engine.new_game("KL1-D1-AAAAA24"), "h3")
    assert str(error) == "say which foundation's card goes to pile 3: hs3, hh3, hd3 or hc3"


def test_notation_is_case_insensitive_and_spaces_do_not_matter():
    game = game_at(["6H"], waste="AD", found=(5, 0, 0, 13))
    assert game.play(" W H ").notation == "wh"
    assert game.play("HS1").notation == "hs1"


def test_a_stuck_position_is_lost_and_one_with_a_move_is_not():
    piles = ["AH 2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    stuck = game_at(piles, down=[1, 0, 0, 0, 0, 0, 0], stock="9H TH JH QH KH")
    assert stuck.legal_moves() == ["s"]
    assert stuck.outcome == engine.Outcome(
        "lost", "no card can move, and turning the stock brings none that can"
    )
    alive = game_at(["3H", "4H", "5H", "6H", "7H", "8H", "9H"], stock="TH JH QH KH AH 2H")
    assert alive.legal_moves() == ["s"] and alive.outcome is None  # A♥ comes round in the stock


@pytest.mark.parametrize(
    ("code", "seed"), [("KL1-D1-AAAAA24", 1), ("KL1-D3-AAAAAAB", 2), ("KL1-D3-BBBBBBB", 3)]
)
def test_listing_resolving_and_is_legal_agree_through_random_play(code, seed):
    rng = random.Random(seed)
    game = engine.new_game(code)
    for _ in range(150):
        listed = game.legal_moves()
        assert len(listed) == len(set(listed))
        for text in ALL_NOTATIONS:
            assert game.is_legal(text) == (text in listed), text
            if text not in listed:
                with pytest.raises(engine.IllegalMove):
                    game.resolve(text)
        if not listed:
            break
        game.play("undo" if game.undo_depth and rng.random() < 0.15 else rng.choice(listed))
    replayed = engine.replay(code, game.moves)
    assert replayed.board_text() == game.board_text() and replayed.score == game.score
