"""The PostgreSQL database as the front (``storage.store.Store``) calls it: its parts in one class."""

from __future__ import annotations

from storage.postgres.games import GamesMixin
from storage.postgres.races import RacesMixin
from storage.postgres.rankings import RankingsMixin
from storage.postgres.settings import SettingsMixin


class PostgresDatabase(GamesMixin, RankingsMixin, SettingsMixin, RacesMixin):
    """One PostgreSQL database or schema: the SQL of every operation, on checked values.

    Connect with ``await PostgresDatabase.connect(url)`` (``PostgresStore.open`` does).
    """


__all__ = ["PostgresDatabase"]
