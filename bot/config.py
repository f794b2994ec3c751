"""Settings from the environment (or the ``.env`` file beside ``run.sh``), with sane defaults.

Nothing here logs or prints the token: ``Config.__repr__`` hides it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

from bot import endpoints

DEFAULT_DB = "data/boulanger.sqlite3"
# The project's directory (beside run.sh): its .env is read, never one in the current directory.
PROJECT_DIR = Path(__file__).resolve().parent.parent
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
    # Start again with an empty database where one was lost (``--init``; see storage.sqlite_files).
    init_db: bool = False


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
    api_base = os.environ.get("BOULANGER_DISCORD_API_BASE") or None
    gateway = os.environ.get("BOULANGER_DISCORD_GATEWAY") or None
    for variable, url in (("BOULANGER_DISCORD_API_BASE", api_base), ("BOULANGER_DISCORD_GATEWAY", gateway)):
        refused = url and endpoints.check(variable, url, allow_remote=_flag(endpoints.ALLOW_REMOTE))
        if refused:
            raise ConfigError(refused)
    return Config(
        token=token,
        db_path=Path(os.environ.get("BOULANGER_DB", "").strip() or DEFAULT_DB),
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
    )
