"""Properties over random legal play: cards are conserved, undo inverts, replay is exact."""

from hypothesis import given, settings
from hypothesis import strategies as st

import engine

deals = st.integers(min_value=0, max_value=2**35 - 1)
cell_counts = st.sampled_from([4, 2, 1])
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120)


def snapshot(game):
    return game.board_text(), game.score, game.move_count


@settings(max_examples=60, deadline=None)
@given(deal=deals, cells=cell_counts, picks=choices)
def test_random_play_keeps_every_invariant(deal, cells, picks):
    game = engine.new_game(engine.code_for("bakers", deal, cells))
    history = [snapshot(game)]
    for pick in picks:
        legal = game.legal_moves()
        if pick % 7 == 0 and game.undo_depth:
            game.undo()
            history.pop()
            assert snapshot(game) == history[-1]
        elif legal:
            game.play(legal[pick % len(legal)])
            history.append(snapshot(game))
        else:
            assert game.is_over
            break
        cards = game.position.all_cards()
        assert len(cards) == 52 and len(set(cards)) == 52
        assert game.score >= 0
        assert game.score % 5 == 0
        assert len(game.position.cells) == cells
    again = engine.replay(game.code, game.moves)
    assert snapshot(again) == snapshot(game)
    assert again.undo_depth == game.undo_depth
    assert again.moves == game.moves


@settings(max_examples=40, deadline=None)
@given(deal=deals, cells=cell_counts, picks=choices)
def test_undo_all_the_way_back_gives_the_deal(deal, cells, picks):
    game = engine.new_game(engine.code_for("bakers", deal, cells))
    start = snapshot(game)
    for pick in picks[:100]:
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[pick % len(legal)])
    while game.undo_depth:
        game.undo()
    assert snapshot(game) == (start[0], 0, 0)


@settings(max_examples=40, deadline=None)
@given(deal=deals, picks=choices)
def test_every_listed_move_is_legal_and_score_follows_the_rules(deal, picks):
    game = engine.new_game(engine.code_for("bakers", deal, 4))
    for pick in picks:
        moves = game.legal_move_objects()
        if not moves:
            break
        move = moves[pick % len(moves)]
        before = game.score
        played = game.play(move.notation)
        expected = (
            10 if played.dst_kind == "h" else 5 if (played.src_kind, played.dst_kind) == ("f", "c") else 0
        )
        assert game.score - before == expected
        assert played.cards == move.cards
