"""Interactions received and not finished yet: what a graceful stop waits for, what metrics time.

discord.py starts the handlers of an interaction (a command, a button, a select, the
``on_interaction`` listeners) as tasks, all from the one gateway parser that reads
``INTERACTION_CREATE``. Wrapping that parser, the tasks created during its call are exactly
that interaction's handlers: the interaction is finished when all of them are done, however
they answer (a reply, a deferral and a follow-up, an error message).
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ext import commands as ext

#: What one finished interaction tells the observer: (kind, outcome, acknowledged after
#: seconds or None, finished after seconds, the error class name or None).
Observer = Callable[[str, str, float | None, float, str | None], None]
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
ERROR_EXTRA = "boulanger_error"  # ``interaction.extras`` key: the class of the error reported


@dataclass
class Entry:
    kind: str
    received: float
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    interaction: discord.Interaction[Any] | None = None
    acked: float | None = None


class Inflight:
    """The interactions this process is handling now."""

    def __init__(self, observe: Observer | None = None) -> None:
        self._open: dict[int, Entry] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self.observe = observe
        self.finished = 0
        self._commands: Callable[[], set[str]] = set
        self._prefixes: Callable[[], set[str]] = set

    def __len__(self) -> int:
        return len(self._open)

    def install(
        self,
        client: ext.AutoShardedBot,
        *,
        commands: Callable[[], set[str]],
        prefixes: Callable[[], set[str]],
    ) -> None:
        """Wrap ``client``'s interaction parser; ``commands`` and ``prefixes`` name the kinds
        counted apart (anything else is "other": a forged id must not grow the metrics)."""
        self._commands, self._prefixes = commands, prefixes
        parsers = client._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def tracked(data: Any) -> None:
            # The tasks the parser creates, noted as they are created (a set difference of
            # ``asyncio.all_tasks()`` before and after cost a walk over every task, each press).
            loop = asyncio.get_running_loop()
            previous = loop.get_task_factory()
            created: set[asyncio.Task[Any]] = set()

            def noting(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
                task = previous(loop, coro, **kwargs) if previous else asyncio.Task(coro, loop=loop, **kwargs)
                if isinstance(task, asyncio.Task):
                    created.add(task)
                return task

            loop.set_task_factory(noting)
            try:
                parse(data)
            finally:
                loop.set_task_factory(previous)
                self._opened(data, created)

        parsers["INTERACTION_CREATE"] = tracked
        client.add_listener(self._seen, "on_interaction")

    def kind_of(self, data: Any) -> str:
        kind = data.get("type")
        inner = data.get("data") or {}
        if kind == 2:
            name = str(inner.get("name", ""))
            return f"command:{name}" if name in self._commands() else "command:other"
        if kind == 3:
            prefix = str(inner.get("custom_id", "")).split(":", 1)[0]
            return f"component:{prefix}" if prefix in self._prefixes() else "component:other"
        return {4: "autocomplete", 5: "modal"}.get(kind, "other")

    def _opened(self, data: Any, tasks: set[asyncio.Task[Any]]) -> None:
        try:
            interaction_id = int(data["id"])
        except (KeyError, TypeError, ValueError):
            return
        entry = Entry(self.kind_of(data), time.monotonic(), set(tasks))
        if not entry.tasks:
            self._close(interaction_id, entry)
            return
        self._open[interaction_id] = entry
        self._idle.clear()
        for task in tasks:
            task.add_done_callback(functools.partial(self._task_done, interaction_id))

    async def _seen(self, interaction: discord.Interaction[Any]) -> None:
        entry = self._open.get(interaction.id)
        if entry is not None:
            entry.interaction = interaction

    def acknowledged(self, url_path: str) -> None:
        """A response to an interaction's callback route came back (from the HTTP trace)."""
        match = _CALLBACK.search(url_path)
        entry = self._open.get(int(match[1])) if match else None
        if entry is not None and entry.acked is None:
            entry.acked = time.monotonic()

    def _task_done(self, interaction_id: int, task: asyncio.Task[Any]) -> None:
        entry = self._open.get(interaction_id)
        if entry is None:
            return
        entry.tasks.discard(task)
        if not entry.tasks:
            del self._open[interaction_id]
            self._close(interaction_id, entry)

    def _close(self, interaction_id: int, entry: Entry) -> None:
        self.finished += 1
        if not self._open:
            self._idle.set()
        if self.observe is None:
            return
        now = time.monotonic()
        interaction = entry.interaction
        error = interaction.extras.get(ERROR_EXTRA) if interaction is not None else None
        answered = entry.acked is not None or (interaction is not None and interaction.response.is_done())
        outcome = "error" if error else "answered" if answered else "unanswered"
        acked = None if entry.acked is None else entry.acked - entry.received
        self.observe(entry.kind, outcome, acked, now - entry.received, error)

    async def idle(self, timeout: float) -> bool:
        """Wait until no interaction is in flight; False if some still were after ``timeout``."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True
