"""Property tests over random legal Calculation play (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.calculation import CalculationGame

deals = st.integers(min_value=0, max_value=2**35 - 1)
choices = st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=120)


def snapshot(game: CalculationGame) -> tuple:
    return (
        game.foundations,
        game.waste,
        game.turned,
        game.stock_count,
        game.score,
        game.move_count,
        game.unseen_cards(),
        game.board_text(),
    )


def all_cards(game: CalculationGame) -> list[int]:
    cards = [c for f in game.foundations for c in f] + [c for w in game.waste for c in w]
    if game.turned is not None:
        cards.append(game.turned)
    return sorted(cards + sorted(game.unseen_cards()))


def random_play(deal: int, picks: list[int], *, undo_every: int = 0) -> CalculationGame:
    game = engine.new_game(engine.code_for("calculation", deal))
    for n, pick in enumerate(picks, 1):
        if undo_every and n % undo_every == 0:
            try:
                game.undo()
            except engine.IllegalMove as exc:
                assert exc.reason in ("undo_would_unturn", "nothing_to_undo")
            continue
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals, choices)
def test_52_cards_always_accounted_for(deal, picks):
    game = engine.new_game(engine.code_for("calculation", deal))
    for pick in picks:
        assert all_cards(game) == list(range(52))
        assert game.score == sum(len(f) for f in game.foundations)
        assert game.stock_count == len(game.unseen_cards())
        moves = game.legal_moves()
        if not moves:
            assert game.is_over
            break
        game.play(moves[pick % len(moves)])
    assert all_cards(game) == list(range(52))


@settings(max_examples=60, deadline=None)
@given(deals, choices)
def test_undo_is_an_exact_inverse_where_allowed(deal, picks):
    game = engine.new_game(engine.code_for("calculation", deal))
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        before = snapshot(game)
        move = game.play(moves[pick % len(moves)])
        after = snapshot(game)
        if move.turned_next:  # a new card was seen: undo must refuse and change nothing
            try:
                game.undo()
            except engine.IllegalMove as exc:
                assert exc.reason == "undo_would_unturn"
            else:
                raise AssertionError("undo un-turned a card")
            assert snapshot(game) == after
        else:
            game.undo()
            assert snapshot(game) == before
            game.play(move.notation)
            assert snapshot(game) == after


@settings(max_examples=40, deadline=None)
@given(deals, choices, st.integers(min_value=2, max_value=6))
def test_replay_from_code_and_log_is_identical(deal, picks, undo_every):
    game = random_play(deal, picks, undo_every=undo_every)
    again = engine.replay(game.code, game.moves)
    assert snapshot(again) == snapshot(game)
    assert again.moves == game.moves and again.undo_depth == game.undo_depth
    assert again.outcome == game.outcome


@settings(max_examples=40, deadline=None)
@given(deals, choices)
def test_every_legal_move_resolves_to_its_own_canonical_notation(deal, picks):
    game = random_play(deal, picks)
    for text in game.legal_moves():
        assert game.resolve(text).notation == text
        assert game.describe(text)
    if game.turned is not None:
        for j in range(1, 5):
            assert game.resolve(f"w{j}").notation == f"sw{j}"
