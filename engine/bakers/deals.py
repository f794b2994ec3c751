"""The shipped stock of proven-winnable deal numbers, and the command that regenerates it.

Only about 4% of deals are winnable with 2 free cells and 0.2% with 1, so new
games and daily challenges draw from deals our solver has already won. The
file ``winnable_deals.json`` is produced reproducibly by

    python -m engine.bakers.deals --generate

which solves every deal of a fixed range per cell count (``RANGES``) with a
fixed node budget (no clock, so the result does not depend on the machine)
and keeps the deals whose solution replayed through the engine to a win, with that
solution (``lines``: its moves, space-separated), so a new game of
a stock deal starts known to be winnable, its winning line at hand (the board's lost-deal
warning needs no search until the player leaves it). ``--lines`` rewrites only the lines
of the deals listed (a few seconds); ``python -m engine.bakers.deals --check`` regenerates
and compares the deals, and checks that every line replays to a win.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.bakers import BakersGame
from engine.codes import make_code
from engine.errors import EngineError
from engine.solver.result import UNKNOWN, WINNABLE
from engine.solver.solving import solve

STOCK_FILE = Path(__file__).with_name("winnable_deals.json")
# Deal ranges [start, stop) searched per cell count: enough for >= 200 / 50 / 10 winnable deals.
RANGES: dict[int, tuple[int, int]] = {4: (1, 301), 2: (1, 1601), 1: (1, 16001)}
NODE_LIMIT = 3_000_000


def check_deal(deal: int, cells: int, node_limit: int = NODE_LIMIT) -> tuple[int, str, int, str]:
    """(deal, verdict, solution length, solution written as a line) under a fixed node budget;
    top level, so pools can pickle it."""
    game = BakersGame(make_code("bakers", deal, cells))
    result = solve(game, time_limit=None, node_limit=node_limit)
    return deal, result.verdict, len(result.moves), _line(result.moves)


def _line(moves: list[str]) -> str:
    return " ".join(moves)


def line_moves(line: str) -> tuple[str, ...]:
    """A shipped line's moves, in order."""
    return tuple(line.split())


def winnable_in(cells: int, start: int, stop: int, workers: int = 2) -> Iterator[tuple[int, str, int, str]]:
    """Every deal of [start, stop) with its verdict, in order."""
    deals = range(start, stop)
    if workers <= 1:
        yield from (check_deal(d, cells) for d in deals)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(check_deal, deals, [cells] * len(deals), chunksize=16)


def generate(workers: int = 2, *, progress: bool = False) -> dict[str, object]:
    deals: dict[str, list[int]] = {}
    par: dict[str, list[int]] = {}
    lines: dict[str, list[str]] = {}
    undecided: dict[str, list[int]] = {}
    stock: dict[str, object] = {
        "generated_by": "python -m engine.bakers.deals --generate",
        "node_limit": NODE_LIMIT,
        "ranges": {str(c): list(r) for c, r in RANGES.items()},
        "deals": deals,
        "par": par,
        "unknown": undecided,
        "lines": lines,
    }
    for cells, (start, stop) in RANGES.items():
        won: list[int] = []
        pars: list[int] = []
        found: list[str] = []
        unknown: list[int] = []
        for deal, verdict, length, line in winnable_in(cells, start, stop, workers):
            if verdict == WINNABLE:
                won.append(deal)
                pars.append(length)
                found.append(line)
            elif verdict == UNKNOWN:
                unknown.append(deal)
        deals[str(cells)] = won
        par[str(cells)] = pars
        lines[str(cells)] = found
        undecided[str(cells)] = unknown
        if progress:
            print(
                f"{cells} cells: {len(won)} winnable of {stop - start}, {len(unknown)} undecided",
                file=sys.stderr,
            )
    return stock


