"""The SQLite database as the front (``storage.store.Store``) calls it: its parts in one class."""

from __future__ import annotations

from storage.sqlite.games import GamesMixin
from storage.sqlite.races import RacesMixin
from storage.sqlite.rankings import RankingsMixin
from storage.sqlite.settings import SettingsMixin


class SqliteDatabase(GamesMixin, RankingsMixin, SettingsMixin, RacesMixin):
    """One SQLite file: the SQL of every operation, on checked values.

    Connect with ``await SqliteDatabase.connect(path)`` (``SqliteStore.open`` does).
    """


__all__ = ["SqliteDatabase"]
