"""The ``Store`` on SQLite through aiosqlite: one connection, one lock, short transactions.

Durability: WAL journal with ``synchronous=FULL`` by default, so every commit
is fsynced to the WAL before the call returns: an acknowledged move survives a
killed process *and* a power cut. (NORMAL would survive a killed process but
could lose the last commits on power loss; it is an option for benchmarks.)

Concurrency: every write is a ``BEGIN IMMEDIATE`` transaction (one writer at a
time across processes, waiting up to ``busy_timeout``); changes to a game
carry the version the caller saw and touch the row only if it still has it,
so a stale writer gets ``VersionConflict`` instead of overwriting. Within one
process an ``asyncio.Lock`` keeps tasks from interleaving statements on the
shared connection, and writes that arrive while a commit is under way are
committed together (group commit: one fsync for many moves, each write in its
own savepoint so a refused one undoes only itself).

SQLite specifics stay in the ``storage/sqlite*.py`` modules; what they share
with the PostgreSQL store lives in ``storage.front`` (the public methods and
their checks), ``storage.validate``, ``storage.ranking``, ``storage.rows`` and
``storage.migrator``.
"""

from __future__ import annotations

from storage.sqlite_games import GamesMixin
from storage.sqlite_open import MEMORY
from storage.sqlite_races import RacesMixin
from storage.sqlite_rankings import RankingsMixin
from storage.sqlite_rows import from_ms, to_ms, utc_now
from storage.sqlite_settings import SettingsMixin


class SqliteStore(GamesMixin, RankingsMixin, SettingsMixin, RacesMixin):
    """``storage.interface.Store`` on one SQLite file. Open with ``await SqliteStore.open(path)``.

    Its parts: ``sqlite_base`` (connection, transactions, group commit),
    ``sqlite_games``, ``sqlite_rankings``, ``sqlite_settings``; rows are
    converted in ``sqlite_rows``; files are opened and migrated by ``sqlite_open``.
    """


__all__ = ["MEMORY", "SqliteStore", "from_ms", "to_ms", "utc_now"]
