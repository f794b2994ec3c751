"""storage/sqlite/inthread.py: a SQLite transaction in one hand-off to the connection's thread.
The store's operations run there unchanged; one that waits on anything but its connection is
refused, and nothing of it is committed."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

import storage
from storage.sqlite.inthread import Conn, Suspended, drive


def test_an_operation_over_a_thread_connection_runs_to_its_end_at_once():
    raw = sqlite3.connect(":memory:", isolation_level=None)
    conn = Conn(raw)

    async def op() -> list[sqlite3.Row]:
        await conn.execute("CREATE TABLE t (x)")
        await conn.executemany("INSERT INTO t VALUES (?)", [(1,), (2,)])
        return await conn.execute_fetchall("SELECT sum(x) FROM t")

    assert drive(op()) == [(3,)]
    assert conn.total_changes == 2 and not conn.in_transaction


def test_an_operation_that_waits_on_something_else_is_refused():
    async def op() -> None:
        await asyncio.sleep(0)

    with pytest.raises(Suspended):
        drive(op())


async def test_a_suspending_write_is_refused_alone_and_commits_nothing(tmp_path):
    store = await storage.open_store(str(tmp_path / "s.sqlite3"))
    try:
        db = store._db

        async def bad(conn) -> None:
            await conn.execute(
                "INSERT INTO user_settings (user_id, language, updated_at) VALUES (7, 'nl', 0)"
            )
            await asyncio.sleep(0)

        async def good(conn) -> None:
            await conn.execute(
                "INSERT INTO user_settings (user_id, language, updated_at) VALUES (8, 'ru', 0)"
            )

        outcomes = await asyncio.gather(db._write(bad), db._write(good), return_exceptions=True)
        assert isinstance(outcomes[0], Suspended) and outcomes[1] is None  # one batch: its savepoint
        assert await store.user_language(7) is None and await store.user_language(8) == "ru"
        alone = await asyncio.gather(db._write(bad), return_exceptions=True)
        assert isinstance(alone[0], Suspended) and await store.user_language(7) is None
    finally:
        await store.close()
