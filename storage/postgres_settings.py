"""Guild and user settings, daily posts and the winnable-deal stock on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from storage import validate as v
from storage.interface import UNCHANGED, DailyPost, GuildSettings, InvalidValue, _Unchanged
from storage.postgres_base import DECODE, PostgresBase, maybe_from_text, maybe_text
from storage.rows import GUILD_COLUMNS, POST_COLUMNS, guild_row, post_row


class SettingsMixin(PostgresBase):
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        guild = v.snowflake("guild_id", guild_id)
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(
                f"SELECT {GUILD_COLUMNS} FROM guild_settings WHERE guild_id = $1", guild
            )
        return GuildSettings(guild) if row is None else guild_row(row, DECODE)

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        daily_channel_id: int | _Unchanged | None = UNCHANGED,
        post_minute: int | _Unchanged = UNCHANGED,
        language: str | _Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        guild = v.snowflake("guild_id", guild_id)
        changes = v.guild_changes(daily_channel_id, post_minute, language)
        if "language" in changes:
            changes["language"] = maybe_text(changes["language"])
        defaults = GuildSettings(guild)
        inserted = [
            changes.get(name, getattr(defaults, name)) for name in ("daily_channel_id", "post_minute")
        ]
        # One upsert that sets only the changed columns, so concurrent changes of different
        # settings never undo each other.
        updates = [f"{name} = excluded.{name}" for name in changes] + ["updated_at = excluded.updated_at"]
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "INSERT INTO guild_settings (guild_id, daily_channel_id, post_minute, language, updated_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id) DO UPDATE SET "
                f"{', '.join(updates)} RETURNING {GUILD_COLUMNS}",
                guild,
                *inserted,
                changes.get("language"),
                self._now(),
            )
        assert row is not None
        return guild_row(row, DECODE)

    async def user_language(self, user_id: int) -> str | None:
        user = v.snowflake("user_id", user_id)
        async with self._transaction(write=False) as conn:
            stored = await conn.fetchval("SELECT language FROM user_settings WHERE user_id = $1", user)
        return maybe_from_text(stored)

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        user = v.snowflake("user_id", user_id)
        checked = v.text("language", language, optional=True, max_length=35)
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, language, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, "
                "updated_at = excluded.updated_at",
                user,
                maybe_text(checked),
                self._now(),
            )

    # -- daily posts --------------------------------------------------------------
    async def pending_daily_posts(
        self, date: dt.date, *, now: dt.datetime | None = None
    ) -> list[GuildSettings]:
        day = v.day("date", date)
        moment = self._now() if now is None else v.moment("now", now)
        minutes = v.minutes_into(day, moment)
        if minutes < 0:
            return []
        async with self._transaction(write=False) as conn:
            found = await conn.fetch(
                "SELECT g.guild_id, g.daily_channel_id, g.post_minute, g.language FROM guild_settings g "
                "LEFT JOIN daily_posts p ON p.guild_id = g.guild_id AND p.date = $1 "
                "WHERE g.daily_channel_id IS NOT NULL AND g.post_minute <= $2 AND p.message_id IS NULL "
                "ORDER BY g.guild_id",
                day,
                minutes,
            )
        return [guild_row(r, DECODE) for r in found]

    async def claim_daily_post(
        self,
        guild_id: int,
        date: dt.date,
        channel_id: int,
        *,
        now: dt.datetime | None = None,
        stale_after: dt.timedelta = dt.timedelta(minutes=10),
    ) -> bool:
        guild, day = v.snowflake("guild_id", guild_id), v.day("date", date)
        channel = v.snowflake("channel_id", channel_id)
        moment = self._now() if now is None else v.moment("now", now)
        async with self._transaction() as conn:
            # The primary key lets exactly one claimer insert; the others see nothing returned.
            claimed = await conn.fetchval(
                "INSERT INTO daily_posts (guild_id, date, channel_id, claimed_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT DO NOTHING RETURNING true",
                guild,
                day,
                channel,
                moment,
            )
            if claimed:
                return True
            # An unsent claim old enough is taken over; the row lock makes one taker win.
            retaken = await conn.fetchval(
                "UPDATE daily_posts SET channel_id = $3, claimed_at = $4 WHERE guild_id = $1 AND date = $2 "
                "AND message_id IS NULL AND claimed_at <= $5 RETURNING true",
                guild,
                day,
                channel,
                moment,
                moment - stale_after,
            )
        return bool(retaken)

    async def record_daily_post_message(self, guild_id: int, date: dt.date, message_id: int) -> DailyPost:
        guild, day = v.snowflake("guild_id", guild_id), v.day("date", date)
        message = v.snowflake("message_id", message_id)
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE daily_posts SET message_id = $1, posted_at = $2 WHERE guild_id = $3 AND date = $4 "
                f"RETURNING {POST_COLUMNS}",
                message,
                self._now(),
                guild,
                day,
            )
        if row is None:
            raise InvalidValue(f"no claimed daily post for guild {guild} on {day}: claim it first")
        return post_row(row, DECODE)

    async def release_daily_post(self, guild_id: int, date: dt.date) -> None:
        guild, day = v.snowflake("guild_id", guild_id), v.day("date", date)
        async with self._transaction() as conn:
            await conn.execute(
                "DELETE FROM daily_posts WHERE guild_id = $1 AND date = $2 AND message_id IS NULL", guild, day
            )

    async def daily_post(self, guild_id: int, date: dt.date) -> DailyPost | None:
        guild, day = v.snowflake("guild_id", guild_id), v.day("date", date)
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(
                f"SELECT {POST_COLUMNS} FROM daily_posts WHERE guild_id = $1 AND date = $2", guild, day
            )
        return None if row is None else post_row(row, DECODE)

    # -- winnable deals -----------------------------------------------------------
    async def add_winnable_deals(self, kind: str, cells: int | None, deals: Sequence[int]) -> int:
        key = v.deal_stock(kind, cells)
        numbers = sorted({v.count("deal", d) for d in deals})
        async with self._transaction() as conn:
            status = await conn.execute(
                "INSERT INTO winnable_deals (kind, cells, deal, added_at) "
                "SELECT $1, $2, deal, $4 FROM unnest($3::bigint[]) AS deal "
                "ON CONFLICT (kind, cells, deal) DO NOTHING",
                *key,
                numbers,
                self._now(),
            )
        return int(status.rsplit(" ", 1)[-1])  # "INSERT 0 <rows>"

    async def take_winnable_deal(self, kind: str, cells: int | None) -> int | None:
        """Random among the stock: a random point between the lowest and highest free deal, then
        the first free deal at or above it (else below it) that no concurrent taker has locked."""
        key = v.deal_stock(kind, cells)
        free = "kind = $1 AND cells = $2 AND taken_at IS NULL"
        async with self._transaction() as conn:
            bounds = await conn.fetchrow(
                f"SELECT min(deal), max(deal) FROM winnable_deals WHERE {free}", *key
            )
            if bounds is None or bounds[0] is None:
                return None
            point = self._random.randint(bounds[0], bounds[1])
            deal = await conn.fetchval(
                f"SELECT deal FROM winnable_deals WHERE {free} AND deal >= $3 ORDER BY deal LIMIT 1 "
                "FOR UPDATE SKIP LOCKED",
                *key,
                point,
            )
            if deal is None:
                deal = await conn.fetchval(
                    f"SELECT deal FROM winnable_deals WHERE {free} AND deal < $3 ORDER BY deal DESC LIMIT 1 "
                    "FOR UPDATE SKIP LOCKED",
                    *key,
                    point,
                )
            if deal is None:
                return None  # every free deal is being taken by someone else right now
            await conn.execute(
                "UPDATE winnable_deals SET taken_at = $4 WHERE kind = $1 AND cells = $2 AND deal = $3",
                *key,
                deal,
                self._now(),
            )
        return int(deal)

    async def count_winnable_deals(self, kind: str, cells: int | None) -> int:
        key = v.deal_stock(kind, cells)
        async with self._transaction(write=False) as conn:
            return int(
                await conn.fetchval(
                    "SELECT count(*) FROM winnable_deals WHERE kind = $1 AND cells = $2 AND taken_at IS NULL",
                    *key,
                )
            )
