"""Settings from the environment (or the ``.env`` file beside ``run.sh``), with sane defaults.

Nothing here logs or prints the token: ``Config.__repr__`` hides it.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dotenv import load_dotenv

from bot.running import endpoints

DEFAULT_DB = "data/boulanger.sqlite3"
# The project's directory (beside run.sh): its .env is read, never one in the current directory.
PROJECT_DIR = Path(__file__).resolve().parents[2]
ENV_FILE = PROJECT_DIR / ".env"


class ConfigError(Exception):
    """A setting is missing or unusable; the message (one line) names it and says what to set."""


#: (least, most) of each number setting; a value outside is refused at start-up, never clamped.
RANGES: dict[str, tuple[float, float]] = {
    "BOULANGER_HINT_SECONDS": (0.1, 60.0),  # the engine's hint budget is at most 60 s
    "BOULANGER_DAILY_CHECK_SECONDS": (0.1, 3600.0),
    "BOULANGER_RACE_CHECK_SECONDS": (0.1, 60.0),
    "BOULANGER_RACE_EDIT_SECONDS": (0.5, 300.0),  # Discord's rate limits: not below 0.5
    "BOULANGER_SOLVER_WORKERS": (1, 64),
    "BOULANGER_RENDER_WORKERS": (0, 64),
    "DEV_GUILD_ID": (1, 2**64 - 1),  # a Discord id (snowflake)
    "DISCORD_CLIENT_ID": (1, 2**64 - 1),
}
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"", "0", "false", "no", "off"}
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
EVENT_LOOPS = ("uvloop", "asyncio")


def _raw(name: str) -> str:
    return os.environ.get(name, "").strip()


def _int(name: str, default: int | None) -> int | None:
    """A whole number within ``RANGES[name]`` (when listed), or ``default`` when unset."""
    raw = _raw(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    _check_range(name, value)
    return value


def _seconds(name: str, default: float) -> float:
    """A finite number of seconds within ``RANGES[name]``, or ``default`` when unset."""
    raw = _raw(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number of seconds, not {raw!r}")
    _check_range(name, value)
    return value


def _check_range(name: str, value: float) -> None:
    least, most = RANGES.get(name, (-math.inf, math.inf))
    if not least <= value <= most:
        raise ConfigError(f"{name} must be between {least:g} and {most:g}, not {value:g}")


def _flag(name: str) -> bool:
    raw = _raw(name).lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ConfigError(f"{name} must be 1 (on) or 0 / empty (off), not {raw!r}")


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
    #: Processes that draw board pictures (0: on this process's event loop).
    render_workers: int = 0
    #: ``uvloop`` (where it is installed, else asyncio's) or ``asyncio`` (``bot.__main__.loop_factory``).
    event_loop: str = "uvloop"
    #: How often the race keeper looks for due starts and time limits (``bot.adapter.cogs.race``).
    race_check_seconds: float = 1.0
    #: The least time between two edits of one race's standings message (Discord's rate limits).
    race_edit_seconds: float = 5.0
    #: Where health and metrics are served (``BOULANGER_HTTP``; ``bot.running.http``), or None.
    http: tuple[str, int] | None = None
    #: Where the Activity is served (``BOULANGER_ACTIVITY``; ``bot.activity``), or None: not at all.
    activity: tuple[str, int] | None = None
    #: The application's OAuth2 client id (``DISCORD_CLIENT_ID``; None: the bot's application id).
    client_id: int | None = None
    #: Its client secret (``DISCORD_CLIENT_SECRET``): the Activity's code exchange, never shown.
    client_secret: str | None = field(default=None, repr=False)


def load_config(*, env_file: str | os.PathLike[str] | None = ENV_FILE, require_token: bool = True) -> Config:
    """Read and check every setting; ``ConfigError`` names the first one that is wrong."""
    if env_file is not None:
        load_dotenv(env_file, override=False)
    token = _raw("DISCORD_TOKEN")
    if require_token and not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Put your bot token in the environment "
            "(export DISCORD_TOKEN=...) or in a .env file beside run.sh "
            "(DISCORD_TOKEN=...). Without a token, try `.venv/bin/python -m bot console`."
        )
    if any(c.isspace() or not c.isprintable() for c in token):
        raise ConfigError("DISCORD_TOKEN contains spaces or control characters: copy the token again")
    level = _raw("LOG_LEVEL").upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}")
    event_loop = _raw("BOULANGER_EVENT_LOOP").lower() or "uvloop"
    if event_loop not in EVENT_LOOPS:
        raise ConfigError(f"BOULANGER_EVENT_LOOP must be uvloop or asyncio, not {event_loop!r}")
    hint_seconds = _seconds("BOULANGER_HINT_SECONDS", 2.0)
    daily_check = _seconds("BOULANGER_DAILY_CHECK_SECONDS", 30.0)
    race_check = _seconds("BOULANGER_RACE_CHECK_SECONDS", 1.0)
    race_edit = _seconds("BOULANGER_RACE_EDIT_SECONDS", 5.0)
    allow_remote = _flag(endpoints.ALLOW_REMOTE)
    api_base = _raw("BOULANGER_DISCORD_API_BASE") or None
    gateway = _raw("BOULANGER_DISCORD_GATEWAY") or None
    for variable, url in (("BOULANGER_DISCORD_API_BASE", api_base), ("BOULANGER_DISCORD_GATEWAY", gateway)):
        refused = url and endpoints.check(variable, url, allow_remote=allow_remote)
        if refused:
            raise ConfigError(refused)
    shard_count, shard_ids = shard_settings(_raw("BOULANGER_SHARD_COUNT"), _raw("BOULANGER_SHARD_IDS"))
    database_url = _raw("BOULANGER_DATABASE_URL") or None
    if database_url is not None and not database_url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("BOULANGER_DATABASE_URL must be a postgresql://user:password@host:port/name URL")
    db_path = _raw("BOULANGER_DB")
    if "\0" in db_path:
        raise ConfigError("BOULANGER_DB must be a file path")
    return Config(
        token=token,
        db_path=database_path(db_path),
        log_level=level,
        dev_guild_id=_int("DEV_GUILD_ID", None),
        sync_global=_flag("SYNC_GLOBAL"),
        solver_workers=_int("BOULANGER_SOLVER_WORKERS", 1) or 1,
        hint_seconds=hint_seconds,
        daily_check_seconds=daily_check,
        api_base=api_base,
        gateway=gateway,
        database_url=database_url,
        init_db=_flag("BOULANGER_INIT_DB"),
        shard_count=shard_count,
        shard_ids=shard_ids,
        render_workers=_int("BOULANGER_RENDER_WORKERS", 0) or 0,
        event_loop=event_loop,
        race_check_seconds=race_check,
        race_edit_seconds=race_edit,
        http=http_setting(),
        **activity_settings(),
    )


ACTIVITY_ALLOW_REMOTE = "BOULANGER_ACTIVITY_ALLOW_REMOTE"


def activity_settings() -> dict[str, Any]:
    """``BOULANGER_ACTIVITY`` (host:port, loopback unless ``BOULANGER_ACTIVITY_ALLOW_REMOTE``:
    the reverse proxy with TLS is what players reach) with the OAuth2 client it needs."""
    from bot.running.http import parse_address

    raw = _raw("BOULANGER_ACTIVITY")
    client_id = _int("DISCORD_CLIENT_ID", None)
    secret = _raw("DISCORD_CLIENT_SECRET") or None
    if not raw:
        return {"client_id": client_id, "client_secret": secret}
    parsed = parse_address(
        "BOULANGER_ACTIVITY", raw, allow_remote=_flag(ACTIVITY_ALLOW_REMOTE), allow_name=ACTIVITY_ALLOW_REMOTE
    )
    if isinstance(parsed, str):
        raise ConfigError(parsed)
    if secret is None:
        raise ConfigError(
            "BOULANGER_ACTIVITY needs DISCORD_CLIENT_SECRET: the Activity signs players in with the "
            "application's OAuth2 client secret (Developer Portal → OAuth2 → Client Secret)"
        )
    if any(c.isspace() or not c.isprintable() for c in secret):
        raise ConfigError("DISCORD_CLIENT_SECRET contains spaces or control characters: copy it again")
    return {"activity": parsed, "client_id": client_id, "client_secret": secret}


def http_setting() -> tuple[str, int] | None:
    """``BOULANGER_HTTP`` (host:port) checked, with ``BOULANGER_HTTP_ALLOW_REMOTE``."""
    from bot.running.http import ALLOW_REMOTE, parse_address

    raw = _raw("BOULANGER_HTTP")
    allow = _flag(ALLOW_REMOTE)
    if not raw:
        return None
    parsed = parse_address("BOULANGER_HTTP", raw, allow_remote=allow)
    if isinstance(parsed, str):
        raise ConfigError(parsed)
    return parsed


def database_path(setting: str) -> Path:
    """The database file, absolute, resolved once: ``BOULANGER_DB`` (relative to the folder the bot
    was started from), else ``data/boulanger.sqlite3`` in the project, whatever the current folder
    (started from elsewhere, the bot must not serve a second, empty database)."""
    given = setting.strip()
    path = Path(given).expanduser() if given else PROJECT_DIR / DEFAULT_DB
    return Path(os.path.abspath(path))


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
