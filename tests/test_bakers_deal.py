"""Dealing version 1: SPEC's test vectors, column sizes, cells that exist."""

import pytest

import engine
from engine.bakers import export_board, import_board
from engine.dealing import shuffled_deck, splitmix64

DEAL_860 = """\
4C 2C AC 9C QS JS TH
6S 6D 5S 8D TC 7H 3S
7D 6C 4D 9H JH 9S QH
KH 3D 2S 8H JC TD 8S
2H 5H QC 3C 7C 5D
4S 2D KC KS 7S AD
KD 4H 9D QD AH 6H
5C 8C AS 3H TS JD"""

DEAL_0 = """\
8C 3H 5D 5H 3C 9C 6H
JD AS 2S 8D 4H 7H 4D
9S JS 3D 8H 2D JC KS
2C 7S 5S AH 9H 6D TD
2H 9D AD QD 3S KC
QH 8S 6S TC KH 4S
6C QC 4C QS AC 7D
TS KD TH JH 7C 5C"""


def columns(game) -> str:
    return "\n".join(line[2:] for line in game.board_text().splitlines()[2:])


@pytest.mark.parametrize(("code", "expected"), [("BK1-C4-AAAAA24", DEAL_860), ("BK1-C4-AAAAAAA", DEAL_0)])
def test_spec_vectors(code, expected):
    assert columns(engine.new_game(code)) == expected


def test_same_deal_whatever_the_cell_count():
    boards = {c: columns(engine.new_game(f"BK1-C{c}-AAAAA24")) for c in (4, 2, 1)}
    assert boards[4] == boards[2] == boards[1] == DEAL_860


def test_splitmix64_reference_output():
    # Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    rng = splitmix64(0)
    assert next(rng) == 0xE220A8397B1DCDAF
    assert next(rng) == 0x6E789E6AA1B965F4


def test_every_deal_is_a_permutation_with_7_7_7_7_6_6_6_6():
    for deal in (0, 1, 2, 860, 2**35 - 1):
        assert sorted(shuffled_deck(deal)) == list(range(52))
        game = engine.new_game(engine.code_for("bakers", deal, 4))
        assert [len(c) for c in game.position.cols] == [7, 7, 7, 7, 6, 6, 6, 6]


@pytest.mark.parametrize("cells", [4, 2, 1])
def test_only_cells_in_play_exist(cells):
    game = engine.new_game(f"BK1-C{cells}-AAAAA24")
    assert len(game.position.cells) == cells
    assert game.board_text().splitlines()[1] == "Freecells: " + " ".join(["-"] * cells)
    letters = "abcd"
    for letter in letters[cells:]:
        with pytest.raises(engine.IllegalMove) as info:
            game.play(f"1{letter}")
        assert info.value.reason == "no_such_cell"
    assert not any(m.endswith(tuple(letters[cells:])) for m in game.legal_moves())


def test_board_text_round_trip_and_tens():
    game = engine.new_game("BK1-C2-AAAAA24")
    for move in ["6h", "1a", "1b"]:
        game.play(move)
    text = game.board_text()
    pos = import_board(text)
    assert pos == game.position
    assert export_board(pos) == text
    tens = text.replace("T", "10").replace("Foundations: S-0 H-0 D-A C-0", "Foundations: D-A")
    assert import_board(tens, cells=2) == game.position


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("4C 2C\nXX 3H", "board_card"),
        ("\n".join(["AS"] * 9), "board_columns"),
        ("AS 2S", "board_cards"),
        ("Foundations: S-Z\n" + DEAL_860, "board_foundation"),
        ("Freecells: AS 2S 3S 4S 5S\n" + DEAL_860, "board_cells"),
    ],
)
def test_bad_board_text_is_refused(text, reason):
    with pytest.raises(engine.BoardTextError) as info:
        import_board(text)
    assert info.value.reason == reason
