"""Guild and user settings, daily posts, and the solver's stock of winnable deals."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import aiosqlite

from storage import validate as v
from storage.interface import (
    UNCHANGED,
    DailyPost,
    GuildSettings,
    InvalidValue,
    _Unchanged,
)
from storage.sqlite_base import SqliteBase
from storage.sqlite_rows import (
    GUILD_COLUMNS,
    MS,
    POST_COLUMNS,
    guild_row,
    post_row,
    to_ms,
)


class SettingsMixin(SqliteBase):
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        guild = v.snowflake("guild_id", guild_id)
        async with self._transaction(write=False) as conn:
            row = await self._one(
                conn, f"SELECT {GUILD_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild,)
            )
        return GuildSettings(guild) if row is None else guild_row(row)

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        daily_channel_id: int | _Unchanged | None = UNCHANGED,
        post_minute: int | _Unchanged = UNCHANGED,
        language: str | _Unchanged | None = UNCHANGED,
        daily_disabled: str | _Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        guild = v.snowflake("guild_id", guild_id)
        changes: dict[str, Any] = {}
        if not isinstance(daily_channel_id, _Unchanged):
            changes["daily_channel_id"] = v.snowflake("daily_channel_id", daily_channel_id, optional=True)
            changes["daily_disabled"] = None  # a channel set again is tried again
        if not isinstance(daily_disabled, _Unchanged):
            changes["daily_disabled"] = v.text(
                "daily_disabled", daily_disabled, optional=True, max_length=200
            )
        if not isinstance(post_minute, _Unchanged):
            minute = v.count("post_minute", post_minute)
            if minute > 1439:
                raise InvalidValue(
                    f"post_minute must be from 0 to 1439 (minutes after 00:00 UTC), not {minute}"
                )
            changes["post_minute"] = minute
        if not isinstance(language, _Unchanged):
            changes["language"] = v.text("language", language, optional=True, max_length=35)

        async def op(conn: aiosqlite.Connection) -> GuildSettings:
            row = await self._one(
                conn, f"SELECT {GUILD_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild,)
            )
            current = GuildSettings(guild) if row is None else guild_row(row)
            merged = GuildSettings(
                guild,
                changes.get("daily_channel_id", current.daily_channel_id),
                changes.get("post_minute", current.post_minute),
                changes.get("language", current.language),
                changes.get("daily_disabled", current.daily_disabled),
            )
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, daily_channel_id, post_minute, language, "
                "daily_disabled, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "daily_channel_id = excluded.daily_channel_id, post_minute = excluded.post_minute, "
                "language = excluded.language, daily_disabled = excluded.daily_disabled, "
                "updated_at = excluded.updated_at",
                (
                    guild,
                    merged.daily_channel_id,
                    merged.post_minute,
                    merged.language,
                    merged.daily_disabled,
                    to_ms(self._now()),
                ),
            )
            return merged

        return await self._write(op)

    async def user_language(self, user_id: int) -> str | None:
        user = v.snowflake("user_id", user_id)
        async with self._transaction(write=False) as conn:
            row = await self._one(conn, "SELECT language FROM user_settings WHERE user_id = ?", (user,))
        return None if row is None else row[0]

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        user = v.snowflake("user_id", user_id)
        checked = v.text("language", language, optional=True, max_length=35)

        async def op(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO user_settings (user_id, language, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, "
                "updated_at = excluded.updated_at",
                (user, checked, to_ms(self._now())),
            )

        await self._write(op)

    # -- daily posts --------------------------------------------------------------
    async def pending_daily_posts(
        self, date: dt.date, *, now: dt.datetime | None = None
    ) -> list[GuildSettings]:
        day = v.day("date", date)
        moment = self._now() if now is None else v.moment("now", now)
        midnight = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
        minutes = (moment - midnight) // dt.timedelta(minutes=1)
        if minutes < 0:
            return []
        async with self._transaction(write=False) as conn:
            rows = await self._all(
                conn,
                "SELECT g.guild_id, g.daily_channel_id, g.post_minute, g.language, g.daily_disabled "
                "FROM guild_settings g LEFT JOIN daily_posts p ON p.guild_id = g.guild_id AND p.date = ? "
                "WHERE g.daily_channel_id IS NOT NULL AND g.daily_disabled IS NULL AND g.post_minute <= ? "
                "AND p.message_id IS NULL "
                "ORDER BY g.guild_id",
                (day.isoformat(), minutes),
            )
        return [guild_row(r) for r in rows]

    async def claim_daily_post(
        self,
        guild_id: int,
        date: dt.date,
        channel_id: int,
        *,
        now: dt.datetime | None = None,
        stale_after: dt.timedelta = dt.timedelta(minutes=10),
    ) -> bool:
        key = (v.snowflake("guild_id", guild_id), v.day("date", date).isoformat())
        channel = v.snowflake("channel_id", channel_id)
        moment = to_ms(self._now() if now is None else v.moment("now", now))

        async def op(conn: aiosqlite.Connection) -> bool:
            row = await self._one(
                conn, "SELECT message_id, claimed_at FROM daily_posts WHERE guild_id = ? AND date = ?", key
            )
            if row is None:
                await conn.execute(
                    "INSERT INTO daily_posts (guild_id, date, channel_id, claimed_at) VALUES (?, ?, ?, ?)",
                    (*key, channel, moment),
                )
                return True
            if row[0] is not None or row[1] > moment - stale_after // MS:
                return False
            await conn.execute(
                "UPDATE daily_posts SET channel_id = ?, claimed_at = ? WHERE guild_id = ? AND date = ?",
                (channel, moment, *key),
            )
            return True

        return await self._write(op)

    async def record_daily_post_message(self, guild_id: int, date: dt.date, message_id: int) -> DailyPost:
        key = (v.snowflake("guild_id", guild_id), v.day("date", date).isoformat())
        message = v.snowflake("message_id", message_id)

        async def op(conn: aiosqlite.Connection) -> DailyPost:
            row = await self._one(
                conn,
                "UPDATE daily_posts SET message_id = ?, posted_at = ? WHERE guild_id = ? AND date = ? "
                f"RETURNING {POST_COLUMNS}",
                (message, to_ms(self._now()), *key),
            )
            if row is None:
                raise InvalidValue(f"no claimed daily post for guild {key[0]} on {key[1]}: claim it first")
            return post_row(row)

        return await self._write(op)

    async def release_daily_post(self, guild_id: int, date: dt.date) -> None:
        key = (v.snowflake("guild_id", guild_id), v.day("date", date).isoformat())

        async def op(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "DELETE FROM daily_posts WHERE guild_id = ? AND date = ? AND message_id IS NULL", key
            )

        await self._write(op)

    async def daily_post(self, guild_id: int, date: dt.date) -> DailyPost | None:
        key = (v.snowflake("guild_id", guild_id), v.day("date", date).isoformat())
        async with self._transaction(write=False) as conn:
            row = await self._one(
                conn, f"SELECT {POST_COLUMNS} FROM daily_posts WHERE guild_id = ? AND date = ?", key
            )
        return None if row is None else post_row(row)

    # -- winnable deals -----------------------------------------------------------
    async def add_winnable_deals(self, kind: str, cells: int | None, deals: Sequence[int]) -> int:
        key = (v.kind(kind), v.cells(cells) or 0)
        numbers = [v.count("deal", d) for d in deals]
        now = to_ms(self._now())

        async def op(conn: aiosqlite.Connection) -> int:
            before = conn.total_changes
            await conn.executemany(
                "INSERT INTO winnable_deals (kind, cells, deal, added_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (kind, cells, deal) DO NOTHING",
                [(*key, n, now) for n in numbers],
            )
            return conn.total_changes - before

        return await self._write(op)

    async def take_winnable_deal(self, kind: str, cells: int | None) -> int | None:
        """Random among the stock: a random point between the lowest and highest free deal,
        then the first free deal at or above it (one index seek, however big the stock)."""
        key = (v.kind(kind), v.cells(cells) or 0)

        async def op(conn: aiosqlite.Connection) -> int | None:
            low, high = await self._one(
                conn,
                "SELECT min(deal), max(deal) FROM winnable_deals WHERE kind = ? AND cells = ? AND taken_at IS NULL",
                key,
            )
            if low is None:
                return None
            point = self._random.randint(low, high)
            deal: int
            (deal,) = await self._one(
                conn,
                "SELECT deal FROM winnable_deals WHERE kind = ? AND cells = ? AND taken_at IS NULL "
                "AND deal >= ? ORDER BY deal LIMIT 1",
                (*key, point),
            )
            await conn.execute(
                "UPDATE winnable_deals SET taken_at = ? WHERE kind = ? AND cells = ? AND deal = ?",
                (to_ms(self._now()), *key, deal),
            )
            return deal

        return await self._write(op)

    async def count_winnable_deals(self, kind: str, cells: int | None) -> int:
        key = (v.kind(kind), v.cells(cells) or 0)
        async with self._transaction(write=False) as conn:
            row = await self._one(
                conn,
                "SELECT count(*) FROM winnable_deals WHERE kind = ? AND cells = ? AND taken_at IS NULL",
                key,
            )
        return int(row[0])
