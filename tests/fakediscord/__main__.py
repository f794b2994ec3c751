"""`python -m tests.fakediscord --port N`: run the fake Discord standalone until interrupted.

Prints one JSON line with the URLs, token and ids, then serves the Discord API, the gateway and
the `/_fake/` control API (see control.py). Point a bot at it with the environment it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal

from .server import DEFAULT_TOKEN, FakeDiscord


async def serve(port: int, token: str) -> None:
    fake = FakeDiscord(token=token)
    await fake.start(port, control=True)
    print(
        json.dumps(
            {
                "port": fake.port,
                "env": {**fake.env(), "DEV_GUILD_ID": str(fake.guild.id)},
                "guild_id": str(fake.guild.id),
                "channel_id": str(fake.channel.id),
                "control": f"{fake.base_url}/_fake/state",
            }
        ),
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await fake.stop()
    for violation in fake.violations:
        print(f"violation: {violation}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.fakediscord", description=__doc__)
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0 = any free port)")
    parser.add_argument("--token", default=DEFAULT_TOKEN, help="the bot token the fake accepts")
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.port, args.token))


if __name__ == "__main__":
    main()
