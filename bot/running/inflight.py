"""Interactions received and not finished yet: what a graceful stop waits for, what metrics time.

The adapter's entry points say which task handles an interaction (``enter``): the command
tree's ``interaction_check`` (every command and autocomplete), each restart-proof
component's ``interaction_check`` (``Tracked``), and the client's ``on_interaction`` when it
answers a press discord.py drops. Each runs as the first thing its task does, before it
waits for anything, so by the time a graceful stop has closed the gateway every interaction
received has been entered. The interaction is finished when every task entered for it is
done, however it answered (a reply, a deferral and a follow-up, an error message).
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import discord

#: What one finished interaction tells the observer: (kind, outcome, acknowledged after
#: seconds or None, finished after seconds, the error class name or None).
Observer = Callable[[str, str, float | None, float, str | None], None]
ERROR_EXTRA = "boulanger_error"  # ``interaction.extras`` key: the class of the error reported
CALLBACK_PARTS = 5  # ".../interactions/{id}/{token}/callback": the id is the third part from the end


@dataclass
class Entry:
    kind: str
    received: float
    interaction: discord.Interaction[Any]
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    acked: float | None = None


class Inflight:
    """The interactions this process is handling now."""

    def __init__(self, observe: Observer | None = None) -> None:
        self.open: dict[int, Entry] = {}
        self.idle_now = asyncio.Event()
        self.idle_now.set()
        self.observe = observe
        self.finished = 0
        self.commands: Callable[[], set[str]] = set
        self.prefixes: Callable[[], set[str]] = set

    def __len__(self) -> int:
        return len(self.open)

    def name_kinds(self, *, commands: Callable[[], set[str]], prefixes: Callable[[], set[str]]) -> None:
        """The commands and custom id prefixes counted apart (anything else is "other": a forged
        id must not grow the metrics)."""
        self.commands, self.prefixes = commands, prefixes

    def kind_of(self, interaction: discord.Interaction[Any]) -> str:
        data: dict[str, Any] = dict(interaction.data or {})
        kind = interaction.type
        if kind is discord.InteractionType.application_command:
            name = str(data.get("name", ""))
            return f"command:{name}" if name in self.commands() else "command:other"
        if kind is discord.InteractionType.component:
            prefix = str(data.get("custom_id", "")).split(":", 1)[0]
            return f"component:{prefix}" if prefix in self.prefixes() else "component:other"
        if kind is discord.InteractionType.autocomplete:
            return "autocomplete"
        return "modal" if kind is discord.InteractionType.modal_submit else "other"

    def enter(self, interaction: discord.Interaction[Any]) -> None:
        """The running task handles ``interaction``: it is in flight until that task is done."""
        task = asyncio.current_task()
        if task is None:
            return
        entry = self.open.get(interaction.id)
        if entry is None:
            entry = Entry(self.kind_of(interaction), time.monotonic(), interaction)
            self.open[interaction.id] = entry
            self.idle_now.clear()
        if task not in entry.tasks:
            entry.tasks.add(task)
            task.add_done_callback(functools.partial(self._task_done, interaction.id))

    def acknowledged(self, url_path: str) -> None:
        """A response to an interaction's callback route came back (from the HTTP trace)."""
        parts = url_path.rsplit("/", CALLBACK_PARTS - 1)
        if len(parts) < CALLBACK_PARTS or parts[-1] != "callback" or parts[-4] != "interactions":
            return
        entry = self.open.get(int(parts[-3])) if parts[-3].isdigit() else None
        if entry is not None and entry.acked is None:
            entry.acked = time.monotonic()

    def _task_done(self, interaction_id: int, task: asyncio.Task[Any]) -> None:
        entry = self.open.get(interaction_id)
        if entry is None:
            return
        entry.tasks.discard(task)
        if not entry.tasks:
            del self.open[interaction_id]
            self._close(entry)

    def _close(self, entry: Entry) -> None:
        self.finished += 1
        if not self.open:
            self.idle_now.set()
        if self.observe is None:
            return
        now = time.monotonic()
        interaction = entry.interaction
        error = interaction.extras.get(ERROR_EXTRA)
        answered = entry.acked is not None or interaction.response.is_done()
        outcome = "error" if error else "answered" if answered else "unanswered"
        acked = None if entry.acked is None else entry.acked - entry.received
        self.observe(entry.kind, outcome, acked, now - entry.received, error)

    async def idle(self, timeout: float) -> bool:
        """Wait until no interaction is in flight; False if some still were after ``timeout``."""
        try:
            await asyncio.wait_for(self.idle_now.wait(), timeout)
        except TimeoutError:
            return False
        return True


def enter(interaction: discord.Interaction[Any]) -> None:
    """``Inflight.enter`` on the client's tracker (``client.metrics.inflight``), if it has one."""
    inflight = getattr(getattr(interaction.client, "metrics", None), "inflight", None)
    if isinstance(inflight, Inflight):
        inflight.enter(interaction)


class Tracked:
    """A restart-proof component entered at its own entry point: mixed in before
    ``discord.ui.DynamicItem``, whose ``interaction_check`` discord.py awaits before the callback.
    Its custom id template is kept as ``custom_id_pattern`` (the bot's own copy: which ids are
    its components', for the presses discord.py drops and the metrics' kinds)."""

    custom_id_pattern: ClassVar[re.Pattern[str]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        template = kwargs.get("template")
        if template is not None:
            cls.custom_id_pattern = re.compile(template) if isinstance(template, str) else template
        super().__init_subclass__(**kwargs)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        enter(interaction)
        return True
