"""Run the real fc-solve (Debian ``freecell-solver-bin``) on a board, for tests and benchmarks.

Two presets:

* exact (default): ``-g bakers_game --freecells-num C -to 01ABCDE -sp r:tf -sel``,
  whose verdicts are exact (the faster presets call some solvable deals
  unsolvable, e.g. deals 276 and 278 of Microsoft's numbering with 4 cells);
* fast: ``-g bakers_game --freecells-num C -sel`` (issue 2's differential test).

``--freecells-num`` must come after ``-g``, which resets it to 4. ``-sel``
tells "iterations exceeded" apart from "lost".
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import time
from dataclasses import dataclass, field

FC_SOLVE = shutil.which("fc-solve") or "/usr/bin/fc-solve"
EXACT_PRESET = ("-to", "01ABCDE", "-sp", "r:tf")

SOLVABLE, UNSOLVABLE, UNKNOWN = "winnable", "lost", "unknown"  # the solver's words (engine.solver.result)


@dataclass(frozen=True, slots=True)
class FcResult:
    verdict: str
    moves: list[str] = field(default_factory=list)
    iterations: int | None = None
    cpu_seconds: float = 0.0


def available() -> bool:
    return os.access(FC_SOLVE, os.X_OK)


def missing() -> bool:
    """True when tests needing fc-solve should be skipped: never under CI, where setup installs it."""
    return not available() and not os.environ.get("CI")


def command(
    cells: int,
    *,
    exact: bool = True,
    moves: bool = False,
    max_iters: int | None = None,
    game: str = "bakers_game",
) -> list[str]:
    """``game``: fc-solve's ``-g`` (``bakers_game``, ``freecell``)."""
    cmd = [FC_SOLVE, "-g", game, "--freecells-num", str(cells)]
    if exact:
        cmd += EXACT_PRESET
    cmd.append("-sel")
    if moves:
        cmd += ["-m", "-snx"]
    if max_iters is not None:
        cmd += ["-mi", str(max_iters)]
    return cmd


def parse_output(text: str) -> FcResult:
    verdict = None
    iterations = None
    moves: list[str] = []
    in_moves = False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("-=-=-"):
            in_moves = True
        elif s.startswith("This game is solveable"):
            verdict, in_moves = SOLVABLE, False
        elif s.startswith("I could not solve"):
            verdict, in_moves = UNSOLVABLE, False
        elif s.startswith("Iterations count exceeded"):
            verdict, in_moves = UNKNOWN, False
        elif s.startswith("Total number of states checked is"):
            iterations = int(s.rsplit(" ", 1)[1].rstrip("."))
        elif in_moves and s:
            moves.extend(s.split())
    if verdict is None:
        raise RuntimeError(f"fc-solve printed no verdict:\n{text[:500]}")
    return FcResult(verdict, moves, iterations)


def run(
    board: str,
    cells: int,
    *,
    exact: bool = True,
    moves: bool = False,
    max_iters: int | None = None,
    timeout: float = 120.0,
    game: str = "bakers_game",
) -> FcResult:
    """Solve one board text (fc-solve's format); the verdict, the moves if asked, the CPU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        command(cells, exact=exact, moves=moves, max_iters=max_iters, game=game),
        input=board,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 and "solve" not in proc.stdout:
        raise RuntimeError(f"fc-solve failed ({proc.returncode}): {proc.stderr[:300]}")
    r = parse_output(proc.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return FcResult(r.verdict, r.moves, r.iterations, cpu)


def wall_clock_run(board: str, cells: int, **kwargs: object) -> tuple[FcResult, float]:
    t0 = time.perf_counter()
    r = run(board, cells, **kwargs)  # type: ignore[arg-type]
    return r, time.perf_counter() - t0
