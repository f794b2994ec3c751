"""The files operators run the bot with: compose.yaml (+ compose.proxy.yaml), the Dockerfile, .env.example.

Everywhere: a YAML parse, the Compose Specification's own JSON schema (vendored in
tests/compose_spec/), and what the services must say. Where Docker is installed,
``docker compose config`` validates the files too (nothing installs Docker for it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from bot.running.config import shard_settings

REPO = Path(__file__).resolve().parent.parent
COMPOSE = REPO / "compose.yaml"
PROXY = REPO / "compose.proxy.yaml"
ACTIVITY = REPO / "compose.activity.yaml"

#: Top-level and service keys of the Compose specification that these files may use.
TOP_LEVEL = {"name", "services", "volumes", "networks", "configs", "secrets", "include"}
SERVICE_KEYS = {
    "build", "image", "restart", "environment", "env_file", "depends_on", "volumes", "healthcheck",
    "command", "entrypoint", "network_mode", "networks", "ports", "stop_grace_period", "profiles",
    "deploy", "labels", "logging", "user", "working_dir", "expose",
}  # fmt: skip


def load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict), f"{path.name} is not a mapping"
    return data


def compose_command() -> list[str] | None:
    """``docker compose`` (the plugin) or ``docker-compose``, where one is installed."""
    if shutil.which("docker") is not None:
        done = subprocess.run(["docker", "compose", "version"], capture_output=True, text=True, timeout=30)
        if done.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose") is not None:
        return ["docker-compose"]
    return None


@pytest.mark.processes  # docker compose, where Docker is installed
def test_docker_compose_config_accepts_both_files(tmp_path):
    command = compose_command()
    if command is None:
        pytest.skip("Docker is not installed here (the JSON-schema check below runs everywhere)")
    env = {**os.environ, "DISCORD_TOKEN": "x"}
    for path in (COMPOSE, PROXY):  # beside an .env, as the README has the operator write one
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nPOSTGRES_PASSWORD=p4ss\nSYNC_GLOBAL=1\n")
    for files in (["-f", COMPOSE.name], ["-f", COMPOSE.name, "-f", PROXY.name]):
        done = subprocess.run(
            [*command, *files, "config"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        shown = yaml.safe_load(done.stdout)["services"]
        assert shown["sync"]["command"] == ["sync"]
        for name in ("bot-0", "bot-1"):
            assert shown[name]["healthcheck"]["test"][0] == "CMD"
            assert shown[name]["depends_on"]["sync"]["condition"] == "service_completed_successfully"
            assert shown[name]["environment"]["SYNC_GLOBAL"] == "1"  # from .env, through env_file


def merged(base: Any, override: Any) -> Any:
    """``docker compose -f base -f override``: mappings merge key by key, the rest is replaced."""
    if isinstance(base, dict) and isinstance(override, dict):
        return {k: merged(base[k], v) if k in base else v for k, v in override.items()} | {
            k: v for k, v in base.items() if k not in override
        }
    return override


def test_compose_files_follow_the_compose_specification_schema():
    schema = json.loads((REPO / "tests" / "compose_spec" / "compose-spec.json").read_text())
    base, proxy = load(COMPOSE), load(PROXY)
    validator = jsonschema.Draft7Validator(schema)  # the draft its "$schema" names
    for data in (base, proxy, merged(base, proxy)):
        validator.validate(data)
    typo = merged(base, {"services": {"bot-0": {"enviroment": {}}}})
    with pytest.raises(jsonschema.ValidationError):  # the schema does catch a misspelt key
        validator.validate(typo)
    combined = merged(base, proxy)["services"]["bot-0"]
    assert combined["environment"]["BOULANGER_SHARD_IDS"] == "0"  # the override adds, keeps the rest
    assert set(combined["depends_on"]) == {"postgres", "sync", "discord-proxy"}


def check_keys(data: dict[str, Any], name: str) -> None:
    unknown = {k for k in data if not k.startswith("x-")} - TOP_LEVEL
    assert not unknown, f"{name}: not Compose top-level keys: {unknown}"
    for service, spec in data["services"].items():
        unknown = set(spec) - SERVICE_KEYS
        assert not unknown, f"{name}: service {service} has keys Compose does not know: {unknown}"


def test_compose_starts_postgres_and_two_bot_processes_splitting_two_shards():
    data = load(COMPOSE)
    check_keys(data, "compose.yaml")
    services = data["services"]
    assert set(services) == {"postgres", "sync", "bot-0", "bot-1"}
    sync = services["sync"]
    assert sync["command"] == ["sync"] and sync["restart"] == "no" and sync["env_file"] == ".env"
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    for volume in postgres["volumes"]:
        assert volume.split(":")[0] in data["volumes"]
    shards: list[int] = []
    counts = set()
    ports: set[str] = set()
    for name in ("bot-0", "bot-1"):
        bot = services[name]
        assert bot["build"] == "." and bot["restart"] == "unless-stopped"
        assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert bot["depends_on"]["sync"]["condition"] == "service_completed_successfully"
        assert bot["env_file"] == ".env"  # every setting in .env reaches the bot
        address = bot["environment"]["BOULANGER_HTTP"]
        port = address.rsplit(":", 1)[1]
        probe = bot["healthcheck"]["test"]
        assert probe[:4] == ["CMD", "python", "-m", "bot.running.probe"]
        assert probe[4] == f"http://127.0.0.1:{port}/readyz"
        assert (REPO / "bot" / "running" / "probe.py").is_file()
        ports.add(port)
        env = bot["environment"]
        assert env["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")  # refuses to start without one
        assert re.fullmatch(  # no default password: compose refuses to start without one
            r"postgresql://boulanger:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432/boulanger",
            env["BOULANGER_DATABASE_URL"],
        )
        count, ids = shard_settings(env["BOULANGER_SHARD_COUNT"], env["BOULANGER_SHARD_IDS"])
        assert ids is not None
        counts.add(count)
        shards.extend(ids)
    assert counts == {2} and sorted(shards) == [0, 1]  # every shard run exactly once
    assert len(ports) == 2  # one address per process (they share a network with the proxy)


def test_the_proxy_override_keeps_the_api_base_on_loopback():
    data = load(PROXY)
    check_keys(data, "compose.proxy.yaml")
    services = data["services"]
    assert services["discord-proxy"]["image"]
    for name in ("bot-0", "bot-1"):
        bot = services[name]
        assert bot["network_mode"] == "service:discord-proxy"
        base = bot["environment"]["BOULANGER_DISCORD_API_BASE"]
        assert base.startswith("http://127.0.0.1:") and base.endswith("/api/v10")
    assert set(services) - {"discord-proxy"} <= set(load(COMPOSE)["services"])


def config_variables() -> set[str]:
    text = "".join((REPO / "bot" / "running" / name).read_text() for name in ("config.py", "http.py"))
    return set(
        re.findall(r"""(?:environ\.get|_int|_flag|_raw|_seconds)\(\s*["']([A-Z][A-Z0-9_]+)["']""", text)
    ) | set(re.findall(r"""["']((?:BOULANGER|DISCORD)_[A-Z0-9_]+)["']""", text))


def example_variables() -> set[str]:
    lines = (REPO / ".env.example").read_text().splitlines()
    return {m[1] for line in lines if (m := re.match(r"#?\s*([A-Z][A-Z0-9_]+)=", line))}


def test_env_example_lists_every_setting_the_bot_reads():
    read = config_variables()
    assert {"DISCORD_TOKEN", "BOULANGER_SHARD_COUNT", "BOULANGER_RENDER_WORKERS"} <= read
    missing = read - example_variables()
    assert not missing, f".env.example lacks {sorted(missing)}"


def test_no_database_password_is_shipped():
    """An operator who copies .env.example and forgets the password gets compose's refusal, not
    a database anyone who read this repository can log in to; the example says what a change
    after the first ``up`` does (the volume keeps the password it was created with)."""
    example = (REPO / ".env.example").read_text()
    assert re.search(r"^POSTGRES_PASSWORD=$", example, re.M)
    assert "volume" in example and "down -v" in example and "ALTER USER" in example
    uses = re.findall(r"\$\{POSTGRES_PASSWORD([^}]*)\}", COMPOSE.read_text())
    assert len(uses) == 2  # the server's and the bots' URL
    for use in uses:
        assert use.startswith(":?") and "openssl rand" in use, use
    postgres = load(COMPOSE)["services"]["postgres"]["environment"]
    assert postgres["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    for path in (PROXY, ACTIVITY):  # the overrides never bring a default back
        assert "POSTGRES_PASSWORD:-" not in path.read_text()


@pytest.mark.processes  # docker compose, where Docker is installed
def test_docker_compose_refuses_to_start_without_a_password(tmp_path):
    command = compose_command()
    if command is None:
        pytest.skip("Docker is not installed here (test_no_database_password_is_shipped runs everywhere)")
    shutil.copy(COMPOSE, tmp_path / COMPOSE.name)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nPOSTGRES_PASSWORD=\n")
    env = {k: v for k, v in os.environ.items() if k != "POSTGRES_PASSWORD"}
    done = subprocess.run(
        [*command, "-f", COMPOSE.name, "config"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "set POSTGRES_PASSWORD in .env" in done.stderr, done.stderr


def test_compose_interpolates_only_documented_variables():
    text = COMPOSE.read_text() + PROXY.read_text() + ACTIVITY.read_text()
    used = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", text))
    assert used <= example_variables(), used - example_variables()


def test_dockerfile_installs_the_packages_and_runs_the_bot():
    text = (REPO / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.1[1-9]", text, re.M)
    for line in re.findall(r"^COPY (.+)$", text, re.M):
        *sources, _ = line.split()
        for source in sources:
            assert (REPO / source).exists(), f"COPY {source}: no such file"
    for package in ("engine", "renderer", "storage", "bot"):
        assert re.search(rf"^COPY {package} {package}$", text, re.M)
    assert "pip install ." in text
    assert 'ENTRYPOINT ["python", "-m", "bot"]' in text
    assert re.search(r"^USER (?!root)\w+", text, re.M)  # not as root
    ignored = (REPO / ".dockerignore").read_text().split()
    assert ".env" in ignored and ".git" in ignored  # no token or history in the build context


def test_the_activity_override_serves_it_from_bot_0_behind_tls():
    schema = json.loads((REPO / "tests" / "compose_spec" / "compose-spec.json").read_text())
    base, activity = load(COMPOSE), load(ACTIVITY)
    check_keys(activity, "compose.activity.yaml")
    validator = jsonschema.Draft7Validator(schema)
    for data in (activity, merged(base, activity), merged(merged(base, load(PROXY)), activity)):
        validator.validate(data)
    bot = merged(base, activity)["services"]["bot-0"]
    host, port = bot["environment"]["BOULANGER_ACTIVITY"].rsplit(":", 1)
    assert host == "0.0.0.0"  # the proxy reaches it from its own container
    assert bot["environment"]["BOULANGER_SHARD_IDS"] == "0"  # the override adds, keeps the rest
    assert bot["environment"]["BOULANGER_ACTIVITY_ALLOW_REMOTE"] == "1"
    proxy = activity["services"]["activity-proxy"]
    assert proxy["image"].startswith("caddy:") and "443:443" in proxy["ports"]
    command = " ".join(proxy["command"])
    assert f"bot-0:{port}" in command and "${ACTIVITY_DOMAIN" in command
    assert "bot-1" not in activity["services"]  # one process serves it
