"""The ``Store`` on PostgreSQL through asyncpg: a connection pool, one transaction per call.

Chosen with ``BOULANGER_DATABASE_URL=postgresql://user:password@host/db``
(``storage.open_store`` sends ``postgresql://`` and ``postgres://`` here). It
keeps the SQLite store's guarantees with PostgreSQL's own means:

* every mutating call is one transaction, committed (durably: the server's
  ``synchronous_commit``) before it returns; a win and its history row and
  player summaries are written in the same transaction;
* a change to a game is ``UPDATE ... WHERE id = $n AND version = $m``, so a
  stale writer touches no row and gets ``VersionConflict``; one active game
  per player and kind is a partial unique index (``INSERT ... ON CONFLICT``);
* a daily post is claimed with ``INSERT ... ON CONFLICT DO NOTHING`` (a stale
  unsent claim is taken over by one guarded ``UPDATE``);
* a winnable deal is taken with ``SELECT ... FOR UPDATE SKIP LOCKED``, so
  concurrent takers never wait for each other nor get the same deal;
* driver errors become the same storage errors (``DatabaseBusy`` for lock
  and serialization timeouts, ``StorageError`` otherwise, ``DatabaseUnusable``
  at start-up).

Times are stored to the millisecond in UTC, as SQLite stores them, so both
backends return identical rows. The public methods and their checks are the
shared ``storage.store.Store`` (with ``storage.validate``, ``storage.ranking``
and ``storage.rows``): this package only supplies its SQL. The schema is
``storage/migrations/postgres/*.sql``, applied by ``storage.migrator``.

Its modules: ``store`` (``PostgresStore``: how it opens), ``database`` (the
one class the front calls), ``base`` (pool, transactions, errors), ``games``,
``rankings``, ``settings``, ``races`` (the SQL of each group of operations),
``opening`` (connecting and migrating).
"""

from storage.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
