"""Jeu du Boulanger move rules: same-suit building, cells, foundations, group moves."""

import pytest

import engine
from engine.bakers import BakersGame, parse_notation
from engine.bakers.boardtext import export_board
from engine.codes import parse_code
from tests.bakers_boards import build, cards


def game_at(pos, cells=4) -> BakersGame:
    game = BakersGame(parse_code(f"BK1-C{cells}-AAAAA24"))
    game.position = pos
    return game


def refused(game, move, reason):
    before = (game.board_text(), game.score, game.moves, game.undo_depth)
    with pytest.raises(engine.IllegalMove) as info:
        game.play(move)
    assert info.value.reason == reason, str(info.value)
    assert (game.board_text(), game.score, game.moves, game.undo_depth) == before
    return str(info.value)


def test_same_suit_one_higher_only():
    game = game_at(build({1: "8H", 2: "8D", 3: "7H", 4: "9H"}))
    msg = refused(game, "32", "no_fit")
    assert "7♥ cannot go on 8♦" in msg and "same suit" in msg
    refused(game, "34", "no_fit")
    game.play("31")
    assert game.position.cols[0] == cards("8H 7H")
    assert game.score == 0


def test_nothing_goes_on_an_ace():
    game = game_at(build({1: "AH", 2: "KS"}))
    assert "ace" in refused(game, "21", "no_fit")


def test_foundations_build_up_from_ace_and_are_final():
    game = game_at(build({1: "2S AS", 2: "3S"}))
    assert "needs A♠" in refused(game, "2h", "foundation_order")
    game.play("1h")
    game.play("1h")
    assert game.position.found[0] == 2 and game.score == 20
    refused(game, "h1", "foundation_final")
    game.play("2h")
    assert game.score == 30


def test_cells_hold_one_card_named_by_letter():
    game = game_at(build({1: "5C 4D", 2: "9S"}, held="KH"))
    assert "already holds K♥" in refused(game, "1a", "cell_full")
    game.play("1c")
    assert game.position.cells == [cards("KH")[0], -1, cards("4D")[0], -1]
    refused(game, "ca", "cell_to_cell")
    refused(game, "d1", "empty_source")


def test_cell_to_column_scores_five_and_column_to_cell_scores_nothing():
    game = game_at(build({1: "8S"}, held="7S"))
    game.play("a1")
    assert game.score == 5
    game.play("1a")
    assert game.score == 5
    game.play("a1")
    assert game.score == 10


def test_any_card_goes_on_an_empty_column():
    game = game_at(build({1: "4D 9C"}, empty=(8,)))
    game.play("18")
    assert game.position.cols[7] == cards("9C")


@pytest.mark.parametrize(
    "text", ["", "1", "x1", "19", "1hh", "h", "0a", "1 2", "12v", "12vz", "1e", "@@", "٣h", "1\x002"]
)
def test_malformed_notation(text):
    game = engine.new_game("BK1-C4-AAAAA24")
    with pytest.raises(engine.IllegalMove) as info:
        game.play(text)
    assert info.value.reason in {"malformed", "no_such_cell", "foundation_final", "bad_count"}
    assert game.moves == ()


def test_huge_and_odd_strings_change_nothing():
    game = engine.new_game("BK1-C4-AAAAA24")
    for text in ["1" * 10_000, "🂡🂢", "\n\t", "1a; DROP TABLE games"]:
        with pytest.raises(engine.IllegalMove):
            game.play(text)
    with pytest.raises(engine.IllegalMove):
        game.play(None)  # type: ignore[arg-type]
    assert game.moves == () and game.score == 0


def test_notation_is_case_and_space_insensitive_and_canonical_in_the_log():
    game = engine.new_game("BK1-C4-AAAAA24")
    game.play(" 6H ")
    game.play("1A")
    assert game.moves == ("6h", "1a")


def test_same_place_and_count_rules():
    game = engine.new_game("BK1-C4-AAAAA24")
    refused(game, "11", "same_place")
    refused(game, "a1v2", "bad_count")
    assert parse_notation("18V2", 4).count == 2


# -- group moves ----------------------------------------------------------------

SPADES_RUN = "QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"


