"""The bot stands on discord.py's public API only (issue 39): an ``ast`` walk of ``bot/``.

discord.py ships fixes for Discord's changing API several times a year; an operator takes them
within the range ``pyproject.toml`` allows only if nothing here reaches into discord.py's
internals. Fails on:

- an import of an underscore module or name of discord.py (``from discord.utils import _x``);
- ``super()._x``: calling a private method of a discord.py base class (an override of one);
- ``x._y`` where ``_y`` is defined nowhere in ``bot/`` (a dependency's private attribute:
  ``interaction._state``, ``client._connection``, ``item._refresh_state``; aiohttp's count
  too, and only ``os._exit`` of the standard library, documented as public), or on anything
  but ``self``/``cls`` where discord.py defines the same name (``interaction._session``
  would otherwise pass because some class of ours has a ``_session``);
- a dunder discord.py defines that is not Python's own (``__discord_ui_compiled_template__``);
- swapping the loop's task factory or touching the gateway's parsers (public names, no
  public hook).
"""

from __future__ import annotations

import ast
import builtins
import types
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parent.parent
DISCORD = Path(discord.__file__).resolve().parent
PYTHON_DUNDERS = (
    {
        name
        for kind in (object, type, types.FunctionType, types.ModuleType, int, list, dict, BaseException)
        for name in dir(kind)
    }
    | {
        "__aenter__",
        "__aexit__",
        "__aiter__",
        "__anext__",
        "__await__",
        "__call__",
        "__enter__",
        "__exit__",
        "__iter__",
        "__next__",
        "__getattr__",
        "__all__",
        "__file__",
        "__path__",
        "__version__",
        "__slots__",
        "__wrapped__",
        "__post_init__",
        "__func__",
        "__self__",
        "__annotations__",
        "__future__",
        "__main__",
    }
    | set(dir(builtins))
)


#: Public names that reach around discord.py all the same.
HOOKS = {
    "set_task_factory": "the event loop's task factory is not the bot's to swap",
    "parsers": "discord.py's gateway parsers are not the bot's to wrap",
}
#: Underscore names that are documented public API of the standard library.
DOCUMENTED = {("_exit", "os")}


def defined(root: Path) -> set[str]:
    """Every name a module under ``root`` defines: functions, classes, assigned names and
    attributes, arguments."""
    names: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return names


def private(name: str) -> bool:
    return name.startswith("_") and name != "_"


def dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def is_discord(module: str | None) -> bool:
    return module is not None and (module == "discord" or module.startswith("discord."))


def problems(source: str, ours: set[str], theirs: set[str]) -> list[str]:
    """What ``source`` (one module of ``bot/``) takes of discord.py's internals, one line each."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if is_discord(alias.name) and any(private(p) for p in alias.name.split(".")):
                    found.append(f"{line}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and is_discord(node.module):
            module = node.module or ""
            bad = [a.name for a in node.names if private(a.name)]
            if any(private(p) for p in module.split(".")) or bad:
                found.append(f"{line}: from {module} import {', '.join(bad) or '...'}")
        elif isinstance(node, ast.Attribute) and node.attr in HOOKS:
            found.append(f"{line}: .{node.attr} ({HOOKS[node.attr]})")
        elif isinstance(node, ast.Attribute) and private(node.attr):
            found += attribute_problem(node, ours, theirs)
    return found


def attribute_problem(node: ast.Attribute, ours: set[str], theirs: set[str]) -> list[str]:
    name, base, line = node.attr, node.value, node.lineno
    if dunder(name):
        return [f"{line}: .{name}"] if name in theirs and name not in PYTHON_DUNDERS else []
    called_super = isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super"
    if called_super:
        return [f"{line}: super().{name}"] if name in theirs else []
    if name not in ours and (name, ast.unparse(base)) not in DOCUMENTED:
        return [f"{line}: .{name} (defined nowhere in bot/)"]
    on_self = isinstance(base, ast.Name) and base.id in ("self", "cls")
    if not on_self and name in theirs:
        return [f"{line}: .{name} (discord.py has one too: name ours differently)"]
    return []


def test_bot_uses_only_public_discord_py() -> None:
    ours, theirs = defined(ROOT / "bot"), defined(DISCORD)
    report = {
        str(path.relative_to(ROOT)): problems(path.read_text(encoding="utf-8"), ours, theirs)
        for path in sorted((ROOT / "bot").rglob("*.py"))
    }
    assert {path: found for path, found in report.items() if found} == {}


def test_the_walk_finds_each_kind_of_internal() -> None:
    """The check itself: each way issue 39 found the bot reaching into discord.py is caught."""
    ours, theirs = defined(ROOT / "bot"), defined(DISCORD)
    samples = {
        "from discord.utils import _to_json": "import _to_json",
        "import discord._types": "import discord._types",
        "parsers = client._connection.parsers": "._connection",
        "http = interaction._state.http": "._state",
        "session = interaction._session": "._session",
        "item._refresh_state(interaction, data)": "._refresh_state",
        "t = item.__discord_ui_compiled_template__": ".__discord_ui_compiled_template__",
        "class T:\n    async def f(self):\n        await super()._call(1)": "super()._call",
        "loop.set_task_factory(noting)": ".set_task_factory",
        "client.connection.parsers['INTERACTION_CREATE'] = f": ".parsers",
    }
    for source, expected in samples.items():
        found = problems(source, ours, theirs)
        assert any(expected in f for f in found), (source, found)
    clean = (
        "class A:\n    def __init__(self):\n        self._own = 1\n        print(self._own, self.__class__)"
    )
    assert problems(clean, ours | {"_own"}, theirs) == []
