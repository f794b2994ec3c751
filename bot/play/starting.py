"""Starting a game: what the player asked for (``StartRequest``), the checks, the deal, the
game it replaces.

A player has one active game per kind. Starting another ends it only when nothing is at stake
in it, or when the request names exactly the state the player agreed to end; otherwise
``GameInProgress`` asks first, before any deal is used up. A race's game replaces whatever
game of its kind the player has then (they agreed when joining).
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import KW_ONLY, dataclass
from typing import Any

import engine
import storage
from bot.games import GameFront, front_for, front_of
from bot.play import dailycodes
from bot.play.board import Board, Drawing
from bot.play.boards import BoardMessages
from bot.play.deals import Deals
from bot.play.feedback import UserFeedback
from bot.play.games import RACE_SOURCE, DamagedGame, Games, is_private
from bot.play.solving import Solver

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StartRequest:
    """One new game a player asked for, and where.

    The deal: ``daily`` (today's challenge), ``race`` (the race's ``code``), a typed ``code``,
    else a new deal for ``cells`` (from the winnable stock, or ``any_deal``: any shuffle).
    ``replace``: the (id, version) of the game of this kind the player agreed to end.
    """

    user_id: int
    kind: str
    _: KW_ONLY
    cells: int | None = None
    code: engine.GameCode | None = None
    any_deal: bool = False
    daily: bool = False
    race: bool = False
    replace: tuple[int, int] | None = None
    guild_id: int | None = None
    channel_id: int | None = None

    def __post_init__(self) -> None:
        if self.race and (self.code is None or self.daily):
            raise ValueError("a race game is a deal chosen for the race")

    @property
    def source(self) -> str:
        """Where the deal comes from (``games.source``): it decides the boards it ranks on."""
        return deal_source(race=self.race, daily=self.daily, practice=self.code is not None or self.any_deal)


@dataclass(frozen=True)
class Started:
    board: Board
    replaced: storage.GameRow | None = None  # the player's previous game of this kind, now resigned
    verified: bool = True  # False when the deal is not known to be winnable


class GameInProgress(UserFeedback):
    """The player's active game of this kind has something at stake: ask before ending it.

    ``stale`` says the player had agreed to end an earlier state of it (it moved, or
    another game took its place), so the question is asked again, nothing ended.
    """

    def __init__(self, row: storage.GameRow, *, stale: bool = False) -> None:
        # A race game's code stays secret while others may still race on it: the flag says it.
        self.shown_code = "🏁" if is_private(row) else row.code
        super().__init__("confirm.busy", code=self.shown_code)
        self.row = row
        self.stale = stale


def deal_source(*, race: bool, daily: bool, practice: bool) -> str:
    """Where a new game's deal came from (``games.source``): it decides the boards it ranks on."""
    if race:
        return RACE_SOURCE
    if daily:
        return "daily"
    return "practice" if practice else "stock"


def at_stake(row: storage.GameRow) -> bool:
    """Whether ending ``row`` loses anything: moves on the board, or a daily attempt."""
    return row.move_count > 0 or row.daily_date is not None


def check_code_kind(front: GameFront[Any], code: engine.GameCode, *, race: bool = False) -> None:
    """A typed code must be a deal of the game being started (or raced): the answer names the
    command that plays (or races) the code's own game."""
    if code.kind != front.kind:
        other = front_for(code.kind)
        key = other.key("race.error.code_other_game") if race else other.key("error.code_other_game")
        raise UserFeedback(key, code=str(code))


def check_replaceable(active: storage.GameRow | None, replace: tuple[int, int] | None) -> None:
    """Raise ``GameInProgress`` unless ``active`` may end: nothing at stake, or agreed to."""
    if active is None or not at_stake(active):
        return
    if replace != (active.id, active.version):
        raise GameInProgress(active, stale=replace is not None)


def agreed(request: StartRequest, active: storage.GameRow | None) -> tuple[int, int] | None:
    """The state of ``active`` the player agreed to end: a race's game replaces any."""
    if request.race and active is not None:
        return (active.id, active.version)
    return request.replace


