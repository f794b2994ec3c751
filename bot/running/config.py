"""Settings from the environment (or the ``.env`` file beside ``run.sh``), with sane defaults.

Nothing here logs or prints the token: ``Config.__repr__`` hides it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

from bot.running import endpoints

DEFAULT_DB = "data/boulanger.sqlite3"
# The project's directory (beside run.sh): its .env is read, never one in the current directory.
PROJECT_DIR = Path(__file__).resolve().parents[2]
ENV_FILE = PROJECT_DIR / ".env"


class ConfigError(Exception):
    """A setting is missing or unusable; the message says what to set."""


def _int(name: str, default: int | None) -> int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Config:
    token: str = field(repr=False)
    db_path: Path
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    sync_global: bool = False
    solver_workers: int = 1
    hint_seconds: float = 2.0
    daily_check_seconds: float = 30.0
    api_base: str | None = None
    gateway: str | None = None
    database_url: str | None = field(default=None, repr=False)  # PostgreSQL instead of db_path
    # Start again with an empty database where one was lost (``--init``; see storage.sqlite.files).
    init_db: bool = False
    #: How many shards the bot has in all (None: Discord's recommendation, from /gateway/bot).
    shard_count: int | None = None
    #: Which of them this process runs (None: all of them).
    shard_ids: tuple[int, ...] | None = None
    #: Processes that draw board pictures (0: threads in this process).
    render_workers: int = 0
    #: How often the race keeper looks for due starts and time limits (``bot.adapter.cogs.race``).
    race_check_seconds: float = 1.0
    #: The least time between two edits of one race's standings message (Discord's rate limits).
    race_edit_seconds: float = 5.0


def load_config(*, env_file: str | os.PathLike[str] | None = ENV_FILE, require_token: bool = True) -> Config:
    """Read the configuration; ``ConfigError`` says what is wrong."""
    if env_file is not None:
        load_dotenv(env_file, override=False)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Put your bot token in the environment "
            "(export DISCORD_TOKEN=...) or in a .env file beside run.sh "
            "(DISCORD_TOKEN=...). Without a token, try `.venv/bin/python -m bot console`."
        )
    level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}")
    try:
        hint_seconds = float(os.environ.get("BOULANGER_HINT_SECONDS", "2") or 2)
    except ValueError:
        raise ConfigError("BOULANGER_HINT_SECONDS must be a number of seconds") from None
    try:
        daily_check = float(os.environ.get("BOULANGER_DAILY_CHECK_SECONDS", "30") or 30)
    except ValueError:
        raise ConfigError("BOULANGER_DAILY_CHECK_SECONDS must be a number of seconds") from None
    race_check = _seconds("BOULANGER_RACE_CHECK_SECONDS", 1.0, least=0.1)
    race_edit = _seconds("BOULANGER_RACE_EDIT_SECONDS", 5.0, least=0.5)
    api_base = os.environ.get("BOULANGER_DISCORD_API_BASE") or None
    gateway = os.environ.get("BOULANGER_DISCORD_GATEWAY") or None
    for variable, url in (("BOULANGER_DISCORD_API_BASE", api_base), ("BOULANGER_DISCORD_GATEWAY", gateway)):
        refused = url and endpoints.check(variable, url, allow_remote=_flag(endpoints.ALLOW_REMOTE))
        if refused:
            raise ConfigError(refused)
    shard_count, shard_ids = shard_settings(
        os.environ.get("BOULANGER_SHARD_COUNT", ""), os.environ.get("BOULANGER_SHARD_IDS", "")
    )
    render_workers = _int("BOULANGER_RENDER_WORKERS", 0) or 0
    if render_workers < 0:
        raise ConfigError(f"BOULANGER_RENDER_WORKERS must be 0 (threads) or more, not {render_workers}")
    return Config(
        token=token,
        db_path=database_path(os.environ.get("BOULANGER_DB", "")),
        log_level=level,
        dev_guild_id=_int("DEV_GUILD_ID", None),
        sync_global=_flag("SYNC_GLOBAL"),
        solver_workers=max(1, _int("BOULANGER_SOLVER_WORKERS", 1) or 1),
        hint_seconds=hint_seconds,
        daily_check_seconds=max(0.1, daily_check),
        api_base=api_base,
        gateway=gateway,
        database_url=os.environ.get("BOULANGER_DATABASE_URL", "").strip() or None,
        init_db=_flag("BOULANGER_INIT_DB"),
        shard_count=shard_count,
        shard_ids=shard_ids,
        render_workers=render_workers,
        race_check_seconds=race_check,
        race_edit_seconds=race_edit,
    )


def database_path(setting: str) -> Path:
    """The database file, absolute, resolved once: ``BOULANGER_DB`` (relative to the folder the bot
    was started from), else ``data/boulanger.sqlite3`` in the project, whatever the current folder
    (started from elsewhere, the bot must not serve a second, empty database)."""
    given = setting.strip()
    path = Path(given).expanduser() if given else PROJECT_DIR / DEFAULT_DB
    return Path(os.path.abspath(path))


def _seconds(name: str, default: float, *, least: float) -> float:
    """A number of seconds from the environment, at least ``least``."""
    try:
        value = float(os.environ.get(name, "") or default)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds") from None
    return max(least, value)


#: Far more shards than any bot this size needs (Discord asks for one per 2,500 servers).
MAX_SHARDS = 4096


def shard_settings(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``BOULANGER_SHARD_COUNT`` and ``BOULANGER_SHARD_IDS`` checked together.

    Neither: (None, None), Discord's recommended count, all in this process. A count
    alone: every shard in this process. Ids (``0,1``, ``0-3``, ``0-3,6``) need the count,
    and each id must be below it."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError(
                "BOULANGER_SHARD_IDS needs BOULANGER_SHARD_COUNT too: every process must agree on "
                "how many shards there are (e.g. BOULANGER_SHARD_COUNT=2 BOULANGER_SHARD_IDS=0)"
            )
        return None, None
    try:
        count = int(count_text)
    except ValueError:
        raise ConfigError(f"BOULANGER_SHARD_COUNT must be a whole number, not {count_text!r}") from None
    if not 1 <= count <= MAX_SHARDS:
        raise ConfigError(f"BOULANGER_SHARD_COUNT must be between 1 and {MAX_SHARDS}, not {count}")
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if match is None:
            raise ConfigError(
                f"BOULANGER_SHARD_IDS must list shard numbers like 0,1 or ranges like 0-3, not {ids_text!r}"
            )
        low = int(match[1])
        high = int(match[2]) if match[2] is not None else low
        if high < low:
            raise ConfigError(f"BOULANGER_SHARD_IDS: the range {part.strip()!r} runs backwards")
        if high >= count:
            raise ConfigError(
                f"BOULANGER_SHARD_IDS: shard {high} does not exist with BOULANGER_SHARD_COUNT={count} "
                f"(shards are numbered 0 to {count - 1})"
            )
        ids.extend(range(low, high + 1))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"BOULANGER_SHARD_IDS names a shard twice: {ids_text!r}")
    return count, tuple(sorted(ids))
