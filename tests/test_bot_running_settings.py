"""Every setting is checked for type and range at start-up (bot.running.config): one line naming it, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.running.config import ConfigError, load_config

REPO = Path(__file__).resolve().parent.parent
SECONDS = ["-1", "0", "nan", "NaN", "inf", "-inf", "1e400", "two", "2s", "0x10", "1_000_000"]
WHOLE = ["-1", "1.5", "nan", "inf", "one", "1e3", "99999999999999999999999"]
FLAGS = ["2", "ture", "enabled", "-1"]
ODD = {
    "BOULANGER_HINT_SECONDS": SECONDS,
    "BOULANGER_DAILY_CHECK_SECONDS": [*SECONDS, "0.01", "86400"],
    "BOULANGER_RACE_CHECK_SECONDS": [*SECONDS, "0.01", "3600"],
    "BOULANGER_RACE_EDIT_SECONDS": [*SECONDS, "0.1", "100000"],
    "BOULANGER_SOLVER_WORKERS": [*WHOLE, "0", "1000"],
    "BOULANGER_RENDER_WORKERS": [*WHOLE, "1000"],
    "DEV_GUILD_ID": [*WHOLE, "0", str(2**64)],
    "BOULANGER_SHARD_COUNT": ["0", "-1", "nan", "1.5", "5000"],
    "LOG_LEVEL": ["LOUD", "10", "info!"],
    "BOULANGER_EVENT_LOOP": ["trio", "uv loop", "1"],
    "SYNC_GLOBAL": FLAGS,
    "BOULANGER_INIT_DB": FLAGS,
    "BOULANGER_ALLOW_REMOTE_DISCORD": FLAGS,
    "BOULANGER_HTTP_ALLOW_REMOTE": FLAGS,
    "BOULANGER_HTTP": ["9100", "0.0.0.0:9100", "127.0.0.1:0", "127.0.0.1:99999", "host:9100", ":9100"],
    "BOULANGER_DATABASE_URL": ["mysql://x@y/z", "boulanger", "sqlite:///x"],
    "BOULANGER_DISCORD_API_BASE": ["ftp://127.0.0.1/api", "http://example.com/api", "not a url"],
    "BOULANGER_DISCORD_GATEWAY": ["ws://example.com/", "127.0.0.1"],
    "DISCORD_TOKEN": ["two words", "tab\there"],
}
CASES = [(name, value) for name, values in ODD.items() for value in values]


@pytest.fixture
def clean_env(monkeypatch):
    for name in list(os.environ):
        if name.startswith(("BOULANGER_", "DISCORD_", "DEV_GUILD", "SYNC_GLOBAL", "LOG_LEVEL")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("DISCORD_TOKEN", "MTIz.token.abc")
    return monkeypatch


@pytest.mark.parametrize(("name", "value"), CASES)
def test_an_odd_value_is_refused_naming_the_setting(clean_env, name, value):
    clean_env.setenv(name, value)
    with pytest.raises(ConfigError) as refused:
        load_config(env_file=None)
    message = str(refused.value)
    assert name in message and "\n" not in message


def test_the_defaults_and_sane_values_pass(clean_env):
    config = load_config(env_file=None)
    assert (config.hint_seconds, config.daily_check_seconds, config.http) == (2.0, 30.0, None)
    for name, value in {
        "BOULANGER_HINT_SECONDS": "0.5",
        "BOULANGER_DAILY_CHECK_SECONDS": "0.2",
        "BOULANGER_RACE_CHECK_SECONDS": "0.1",
        "BOULANGER_RACE_EDIT_SECONDS": "0.5",
        "BOULANGER_SOLVER_WORKERS": "2",
        "BOULANGER_RENDER_WORKERS": "0",
        "DEV_GUILD_ID": "1234567890",
        "SYNC_GLOBAL": "yes",
        "BOULANGER_INIT_DB": "0",
        "BOULANGER_HTTP": "127.0.0.1:9100",
        "LOG_LEVEL": "debug",
        "BOULANGER_EVENT_LOOP": "AsyncIO",
    }.items():
        clean_env.setenv(name, value)
    config = load_config(env_file=None)
    assert (config.hint_seconds, config.solver_workers, config.sync_global, config.init_db) == (
        0.5,
        2,
        True,
        False,
    )
    assert (config.http, config.log_level, config.event_loop) == (("127.0.0.1", 9100), "DEBUG", "asyncio")
    clean_env.setenv("BOULANGER_HTTP", "0.0.0.0:9100")
    clean_env.setenv("BOULANGER_HTTP_ALLOW_REMOTE", "1")
    assert load_config(env_file=None).http == ("0.0.0.0", 9100)


@pytest.mark.processes
@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_the_process_says_it_in_one_line_and_exits_2(tmp_path, value):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOULANGER_", "DEV_GUILD"))}
    env.update({"PYTHONPATH": str(REPO), "DISCORD_TOKEN": "MTIz.token.abc", "BOULANGER_HINT_SECONDS": value})
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "BOULANGER_HINT_SECONDS" in done.stderr, done.stderr


def test_the_bot_runs_on_uvloop_unless_told_asyncio(clean_env):
    import uvloop

    from bot.__main__ import loop_factory

    assert load_config(env_file=None).event_loop == "uvloop"
    assert loop_factory(load_config(env_file=None)) is uvloop.new_event_loop
    clean_env.setenv("BOULANGER_EVENT_LOOP", "asyncio")
    assert loop_factory(load_config(env_file=None)) is None  # asyncio.Runner's own loop
