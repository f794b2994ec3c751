"""A lost position in words that say what is true: "this deal cannot be won" of a deal that
never could be, "can no longer be won" only of one that could; a bare deal number where a code
is expected gets the code it probably meant."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bot.games.base import Advice
from bot.games.tableau import deal_winnable, reaches_start, tableau_hint
from bot.languages.i18n import Translator
from bot.languages.language import LANGUAGES
from bot.play.describe import hint_text

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("code", "moves"),
    [
        ("FC1-C4-MS11982", ()),
        ("FC1-C2-MS1", ()),
        ("FC1-C4-MS11982", ("1a",)),
        ("FC1-C2-MS1", ("1a", "undo", "2a")),
    ],
)
def test_a_deal_lost_from_its_start_is_said_so(code, moves):
    advice = tableau_hint(code, moves, 60.0)
    assert advice == Advice("lost", deal_winnable=False)
    text = hint_text(Translator("en"), engine.replay(code, moves), advice)
    assert text.startswith("This deal cannot be won, not even from its start: no move of yours lost it.")


def test_whether_the_start_could_be_won_is_solved_when_the_undos_do_not_reach_it():
    from engine.solver import Hint, SolveResult, solve_code

    solved = solve_code("BK1-C4-AAAAA24", (), 60.0)
    assert isinstance(solved, SolveResult)
    line = tuple(solved.moves)[: engine.UNDO_LIMIT + 5]
    assert len(line) > engine.UNDO_LIMIT and not reaches_start("BK1-C4-AAAAA24", line)
    assert reaches_start("FC1-C4-MS11982", ("1a", "undo", "2a")) and reaches_start("FC1-C4-MS1", ())
    # Every position the hint's search back reached was lost, but that search did not reach the
    # deal's start: the start is solved, not taken for lost.
    assert deal_winnable("BK1-C4-AAAAA24", line, Hint("lost", exhausted=True), 60.0, None) is True
    assert (
        deal_winnable("FC1-C4-MS11982", ("1a",), Hint("lost", exhausted=True), 0.0, None) is False
    )  # proven
    assert deal_winnable("FC1-C4-MS11982", ("1a",), Hint("lost"), 60.0, None) is False
    assert deal_winnable("FC1-C4-MS1", ("1a",), Hint("lost"), 60.0, None) is True
    assert deal_winnable("FC1-C4-MS1", ("1a",), Hint("lost"), 0.0, None) is None  # no time left


def test_each_lost_hint_says_what_is_known_in_every_language():
    game = engine.new_game("FC1-C4-MS1")
    cases = {
        "deal": Advice("lost", deal_winnable=False),
        "no_longer": Advice("lost", deal_winnable=True),
        "unknown": Advice("lost"),
        "undo": Advice("lost", undos=2, deal_winnable=True),
    }
    en = {name: hint_text(Translator("en"), game, advice) for name, advice in cases.items()}
    assert en == {
        "deal": "This deal cannot be won, not even from its start: no move of yours lost it. "
        "Consider /resign and a new deal.",
        "no_longer": "This position can no longer be won, and no earlier position within reach of "
        "undo could be proven winnable. Consider /resign and a new deal.",
        "unknown": "This position cannot be won, and no earlier position within reach of undo could "
        "be proven winnable. Consider /resign and a new deal.",
        "undo": "This position can no longer be won. Undo 2 moves to get back to one that can.",
    }
    for language in LANGUAGES:
        words = {name: hint_text(Translator(language), game, advice) for name, advice in cases.items()}
        assert len(set(words.values())) == 4, language  # four different things said
        if language != "en":
            assert not set(words.values()) & set(en.values()), language  # translated


def test_a_bare_deal_number_gets_the_code_it_probably_meant():
    with pytest.raises(engine.CodeError) as refused:
        engine.parse_code("11982")
    assert str(refused.value) == (
        "'11982' is not a game code: it must start with BK (Jeu du Boulanger), CA (Calculation), "
        "FC (FreeCell) or KL (Klondike); FreeCell's deal 11982 is FC1-C4-MS11982"
    )
    assert refused.value.reason == "code_game"  # the bot's words for it are unchanged
    with pytest.raises(engine.CodeError, match=r"FreeCell's deal 7 is FC1-C4-MS7$"):
        engine.parse_code(" #7 ")
    for text in ("0", "1000001", "12x", "BX1"):  # no deal of any game: nothing suggested
        with pytest.raises(engine.CodeError) as refused:
            engine.parse_code(text)
        assert "deal" not in str(refused.value)
    with pytest.raises(engine.CodeError) as refused:  # the game was named: its own words only
        engine.parse_code("3", kind="bakers")
    assert "FreeCell" in str(refused.value) and "MS3" not in str(refused.value)


@pytest.mark.processes
def test_the_command_line_suggests_the_code_for_a_bare_number():
    for command in ("deal", "solve", "hint", "play"):
        done = subprocess.run(
            [sys.executable, "-m", "engine", command, "11982"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip().endswith("FreeCell's deal 11982 is FC1-C4-MS11982"), done.stderr


def test_a_wrong_cell_count_in_a_code_names_the_counts():
    with pytest.raises(engine.CodeError, match=r"the free-cell part 'C3' must be C4, C2 or C1"):
        engine.parse_code("BK1-C3-AAAAA24")
    with pytest.raises(engine.CodeError, match=r"the free-cell part 'C5' must be C4, C3, C2 or C1"):
        engine.parse_code("FC1-C5-MS1")
    with pytest.raises(engine.CodeError, match=r"'C5' must be C4, C3, C2 or C1"):
        engine.parse_code("11982", kind="freecell", cells=5)


def test_a_count_a_game_does_not_offer_is_refused_with_that_games_counts():
    from bot.games import front_for, fronts
    from bot.languages.i18n import catalog_keys
    from bot.play.feedback import UserFeedback

    for kind, cells, text in [
        ("bakers", 3, "Jeu du Boulanger is played with 4, 2 or 1 free cells."),
        ("freecell", 5, "FreeCell is played with 4, 3, 2 or 1 free cells."),
    ]:
        with pytest.raises(UserFeedback) as refused:
            front_for(kind).check_cells(cells)
        assert refused.value.text("en") == text
    for front in fronts():  # every game says its own counts (or that it has none), in every language
        assert all(front.key("error.bad_cells") in catalog_keys(language) for language in LANGUAGES)
        assert all(str(n) in Translator("nl")(front.key("error.bad_cells")) for n in front.cell_choices)
