"""A whole transaction in one hand-off to the connection's thread.

aiosqlite runs each statement on its connection's own thread: one hand-off there and back
per statement, about 90 us of CPU on the 2-core test machine (two thread wake-ups, the
event loop's wake-up; ``benchmarks/bot.py``, issue 26), several times what the statement
itself costs. A move's write transaction (BEGIN, the guarded UPDATE, the lost-rows check,
COMMIT) took four of them, a one-statement read three. Here the same store operations (the
coroutines ``op(conn)`` the store parts write) run on that thread over ``Conn``, whose
methods do their statement at once: awaiting them never suspends, so ``drive`` runs an
operation to its end without the event loop, and the transaction costs one hand-off.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Coroutine, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class Conn:
    """The sqlite3 connection as the store's operations see it, on the connection's own thread:
    aiosqlite's methods they use, each done at once (awaiting one never suspends)."""

    __slots__ = ("raw",)

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    @property
    def total_changes(self) -> int:
        return self.raw.total_changes

    async def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> sqlite3.Cursor:
        return self.raw.execute(sql, tuple(parameters or ()))

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
        return self.raw.executemany(sql, parameters)

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] | None = None) -> list[sqlite3.Row]:
        return self.raw.execute(sql, tuple(parameters or ())).fetchall()


class Suspended(RuntimeError):
    """A store operation awaited something other than its connection: it cannot run in one
    hand-off (a programming error, found by the tests)."""


def drive(step: Coroutine[Any, Any, T]) -> T:
    """Run an operation over a ``Conn`` to its end, here and now."""
    try:
        step.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    step.close()
    raise Suspended("a store operation waited on something other than its connection")
