"""The per-player quotas, the replay cache and the board bookkeeping, without Discord."""

from __future__ import annotations

import asyncio

import pytest

from bot.adapter import cooldowns
from bot.adapter.cooldowns import CoolingDown, Quotas, Rate
from bot.play.boards import BoardMessages
from bot.play.feedback import UserFeedback
from bot.play.replay_cache import CACHE_BYTES, CACHE_ENTRIES, ENTRY_BYTES, MAX_UPLOAD, TOO_BIG, Replays


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_quota_refills_and_is_per_player_and_per_kind():
    clock = Clock()
    quotas = Quotas({"hint": Rate(2, 30.0), "start": Rate(1, 60.0)}, clock=clock)
    quotas.hit("hint", 1)
    quotas.hit("hint", 1)
    with pytest.raises(CoolingDown) as refused:
        quotas.hit("hint", 1)
    assert 0 < refused.value.retry_after <= 30
    text = refused.value.text("en")
    assert "try again <t:" in text and text.endswith(":R>.")
    assert "<t:" in refused.value.text("ru")
    quotas.hit("hint", 2)  # another player
    quotas.hit("start", 1)  # another quota
    quotas.hit("replay", 1)  # a quota without a rate is not limited
    clock.now += 31
    quotas.hit("hint", 1)


def test_idle_buckets_are_dropped_when_many_players_are_tracked(monkeypatch):
    monkeypatch.setattr(cooldowns, "MAX_TRACKED", 10)
    clock = Clock()
    quotas = Quotas({"hint": Rate(1, 5.0)}, clock=clock)
    for user in range(10):
        quotas.hit("hint", user)
    clock.now += 10
    quotas.hit("hint", 99)  # the idle ones make room
    assert len(quotas._buckets["hint"]) == 1


async def test_the_replay_cache_is_bounded_in_bytes_and_draws_one_at_a_time():
    replays = Replays(cache_bytes=250 + 2 * ENTRY_BYTES, max_upload=120)

    async def draw(size: int) -> bytes:
        await asyncio.sleep(0.05)
        return b"G" * size

    assert await replays.draw(1, lambda: draw(100)) == b"G" * 100
    first = asyncio.create_task(replays.draw(2, lambda: draw(100)))
    await asyncio.sleep(0.01)
    assert replays.busy
    with pytest.raises(UserFeedback) as busy:
        await replays.draw(3, lambda: draw(10))
    assert busy.value.key == "replay.busy"
    await first
    await replays.draw(3, lambda: draw(100))  # 300 bytes > 250: the oldest goes
    assert replays.cached(1) is None and replays.cached(2) and replays.cached(3)
    assert replays.cached_bytes == 200 + 2 * ENTRY_BYTES  # each entry's bookkeeping counted
    assert await replays.draw(4, lambda: draw(200)) is TOO_BIG  # over the upload cap: remembered
    with pytest.raises(UserFeedback) as big:
        replays.check_sendable(replays.cached(4) or b"")
    assert big.value.key == "replay.too_big" and replays.drawn == 4


async def test_500_long_replays_stay_within_the_cache_budget():
    """Issue 25: the budget holds whatever is drawn: GIFs of real size and too-big markers alike."""
    replays = Replays()

    async def gif(size: int) -> bytes:
        return bytes(size)

    peak = 0
    for game_id in range(1, 501):
        size = MAX_UPLOAD + 1 if game_id % 5 == 0 else 1_100_000 + 1_000 * (game_id % 600)
        await replays.draw(game_id, lambda size=size: gif(size))
        peak = max(peak, replays.cached_bytes)
        assert replays.cached_bytes <= CACHE_BYTES and len(replays._cache) <= CACHE_ENTRIES
    assert replays.drawn == 500 and peak > CACHE_BYTES - 2_000_000  # it was full, and held
    for game_id in range(1000, 1600):  # a flood of too-big markers: entries bounded too
        await replays.draw(game_id, lambda: gif(MAX_UPLOAD + 1))
    assert len(replays._cache) == CACHE_ENTRIES and replays.cached_bytes <= CACHE_BYTES


async def test_a_board_being_posted_is_waited_for_and_a_failed_post_releases_the_wait():
    boards = BoardMessages()
    boards.expect(7)
    assert boards.pending(7)
    waiting = asyncio.create_task(boards.wait_posted(7))
    await asyncio.sleep(0.01)
    boards.posted(7, 100, 200)
    assert await waiting == (100, 200) and not boards.pending(7)
    assert boards.last_posted(7) == (100, 200)
    boards.expect(8)
    boards.posted(8, None, None)  # the post failed
    assert await boards.wait_posted(8) == (None, None) and boards.last_posted(8) is None
    boards.expect(9)
    assert await boards.wait_posted(9, timeout=0.05) == (None, None)  # bounded
    boards.showing(9, 3)
    assert boards.shown(9) == 3
    boards.unknown(9)
    assert boards.shown(9) is None
