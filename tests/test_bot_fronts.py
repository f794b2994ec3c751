"""Each game's knowledge lives with that game's modules: nothing else in ``bot/`` or ``renderer/``
names a game, its places, its options or its help.

A game's modules are its engine package, its board module (``renderer/games/``) and its
front (``bot/games/``). The checks below read every other module of ``bot/`` and
``renderer/`` and fail on: a game's kind, letter, name or code prefix in a string; a
regex or alphabet of a game's places (a character range such as ``a-d`` or ``1-8``, a
front's selection letters); a game's option counts as literals (``(4, 2, 1)``, ``cells
== 4``, a ``cells`` group in a custom-id template); help texts that list the games; an
import of one game's board module.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from bot.games import front_by_letter, front_for, front_named, fronts, register
from bot.games.bakers import BakersFront
from bot.games.base import CONTROLS, Press
from bot.games.calculation import CalculationFront

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bot"
RENDERER = ROOT / "renderer"


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


def _shared_modules(package: Path) -> Iterator[tuple[str, ast.AST, set[int]]]:
    """Every module of ``package`` outside its ``games/`` room: (name, tree, docstring ids)."""
    for path in sorted(package.rglob("*.py")):
        if "games" in path.relative_to(package).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        yield str(path.relative_to(ROOT)), tree, _docstring_nodes(tree)


def _strings(tree: ast.AST, docs: set[int]) -> Iterator[ast.Constant]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node


def _game_words() -> list[re.Pattern[str]]:
    """A game's kind as a word, its names and titles, its code prefix followed by a version."""
    out = []
    for front in fronts():
        game = engine.GAMES[front.kind]
        out.append(re.compile(rf"(?<![\w.]){re.escape(front.kind)}(?![\w])"))
        out += [re.compile(re.escape(name)) for name in {front.name, game.title}]
        out.append(re.compile(rf"\b{re.escape(game.code_prefix)}[0-9]"))
    return out


# A character range in a regex that is not a whole alphabet: a game's places (``[a-d]``,
# ``[1-8]``, ``[0-4]``); ``0-9``, ``a-z`` and ``A-Z`` are any digit or letter.
_PARTIAL_RANGE = re.compile(r"\[[^\]]*?(?:(?!0-9|a-z|A-Z)[0-9a-zA-Z]-[0-9a-zA-Z])[^\]]*\]")


def _place_alphabets() -> set[str]:
    """Each front's selection letters, whole and split into digits and letters."""
    out = set()
    for front in fronts():
        sel = front.selections
        out |= {sel, "".join(c for c in sel if c.isdigit()), "".join(c for c in sel if c.isalpha())}
    return {a for a in out if len(a) > 1}


def _option_literals(tree: ast.AST) -> Iterator[ast.AST]:
    """Option counts as literals: a tuple/list/set of a front's cell counts, a literal count
    compared with, passed as or given to something named ``cells``."""
    counts = {tuple(f.cell_choices) for f in fronts() if f.cell_choices}
    counts |= {tuple(f.stock_cells) for f in fronts() if f.stock_cells}

    def cells(node: ast.AST) -> bool:
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        return "cells" in name.lower()

    def count(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) and type(node.value) is int and node.value > 0

    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple | ast.List | ast.Set) and node.elts and all(map(count, node.elts)):
            if tuple(e.value for e in node.elts) in counts:  # type: ignore[attr-defined]
                yield node
        elif isinstance(node, ast.Compare) and any(map(cells, [node.left, *node.comparators])):
            if any(map(count, [node.left, *node.comparators])):
                yield node
        elif (isinstance(node, ast.keyword) and node.arg and "cells" in node.arg and count(node.value)) or (
            isinstance(node, ast.Assign) and any(map(cells, node.targets)) and count(node.value)
        ):
            yield node


def test_no_shared_module_of_the_bot_names_a_game_its_places_options_or_help():
    words = _game_words()
    alphabets = _place_alphabets()
    offenders = []
    for name, tree, docs in _shared_modules(BOT):
        for node in _strings(tree, docs):
            text = node.value
            where = f"{name}:{node.lineno} {text!r}"
            if any(w.search(text) for w in words):
                offenders.append(f"{where}: names a game (a help text?)")
            if _PARTIAL_RANGE.search(text) or text in alphabets:
                offenders.append(f"{where}: a game's places")
            if "(?P<cells>" in text:
                offenders.append(f"{where}: a cells slot in a custom id (the front's option token)")
        for node in _option_literals(tree):
            offenders.append(f"{name}:{node.lineno} {ast.unparse(node)}: a game's option counts")  # type: ignore[attr-defined]
    assert offenders == []


