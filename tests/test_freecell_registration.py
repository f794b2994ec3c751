"""Issue 22 point 6: FreeCell is added beside the other games. Outside its own modules at most
three project files name it, the registrations: ``engine/__init__.py``,
``renderer/games/__init__.py`` and ``bot/games/__init__.py``.

FreeCell's own modules: ``engine/freecell/``, ``renderer/games/freecell.py``,
``bot/games/freecell*`` (its front, its start command, its shipped deals) and its
catalogues ``bot/games/locales/freecell/``. Counted: every file (code, catalogues, SQL,
data) of ``bot/``, ``renderer/`` and ``storage/``, and the engine's top-level modules (its
registry, codes, command line). Not counted: the engine's shared eight-column rooms
(``engine/tableau/``, ``engine/solver/``, ``engine/bakers/``), which serve Jeu du Boulanger
and FreeCell alike and name the family after its best-known game (the solver imports no
game package: FreeCell hands it its rules from ``engine/freecell/solving.py``).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGISTRATIONS = {"engine/__init__.py", "renderer/games/__init__.py", "bot/games/__init__.py"}


def _own(relative: str) -> bool:
    return relative.startswith(
        (
            "engine/freecell/",
            "renderer/games/freecell.py",
            "bot/games/freecell",
            "bot/games/locales/freecell/",
        )
    )


def _counted(root: Path) -> list[Path]:
    files = [p for top in ("bot", "renderer", "storage") for p in (root / top).rglob("*") if p.is_file()]
    files += [p for p in (root / "engine").glob("*.py")]
    return [p for p in files if "__pycache__" not in p.parts]


def naming_freecell(root: Path = ROOT) -> set[str]:
    out = set()
    for path in _counted(root):
        relative = path.relative_to(root).as_posix()
        if _own(relative):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # a font, a picture: no words
            continue
        if "freecell" in text.lower():
            out.add(relative)
    return out


def test_at_most_three_files_outside_freecells_own_modules_name_it():
    named = naming_freecell()
    assert len(named) <= 3, sorted(named)
    assert named <= REGISTRATIONS, sorted(named - REGISTRATIONS)


def test_the_count_sees_a_file_that_names_freecell(tmp_path):
    """The check reads what it should: a shared file naming FreeCell, in any case, is found;
    FreeCell's own modules and the engine's shared rooms are not counted."""
    files = {
        "bot/play/stray.py": 'KIND = "FreeCell"\n',
        "storage/migrations/9999_x.sql": "-- freecell boards\n",
        "engine/__init__.py": "register(FreeCellGame)\n",
        "engine/solver/rules.py": "FREECELL = 1\n",
        "bot/games/freecell.py": "class FreeCellFront: ...\n",
        "bot/games/locales/freecell/en.po": 'msgid "game.freecell"\n',
        "renderer/cards.py": "nothing here\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert naming_freecell(tmp_path) == {
        "bot/play/stray.py",
        "storage/migrations/9999_x.sql",
        "engine/__init__.py",
    }
    assert naming_freecell() >= REGISTRATIONS  # each registration names it
