"""The hint player (legal, deterministic, blind to the stock order) and the perfect search."""

from __future__ import annotations

import random

import pytest

import engine
from engine.calculation import SEQUENCES, CalculationGame, Position
from engine.calculation.fast import choose_pile, distances, playout
from engine.calculation.hints import Tally, View, _halve, _seed_for, best_move, candidates, evaluate
from engine.calculation.perfect import solve
from engine.cards import make_card, rank_of

SEED_PIN = 4581900000237041680  # _seed_for(CA1-AAAAA24 at the deal, seed 0)
ROLLOUTS = 24  # small: these tests pin behaviour, benchmarks/calculation.py measures strength


def game_at(deal: int, plies: int, seed: int = 1) -> CalculationGame:
    game = engine.new_game(engine.code_for("calculation", deal))
    rng = random.Random(seed)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    return game


def with_hidden_order_shuffled(game: CalculationGame, seed: int) -> CalculationGame:
    """The same visible position with the face-down cards in another order."""
    pos = game.position
    hidden = list(pos.stock[pos.turn + 1 :])
    random.Random(seed).shuffle(hidden)
    other = engine.new_game(game.code)
    other.position = Position(
        [f[:] for f in pos.foundations],
        [w[:] for w in pos.waste],
        (*pos.stock[: pos.turn + 1], *hidden),
        pos.turn,
    )
    return other


@pytest.mark.parametrize(("deal", "plies"), [(0, 0), (1, 10), (2, 20), (3, 30), (860, 5), (77, 45)])
def test_hint_is_legal_deterministic_and_blind_to_the_stock_order(deal, plies):
    game = game_at(deal, plies)
    hint = best_move(game, rollouts=ROLLOUTS, seed=3)
    if game.outcome is not None:
        assert hint is None
        return
    assert hint in game.legal_moves()
    assert best_move(game, rollouts=ROLLOUTS, seed=3) == hint
    assert game.hint(rollouts=ROLLOUTS, seed=3) == hint
    for k in range(3):
        assert best_move(with_hidden_order_shuffled(game, k), rollouts=ROLLOUTS, seed=3) == hint


def reshuffles(game: CalculationGame, seed: int, count: int = 4) -> list[tuple[int, ...]]:
    """The first reshuffles of the unseen cards the hint player draws for a position and seed."""
    view = View.of(game)
    rng = random.Random(_seed_for(view, seed))
    deck = list(view.unseen)
    out = []
    for _ in range(count):
        rng.shuffle(deck)
        out.append(tuple(deck))
    return out


def test_the_reshuffles_depend_on_the_whole_position_and_the_seed():
    """Issue 13: the seed kept only the text's last bytes (the tail of the unseen ranks), so
    ``seed`` did nothing and almost every position drew the same reshuffles."""
    positions = [game_at(deal, plies) for deal in (0, 1, 2) for plies in (0, 3, 8, 15)]
    views = {View.of(g) for g in positions}
    assert len(views) == len(positions)  # distinct positions …
    streams = {reshuffles(g, 0)[0] for g in positions if len(View.of(g).unseen) > 10}
    assert len(streams) == sum(len(View.of(g).unseen) > 10 for g in positions)  # … distinct streams
    game = game_at(1, 10)
    by_seed = {reshuffles(game, seed)[0] for seed in range(8)}
    assert len(by_seed) == 8  # every seed its own stream
    assert len({_seed_for(View.of(game), seed) for seed in range(1000)}) == 1000
    # the same position and seed: the same stream, from a fresh game too
    assert reshuffles(game, 5) == reshuffles(game_at(1, 10), 5)
    assert _seed_for(View.of(game), 5) == _seed_for(View.of(game_at(1, 10)), 5)
    # a stable hash (not Python's salted hash()): pinned, so it is the same on every machine
    assert _seed_for(View.of(engine.new_game("CA1-AAAAA24")), 0) == SEED_PIN


def test_hint_plays_whole_games_legally():
    for deal in (5, 6):
        game = engine.new_game(engine.code_for("calculation", deal))
        while game.outcome is None:
            hint = game.hint(rollouts=8, seed=deal)
            assert hint in game.legal_moves()
            game.play(hint)
        assert game.hint(rollouts=8) is None


def test_foundation_plays_are_taken_at_once():
    game = engine.new_game("CA1-AAAAA24")  # 6S fits foundation 3
    assert [m.notation for m in candidates(game)] == ["sf3"]
    assert best_move(game, rollouts=ROLLOUTS) == "sf3"


