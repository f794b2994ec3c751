"""The marks ``./test.sh --quick`` leaves out, and the check that keeps them honest (tests/conftest.py)."""

from __future__ import annotations

import sys

import pytest

import tests.conftest as conftest


def announce_a_program() -> None:
    """What subprocess.Popen raises when it starts a program, raised here without starting one."""
    sys.audit("subprocess.Popen", "/usr/bin/fc-solve", ["fc-solve"], None, None)


def test_a_program_started_by_an_unmarked_test_is_caught(request):
    announce_a_program()
    # Taken back, so that this test itself passes; left there, the test would fail after its call.
    assert conftest._started.pop(request.node.nodeid) == ["fc-solve"]


@pytest.mark.fcsolve
def test_a_test_marked_for_it_may_start_a_program(request):
    announce_a_program()
    assert request.node.nodeid not in conftest._started


def test_other_audit_events_are_not_programs(request):
    sys.audit("open", "x", "r", 0)
    assert request.node.nodeid not in conftest._started
