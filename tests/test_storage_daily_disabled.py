"""Migration 6 (guild_settings.daily_disabled) on a real file, and the invalid-request counter."""

from __future__ import annotations

import datetime as dt
import sqlite3

import storage
from bot.adapter.invalid_requests import InvalidRequests
from storage.sqlite import opening as sqlite_open


async def test_migration_6_keeps_settings_and_a_disabled_guild_is_not_due(tmp_path, monkeypatch):
    path = tmp_path / "v5.sqlite3"
    five = [m for m in sqlite_open.load_migrations() if m.number <= 5]
    monkeypatch.setattr("storage.sqlite.base.load_migrations", lambda: five)
    monkeypatch.setattr(sqlite_open, "load_migrations", lambda: five)
    store = await storage.open_store(str(path))  # a version 5 database...
    await store.close()
    monkeypatch.undo()
    with sqlite3.connect(path) as conn:  # ...with a guild's settings in version 5's columns
        conn.execute(
            "INSERT INTO guild_settings (guild_id, daily_channel_id, post_minute, language, updated_at) "
            "VALUES (7, 70, 0, 'nl', 0)"
        )
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 5

    store = await storage.open_store(str(path))  # migrates to 6 and on
    try:
        assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] >= 6
        assert await store.guild_settings(7) == storage.GuildSettings(7, 70, 0, "nl", None)
        day, noon = dt.date(2026, 12, 1), dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
        assert [g.guild_id for g in await store.pending_daily_posts(day, now=noon)] == [7]
        off = await store.set_guild_settings(7, daily_disabled="403 Missing Access")
        assert off.daily_disabled == "403 Missing Access" and off.daily_channel_id == 70
        assert await store.pending_daily_posts(day, now=noon) == []
        await store.set_guild_settings(7, language="ru")  # other settings leave it alone
        assert (await store.guild_settings(7)).daily_disabled == "403 Missing Access"
        again = await store.set_guild_settings(7, daily_channel_id=71)  # an admin sets the channel again
        assert again.daily_disabled is None
        assert [g.daily_channel_id for g in await store.pending_daily_posts(day, now=noon)] == [71]
    finally:
        await store.close()


def test_the_counter_counts_what_discord_counts_and_pauses_early():
    now = [0.0]
    counter = InvalidRequests(window=600, pause_at=3, resume_at=1, clock=lambda: now[0])
    for status in (200, 204, 400, 404, 500):
        counter.record(status)
    counter.record(429, "shared")  # Discord does not count shared-scope 429s
    assert counter.count() == 0
    counter.record(401)
    counter.record(403)
    assert not counter.paused()
    now[0] = 300.0
    counter.record(429, "user")
    assert counter.paused() and counter.count() == 3
    now[0] = 601.0  # the first two aged out; one left: resume at 1
    assert not counter.paused() and counter.count() == 1
