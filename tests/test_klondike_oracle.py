"""The independent Klondike oracle (tests/klondike_oracle/) checked on its own: its dealer
against SPEC §3's shuffle, its simulator move by move, its search on hand-built positions whose
verdict is plain, and on real deals for each draw (every "winnable" line replayed)."""

from __future__ import annotations

import pytest

from tests.klondike_oracle import IllegalMove, Position, Table, Verdict, deal, oracle_solve, replay, run
from tests.klondike_oracle.dealing import shuffle
from tests.klondike_oracle.layout import card, text
from tests.klondike_oracle.solver import compiler_missing
from tests.test_bakers_deal import DEAL_860  # SPEC §3's vector: shuffled card k on column k mod 8

needs_compiler = pytest.mark.skipif(compiler_missing(), reason="g++ is not installed (the oracle is C++)")


def cards(words: str) -> tuple[int, ...]:
    return tuple(card(w) for w in words.split())


def position(
    piles: list[str], down: list[int], stock: str = "", waste: str = "", home=(0, 0, 0, 0)
) -> Position:
    return Position(tuple(cards(p) for p in piles), tuple(down), cards(stock), cards(waste), home)


def test_the_shuffle_is_spec_sections_three():
    deck = shuffle(860)
    columns = [" ".join(text(c) for c in deck[k::8]) for k in range(8)]
    assert "\n".join(columns) == DEAL_860


def test_a_deal_is_dealt_row_by_row_with_the_stock_after():
    deck, dealt = shuffle(860), deal(860)
    assert [len(p) for p in dealt.piles] == [1, 2, 3, 4, 5, 6, 7]
    assert dealt.face_down == (0, 1, 2, 3, 4, 5, 6)
    assert dealt.piles[0] == (deck[0],)
    assert dealt.piles[6] == (deck[6], deck[12], deck[17], deck[21], deck[24], deck[26], deck[27])
    assert dealt.stock == tuple(deck[28:])
    assert (dealt.waste, dealt.foundations) == ((), (0, 0, 0, 0))
    dealt.check()


# -- the simulator --------------------------------------------------------------------------

# Every spade, heart and diamond home but the kings; clubs up to the nine; the kings and the
# top clubs spread so that each move below has one meaning.
ENDGAME = position(
    ["KS", "KH QC", "KD", "JC", "TC", "", ""], [0, 1, 0, 0, 0, 0, 0], stock="KC", home=(12, 12, 12, 9)
)


def test_moves_play_and_an_illegal_one_is_refused():
    table = Table(ENDGAME, draw=1)
    for move in ("5h", "4h", "2h"):
        table.play(move)
    assert table.down[1] == 0 and table.piles[1] == [card("KH")]  # KH turned up when uncovered
    with pytest.raises(IllegalMove):
        table.play("wh")  # the waste is empty
    table.play("S")
    table.play("wH")
    assert not table.won()
    for move in ("1h", "2h", "3h"):
        table.play(move)
    assert table.won()


def test_only_a_king_goes_to_an_empty_pile_and_a_foundation_card_comes_back():
    table = Table(ENDGAME, draw=1)
    with pytest.raises(IllegalMove):
        table.play("56")  # TC to an empty pile
    table.play("36")  # KD to an empty pile
    table.play("hd1")  # QD back from its foundation onto KS
    assert table.piles[2] == [] and table.piles[5] == [card("KD")]
    assert table.piles[0] == list(cards("KS QD")) and table.home[2] == 11
    with pytest.raises(IllegalMove):
        table.play("hs5")  # QS does not go on TC
    table.play("41")
    table.play("17")  # the whole run, headed by its king
    assert table.piles[0] == [] and table.piles[6] == list(cards("KS QD JC"))


def test_draw_three_turns_three_fewer_at_the_end_and_the_waste_turns_back_in_order():
    stock = "7C 8C 9C TC JC"
    start = position(
        ["KS", "KH", "KD", "KC QC", "", "", ""], [0, 0, 0, 1, 0, 0, 0], stock=stock, home=(12, 12, 12, 6)
    )
    table = Table(start, draw=3)
    table.play("s")
    assert table.waste == list(cards("7C 8C 9C")) and table.stock == list(cards("TC JC"))
    table.play("s")
    assert table.waste == list(cards(stock)) and table.stock == []
    table.play("s")
    assert table.waste == [] and table.stock == list(cards(stock))
    with pytest.raises(IllegalMove):
        table.play("wh")


def test_replay_says_whether_a_line_wins():
    assert replay(ENDGAME, 1, "5h 4h 2h s wh 1h 2h 3h")
    assert not replay(ENDGAME, 1, "5h 4h")
    with pytest.raises(IllegalMove):
        replay(ENDGAME, 1, "1h 1h")


def test_a_position_that_no_play_reaches_is_refused():
    with pytest.raises(ValueError, match="exactly once"):
        position(["KS", "KS", "KD", "JC", "TC", "", ""], [0] * 7, stock="KC", home=(12, 12, 12, 9)).check()
    with pytest.raises(ValueError, match="do not build"):
        position(
            ["KS", "KH QC", "KD", "TC JC", "", "", ""],
            [0, 1, 0, 0, 0, 0, 0],
            stock="KC",
            home=(12, 12, 12, 9),
        ).check()