def with_lines(stock: dict[str, Any], workers: int = 2) -> dict[str, Any]:
    """``stock`` with each deal it lists solved anew: its line and par (its deals as they are)."""
    lines: dict[str, list[str]] = {}
    par: dict[str, list[int]] = {}
    for cells, deals in stock["deals"].items():
        lines[cells], par[cells] = [], []
        with ProcessPoolExecutor(workers) as pool:
            for deal, verdict, length, line in pool.map(check_deal, deals, [int(cells)] * len(deals)):
                if verdict != WINNABLE:
                    raise ValueError(f"deal {deal} with {cells} cells was not solved within the budget")
                lines[cells].append(line)
                par[cells].append(length)
    return stock | {"par": par, "lines": lines}


def bad_lines(stock: dict[str, Any]) -> list[str]:
    """The listed deals whose shipped line does not replay to a win (none, when all is well)."""
    bad = []
    for cells, deals in stock["deals"].items():
        lines = stock.get("lines", {}).get(cells, [])
        if len(lines) != len(deals):
            bad.append(f"{cells} cells: {len(deals)} deals, {len(lines)} lines")
            continue
        for deal, line in zip(deals, lines, strict=True):
            game = BakersGame(make_code("bakers", deal, int(cells)))
            try:
                game.replay(line_moves(line))
            except EngineError as exc:
                bad.append(f"deal {deal} with {cells} cells: {exc}")
                continue
            if not game.is_won:
                bad.append(f"deal {deal} with {cells} cells: its line does not win")
    return bad


def _dump(stock: dict[str, object]) -> str:
    """JSON with one line per entry (diff-friendly, lists kept on one line; a deal's line each)."""
    lines = []
    for key, value in stock.items():
        if key == "lines" and isinstance(value, dict):
            inner = ",\n".join(
                f"  {json.dumps(k)}: [\n" + ",\n".join(f"   {json.dumps(line)}" for line in v) + "\n  ]"
                for k, v in value.items()
            )
            lines.append(f" {json.dumps(key)}: {{\n{inner}\n }}")
        elif isinstance(value, dict):
            inner = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            lines.append(f" {json.dumps(key)}: {{\n{inner}\n }}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


@lru_cache(maxsize=1)
def _load() -> dict[str, Any]:
    stock: dict[str, Any] = json.loads(STOCK_FILE.read_text(encoding="utf-8"))
    return stock


def winnable_deals(cells: int) -> list[int]:
    """The shipped proven-winnable deal numbers for 4, 2 or 1 free cells."""
    if cells not in RANGES:
        raise ValueError(f"Jeu du Boulanger is played with 4, 2 or 1 free cells, not {cells}")
    return list(_load()["deals"][str(cells)])


@lru_cache(maxsize=4)
def _lines(cells: int) -> dict[int, str]:
    stock = _load()
    return dict(zip(stock["deals"][str(cells)], stock.get("lines", {}).get(str(cells), []), strict=False))


def winnable_line(deal: int, cells: int) -> tuple[str, ...] | None:
    """The moves of the shipped solution of a stock deal (None: not a shipped deal)."""
    line = _lines(cells).get(deal) if cells in RANGES else None
    return None if line is None else line_moves(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bakers.deals", description=__doc__)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--generate", action="store_true", help=f"rewrite {STOCK_FILE.name}")
    mode.add_argument("--check", action="store_true", help="regenerate and compare with the shipped file")
    mode.add_argument("--lines", action="store_true", help="solve the listed deals anew for their lines only")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.lines:
        STOCK_FILE.write_text(_dump(with_lines(_load(), args.workers)), encoding="utf-8")
        print(f"wrote {STOCK_FILE}")
        return 0
    stock = generate(args.workers, progress=True)
    if args.generate:
        STOCK_FILE.write_text(_dump(stock), encoding="utf-8")
        print(f"wrote {STOCK_FILE}")
        return 0
    shipped = json.loads(STOCK_FILE.read_text(encoding="utf-8"))
    if shipped["deals"] != stock["deals"]:
        print("the shipped stock differs from a fresh generation", file=sys.stderr)
        return 1
    bad = bad_lines(shipped)
    if bad:
        print("shipped lines that do not win:", *bad, sep="\n  ", file=sys.stderr)
        return 1
    print("the shipped stock matches a fresh generation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