def test_no_shared_module_of_the_renderer_names_a_game():
    words = _game_words()
    boards = {path.stem for path in (RENDERER / "games").glob("*.py")} - {"__init__"}
    offenders = []
    for name, tree, docs in _shared_modules(RENDERER):
        for node in _strings(tree, docs):
            if any(w.search(node.value) for w in words):
                offenders.append(f"{name}:{node.lineno} {node.value!r}")
        for node in ast.walk(tree):
            modules = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            for module in modules:
                parts = module.split(".")
                if parts[:2] == ["renderer", "games"] and len(parts) > 2 and parts[2] in boards:
                    offenders.append(f"{name}:{node.lineno} imports {module}")
                if parts[0] == "renderer" and len(parts) == 2 and parts[1] in boards:
                    offenders.append(f"{name}:{node.lineno} imports {module}")
        for node in _option_literals(tree):
            offenders.append(f"{name}:{node.lineno} {ast.unparse(node)}")  # type: ignore[attr-defined]
    assert offenders == []


def test_the_guard_sees_what_it_is_for():
    """Each check fails on the case it names (so a passing guard means something)."""
    words = _game_words()
    for text in (
        "How to play Jeu du Boulanger or Calculation",
        "rules boulanger|calculation",
        "e.g. BK1-C4-AAAAA24",
        "bakers",
    ):
        assert any(w.search(text) for w in words), text
    for text in ("a boulanger bot", "bot.games.base", "calculations.py", "Boulanger console"):
        assert not any(w.search(text) for w in words), text
    for text in (r"(?P<sel>[0-9a-d]?)", r"free cell (?P<cell>[a-d])", r"column ([1-8])", r"(?P<cells>[0-4])"):
        assert _PARTIAL_RANGE.search(text), text
    for text in (r"g:(?P<gid>[0-9]+)", r"(?P<act>[a-z0-9]{1,2})", r"[A-Za-z0-9-]{1,64}", "[sg]?[awdx]"):
        assert not _PARTIAL_RANGE.search(text), text
    assert {"abcd", "12345678", "1234"} <= _place_alphabets()
    tree = ast.parse("choices = (4, 2, 1)\nif cells == 2: pass\nf(cells=4)\nrow.cells = 1\nx = (1, 2)")
    assert len(list(_option_literals(tree))) == 4


def test_the_registry_finds_each_front_by_kind_letter_and_command():
    assert [f.kind for f in fronts()] == ["bakers", "calculation", "freecell", "klondike"]
    assert isinstance(front_for("bakers"), BakersFront)
    assert front_by_letter("f") is front_for("freecell") is front_named("FreeCell")
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


def test_help_texts_name_no_game_and_the_console_help_is_assembled_from_the_fronts():
    """The shared commands' descriptions are the same whatever games are registered (a list of
    them outgrew Discord's 100 characters at the third game); the console's help is built
    from the fronts, games with the same buttons named together."""
    from bot.games import cell_options, cells_help, notation_help, rules_help
    from bot.play.console import help_text

    assert notation_help() == "Your move in the game's notation (e.g. 3h, a5, w1f4); start typing to pick one"
    assert rules_help() == "How to play each game: the goal, the layout and the moves"
    assert cells_help("race") == "Free cells, for a game played with them: 4 (default) or fewer, harder"
    assert cells_help("leaderboard") == "Free cells: the boards of games played with this many (default 4)"
    assert all(len(text) <= 100 for text in (notation_help(), rules_help(), cells_help("race")))
    assert cell_options() == (4, 3, 2, 1)
    lines = help_text().splitlines()
    assert (
        lines[1]
        == "  new boulanger [4|2|1] [CODE]   start Jeu du Boulanger (a winnable deal unless CODE is given)"
    )
    assert lines[2] == "  new calculation [CODE]         start Calculation"
    assert (
        lines[3] == "  new freecell [4|3|2|1] [CODE]  start FreeCell (a winnable deal unless CODE is given)"
    )
    assert lines[4] == "  new klondike [1|3] [CODE]      start Klondike"
    assert lines[5:7] == [
        "  daily boulanger|calculation|freecell|klondike",
        " " * 33 + "today's daily challenge",
    ]
    assert lines[9] == (
        "  move NOTATION [NOTATION …]     e.g. 3h, a5, 27, 18v2 / sf2, w3, w1f4 / s, w3, 35, hs3 (played in order)"
    )
    assert lines[10] == " " * 33 + "a move alone plays too: 3h is move 3h"
    assert lines[11:15] == [
        "  press BUTTON                   a board button: 1-8, a-d (a card's one-press move), home",
        "                                 (Boulanger, FreeCell); f1-f4, w1-w4, p1-p4 (Calculation); s",
        "                                 (stock), w (waste), 1-7, home (Klondike); undo, hint, clear,",
        "                                 end (every game; end only when no move is left)",
    ]
    assert lines[-5:-2] == [  # each game's own settings from its front (GameFront.settings)
        "  settings [lost_warning on|off] whether the board says when a deal can no longer be won",
        "  settings freecell.autoplay.on|freecell.autoplay.off",
        " " * 33 + "a game's own setting",
    ]
    assert (
        lines[-2]
        == "  rules boulanger|calculation|freecell|klondike | help | quit   (a leading / is fine: /rules, /help)"
    )
    assert lines[-1] == "  Ctrl-C cancels the line or the command running; Ctrl-D (or Ctrl-C twice) quits"
    assert len(lines) == 25
