"""Which shards this process runs, and which once-only jobs are its to do.

Discord splits a bot's servers into shards: a server's events (its slash commands
and button presses) reach only the gateway connection of shard
``(guild_id >> 22) % shard_count``; DMs reach shard 0. ``BoulangerBot`` is an
``AutoShardedBot``: with neither ``BOULANGER_SHARD_COUNT`` nor ``BOULANGER_SHARD_IDS``
set it asks Discord (``GET /gateway/bot``) for the recommended count and runs every
shard itself; with both set, N processes split the shards between them, each
answering only its own servers' interactions.

Whatever must happen once whatever the number of processes goes through storage,
not through "which process am I":

* the daily post: every process's poster reads all due guilds from the database and
  claims each post there before sending it through REST (``claim_daily_post``), so
  each post goes out once, even while the process owning that server's shard is down;
* a day's daily codes: ``set_daily_code`` keeps the first one stored;
* the winnable-deal stock: ``take_winnable_deal`` is atomic and ``add_winnable_deals``
  ignores duplicates, so two processes topping up at once only search twice (harmless);
* game moves: the version check of ``append_move``.

Only command registration is tied to a shard: the process that runs shard 0 (or any
process when sharding is not configured) syncs commands, so N processes do not
repeat the same rate-limited bulk overwrite at every start.

Both storage backends implement those claims, so nothing here depends on SQLite.
"""

from __future__ import annotations

from typing import Any

from bot.running.config import Config


def shard_options(config: Config) -> dict[str, Any]:
    """``AutoShardedBot`` keyword arguments for the configured shards (none: Discord's choice)."""
    options: dict[str, Any] = {}
    if config.shard_count is not None:
        options["shard_count"] = config.shard_count
        if config.shard_ids is not None:
            options["shard_ids"] = list(config.shard_ids)
    return options


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard whose connection gets ``guild_id``'s events (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def runs_first_shard(config: Config) -> bool:
    """Whether this process runs shard 0 (true when sharding is not configured)."""
    return config.shard_ids is None or 0 in config.shard_ids


def describe(config: Config) -> str:
    """The shards of this process, in words for the start-up log."""
    if config.shard_count is None:
        return "all shards (Discord's recommended count)"
    if config.shard_ids is None:
        return f"all {config.shard_count} shards"
    listed = ", ".join(map(str, config.shard_ids))
    return f"shard{'s' if len(config.shard_ids) > 1 else ''} {listed} of {config.shard_count}"
