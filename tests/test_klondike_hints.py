"""Klondike's fair hint player (issue 43 item 4): legal, repeatable, blind to every card the
player has not seen, and able to finish an easy game; ``python -m engine hint`` plays it."""

from __future__ import annotations

import json
import random

import pytest

import engine
import engine.klondike.game as hint_module
from engine.__main__ import main
from engine.klondike.game import KlondikeGame
from engine.klondike.hints import best_move, fill, seed_for
from engine.klondike.position import Position
from engine.klondike.state import UNKNOWN

SMALL = {"samples": 4, "budget": 150}  # these tests pin behaviour; the benchmark measures strength


def game_at(deal: int, draw: int, plies: int, seed: int = 1) -> KlondikeGame:
    """A real game some random moves in (moves home preferred, so it gets somewhere)."""
    game = engine.new_game(engine.code_for("klondike", deal, draw))
    assert isinstance(game, KlondikeGame)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome is not None:
            break
        home = [m for m in moves if m.endswith("h")]
        game.play(rng.choice(home or moves))
    return game


def with_hidden_cards_permuted(game: KlondikeGame, seed: int) -> KlondikeGame:
    """The same game as its player sees it, with the cards never seen dealt differently: the
    face-down pile cards and the stock cards never turned trade places at random."""
    pos = game.position
    slots = [("pile", p, i) for p, down in enumerate(pos.down) for i in range(down)]
    slots += [("stock", 0, i) for i, c in enumerate(pos.stock) if c not in pos.seen]
    other = pos.copy()
    hidden = [other.piles[p][i] if kind == "pile" else other.stock[i] for kind, p, i in slots]
    random.Random(seed).shuffle(hidden)
    for (kind, p, i), card in zip(slots, hidden, strict=True):
        if kind == "pile":
            other.piles[p][i] = card
        else:
            other.stock[i] = card
    twin = engine.new_game(game.code)
    assert isinstance(twin, KlondikeGame)
    twin.position = other
    return twin


POSITIONS = [(860, 1, 0), (860, 3, 12), (5, 1, 30), (77, 3, 45), (1234, 1, 60), (98765, 3, 25)]


@pytest.mark.parametrize(("deal", "draw", "plies"), POSITIONS)
def test_the_hint_is_a_legal_repeatable_move(deal, draw, plies):
    game = game_at(deal, draw, plies)
    hint = best_move(game.seen_state(), seed=2, **SMALL)
    if game.outcome is not None:
        assert hint is None
        return
    assert hint in game.legal_moves()
    assert best_move(game.seen_state(), seed=2, **SMALL) == hint


@pytest.mark.parametrize(("deal", "draw", "plies"), POSITIONS)
def test_the_hint_cannot_read_a_card_the_player_has_not_seen(deal, draw, plies):
    """Games that agree on everything seen but deal the hidden cards differently get the same
    hint for every seed: the same distribution over seeds, card for card."""
    game = game_at(deal, draw, plies)
    hints = [best_move(game.seen_state(), seed=s, **SMALL) for s in range(3)]
    for k in range(3):
        twin = with_hidden_cards_permuted(game, k)
        assert twin.state() != game.state() or not game.seen_state().unseen
        assert twin.seen_state() == game.seen_state()
        assert [best_move(twin.seen_state(), seed=s, **SMALL) for s in range(3)] == hints


@pytest.mark.parametrize(("deal", "draw", "plies"), POSITIONS[:3])
def test_the_games_hint_is_handed_only_what_the_player_sees(deal, draw, plies, monkeypatch):
    """``KlondikeGame.hint`` passes the hint player ``seen_state()`` and nothing else (every
    hidden card ``UNKNOWN``), so at full strength twins differing in hidden cards agree too."""
    game = game_at(deal, draw, plies)
    handed: list[object] = []
    monkeypatch.setattr(hint_module, "best_move", lambda state, **kw: handed.append((state, kw)) or "s")
    assert game.hint() == "s" and handed == [(game.seen_state(), {"seed": 0, "time_limit": None})]
    assert UNKNOWN in handed[0][0].piles[6] or game.position.down[6] == 0  # type: ignore[index]
    monkeypatch.undo()
    hint = game.hint()
    assert all(with_hidden_cards_permuted(game, k).hint() == hint for k in range(2))


def test_a_sampled_world_keeps_every_seen_card_and_deals_exactly_the_unseen_ones():
    seen = game_at(77, 3, 20).seen_state()
    world = fill(seen, random.Random(seed_for(seen, 0)))
    assert world.known and world.unseen == ()
    dealt: list[int] = []
    for kept, sampled in [*zip(seen.piles, world.piles, strict=True), (seen.stock, world.stock)]:
        for a, b in zip(kept, sampled, strict=True):
            assert b == a or a == UNKNOWN
            dealt += [b] if a == UNKNOWN else []
    assert sorted(dealt) == list(seen.unseen)


def test_the_samples_depend_on_the_seen_state_and_the_seed():
    a, b = game_at(5, 1, 0).seen_state(), game_at(5, 1, 10).seen_state()
    assert len({seed_for(a, 0), seed_for(a, 1), seed_for(b, 0)}) == 3


def card(text: str) -> int:
    return "SHDC".index(text[1]) * 13 + "A23456789TJQK".index(text[0])


def test_it_finishes_an_easy_game_with_a_card_face_down_and_one_in_the_stock():
    """Tens home in every suit; KS face down under QH, JC unseen in the stock."""
    game = engine.new_game("KL1-D1-AAAAA24")
    assert isinstance(game, KlondikeGame)
    piles = [["KS", "QH"], ["KH", "QC", "JD"], ["KD", "QS", "JH"], ["KC", "QD", "JS"], [], [], []]
    game.position = Position(
        [[card(c) for c in p] for p in piles], [1, 0, 0, 0, 0, 0, 0], [card("JC")], [], [10] * 4, 1
    )
    assert game.seen_state().unseen == (card("KS"), card("JC"))
    for _ in range(40):
        if game.is_won:
            break
        move = game.hint()
        assert move is not None
        game.play(move)
    assert game.is_won and game.hint() is None


def test_the_command_line_hint_plays_the_hint_player(capsys):
    assert main(["hint", "KL1-D3-AAAAA24", "s"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    game = game_at(860, 3, 0)
    game.play("s")
    assert err == "" and data["move"] in game.legal_moves() and data["winnable"] is None
