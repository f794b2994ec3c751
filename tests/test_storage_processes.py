"""Real processes on one file: SIGKILL at random moments loses no acknowledged move; racers lose no update."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import engine
import storage

pytestmark = pytest.mark.processes  # every test here starts the bot or another program (tests/conftest.py)

ROOT = Path(__file__).resolve().parent.parent


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def run_and_kill(path: Path, seed: int, after: float) -> list[str]:
    """Start a writer, SIGKILL it ``after`` seconds after its first acknowledgement; its output lines."""
    proc = start("tests.storage_procs.writer", str(path), str(seed), "3")
    lines: list[str] = []
    first = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.strip())
            first.set()

    reader = threading.Thread(target=read)
    reader.start()
    if not first.wait(timeout=20):
        proc.kill()
        reader.join()
        pytest.fail(f"the writer acknowledged nothing: {proc.stderr.read() if proc.stderr else ''}")
    time.sleep(after)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    reader.join(timeout=10)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
    return lines


async def test_acknowledged_moves_survive_sigkill_at_random_moments(tmp_path):
    path = tmp_path / "kill.db"
    rng = random.Random(2024)
    acked: list[tuple[int, int, str]] = []
    for run in range(6):
        for line in run_and_kill(path, seed=run, after=rng.uniform(0.05, 1.2)):
            if line.startswith("ACK "):
                _, game_id, index, action = line.split(" ")
                acked.append((int(game_id), int(index), action))
    assert len(acked) > 100  # enough moves were really made

    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    counts = dict(conn.execute("SELECT id, action_count FROM games").fetchall())
    results = {r[0] for r in conn.execute("SELECT game_id FROM results")}
    conn.close()

    store = await storage.open_store(str(path))
    try:
        assert await store.integrity_check() == []
        games = {gid: await store.get_game(gid) for gid in counts}
    finally:
        await store.close()
    for game_id, index, action in acked:
        assert games[game_id].moves[index] == action, f"acknowledged move {index} of game {game_id} is lost"
    for game in games.values():
        # No half-written game: the log, its count, the score and the status all agree with a replay.
        assert counts[game.id] == len(game.moves)
        replayed = engine.replay(game.code, game.moves)
        assert (replayed.score, replayed.move_count) == (game.score, game.move_count)
        assert (game.id in results) == (game.status != "active")
        if game.status == "won":
            assert replayed.is_won
        if game.status == "active":
            assert not replayed.is_won
    # At most one active game each (none if killed between finishing a game and starting the next).
    active = [g.owner_id for g in games.values() if g.is_active]
    assert len(active) == len(set(active)) and set(active) <= {1, 2, 3}


async def test_two_processes_racing_on_one_game_lose_no_update(tmp_path):
    path = tmp_path / "race.db"
    store = await storage.open_store(str(path))
    game = await store.create_game("bakers", "BK1-C4-AAAAA24", 1, None, None)
    await store.close()
    count = 40
    start_at = f"{time.time() + 1.0:.3f}"
    racers = [
        start("tests.storage_procs.racer", str(path), str(game.id), str(count), tag, start_at) for tag in "ab"
    ]
    outputs = [r.communicate(timeout=60) for r in racers]
    assert [r.returncode for r in racers] == [0, 0], [o[1] for o in outputs]
    conflicts = sum(int(out.strip()) for out, _ in outputs)

    store = await storage.open_store(str(path))
    try:
        final = await store.get_game(game.id)
    finally:
        await store.close()
    assert final.version == 1 + 2 * count
    for tag in "ab":
        # Every update of each racer is there, once, in the order it made them.
        assert [m for m in final.moves if m[0] == tag] == [f"{tag}{i}" for i in range(count)]
    assert len(final.moves) == 2 * count
    assert conflicts > 0  # the stale writer was told, not silently overwritten
