"""The oracle: an independent thoughtful-Klondike solver (every card known) for the tests.

Its search is ``oracle.cpp``, built here with g++ on first use (into the temporary directory,
named by the source's hash) and run once a position; so every test that calls it starts a
program and carries the ``processes`` mark.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.klondike_oracle.layout import Position

SOURCE = Path(__file__).with_name("oracle.cpp")


@dataclass(frozen=True)
class Verdict:
    verdict: str  # "winnable", "lost" or "unknown" (the budget of positions was spent)
    line: str  # for "winnable", moves in KLONDIKE.md's notation; else ""
    positions: int  # positions the search visited
    cpu: float  # the search's CPU seconds


def compiler_missing() -> bool:
    return shutil.which("g++") is None


def program() -> Path:
    """The built search, building it if this source was never built on this machine."""
    source = SOURCE.read_bytes()
    built = Path(tempfile.gettempdir()) / f"klondike-oracle-{hashlib.sha256(source).hexdigest()[:16]}"
    if not built.exists():
        partial = built.with_name(f"{built.name}.{os.getpid()}")
        subprocess.run(
            ["g++", "-O2", "-std=c++17", "-o", str(partial), str(SOURCE)],
            check=True,
            capture_output=True,
        )
        os.replace(partial, built)  # atomic: parallel workers may build it at once
    return built


def _input(position: Position, draw: int, budget: int) -> str:
    talon = [*position.waste, *position.stock]
    rows = [
        f"draw {draw} budget {budget} found {' '.join(map(str, position.foundations))}",
        f"talon {len(position.waste)} {len(talon)} {' '.join(map(str, talon))}",
    ]
    for pile, down in zip(position.piles, position.face_down, strict=True):
        rows.append(f"pile {down} {len(pile)} {' '.join(map(str, pile))}")
    return "\n".join(rows) + "\n"


def run(position: Position, draw: int, budget: int) -> Verdict:
    """Search ``position`` visiting at most ``budget`` positions."""
    position.check()
    done = subprocess.run(
        [str(program())], input=_input(position, draw, budget), capture_output=True, text=True, check=True
    )
    head, _, line = done.stdout.partition("\n")
    verdict, positions, cpu = head.split()
    return Verdict(verdict, line.strip(), int(positions), float(cpu))


def oracle_solve(
    piles: Sequence[Sequence[int]],
    face_down: Sequence[int],
    stock: Sequence[int],
    waste: Sequence[int],
    foundations: Sequence[int],
    draw: int,
    budget: int,
) -> tuple[str, str]:
    """(verdict, line): "winnable" with a winning line, "lost", or "unknown" with the budget spent."""
    found = tuple(foundations)
    assert len(found) == 4
    position = Position(
        piles=tuple(tuple(p) for p in piles),
        face_down=tuple(face_down),
        stock=tuple(stock),
        waste=tuple(waste),
        foundations=(found[0], found[1], found[2], found[3]),
    )
    result = run(position, draw, budget)
    return result.verdict, result.line
