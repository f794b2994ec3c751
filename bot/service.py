"""The command layer without Discord: where storage, engine and renderer meet.

Both the Discord cogs and the console mode call this. Every operation takes
the acting user's id, checks ownership and the game's version, applies the
move in the engine and commits it to storage *before* returning, so anything
the player is told has been saved. Moves on one game are serialised by a
per-game asyncio lock; two processes on one database are kept apart by
storage's version check.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
import storage
from bot import dailycodes
from bot.errors import UserFeedback
from bot.locale import current_language, picture_labels
from engine.codes import MAX_DEAL

log = logging.getLogger(__name__)

Renderer = Callable[..., bytes]
KINDS = ("bakers", "calculation")
CACHE_SIZE = 512


@dataclass(frozen=True)
class Board:
    """A game as the player should see it now: its row, engine state and picture."""

    row: storage.GameRow
    game: engine.Game
    png: bytes
    selection: str = ""
    played: str | None = None  # notation of the move just played (or "undo")
    notice: str | None = None  # catalogue key of a note to show with the board
    notice_params: dict[str, Any] = field(default_factory=dict)
    result: storage.FinishedGame | None = None

    @property
    def finished(self) -> bool:
        return not self.row.is_active


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
        super().__init__("confirm.busy", code=row.code)
        self.row = row
        self.stale = stale


def at_stake(row: storage.GameRow) -> bool:
    """Whether ending ``row`` loses anything: moves on the board, or a daily attempt."""
    return row.move_count > 0 or row.daily_date is not None


# Buttons both games share: undo, hint, clear the selection, end a game with no move left.
CONTROLS = {"u": "undo", "i": "hint", "x": "clear", "r": "resign"}


@dataclass(frozen=True)
class Press:
    """What a board button means in the current position."""

    kind: str  # "select", "play", "undo", "hint", "clear"
    value: str = ""


def bakers_press(game: Any, sel: str, act: str) -> Press:
    """A Jeu du Boulanger button: places are columns 1-8 and cells a-d; ``h`` sends home."""
    if act in CONTROLS:
        return Press(CONTROLS[act])
    if act == "h":
        if not sel:
            raise UserFeedback("error.select_first")
        return Press("play", sel + "h")
    if not sel:
        _require_card(game, act)
        return Press("select", act)
    if sel == act:
        return Press("play", game.double_tap_target(sel))
    return Press("play", _bakers_notation(game, sel, act))


def _require_card(game: Any, place: str) -> None:
    pos = game.position
    if place.isdigit():
        empty = not pos.cols[int(place) - 1]
        name = ("column", int(place))
    else:
        empty = pos.cells["abcd".index(place)] == -1
        name = ("cell", place)
    if empty:
        raise UserFeedback(f"error.empty_{name[0]}", place=name[1])


def _bakers_notation(game: Any, src: str, dst: str) -> str:
    """Source then destination; into an empty column, the longest run that may move."""
    pos = game.position
    if src.isdigit() and dst.isdigit() and not pos.cols[int(dst) - 1]:
        count = pos.most_to_empty(int(src) - 1)
        if count > 1:
            return f"{src}{dst}v{count:x}"
    return src + dst


def calculation_press(game: Any, sel: str, act: str) -> Press:
    """A Calculation button: ``f1``-``f4`` foundations, ``w1``-``w4`` waste piles for the
    turned card, ``p1``-``p4`` a waste pile's top (home if one foundation fits, else select)."""
    if act in CONTROLS:
        return Press(CONTROLS[act])
    if act[0] == "f":
        return Press("play", (f"w{sel}" if sel else "s") + act)
    if act[0] == "w":
        return Press("play", "s" + act)
    if act[0] == "p":
        pile = act[1]
        waste = game.waste[int(pile) - 1]
        if not waste:
            raise UserFeedback("error.empty_waste", n=int(pile))
        fits = [f"w{pile}f{i + 1}" for i in range(4) if game.is_legal(f"w{pile}f{i + 1}")]
        if not fits:
            raise UserFeedback("error.waste_no_fit", n=int(pile))
        if len(fits) == 1 or sel == pile:
            return Press("play", fits[0])
        return Press("select", pile)
    raise UserFeedback("error.unknown_button")


