"""Issue 43 point 7: Klondike is added as its own modules. Outside them only its registration
may name it: its record's line in ``engine/games.py`` (``tests/test_game_records.py`` counts every
game this way; this count is Klondike's alone, by its name in any case)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGISTRATIONS = {"engine/games.py"}


def _own(relative: str) -> bool:
    return relative.startswith(
        ("engine/klondike/", "renderer/games/klondike", "bot/games/klondike", "bot/games/locales/klondike/")
    )


def naming_klondike(root: Path = ROOT) -> set[str]:
    files = [p for top in ("bot", "renderer", "storage") for p in (root / top).rglob("*") if p.is_file()]
    files += list((root / "engine").glob("*.py")) + list((root / "engine" / "solver").glob("*.py"))
    out = set()
    for path in files:
        relative = path.relative_to(root).as_posix()
        if "__pycache__" in path.parts or _own(relative):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if "klondike" in text.lower():
            out.add(relative)
    return out


def test_only_the_registrations_name_klondike():
    named = naming_klondike()
    assert named <= REGISTRATIONS, sorted(named - REGISTRATIONS)


def test_the_count_sees_a_file_that_names_it(tmp_path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "codes.py").write_text("# Klondike's draw\n", encoding="utf-8")
    assert naming_klondike(tmp_path) == {"engine/codes.py"}
