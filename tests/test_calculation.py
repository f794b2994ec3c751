"""Calculation rules: dealing, codes, notation, moves, undo that never un-turns, outcome."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import engine
from engine.calculation import SEQUENCES, CalculationGame, deal_cards, next_rank
from engine.cards import card_text, parse_card, rank_of

VECTOR_STOCK = [
    "6S",
    "7D",
    "KH",
    "4S",
    "KD",
    "5C",
    "2C",
    "6D",
    "6C",
    "5H",
    "2D",
    "4H",
    "8C",
    "5S",
    "4D",
    "2S",
    "QC",
    "KC",
    "9D",
    "AS",
    "9C",
    "8D",
    "9H",
    "8H",
    "3C",
    "KS",
    "QD",
    "3H",
    "QS",
    "TC",
    "JH",
    "JC",
    "7C",
    "7S",
    "AH",
    "TS",
    "JS",
    "7H",
    "9S",
    "TD",
    "5D",
    "AD",
    "6H",
    "JD",
    "TH",
    "3S",
    "QH",
    "8S",
]


def new(code: str = "CA1-AAAAA24") -> CalculationGame:
    game = engine.new_game(code)
    assert isinstance(game, CalculationGame)
    return game


def ranks(text: str) -> tuple[int, ...]:
    return tuple(rank_of(parse_card(c + "S")) for c in text.split())


# -- dealing and codes ----------------------------------------------------------------
def test_spec_vector_ca1_aaaaa24():
    game = new()
    assert [card_text(f[0]) for f in game.foundations] == ["AC", "2H", "3D", "4C"]
    assert [card_text(c) for c in game.position.stock] == VECTOR_STOCK
    assert card_text(game.turned) == "6S"
    assert game.stock_count == 47
    assert game.waste == ((), (), (), ())
    assert game.score == 4


def test_every_deal_uses_52_distinct_cards_and_starts_a_2_3_4():
    for deal in (0, 1, 860, 2**35 - 1):
        starters, stock = deal_cards(deal)
        assert [rank_of(c) for c in starters] == [1, 2, 3, 4]
        assert sorted(starters + stock) == list(range(52))


def test_foundation_sequences_match_spec():
    assert SEQUENCES[0] == ranks("A 2 3 4 5 6 7 8 9 T J Q K")
    assert SEQUENCES[1] == ranks("2 4 6 8 T Q A 3 5 7 9 J K")
    assert SEQUENCES[2] == ranks("3 6 9 Q 2 5 8 J A 4 7 T K")
    assert SEQUENCES[3] == ranks("4 8 Q 3 7 J 2 6 T A 5 9 K")
    assert next_rank(13, 1) == 1 and next_rank(12, 2) == 1


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("XX1-AAAAA24", "game"),
        ("CA2-AAAAA24", "version"),
        ("CA1-AAAA24", "length"),
        ("CA1-C4-AAAAA24", "length"),
        ("CA1-AAAAA21", "alphabet"),
        ("CA1-AAAAA2!", "alphabet"),
    ],
)
def test_bad_codes_name_the_wrong_part(text, part):
    with pytest.raises(engine.CodeError) as err:
        engine.new_game(text)
    assert err.value.part == part


def test_code_input_is_case_insensitive_and_round_trips():
    game = new("  ca1-aaaaa24 ")
    assert game.code == "CA1-AAAAA24"
    assert game.kind == "calculation" and game.title == "Calculation"
    assert engine.code_for("calculation", 860) == "CA1-AAAAA24"


# -- moves and notation ----------------------------------------------------------------
def test_opening_legal_moves():
    # 6S fits foundation 3 (3 -> 6); it may also go on any waste pile
    assert new().legal_moves() == ["sf3", "sw1", "sw2", "sw3", "sw4"]


@pytest.mark.parametrize("text", ["sf3", "f3", " SF3 ", "s f3"])
def test_bare_and_full_notation_mean_the_turned_card(text):
    game = new()
    move = game.play(text)
    assert move.notation == "sf3"
    assert game.moves == ("sf3",)
    assert [card_text(c) for c in game.foundations[2]] == ["3D", "6S"]
    assert card_text(game.turned) == "7D"
    assert game.stock_count == 46
    assert game.score == 5
    assert game.needs(2) == 9 and game.step(2) == 3


def test_waste_to_foundation_and_last_move():
    game = new()
    game.play("w1")  # 6S on waste 1
    move = game.play("w1f3")
    assert (move.src_kind, move.src, move.dst_kind, move.dst) == ("w", 0, "f", 2)
    assert game.last_move is move and card_text(move.card) == "6S"
    assert game.waste[0] == () and game.score == 5


def test_describe_in_words():
    game = new()
    assert game.describe("f3") == "6♠ from the turned card to foundation 3 (+3)"
    assert game.describe("sw2") == "6♠ from the turned card to waste pile 2"
    game.play("w4")
    assert game.describe("w4f3") == "6♠ from waste pile 4 to foundation 3 (+3)"


@pytest.mark.parametrize(
    ("text", "reason", "params"),
    [
        ("sf1", "no_fit", {"card": "6♠", "foundation": 1, "needs": 2}),
        ("w1f3", "empty_pile", {"pile": 1}),
        ("w1w2", "waste_to_waste", {"src": 1, "dst": 2}),
        ("f3w1", "foundation_final", {}),
        ("sw5", "no_such_pile", {"number": 5}),
        ("f0", "no_such_foundation", {"number": 0}),
        ("ws", "to_stock", {}),
        ("hello", "malformed", {"text": "hello"}),
        ("s", "malformed", {"text": "s"}),
        ("sw1f2", "malformed", {"text": "sw1f2"}),
    ],
)
def test_illegal_moves_give_reason_and_change_nothing(text, reason, params):
    game = new()
    before = game.board_text()
    with pytest.raises(engine.IllegalMove) as err:
        game.play(text)
    assert err.value.reason == reason
    for key, value in params.items():
        assert err.value.params[key] == value
    assert game.board_text() == before and game.moves == ()


def test_foundation_complete_and_stock_empty_errors():
    game = _won_game()
    assert game.is_won and game.outcome.reason
    with pytest.raises(engine.IllegalMove) as err:
        game.play("sw1")
    assert err.value.reason == "game_over"
    pos = game.position
    with pytest.raises(engine.IllegalMove) as err:
        pos.resolve(engine.calculation.parse_notation("sw1"))
    assert err.value.reason == "stock_empty"
    pos.waste[0].append(parse_card("5H"))
    with pytest.raises(engine.IllegalMove) as err:
        pos.resolve(engine.calculation.parse_notation("w1f2"))
    assert err.value.reason == "foundation_complete" and err.value.params == {"foundation": 2}


# -- undo ---------------------------------------------------------------------------------
def test_undo_never_unturns_a_card():
    game = new()
    game.play("sw1")  # 6S placed, 7D turned: undoing would hide 7D again
    before = game.board_text()
    with pytest.raises(engine.IllegalMove) as err:
        game.undo()
    assert err.value.reason == "undo_would_unturn"
    assert err.value.params == {"move": "sw1"}
    assert game.board_text() == before and game.moves == ("sw1",) and game.move_count == 1


def test_undo_takes_back_waste_to_foundation_moves():
    game = new()
    game.play("sw1")
    game.play("w1f3")
    before_score = game.score
    game.undo()
    assert game.score == before_score - 1
    assert [card_text(c) for c in game.waste[0]] == ["6S"]
    assert game.moves == ("sw1", "w1f3", "undo") and game.move_count == 1
    with pytest.raises(engine.IllegalMove) as err:
        game.undo()  # the next record turned a card
    assert err.value.reason == "undo_would_unturn"


def test_undo_of_the_last_stock_card_is_allowed():
    game = _play_out(new("CA1-AAAAAAB"))
    last_s = max(i for i, m in enumerate(game.moves) if m.startswith("s"))
    game2 = engine.replay(game.code, game.moves[: last_s + 1])
    assert game2.turned is None
    game2.undo()  # placing the last card turned nothing new
    assert game2.turned is not None and game2.stock_count == 0


# -- outcome ------------------------------------------------------------------------------
def _play_out(game: CalculationGame) -> CalculationGame:
    """Play a game to its end with the first legal move each time (foundation moves first)."""
    while game.outcome is None:
        moves = game.legal_moves()
        home = [m for m in moves if "f" in m]
        game.play(home[0] if home else moves[-1])
    return game


def _won_game() -> CalculationGame:
    from engine.calculation.perfect import solve

    game = new("CA1-AAAAAAA")
    result = solve(game, time_limit=30)
    assert result.verdict == "winnable"
    game.replay(result.moves)
    return game


def test_lost_detection():
    game = _play_out(new("CA1-AAAAAAB"))
    assert game.is_lost and not game.is_won
    assert game.turned is None and game.stock_count == 0
    assert game.legal_moves() == []
    assert game.outcome.result == "lost"
    assert 4 <= game.score < 52


def test_won_detection():
    game = _won_game()
    assert game.score == 52 and game.is_won and not game.is_lost
    assert all(game.needs(i) is None for i in range(4))
    assert all(rank_of(f[-1]) == 13 for f in game.foundations)
    assert game.waste == ((), (), (), ()) and game.legal_moves() == []


# -- text forms --------------------------------------------------------------------------
def test_board_text_shows_what_players_see_and_never_the_stock_order():
    game = new()
    game.play("sw1")
    text = game.board_text()
    assert text.splitlines() == [
        "Calculation CA1-AAAAA24",
        "f1 +1: AC  (needs 2)",
        "f2 +2: 2H  (needs 4)",
        "f3 +3: 3D  (needs 6)",
        "f4 +4: 4C  (needs 8)",
        "w1: 6S",
        "w2:",
        "w3:",
        "w4:",
        "turned: 7D",
        "stock: 46",
    ]
    data = game.to_json()
    assert data["turned"] == "7D" and data["stock_count"] == 46 and data["needs"] == [2, 4, 6, 8]
    assert "KH" not in json.dumps(data)  # the next card stays hidden


def test_unseen_cards_are_the_stock_without_the_turned_card():
    game = new()
    unseen = game.unseen_cards()
    assert len(unseen) == 47 and game.turned not in unseen
    assert unseen == frozenset(game.position.stock[1:])


@pytest.mark.processes
def test_command_line_plays_calculation():
    out = subprocess.run(
        [sys.executable, "-m", "engine", "play", "CA1-AAAAA24", "f3", "w1"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert data["game"] == "calculation" and data["score"] == 5 and data["moves"] == 2
    assert data["waste"][0] == ["7D"]
