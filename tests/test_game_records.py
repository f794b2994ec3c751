"""A game is declared once: outside its own modules, at most its record's registration names it.

For every registered game (Jeu du Boulanger, Calculation, FreeCell, and the test game Tower)
the project files of ``engine/``, ``renderer/``, ``storage/`` and ``bot/`` (code, catalogues
and data; tests, docs and benchmarks are elsewhere) are searched for what names it:

- its **kind** (``bakers``), in any case, inside an identifier or a string
  (``BakersGame``, ``engine.bakers``, ``lb.bakers_score``);
- its **title** (``Jeu du Boulanger``) and its engine class's and front's class names;
- its **command word** as a command: ``/boulanger`` (not a path's ``data/boulanger.db``), a
  catalogue key's part (``command.boulanger.name``), or the whole string ``"calculation"``
  (except for ``boulanger``, the project's name too: its database's, its metrics');
- its **code prefix** as a code: the string ``"BK"`` or a code's start, ``BK1``.

Read are a Python module's identifiers and strings but not its docstrings and comments
(prose may use a game as an example; code that branches on one names it), a catalogue's
keys but not its texts (players' prose, which may compare games) and comments, and any other
text file whole. Not read: storage's
migrations, the schema's applied history (they are checksummed and never edited).

A game's own modules are not counted: its engine package, its board module and its front
module (with the files beside them named for its kind, such as ``freecell_deals.json``) as
its record names them, and its catalogue ``bot/games/locales/<kind>/``. At most one other
file may name it: the list of records that registers it (``engine/games.py``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

import engine
from engine import codes, registry
from engine.games import RECORDS
from engine.record import GameOption, GameRecord, StartWords, load
from tests.thirdgame.record import TOWER

ROOT = Path(__file__).resolve().parent.parent
COUNTED = ("engine", "renderer", "storage", "bot")
NOT_READ = ("storage/migrations/",)
REGISTRATION = "engine/games.py"
PROJECT = "boulanger"  # the bot's name (its database, metrics, paths), Jeu du Boulanger's command too


def patterns(record: GameRecord) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What names ``record``'s game in an identifier, and in a string or text (see the module's
    docstring): a string may also name it by its command word or its code prefix."""
    classes = [where.partition(":")[2] for where in (record.game, record.front)]
    # Not a longer word (the plural "Freecells"): none of them followed by a small letter.
    words = [f"(?i:{re.escape(record.kind)})", *(re.escape(w) for w in (record.title, *classes) if w)]
    names = f"(?:{'|'.join(words)})(?![a-z])"
    command, prefix = re.escape(record.command.name), re.escape(record.prefix)
    forms = [rf"(?<![\w./])/{command}\b(?!\.)", rf"\.{command}\.", rf"^{prefix}$", rf"\b{prefix}\d"]
    if record.command.name != PROJECT:  # the project's name is its files', not the game's
        forms.append(f"^{command}$")
    return re.compile(names), re.compile("|".join([names, *forms]))


