"""Run the real bot (`python -m bot`) in a subprocess against a `FakeDiscord`.

The process gets `DISCORD_TOKEN`, `BOULANGER_DISCORD_API_BASE` and `BOULANGER_DISCORD_GATEWAY`
from `FakeDiscord.env()` (the bot's entry point applies the last two to discord.py only when
set), plus `DEV_GUILD_ID` (the fake's default guild, so commands sync there at start-up) and
`BOULANGER_DB`. `kill()` is SIGKILL: no goodbye to the gateway, exactly like a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from .server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """One `python -m bot` process at a time, restartable, with its output captured.

    Example::

        bot = BotProcess(fake, db_path=tmp_path / "bot.sqlite3")
        await bot.start()          # returns once the bot IDENTIFYed and got READY
        ...
        await bot.kill()           # SIGKILL
        await bot.start()          # a new process, same database
        await bot.stop()           # SIGTERM, then SIGKILL after `grace` seconds
    """

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        db_path: Path | str,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
        module: str = "bot",
        log_level: str = "INFO",
    ) -> None:
        self.fake = fake
        self.db_path = Path(db_path)
        self.extra_env = dict(env or {})
        self.args = args
        self.module = module  # `python -m <module>`; the self-tests run a tiny demo bot instead
        self.log_level = log_level
        self.process: asyncio.subprocess.Process | None = None
        self.lines: list[str] = []
        self.starts = 0
        self._reader: asyncio.Task[None] | None = None

    @property
    def output(self) -> str:
        """Everything every run of the process wrote to stdout and stderr so far."""
        return "\n".join(self.lines)

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.returncode

    def environment(self) -> dict[str, str]:
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOULANGER_", "DEV_GUILD"))
        }
        env.update(self.fake.env())
        env.update(
            {
                "DEV_GUILD_ID": str(self.fake.guild.id),
                "BOULANGER_DB": str(self.db_path),
                "LOG_LEVEL": self.log_level,
                "PYTHONUNBUFFERED": "1",
            }
        )
        env.update(self.extra_env)
        return env

    async def spawn(self) -> None:
        """Start the process without waiting for it to connect (see `start`)."""
        if self.process is not None and self.process.returncode is None:
            raise RuntimeError("the bot process is already running")
        self.lines.append(f"--- start #{self.starts + 1} ---")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.module,
            *self.args,
            cwd=REPO_ROOT,
            env=self.environment(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self.starts += 1
        self._reader = asyncio.create_task(self._read(self.process))

    def shard_ids(self) -> list[int] | None:
        """The shards this process runs, from its `BOULANGER_SHARD_*` settings (None: not set)."""
        env = self.environment()
        count = env.get("BOULANGER_SHARD_COUNT", "").strip()
        if not count:
            return None
        ids: list[int] = []
        for part in (env.get("BOULANGER_SHARD_IDS", "").strip() or f"0-{int(count) - 1}").split(","):
            low, _, high = part.partition("-")
            ids.extend(range(int(low), int(high or low) + 1))
        return ids

    async def start(self, timeout: float = 30.0) -> None:
        """Start the bot and wait until the fake has sent it READY and its guilds.

        A process running several shards (`BOULANGER_SHARD_COUNT`, `BOULANGER_SHARD_IDS`) is
        started once every one of its shards has IDENTIFYed anew and got READY.
        Raises RuntimeError (with the bot's output) if the process exits first, TimeoutError if
        it does not connect within `timeout` seconds.
        """
        identifies = self.fake.identifies
        shards = self.shard_ids()
        await self.spawn()
        assert self.process is not None
        loop = asyncio.get_running_loop()
        spawned = loop.time()
        deadline = loop.time() + timeout
        while True:
            session = self.fake.session
            if shards is not None:
                fresh = {
                    s.shard[0]
                    for s in self.fake.sessions.values()
                    if s.identified_at >= spawned and s.ready.is_set()
                }
                if fresh >= set(shards):
                    return
            elif self.fake.identifies > identifies and session is not None and session.ready.is_set():
                return
            if self.process.returncode is not None:
                await self._drain()
                raise RuntimeError(f"the bot exited with {self.process.returncode}:\n{self.output}")
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"the bot did not connect within {timeout} s:\n{self.output}")
            await asyncio.sleep(0.02)

    async def wait(self, timeout: float = 30.0) -> int:
        """Wait for the process to exit by itself; returns its exit code."""
        assert self.process is not None
        code = await asyncio.wait_for(self.process.wait(), timeout)
        await self._drain()
        return code

    async def kill(self) -> None:
        """SIGKILL the bot: sockets drop without a close frame, nothing is flushed."""
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()
        await self._drain()

    async def stop(self, grace: float = 5.0) -> None:
        """SIGTERM (a polite shutdown), then SIGKILL if it is still running after `grace` s."""
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), grace)
            except TimeoutError:
                self.process.send_signal(signal.SIGKILL)
                await self.process.wait()
        await self._drain()

    async def restart(self, timeout: float = 30.0) -> None:
        """Kill (SIGKILL) and start again."""
        await self.kill()
        await self.start(timeout)

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        async for raw in process.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))

    async def _drain(self) -> None:
        if self._reader is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 2.0)
            self._reader = None
