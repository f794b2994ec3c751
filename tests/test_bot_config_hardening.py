"""Settings that could leak the token: where ``.env`` is read from, where the bot may connect."""

from __future__ import annotations

import pytest

from bot.running import config as config_module
from bot.running.config import ConfigError, load_config
from bot.running.endpoints import check, is_loopback


@pytest.fixture
def env(monkeypatch):
    for name in ("BOULANGER_DISCORD_API_BASE", "BOULANGER_DISCORD_GATEWAY", "BOULANGER_ALLOW_REMOTE_DISCORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    return monkeypatch


def test_env_file_is_the_one_beside_run_sh():
    assert config_module.ENV_FILE == config_module.PROJECT_DIR / ".env"
    assert (config_module.PROJECT_DIR / "run.sh").is_file()


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.10", "::1", "localhost", "LOCALHOST."])
def test_loopback_hosts(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["10.0.0.1", "example.com", "localhost.example.com", "0.0.0.0", "::"])
def test_other_hosts(host):
    assert not is_loopback(host)


def test_loopback_overrides_are_accepted(env):
    env.setenv("BOULANGER_DISCORD_API_BASE", "http://127.0.0.1:8080/api/v10")
    env.setenv("BOULANGER_DISCORD_GATEWAY", "ws://[::1]:8080/gateway")
    config = load_config(env_file=None)
    assert config.api_base == "http://127.0.0.1:8080/api/v10"


@pytest.mark.parametrize("variable", ["BOULANGER_DISCORD_API_BASE", "BOULANGER_DISCORD_GATEWAY"])
def test_a_remote_override_needs_the_opt_in(env, variable):
    env.setenv(variable, "https://discord.example.net/api")
    with pytest.raises(ConfigError, match="not this machine"):
        load_config(env_file=None)
    env.setenv("BOULANGER_ALLOW_REMOTE_DISCORD", "1")
    assert load_config(env_file=None)


def test_plain_http_to_another_host_is_refused_even_with_the_opt_in(env):
    env.setenv("BOULANGER_ALLOW_REMOTE_DISCORD", "1")
    env.setenv("BOULANGER_DISCORD_API_BASE", "http://discord.example.net/api")
    with pytest.raises(ConfigError, match="unencrypted"):
        load_config(env_file=None)


def test_not_a_url_is_refused():
    assert "must be an http" in (check("X", "127.0.0.1:80", allow_remote=False) or "")
    assert "must be an http" in (check("X", "ftp://127.0.0.1/", allow_remote=False) or "")
