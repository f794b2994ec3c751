"""Storage benchmark: moves persisted per second and query times on 1 million history rows.

    .venv/bin/python benchmarks/storage.py [--rows 1000000] [--keep DIR] [--pg-url URL | --no-pg]

Moves per second run on real SQLite files in a temporary directory (the same
options as the bot: WAL, synchronous=FULL, unless a figure says NORMAL) and on
PostgreSQL (``--pg-url``, default the local server; a schema is made for the
run and dropped after it; the server's own durability settings). The query
times on a million history rows are SQLite's (the history is generated
straight into a SQLite file). The global daily board (every player's first
attempt at one day's deal, wherever played) is also timed on one day of a
million first attempts, on both backends (``--day-rows``).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Finish
from storage import ranking
from storage.sqlite import SqliteStore, to_ms
from storage.sqlite import opening as sqlite_open

CODE = "BK1-C4-AAAAA24"
NOW = dt.datetime(2026, 3, 4, 12, 0, tzinfo=dt.UTC)


async def pg_store(url: str) -> tuple[Any, Any]:
    """A PostgreSQL store in a fresh schema, and the admin connection that drops it."""
    import asyncpg

    import storage

    schema = f"bench_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(url)
    await admin.execute(f'CREATE SCHEMA "{schema}"')
    store = await storage.open_store(f"{url}{'&' if '?' in url else '?'}search_path={schema}")
    return store, (admin, schema)


async def drop_pg(handle: Any) -> None:
    admin, schema = handle
    await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    await admin.close()


async def pg_moves(url: str, count: int, games: int, each: int) -> tuple[float, float]:
    """(one game's moves/s, moves/s over ``games`` games at once) on PostgreSQL."""
    store, handle = await pg_store(url)
    try:
        game = await store.create_game("bakers", CODE, 1, 1, 1, variant="4")
        start = time.perf_counter()
        for i in range(count):
            game = await store.append_move(game.id, game.version, f"{i % 8}h", score=i, move_count=i)
        one = count / (time.perf_counter() - start)
        rows = [
            await store.create_game("bakers", CODE, owner, 1, 1, variant="4") for owner in range(2, games + 2)
        ]

        async def player(game: Any) -> None:
            for i in range(each):
                game = await store.append_move(game.id, game.version, f"{i % 8}h", score=i, move_count=i)

        start = time.perf_counter()
        await asyncio.gather(*(player(g) for g in rows))
        many = games * each / (time.perf_counter() - start)
    finally:
        await store.close()
        await drop_pg(handle)
    return one, many


async def moves_one_game(folder: Path, synchronous: str, count: int) -> float:
    store = await SqliteStore.open(str(folder / f"one-{synchronous}.db"), synchronous=synchronous)
    game = await store.create_game("bakers", CODE, 1, 1, 1, variant="4")
    start = time.perf_counter()
    for i in range(count):
        game = await store.append_move(game.id, game.version, f"{i % 8}h", score=i, move_count=i)
    elapsed = time.perf_counter() - start
    await store.close()
    return count / elapsed


async def moves_many_games(folder: Path, synchronous: str, games: int, each: int) -> float:
    store = await SqliteStore.open(str(folder / f"many-{synchronous}.db"), synchronous=synchronous)
    rows = [await store.create_game("bakers", CODE, owner, 1, 1, variant="4") for owner in range(games)]

    async def player(game) -> None:
        for i in range(each):
            game = await store.append_move(game.id, game.version, f"{i % 8}h", score=i, move_count=i)

    start = time.perf_counter()
    await asyncio.gather(*(player(g) for g in rows))
    elapsed = time.perf_counter() - start
    await store.close()
    return games * each / elapsed


def fill_history(path: Path, rows: int, seed: int = 1) -> dict[str, int]:
    """A schema-version-1 file with ``rows`` results: 20,000 players (a few very active), 50 guilds of
    10 channels, one hot channel with 10% of all games, a year of finish times, 30% daily games.

    Opening it afterwards runs migration 2 (the per-player summaries) over the whole history.
    Returns the ids to query.
    """
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = OFF")
    first = sqlite_open.load_migrations()[0]
    statements = first.statements()
    conn.execute("BEGIN")
    for statement in statements:
        if not statement.startswith(("CREATE INDEX results_", "CREATE UNIQUE INDEX results_")):
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {first.number:d}")
    conn.execute(f"PRAGMA application_id = {sqlite_open.APPLICATION_ID:d}")
    conn.execute("COMMIT")

    year_ms = 365 * 24 * 3600 * 1000
    now_ms = to_ms(NOW)
    first_daily: set[tuple[int, str, str]] = set()
    hot_channel = 1000

    def row(game_id: int) -> tuple:
        kind = "bakers" if rng.random() < 0.7 else "calculation"
        channel = hot_channel if rng.random() < 0.1 else 1000 + rng.randrange(1, 500)
        guild = 1 + (channel - 1000) // 10
        user = 100 + int(20000 * rng.random() ** 2)
        finished = now_ms - rng.randrange(year_ms)
        if kind == "bakers":
            cells = rng.choice((4, 4, 4, 2, 1))
            status = "won" if rng.random() < 0.5 else rng.choice(("lost", "resigned"))
            moves, score = rng.randint(60, 200), rng.randint(0, 900)
        else:
            cells = None
            score = rng.randint(10, 52)
            status = "won" if score == 52 else rng.choice(("lost", "resigned"))
            moves = rng.randint(52, 150)
        daily, counts = None, 0
        if rng.random() < 0.3:
            daily = dt.datetime.fromtimestamp(finished / 1000, dt.UTC).date().isoformat()
            key = (user, kind, daily)
            counts = 0 if key in first_daily else 1
            first_daily.add(key)
        # Schema 1 keeps no cards home, time or hints; the upgrade to schema 9 re-keys every row.
        rank = ranking.rank_key(kind, Finish(status, score, moves))
        return (
            game_id,
            kind,
            CODE,
            cells,
            user,
            guild,
            channel,
            status,
            score,
            moves,
            rank,
            finished,
            daily,
            counts,
        )

    conn.execute("BEGIN")
    batch = 50_000
    for start in range(1, rows + 1, batch):
        conn.executemany(
            "INSERT INTO results (game_id, kind, code, cells, user_id, guild_id, channel_id, status, score, "
            "move_count, rank_key, finished_at, daily_date, counts_for_daily) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [row(i) for i in range(start, min(start + batch, rows + 1))],
        )
    # Every result has its game (as the foreign key demands): the upgrade to schema 9 reads it.
    conn.execute(
        "INSERT INTO games (id, kind, code, cells, owner_id, guild_id, channel_id, status, score, move_count, "
        "started_at, updated_at, finished_at, daily_date) SELECT game_id, kind, code, cells, user_id, guild_id, "
        "channel_id, status, score, move_count, finished_at, finished_at, finished_at, daily_date FROM results"
    )
    for statement in statements:
        if statement.startswith(("CREATE INDEX results_", "CREATE UNIQUE INDEX results_")):
            conn.execute(statement)
    conn.execute("COMMIT")
    busiest = conn.execute(
        "SELECT user_id FROM results GROUP BY user_id ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    typical = conn.execute("SELECT user_id FROM results WHERE user_id > 15000 LIMIT 1").fetchone()[0]
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return {
        "hot_channel": hot_channel,
        "hot_guild": 1,
        "channel": 1250,
        "guild": 26,
        "user": busiest,
        "typical": typical,
    }


def scope_sizes(path: Path, ids: dict[str, int]) -> dict[str, int]:
    conn = sqlite3.connect(path)
    one = lambda sql, value: conn.execute(sql, (value,)).fetchone()[0]  # noqa: E731
    sizes = {
        "hot_channel": one("SELECT count(*) FROM results WHERE channel_id = ?", ids["hot_channel"]),
        "channel": one("SELECT count(*) FROM results WHERE channel_id = ?", ids["channel"]),
        "hot_guild": one("SELECT count(*) FROM results WHERE guild_id = ?", ids["hot_guild"]),
        "guild": one("SELECT count(*) FROM results WHERE guild_id = ?", ids["guild"]),
        "user": one("SELECT count(*) FROM results WHERE user_id = ?", ids["user"]),
        "typical": one("SELECT count(*) FROM results WHERE user_id = ?", ids["typical"]),
        "day": one(
            "SELECT count(*) FROM results WHERE kind = 'bakers' AND counts_for_daily = 1 AND daily_date = ?",
            (NOW.date() - dt.timedelta(days=1)).isoformat(),
        ),
    }
    conn.close()
    return sizes


async def timed(call, repeat: int = 7) -> tuple[float, float]:
    """(median, max) milliseconds over ``repeat`` runs after one warm-up."""
    await call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


async def query_times(path: Path, ids: dict[str, int], n: dict[str, int]) -> list[tuple[str, float, float]]:
    store = await SqliteStore.open(str(path), clock=lambda: NOW)
    day = NOW.date() - dt.timedelta(days=1)
    hot, chan, hot_guild, guild = ids["hot_channel"], ids["channel"], ids["hot_guild"], ids["guild"]
    cases = [
        (
            f"channel, all time, hot channel ({n['hot_channel']:,} results)",
            lambda: store.leaderboard("bakers", channel_id=hot),
        ),
        (
            f"channel, all time, typical channel ({n['channel']:,})",
            lambda: store.leaderboard("bakers", channel_id=chan),
        ),
        (
            "channel, all time, hot channel, page 50",
            lambda: store.leaderboard("bakers", channel_id=hot, offset=490),
        ),
        (
            "channel, all time, hot channel, 1 cell only",
            lambda: store.leaderboard("bakers", channel_id=hot, variant="1"),
        ),
        (
            "channel, this week, hot channel",
            lambda: store.leaderboard("bakers", channel_id=hot, period="week"),
        ),
        (
            "channel, this week, typical channel",
            lambda: store.leaderboard("bakers", channel_id=chan, period="week"),
        ),
        (
            "channel, daily, hot channel",
            lambda: store.leaderboard("bakers", channel_id=hot, period="daily", daily_date=day),
        ),
        (
            "players on the board (paging), hot channel",
            lambda: store.leaderboard_size("bakers", channel_id=hot),
        ),
        (
            "players this week (paging), hot channel",
            lambda: store.leaderboard_size("bakers", channel_id=hot, period="week"),
        ),
        (
            f"guild, all time, hot guild ({n['hot_guild']:,})",
            lambda: store.leaderboard("bakers", guild_id=hot_guild),
        ),
        (
            f"guild, all time, typical guild ({n['guild']:,})",
            lambda: store.leaderboard("bakers", guild_id=guild),
        ),
        (
            "guild, this week, hot guild",
            lambda: store.leaderboard("bakers", guild_id=hot_guild, period="week"),
        ),
        (
            f"player stats, busiest player ({n['user']:,} games)",
            lambda: store.player_stats(ids["user"], "bakers"),
        ),
        (
            "player stats, busiest player, one guild",
            lambda: store.player_stats(ids["user"], "bakers", guild_id=hot_guild),
        ),
        (
            f"player stats, typical player ({n['typical']:,} games)",
            lambda: store.player_stats(ids["typical"], "bakers"),
        ),
        ("daily results, one date, all guilds", lambda: store.daily_results("bakers", day)),
        (
            f"global daily board, one date ({n['day']:,} first attempts)",
            lambda: store.leaderboard("bakers", period="daily", daily_date=day),
        ),
        (
            "global daily board, its size (paging)",
            lambda: store.leaderboard_size("bakers", period="daily", daily_date=day),
        ),
    ]
    results = []
    for name, call in cases:
        median, worst = await timed(call)
        results.append((name, median, worst))
    await store.close()
    return results


DAY = NOW.date()
DAY_COLUMNS = (
    "game_id",
    "kind",
    "code",
    "variant",
    "user_id",
    "guild_id",
    "channel_id",
    "status",
    "score",
    "move_count",
    "rank_key",
    "finished_at",
    "daily_date",
    "counts_for_daily",
    "source",
    "home",
    "seconds",
    "hints",
)


def one_day(rows: int, seed: int = 2) -> list[tuple[Any, ...]]:
    """``rows`` first attempts at ``DAY``'s Jeu du Boulanger daily, one player each, from 5,000
    guilds of 10 channels, finished over the 12 hours before ``NOW`` (finish times as datetimes),
    one in five with hints."""
    rng = random.Random(seed)
    out = []
    for i in range(1, rows + 1):
        status = "won" if rng.random() < 0.5 else rng.choice(("lost", "resigned"))
        moves, score, seconds = rng.randint(60, 200), rng.randint(0, 900), rng.randint(120, 3600)
        home = 52 if status == "won" else rng.randint(0, 51)
        hints = rng.randint(1, 5) if rng.random() < 0.2 else 0
        finished = NOW - dt.timedelta(milliseconds=rng.randrange(12 * 3600 * 1000))
        guild = 1 + rng.randrange(5000)
        finish = Finish(status, score, moves, home, seconds, hints)
        record = (
            i,
            "bakers",
            CODE,
            "4",
            100 + i,
            guild,
            10 * guild + rng.randrange(10),
            status,
            score,
            moves,
        )
        out.append(
            (*record, ranking.rank_key("bakers", finish), finished, DAY, True, "daily", home, seconds, hints)
        )
    return out


def global_cases(store: Any, rows: int) -> list[tuple[str, Any]]:
    last = max(0, rows - 10)
    return [
        ("global daily board, page 1", lambda: store.leaderboard("bakers", period="daily", daily_date=DAY)),
        (
            "global daily board, page 100",
            lambda: store.leaderboard("bakers", period="daily", daily_date=DAY, offset=990),
        ),
        (
            "global daily board, page 1,000",
            lambda: store.leaderboard("bakers", period="daily", daily_date=DAY, offset=9990),
        ),
        (
            f"global daily board, last page (offset {last:,})",
            lambda: store.leaderboard("bakers", period="daily", daily_date=DAY, offset=last),
        ),
        (
            "global daily board, its size (count of players)",
            lambda: store.leaderboard_size("bakers", period="daily", daily_date=DAY),
        ),
    ]


async def sqlite_one_day(folder: Path, records: list[tuple[Any, ...]]) -> list[tuple[str, float, float]]:
    """The global daily board on a SQLite file of the current schema holding one day's attempts."""
    path = folder / "one-day.db"
    store = await SqliteStore.open(str(path))
    await store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    conn.executemany(
        f"INSERT INTO results ({', '.join(DAY_COLUMNS)}) VALUES ({', '.join('?' * len(DAY_COLUMNS))})",
        [(*r[:11], to_ms(r[11]), r[12].isoformat(), int(r[13]), *r[14:]) for r in records],
    )
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    store = await SqliteStore.open(str(path), clock=lambda: NOW)
    try:
        return [(name, *await timed(call)) for name, call in global_cases(store, len(records))]
    finally:
        await store.close()


async def pg_one_day(url: str, records: list[tuple[Any, ...]]) -> list[tuple[str, float, float]]:
    """The same on PostgreSQL: the games and their results copied into a fresh schema, vacuumed."""
    store, handle = await pg_store(url)
    admin, schema = handle
    try:
        await admin.copy_records_to_table(
            "games",
            schema_name=schema,
            columns=(
                "id",
                "kind",
                "code",
                "variant",
                "owner_id",
                "guild_id",
                "channel_id",
                "status",
                "score",
                "move_count",
                "started_at",
                "updated_at",
                "finished_at",
                "daily_date",
                "source",
            ),
            records=[(*r[:10], r[11], r[11], r[11], r[12], r[14]) for r in records],
        )
        await admin.copy_records_to_table("results", schema_name=schema, columns=DAY_COLUMNS, records=records)
        await admin.execute(f'VACUUM ANALYZE "{schema}".games, "{schema}".results')
        return [(name, *await timed(call)) for name, call in global_cases(store, len(records))]
    finally:
        await store.close()
        await drop_pg(handle)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--keep", help="directory to keep the database files in")
    parser.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    parser.add_argument(
        "--day-rows", type=int, default=1_000_000, help="first attempts on the global day (0: skip)"
    )
    parser.add_argument("--global-only", action="store_true", help="only the global daily board cases")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="boulanger-bench-") as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        if args.day_rows:
            records = one_day(args.day_rows)
            print(
                f"Global daily board on one day of {args.day_rows:,} first attempts (median / worst of 7, ms):"
            )
            backends = [("SQLite", sqlite_one_day(folder, records))]
            if not args.no_pg:
                backends.append(("PostgreSQL", pg_one_day(args.pg_url, records)))
            for backend, run in backends:
                for name, median, worst in await run:
                    print(f"  {backend:10} {name:52} {median:8.2f} {worst:8.2f}")
        if args.global_only:
            return
        print("\nMoves persisted per second (each committed before the call returns):")
        for sync in ("FULL", "NORMAL"):
            one = await moves_one_game(folder, sync, 2000)
            many = await moves_many_games(folder, sync, 100, 30)
            print(f"  synchronous={sync:6}  one game: {one:7.0f}/s   100 games at once: {many:7.0f}/s")
        if not args.no_pg:
            one, many = await pg_moves(args.pg_url, 2000, 100, 30)
            print(f"  PostgreSQL           one game: {one:7.0f}/s   100 games at once: {many:7.0f}/s")

        path = folder / "history.db"
        start = time.perf_counter()
        ids = fill_history(path, args.rows)
        print(
            f"\nGenerated {args.rows:,} history rows (schema version 1) in {time.perf_counter() - start:.1f} s"
        )
        start = time.perf_counter()
        store = await SqliteStore.open(str(path))
        await store.close()
        print(
            f"Migrations to the current schema (summaries rebuilt from the history): {time.perf_counter() - start:.1f} s"
        )
        start = time.perf_counter()
        store = await SqliteStore.open(str(path))
        await store.close()
        print(
            f"Opening it with the start-up quick_check: {time.perf_counter() - start:.2f} s "
            f"({path.stat().st_size / 1e6:.0f} MB)"
        )
        sizes = scope_sizes(path, ids)
        print(f"\nQuery times on {args.rows:,} history rows (median / worst of 7, ms):")
        for name, median, worst in await query_times(path, ids, sizes):
            print(f"  {name:52} {median:8.2f} {worst:8.2f}")


if __name__ == "__main__":
    asyncio.run(main())