def own_paths(record: GameRecord) -> tuple[str, ...]:
    """The starts of the paths of a game's own modules, from where its record says they are."""
    out = [f"bot/games/locales/{record.kind}/"]
    for where in (record.game, record.board, record.front):
        parts = where.partition(":")[0].split(".")
        if parts[0] == "engine":
            out.append("/".join(parts[:2]) + "/")  # its engine package
        else:
            out.append("/".join(parts[:-1]) + f"/{parts[-1]}")  # its module and files named so
    return tuple(out)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (modules', classes', functions')."""
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.add(id(value))
    return out


def python_words(text: str) -> Iterator[tuple[str, bool]]:
    """A module's identifiers and strings (each with whether it is a string), its docstrings and
    comments left out."""
    tree = ast.parse(text)
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.value, True
        elif isinstance(node, ast.Name):
            yield node.id, False
        elif isinstance(node, ast.Attribute):
            yield node.attr, False
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name, False
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", False
            yield from ((alias.asname or alias.name, False) for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from ((alias.asname or alias.name, False) for alias in node.names)
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:
            yield node.arg, False


def catalogue_words(text: str) -> Iterator[str]:
    """A catalogue's keys (its texts are prose for players, its comments for translators)."""
    for line in text.splitlines():
        if line.startswith(("msgid ", "msgid_plural ", "msgctxt ")):
            yield from re.findall(r'"((?:[^"\\]|\\.)*)"', line)


@cache
def words_of(path: Path) -> tuple[tuple[str, bool], ...]:
    """A file's words, each with whether it is a string (or text) rather than an identifier
    (read once for every game)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return tuple(python_words(text))
    lines = catalogue_words(text) if path.suffix in (".po", ".pot") else text.splitlines()
    return tuple((line, True) for line in lines)


def counted_files(root: Path) -> Iterator[tuple[str, Path]]:
    for top in COUNTED:
        for path in sorted((root / top).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if path.is_file() and "__pycache__" not in path.parts and not relative.startswith(NOT_READ):
                yield relative, path


def naming(record: GameRecord, root: Path = ROOT) -> dict[str, str]:
    """The files outside ``record``'s game's own modules that name it, each with a word that does."""
    (in_names, in_strings), own = patterns(record), own_paths(record)
    out = {}
    for relative, path in counted_files(root):
        if relative.startswith(own):
            continue
        try:
            hit = next(
                (w for w, text in words_of(path) if (in_strings if text else in_names).search(w)), None
            )
        except UnicodeDecodeError:  # a font, a picture: no words
            continue
        if hit is not None:
            out[relative] = hit
    return out


@pytest.mark.parametrize("record", [*RECORDS, TOWER], ids=lambda r: r.kind)
def test_outside_its_own_modules_only_its_registration_names_a_game(record):
    named = naming(record)
    allowed = {REGISTRATION} if record in RECORDS else set()
    assert set(named) <= allowed, {k: v for k, v in named.items() if k not in allowed}


def test_every_game_is_registered_by_its_record_alone():
    """Each built-in game's registration does name it (the count reads the registration)."""
    for record in RECORDS:
        assert REGISTRATION in naming(record), record.kind


SAMPLE = replace(
    TOWER,
    kind="pyramid",
    prefix="PY",
    title="Pyramid",
    command=StartWords("pyramid", "Start a game of Pyramid", code="Replay a deal by its code"),
    game="engine.pyramid.game:PyramidGame",
    board="renderer.games.pyramid:BOARD",
    front="bot.games.pyramid:PyramidFront",
)


def test_the_count_finds_a_branch_on_a_game_and_skips_prose_and_its_own_modules(tmp_path):
    """The counter on a small sample tree: code that branches on the game, in any of its names,
    is found; prose, other words and the game's own modules are not."""
    files = {
        "bot/play/branch.py": 'def f(game):\n    return game.kind == "pyramid"\n',
        "bot/adapter/typed.py": 'if word in ("pyramid", "x"):\n    pass\n',
        "engine/solver/rules.py": "from engine.pyramid.position import Deck\n",
        "renderer/cards.py": "if isinstance(game, PyramidGame):\n    pass\n",
        "storage/rows.py": 'KIND_OF = {"PY": 1}\n',
        "bot/play/codes.py": 'EXAMPLE = "PY1-AAAAA24"\n',
        "bot/languages/locales/en.po": 'msgid "lb.pyramid_score"\nmsgstr "x"\n',
        "bot/running/config.py": 'URL = "https://example.org/pyramid"\n',
        "bot/play/prose.py": '"""Like Pyramid, a game (/pyramid)."""\n# pyramid too\nX = 1\n',
        "bot/play/other.py": 'PY = "copy"\nPYTHON = "python3"\n',
        "bot/languages/locales/nl.po": '# pyramid\nmsgid "help.x"\nmsgstr "unlike Pyramid"\n',
        "bot/running/words.py": 'PLURAL = "Pyramids of Giza"\n',
        "storage/migrations/0001_init.sql": "-- pyramid\n",
        "engine/pyramid/game.py": 'KIND = "pyramid"\n',
        "renderer/games/pyramid.py": 'TITLE = "Pyramid"\n',
        "bot/games/pyramid_deals.json": '["pyramid"]\n',
        "bot/games/locales/pyramid/en.po": 'msgid "game.pyramid"\nmsgstr "Pyramid"\n',
        "engine/games.py": "from engine.pyramid.record import PYRAMID\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert set(naming(SAMPLE, tmp_path)) == {
        "bot/play/branch.py",
        "bot/adapter/typed.py",
        "engine/solver/rules.py",
        "renderer/cards.py",
        "storage/rows.py",
        "bot/play/codes.py",
        "bot/languages/locales/en.po",
        "bot/running/config.py",
        "engine/games.py",
    }


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.kind)
def test_a_game_class_and_its_front_say_what_their_record_says(record):
    from bot.games import front_for

    game, front = load(record.game), front_for(record.kind)
    assert (game.kind, game.title, game.code_prefix, game.versions) == (
        record.kind,
        record.title,
        record.prefix,
        record.versions,
    )
    assert game.deal_form == record.deals and game.has_cells == (record.option is not None)
    assert (front.kind, front.letter, front.command, front.name, front.short_name) == (
        record.kind,
        record.letter,
        record.command.name,
        record.title,
        record.short_name,
    )
    assert front.cell_choices == (record.option.values if record.option else ())


def test_start_commands_offer_what_each_record_says():
    """Options in the order players know them; only a game with numbered deals takes a number."""
    from bot.adapter.cogs.starting import start_commands

    commands = {c.name: c for c in start_commands()}
    options = {name: [p.name for p in c.parameters] for name, c in commands.items()}
    assert options == {
        "boulanger": ["cells", "code", "any_deal"],
        "calculation": ["code"],
        "freecell": ["cells", "deal", "code", "any_deal"],
        "klondike": ["draw", "code"],
    }
    deal = commands["freecell"].get_parameter("deal")
    assert deal is not None and (deal.min_value, deal.max_value) == (1, 1_000_000)
    cells = commands["boulanger"].get_parameter("cells")
    assert cells is not None and [c.value for c in cells.choices] == [4, 2, 1]
    assert commands["calculation"].description == "Start a game of Calculation (Broken Intervals)"


def test_a_record_names_its_option_and_its_codes_write_it_so():
    draw = GameOption("draw", "D", (1, 3), "Cards turned from the stock: 1 or 3", "draw", "cards drawn")
    registry.declare(replace(SAMPLE, kind="draw3", prefix="DRW", option=draw))
    try:
        code = engine.parse_code("DRW1-D3-AAAAA24")
        assert (code.kind, code.cells, str(code)) == ("draw3", 3, "DRW1-D3-AAAAA24")
        assert str(engine.make_code("draw3", 860)) == "DRW1-D1-AAAAA24"  # the first value: the default
        with pytest.raises(engine.CodeError, match="the draw part 'D2' must be D1 or D3"):
            engine.parse_code("DRW1-D2-AAAAA24")
    finally:
        registry.unregister("draw3")
    assert "draw3" not in codes.SPECS


def test_a_deal_number_option_needs_numbered_deals():
    with pytest.raises(ValueError, match="numbered deals"):
        replace(SAMPLE, command=replace(SAMPLE.command, deal="A deal number"))
