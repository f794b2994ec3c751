"""Klondike's deal (version 1, KLONDIKE.md), its codes and its text forms.

The layouts are checked against a second, few-line implementation of SPEC §3's shuffle and
KLONDIKE.md's dealing, written here from the text and sharing no code with the engine.
"""

from __future__ import annotations

import pytest

import engine
from engine.klondike import KlondikeGame

M64 = (1 << 64) - 1

# KL1-D1-AAAAA24 (deal 860), as `python -m engine deal` prints it.
DEAL_860 = """\
Klondike KL1-D1-AAAAA24, draw 1
Foundations: S-0 H-0 D-0 C-0
Stock: (3C) (KS) (QD) (3H) (QS) (TC) (JH) (JC) (7C) (7S) (AH) (TS) (JS) (7H) (9S) (TD) (5D) (AD) (6H) (JD) (TH) (3S) (QH) (8S)
Waste: -
1: 4C
2: (6S) 5C
3: (7D) (2C) 2D
4: (KH) (6D) (4H) 4D
5: (2H) (6C) (8C) (2S) 9D
6: (4S) (3D) (AC) (QC) (AS) 8D
7: (KD) (5H) (5S) (KC) (9C) (9H) 8H
"""

SEEN_860 = """\
Klondike KL1-D3-AAAAA24, draw 3
Foundations: S-0 H-0 D-0 C-0
Stock: 24
Waste: -
1: 4C
2: ## 5C
3: ## ## 2D
4: ## ## ## 4D
5: ## ## ## ## 9D
6: ## ## ## ## ## 8D
7: ## ## ## ## ## ## 8H
"""


def independent_layout(deal: int) -> tuple[list[list[str]], list[str]]:
    """SPEC §3 steps 1-3 and KLONDIKE.md's rows, from their words."""
    state, deck = deal, list(range(52))
    for i in range(51, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        j = (z ^ (z >> 31)) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    text = ["A23456789TJQK"[c % 13] + "SHDC"[c // 13] for c in deck]
    piles: list[list[str]] = [[] for _ in range(7)]
    order = [p for row in range(7) for p in range(row, 7)]
    for k, p in enumerate(order):
        piles[p].append(text[k])
    return piles, text[28:]


def written(piles: list[list[str]], stock: list[str], code: str) -> str:
    lines = [f"Klondike {code}, draw {code[5]}", "Foundations: S-0 H-0 D-0 C-0"]
    lines.append("Stock: " + " ".join(f"({c})" for c in stock))
    lines.append("Waste: -")
    for p, pile in enumerate(piles):
        lines.append(f"{p + 1}: " + " ".join([f"({c})" for c in pile[:-1]] + [pile[-1]]))
    return "\n".join(lines) + "\n"


def test_deal_860_is_the_test_vector():
    assert engine.new_game("KL1-D1-AAAAA24").board_text() == DEAL_860
    assert written(*independent_layout(860), "KL1-D1-AAAAA24") == DEAL_860


@pytest.mark.parametrize("deal", [0, 1, 2, 31, 860, 123456789, 2**35 - 1])
@pytest.mark.parametrize("draw", [1, 3])
def test_deals_agree_with_an_independent_dealer(deal, draw):
    code = engine.code_for("klondike", deal, draw)
    assert engine.new_game(code).board_text() == written(*independent_layout(deal), code)


def test_a_deal_is_seven_piles_of_one_to_seven_with_24_in_the_stock():
    game = engine.new_game("KL1-D3-AAAAA24")
    assert isinstance(game, KlondikeGame)
    state = game.state()
    assert [len(p) for p in state.piles] == [1, 2, 3, 4, 5, 6, 7]
    assert state.face_down == (0, 1, 2, 3, 4, 5, 6)
    assert len(state.stock) == 24 and state.waste == () and state.foundations == (0, 0, 0, 0)
    assert state.draw == 3 and state.unseen == ()


def test_the_seen_text_hides_face_down_cards_and_the_stock():
    game = engine.new_game("KL1-D3-AAAAA24")
    assert isinstance(game, KlondikeGame)
    assert game.seen_text() == SEEN_860


@pytest.mark.parametrize(
    ("code", "deal", "draw"),
    [("KL1-D1-AAAAA24", 860, 1), (" kl1-d3-aaaaaab ", 1, 3), ("KL1-D3-7777777", 2**35 - 1, 3)],
)
def test_klondike_codes_parse_and_print(code, deal, draw):
    gc = engine.parse_code(code)
    assert (gc.kind, gc.version, gc.deal, gc.cells) == ("klondike", 1, deal, draw)
    assert str(gc) == code.strip().upper()
    assert engine.code_for("klondike", deal, draw) == code.strip().upper()


@pytest.mark.parametrize(
    ("code", "part", "message"),
    [
        ("KL1-D2-AAAAA24", "draw", "the draw part 'D2' must be D1 or D3"),
        ("KL1-C4-AAAAA24", "draw", "the draw part 'C4' must be D1 or D3"),
        ("KL1-D-AAAAA24", "draw", "the draw part 'D' must be D1 or D3"),
        ("KL1-AAAAA24", "length", "'KL1-AAAAA24' must have three parts, like KL1-D1-AAAAA24"),
        ("KL2-D1-AAAAA24", "version", "unknown version '2' in 'KL2-D1-AAAAA24': this bot knows version 1"),
        ("KL1-D1-AAAAA2!", "alphabet", "the deal part 'AAAAA2!' may only use A-Z and 2-7 (found '!')"),
    ],
)
def test_bad_klondike_codes_name_the_wrong_part(code, part, message):
    with pytest.raises(engine.CodeError) as info:
        engine.new_game(code)
    assert info.value.part == part and str(info.value) == message


def test_the_default_draw_is_one_and_other_draws_are_refused():
    assert engine.code_for("klondike", 860) == "KL1-D1-AAAAA24"
    with pytest.raises(ValueError, match="cards drawn must be 1 or 3, not 2"):
        engine.make_code("klondike", 860, 2)


def test_the_cell_games_codes_still_speak_of_free_cells():
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("BK1-C3-AAAAA24")
    assert (info.value.part, str(info.value)) == ("cells", "the free-cell part 'C3' must be C4, C2 or C1")
