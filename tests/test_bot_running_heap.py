"""bot.running.heap: the start-up's objects frozen out of the collector's way (in a process of
its own here: freezing the test process's objects would keep every later test's garbage)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

PROBE = """
import gc
import bot.adapter.app  # the modules a running bot has loaded
from bot.running import heap

cycle = []
cycle.append(cycle)  # garbage: collected, not frozen
del cycle
before = gc.get_freeze_count()
frozen = heap.settle()
assert before == 0 and frozen > 10_000, (before, frozen)
assert gc.get_threshold() == heap.THRESHOLDS
assert gc.get_count()[0] < 100  # the collection just ran
print("ok", frozen)
"""


@pytest.mark.processes
def test_settle_collects_then_freezes_what_start_up_built():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")


def test_a_bot_built_in_a_test_leaves_the_collector_alone():
    """Only ``python -m bot`` settles (its DEBUG log says so: tests/test_bot_hardening.py)."""
    from bot.adapter.app import BoulangerBot
    from bot.running.config import Config

    assert BoulangerBot(Config(token="x", db_path=Path("unused.sqlite3"))).settle_heap is False
