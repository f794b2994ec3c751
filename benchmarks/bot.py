"""50 simulated players at once against the real bot process, through the local fake Discord.

Each player starts a Jeu du Boulanger game and plays random legal moves with the
board controls as a player would (a place's one-press move, Home, now and then the
"Another move…" menu: one interaction per move),
pausing a human-like "think time" between presses. Some presses are sent twice
at once (a double click). Prints p50/p95/max from interaction to final reply,
and counts lost moves (acknowledged but not stored) and doubled moves (stored
more often than acknowledged) by reading the database afterwards; a press is
acknowledged when its own reply shows the move (not a refused double click whose
deferred board the other click edited: docs/BENCHMARKS.md, "Lost moves").

``--database postgres`` runs the bot on a fresh schema of the PostgreSQL server at
``--pg-url`` (created for the run and dropped after it) instead of a SQLite file;
``--processes 2`` runs two bot processes, shards 0 and 1 of 2, with the players
spread over a guild on each shard (the bot CPU printed is the sum of both).

    .venv/bin/python benchmarks/bot.py [--players 50] [--moves 15] [--think 0.5 2.0]
        [--database sqlite|postgres] [--processes 1|2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
import storage
from bot.games.bakers import shipped_winnable
from bot.running.sharding import shard_of
from engine.bakers import BakersGame
from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.interactions import InteractionResult


@dataclass
class Player:
    index: int
    code: str
    guild: Any = None  # None: the fake's default guild
    latencies: list[float] = field(default_factory=list)
    acknowledged: int = 0
    refused_doubles: int = 0
    failures: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)  # the actions confirmed, in order
    # The press that got no answer in 3 s, after which the player stopped: its move may or may
    # not be stored (the bot may have played it and failed to say so), both are allowed.
    unanswered: str | None = None
    # Presses the old count ("a reply that is not ephemeral") took as acknowledged, though
    # their own reply did not confirm a move: what each got.
    unconfirmed: list[str] = field(default_factory=list)
    stuck: bool = False


def button(message, action: str) -> str:
    for cid in message.custom_ids():
        if cid.split(":")[-1] == action:
            return cid
    raise LookupError(action)


async def play(
    fake: FakeDiscord, player: Player, moves: int, think: tuple[float, float], rng: random.Random
) -> None:
    user = fake.add_user(f"player{player.index}")
    await asyncio.sleep(rng.uniform(0, think[1]))  # players arrive over a few seconds
    start = await fake.slash(user, "boulanger", {"code": player.code}, guild=player.guild, timeout=30)
    player.latencies.append(start.elapsed_ms or 0.0)
    board = start.message
    if board is None or start.ephemeral:  # not acknowledged in 3 s (an overloaded machine): no game
        player.failures.append(f"/boulanger: {'no reply in 3 s' if start.failed else start.content!r}")
        return
    mirror = engine.new_game(player.code)
    for _ in range(moves):
        options = mirror.legal_moves()
        if not options or (mirror.undo_depth and rng.random() < 0.05):
            if not mirror.undo_depth:
                player.stuck = True
                break
            await asyncio.sleep(rng.uniform(*think))
            result = await fake.click(user, board, button(fake.message(board.id), "u"), timeout=30)
            player.latencies.append(result.elapsed_ms or 0.0)
            if result.failed:
                player.failures.append("u: no reply in 3 s")
                player.unanswered = engine.UNDO
                break
            if await _confirmed(result, player, "u"):
                player.acknowledged += 1
                player.played.append(engine.UNDO)
                mirror.undo()
            continue
        # Like a player: Home when cards can go, else a one-press move, now and then the menu.
        current = fake.message(board.id)
        run = mirror.home_run()
        menu = [o["value"] for c in current.walk() if c["type"] == 3 for o in c["options"]]
        one_press = [p for p in mirror.places() if _double_tap(mirror, p)]
        await asyncio.sleep(rng.uniform(*think))
        if run:
            expected, press = ",".join(run), ("click", button(current, "h"))
        elif menu and (rng.random() < 0.2 or not one_press):
            choice = rng.choice(menu)
            expected, press = choice, ("select", choice)
        elif one_press:
            place = rng.choice(one_press)
            expected, press = _double_tap(mirror, place) or "", ("click", button(current, place))
        else:
            player.stuck = True
            break

        copies = 2 if rng.random() < 0.1 else 1  # a double click: the same press twice at once
        results = await asyncio.gather(*(_send(fake, user, current, press) for _ in range(copies)))
        confirmed = 0
        for result in results:
            player.latencies.append(result.elapsed_ms or 0.0)
            if result.failed:
                player.failures.append(f"{expected}: no reply in 3 s")
            elif await _confirmed(result, player, expected):
                confirmed += 1
            else:
                player.refused_doubles += 1
        player.acknowledged += confirmed
        if confirmed:
            player.played.append(expected)
            mirror.play(expected)
        elif any(r.failed for r in results):  # was it played? The player cannot know: stop here
            player.unanswered = expected
            break


async def _confirmed(result: InteractionResult, player: Player, expected: str) -> bool:
    """Did the press's own reply show its move: the board edited by this interaction (a type 7
    answer, or its own token's edit after a type 6 defer)? A refused press answers privately.

    Not "any reply that is not ephemeral": after a defer the pressed board is the reply's
    message, and the other press of a double click editing it makes that look like an answer.
    Waits (up to 10 s) for a deferred press's own outcome: the fake calls it settled on that edit."""
    deadline = time.monotonic() + 10
    while result.deferred and not result.own_edits and not result.followups and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    own_reply = result.state.original_id is not None and result.type == 4
    confirmed = result.own_edits > 0 or (own_reply and not result.ephemeral)
    if not confirmed and not result.ephemeral and not result.failed:  # the old count took it
        what = "; ".join(
            f"{'private' if m.ephemeral else 'public'} {m.content[:60]!r}" for m in result.followups
        )
        player.unconfirmed.append(
            f"{expected}: type {result.type}, board edits {result.state.edits_after_ack} "
            f"(own {result.own_edits}), followups: {what or 'none'}"
        )
    return confirmed