def test_identical_waste_piles_are_one_candidate():
    game = engine.new_game("CA1-AAAAA24")
    game.play("sf3")  # 7D turned: fits nothing, four empty piles
    assert [m.notation for m in candidates(game)] == ["sw1"]


def layout(waste: list[list[int]], turned: int) -> CalculationGame:
    """Foundations as dealt (A 2 3 4 of spades), ``waste`` and ``turned`` given as ranks; the
    rest of the deck, in suit order, is the face-down stock."""
    pool = {r: [make_card(s, r) for s in range(4)] for r in range(1, 14)}
    found = [[pool[r].pop(0)] for r in (1, 2, 3, 4)]
    piles = [[pool[r].pop() for r in w] for w in waste]
    shown = [c for w in piles for c in w] + [pool[turned].pop()]
    game = engine.new_game("CA1-AAAAAAA")
    game.position = Position(found, piles, (*shown, *(c for r in pool for c in pool[r])), len(shown) - 1)
    return game


def test_which_copy_goes_home_is_a_choice():
    # two 2s fit foundation 1: unwinding pile 2 frees the 6 foundation 3 needs now
    game = layout([[13, 2], [6, 2], [], []], turned=9)
    assert [m.notation for m in candidates(game)] == ["w2f1", "w1f1"]
    assert best_move(game, rollouts=ROLLOUTS) == "w2f1"
    # the turned 2 is a third copy: it comes first, as the playouts send it home at once
    game = layout([[13, 2], [6, 2], [], []], turned=2)
    assert [m.notation for m in candidates(game)] == ["sf1", "w2f1", "w1f1"]
    assert best_move(game, rollouts=ROLLOUTS) == "w2f1"


def test_copies_on_identical_piles_are_one_candidate():
    game = layout([[6, 2], [6, 2], [], []], turned=9)
    assert [m.notation for m in candidates(game)] == ["w1f1"]


def test_playout_unwinds_the_pile_whose_next_card_is_needed_soonest():
    prog, piles, moves = [1, 1, 1, 1], [[13, 2], [6, 2], [], []], []
    assert playout(prog, piles, [], moves) == 6
    assert moves == [("w", 1, "f", 0), ("w", 1, "f", 2)]  # the 2 from pile 2, then the 6
    assert piles == [[13, 2], [], [], []]


def test_playout_conserves_cards_and_scores():
    prog, piles = [1, 1, 1, 1], [[], [], [], []]
    cards = [r for r in range(1, 14) for _ in range(4)]
    for r in (1, 2, 3, 4):
        cards.remove(r)
    random.Random(0).shuffle(cards)
    score = playout(prog, piles, cards)
    assert score == sum(prog) and sum(prog) + sum(map(len, piles)) == 52


START = distances([1, 1, 1, 1])  # need distances at the deal: J 4, A 5, 7 3, 6 0, K 11 …


def place(rank: int, piles: list[list[int]]) -> int:
    waiting = [0] * 14
    for pile in piles:
        for r in pile:
            waiting[r] += 1
    return choose_pile(START, waiting, piles, rank)


def test_policy_reads_a_top_by_the_last_waiting_copy_of_its_rank():
    # a 7 is needed at 3 (before the J, at 4) by its nearest foundation; with a second 7
    # waiting, this one serves the next foundation (at 5): the J may cover it
    assert START[7][:2] == (3, 5)
    assert place(11, [[7], [2], [], [6]]) == 2
    assert place(11, [[7], [2], [], [7]]) in (0, 3)


def test_policy_puts_a_king_on_an_empty_pile_else_on_a_king():
    assert place(13, [[13], [5], [], [9]]) == 2
    assert place(13, [[5], [13], [9], [2]]) == 1


def test_policy_covers_the_top_needed_later_by_the_smallest_gap():
    assert START[11][0] == 4 and START[1][0] == 5 and START[13][0] == 11 and START[7][0] == 3
    # J on A (gap 1) rather than on K (gap 7), on 7 (needed earlier) or on the empty pile
    assert place(11, [[7], [13], [1], []]) == 2
    assert place(11, [[13], [], [7], [1]]) == 3


def test_policy_counts_the_cards_under_the_top_it_would_bury():
    # the A pile hides a 6 needed at once: the J goes on the K instead
    assert place(11, [[6, 1], [13], [], [7]]) == 1


def test_policy_prefers_an_empty_pile_to_burying_then_the_least_harm():
    assert place(11, [[7], [2], [], [6]]) == 2
    assert place(11, [[2], [8], [7], [6]]) == 2  # the 7 is needed latest of the four


