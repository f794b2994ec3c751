"""Klondike won: Finish (auto-complete), a whole game played to a win, and the search views."""

from __future__ import annotations

import pytest

import engine
from engine.klondike import UNKNOWN, KlondikeGame, KlondikeState, position_of
from tests.klondike_boards import cards, game_at

# Deals a simple greedy player wins (found by running it over deals 0-299): its lines are
# replayed here as whole games.
GREEDY_WINS = ["KL1-D1-AAAAAAC", "KL1-D3-AAAAAAQ"]


def near_won() -> KlondikeGame:
    """Every card face up: four piles of runs, one card in the waste, the stock used up."""
    piles = ["KS QH JC TH", "KH QC JD TS 9H", "KD QS JH TC", "KC QD JS TD"]
    return game_at(piles, waste="9D", found=(9, 8, 8, 9))


def test_with_every_card_face_up_finish_plays_them_all_home_as_one_action():
    game = near_won()
    run = game.home_run()
    assert game.home_finishes(run) and len(run) == 18
    played = game.play_home()
    assert len(played) == 18 and game.is_won
    assert game.outcome == engine.Outcome("won", "all 52 cards are on the foundations")
    assert game.score == 180 and game.undo_depth == 1 and len(game.moves) == 1
    with pytest.raises(engine.IllegalMove) as info:
        game.play("s")
    assert info.value.reason == "game_over"
    game.undo()
    assert game.board_text() == near_won().board_text() and game.score == 0


def test_home_sends_only_what_is_face_up_now_and_is_no_finish_over_a_face_down_card():
    game = game_at(["KH KS"], down=[1, 0, 0, 0, 0, 0, 0], found=(12, 12, 13, 13))
    assert game.home_run() == ["1h"]  # K♠; the K♥ under it is face down now
    assert not game.home_finishes()
    game.play_home()
    assert game.position.down[0] == 0 and game.home_finishes()
    game.play_home()
    assert game.is_won


def test_no_finish_while_the_stock_holds_cards():
    game = game_at(["KS", "KH"], stock="QS QH", found=(11, 11, 13, 13))
    assert game.home_run() == [] and not game.home_finishes()
    with pytest.raises(engine.IllegalMove) as info:
        game.play_home()
    assert (info.value.reason, str(info.value)) == ("nothing_home", "no card can go home now")


def greedy(game: KlondikeGame, budget: int = 2000) -> None:
    """Home first, then a move that turns a card up, then the waste onto a pile, else turn the
    stock; Finish as soon as it wins."""
    idle = 0
    while not game.is_over and budget and idle <= 60:
        budget -= 1
        if game.home_finishes():
            game.play_home()
            continue
        moves = [m for m in game.legal_move_objects() if m.notation != "s"]
        ranked = [m for m in moves if m.dst_kind == "h" and m.src_kind != "h"]
        ranked += [m for m in moves if m.turns_up] + [
            m for m in moves if m.src_kind == "w" and m.dst_kind == "p"
        ]
        if ranked:
            game.play(ranked[0].notation)
            idle = 0
        elif game.is_legal("s"):
            game.play("s")
            idle += 1
        else:
            break


@pytest.mark.parametrize("code", GREEDY_WINS)
def test_a_whole_game_is_won_by_playing_and_replays_from_its_log(code):
    game = engine.new_game(code)
    assert isinstance(game, KlondikeGame)
    greedy(game)
    assert game.is_won and game.cards_home == 52 and game.position.face_down() == 0
    assert game.moves[-1].count(",") >= 1  # ended with Finish, several cards in one action
    replayed = engine.replay(code, game.moves)
    assert replayed.is_won and replayed.score == game.score
    finish = engine.Finish("won", game.score, game.move_count, 52)
    assert KlondikeGame.rank_key(finish) < KlondikeGame.rank_key(engine.Finish("lost", 500, 10, 51))


def test_the_full_state_gives_every_card_and_rebuilds_the_position():
    game = engine.new_game("KL1-D3-AAAAA24")
    assert isinstance(game, KlondikeGame)
    game.play("s")
    state = game.state()
    assert state.piles[1] == cards("6S 5C") and state.face_down[:3] == (0, 1, 2)
    assert state.waste == cards("3C KS QD") and state.stock[0] == cards("3H")[0] and len(state.stock) == 21
    assert (state.foundations, state.draw, state.unseen) == ((0, 0, 0, 0), 3, ())
    rebuilt = position_of(state)
    assert [m.notation for m in rebuilt.moves()] == game.legal_moves()


def test_the_seen_state_hides_exactly_the_cards_never_seen():
    game = engine.new_game("KL1-D3-AAAAA24")
    assert isinstance(game, KlondikeGame)
    game.play("s")
    full, seen = game.state(), game.seen_state()
    assert seen.piles[6] == (UNKNOWN,) * 6 + cards("8H") and seen.face_down == full.face_down
    assert seen.waste == full.waste and seen.stock == (UNKNOWN,) * 21
    hidden = [c for p, d in zip(full.piles, full.face_down, strict=True) for c in p[:d]] + list(full.stock)
    assert seen.unseen == tuple(sorted(hidden)) and len(seen.unseen) == 21 + 21
    with pytest.raises(ValueError, match="unknown cards"):
        position_of(seen)


def test_the_seen_state_does_not_change_with_the_hidden_cards():
    """Two deals alike in all the player has seen, different underneath, look the same."""
    one = game_at(["5C TD 9S 8H", "JC", "2H 3C"], down=[1, 0, 1, 0, 0, 0, 0])
    two = game_at(["2H TD 9S 8H", "JC", "5C 3C"], down=[1, 0, 1, 0, 0, 0, 0])
    assert one.board_text() != two.board_text()
    assert one.seen_state() == two.seen_state() and one.seen_text() == two.seen_text()


def test_a_state_that_is_not_a_deck_is_refused():
    good = engine.new_game("KL1-D1-AAAAA24")
    assert isinstance(good, KlondikeGame)
    state = good.state()
    bad = KlondikeState(state.piles, state.face_down, state.stock[1:], state.waste, state.foundations, 1)
    with pytest.raises(ValueError, match="each of the 52 cards once"):
        position_of(bad)
