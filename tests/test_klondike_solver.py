"""The thoughtful-Klondike solver (issue 43 item 3): its wins replay under a simulator
written from the rules alone and under the engine, its verdicts agree with a plain
depth-first search on small positions, and its pieces (stock reach, safe moves home, the
transposition key, the dead-end test, the time limit) hold."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.__main__ import main
from engine.cards import parse_card
from engine.klondike import KlondikeGame
from engine.klondike.dead_ends import stuck
from engine.klondike.solver_state import RANK, RED, is_safe, key, reachable
from engine.klondike.solving import Layout, dealt, is_winnable, solve, state_of
from tests.klondike_brute import brute_winnable
from tests.klondike_sim import Table, dealt_layout, replay


@pytest.mark.parametrize("draw", [1, 3])
def test_every_win_found_replays_to_a_win_under_the_rules_and_the_engine(draw: int) -> None:
    wins = 0
    for deal in range(1, 16):
        layout = dealt(deal, draw)
        assert layout == dealt_layout(deal, draw)  # the engine deals as the rules' text says
        result = solve(layout, budget=3000)
        if result.winnable:
            wins += 1
            assert replay(layout, result.moves).won(), deal
            game = engine.replay(engine.code_for("klondike", deal, draw), result.moves)
            assert game.outcome is not None and game.outcome.won, deal
        else:
            assert result.moves == []
    assert wins >= 10  # about nine in ten deals are winnable at draw one, eight at three


def test_a_win_writes_every_stock_turn_and_redeal_out() -> None:
    layout = dealt(3, 3)
    moves = solve(layout, budget=3000).moves
    assert "s" in moves
    table = Table.of(layout)
    redeals = 0
    for move in moves:
        redeals += move == "s" and not table.stock
        table.play(move)
    assert table.won() and redeals >= 1


def small_layout(rng: random.Random, draw: int) -> Layout:
    """A random position with 6 to 10 cards out of the foundations, some face down, on at
    most two piles, often of one colour only (so that some are lost)."""
    found = [13, 13, 13, 13]
    out: list[int] = []
    suits = rng.choice([(0, 3), (1, 2), (0, 1, 2, 3)])  # one colour: fewer builds, more losses
    while len(out) < rng.randint(6, 10):
        suit = rng.choice(suits)
        if found[suit]:
            found[suit] -= 1
            out.append(suit * 13 + found[suit])
    rng.shuffle(out)
    piles: list[list[int]] = [[] for _ in range(7)]
    talon = out[: rng.randint(0, len(out) // 3)]
    for card in out[len(talon) :]:
        piles[rng.randrange(2)].append(card)
    down = tuple(rng.randint(len(p) - face_up_run(p), max(len(p) - 1, 0)) for p in piles)
    waste = rng.randint(0, len(talon))
    return Layout(
        tuple(map(tuple, piles)), down, tuple(talon[waste:]), tuple(talon[:waste]), tuple(found), draw
    )  # type: ignore[arg-type]


def face_up_run(pile: list[int]) -> int:
    """How many top cards of ``pile`` can be face up (a run down in alternating colours)."""
    if not pile:
        return 0
    n = 1
    while n < len(pile) and RANK[pile[-n - 1]] == RANK[pile[-n]] + 1 and RED[pile[-n - 1]] != RED[pile[-n]]:
        n += 1
    return n


@pytest.mark.slow
def test_verdicts_agree_with_a_plain_search_of_every_move() -> None:
    rng = random.Random(4300)
    verdicts = {"winnable": 0, "lost": 0}
    for case in range(100):  # 90 winnable, 10 lost (200 cases gave 186 and 14 for twice the time)
        layout = small_layout(rng, 1 + 2 * (case % 2))
        truth = brute_winnable(Table.of(layout), limit=30_000)
        if truth is None:
            continue
        result = solve(layout, budget=500_000)
        assert result.verdict == ("winnable" if truth else "lost"), layout
        verdicts[result.verdict] += 1
        if truth:
            assert replay(layout, result.moves).won()
    assert verdicts["winnable"] >= 75 and verdicts["lost"] >= 5, verdicts


def test_draw_three_reaches_every_third_card_then_after_a_redeal_from_the_start() -> None:
    # 7 talon cards, 2 in the waste: turns reach waste sizes 5 and 7; a redeal then 3, 6, 7.
    assert reachable(7, 2, 3) == [(2, 0), (5, 1), (7, 2), (3, 4), (6, 5)]
    assert reachable(7, 0, 3) == [(3, 1), (6, 2), (7, 3)]
    assert reachable(3, 3, 1) == [(3, 0), (1, 2), (2, 3)]
    assert reachable(0, 0, 3) == []


def test_a_card_goes_home_by_itself_only_when_no_card_can_need_it() -> None:
    two_hearts, five_hearts = 14, 17
    assert is_safe(two_hearts, (0, 1, 0, 0))
    assert not is_safe(two_hearts, (0, 0, 0, 0))  # its ace is not home
    assert is_safe(five_hearts, (4, 4, 3, 4))  # black fours home, the 3♦ home
    assert not is_safe(five_hearts, (3, 4, 3, 4))  # the 4♠ could still sit on it
    assert not is_safe(five_hearts, (4, 4, 2, 4))  # the 3♦ could sit on a black four on it


def test_the_key_ignores_the_piles_order_but_not_face_down_counts() -> None:
    layout = dealt(5, 3)
    state = state_of(layout)
    swapped = state._replace(piles=state.piles[::-1], down=state.down[::-1])
    assert key(swapped, 3) == key(state, 3)
    assert key(state._replace(down=(0, 0, 2, 3, 4, 5, 6)), 3) != key(state, 3)
    assert key(state._replace(pos=3), 3) != key(state, 3)
    assert key(state._replace(pos=3), 1) == key(state, 1)


def test_a_position_with_no_way_out_is_proven_lost() -> None:
    # Only spades out: the ace face down under the two, every other pile one spade, so
    # nothing goes home, no pile empties, and no king can come back from home.
    spades = list(range(13))  # A♠ .. K♠
    piles = ((spades[0], spades[1]), *((card,) for card in spades[2:8]))
    layout = Layout(piles, (1, 0, 0, 0, 0, 0, 0), tuple(spades[8:]), (), (0, 13, 13, 13), 3)
    result = solve(layout)
    assert result.verdict == "lost" and result.moves == []
    assert not is_winnable(layout)


def test_a_proven_deal_answers_winnable() -> None:
    assert is_winnable(dealt(2, 1), budget=1000)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"draw": 2}, "Klondike draws 1 or 3 cards, not 2"),
        ({"piles": ((1,),) * 6, "face_down": (0,) * 6}, "Klondike has 7 piles, not 6"),
        ({"stock": ()}, "a Klondike layout holds each of the 52 cards exactly once"),
    ],
)
def test_a_layout_that_is_not_a_deal_is_refused(change: dict[str, object], message: str) -> None:
    fields = {name: getattr(dealt(1, 1), name) for name in Layout.__slots__}
    with pytest.raises(ValueError, match=message):
        solve(Layout(**{**fields, **change}))  # type: ignore[arg-type]


def test_drawing_three_a_waste_card_is_not_sent_home_unasked() -> None:
    """Deal 20 drawing three is won only by leaving a safe card in the waste: taking it out
    regroups the later turns of three (the independent oracle's first catch). Sending it home
    as a forced move answered "lost"."""
    layout = dealt(20, 3)
    result = solve(layout, budget=40_000)
    assert result.verdict == "winnable"
    assert replay(layout, result.moves).won()


def test_a_card_that_can_never_leave_its_pile_proves_the_deal_lost_without_a_search() -> None:
    # The 5♥ lies on the 9♣ (no build), over the 6♠ and 6♣ it could go on and the 4♥ it
    # needs home first: it never leaves, so neither do the cards under it.
    pile = tuple(parse_card(t) for t in ["6S", "4H", "6C", "9C", "5H"])
    layout = with_first_pile(pile, down=4)
    assert stuck(state_of(layout).piles)
    result = solve(layout)
    assert (result.verdict, result.nodes, result.moves) == ("lost", 0, [])


def test_a_card_on_its_own_build_is_never_called_stuck() -> None:
    # The same cards but the 5♥ on the 6♣: it can leave with the 6♣ as one run.
    pile = tuple(parse_card(t) for t in ["6S", "4H", "9C", "6C", "5H"])
    assert not stuck(state_of(with_first_pile(pile, down=3)).piles)


def with_first_pile(pile: tuple[int, ...], down: int) -> Layout:
    """Deal 1 at draw 3 with ``pile`` as pile 1, its cards taken from wherever they were."""
    base = dealt(1, 3)
    others = tuple(tuple(c for c in p if c not in pile) for p in base.piles[1:])
    stock = tuple(c for c in base.stock if c not in pile) + tuple(c for c in base.piles[0] if c not in pile)
    downs = tuple(min(d, max(len(p) - 1, 0)) for d, p in zip(base.face_down[1:], others, strict=True))
    return Layout((pile, *others), (down, *downs), stock, (), (0, 0, 0, 0), 3)


def test_the_time_limit_stops_a_long_search_undecided() -> None:
    result = solve(dealt(1, 1), budget=10**9, time_limit=0.3)
    assert result.verdict == "unknown" and 0.3 <= result.seconds < 1.5


def test_the_game_solves_its_position_and_the_line_wins_it() -> None:
    code = engine.code_for("klondike", 3, 3)
    played = ["s", "s"]
    game = engine.replay(code, played)
    assert isinstance(game, KlondikeGame)
    result = game.solve(node_limit=5000)
    assert result.verdict == "winnable" and result.nodes <= 5000
    won = engine.replay(code, played + result.moves)
    assert won.outcome is not None and won.outcome.won


def test_python_m_engine_solve_prints_the_games_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = engine.code_for("klondike", 2, 1)
    assert main(["solve", code, "s", "--node-limit", "5000"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert (set(data), data["verdict"], err) == ({"verdict", "moves", "seconds"}, "solvable", "")
    won = engine.replay(code, ["s", *data["moves"]])
    assert won.outcome is not None and won.outcome.won