async def _send(fake: FakeDiscord, user: Any, message: Any, press: tuple[str, str]) -> InteractionResult:
    if press[0] == "select":
        return await fake.select(user, message, _menu_id(message), [press[1]], timeout=30)
    return await fake.click(user, message, press[1], timeout=30)


def _double_tap(game: BakersGame, place: str) -> str | None:
    try:
        return game.double_tap_target(place)
    except engine.IllegalMove:
        return None


def _menu_id(message) -> str:
    return next(c["custom_id"] for c in message.walk() if c["type"] == 3)


async def main(ns: argparse.Namespace) -> int:
    rng = random.Random(ns.seed)
    deals = shipped_winnable(4)
    with tempfile.TemporaryDirectory() as tmp:
        async with _database(ns, Path(tmp)) as (db, url):
            async with FakeDiscord(**({"shards": 2} if ns.processes == 2 else {})) as fake:
                env = {"BOULANGER_DATABASE_URL": url} if url else {}
                if ns.processes == 2:
                    common = {**env, "BOULANGER_SHARD_COUNT": "2"}
                    first = (
                        fake.guild
                        if shard_of(fake.guild.id, 2) == 0
                        else fake.add_guild("Zero", shard=(0, 2))
                    )
                    guilds = [first, fake.add_guild("One", shard=(1, 2))]
                    procs = [
                        BotProcess(
                            fake,
                            db_path=db,
                            env={**common, "BOULANGER_SHARD_IDS": "0", "SYNC_GLOBAL": "1"},
                            log_level="WARNING",
                        ),
                        BotProcess(
                            fake, db_path=db, env={**common, "BOULANGER_SHARD_IDS": "1"}, log_level="WARNING"
                        ),
                    ]
                else:
                    guilds = [None]
                    procs = [BotProcess(fake, db_path=db, env=env, log_level="WARNING")]
                try:
                    for proc in procs:
                        await proc.start(timeout=60)
                    players = [
                        Player(
                            i, engine.code_for("bakers", deals[i % len(deals)], 4), guilds[i % len(guilds)]
                        )
                        for i in range(ns.players)
                    ]
                    startup = [_cpu_seconds(proc.process.pid) if proc.process else 0.0 for proc in procs]
                    own_startup = [
                        _own_cpu_seconds(proc.process.pid) if proc.process else 0.0 for proc in procs
                    ]
                    t0 = time.perf_counter()
                    own0 = time.process_time()
                    await asyncio.gather(
                        *(
                            play(fake, p, ns.moves, tuple(ns.think), random.Random(rng.random()))
                            for p in players
                        )
                    )
                    wall = time.perf_counter() - t0
                    cpus = [_cpu_seconds(proc.process.pid) if proc.process else 0.0 for proc in procs]
                    owns = [_own_cpu_seconds(proc.process.pid) if proc.process else 0.0 for proc in procs]
                    fake_cpu = time.process_time() - own0
                finally:
                    for proc in procs:
                        await proc.stop()
                violations = fake.take_violations()
            store = await storage.open_store(url or str(db))
            lost = doubled = old_lost = 0
            differ: list[str] = []
            try:
                for p in players:
                    rows = [g for g in await _games(store, fake, p)]
                    actions = [a for g in rows for a in g.moves]
                    if p.unanswered is not None and actions == [*p.played, p.unanswered]:
                        actions.pop()  # the unanswered last press was played: allowed
                    stored = len(actions)
                    lost += max(0, p.acknowledged - stored)
                    doubled += max(0, stored - p.acknowledged)
                    old_lost += max(0, p.acknowledged + len(p.unconfirmed) - stored)
                    if actions != p.played:  # not just as many: the very moves confirmed, in order
                        differ.append(f"  player {p.index}: confirmed {p.played}, stored {actions}")
                    for g in rows:
                        engine.replay(g.code, g.moves)  # every stored game still replays
            finally:
                await store.close()
    bot_cpu = sum(cpus)
    latencies = sorted(x for p in players for x in p.latencies)
    q = statistics.quantiles(latencies, n=100)
    interactions = len(latencies)
    print(f"players {ns.players}, moves each {ns.moves}, think time {ns.think[0]}-{ns.think[1]} s")
    if ns.explicit:  # --database or --processes given: say what ran (the default output is as before)
        where = "a fresh PostgreSQL schema" if url else "one SQLite file"
        print(f"database {ns.database} ({where}), bot processes {ns.processes}")
    print(f"interactions {interactions} in {wall:.1f} s ({interactions / wall:.1f}/s)")
    name = (
        "bot process tree CPU"
        if len(procs) == 1
        else f"bot process trees CPU ({' + '.join(f'{c:.1f}' for c in cpus)})"
    )
    print(
        f"{name} {bot_cpu:.1f} s over {wall:.1f} s ({bot_cpu / wall:.0%} of one core; "
        f"{bot_cpu / interactions * 1000:.1f} ms per interaction)"
    )
    if ns.explicit:
        playing = bot_cpu - sum(startup)
        print(
            f"  of which start-up (before the first player) {sum(startup):.1f} s; while playing "
            f"{playing:.1f} s ({playing / wall:.0%} of one core; {playing / interactions * 1000:.1f} ms per interaction)"
        )
        own = sum(owns) - sum(own_startup)
        print(
            f"  while playing, the bot process itself {own:.1f} s ({own / interactions * 1000:.1f} ms per "
            f"interaction), its worker processes {playing - own:.1f} s ({(playing - own) / interactions * 1000:.1f} ms)"
        )
    print(
        f"fake Discord + {ns.players} clients (this process) CPU {fake_cpu:.1f} s ({fake_cpu / wall:.0%} of one core)"
    )
    print(f"interaction -> final reply: p50 {q[49]:.0f} ms, p95 {q[94]:.0f} ms, max {latencies[-1]:.0f} ms")
    print(f"players whose random play was stuck with nothing to undo: {sum(p.stuck for p in players)}")
    print(
        f"moves acknowledged {sum(p.acknowledged for p in players)}, double clicks refused as stale "
        f"{sum(p.refused_doubles for p in players)}"
    )
    print(
        f"lost moves {lost}, doubled moves {doubled}, unanswered {sum(len(p.failures) for p in players)}, "
        f"Discord rule violations {len(violations)}"
    )
    for p in players:
        for failure in p.failures[:3]:
            print(f"  player {p.index}: {failure}")
    unconfirmed = [(p.index, u) for p in players for u in p.unconfirmed]
    print(
        f"presses with a public-looking reply that did not confirm their move (counted as "
        f"acknowledged before 2026-12): {len(unconfirmed)}; the old count's lost moves {old_lost}"
    )
    for index, line in unconfirmed:
        print(f"  player {index}: {line}")
    print(f"players whose stored moves are not the confirmed ones in order: {len(differ)}")
    for line in differ:
        print(line)
    return 0 if lost == doubled == len(differ) == 0 else 1