class Starter:
    """Starts games in ``games``: deals from ``deals``, draws with ``drawing``."""

    def __init__(
        self, games: Games, deals: Deals, drawing: Drawing, boards: BoardMessages, solver: Solver | None
    ) -> None:
        self.games = games
        self.deals = deals
        self.drawing = drawing
        self.boards = boards
        self.solver = solver

    async def start(self, request: StartRequest) -> Started:
        """A new game. The player's active game of this kind is resigned when nothing is at
        stake in it, or when ``request.replace`` names it as (id, version) -- the player agreed
        to end exactly that state; otherwise ``GameInProgress`` is raised and nothing changes."""
        front = front_for(request.kind)
        today = dailycodes.utc_today(self.games.clock()) if request.daily else None
        cells = await self._checked_cells(request, front)
        active = await self.games.store.active_game(request.user_id, request.kind)
        check_replaceable(active, agreed(request, active))  # before dealing: a refusal uses up no deal
        verified = True
        code = request.code
        if today is not None:
            code = engine.parse_code(await self.deals.daily_code(request.kind, today))
        elif code is None:
            code, verified = await self.deals.new_deal(front, cells, request.any_deal)
        replaced = await self._retire(active, agreed(request, active)) if active is not None else None
        row, replaced = await self._create(request, front, code, today, replaced)
        game = engine.new_game(code)  # from the typed code: no second parse of its text
        self.games.remember(row, game)
        if not request.race:  # a race game's board is drawn when its player asks (My board)
            self._seed_verdict(row, game)
        log.info(
            "game %s started: %s for user %s%s", row.id, code, request.user_id, " (daily)" if today else ""
        )
        png = b"" if request.race else await self.drawing.render(row, game)
        return Started(Board(row, game, png), replaced, verified)

    async def _checked_cells(self, request: StartRequest, front: GameFront[Any]) -> int | None:
        """The option a new deal is dealt with, once a typed code is known to be allowed."""
        if request.daily or request.race:
            return request.cells
        if request.code is not None:
            check_code_kind(front, request.code)
            await self._check_not_rehearsal(request.user_id, front, request.code)
            return request.cells
        return front.check_cells(request.cells)

    async def _create(
        self,
        request: StartRequest,
        front: GameFront[Any],
        code: engine.GameCode,
        today: dt.date | None,
        replaced: storage.GameRow | None,
    ) -> tuple[storage.GameRow, storage.GameRow | None]:
        """The new game's row, and the game it replaced."""
        store = self.games.store

        async def create() -> storage.GameRow:
            return await store.create_game(
                request.kind,
                str(code),
                request.user_id,
                request.guild_id,
                request.channel_id,
                variant=front.variant(code.cells),
                daily_date=today,
                source=request.source,  # it decides which boards the game ranks on
            )

        try:
            row = await create()
        except storage.ActiveGameExists:
            # Another start by the same player won the race (a double click on Play).
            other = await store.active_game(request.user_id, request.kind)
            if other is not None:
                check_replaceable(other, agreed(request, other))
                replaced = await self._retire(other, agreed(request, other)) or replaced
            row = await create()
        if not request.race:
            self.boards.expect(row.id)  # its board is posted next: a /move meanwhile waits for it
        return row, replaced

    def _seed_verdict(self, row: storage.GameRow, game: engine.Game[Any]) -> None:
        """A deal with a known win (a shipped stock deal) starts known to be winnable along it:
        the first press needs no whole new search, only, off that line, one back to it."""
        front = front_of(game)
        if self.solver is None or front.verdict_worker is None:
            return
        line = front.known_line(game)
        if line is not None:
            self.games.verdicts.seed(row.id, row.version, front.mark(game), line)

    async def _check_not_rehearsal(self, user_id: int, front: GameFront[Any], code: engine.GameCode) -> None:
        """Today's daily deal, typed as a code, before the player's counted attempt is finished
        would let them practise the very cards they are ranked on: refused until then."""
        if not await self.deals.is_todays_daily(front, code):
            return
        today = dailycodes.utc_today(self.games.clock())
        stats = await self.games.store.player_stats(user_id, front.kind, today=today)
        if stats.last_daily != today:
            raise UserFeedback("error.daily_rehearsal")

    async def check_can_start(self, user_id: int, kind: str) -> None:
        """Raise ``GameInProgress`` now if a new game of ``kind`` would need the player's consent."""
        check_replaceable(await self.games.store.active_game(user_id, kind), None)

    async def _retire(self, row: storage.GameRow, replace: tuple[int, int] | None) -> storage.GameRow | None:
        """End ``row`` as resigned if it is still exactly as checked; None if it ended meanwhile."""
        async with self.games.lock(row.id):
            try:
                try:
                    game = self.games.engine_game(row)
                except DamagedGame:
                    return await self.games.end_damaged(row)
                return await self.games.finish(row, game, "resigned")
            except storage.GameNotActive:
                return None
            except storage.VersionConflict as exc:
                raise GameInProgress(exc.current, stale=replace is not None) from None  # it moved: ask
