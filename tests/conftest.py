"""Shared fixtures: the fake Discord's (see tests/fakediscord/) and the storage backends'."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakediscord import BotProcess, FakeDiscord

# -- what a test needs beyond Python: the marks ./test.sh --quick leaves out -------------
#
# ``browser``: Debian's Chromium (the Activity's page); ``processes``: programs started
# (``python -m bot`` against the fake Discord, the command lines, scripts); ``fcsolve``: Debian's
# fc-solve or make-microsoft-freecell-board; ``postgres``: a real PostgreSQL (the storage tests'
# second backend); ``slow``: long checks (searches, sweeps, fuzzing, whole games won). A test
# taking the ``browser`` or ``bot_process`` fixture, or running on PostgreSQL, is marked here;
# others carry their mark in their module. The marks are kept honest on every run: a test that
# starts a program during its call without one of them fails (``_watch_programs``), so the
# quick run never starts one.

STARTS_PROGRAMS = ("browser", "processes", "fcsolve")
FIXTURE_MARKS = {"browser": "browser", "bot_process": "processes", "pg_server": "postgres"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture, mark in FIXTURE_MARKS.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(mark)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("stores") == "postgres":
            item.add_marker("postgres")


_calling: list[pytest.Item] = []  # the test whose call phase runs now (at most one a process)
_started: dict[str, list[str]] = {}  # node id -> the programs it started without a mark for them


def _watch_programs(event: str, args: tuple[object, ...]) -> None:
    """An audit hook (Python's own record of a program started): ``subprocess.Popen`` is raised
    by subprocess and asyncio's subprocesses alike, in any thread."""
    if event != "subprocess.Popen" or not _calling:
        return
    item = _calling[-1]
    if not any(item.get_closest_marker(mark) for mark in STARTS_PROGRAMS):
        _started.setdefault(item.nodeid, []).append(os.path.basename(str(args[0])))


sys.addaudithook(_watch_programs)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    _calling.append(item)
    try:
        result = yield
    finally:
        _calling.remove(item)
    started = _started.pop(item.nodeid, None)
    if started:
        pytest.fail(
            f"this test started {', '.join(sorted(set(started)))} but carries none of the marks "
            f"{', '.join(STARTS_PROGRAMS)}: mark it (tests/conftest.py), so ./test.sh --quick leaves it out",
            pytrace=False,
        )
    return result


@pytest.fixture
async def fake_discord():
    """A running FakeDiscord with this process's discord.py pointed at it.

    At teardown the test fails if the bot sent any request the real Discord would refuse
    (tests that provoke refusals on purpose call `fake_discord.take_violations()`).
    """
    fake = FakeDiscord()
    await fake.start()
    try:
        with fake.patch_discord():
            yield fake
    finally:
        await fake.stop()
    fake.assert_no_violations()


@pytest.fixture
async def bot_process(fake_discord, tmp_path):
    """A `BotProcess` for `python -m bot` against `fake_discord` (not started; call `await bot_process.start()`)."""
    proc = BotProcess(fake_discord, db_path=tmp_path / "bot.sqlite3")
    try:
        yield proc
    finally:
        await proc.stop()


# -- storage: one suite, both backends -------------------------------------------
#
# Storage tests take the ``store`` fixture (or ``stores`` to open more stores on the
# same database, as other processes would) and run once on SQLite and once on a
# real PostgreSQL. Each test gets a database of its own: a new SQLite file, or a new
# PostgreSQL schema dropped afterwards. The server is BOULANGER_TEST_PG_URL if set,
# else the one at 127.0.0.1:5432 if it answers, else a throw-away cluster started by
# scripts/pg_test_server.sh for this run. If none can be had, the PostgreSQL tests
# fail and say why: they are never skipped.

ROOT = Path(__file__).resolve().parent.parent
LOCAL_PG = ("postgresql://postgres@127.0.0.1:5432/test", "postgresql://root@127.0.0.1:5432/test")


def _pg_answers(url: str) -> str | None:
    """None if a login at ``url`` works, else why not."""
    import asyncpg

    async def probe() -> None:
        conn = await asyncpg.connect(url, timeout=5)
        await conn.close()

    try:
        # In a thread of its own: this runs while a test's event loop is running.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, probe()).result()
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return None


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server for the storage tests (see above); fails if there is none."""
    given = os.environ.get("BOULANGER_TEST_PG_URL", "").strip()
    if given:
        problem = _pg_answers(given)
        if problem:
            pytest.fail(f"BOULANGER_TEST_PG_URL={given!r} cannot be used: {problem}", pytrace=False)
        yield given
        return
    tried = []
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1).close()
    except OSError as error:
        tried.append(f"nothing answers at 127.0.0.1:5432 ({error})")
    else:
        for url in LOCAL_PG:
            problem = _pg_answers(url)
            if problem is None:
                yield url
                return
            tried.append(f"{url}: {problem}")
    started = subprocess.run(
        ["bash", str(ROOT / "scripts" / "pg_test_server.sh"), "start"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if started.returncode != 0:
        pytest.fail(
            "no PostgreSQL server for the storage tests: "
            + "; ".join(tried)
            + f"; scripts/pg_test_server.sh start failed: {started.stderr.strip()[-1500:]}",
            pytrace=False,
        )
    url, folder = started.stdout.split()
    try:
        yield url
    finally:
        subprocess.run(
            ["bash", str(ROOT / "scripts" / "pg_test_server.sh"), "stop", folder], timeout=120, check=False
        )


class Stores:
    """Opens stores on one test's own database; closes them (and drops the database) afterwards."""

    def __init__(self, backend: str, target: str, admin=None, schema: str | None = None) -> None:
        self.backend = backend
        self.target = target  # a SQLite file path or a PostgreSQL URL with its own search_path
        self._admin = admin
        self.schema = schema  # PostgreSQL only
        self._opened: list = []

    async def open(self, **options):
        """A store on this test's database. SQLite-only options (``synchronous``...) are dropped
        on PostgreSQL; SQLite gets ``synchronous=NORMAL`` unless told (these tests are not about
        power cuts)."""
        from storage.postgres import PostgresStore
        from storage.sqlite import SqliteStore

        if self.backend == "sqlite":
            store = await SqliteStore.open(self.target, **{"synchronous": "NORMAL", **options})
        else:
            kept = {k: val for k, val in options.items() if k in ("clock", "min_size", "max_size", "timeout")}
            store = await PostgresStore.open(self.target, **kept)
        self._opened.append(store)
        return store

    async def sql(self, sqlite: str, postgres: str, *args) -> list:
        """Run raw SQL on this test's database, past the store (to check what the schema itself refuses)."""
        if self.backend == "sqlite":
            import aiosqlite

            async with (
                aiosqlite.connect(self.target, isolation_level=None) as conn,
                conn.execute(sqlite, args) as cursor,
            ):
                return list(await cursor.fetchall())
        return list(await self._admin.fetch(postgres, *args))

    async def close(self) -> None:
        for store in self._opened:
            await store.close()
        if self._admin is not None:
            await self._admin.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
            await self._admin.close()


# What each backend says when the schema itself refuses a duplicate.
UNIQUE_REFUSED = "UNIQUE constraint failed|duplicate key value violates unique constraint"


@pytest.fixture(params=["sqlite", "postgres"])
async def stores(request, tmp_path):
    if request.param == "sqlite":
        maker = Stores("sqlite", str(tmp_path / "store.sqlite3"))
    else:
        import asyncpg

        base = request.getfixturevalue("pg_server")
        schema = f"test_{uuid.uuid4().hex[:16]}"
        admin = await asyncpg.connect(base, server_settings={"synchronous_commit": "off"})
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        await admin.execute(f'SET search_path = "{schema}"')
        # synchronous_commit off: as SQLite's NORMAL above, these tests are not about power cuts.
        target = f"{base}{'&' if '?' in base else '?'}search_path={schema}&synchronous_commit=off"
        maker = Stores("postgres", target, admin, schema)
    try:
        yield maker
    finally:
        await maker.close()


@pytest.fixture
def clock():
    from tests.storage_procs.clock import FakeClock

    return FakeClock()


@pytest.fixture
async def store(stores, clock):
    """A store on this test's own database, on each backend in turn, with the test's ``clock``."""
    return await stores.open(clock=clock)


@pytest.fixture
async def browser():
    """Debian's headless Chromium, for the Activity's page tests (tests/activity_browser.py)."""
    from playwright.async_api import async_playwright

    from tests.activity_browser import CHROMIUM

    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: bash scripts/setup.sh test installs it"
    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            await chromium.close()
