"""``python -m bot`` runs the bot; ``python -m bot sync`` syncs commands globally; ``python -m bot invite``
prints the link that adds it to a server; ``python -m bot console`` plays without Discord;
``python -m bot backup DEST`` copies the SQLite database while the bot runs; ``python -m bot migrate``
applies pending migrations (``--status`` lists them, ``--check`` exits 1 when any is pending)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys
from collections.abc import Callable

import aiohttp
import discord

import storage
from bot.running import redact
from bot.running.config import Config, ConfigError, load_config

log = logging.getLogger("bot")

#: The modes that talk to Discord, so need its token; the others (console, backup, migrate) run without.
NEEDS_TOKEN = ("run", "sync", "invite")


#: The format of plain log lines (a file, a pipe, a container's log): discord.py's, without colour.
PLAIN_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"


def setup_logging(config: Config) -> None:
    """Colours on a terminal only: discord.py would colour a container's log too (it takes any
    Docker container for a terminal), and the escapes would end up in ``docker compose logs``."""
    handler = logging.StreamHandler()
    level = getattr(logging, config.log_level)
    if hasattr(handler.stream, "isatty") and handler.stream.isatty():
        discord.utils.setup_logging(handler=handler, level=level, root=True)
    else:
        plain = logging.Formatter(PLAIN_FORMAT, "%Y-%m-%d %H:%M:%S", style="{")
        discord.utils.setup_logging(handler=handler, formatter=plain, level=level, root=True)
    redact.install(config.token)  # the token, interaction and webhook tokens: never in a log


def point_at(config: Config) -> None:
    """Use another Discord (the test suite's fake) when the environment says so, and only then."""
    import yarl

    if config.api_base:
        discord.http.Route.BASE = config.api_base.rstrip("/")
    if config.gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway)


async def run(config: Config, *, sync_only: bool = False) -> int:
    from bot.adapter.app import BoulangerBot
    from bot.running.shutdown import GracefulStop

    bot = BoulangerBot(
        config, sync_global=sync_only or config.sync_global, serve_activity=not sync_only, settle_heap=True
    )
    async with bot:
        try:
            if sync_only:
                await bot.login(config.token)  # runs setup_hook, which syncs
                return 0
            stopper = GracefulStop(bot)
            stopper.install()  # SIGTERM / SIGINT: bot.running.shutdown
            await bot.serve_health()  # /readyz answers 503 until every shard is connected
            await bot.start(config.token)
            if stopper.task is not None:
                await stopper.task
            return bot.exit_code  # non-zero: the bot stopped itself (bot.running.database)
        except discord.LoginFailure:
            print(
                "Discord rejected DISCORD_TOKEN. Copy the bot token again from the Developer Portal "
                "(Application → Bot → Reset Token) into the environment or .env.",
                file=sys.stderr,
            )
            return 2
        except discord.PrivilegedIntentsRequired:
            print("This bot needs no privileged intents; check the application's settings.", file=sys.stderr)
            return 2
        except (aiohttp.ClientConnectionError, OSError) as exc:
            # No network or DNS: say so plainly instead of a traceback (discord.py gives up on login).
            print(
                f"Could not reach Discord ({discord.http.Route.BASE}): {exc}. "
                "Check this machine's network connection, then start the bot again.",
                file=sys.stderr,
            )
            return 4
    return 0


async def invite(config: Config) -> int:
    """Print the two install links of the token's application (asked of Discord)."""
    from bot.running.invite import application_id, invite_url, user_install_url

    try:
        app_id = await application_id(config.token)
    except discord.LoginFailure:
        print("Discord rejected DISCORD_TOKEN; copy it again from the Developer Portal.", file=sys.stderr)
        return 2
    except (aiohttp.ClientConnectionError, OSError) as exc:
        print(f"Could not reach Discord ({discord.http.Route.BASE}): {exc}.", file=sys.stderr)
        return 4
    print(f"Add to a server (daily posts, races, channel boards):\n{invite_url(app_id)}")
    print(f"Add to your own account (play in DMs, group DMs and any server):\n{user_install_url(app_id)}")
    return 0


def loop_factory(config: Config) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (a dependency but on Windows): its callbacks,
    sockets and thread wake-ups cost less CPU a press than asyncio's own loop.
    ``BOULANGER_EVENT_LOOP=asyncio`` keeps asyncio's loop (to compare, or to rule uvloop out)."""
    if config.event_loop == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "mode", nargs="?", choices=("run", "sync", "invite", "console", "backup", "migrate"), default="run"
    )
    parser.add_argument(
        "--init",
        action="store_true",
        help="start again with a new, empty database where the old one is gone (never done silently)",
    )
    parser.add_argument(
        "args",
        nargs=argparse.REMAINDER,
        help="console, backup, migrate: their options (python -m bot console -h, ...)",
    )
    ns = parser.parse_args(argv)
    if ns.mode == "console":
        from bot.play.console import main as console_main

        return console_main(ns.args)
    try:
        config = load_config(require_token=ns.mode in NEEDS_TOKEN)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if ns.init or "--init" in ns.args:
        config = dataclasses.replace(config, init_db=True)
    setup_logging(config)
    if ns.mode == "backup":
        from bot.running import backup

        return backup.main([a for a in ns.args if a != "--init"], config)
    if ns.mode == "migrate":
        from bot.running import migrations

        try:
            return migrations.main([a for a in ns.args if a != "--init"], config)
        except storage.DatabaseUnusable as exc:
            print(f"error: the database {exc.path} cannot be used: {exc}", file=sys.stderr)
            return 3
    point_at(config)
    if ns.mode == "invite":
        return asyncio.run(invite(config))
    try:
        with asyncio.Runner(loop_factory=loop_factory(config)) as runner:
            return runner.run(run(config, sync_only=ns.mode == "sync"))
    except storage.DatabaseUnusable as exc:  # one log line, then exit status 3 (bot.database)
        log.critical("the database %s cannot be used: %s", exc.path, exc)
        return 3
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
