"""One legality source, checked both ways over thousands of reachable positions.

For each position (random deals, random legal play with undo, seeded so the run is
the same every time) every syntactically well-formed notation is tried: it is legal
(``is_legal``, in any case) exactly when ``play`` plays it, and then the move played
is listed by ``legal_moves`` under its canonical notation; every listed move plays as
itself. Taps and double taps agree with the same listing, and every refusal carries
one of the reasons the bot translates.
"""

from __future__ import annotations

import random
import time

import pytest

import engine
from engine.bakers import BakersGame
from engine.calculation import CalculationGame
from engine.freecell import FreeCellGame, registered

BAKERS_POSITIONS = 670  # per cell count: 2,010 in all
FREECELL_POSITIONS = 120  # per cell count: 480 in all
CALCULATION_POSITIONS = 2_100
BAKERS_REASONS = {
    "malformed",
    "no_such_cell",
    "foundation_final",
    "bad_count",
    "same_place",
    "cell_to_cell",
    "empty_source",
    "cell_full",
    "foundation_order",
    "no_fit",
    "run_too_short",
    "too_many",
}
# Its card-on-card refusal in its own words; "no_fit" stays for a run none of whose cards fits.
FREECELL_REASONS = BAKERS_REASONS | {"no_fit_colour"}
CALCULATION_REASONS = {
    "malformed",
    "foundation_final",
    "to_stock",
    "waste_to_waste",
    "stock_empty",
    "empty_pile",
    "foundation_complete",
    "no_fit",
}


def bakers_notations(cells: int) -> list[str]:
    """Every well-formed Jeu du Boulanger notation: any source, any destination (home
    too), and ``v`` counts 1-13 (hex) between columns."""
    places = [*"12345678", *"abcd"[:cells]]
    out = [a + b for a in places for b in [*places, "h"]]
    out += [f"{a}{b}v{n:x}" for a in "12345678" for b in "12345678" for n in range(1, 14)]
    return out


CALCULATION_NOTATIONS = [a + b for a in ["s", "w1", "w2", "w3", "w4"] for b in ["w1", "w2", "w3", "w4"]] + [
    a + f"f{i}" for a in ["s", "w1", "w2", "w3", "w4"] for i in range(1, 5)
]
CALCULATION_NOTATIONS += [f"f{i}" for i in range(1, 5)] + [f"w{i}" for i in range(1, 5)]


def check_position(game, trial, notations: list[str], reasons: set[str], rng: random.Random) -> int:
    """Both directions for one position; returns how many notations played. Moves are
    played on ``trial``, a game of the same kind given a copy of the position each time
    (an undo may not take a Calculation move back)."""
    listed = game.legal_moves()
    listed_set = set(listed)
    assert len(listed) == len(listed_set), "one listing per canonical notation"
    assert listed_set <= set(notations), "every listed move is well-formed notation"
    assert game.has_legal_move() == bool(listed)
    assert [m.notation for m in game.legal_move_objects()] == listed
    board = game.board_text()
    trial.position = game.position.copy()
    played = 0
    flip = rng.random() < 0.5  # which half of the notations is typed in capitals here
    for n, text in enumerate(notations):
        typed = text.upper() if (n % 2 == 0) == flip else text
        legal = game.is_legal(typed)
        try:
            move = trial.play(typed)
        except engine.IllegalMove as exc:
            assert not legal, f"{text}: is_legal but play refused ({exc.reason}: {exc})"
            assert exc.reason in reasons, f"{text}: unexpected reason {exc.reason}: {exc}"
            continue
        assert legal, f"{text} plays as {move.notation} but is_legal says no"
        assert move.notation in listed_set, f"{text} played {move.notation}, not listed in {listed}"
        assert trial.last_move == move
        assert game.resolve(typed) == move
        trial.position = game.position.copy()
        played += 1
    assert played >= len(listed)
    for text in listed:
        assert game.is_legal(text) and game.is_legal(text.upper())
        assert game.resolve(text.upper()).notation == text
        assert trial.play(text).notation == text
        trial.position = game.position.copy()
    assert game.board_text() == board
    return played


def trial_for(game):
    trial = engine.new_game(game.code)
    if isinstance(trial, FreeCellGame):
        trial.autoplay = False  # the move generator alone: auto-play is checked in test_freecell
    return trial


