"""Klondike's Activity table (``bot.games.klondike.table``) on real positions: it never holds a
face-down card's text, the drops the page may draw at once (``page_moves``) are exactly the
legal moves, each drop's notation is the engine's and carries the cards dropped, a group that
is not the one the notation moves is refused in the engine's words, double taps are the chat's
press, and Home is Home (or Finish)."""

from __future__ import annotations

import pytest

import engine
from bot.activity.moves import page_moves
from bot.adapter.cooldowns import Rate
from bot.games.front.table import Table
from bot.languages.i18n import Translator
from bot.play.error_words import error_text, of_game
from bot.play.feedback import UserFeedback
from engine.cards import card_text
from engine.klondike import KlondikeGame, KlondikeMove
from tests.activity_rig import activity_rig
from tests.klondike_activity import greedy_move, klondike_front, klondike_in_activity, walk

TR = Translator("en")
PLENTY = {"move": Rate(10_000, 1.0), "start": Rate(100, 1.0)}
CODES = ["KL1-D1-AAAAAAC", "KL1-D3-AAAAAAQ", "KL1-D1-AAAAA24", "KL1-D3-AAAAA24"]


def cards_of(table: Table, place: str) -> tuple[str, ...]:
    return next(p.cards for p in table.piles if p.place == place)


def hidden_texts(game: KlondikeGame) -> set[str]:
    """The cards the player has never seen, from the whole truth: face down, or in the stock
    and never turned."""
    seen = game.seen_state()
    return {card_text(c) for c in seen.unseen}


@pytest.mark.parametrize("code", CODES)
def test_the_table_never_holds_a_face_down_card(code):
    front = klondike_front()
    tested = 0
    for seed in range(3):
        for game in walk(code, 150, seed):
            table = front.table(TR, game)
            full = game.state()
            shown = {c for p in table.piles for c in p.cards}
            assert not shown & hidden_texts(game)
            assert shown - {""} <= {card_text(c) for c in range(52)}
            stock = cards_of(table, "s")
            assert stock == (("",) if full.stock else ())  # a back, however many cards it holds
            for i, (pile, down) in enumerate(zip(full.piles, full.face_down, strict=True)):
                drawn = cards_of(table, str(i + 1))
                assert drawn[:down] == ("",) * down
                assert drawn[down:] == tuple(card_text(c) for c in pile[down:])
            assert cards_of(table, "w") == tuple(card_text(c) for c in full.waste)
            tested += 1
    assert tested > 300


def drawn_after(table: Table, drop: list) -> dict[str, tuple[str, ...]]:
    """What the page draws at once for ``drop`` (app.js ``moved``): the cards leave the source's
    top for the target's (a foundation: the one of the card's suit)."""
    source, target, count = drop
    piles = {p.place: list(p.cards) for p in table.piles}
    carried = piles[source][-count:]
    del piles[source][-count:]
    takers = [p for p in table.piles if p.drop == target]
    to = next((p for p in takers if p.suit == carried[0][1]), takers[0])
    piles[to.place] += carried
    return {k: tuple(v) for k, v in piles.items()}


def test_page_moves_are_the_legal_moves_each_drawn_as_the_engine_plays_it():
    front = klondike_front()
    runs = 0
    for game in (g for code in CODES for g in walk(code, 120, 7)):
        if game.is_over:
            continue
        table = front.table(TR, game)
        moves = page_moves(front, game, table)
        notations = [front.drop(game, *d) for d in moves["drops"]]
        assert sorted(notations) == sorted(m for m in game.legal_moves() if m != "s")
        for drop, notation in zip(moves["drops"], notations, strict=True):
            move = game.resolve(notation)
            assert len(move.cards) == drop[2]
            runs += drop[2] > 1
            after = engine.replay(game.code, (*game.moves, notation))
            expected = front.table(TR, after)
            drawn = drawn_after(table, drop)
            for pile in expected.piles:  # a card turned up is a back on the page until the answer
                got = drawn[pile.place]
                if pile.place == drop[0] and move.turns_up:
                    assert got[-1] == "" and got[:-1] == pile.cards[:-1]
                else:
                    assert got == pile.cards, (notation, pile.place)
    assert runs > 0


def with_a_run() -> tuple[KlondikeGame, str, str, KlondikeMove]:
    """A position (played at random, no undo) where a run of two cards or more moves from one
    pile to another: (the game, source pile, target pile, the move)."""
    for game in walk("KL1-D1-AAAAAAC", 400, 3, undo=0.0):
        for m in game.legal_move_objects():
            if m.src_kind == "p" and m.dst_kind == "p" and len(m.cards) > 1:
                return game, str(m.src + 1), str(m.dst + 1), m
    raise AssertionError("no run of two cards to move")


