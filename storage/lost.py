"""Noticing a database that no longer holds what this process wrote to it (both backends).

The ``Store`` tells its database the last game row it wrote (``note_written``); each write
transaction then checks, before its commit, that the database still holds that row at least
at that version (games are never deleted, versions only go up). A restored older copy or
dump, or a database emptied underneath, is refused ("rows_lost"), and ``on_lost`` is told
once: the bot stops rather than acknowledge moves into a database that forgot others.
"""

from __future__ import annotations

from collections.abc import Callable

from storage.interface import DatabaseUnusable, GameRow


class LostWatch:
    """What a database remembers of its own writes, and how it says it is lost."""

    path: str
    # Called once, with the error, when the database is found lost (the bot stops on it).
    on_lost: Callable[[DatabaseUnusable], None] | None = None
    _written: tuple[int, int] | None = None
    _record_lost: DatabaseUnusable | None = None

    def _unusable(self, reason: str, detail: str) -> DatabaseUnusable:
        """The backend's ``DatabaseUnusable`` for ``reason`` (its advice in its own words)."""
        raise NotImplementedError

    def note_written(self, row: GameRow) -> GameRow:
        """The game row just written (and acknowledged) by this process."""
        if self._written is None or row.id != self._written[0] or row.version >= self._written[1]:
            self._written = (row.id, row.version)
        return row

    def _report_lost(self, error: DatabaseUnusable) -> DatabaseUnusable:
        """Tell ``on_lost`` (once) that the database is lost; the error to raise."""
        if self._record_lost is None:
            self._record_lost = error
            if self.on_lost is not None:
                self.on_lost(error)
        return error

    def _record_to_check(self) -> tuple[int, int] | None:
        """The (game id, version) a write transaction must still find before it commits;
        raises at once once the database was found lost."""
        if self._record_lost is not None:
            raise self._unusable(self._record_lost.reason, "found before")
        return self._written

    def _check_stored(self, written: tuple[int, int], version: int | None) -> None:
        """Inside a write transaction, before its commit: ``version`` is what the database holds
        of the game ``written`` names (None: no such row)."""
        game_id, expected = written
        if version is None or version < expected:
            found = "missing" if version is None else f"at version {version}"
            raise self._report_lost(
                self._unusable("rows_lost", f"game {game_id} written at version {expected}, {found}")
            )
