"""The console at a real terminal (tmux: ``new-session -d``, ``send-keys``, ``capture-pane``):
readline's history, Ctrl-C and Ctrl-D, a bare move, one line for an unknown word, no file
unless asked; and the loop thread that lets Ctrl-C cancel a command."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.play import terminal

REPO = Path(__file__).resolve().parent.parent
TMUX = shutil.which("tmux") or "/usr/bin/tmux"  # scripts/setup.sh test installs it
# A terminal program: never skipped (./test.sh installs tmux), left out of ./test.sh --quick.
needs_tmux = pytest.mark.processes


class Tmux:
    """One console in a detached tmux session of its own server (its own socket)."""

    def __init__(self, socket: Path, command: str) -> None:
        self.base = [TMUX, "-S", str(socket)]
        subprocess.run(
            [*self.base, "new-session", "-d", "-x", "120", "-y", "60", command], check=True, timeout=30
        )

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", "0", *keys], check=True, timeout=30)

    def line(self, text: str) -> None:
        self.keys("-l", text)
        self.keys("Enter")

    def screen(self) -> str:
        done = subprocess.run(
            [*self.base, "capture-pane", "-p", "-J", "-S", "-", "-t", "0"],
            check=True,
            capture_output=True,
            text=True,
            timeout=30,
        )
        return done.stdout

    def wait_for(self, text: str, *, count: int = 1, seconds: float = 60) -> str:
        """The screen once ``text`` is on it ``count`` times (the console answered)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen()
            if screen.count(text) >= count:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never showed ({count}x):\n{self.screen()}")

    def prompt_line(self) -> str:
        """The last prompt line on the screen: what is typed at it now."""
        return [line.rstrip() for line in self.screen().splitlines() if line.startswith(">")][-1]

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def console(tmp_path: Path) -> Iterator[Tmux]:
    command = (
        f"cd {REPO} && PYTHONIOENCODING=utf-8 {sys.executable} -m bot console "
        f"--db {tmp_path}/data/c.sqlite3 --out {tmp_path}/out --hint-seconds 20 "
        f"2>{tmp_path}/stderr; echo CONSOLE-EXITED rc=$?; sleep 600"
    )
    session = Tmux(tmp_path / "tmux.sock", command)
    try:
        session.wait_for("type 'help' for commands")
        yield session
    finally:
        session.close()


@needs_tmux
def test_the_console_behaves_like_a_shell(console: Tmux, tmp_path: Path) -> None:
    console.line("new boulanger BK1-C4-AAAAA24")
    console.wait_for("8: 5♣ 8♣ A♠ 3♥ 10♠ J♦")
    console.line("6h")  # a bare move, legal on this deal
    console.wait_for("Last move: A♦ from column 6 home")
    console.line("bogus")
    screen = console.wait_for("unknown command: bogus — type help")
    assert "commands:" not in screen  # one line, not the whole help
    console.keys("-l", "half a line")
    console.keys("C-c")  # cancels the line: a fresh prompt, no quitting
    console.wait_for("> half a line")
    time.sleep(0.3)
    assert console.prompt_line() == ">"
    console.keys("Up")  # the last line entered comes back to the prompt
    time.sleep(0.5)
    assert console.prompt_line() == "> bogus"
    console.keys("C-u")
    console.line("board --png")
    screen = console.wait_for("[picture: ")
    pictures = list((tmp_path / "out").iterdir())
    assert len(pictures) == 1 and pictures[0].suffix == ".png"  # the one asked for
    console.keys("C-c")  # at an empty prompt: says how to quit
    console.wait_for("(Ctrl-C again or Ctrl-D to quit)")
    console.keys("C-c")
    screen = console.wait_for("CONSOLE-EXITED rc=0")
    assert "Traceback" not in screen and "KeyboardInterrupt" not in screen
    assert (tmp_path / "stderr").read_text() == ""
    history = (tmp_path / "data" / "console_history").read_text().splitlines()
    assert history == ["new boulanger BK1-C4-AAAAA24", "6h", "bogus", "board --png"]


@needs_tmux
def test_ctrl_c_cancels_a_running_command_and_history_outlives_the_console(
    console: Tmux, tmp_path: Path
) -> None:
    console.line("new freecell FC1-C1-MS5")  # a deal whose first hint takes seconds to find
    console.wait_for("FreeCell · 1 free cell · FC1-C1-MS5")
    console.line("hint")
    time.sleep(0.8)
    console.keys("C-c")
    console.wait_for("(cancelled")
    console.line("code")  # the console goes on
    console.wait_for("\nFC1-C1-MS5\n")
    console.keys("C-d")
    screen = console.wait_for("CONSOLE-EXITED rc=0")
    assert "Traceback" not in screen and (tmp_path / "stderr").read_text() == ""
    assert not (tmp_path / "out").exists()  # nothing asked for, nothing written
    again = Tmux(
        tmp_path / "again.sock",
        f"cd {REPO} && {sys.executable} -m bot console --db {tmp_path}/data/c.sqlite3; sleep 600",
    )
    try:
        again.wait_for("type 'help' for commands")
        again.keys("Up")  # the earlier session's last line
        time.sleep(0.5)
        assert again.prompt_line() == "> code"
    finally:
        again.close()


def test_ctrl_c_cancels_the_command_on_the_loop_and_waits_until_it_stopped() -> None:
    loop = terminal.LoopThread()
    stopped = threading.Event()

    async def long_command() -> bool:
        try:
            await asyncio.sleep(60)
        finally:
            stopped.set()
        return True

    try:
        assert loop.run(asyncio.sleep(0, result=True)) is True
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            loop.run(long_command())
        assert stopped.is_set() and time.monotonic() - started < 10
        assert loop.run(asyncio.sleep(0, result="after")) == "after"  # the loop goes on
    finally:
        loop.close()


def test_a_script_runs_line_by_line_until_quit() -> None:
    loop = terminal.LoopThread()
    seen: list[str] = []

    async def handle(line: str) -> bool:
        seen.append(line)
        return line != "quit"

    try:
        terminal.run_script(loop, handle, io.StringIO("one\n  two  \nquit\nnever\n"))
    finally:
        loop.close()
    assert seen == ["one", "two", "quit"]
