"""Health and metrics over HTTP (bot.running.http, bot.running.metrics) from the real ``python -m bot``."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.running.http import parse_address
from tests.fakediscord import BotProcess

CODE = "BK1-C4-AAAAA24"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics page, parsed by prometheus_client's own parser."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def total(found: dict, name: str, **labels: str) -> float:
    return sum(
        value
        for (sample, have), value in found.items()
        if sample == name and all((k, v) in have for k, v in labels.items())
    )


async def get(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with session.get(url) as response:
        return response.status, await response.text()


@pytest.mark.processes
async def test_healthz_readyz_and_metrics_of_the_real_process(fake_discord, tmp_path):
    fake = fake_discord
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = BotProcess(fake, db_path=tmp_path / "http.sqlite3", env={"BOULANGER_HTTP": f"127.0.0.1:{port}"})
    async with aiohttp.ClientSession() as http:
        try:
            await proc.spawn()
            first = None
            for _ in range(500):  # the server listens before the login: its first answers are 503
                try:
                    first = await get(http, f"{base}/readyz")
                    break
                except aiohttp.ClientConnectionError:
                    assert proc.returncode is None, proc.output
                    await asyncio.sleep(0.02)
            assert first is not None and first[0] == 503, first
            for _ in range(500):
                if fake.session is not None and fake.session.ready.is_set():
                    break
                await asyncio.sleep(0.02)
            for _ in range(200):
                status, text = await get(http, f"{base}/readyz")
                if status == 200:
                    break
                await asyncio.sleep(0.05)
            assert (status, text) == (200, "ready\n")
            assert await get(http, f"{base}/healthz") == (200, "ok\n")
            status, before_text = await get(http, f"{base}/metrics")
            assert status == 200
            before = samples(before_text)
            alice = fake.add_user("alice")
            board = await fake.slash(alice, "boulanger", {"code": CODE})
            home = next(c for c in board.message.custom_ids() if c.split(":")[-1] == "h")
            moved = await fake.click(alice, board.message, home)
            assert "A♦ from column 6 home" in moved.text()
            # The handlers' tasks end just after their answer (on a loaded machine, a while
            # after): wait until both interactions are counted, at most 10 s.
            for _ in range(200):
                status, after_text = await get(http, f"{base}/metrics")
                after = samples(after_text)
                counted = total(after, "boulanger_interactions_total", kind="component:g")
                if (
                    counted
                    and total(after, "boulanger_interaction_ack_seconds_count")
                    - total(before, "boulanger_interaction_ack_seconds_count")
                    >= 2
                ):
                    break
                await asyncio.sleep(0.05)
        finally:
            await proc.stop()
    name = "boulanger_interactions_total"
    assert total(after, name, kind="command:boulanger", outcome="answered") == 1
    clicks = [(k, v) for k, v in after.items() if k[0] == name and ("kind", "component:g") in k[1]]
    assert sum(v for _, v in clicks) == 1, clicks
    assert total(after, name) - total(before, name) == 2
    acks = "boulanger_interaction_ack_seconds_count"
    assert total(after, acks) - total(before, acks) == 2
    done = "boulanger_interaction_completion_seconds_count"
    assert total(after, done, kind="command:boulanger") == 1
    assert total(after, "boulanger_games_started_total", game="bakers") == 1
    assert total(after, "boulanger_render_seconds_count", what="board") >= 2
    assert total(after, "boulanger_storage_seconds_count", operation="append_move") >= 1
    assert total(after, "boulanger_discord_responses_total", status="200") > total(
        before, "boulanger_discord_responses_total", status="200"
    )
    assert "# TYPE boulanger_gateway_latency_seconds gauge" in after_text  # shard 0 once it heartbeats
    assert "boulanger_solver_queue" in after_text and "boulanger_daily_posts" in after_text


@pytest.mark.parametrize(
    ("text", "allow", "says"),
    [
        ("127.0.0.1:9100", False, None),
        ("[::1]:9100", False, None),
        ("localhost:9100", False, None),
        ("0.0.0.0:9100", False, "other machines can reach"),
        ("0.0.0.0:9100", True, None),
        ("9100", False, "host:port"),
        ("127.0.0.1:0", False, "between 1 and 65535"),
        ("127.0.0.1:70000", False, "between 1 and 65535"),
        ("example.com:9100", True, "IP address or localhost"),
        ("127.0.0.1:http", False, "host:port"),
    ],
)
def test_the_http_address_is_loopback_unless_the_operator_says_otherwise(text, allow, says):
    parsed = parse_address("BOULANGER_HTTP", text, allow_remote=allow)
    if says is None:
        assert isinstance(parsed, tuple)
    else:
        assert isinstance(parsed, str) and says in parsed and "BOULANGER_HTTP" in parsed
