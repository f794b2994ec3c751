"""The console's terminal: lines read as a shell reads them, the game layer on a loop beside it.

At a terminal: readline's line editing, a history kept in a file (↑ recalls earlier lines,
from earlier sessions too), Tab completing command words. Ctrl-C cancels the line being typed
or the command running; at an empty prompt a second Ctrl-C, or Ctrl-D, quits. Never a
traceback: the main thread only reads the terminal (and so takes every Ctrl-C), while the
game layer runs on an asyncio event loop in a thread of its own (``LoopThread``), where a
cancelled command stops at its next ``await`` (a move already stored stays stored).

Piped input (a script) is read line by line, with no prompt and no history.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TextIO, TypeVar

T = TypeVar("T")

PROMPT = "> "
HISTORY_LINES = 1000
QUIT_HINT = "(Ctrl-C again or Ctrl-D to quit)"
CANCELLED = "(cancelled: a move already made stays made; board shows the game)"

Handle = Callable[[str], Coroutine[Any, Any, bool]]  # runs a line; False: quit
Say = Callable[[str], None]
Completions = Callable[[list[str]], list[str]]  # the words before → what may come next


class LoopThread:
    """An asyncio event loop in a daemon thread, running one command at a time for the main
    thread, which stays free to read the terminal and take Ctrl-C."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="console-loop", daemon=True)
        self._thread.start()

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        """``work``'s result, run on the loop. Ctrl-C meanwhile cancels it, waits until it has
        stopped (so nothing it prints comes after the next prompt), and raises
        ``KeyboardInterrupt``."""
        done = threading.Event()
        tasks: list[asyncio.Task[T]] = []

        def start() -> None:
            task = self.loop.create_task(work)
            task.add_done_callback(lambda _: done.set())
            tasks.append(task)

        self.loop.call_soon_threadsafe(start)
        try:
            done.wait()
        except KeyboardInterrupt:
            self.loop.call_soon_threadsafe(lambda: tasks[0].cancel())  # after start: in order
            _wait_through_interrupts(done)
            raise
        return tasks[0].result()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.close()


def _wait_through_interrupts(done: threading.Event) -> None:
    while True:
        try:
            done.wait()
            return
        except KeyboardInterrupt:  # a cancelled command is stopping already
            continue


def run_script(loop: LoopThread, handle: Handle, stdin: TextIO) -> None:
    """Every line of piped input in turn, until one quits; Ctrl-C stops quietly."""
    with contextlib.suppress(KeyboardInterrupt):
        for line in stdin:
            if not loop.run(handle(line.strip())):
                return


def interact(loop: LoopThread, handle: Handle, say: Say, history: Path, complete: Completions) -> None:
    """Read and run lines at a terminal until ``quit``, Ctrl-D, or Ctrl-C at an empty prompt
    after a first Ctrl-C there."""
    import readline  # at a terminal only: importing it changes how input() reads

    with _history(readline, history):
        readline.set_completer(_completer(readline, complete))
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
        armed = False  # a Ctrl-C at an empty prompt: the next one quits
        while True:
            try:
                line = input(PROMPT)
            except EOFError:  # Ctrl-D
                print()
                return
            except KeyboardInterrupt:
                typed = readline.get_line_buffer()
                print()
                if armed and not typed:
                    return
                armed = not typed
                if armed:
                    say(QUIT_HINT)
                continue
            armed = False
            _remember(readline, history, line)
            try:
                if not loop.run(handle(line.strip())):
                    return
            except KeyboardInterrupt:
                print()
                say(CANCELLED)


@contextlib.contextmanager
def _history(readline: Any, path: Path) -> Iterator[None]:
    """Earlier sessions' lines recalled with ↑; this session's kept, the file cut to
    ``HISTORY_LINES`` on the way out."""
    readline.set_history_length(HISTORY_LINES)
    with contextlib.suppress(OSError):
        readline.read_history_file(path)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            readline.write_history_file(path)


def _remember(readline: Any, path: Path, line: str) -> None:
    """Append the line to the history file at once: a console that is killed keeps it too."""
    if not line.strip():
        return
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
        readline.append_history_file(1, path)


def _completer(readline: Any, complete: Completions) -> Callable[[str, int], str | None]:
    def completer(text: str, state: int) -> str | None:
        before = readline.get_line_buffer()[: readline.get_begidx()].split()
        options = [w + " " for w in complete([w.lower() for w in before]) if w.startswith(text.lower())]
        return options[state] if state < len(options) else None

    return completer
