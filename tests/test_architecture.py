"""The shape of the project, read from its source: no import cycles, dependencies pointing inward,
``bot/`` kept in rooms, and the game layer free of Discord.

Every import counts, wherever it is written (module level, under ``TYPE_CHECKING``, inside a
function): a cycle hidden from the interpreter by a late import is still one knot for a reader.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "renderer", "storage", "bot")
MAX_FLAT_BOT_MODULES = 10
# The service players act through, and its room: none of it may need discord.py.
SERVICE = "bot.play.service"
DISCORD_FREE_ROOM = "bot.play"
# The game layer is read by everyone who adds a command or a game: no module of it past this.
MAX_GAME_LAYER_LINES = 400


def module_name(path: Path) -> tuple[str, bool]:
    """(dotted name, is a package) of a source file under ``ROOT``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


@cache
def modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name, is_package = module_name(path)
            found[name] = (path, is_package)
    return found


def imported_names(name: str, is_package: bool, tree: ast.AST) -> Iterator[str]:
    """Every module name an import statement anywhere in ``tree`` refers to, resolved to absolute."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                # ``from x import y`` imports the module x.y when there is one, else names from x.
                yield submodule if submodule in modules() else source


def owner(name: str) -> str | None:
    """The project module a dotted import name lands in (``bot.games.fronts`` → ``bot.games``)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in modules():
            return ".".join(parts)
        parts.pop()
    return None


@cache
def graph() -> dict[str, frozenset[str]]:
    """Each project module → the project modules and outside top-level packages it imports."""
    edges = {}
    for name, (path, is_package) in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = set()
        for imported in imported_names(name, is_package, tree):
            inside = owner(imported)
            targets.add(inside if inside is not None else imported.split(".")[0])
        targets.discard(name)
        edges[name] = frozenset(targets)
    return edges


def cycles() -> list[tuple[list[str], list[str]]]:
    """Strongly connected groups of more than one module (Tarjan): one cycle through each, and
    the whole group (every module of it is on some cycle)."""
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v] & edges.keys()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [(one_cycle(group), sorted(group)) for group in groups]


def one_cycle(group: set[str]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph()[v] & group):
                if w == start:
                    return [*paths[v], start]
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"not a cycle: {sorted(group)}")


def reaches(start: str) -> dict[str, list[str]]:
    """Everything ``start`` imports, directly or not, each with one import chain leading to it."""
    chains = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph().get(v, frozenset())):
                if w not in chains:
                    chains[w] = [*chains[v], w]
                    if w in graph():
                        nxt.append(w)
        frontier = nxt
    return chains


def in_package(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_graph_sees_every_kind_of_import():
    """The reader itself: late imports, ``TYPE_CHECKING`` blocks, relative and submodule imports."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "import engine.cards\n"
        "from . import views\n"
        "from .. import games\n"
        "from bot.languages import i18n\n"
        "if TYPE_CHECKING:\n"
        "    from bot.adapter.app import BoulangerBot\n"
        "def late():\n"
        "    from storage import open_store\n"
    )
    found = set(imported_names("bot.adapter.again", False, ast.parse(source)))
    assert {
        "typing",
        "engine.cards",
        "bot.adapter.views",
        "bot.games",
        "bot.languages.i18n",
        "bot.adapter.app",
        "storage",
    } <= found


def test_no_import_cycles_between_project_modules():
    found = cycles()
    lines = [f"{' → '.join(cycle)}  (a knot of {len(group)}: {', '.join(group)})" for cycle, group in found]
    assert found == [], "import cycles:\n" + "\n".join(lines)


def test_bot_keeps_its_modules_in_rooms():
    flat = sorted(p.name for p in (ROOT / "bot").glob("*.py"))
    assert len(flat) <= MAX_FLAT_BOT_MODULES, f"{len(flat)} modules directly in bot/: {flat}"


def test_the_game_layer_imports_nothing_that_imports_discord():
    assert SERVICE in modules()
    offenders = []
    for name in sorted(m for m in modules() if in_package(m, DISCORD_FREE_ROOM)):
        chain = reaches(name).get("discord")
        if chain is not None:
            offenders.append(" → ".join(chain))
    assert offenders == [], "discord reached from the game layer:\n" + "\n".join(offenders)


def test_no_game_layer_module_grows_past_a_readable_size():
    """``bot/play`` is cut by capability (games, deals, starting, playing, advice…): a module
    that grows past the limit holds more than one, and is cut again."""
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, (path, _) in modules().items()
        if in_package(name, DISCORD_FREE_ROOM)
    }
    assert SERVICE in sizes
    too_long = {name: lines for name, lines in sorted(sizes.items()) if lines > MAX_GAME_LAYER_LINES}
    assert too_long == {}, f"modules of bot/play over {MAX_GAME_LAYER_LINES} lines: {too_long}"


def test_dependencies_point_inward():
    """engine uses nothing of the project; renderer only engine; storage neither bot nor renderer;
    nothing outside bot imports bot."""
    allowed = {
        "engine": {"engine"},
        "renderer": {"engine", "renderer"},
        "storage": {"engine", "storage"},
        "bot": set(PACKAGES),
    }
    offenders = []
    for name, targets in sorted(graph().items()):
        package = name.split(".")[0]
        for target in sorted(t for t in targets if t in modules()):
            if target.split(".")[0] not in allowed[package]:
                offenders.append(f"{name} → {target}")
    assert offenders == []


def test_engine_and_renderer_stay_pure():
    """The rules need no Discord, Pillow or database; pictures need Pillow and nothing else outside."""
    forbidden = {
        "engine": {"discord", "PIL", "aiosqlite", "asyncpg", "aiohttp"},
        "renderer": {"discord", "aiosqlite", "asyncpg", "aiohttp"},
        "storage": {"discord", "PIL"},
    }
    offenders = []
    for name in sorted(modules()):
        package = name.split(".")[0]
        for target in sorted(graph()[name] & forbidden.get(package, set())):
            offenders.append(f"{name} → {target}")
    assert offenders == []


def test_the_game_layer_and_the_fronts_never_import_the_adapter():
    """``bot/play`` and the fronts are what the adapter calls; only a front's start command
    (``*_commands.py``, a discord.py extension) may use the adapter's start path."""
    offenders = []
    for name, targets in sorted(graph().items()):
        front = in_package(name, "bot.games") and not name.endswith("_commands")
        if in_package(name, DISCORD_FREE_ROOM) or front:
            offenders += [f"{name} → {t}" for t in sorted(targets) if in_package(t, "bot.adapter")]
    assert offenders == []


def test_the_activity_imports_nothing_that_imports_discord():
    """``bot/activity`` is a second front on the game layer: the bot hands it what needs its client."""
    offenders = []
    for name in sorted(m for m in modules() if in_package(m, "bot.activity")):
        chain = reaches(name).get("discord")
        if chain is not None:
            offenders.append(" → ".join(chain))
        offenders += [f"{name} → {t}" for t in sorted(graph()[name]) if in_package(t, "bot.adapter")]
    assert "bot.activity.server" in modules()
    assert offenders == [], "discord reached from the Activity:\n" + "\n".join(offenders)