# -- perfect-information search -------------------------------------------------------------
def endgame(waste: list[list[int]], short: int = 2) -> CalculationGame:
    """Foundations 2-4 complete, foundation 1 missing its last ``short`` ranks (in ``waste``)."""
    game = engine.new_game("CA1-AAAAAAA")
    found = [[make_card(i, r) for r in seq] for i, seq in enumerate(SEQUENCES)]
    found[0] = found[0][: 13 - short]
    game.position = Position(
        found, [[make_card(0, r) for r in w] for w in waste] + [[]] * (4 - len(waste)), (), 0
    )
    return game


def test_perfect_search_proves_a_dead_end_not_winnable():
    game = endgame([[12, 13]])  # the Q it needs is under the K
    assert game.is_lost
    result = solve(game, time_limit=5)
    assert result.verdict == "not_winnable" and result.moves == ()


def test_perfect_search_finishes_an_endgame():
    game = endgame([[13, 12]])
    result = solve(game, time_limit=5)
    assert result.verdict == "winnable" and result.moves == ("w1f1", "w1f1")


@pytest.mark.parametrize("deal", [0, 1, 3, 860])
def test_perfect_search_wins_replay_from_the_deal(deal):
    game = engine.new_game(engine.code_for("calculation", deal))
    result = solve(game, time_limit=20)
    assert result.verdict == "winnable" and result.start == "current"
    assert engine.replay(game.code, result.moves).is_won


def test_perfect_search_from_start_after_a_lost_game():
    game = game_at(3, 200, seed=7)
    assert game.is_over
    result = solve(game, time_limit=20, from_start=True)
    assert result.start == "deal" and result.verdict == "winnable"
    assert engine.replay(game.code, result.moves).is_won
    assert rank_of(game.foundations[0][0]) == 1


@pytest.mark.parametrize(("deal", "plies"), [(0, 0), (2, 20), (77, 45)])
def test_the_seen_copy_holds_only_what_the_player_sees(deal, plies):
    """benchmarks/calculation.py asks every decision of ``seen_copy()``: games alike in what the
    player sees but not in the face-down order give the same copy, hence the same hint."""
    game = game_at(deal, plies)
    other = with_hidden_order_shuffled(game, 9)
    assert other.position.stock != game.position.stock or game.stock_count < 2
    a, b = game.seen_copy(), other.seen_copy()
    assert a.position.stock == b.position.stock and a.position.turn == game.position.turn
    assert (a.foundations, a.waste, a.turned) == (game.foundations, game.waste, game.turned)
    assert a.unseen_cards() == game.unseen_cards() and a.legal_moves() == game.legal_moves()
    assert best_move(a, rollouts=ROLLOUTS, seed=1) == best_move(b, rollouts=ROLLOUTS, seed=1)
    assert best_move(a, rollouts=ROLLOUTS, seed=1) == best_move(game, rollouts=ROLLOUTS, seed=1)
    a.play(a.legal_moves()[0])  # the copy is separate: playing on it leaves the game alone
    assert a.foundations != game.foundations or a.waste != game.waste


def test_a_work_budget_halves_the_candidates_so_the_close_calls_get_the_reshuffles():
    game = layout([[13], [9], [5], []], turned=7)  # the 7 may go on any of four distinct piles
    moves = candidates(game)
    assert len(moves) == 4
    tallies = evaluate(game, moves, rollouts=10**6, seed=0, time_limit=None, work=40_000)
    live = [t for t in tallies if t.active]
    dropped = [t for t in tallies if not t.active]
    assert 1 <= len(live) <= 2
    assert min(t.plays for t in live) > max(t.plays for t in dropped)
    # the rounds share the budget equally: the dropped half stopped at the end of the first
    cost = len(game.unseen_cards()) + 5
    assert sum(t.plays for t in tallies) * cost <= 40_000 + 4 * cost * 32


def test_halving_counts_from_the_start_so_pruned_candidates_leave_room_for_close_calls():
    tallies = [Tally(wins=0b1111), Tally(wins=0b0111), Tally(wins=0b0011), Tally(wins=0b0001)]
    tallies[2].active = tallies[3].active = False  # pruned before the first round ended
    _halve(tallies, keep=2)
    assert [t.active for t in tallies] == [True, True, False, False]
    _halve(tallies, keep=1)
    assert [t.active for t in tallies] == [True, False, False, False]