def capacity_board(free: int, empty_cols: int, run: int, to_empty: bool):
    """Column 1: the ``run`` spades from rank ``run`` down to A♠; column 2 (unless the move
    goes to an empty column) ends with the spade one higher; ``empty_cols`` empty columns
    in all; ``4 - free`` cells held."""
    ranks = "A23456789TJQK"
    columns = {1: "KH " + " ".join(f"{ranks[r - 1]}S" for r in range(run, 0, -1))}
    if not to_empty:
        columns[2] = f"2H {ranks[run]}S"
    empty = tuple(range(8, 8 - empty_cols, -1))
    held = " ".join(["3H", "4H", "5H", "6H"][: 4 - free])
    return build(columns, held=held, empty=empty)


TABLE = {  # free cells: (to occupied with 0, 1, 2 empty), (to empty with 1, 2 empty in all)
    0: ((1, 2, 4), (1, 2)),
    1: ((2, 4, 8), (2, 4)),
    2: ((3, 6, 12), (3, 6)),
    3: ((4, 8, 16), (4, 8)),
    4: ((5, 10, 20), (5, 10)),
}
CASES = [(f, e, False, TABLE[f][0][e]) for f in range(5) for e in range(3)] + [
    (f, e, True, TABLE[f][1][e - 1]) for f in range(5) for e in (1, 2)
]


@pytest.mark.parametrize(("free", "empty", "to_empty", "expected"), CASES)
def test_capacity_table(free, empty, to_empty, expected):
    pos = capacity_board(free, empty, 1, to_empty)
    assert pos.free_cells() == free and pos.empty_columns() == empty
    assert pos.capacity(to_empty) == expected


@pytest.mark.parametrize(("free", "empty", "to_empty", "expected"), [c for c in CASES if c[3] <= 11])
def test_capacity_table_moves(free, empty, to_empty, expected):
    """Exactly ``expected`` cards move; one more is refused (where a run that long exists)."""
    for run, ok in ((expected, True), (expected + 1, False)):
        game = game_at(capacity_board(free, empty, run, to_empty))
        dest = 8 if to_empty else 2
        move = f"1{dest}v{run:x}" if to_empty else f"1{dest}"
        if ok:
            played = game.play(move)
            assert played.count == run
            assert game.position.cols[dest - 1][-run:] == cards(SPADES_RUN)[-run:]
            assert game.position.cols[0] == cards("KH")
        else:
            assert "at most" in refused(game, move, "too_many")


def test_into_empty_column_player_chooses_how_many():
    game = game_at(build({1: "KH 5S 4S 3S"}, empty=(7, 8)))
    assert game.position.most_to_empty(0) == 3
    full = game_at(build({1: "KH 5S 4S 3S"}, held="2H 3H 4H 5H", empty=(8,)))
    assert full.position.most_to_empty(0) == 1
    game.play("17v2")
    assert game.position.cols[6] == cards("4S 3S")
    game.undo()
    game.play("18")
    assert game.position.cols[7] == cards("3S")
    refused(game, "17v4", "run_too_short")


def test_group_move_onto_column_moves_the_run_that_fits():
    game = game_at(build({1: "KH 6C 5C 4C", 2: "7C", 4: "5D"}, held="2H 3H"))
    assert game.position.capacity(False) == 3
    played = game.play("12")
    assert played.count == 3 and game.position.cols[1] == cards("7C 6C 5C 4C")
    refused(game, "24", "no_fit")


def test_explicit_count_must_match_onto_occupied_column():
    game = game_at(build({1: "KH 6C 5C 4C", 2: "7C"}))
    refused(game, "12v2", "bad_count")
    assert game.play("12v3").count == 3
    assert game.moves == ("12",)


def test_descriptions_in_words():
    game = game_at(build({1: "KH 6C 5C 4C", 2: "7C", 3: "AD"}, held="8H"))
    assert game.describe("12") == "3 cards (6♣–4♣) from column 1 to column 2"
    assert game.describe("3h") == "A♦ from column 3 home"
    assert game.describe("1b") == "4♣ from column 1 to free cell b"
    with pytest.raises(engine.IllegalMove):
        game.describe("a2")


def test_legal_moves_are_exactly_the_playable_ones():
    game = engine.new_game("BK1-C2-AAAAA24")
    for move in ["6h", "1a", "1b", "7h"][:3]:
        game.play(move)
    legal = set(game.legal_moves())
    candidates = {a + b for a in "12345678ab" for b in "12345678abh"} | {
        f"{a}{b}v{n:x}" for a in "12345678" for b in "12345678" for n in range(2, 6)
    }
    for text in candidates:
        trial = engine.replay(game.code, game.moves)
        try:
            trial.play(text)
            playable = True
        except engine.IllegalMove:
            playable = False
        assert playable == (text in legal), text
    assert export_board(game.position) == game.board_text()