def test_a_group_dropped_that_the_notation_would_not_move_is_refused_in_the_engines_words():
    front = klondike_front()
    game, source, target, move = with_a_run()
    assert front.drop(game, source, target, len(move.cards)) == source + target
    with pytest.raises(engine.IllegalMove) as refused:
        front.drop(game, source, target, len(move.cards) - 1)
    text = error_text("en", of_game(refused.value, "klondike"))  # as the service marks it
    top = engine.cards.card_label(move.cards[1])
    assert text is not None and text.startswith(f"{top} does not fit on") and "other colour" in text
    with pytest.raises(engine.IllegalMove) as home:
        front.drop(game, source, "h", 2)
    assert home.value.reason in ("not_home", "one_home")
    face_up = len(game.position.piles[int(source) - 1]) - game.position.down[int(source) - 1]
    with pytest.raises(UserFeedback):  # never more than the face-up cards: no label of a hidden one
        front.drop(game, source, target, face_up + 1)


def test_drops_from_the_waste_and_a_foundation_and_nonsense():
    front = klondike_front()
    game = engine.new_game("KL1-D1-AAAAAAC")
    assert front.drop(game, "w", "3", 1) == "w3"
    assert front.drop(game, "w", "h", 1) == "wh"
    assert front.drop(game, "hs", "4", 1) == "hs4"
    for source, target, count in [
        ("w", "3", 2),
        ("hs", "h", 1),
        ("hs", "hh", 1),
        ("s", "3", 1),
        ("3", "3", 1),
    ]:
        with pytest.raises(UserFeedback):
            front.drop(game, source, target, count)


@pytest.mark.parametrize("code", CODES)
def test_a_double_tap_is_the_chats_press_choosing_the_best_pile_itself(code):
    from bot.games.klondike import presses

    front = klondike_front()
    assert front.double_tap(engine.new_game(code), "s") == "s"
    played = 0
    for game in walk(code, 120, 11):
        if game.is_over:
            continue
        for place in "w1234567":
            best = presses.one_press(game, place)
            if best is None:
                with pytest.raises(UserFeedback):
                    front.double_tap(game, place)
                continue
            assert front.double_tap(game, place) == best
            if not presses.needs_choice(game, place):
                assert front.press_place(game, "", place).value == best
            assert game.is_legal(best)
            played += 1
    assert played > 100
    game = engine.new_game(code)
    with pytest.raises(engine.IllegalMove):  # a foundation's card stays home
        game.play(front.double_tap(game, "hs"))
    with pytest.raises(UserFeedback):
        front.double_tap(game, "x")


def test_the_draw_three_waste_shows_its_top_three_and_home_becomes_finish():
    front = klondike_front()
    three = engine.new_game("KL1-D3-AAAAAAQ")
    one = engine.new_game("KL1-D1-AAAAAAC")
    for game, spread in ((three, 3), (one, 0)):
        game.play("s")
        waste = next(p for p in front.table(TR, game).piles if p.place == "w")
        assert waste.spread == spread and waste.drag == "top"
        assert len(waste.cards) == game.draw
    # The greedy win of KL1-D1-AAAAAAC (the engine's tests) until Finish is offered.
    game = engine.new_game("KL1-D1-AAAAAAC")
    while not game.home_finishes():
        table = front.table(TR, game)
        assert table.home != TR("button.finish")
        move = greedy_move(game)
        assert move is not None
        game.play(move)
    table = front.table(TR, game)
    assert table.home == TR("button.finish") and table.home_ready
    game.play(front.home_move(game))
    assert game.is_won


async def test_such_a_group_refused_through_the_server_is_said_in_klondikes_words(fake_discord, tmp_path):
    game, source, target, move = with_a_run()
    with klondike_in_activity():
        async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
            ann = fake_discord.add_user("ann")
            token = await rig.sign_in(ann)
            game_id = (await rig.start(token, "klondike", game.code))["game"]["id"]
            for played in game.moves:
                board = await rig.service.play(ann.id, game_id, played)
            drop = {"act": "drop", "source": source, "target": target, "count": len(move.cards) - 1}
            status, data = await rig.call(
                token, "/api/play", {"game": game_id, "version": board.row.version, **drop}
            )
    top, onto = (
        engine.cards.card_label(move.cards[1]),
        engine.cards.card_label(game.position.piles[int(target) - 1][-1]),
    )
    assert status == 422
    assert (
        data["error"]
        == f"{top} does not fit on {onto} (pile {target}): a card goes on the next higher card of the other colour."
    )