class GameService:
    """Start, play, undo, hint, resign and show games; daily codes; rankings."""

    def __init__(
        self,
        store: storage.Store,
        *,
        render: Renderer | None = None,
        solver: Any = None,
        hint_seconds: float = 2.0,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self.store = store
        self._render = render
        self.solver = solver
        self.hint_seconds = hint_seconds
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._games: OrderedDict[int, tuple[int, engine.Game]] = OrderedDict()
        self._background: set[asyncio.Task[Any]] = set()

    # -- loading --------------------------------------------------------------------
    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def _engine_game(self, row: storage.GameRow) -> engine.Game:
        """The engine state of ``row``: cached by version, else replayed from code + moves."""
        cached = self._games.get(row.id)
        if cached is not None and cached[0] == row.version:
            self._games.move_to_end(row.id)
            return cached[1]
        game = engine.replay(row.code, row.moves)
        self._remember(row, game)
        return game

    def _remember(self, row: storage.GameRow, game: engine.Game) -> None:
        self._games[row.id] = (row.version, game)
        self._games.move_to_end(row.id)
        while len(self._games) > CACHE_SIZE:
            self._games.popitem(last=False)

    async def load(self, game_id: int) -> tuple[storage.GameRow, engine.Game]:
        try:
            row = await self.store.get_game(game_id)
        except storage.GameNotFound:
            raise UserFeedback("error.no_such_game") from None
        return row, self._engine_game(row)

    async def owned(self, user_id: int, game_id: int) -> tuple[storage.GameRow, engine.Game]:
        row, game = await self.load(game_id)
        if row.owner_id != user_id:
            raise UserFeedback("error.not_your_game", owner=row.owner_id)
        return row, game

    async def find(self, user_id: int, kind: str | None = None) -> storage.GameRow:
        """The player's active game of ``kind``, or their most recent active game."""
        if kind is not None:
            row = await self.store.active_game(user_id, kind)
            if row is None:
                raise UserFeedback(f"error.no_active_game.{kind}")
            return row
        rows = await self.store.active_games(user_id)
        if not rows:
            raise UserFeedback("error.no_active_game")
        return max(rows, key=lambda r: r.updated_at)

    async def render(self, game: engine.Game, *, highlight: Any = None) -> bytes:
        """The board picture, drawn in a worker thread so the event loop never waits on it."""
        if self._render is None:
            import renderer

            self._render = renderer.render_png
        kwargs: dict[str, Any] = {} if highlight is None else {"highlight": highlight}
        language = current_language()
        if language != "en":
            kwargs["labels"] = picture_labels(language)  # the words drawn on it, in the player's language
        return await asyncio.to_thread(self._render, game, **kwargs)

    async def replay(self, game_id: int) -> bytes:
        """An animated GIF of a won game, one frame per action, for anyone to watch or share."""
        row, _ = await self.load(game_id)
        if row.status != "won":
            raise UserFeedback("error.replay_not_won")
        import renderer

        kwargs: dict[str, Any] = {}
        language = current_language()
        if language != "en":
            kwargs["labels"] = picture_labels(language)
        return await asyncio.to_thread(renderer.render_replay, row.code, row.moves, **kwargs)

    # -- starting -------------------------------------------------------------------
    async def start(
        self,
        user_id: int,
        kind: str,
        *,
        cells: int | None = None,
        code: str | None = None,
        any_deal: bool = False,
        guild_id: int | None = None,
        channel_id: int | None = None,
        daily: bool = False,
        replace: tuple[int, int] | None = None,
    ) -> Started:
        """A new game. The player's active game of this kind is resigned when nothing is at
        stake in it, or when ``replace`` names it as (id, version) -- the player agreed to end
        exactly that state; otherwise ``GameInProgress`` is raised and nothing changes."""
        verified = True
        daily_date = None
        if daily:
            daily_date = dailycodes.utc_today(self.clock())
        elif code:
            parsed = engine.parse_code(code)
            if parsed.kind != kind:
                raise UserFeedback(f"error.code_other_game.{parsed.kind}", code=str(parsed))
            code = str(parsed)
        elif kind == "bakers" and (cells or 4) not in (4, 2, 1):
            raise UserFeedback("error.bad_cells")
        active = await self.store.active_game(user_id, kind)
        self._check_replaceable(active, replace)  # before dealing: a refusal uses up no deal
        if daily_date is not None:
            code = await self.daily_code(kind, daily_date)
        elif not code:
            code, verified = await self._new_deal(kind, cells or 4, any_deal)
        gc = engine.parse_code(code)
        replaced = await self._retire(active, replace) if active is not None else None
        try:
            row = await self.store.create_game(
                kind, code, user_id, guild_id, channel_id, cells=gc.cells, daily_date=daily_date
            )
        except storage.ActiveGameExists:
            # Another start by the same player won the race (a double click on Play).
            other = await self.store.active_game(user_id, kind)
            if other is not None:
                self._check_replaceable(other, replace)
                replaced = await self._retire(other, replace) or replaced
            row = await self.store.create_game(
                kind, code, user_id, guild_id, channel_id, cells=gc.cells, daily_date=daily_date
            )
        game = self._engine_game(row)
        log.info("game %s started: %s for user %s%s", row.id, code, user_id, " (daily)" if daily_date else "")
        png = await self.render(game)
        return Started(Board(row, game, png), replaced, verified)

    async def check_can_start(self, user_id: int, kind: str) -> None:
        """Raise ``GameInProgress`` now if a new game of ``kind`` would need the player's consent."""
        self._check_replaceable(await self.store.active_game(user_id, kind), None)

    @staticmethod
    def _check_replaceable(active: storage.GameRow | None, replace: tuple[int, int] | None) -> None:
        if active is None or not at_stake(active):
            return
        if replace != (active.id, active.version):
            raise GameInProgress(active, stale=replace is not None)

    async def _new_deal(self, kind: str, cells: int, any_deal: bool) -> tuple[str, bool]:
        rng = random.SystemRandom()
        if kind != "bakers":
            return engine.code_for(kind, rng.randrange(MAX_DEAL + 1)), True
        if cells not in (4, 2, 1):
            raise UserFeedback("error.bad_cells")
        if any_deal:
            return engine.code_for(kind, rng.randrange(MAX_DEAL + 1), cells), False
        deal = await self.store.take_winnable_deal(kind, cells)
        self.top_up_soon(cells)
        if deal is None:
            shipped = dailycodes.shipped_winnable(cells)
            if shipped:
                return engine.code_for(kind, rng.choice(shipped), cells), True
            return engine.code_for(kind, rng.randrange(MAX_DEAL + 1), cells), False
        return engine.code_for(kind, deal, cells), True

    def top_up_soon(self, cells: int) -> None:
        """Refill the winnable-deal stock in the background (one refill per cell count at a time)."""
        if self.solver is None or any(t.get_name() == f"topup-{cells}" for t in self._background):
            return
        task = asyncio.create_task(self._top_up(cells), name=f"topup-{cells}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _top_up(self, cells: int) -> None:
        try:
            await self.solver.top_up(self.store, cells)
        except Exception:
            log.exception("topping up the winnable stock (%d cells) failed", cells)

    async def _retire(self, row: storage.GameRow, replace: tuple[int, int] | None) -> storage.GameRow | None:
        """End ``row`` as resigned if it is still exactly as checked; None if it ended meanwhile."""
        async with self._lock(row.id):
            try:
                return await self._finish(row, self._engine_game(row), "resigned")
            except storage.GameNotActive:
                return None
            except storage.VersionConflict as exc:
                raise GameInProgress(exc.current, stale=replace is not None) from None  # it moved: ask

    async def _finish(self, row: storage.GameRow, game: engine.Game, status: str) -> storage.GameRow:
        if status == "resigned" and game.is_lost:
            status = "lost"  # no legal move was left: record it as the loss it is
        done = await self.store.finish_game(
            row.id, row.version, status, score=game.score, move_count=game.move_count
        )
        log.info("game %s ended: %s (score %d)", row.id, status, game.score)
        self._games.pop(row.id, None)
        return done

    async def daily_code(self, kind: str, date: dt.date) -> str:
        stored = await self.store.daily_code(kind, date)
        if stored:
            return stored
        code = await asyncio.to_thread(dailycodes.daily_code, kind, date)  # may run a short search
        return await self.store.set_daily_code(kind, date, code)

    # -- playing --------------------------------------------------------------------
    async def play(
        self, user_id: int, game_id: int, notation: str, *, version: int | None = None, selection: str = ""
    ) -> Board:
        """Play one move (or ``"undo"``); committed before this returns."""
        async with self._lock(game_id):
            row, game = await self._checked(user_id, game_id, version)
            return await self._apply(row, game, notation)

    async def press(
        self, user_id: int, game_id: int, version: int, sel: str, act: str
    ) -> Board | dict[str, Any]:
        """A board button: select a source, play a move, undo, clear, or (returns a dict) hint."""
        async with self._lock(game_id):
            row, game = await self._checked(user_id, game_id, version)
            meaning = (bakers_press if game.kind == "bakers" else calculation_press)(game, sel, act)
            if meaning.kind == "play":
                return await self._apply(row, game, meaning.value)
            if meaning.kind == "undo":
                return await self._apply(row, game, engine.UNDO)
            if meaning.kind == "select":
                mark = meaning.value if game.kind == "bakers" else f"w{meaning.value}"
                png = await self.render(game, highlight=mark)
                return Board(row, game, png, selection=meaning.value)
            if meaning.kind == "clear":
                return Board(row, game, await self.render(game))
            if meaning.kind == "resign":
                done = await self._finish(row, game, "resigned")
                return Board(done, game, await self.render(game), result=await self.store.get_result(done.id))
        return await self.hint(user_id, game_id)

    async def _checked(
        self, user_id: int, game_id: int, version: int | None
    ) -> tuple[storage.GameRow, engine.Game]:
        row, game = await self.owned(user_id, game_id)
        if not row.is_active:
            raise UserFeedback("error.game_over")
        if version is not None and version != row.version:
            raise UserFeedback("error.stale_board")
        return row, game

    async def _apply(self, row: storage.GameRow, game: engine.Game, notation: str) -> Board:
        """Engine first (an illegal move changes nothing), then storage, then the picture."""
        if notation.strip().lower() == engine.UNDO:
            game.undo()
            action = engine.UNDO
        else:
            action = game.play(notation).notation
        finish = "won" if game.is_won else None
        try:
            new = await self.store.append_move(
                row.id, row.version, action, score=game.score, move_count=game.move_count, finish=finish
            )
        except BaseException:
            self._games.pop(row.id, None)  # the cached game moved on without storage
            raise
        self._remember(new, game)
        if not new.is_active:
            self._games.pop(row.id, None)
            log.info("game %s won in %d moves (score %d)", row.id, game.move_count, game.score)
        result = await self.store.get_result(new.id) if not new.is_active else None
        png = await self.render(game)
        notice = None
        if game.is_lost and new.is_active:
            notice = "board.no_moves_left"
        return Board(new, game, png, played=action, notice=notice, result=result)

    async def undo(self, user_id: int, game_id: int, *, version: int | None = None) -> Board:
        return await self.play(user_id, game_id, engine.UNDO, version=version)

    async def resign(self, user_id: int, game_id: int) -> Board:
        async with self._lock(game_id):
            row, game = await self._checked(user_id, game_id, None)
            done = await self._finish(row, game, "resigned")
            png = await self.render(game)
            return Board(done, game, png, result=await self.store.get_result(done.id))

    async def show(self, user_id: int, kind: str | None = None) -> Board:
        """The player's current board (for /board and after a restart)."""
        row = await self.find(user_id, kind)
        async with self._lock(row.id):  # a move must not change the game while it is drawn
            row, game = await self.load(row.id)
            return Board(row, game, await self.render(game))

    async def hint(self, user_id: int, game_id: int) -> dict[str, Any]:
        """The next move to try (solver for Jeu du Boulanger, hint player for Calculation)."""
        row, game = await self.owned(user_id, game_id)
        if not row.is_active:
            raise UserFeedback("error.game_over")
        if self.solver is None:
            raise UserFeedback("error.hint_unavailable")
        advice = await self.solver.hint(game, self.hint_seconds)
        advice["game"] = game
        advice["row"] = row
        return advice

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        await self.store.set_message(game_id, channel_id, message_id)

    # -- autocomplete ---------------------------------------------------------------
    async def active_engine_games(self, user_id: int) -> list[tuple[storage.GameRow, engine.Game]]:
        rows = await self.store.active_games(user_id)
        rows.sort(key=lambda r: r.updated_at, reverse=True)
        return [(row, self._engine_game(row)) for row in rows]

    async def game_for_move(self, user_id: int, notation: str) -> storage.GameRow:
        """Which active game a typed move is for: Calculation notation uses s/w/f, Baker's does not."""
        text = notation.strip().lower()
        if text == engine.UNDO:
            return await self.find(user_id)
        kind = "calculation" if text[:1] in ("s", "w", "f") else "bakers"
        rows = await self.store.active_games(user_id)
        for row in rows:
            if row.kind == kind:
                return row
        if not rows:
            raise UserFeedback("error.no_active_game")
        raise UserFeedback(f"error.no_active_game.{kind}")