def check_taps(game: BakersGame) -> None:
    listed = {m.notation: m for m in game.legal_move_objects()}
    for place in game.places():
        assert game.is_empty(place) == (game.top_card(place) is None)
        try:
            target = game.double_tap_target(place.upper())
        except engine.IllegalMove as exc:
            if exc.reason == "empty_source":
                assert game.is_empty(place)
            else:
                assert exc.reason == "nowhere_to_go"
                lone = place.isdigit() and len(game.position.cols[int(place) - 1]) == 1
                for m in listed.values():
                    if m.notation.startswith(place):
                        assert m.count > 1 or (lone and m.to_empty), m.notation
        else:
            assert target in listed and listed[target].count == 1
            assert target.startswith(place)
        home = place + "h"
        if home in listed:
            assert game.tap(place).notation == home
            game.undo()
        else:
            with pytest.raises(engine.IllegalMove):
                game.tap(place)


def walk(game, rng: random.Random, steps: int) -> None:
    """Random play from where ``game`` stands: mostly purposeful, sometimes an undo."""
    for _ in range(steps):
        legal = game.legal_moves()
        if game.undo_depth and (not legal or rng.random() < 0.12):
            try:
                game.undo()
            except engine.IllegalMove as exc:
                assert exc.reason == "undo_would_unturn"
            else:
                continue
        if not legal:
            return
        home = [m for m in legal if m.endswith("h") or "f" in m]
        pool = home if home and rng.random() < 0.7 else legal
        game.play(rng.choice(pool))


@pytest.mark.slow
@pytest.mark.parametrize("cells", [4, 3, 2, 1])
def test_freecell_legality_both_ways(cells):
    """FreeCell shares Jeu du Boulanger's layout, notation and refusals (``engine.tableau``)
    with its own build rule: the same checks, the same reasons (its build refusal named apart,
    ``no_fit_colour``, for its own words)."""
    rng = random.Random(22_000 + cells)
    notations = bakers_notations(cells)
    checked = played = 0
    with registered():
        while checked < FREECELL_POSITIONS:
            game = engine.new_game(f"FC1-C{cells}-MS{rng.randint(1, 1_000_000)}")
            assert isinstance(game, FreeCellGame)
            game.autoplay = False
            walk(game, rng, rng.randrange(0, 40))
            trial = trial_for(game)
            for _ in range(12):
                played += check_position(game, trial, notations, FREECELL_REASONS, rng)
                check_taps(game)
                checked += 1
                if game.is_over:
                    assert not game.legal_moves()
                    break
                walk(game, rng, rng.randrange(1, 12))
    assert checked >= FREECELL_POSITIONS and played > checked


@pytest.mark.slow
@pytest.mark.parametrize("cells", [4, 2, 1])
def test_bakers_legality_both_ways(cells):
    rng = random.Random(12_000 + cells)
    notations = bakers_notations(cells)
    checked = played = 0
    started = time.perf_counter()
    while checked < BAKERS_POSITIONS:
        game = engine.new_game(engine.code_for("bakers", rng.randrange(2**35), cells))
        assert isinstance(game, BakersGame)
        walk(game, rng, rng.randrange(0, 40))
        trial = trial_for(game)
        for _ in range(12):
            played += check_position(game, trial, notations, BAKERS_REASONS, rng)
            check_taps(game)
            checked += 1
            if game.is_over:
                assert not game.legal_moves()
                break
            walk(game, rng, rng.randrange(1, 12))
    print(f"{cells} cells: {checked} positions, {played} plays, {time.perf_counter() - started:.1f} s")
    assert checked >= BAKERS_POSITIONS and played > checked


@pytest.mark.slow
def test_calculation_legality_both_ways():
    rng = random.Random(12_100)
    checked = played = 0
    started = time.perf_counter()
    while checked < CALCULATION_POSITIONS:
        game = engine.new_game(engine.code_for("calculation", rng.randrange(2**35)))
        assert isinstance(game, CalculationGame)
        trial = trial_for(game)
        while True:
            played += check_position(game, trial, CALCULATION_NOTATIONS, CALCULATION_REASONS, rng)
            checked += 1
            if game.is_over:
                assert not game.legal_moves() and not game.has_legal_move()
                assert not game.position.has_foundation_move()
                break
            if game.turned is None:
                assert game.position.has_foundation_move()
            walk(game, rng, rng.randrange(1, 4))
    print(f"calculation: {checked} positions, {played} plays, {time.perf_counter() - started:.1f} s")
    assert checked >= CALCULATION_POSITIONS and played > checked
