"""Guild and user settings, daily posts and the winnable-deal stock on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from typing import Any

from storage.interface import DailyPost, Deck, GuildSettings, UserChoices
from storage.postgres.base import DECODE, PostgresBase, maybe_from_text, maybe_text, to_moment
from storage.rows import GUILD_COLUMNS, POST_COLUMNS, deck_of, guild_row, post_row


class SettingsMixin(PostgresBase):
    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(
                f"SELECT {GUILD_COLUMNS} FROM guild_settings WHERE guild_id = $1", guild_id
            )
        return None if row is None else guild_row(row, DECODE)

    async def set_guild_settings(
        self, guild_id: int, changes: dict[str, Any], now: dt.datetime
    ) -> GuildSettings:
        """One upsert setting only the changed columns, so concurrent changes of different
        settings never undo each other."""
        stored = {
            **changes,
            "language": maybe_text(changes.get("language")),
            "daily_disabled": maybe_text(changes.get("daily_disabled")),
        }
        defaults = GuildSettings(guild_id)
        inserted = [stored.get(name, getattr(defaults, name)) for name in ("daily_channel_id", "post_minute")]
        updates = [f"{name} = excluded.{name}" for name in changes] + ["updated_at = excluded.updated_at"]
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "INSERT INTO guild_settings (guild_id, daily_channel_id, post_minute, language, daily_disabled, "
                "updated_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (guild_id) DO UPDATE SET "
                f"{', '.join(updates)} RETURNING {GUILD_COLUMNS}",
                guild_id,
                *inserted,
                stored["language"],
                stored["daily_disabled"],
                now,
            )
        assert row is not None  # an upsert always returns its row
        return guild_row(row, DECODE)

    async def user_choices(self, user_id: int) -> UserChoices:
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(
                "SELECT language, deck, lost_warning FROM user_settings WHERE user_id = $1", user_id
            )
            rows = await conn.fetch(
                "SELECT name, value FROM player_settings WHERE user_id = $1 ORDER BY name", user_id
            )
        settings = tuple((r["name"], r["value"]) for r in rows)
        if row is None:
            return UserChoices(settings=settings)
        warning = row["lost_warning"]
        return UserChoices(
            maybe_from_text(row["language"]),
            deck_of(row["deck"]),
            None if warning is None else bool(warning),
            settings,
        )

    async def user_language(self, user_id: int) -> str | None:
        async with self._transaction(write=False) as conn:
            stored = await conn.fetchval("SELECT language FROM user_settings WHERE user_id = $1", user_id)
        return maybe_from_text(stored)

    async def set_user_language(self, user_id: int, language: str | None, now: dt.datetime) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, language, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, "
                "updated_at = excluded.updated_at",
                user_id,
                maybe_text(language),
                now,
            )

    async def user_deck(self, user_id: int) -> Deck | None:
        async with self._transaction(write=False) as conn:
            stored = await conn.fetchval("SELECT deck FROM user_settings WHERE user_id = $1", user_id)
        return deck_of(stored)

    async def set_user_deck(self, user_id: int, deck: Deck | None, now: dt.datetime) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, deck, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (user_id) DO UPDATE SET deck = excluded.deck, updated_at = excluded.updated_at",
                user_id,
                deck,
                now,
            )

    async def user_lost_warning(self, user_id: int) -> bool | None:
        async with self._transaction(write=False) as conn:
            stored = await conn.fetchval("SELECT lost_warning FROM user_settings WHERE user_id = $1", user_id)
        return None if stored is None else bool(stored)

    async def set_user_lost_warning(self, user_id: int, on: bool | None, now: dt.datetime) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, lost_warning, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (user_id) DO UPDATE SET lost_warning = excluded.lost_warning, "
                "updated_at = excluded.updated_at",
                user_id,
                on,
                now,
            )

    async def player_settings(self, user_id: int) -> dict[str, str]:
        async with self._transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT name, value FROM player_settings WHERE user_id = $1 ORDER BY name", user_id
            )
        return {row["name"]: row["value"] for row in rows}

    async def set_player_setting(self, user_id: int, name: str, value: str | None, now: dt.datetime) -> None:
        async with self._transaction() as conn:
            if value is None:
                await conn.execute(
                    "DELETE FROM player_settings WHERE user_id = $1 AND name = $2", user_id, name
                )
                return
            await conn.execute(
                "INSERT INTO player_settings (user_id, name, value, updated_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value, "
                "updated_at = excluded.updated_at",
                user_id,
                name,
                value,
                now,
            )

    # -- daily posts --------------------------------------------------------------
    async def pending_daily_posts(self, date: dt.date, minutes: int) -> list[GuildSettings]:
        async with self._transaction(write=False) as conn:
            found = await conn.fetch(
                "SELECT g.guild_id, g.daily_channel_id, g.post_minute, g.language, g.daily_disabled "
                "FROM guild_settings g LEFT JOIN daily_posts p ON p.guild_id = g.guild_id AND p.date = $1 "
                "WHERE g.daily_channel_id IS NOT NULL AND g.daily_disabled IS NULL AND g.post_minute <= $2 "
                "AND p.message_id IS NULL "
                "ORDER BY g.guild_id",
                date,
                minutes,
            )
        return [guild_row(r, DECODE) for r in found]

    async def claim_daily_post(
        self, guild_id: int, date: dt.date, channel_id: int, now: dt.datetime, stale_before: dt.datetime
    ) -> bool:
        now, stale_before = to_moment(now), to_moment(stale_before)  # a caller's time, stored as SQLite would
        async with self._transaction() as conn:
            # The primary key lets exactly one claimer insert; the others get nothing back.
            claimed = await conn.fetchval(
                "INSERT INTO daily_posts (guild_id, date, channel_id, claimed_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT DO NOTHING RETURNING true",
                guild_id,
                date,
                channel_id,
                now,
            )
            if claimed:
                return True
            # An unsent claim old enough is taken over; the row lock lets one taker win.
            retaken = await conn.fetchval(
                "UPDATE daily_posts SET channel_id = $3, claimed_at = $4 WHERE guild_id = $1 AND date = $2 "
                "AND message_id IS NULL AND claimed_at <= $5 RETURNING true",
                guild_id,
                date,
                channel_id,
                now,
                stale_before,
            )
        return bool(retaken)

    async def record_daily_post(
        self, guild_id: int, date: dt.date, message_id: int, now: dt.datetime
    ) -> DailyPost | None:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE daily_posts SET message_id = $1, posted_at = $2 WHERE guild_id = $3 AND date = $4 "
                f"RETURNING {POST_COLUMNS}",
                message_id,
                now,
                guild_id,
                date,
            )
        return None if row is None else post_row(row, DECODE)

    async def release_daily_post(self, guild_id: int, date: dt.date) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "DELETE FROM daily_posts WHERE guild_id = $1 AND date = $2 AND message_id IS NULL",
                guild_id,
                date,
            )

    async def daily_post(self, guild_id: int, date: dt.date) -> DailyPost | None:
        async with self._transaction(write=False) as conn:
            row = await conn.fetchrow(
                f"SELECT {POST_COLUMNS} FROM daily_posts WHERE guild_id = $1 AND date = $2", guild_id, date
            )
        return None if row is None else post_row(row, DECODE)

    # -- winnable deals -----------------------------------------------------------
    async def add_winnable_deals(self, kind: str, variant: str, deals: list[int], now: dt.datetime) -> int:
        async with self._transaction() as conn:
            status = await conn.execute(
                "INSERT INTO winnable_deals (kind, variant, deal, added_at) "
                "SELECT $1, $2, deal, $4 FROM unnest($3::bigint[]) AS deal "
                "ON CONFLICT (kind, variant, deal) DO NOTHING",
                kind,
                variant,
                sorted(set(deals)),
                now,
            )
        return int(status.rsplit(" ", 1)[-1])  # "INSERT 0 <rows>"

    async def take_winnable_deal(self, kind: str, variant: str, now: dt.datetime) -> int | None:
        """Random among the stock: a random point between the lowest and highest free deal, then
        the first free deal at or above it (else below it) that no concurrent taker has locked."""
        free = "kind = $1 AND variant = $2 AND taken_at IS NULL"
        async with self._transaction() as conn:
            bounds = await conn.fetchrow(
                f"SELECT min(deal), max(deal) FROM winnable_deals WHERE {free}", kind, variant
            )
            if bounds is None or bounds[0] is None:
                return None
            point = self._random.randint(bounds[0], bounds[1])
            deal = None
            for direction in (">= $3 ORDER BY deal", "< $3 ORDER BY deal DESC"):
                deal = await conn.fetchval(
                    f"SELECT deal FROM winnable_deals WHERE {free} AND deal {direction} LIMIT 1 "
                    "FOR UPDATE SKIP LOCKED",
                    kind,
                    variant,
                    point,
                )
                if deal is not None:
                    break
            if deal is None:
                return None  # every free deal is being taken by someone else right now
            await conn.execute(
                "UPDATE winnable_deals SET taken_at = $4 WHERE kind = $1 AND variant = $2 AND deal = $3",
                kind,
                variant,
                deal,
                now,
            )
        return int(deal)

    async def count_winnable_deals(self, kind: str, variant: str) -> int:
        async with self._transaction(write=False) as conn:
            count = await conn.fetchval(
                "SELECT count(*) FROM winnable_deals WHERE kind = $1 AND variant = $2 AND taken_at IS NULL",
                kind,
                variant,
            )
        return int(count)
