"""The solver is a library over a game's rules (issue 41, item 2): ``engine/solver/`` imports no
game package and names no game's classes; a game hands it its ``Rules`` through its position
class, and both of the project's eight-column games do."""

from __future__ import annotations

import ast
from pathlib import Path

import engine
from engine.bakers.position import Position
from engine.freecell.position import FreeCellPosition
from engine.solver.rules import Rules, rules_of
from engine.tableau.position import TableauPosition

SOLVER = Path(__file__).resolve().parent.parent / "engine" / "solver"


def game_packages() -> set[str]:
    """Each registered game's package (``engine.bakers``, ``engine.freecell``, ...)."""
    return {".".join(engine.GAMES[kind].__module__.split(".")[:2]) for kind in list(engine.GAMES)}


def imports(tree: ast.AST) -> set[str]:
    """Every module an import anywhere in ``tree`` names (functions and ``TYPE_CHECKING`` too)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return found


def test_the_solver_imports_no_game_package_and_names_no_game_class():
    packages = game_packages()
    assert {"engine.bakers", "engine.freecell", "engine.calculation"} <= packages
    classes = {engine.GAMES[kind].__name__ for kind in list(engine.GAMES)}
    offenders = []
    for path in sorted(SOLVER.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in sorted(imports(tree)):
            if any(name == p or name.startswith(p + ".") for p in packages):
                offenders.append(f"{path.name} imports {name}")
        for node in ast.walk(tree):
            word = (
                node.id
                if isinstance(node, ast.Name)
                else node.attr
                if isinstance(node, ast.Attribute)
                else ""
            )
            if any(word.startswith(c.removesuffix("Game")) for c in classes):
                offenders.append(f"{path.name} names {word}")
    assert offenders == [], offenders


def test_the_reader_sees_imports_inside_functions_and_type_checking_blocks():
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from engine.freecell.position import FreeCellPosition\n"
        "def late():\n    import engine.bakers.solving\n"
    )
    assert {"engine.freecell.position", "engine.bakers.solving"} <= imports(tree)


def test_each_eight_column_game_hands_the_solver_its_rules():
    """Jeu du Boulanger's rules send every playable card home and price no step; FreeCell's send
    only what safe auto-play sends, price a step for the shorter second search and auto-play.
    A position whose game hands no rules is refused with a clear error."""
    bakers, freecell = rules_of(Position.deal(1, 4)), rules_of(FreeCellPosition.deal(1, 4))
    assert isinstance(bakers, Rules) and isinstance(freecell, Rules)
    assert (bakers.name, bakers.step_price, bakers.auto_play) == ("bakers", None, None)
    assert (freecell.name, freecell.step_price) == ("freecell", 2) and freecell.auto_play is not None
    # Both kings and both queens of the other colour: FreeCell's settle sends only the safe.
    assert bakers.goes_home(1, [1, 0, 0, 0]) and not freecell.goes_home(1, [1, 0, 0, 0])

    class Nameless(TableauPosition):
        GAME_TITLE = "Nameless"

    try:
        rules_of(Nameless.from_deck(range(52), 4))
    except TypeError as exc:
        assert "Nameless" in str(exc)
    else:
        raise AssertionError("a game without rules was searched")
