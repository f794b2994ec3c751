"""Guild and user settings, daily posts, and the solver's stock of winnable deals on SQLite."""

from __future__ import annotations

import datetime as dt
from typing import Any

from storage.interface import DailyPost, Deck, GuildSettings, UserChoices
from storage.rows import deck_of
from storage.sqlite.base import SqliteBase
from storage.sqlite.inthread import Conn
from storage.sqlite.rows import GUILD_COLUMNS, POST_COLUMNS, guild_row, post_row, to_ms


class SettingsMixin(SqliteBase):
    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        row = await self._read(
            lambda conn: self._one(
                conn, f"SELECT {GUILD_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        )
        return None if row is None else guild_row(row)

    async def set_guild_settings(
        self, guild_id: int, changes: dict[str, Any], now: dt.datetime
    ) -> GuildSettings:
        async def op(conn: Conn) -> GuildSettings:
            row = await self._one(
                conn, f"SELECT {GUILD_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            current = GuildSettings(guild_id) if row is None else guild_row(row)
            merged = GuildSettings(
                guild_id,
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
                    guild_id,
                    merged.daily_channel_id,
                    merged.post_minute,
                    merged.language,
                    merged.daily_disabled,
                    to_ms(now),
                ),
            )
            return merged

        return await self._write(op)

    async def user_choices(self, user_id: int) -> UserChoices:
        async def op(conn: Conn) -> UserChoices:
            row = await self._one(
                conn, "SELECT language, deck, lost_warning FROM user_settings WHERE user_id = ?", (user_id,)
            )
            rows = await self._all(
                conn, "SELECT name, value FROM player_settings WHERE user_id = ? ORDER BY name", (user_id,)
            )
            settings = tuple((name, value) for name, value in rows)
            if row is None:
                return UserChoices(settings=settings)
            language, deck, warning = row
            return UserChoices(language, deck_of(deck), None if warning is None else bool(warning), settings)

        return await self._read(op)

    async def user_language(self, user_id: int) -> str | None:
        row = await self._read(
            lambda conn: self._one(conn, "SELECT language FROM user_settings WHERE user_id = ?", (user_id,))
        )
        return None if row is None else row[0]

    async def set_user_language(self, user_id: int, language: str | None, now: dt.datetime) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO user_settings (user_id, language, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, "
                "updated_at = excluded.updated_at",
                (user_id, language, to_ms(now)),
            )

        await self._write(op)

    async def user_deck(self, user_id: int) -> Deck | None:
        row = await self._read(
            lambda conn: self._one(conn, "SELECT deck FROM user_settings WHERE user_id = ?", (user_id,))
        )
        return deck_of(None if row is None else row[0])

    async def set_user_deck(self, user_id: int, deck: Deck | None, now: dt.datetime) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO user_settings (user_id, deck, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET deck = excluded.deck, updated_at = excluded.updated_at",
                (user_id, deck, to_ms(now)),
            )

        await self._write(op)

    async def user_lost_warning(self, user_id: int) -> bool | None:
        row = await self._read(
            lambda conn: self._one(
                conn, "SELECT lost_warning FROM user_settings WHERE user_id = ?", (user_id,)
            )
        )
        return None if row is None or row[0] is None else bool(row[0])

    async def set_user_lost_warning(self, user_id: int, on: bool | None, now: dt.datetime) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO user_settings (user_id, lost_warning, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET lost_warning = excluded.lost_warning, "
                "updated_at = excluded.updated_at",
                (user_id, None if on is None else int(on), to_ms(now)),
            )

        await self._write(op)

    async def player_settings(self, user_id: int) -> dict[str, str]:
        rows = await self._read(
            lambda conn: self._all(
                conn, "SELECT name, value FROM player_settings WHERE user_id = ? ORDER BY name", (user_id,)
            )
        )
        return {name: value for name, value in rows}

    async def set_player_setting(self, user_id: int, name: str, value: str | None, now: dt.datetime) -> None:
        async def op(conn: Conn) -> None:
            if value is None:
                await conn.execute(
                    "DELETE FROM player_settings WHERE user_id = ? AND name = ?", (user_id, name)
                )
                return
            await conn.execute(
                "INSERT INTO player_settings (user_id, name, value, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value, "
                "updated_at = excluded.updated_at",
                (user_id, name, value, to_ms(now)),
            )

        await self._write(op)

    # -- daily posts --------------------------------------------------------------
    async def pending_daily_posts(self, date: dt.date, minutes: int) -> list[GuildSettings]:
        rows = await self._read(
            lambda conn: self._all(
                conn,
                "SELECT g.guild_id, g.daily_channel_id, g.post_minute, g.language, g.daily_disabled "
                "FROM guild_settings g LEFT JOIN daily_posts p ON p.guild_id = g.guild_id AND p.date = ? "
                "WHERE g.daily_channel_id IS NOT NULL AND g.daily_disabled IS NULL AND g.post_minute <= ? "
                "AND p.message_id IS NULL "
                "ORDER BY g.guild_id",
                (date.isoformat(), minutes),
            )
        )
        return [guild_row(r) for r in rows]

    async def claim_daily_post(
        self, guild_id: int, date: dt.date, channel_id: int, now: dt.datetime, stale_before: dt.datetime
    ) -> bool:
        key = (guild_id, date.isoformat())
        moment = to_ms(now)

        async def op(conn: Conn) -> bool:
            row = await self._one(
                conn, "SELECT message_id, claimed_at FROM daily_posts WHERE guild_id = ? AND date = ?", key
            )
            if row is None:
                await conn.execute(
                    "INSERT INTO daily_posts (guild_id, date, channel_id, claimed_at) VALUES (?, ?, ?, ?)",
                    (*key, channel_id, moment),
                )
                return True
            if row[0] is not None or row[1] > to_ms(stale_before):
                return False
            await conn.execute(
                "UPDATE daily_posts SET channel_id = ?, claimed_at = ? WHERE guild_id = ? AND date = ?",
                (channel_id, moment, *key),
            )
            return True

        return await self._write(op)

    async def record_daily_post(
        self, guild_id: int, date: dt.date, message_id: int, now: dt.datetime
    ) -> DailyPost | None:
        async def op(conn: Conn) -> DailyPost | None:
            row = await self._one(
                conn,
                "UPDATE daily_posts SET message_id = ?, posted_at = ? WHERE guild_id = ? AND date = ? "
                f"RETURNING {POST_COLUMNS}",
                (message_id, to_ms(now), guild_id, date.isoformat()),
            )
            return None if row is None else post_row(row)

        return await self._write(op)

    async def release_daily_post(self, guild_id: int, date: dt.date) -> None:
        async def op(conn: Conn) -> None:
            await conn.execute(
                "DELETE FROM daily_posts WHERE guild_id = ? AND date = ? AND message_id IS NULL",
                (guild_id, date.isoformat()),
            )

        await self._write(op)

    async def daily_post(self, guild_id: int, date: dt.date) -> DailyPost | None:
        row = await self._read(
            lambda conn: self._one(
                conn,
                f"SELECT {POST_COLUMNS} FROM daily_posts WHERE guild_id = ? AND date = ?",
                (guild_id, date.isoformat()),
            )
        )
        return None if row is None else post_row(row)

    # -- winnable deals -----------------------------------------------------------
    async def add_winnable_deals(self, kind: str, variant: str, deals: list[int], now: dt.datetime) -> int:
        async def op(conn: Conn) -> int:
            before = conn.total_changes
            await conn.executemany(
                "INSERT INTO winnable_deals (kind, variant, deal, added_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (kind, variant, deal) DO NOTHING",
                [(kind, variant, n, to_ms(now)) for n in deals],
            )
            return conn.total_changes - before

        return await self._write(op)

    async def take_winnable_deal(self, kind: str, variant: str, now: dt.datetime) -> int | None:
        """Random among the stock: a random point between the lowest and highest free deal,
        then the first free deal at or above it (one index seek, however big the stock)."""
        key = (kind, variant)

        async def op(conn: Conn) -> int | None:
            low, high = await self._one(
                conn,
                "SELECT min(deal), max(deal) FROM winnable_deals WHERE kind = ? AND variant = ? AND taken_at IS NULL",
                key,
            )
            if low is None:
                return None
            point = self._random.randint(low, high)
            deal: int
            (deal,) = await self._one(
                conn,
                "SELECT deal FROM winnable_deals WHERE kind = ? AND variant = ? AND taken_at IS NULL "
                "AND deal >= ? ORDER BY deal LIMIT 1",
                (*key, point),
            )
            await conn.execute(
                "UPDATE winnable_deals SET taken_at = ? WHERE kind = ? AND variant = ? AND deal = ?",
                (to_ms(now), *key, deal),
            )
            return deal

        return await self._write(op)

    async def count_winnable_deals(self, kind: str, variant: str) -> int:
        row = await self._read(
            lambda conn: self._one(
                conn,
                "SELECT count(*) FROM winnable_deals WHERE kind = ? AND variant = ? AND taken_at IS NULL",
                (kind, variant),
            )
        )
        return int(row[0])
