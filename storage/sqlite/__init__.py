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

SQLite specifics stay in this package; what it shares with the PostgreSQL
store lives in ``storage.store`` (the public methods and their checks),
``storage.validate``, ``storage.ranking``, ``storage.rows`` and
``storage.migrator``.

Its modules: ``store`` (``SqliteStore``: how it opens, the lost-file watch),
``database`` (the one class the front calls), ``base`` (connection,
transactions, group commit, lost-file check), ``games``, ``rankings``,
``settings``, ``races`` (the SQL of each group of operations), ``rows``
(values as stored), ``opening`` (opening and migrating a file), ``files``
(the file's creation marker and permissions).
"""

from storage.sqlite.opening import MEMORY
from storage.sqlite.rows import from_ms, to_ms, utc_now
from storage.sqlite.store import SqliteStore

__all__ = ["MEMORY", "SqliteStore", "from_ms", "to_ms", "utc_now"]
