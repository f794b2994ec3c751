"""Each game's bot-side knowledge lives in its front: nothing else in ``bot/`` names a game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine
from bot.games import front_by_letter, front_for, front_named, fronts, register
from bot.games.bakers import BakersFront
from bot.games.base import CONTROLS, Press
from bot.games.calculation import CalculationFront

BOT = Path(__file__).resolve().parent.parent / "bot"


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def test_no_module_outside_the_fronts_names_a_game_kind():
    kinds = {front.kind for front in fronts()} | {front.letter for front in fronts()}
    offenders = []
    for path in sorted(BOT.rglob("*.py")):
        if "games" in path.relative_to(BOT).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstring_nodes(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
                and (node.value in kinds or any(node.value.startswith(f"{k}.") for k in kinds if len(k) > 1))
            ):
                offenders.append(f"{path.relative_to(BOT)}:{node.lineno} {node.value!r}")
            if isinstance(node, ast.JoinedStr):  # f"game.{kind}": a catalogue key built from a kind
                for before, part in zip(node.values, node.values[1:], strict=False):
                    if (
                        isinstance(before, ast.Constant)
                        and str(before.value).endswith(".")
                        and isinstance(part, ast.FormattedValue)
                        and "kind" in ast.unparse(part.value)
                    ):
                        offenders.append(f"{path.relative_to(BOT)}:{node.lineno} {ast.unparse(node)}")
    assert offenders == []


def test_the_registry_finds_each_front_by_kind_letter_and_command():
    assert [f.kind for f in fronts()] == ["bakers", "calculation"]
    assert isinstance(front_for("bakers"), BakersFront)
    assert isinstance(front_by_letter("c"), CalculationFront)
    assert front_named("Boulanger") is front_for("bakers")
    assert front_named("calculation") is front_for("calculation")
    assert front_named("chess") is None
    for front in fronts():
        assert front.kind in engine.GAMES and len(front.letter) == 1


def test_a_front_needs_its_engine_game_and_a_free_letter():
    class Orphan(CalculationFront):
        kind = "orphan"

    with pytest.raises(ValueError, match="no engine game"):
        register(Orphan())

    class Clash(CalculationFront):
        letter = "b"

    with pytest.raises(ValueError, match="taken"):
        register(Clash())
    assert isinstance(front_for("calculation"), CalculationFront)


def test_shared_controls_mean_the_same_in_every_game():
    bakers = engine.new_game("BK1-C4-AAAAA24")
    calculation = engine.new_game("CA1-AAAAA24")
    for act, meaning in CONTROLS.items():
        assert BakersFront().press(bakers, "", act) == Press(meaning)
        assert CalculationFront().press(calculation, "", act) == Press(meaning)


def test_move_autocomplete_ranks_home_then_columns_then_empty_then_one_cell_per_source():
    from bot.languages.i18n import Translator

    game = engine.new_game("BK1-C4-AAAAA24")
    ranked = [n for n, _ in BakersFront().ranked_moves(Translator("en"), game)]
    assert ranked[0] == "6h"  # home first
    cells = [n for n in ranked if n[1] in "abcd"]
    assert len(cells) == len({n[0] for n in cells}) == 8  # one free-cell entry per column
    assert set(ranked) <= set(game.legal_moves()) and len(ranked) <= 25
    assert {n[0] for n in ranked} >= set("12345678")  # columns 7 and 8 are not crowded out
    first_cell = ranked.index(cells[0])
    assert all(n[1] not in "abcd" for n in ranked[:first_cell])
