"""The render pool: the same pictures in worker processes as in threads, a per-worker replay cache, crashes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal

import pytest

import engine
from bot.adapter.app import BoulangerBot
from bot.games import front_for
from bot.languages.language import picture_labels
from bot.play import render_pool
from bot.play.render_pool import RenderPool
from bot.running.config import Config

BAKERS = "BK1-C4-AAAAA24"


def bakers_game() -> engine.Game:
    game = engine.new_game(BAKERS)
    game.play("6h")
    game.play("8a")
    game.undo()
    return game


def calculation_game() -> engine.Game:
    game = engine.new_game("CA1-AAAAA24")
    game.play(next(iter(game.legal_moves())))
    return game


@pytest.fixture
async def pool():
    pictures = RenderPool(1)
    try:
        yield pictures
    finally:
        pictures.close()


@pytest.mark.parametrize("deck", ["two", "four"])
@pytest.mark.parametrize("make", [bakers_game, calculation_game])
async def test_a_worker_draws_the_same_picture_as_a_thread(pool, make, deck):
    game = make()
    front = front_for(game.kind)
    highlight = front.highlight("1") if game.kind == "bakers" else None
    labels = picture_labels("ru")
    threaded = await RenderPool(0).render(front, game, highlight=highlight, labels=labels, deck=deck)
    pooled = await pool.render(front, game, highlight=highlight, labels=labels, deck=deck)
    assert pooled[:8] == b"\x89PNG\r\n\x1a\n"
    assert pooled == threaded == front.render(game, highlight=highlight, labels=labels, deck=deck)


@pytest.mark.slow
async def test_replays_are_drawn_by_the_workers_too(pool):
    from bot.games.bakers import shipped_winnable
    from engine.solver import solve

    code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
    moves = tuple(solve(engine.new_game(code), time_limit=20).moves)
    front = front_for("bakers")
    cap = 7 * 1024 * 1024
    gif = await pool.render_replay(front, code, moves, labels=None, max_bytes=cap)
    assert gif == front.render_replay(code, moves, labels=None, max_bytes=cap) and gif[:6] == b"GIF89a"


def test_the_worker_cache_plays_only_the_new_actions_and_replays_a_different_log(monkeypatch):
    render_pool._replayed.clear()
    first = render_pool._game_at(BAKERS, ("6h",))
    replays: list[str] = []
    real = engine.replay
    monkeypatch.setattr(engine, "replay", lambda code, moves: replays.append(code) or real(code, moves))
    later = render_pool._game_at(BAKERS, ("6h", "8a", "undo", "8b"))
    assert later is first and replays == []  # three actions played on the cached game
    assert later.moves == ("6h", "8a", "undo", "8b")
    assert render_pool._game_at(BAKERS, ("6h", "8a", "undo", "8b")) is first  # the same picture again
    other = render_pool._game_at(BAKERS, ("8a",))  # not a continuation (another player's deal)
    assert replays == [BAKERS] and other.moves == ("8a",)
    assert render_pool._game_at(BAKERS, ()).moves == ()


def test_a_bad_log_is_not_left_in_the_worker_cache():
    render_pool._replayed.clear()
    render_pool._game_at(BAKERS, ("6h",))
    with pytest.raises(engine.EngineError):
        render_pool.render_job("bakers", BAKERS, ("6h", "zz"), None, None)
    assert BAKERS not in render_pool._replayed


async def test_a_killed_worker_costs_no_picture(pool):
    game = bakers_game()
    front = front_for("bakers")
    await pool.warm()
    assert pool._pool is not None
    for pid in list(pool._pool._processes):  # type: ignore[union-attr]
        os.kill(pid, signal.SIGKILL)
    await asyncio.sleep(0.2)
    drawn = await pool.render(front, game, highlight=None, labels=None)  # a thread draws this one
    assert drawn == front.render(game, highlight=None, labels=None)
    again = await pool.render(front, game, highlight=None, labels=None)  # a fresh pool
    assert again == drawn and pool._pool is not None


def test_render_workers_setting(monkeypatch):
    from bot.running.config import ConfigError, load_config

    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.delenv("BOULANGER_RENDER_WORKERS", raising=False)
    assert load_config(env_file=None).render_workers == 0
    monkeypatch.setenv("BOULANGER_RENDER_WORKERS", "2")
    assert load_config(env_file=None).render_workers == 2
    monkeypatch.setenv("BOULANGER_RENDER_WORKERS", "-1")
    with pytest.raises(ConfigError, match="BOULANGER_RENDER_WORKERS"):
        load_config(env_file=None)


async def test_the_bot_plays_with_pictures_drawn_in_worker_processes(fake_discord, tmp_path):
    config = Config(
        token=fake_discord.token,
        db_path=tmp_path / "bot.sqlite3",
        dev_guild_id=fake_discord.guild.id,
        render_workers=2,
    )
    bot = BoulangerBot(config, guild_ready_timeout=0.1)
    task = asyncio.create_task(bot.start(fake_discord.token))
    try:
        await fake_discord.wait_until_ready()
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        alice = fake_discord.add_user("alice")
        board = await fake_discord.slash(alice, "boulanger", {"code": BAKERS}, timeout=20)
        home = next(b["custom_id"] for b in board.message.buttons() if b["custom_id"].endswith(":h"))
        moved = await fake_discord.click(alice, board.message, home, timeout=20)
        assert "Score 10" in moved.text()
        png = moved.edited.attachments[0].data
        expected = engine.replay(BAKERS, ("6h",))
        # a typed code is a practice game: the worker draws its tag too
        assert png == front_for("bakers").render(expected, highlight=None, labels=None, tag="practice")
        assert bot.pictures._pool is not None  # drawn by the workers, not threads
    finally:
        with contextlib.suppress(Exception):
            await bot.close()
        await asyncio.wait_for(task, 10)