# -- the search -------------------------------------------------------------------------------

# Spades and clubs home to the eight; 9S 9C TC in the stock, the other black cards blocking
# every pile: draw one reaches the nines, draw three shows only TC, which plays nowhere.
NINES = position(["KS", "KC", "QS", "QC", "JS", "JC", "TS"], [0] * 7, stock="9C 9S TC", home=(8, 13, 13, 8))

# Spades alone out, the ace face down under the king and nothing able to move.
BURIED_ACE = position(
    ["AS KS", "2S QS", "3S JS", "4S TS", "5S 9S", "6S 8S", "7S"], [1, 1, 1, 1, 1, 1, 0], home=(0, 13, 13, 13)
)


# 3C lies face down under 4C, which only a red five could take: both are home, so a card must
# come back from a foundation (5H onto 6C, or a longer chain off the full foundations).
BACK_FROM_HOME = position(
    ["3C 4C", "6C", "5C KH", "KC QC JC TC 9C 8C 7C", "QH JH TH 9H 8H 7H 6H", "", ""],
    [1, 0, 1, 6, 6, 0, 0],
    home=(13, 5, 13, 2),
)


@pytest.mark.processes
@needs_compiler
def test_a_win_that_needs_a_card_back_from_its_foundation_is_found():
    result = run(BACK_FROM_HOME, 1, 100_000)
    assert result.verdict == "winnable"
    assert any(move.startswith("h") for move in result.line.split())
    assert replay(BACK_FROM_HOME, 1, result.line)


@pytest.mark.processes
@needs_compiler
def test_a_won_position_is_winnable_with_a_line_that_wins():
    verdict, line = oracle_solve(
        ENDGAME.piles, ENDGAME.face_down, ENDGAME.stock, (), ENDGAME.foundations, 1, 1000
    )
    assert verdict == "winnable"
    assert replay(ENDGAME, 1, line)


@pytest.mark.processes
@needs_compiler
def test_a_king_over_its_own_ace_with_no_way_out_is_lost():
    for draw in (1, 3):
        assert run(BURIED_ACE, draw, 1000).verdict == "lost"


@pytest.mark.processes
@needs_compiler
def test_draw_three_cannot_reach_a_card_that_draw_one_can():
    one, three = run(NINES, 1, 1000), run(NINES, 3, 1000)
    assert one.verdict == "winnable" and replay(NINES, 1, one.line)
    assert one.line.split()[:2] == ["s", "wh"]
    assert three.verdict == "lost"
    waiting = position(
        [text(c) for p in NINES.piles for c in p], [0] * 7, stock="TC", waste="9C 9S", home=(8, 13, 13, 8)
    )
    assert run(waiting, 3, 1000).verdict == "winnable"  # the nines already turned: 9S home, then 9C


@pytest.mark.processes
@needs_compiler
def test_a_spent_budget_is_unknown():
    assert run(deal(0), 1, 50).verdict == "unknown"


DEALS = 25  # deals 0-24: both kinds of verdict at each draw (deal 2: won drawing one, lost drawing three);
# the unknowns spend the whole budget (half a second of CPU each), so 50 deals cost twice as much
BUDGET = 200_000


def verdicts(draw: int) -> dict[int, Verdict]:
    """The oracle's answers on deals 0..DEALS-1, each winning line replayed to a win."""
    found = {}
    for number in range(DEALS):
        dealt = deal(number)
        found[number] = result = run(dealt, draw, BUDGET)
        if result.verdict == "winnable":
            assert replay(dealt, draw, result.line), (
                f"deal {number}, draw {draw}: the oracle's line does not win"
            )
    return found


@pytest.mark.slow
@pytest.mark.processes
@needs_compiler
def test_real_deals_are_mostly_decided_and_draw_one_wins_whatever_draw_three_wins():
    """Drawing one reaches every card drawing three reaches, in the same order: a deal won with
    three is won with one. Most deals are decided within the budget (measured: draw one 19 won,
    1 lost, 5 unknown; draw three 17 won, 3 lost, 5 unknown)."""
    by_draw = {draw: verdicts(draw) for draw in (1, 3)}
    for draw, found in by_draw.items():
        said = [result.verdict for result in found.values()]
        counts = {v: said.count(v) for v in ("winnable", "lost", "unknown")}
        cpu = sum(result.cpu for result in found.values())
        print(f"draw {draw}, {DEALS} deals, budget {BUDGET:,}: {counts}, {cpu:.1f} s of search CPU")
        assert counts["winnable"] >= DEALS * 0.5 and counts["unknown"] <= DEALS * 0.3, counts
    both = [
        n for n in range(DEALS) if by_draw[3][n].verdict == "winnable" and by_draw[1][n].verdict == "lost"
    ]
    assert not both, f"deals won drawing three but lost drawing one: {both}"
