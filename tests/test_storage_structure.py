"""storage/'s shape: each operation written once on ``Store`` plus once per database, no import cycle.

Read from the source (``ast``), so the check counts what a newcomer would have
to edit: every ``def`` / ``async def`` at module or class level in storage/.
"""

from __future__ import annotations

import ast
import collections
import inspect
from pathlib import Path

import pytest

from storage.postgres.database import PostgresDatabase
from storage.sqlite.database import SqliteDatabase
from storage.store import Store

STORAGE = Path(__file__).resolve().parent.parent / "storage"
MOST_DEFINITIONS = 3  # the public front, SQLite's SQL, PostgreSQL's SQL
# What the databases offer besides operations: opened by SqliteStore / PostgresStore.
LIFECYCLE = {"connect"}
# Attributes (not methods) of a database the fronts read or set.
ATTRIBUTES = {"path", "on_lost"}


def _modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted(STORAGE.rglob("*.py")):
        parts = path.relative_to(STORAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def _definitions(modules: dict[str, ast.Module]) -> dict[str, list[str]]:
    """Public function and method names -> where each is written (``@overload`` stubs not counted)."""
    where: dict[str, list[str]] = collections.defaultdict(list)
    for module, tree in modules.items():
        scopes: list[tuple[str, list[ast.stmt]]] = [(module, tree.body)]
        scopes += [(f"{module}.{n.name}", n.body) for n in tree.body if isinstance(n, ast.ClassDef)]
        for owner, body in scopes:
            for node in body:
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name.startswith("_"):
                    continue
                if any(isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list):
                    continue
                where[node.name].append(owner)
    return where


def _operations() -> set[str]:
    return {
        name
        for name, member in vars(Store).items()
        if not name.startswith("_") and (inspect.isfunction(member) or isinstance(member, property))
    }


def _database_methods(database: type) -> set[str]:
    """The public methods a database class has (its own modules' mixins, not ``object``'s)."""
    return {
        name
        for klass in database.__mro__
        if klass.__module__.startswith("storage.")
        for name, member in vars(klass).items()
        if not name.startswith("_") and inspect.isfunction(member)
    }


def _front_calls(tree: ast.Module) -> set[str]:
    """Every ``self._db.<name>`` a front module uses."""
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "_db"
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id == "self"
    }


def test_no_public_name_is_written_more_than_three_times_in_storage():
    too_many = {
        name: owners for name, owners in _definitions(_modules()).items() if len(owners) > MOST_DEFINITIONS
    }
    assert not too_many, f"written more than {MOST_DEFINITIONS} times: {too_many}"


def test_each_operation_is_written_once_on_the_front_and_at_most_once_per_database():
    where = _definitions(_modules())
    operations = _operations()
    assert {"create_game", "append_moves", "leaderboard", "claim_daily_post", "join_race"} <= operations
    for name in operations:
        owners = where[name]
        sqlite = [o for o in owners if o.startswith("storage.sqlite.")]
        postgres = [o for o in owners if o.startswith("storage.postgres.")]
        assert owners.count("storage.store.Store") == 1, (name, owners)
        assert len(sqlite) <= 1 and len(postgres) <= 1, (name, owners)
        assert set(owners) == {"storage.store.Store", *sqlite, *postgres}, (name, owners)


def test_both_databases_offer_exactly_what_the_fronts_call():
    modules = _modules()
    common = _front_calls(modules["storage.store"])
    sqlite_calls = common | _front_calls(modules["storage.sqlite.store"])
    postgres_calls = common | _front_calls(modules["storage.postgres.store"])
    assert {"create_game", "change", "leaderboard", "join_race"} <= common
    for database, calls in ((SqliteDatabase, sqlite_calls), (PostgresDatabase, postgres_calls)):
        offered = _database_methods(database)
        missing = calls - offered - ATTRIBUTES
        assert not missing, f"{database.__name__} lacks {sorted(missing)}"
        unused = offered - calls - LIFECYCLE
        assert not unused, f"{database.__name__} has methods no front calls: {sorted(unused)}"


def _imports(module: str, tree: ast.Module, known: set[str]) -> set[str]:
    """The storage modules ``module`` imports anywhere (top level, functions, ``TYPE_CHECKING``)."""
    package = module if module in known and _is_package(module) else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return {name for name in found if name in known and name != module}


def _is_package(module: str) -> bool:
    return (STORAGE.parent / module.replace(".", "/") / "__init__.py").exists()


def test_storage_has_no_import_cycle():
    modules = _modules()
    known = set(modules)
    graph = {name: _imports(name, tree, known) for name, tree in modules.items()}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                pytest.fail("import cycle: " + " -> ".join([*path[path.index(target) :], target]))
            if target not in state:
                visit(target)
        path.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert graph["storage.store"] >= {"storage.sqlite.database", "storage.postgres.database"}