@contextlib.asynccontextmanager
async def _database(ns: argparse.Namespace, tmp: Path) -> AsyncIterator[tuple[Path, str | None]]:
    """The run's database: a SQLite file in `tmp`, or a fresh PostgreSQL schema dropped afterwards.

    Yields (SQLite path, PostgreSQL URL or None); the path is passed to the bot either way
    (`BOULANGER_DATABASE_URL` takes precedence over it).
    """
    db = tmp / "bench.sqlite3"
    if ns.database == "sqlite":
        yield db, None
        return
    import asyncpg

    schema = f"bench_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(ns.pg_url)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield db, f"{ns.pg_url}{'&' if '?' in ns.pg_url else '?'}search_path={schema}"
        finally:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await admin.close()


def _own_cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process alone (its threads, not its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:13]) / os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process's tree (Linux /proc): the process, its reaped
    children, and its live descendants (render workers, verdict and hint workers) with
    theirs."""
    ticks: dict[int, int] = {}  # pid: ticks of it and its reaped children
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        ticks[int(entry.name)] = sum(int(x) for x in fields[11:15])
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    total, todo = 0, [pid]
    while todo:  # a process tree has no cycles
        p = todo.pop()
        total += ticks.get(p, 0)
        todo.extend(children.get(p, ()))
    return total / os.sysconf("SC_CLK_TCK")


async def _games(store: storage.Store, fake: FakeDiscord, player: Player) -> list[storage.GameRow]:
    user = next(u for u in fake.users.values() if u.name == f"player{player.index}")
    row = await store.active_game(user.id, "bakers")
    return [row] if row else []


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0), metavar=("MIN", "MAX"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgres"), help="default sqlite")
    parser.add_argument("--processes", type=int, choices=(1, 2), help="default 1")
    parser.add_argument(
        "--pg-url",
        default=os.environ.get("BOULANGER_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test"),
        help="PostgreSQL server for --database postgres (a schema is created in it and dropped)",
    )
    args = parser.parse_args()
    args.explicit = args.database is not None or args.processes is not None
    args.database = args.database or "sqlite"
    args.processes = args.processes or 1
    sys.exit(asyncio.run(main(args)))
