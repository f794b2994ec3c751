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
import functools
import logging
import random
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import engine
import storage
from bot.games import GameFront, front_for, front_of, fronts
from bot.games.base import Advice, Press, Verdict
from bot.languages.language import current_language, picture_labels, user_deck, warns_lost
from bot.play import dailycodes, game_settings
from bot.play.boards import BoardMessages
from bot.play.feedback import UserFeedback
from bot.play.render_pool import RenderPool
from bot.play.solving import Solver
from bot.play.verdicts import VERDICT_NODES, VERDICT_SECONDS, Verdicts

log = logging.getLogger(__name__)

Ending = Literal["won", "lost", "resigned"]
CACHE_SIZE = 512
# A replay must fit Discord's 8 MiB upload with room for the request around it.
REPLAY_MAX_BYTES = 7 * 1024 * 1024 + 512 * 1024
# Longest action log a game may have: a replay draws every action, a load replays them all.
MAX_ACTIONS = 5000
# The challenge codes remembered (each game's few days are all any start asks for).
DAILY_CODES_KEPT = 32
# Storage's ``games.source`` of a race's games.
RACE_SOURCE = "race"
# Games whose board only their player sees: a race's (everyone has the same deal).
PRIVATE_SOURCES = frozenset({RACE_SOURCE})
# The deal's source as a tag in the picture's header (``renderer.TAGS``); a stock deal has none.
PICTURE_TAGS = frozenset({"practice", "daily", "race"})


@dataclass(frozen=True)
class Board:
    """A game as the player should see it now: its row, engine state and picture."""

    row: storage.GameRow
    game: engine.Game[Any]
    png: bytes  # empty only for a race game just dealt (nobody sees it until they ask)
    selection: str = ""
    played: str | None = None  # notation of the move just played (or "undo")
    notice: str | None = None  # catalogue key of a note to show with the board
    notice_params: dict[str, Any] = field(default_factory=dict)
    result: storage.FinishedGame | None = None
    open_daily: dt.date | None = None  # a finished game's owner has not played this day's daily yet
    # The deal can no longer be won: the undos back to a position that can (the board warns).
    lost_undos: int | None = None
    # The search that decides whether this position can still be won, started by
    # ``GameService.settle`` once the board is answered (so it never delays the answer).
    pending: Callable[[], Awaitable[Verdict]] | None = field(default=None, compare=False, repr=False)

    @property
    def finished(self) -> bool:
        return not self.row.is_active

    @property
    def private(self) -> bool:
        """A race's board (``is_private``): shown to its player only, no hint, no code."""
        return is_private(self.row)

    @property
    def front(self) -> GameFront[Any]:
        return front_of(self.game)


@dataclass(frozen=True)
class Started:
    board: Board
    replaced: storage.GameRow | None = None  # the player's previous game of this kind, now resigned
    verified: bool = True  # False when the deal is not known to be winnable


# Hints that told the player something about their game count as help: a move to play, or
# that the position is lost (with the undos that mend it). "Won" and "unknown" tell nothing.
COUNTED_ADVICE = frozenset({"move", "lost"})


@dataclass(frozen=True)
class HintAnswer:
    """A hint for a player's game, with the game it is for (to say the move in words)."""

    advice: Advice
    row: storage.GameRow
    game: engine.Game[Any]


class DamagedGame(UserFeedback):
    """The stored game no longer replays (its moves were edited or damaged): it is marked and
    kept for the operator; the player is offered to end it (``/resign``) and start anew."""

    def __init__(self, row: storage.GameRow) -> None:
        super().__init__("error.damaged_game")
        self.row = row


class DamagedGameEnded(UserFeedback):
    """A damaged game was ended at its player's request (its record kept as it is)."""

    def __init__(self, row: storage.GameRow) -> None:
        super().__init__("game.damaged_ended")
        self.row = row


class StaleBoard(UserFeedback):
    """A press on a board drawn at an earlier version; ``row`` is the game as stored now."""

    def __init__(self, row: storage.GameRow) -> None:
        super().__init__("error.stale_board")
        self.row = row


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


def is_private(row: storage.GameRow) -> bool:
    """A race's game, while everyone has the same deal: its board is shown to its player only
    (others must not copy the moves), it gets no hint (the solver would race for the player)
    and never shows the deal's code (a racer must not paste it into the solver; the race's
    result shows it)."""
    return row.source in PRIVATE_SOURCES


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


class GameService:
    """Start, play, undo, hint, resign and show games; daily codes; rankings."""

    def __init__(
        self,
        store: storage.Store,
        *,
        solver: Solver | None = None,
        hint_seconds: float = 2.0,
        clock: Callable[[], dt.datetime] | None = None,
        pictures: RenderPool | None = None,
    ) -> None:
        self.store = store
        self.pictures = pictures or RenderPool(0)  # the event loop unless a process pool is given
        self.solver = solver
        self.hint_seconds = hint_seconds
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Active games by id: the row last read or written and its engine state.
        self._games: OrderedDict[int, tuple[storage.GameRow, engine.Game[Any]]] = OrderedDict()
        self._background: set[asyncio.Task[Any]] = set()
        self._stopped = False  # stop_background: no refill starts any more
        self._damaged: set[int] = set()  # games found not to replay (marked once: _found_damaged)
        self.boards = BoardMessages()  # which message shows each board (bot.play.boards)
        self.verdicts = Verdicts()  # whether each game can still be won (bot.play.verdicts)
        self.verdict_seconds, self.verdict_nodes = VERDICT_SECONDS, VERDICT_NODES
        # The days' challenge codes read or drawn, by (kind, date): stored once, never changed
        # (``set_daily_code`` keeps the first), so every start need not read them again.
        self._daily_codes: OrderedDict[tuple[str, dt.date], str] = OrderedDict()
        # Searches waiting for a worker wait here, not in the pool's queue, so that one whose
        # position was left meanwhile is never run (``_search``).
        self._verdict_slots = asyncio.Semaphore(solver.workers if solver is not None else 1)
        # Called with every game row a move, undo or ending committed (the race keeper listens).
        self.watchers: list[Callable[[storage.GameRow], Awaitable[None]]] = []

    # -- loading --------------------------------------------------------------------
    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def _engine_game(self, row: storage.GameRow) -> engine.Game[Any]:
        """The engine state of ``row``: cached by version, else replayed from code + moves."""
        cached = self._games.get(row.id)
        if cached is not None and cached[0].version == row.version:
            self._games.move_to_end(row.id)
            return cached[1]
        try:
            game = engine.replay(row.code, row.moves)
        except Exception as exc:  # the stored record no longer replays: say so, once
            self._found_damaged(row, exc)
            raise DamagedGame(row) from None
        if row.is_active:  # a finished game takes no more moves: not worth the memory
            self._remember(row, game)
        return game

    def _found_damaged(self, row: storage.GameRow, exc: Exception) -> None:
        """Log and mark a damaged game the first time this process meets it (not on every action)."""
        if row.id in self._damaged:
            return
        self._damaged.add(row.id)
        reason = f"{type(exc).__name__}: {exc}"
        log.error(
            "game %s (%s, owner %s) no longer replays from its stored moves (%s): marked damaged, kept "
            "for the operator; its player is offered to end it",
            row.id,
            row.code,
            row.owner_id,
            reason,
        )
        task = asyncio.get_running_loop().create_task(self._mark_damaged(row.id, reason))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _mark_damaged(self, game_id: int, reason: str) -> None:
        try:
            await self.store.mark_damaged(game_id, reason)
        except storage.StorageError as exc:
            log.warning("could not mark game %s damaged: %s", game_id, exc)

    async def _end_damaged(self, row: storage.GameRow) -> storage.GameRow:
        """End a damaged game as resigned with the score and move count it has stored."""
        done = await self.store.finish_game(
            row.id, row.version, "resigned", score=row.score, move_count=row.move_count
        )
        log.info("damaged game %s ended by its player (its moves kept as they are)", row.id)
        self._games.pop(row.id, None)
        await self._changed(done)
        return done

    def _remember(self, row: storage.GameRow, game: engine.Game[Any]) -> None:
        self._games[row.id] = (row, game)
        self._games.move_to_end(row.id)
        while len(self._games) > CACHE_SIZE:
            self._games.popitem(last=False)

    async def load(self, game_id: int) -> tuple[storage.GameRow, engine.Game[Any]]:
        try:
            row = await self.store.get_game(game_id)
        except storage.GameNotFound:
            raise UserFeedback("error.no_such_game") from None
        return row, self._engine_game(row)

    async def stored(self, game_id: int) -> storage.GameRow:
        """The game's row as stored, without replaying it (a replay, a finished game's page)."""
        try:
            return await self.store.get_game(game_id)
        except storage.GameNotFound:
            raise UserFeedback("error.no_such_game") from None

    async def owned(self, user_id: int, game_id: int) -> tuple[storage.GameRow, engine.Game[Any]]:
        try:
            row = await self.store.get_game(game_id)
        except storage.GameNotFound:
            raise UserFeedback("error.no_such_game") from None
        if row.owner_id != user_id:  # before replaying it: a stranger learns nothing more
            raise UserFeedback("error.not_your_game", owner=f"<@{row.owner_id}>")
        return row, self._engine_game(row)

    async def find(self, user_id: int, kind: str | None = None) -> storage.GameRow:
        """The player's active game of ``kind``, or their most recent active game."""
        if kind is not None:
            front = front_for(kind)
            row = await self.store.active_game(user_id, front.kind)
            if row is None:
                raise UserFeedback(front.key("error.no_active_game"))
            return row
        rows = await self.store.active_games(user_id)
        if not rows:
            raise UserFeedback("error.no_active_game")
        return max(rows, key=lambda r: r.updated_at)

    async def render(self, row: storage.GameRow, game: engine.Game[Any], *, selection: str = "") -> bytes:
        """The board picture of ``row``'s ``game``, drawn in a worker thread or process so the
        event loop never waits on it; its header tells the deal's source and hides a race's code.
        Its deck is the owner's choice (read from the store's cache); its words are in the
        current language (``bot.languages.language``, the one context variable)."""
        front = front_of(game)
        highlight = front.highlight(selection) if selection else None
        language = current_language()
        labels = picture_labels(language, front.kind) if language != "en" else None  # words drawn
        deck = await user_deck(self.store, row.owner_id)  # the owner's choice, whoever asked for it
        tag = row.source if row.source in PICTURE_TAGS else None
        return await self.pictures.render(
            front, game, highlight=highlight, labels=labels, deck=deck, tag=tag, hide_code=is_private(row)
        )

    async def replay(self, game_id: int) -> bytes:
        """An animated GIF of a won game, one frame per action, for anyone to watch or share."""
        row = await self.stored(game_id)  # not replayed here: the renderer replays it, nothing is kept
        front = front_for(row.kind)
        if row.status != "won" or not front.has_replay:
            raise UserFeedback("error.replay_not_won")
        language = current_language()
        labels = picture_labels(language, front.kind) if language != "en" else None
        return await self.pictures.render_replay(
            front, row.code, row.moves, labels=labels, max_bytes=REPLAY_MAX_BYTES
        )

    # -- starting -------------------------------------------------------------------
    async def start(
        self,
        user_id: int,
        kind: str,
        *,
        cells: int | None = None,
        code: engine.GameCode | None = None,
        any_deal: bool = False,
        guild_id: int | None = None,
        channel_id: int | None = None,
        daily: bool = False,
        replace: tuple[int, int] | None = None,
        race: bool = False,
    ) -> Started:
        """A new game. The player's active game of this kind is resigned when nothing is at
        stake in it, or when ``replace`` names it as (id, version) -- the player agreed to end
        exactly that state; otherwise ``GameInProgress`` is raised and nothing changes.

        ``race``: a race's game of ``code`` (``bot.play.races``); the player agreed, when joining,
        that it replaces whatever game of this kind they have then."""
        front = front_for(kind)
        verified = True
        daily_date = None
        typed = code is not None and not daily and not race
        if daily:
            daily_date = dailycodes.utc_today(self.clock())
        elif race:
            assert code is not None, "a race game is a deal chosen for the race"
        elif code is not None:
            check_code_kind(front, code)
            await self._check_not_rehearsal(user_id, front, code)
        else:
            cells = front.check_cells(cells)
        active = await self.store.active_game(user_id, kind)
        if race and active is not None:
            replace = (active.id, active.version)
        self._check_replaceable(active, replace)  # before dealing: a refusal uses up no deal
        if daily_date is not None:
            code = engine.parse_code(await self.daily_code(kind, daily_date))
        elif code is None:
            code, verified = await self._new_deal(front, cells, any_deal)
        replaced = await self._retire(active, replace) if active is not None else None
        text = str(code)
        # Where the deal came from decides which boards it ranks on (README, Ranking rules).
        source = deal_source(race=race, daily=daily_date is not None, practice=typed or any_deal)

        async def create() -> storage.GameRow:
            return await self.store.create_game(
                kind,
                text,
                user_id,
                guild_id,
                channel_id,
                variant=front.variant(code.cells),
                daily_date=daily_date,
                source=source,
            )

        try:
            row = await create()
        except storage.ActiveGameExists:
            # Another start by the same player won the race (a double click on Play).
            other = await self.store.active_game(user_id, kind)
            if other is not None:
                if race:
                    replace = (other.id, other.version)
                self._check_replaceable(other, replace)
                replaced = await self._retire(other, replace) or replaced
            row = await create()
        if not race:  # a race game's board is drawn when its player asks for it (My board)
            self.boards.expect(row.id)  # its board is posted next: a /move meanwhile waits for it
        game = engine.new_game(code)  # from the typed code: no second parse of its text
        self._remember(row, game)
        if not race:
            self._seed_verdict(row, game)
        log.info("game %s started: %s for user %s%s", row.id, text, user_id, " (daily)" if daily_date else "")
        png = b"" if race else await self.render(row, game)
        return Started(Board(row, game, png), replaced, verified)

    def _seed_verdict(self, row: storage.GameRow, game: engine.Game[Any]) -> None:
        """A deal with a known win (a shipped stock deal) starts known to be winnable along it:
        the first press needs no whole new search, only, off that line, one back to it."""
        front = front_of(game)
        if self.solver is None or front.verdict_worker is None:
            return
        line = front.known_line(game)
        if line is not None:
            self.verdicts.seed(row.id, row.version, front.mark(game), line)

    async def _check_not_rehearsal(self, user_id: int, front: GameFront[Any], code: engine.GameCode) -> None:
        """Today's daily deal, typed as a code, before the player's counted attempt is finished
        would let them practise the very cards they are ranked on: refused until then."""
        if not await self.is_todays_daily(front, code):
            return
        today = dailycodes.utc_today(self.clock())
        stats = await self.store.player_stats(user_id, front.kind, today=today)
        if stats.last_daily != today:
            raise UserFeedback("error.daily_rehearsal")

    async def is_todays_daily(self, front: GameFront[Any], code: engine.GameCode) -> bool:
        """Whether ``code`` is the deal everyone is ranked on today (a race may not use it)."""
        if not front.has_daily:
            return False
        return str(code) == await self.daily_code(front.kind, dailycodes.utc_today(self.clock()))

    async def check_can_start(self, user_id: int, kind: str) -> None:
        """Raise ``GameInProgress`` now if a new game of ``kind`` would need the player's consent."""
        self._check_replaceable(await self.store.active_game(user_id, kind), None)

    @staticmethod
    def _check_replaceable(active: storage.GameRow | None, replace: tuple[int, int] | None) -> None:
        if active is None or not at_stake(active):
            return
        if replace != (active.id, active.version):
            raise GameInProgress(active, stale=replace is not None)

    async def race_deal(self, kind: str, cells: int | None) -> engine.GameCode:
        """A new deal for a race: from the winnable stock where the game has one (every player
        gets the same cards, so it is taken once, for everyone)."""
        front = front_for(kind)
        code, _ = await self._new_deal(front, front.check_cells(cells), False)
        return code

    async def _new_deal(
        self, front: GameFront[Any], cells: int | None, any_deal: bool
    ) -> tuple[engine.GameCode, bool]:
        """A stock deal (proven winnable) where the game has a stock, else any shuffle."""
        rng = random.SystemRandom()
        if cells not in front.stock_cells:
            return front.code(front.random_deal(rng), cells), True
        if any_deal:
            return front.code(front.random_deal(rng), cells), False
        assert cells is not None
        deal = await self.store.take_winnable_deal(front.kind, front.variant(cells))
        self.top_up_soon(front, cells)
        if deal is not None:
            return front.code(deal, cells), True
        shipped = front.shipped_deals(cells)
        if shipped:
            return front.code(rng.choice(shipped), cells), True
        return front.code(front.random_deal(rng), cells), False

    def top_up_soon(self, front: GameFront[Any], cells: int) -> None:
        """Refill the winnable-deal stock in the background (one refill per stock at a time)."""
        name = f"topup-{front.kind}-{cells}"
        if self.solver is None or self._stopped or any(t.get_name() == name for t in self._background):
            return
        task = asyncio.create_task(self._top_up(self.solver, front, cells), name=name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def stop_background(self) -> None:
        """The bot is stopping: cancel the refills under way and start no other."""
        self._stopped = True
        for task in self._background:
            task.cancel()

    def top_up_all(self) -> None:
        """Refill every game's stocks (at start-up)."""
        for front in fronts():
            for cells in front.stock_cells:
                self.top_up_soon(front, cells)

    async def _top_up(self, solver: Solver, front: GameFront[Any], cells: int) -> None:
        try:
            await solver.top_up(self.store, front, cells)
        except Exception:
            log.exception("topping up the winnable stock (%s, %d cells) failed", front.kind, cells)

    async def _retire(self, row: storage.GameRow, replace: tuple[int, int] | None) -> storage.GameRow | None:
        """End ``row`` as resigned if it is still exactly as checked; None if it ended meanwhile."""
        async with self._lock(row.id):
            try:
                try:
                    game = self._engine_game(row)
                except DamagedGame:
                    return await self._end_damaged(row)
                return await self._finish(row, game, "resigned")
            except storage.GameNotActive:
                return None
            except storage.VersionConflict as exc:
                raise GameInProgress(exc.current, stale=replace is not None) from None  # it moved: ask

    async def _finish(self, row: storage.GameRow, game: engine.Game[Any], status: Ending) -> storage.GameRow:
        if status == "resigned" and game.is_lost:
            status = "lost"  # no legal move was left: record it as the loss it is
        done = await self.store.finish_game(
            row.id, row.version, status, score=game.score, move_count=game.move_count, home=game.cards_home
        )
        log.info("game %s ended: %s (score %d)", row.id, status, game.score)
        self._games.pop(row.id, None)
        self.verdicts.forget(row.id)
        await self._changed(done)
        return done

    async def _changed(self, row: storage.GameRow) -> None:
        """Tell the watchers; one failing never undoes or hides the committed change."""
        for watcher in self.watchers:
            try:
                await watcher(row)
            except Exception:
                log.exception("a watcher of game %s failed", row.id)

    async def daily_code(self, kind: str, date: dt.date) -> str:
        known = self._daily_codes.get((kind, date))
        if known is not None:
            return known
        stored = await self.store.daily_code(kind, date)
        if not stored:
            # A fresh draw, not the date: nobody can work out a coming day's deal and practise it.
            code = await asyncio.to_thread(front_for(kind).daily_code, dailycodes.draw())
            stored = await self.store.set_daily_code(kind, date, str(code))
        self._daily_codes[(kind, date)] = stored
        while len(self._daily_codes) > DAILY_CODES_KEPT:
            self._daily_codes.popitem(last=False)
        return stored

    # -- playing --------------------------------------------------------------------
    async def play(self, user_id: int, game_id: int, notation: str, *, version: int | None = None) -> Board:
        """Play one move (or ``"undo"``); committed before this returns."""
        async with self._lock(game_id):
            if version is not None:
                quick = await self._apply_cached(user_id, game_id, version, notation)
                if quick is not None:
                    return quick
            row, game = await self._checked(user_id, game_id, version)
            try:
                return await self._apply(row, game, notation)
            except storage.VersionConflict as exc:  # another process moved it after the load
                raise StaleBoard(exc.current) from None

    async def _apply_cached(self, user_id: int, game_id: int, version: int, notation: str) -> Board | None:
        """A move pressed on the board this process drew last, played without reading the
        game first (issue 26: one round trip to the database, the guarded write, whose
        version check refuses it if the game moved elsewhere: ``StaleBoard``). None when the
        cache cannot answer (not held at that version, not the owner's, finished, or the
        move is refused there): the caller reads the game and answers as usual."""
        cached = self._games.get(game_id)
        if cached is None:
            return None
        row, game = cached
        if row.version != version or row.owner_id != user_id or not row.is_active:
            return None
        try:
            return await self._apply(row, game, notation)
        except engine.IllegalMove:
            return None  # nothing changed: the usual path says why, from the stored game
        except storage.VersionConflict as exc:  # another process moved it: an out-of-date board
            raise StaleBoard(exc.current) from None
        except storage.GameNotActive:
            raise UserFeedback("error.game_over") from None

    def _cached_meaning(self, game_id: int, sel: str, act: str) -> Press | None:
        """What a press means on the cached game, or None (not cached, or refused there: the
        usual path checks the owner first, then says why)."""
        cached = self._games.get(game_id)
        if cached is None:
            return None
        try:
            return front_of(cached[1]).press(cached[1], sel, act)
        except (UserFeedback, engine.EngineError):
            return None

    async def propose(
        self,
        user_id: int,
        game_id: int,
        version: int,
        choose: Callable[[engine.Game[Any]], str],
        *,
        draw: bool = True,
    ) -> Board:
        """A move a page proposes (the Activity's drop, tap or Home): ``choose`` turns the
        position into the notation to play (or ``"undo"``), or raises ``UserFeedback`` /
        ``IllegalMove``. Under the game's lock, after the owner and version checks, so it is
        chosen on the very position it is played on; ``draw=False``: no picture (``png`` empty:
        the page draws the cards itself)."""
        async with self._lock(game_id):
            row, game = await self._checked(user_id, game_id, version)
            return await self._apply(row, game, choose(game), draw=draw)

    async def press(self, user_id: int, game_id: int, version: int, sel: str, act: str) -> Board | HintAnswer:
        """A board button: select a source, play a move, undo, clear, end, or ask for a hint.

        One load of the game answers the owner check, the version check and the press; a
        move or an undo on the board this process drew last needs no load at all."""
        async with self._lock(game_id):
            quick = self._cached_meaning(game_id, sel, act)
            if quick is not None and quick.action in ("play", "undo"):
                notation = quick.value if quick.action == "play" else engine.UNDO
                played = await self._apply_cached(user_id, game_id, version, notation)
                if played is not None:
                    return played
            row, game = await self._checked(user_id, game_id, version)
            meaning = front_of(game).press(game, sel, act)
            if meaning.action == "play":
                return await self._apply(row, game, meaning.value)
            if meaning.action == "undo":
                return await self._apply(row, game, engine.UNDO)
            if meaning.action == "select":
                png = await self.render(row, game, selection=meaning.value)
                return Board(row, game, png, selection=meaning.value)
            if meaning.action == "clear":
                return Board(row, game, await self.render(row, game))
            if meaning.action == "resign":
                if not game.is_lost:  # End is offered only at a dead end; giving up is /resign
                    raise UserFeedback("error.moves_left")
                done = await self._finish(row, game, "resigned")
                return await self._board(done, game, await self.render(done, game))
        return await self._advise(row, game)

    async def _checked(
        self, user_id: int, game_id: int, version: int | None
    ) -> tuple[storage.GameRow, engine.Game[Any]]:
        row, game = await self.owned(user_id, game_id)
        if not row.is_active:
            raise UserFeedback("error.game_over")
        if version is not None and version != row.version:
            raise StaleBoard(row)
        return row, game

    async def _apply(
        self, row: storage.GameRow, game: engine.Game[Any], notation: str, *, draw: bool = True
    ) -> Board:
        """Engine first (an illegal move changes nothing), then storage, then the picture."""
        if len(row.moves) >= MAX_ACTIONS:
            raise UserFeedback("error.too_many_actions", limit=MAX_ACTIONS)
        front = front_of(game)
        before = front.mark(game)
        undo = notation.strip().lower() == engine.UNDO
        if undo:
            game.undo()
        else:
            await game_settings.apply(self.store, row.owner_id, front, game)  # e.g. auto-play off
            game.play(notation)
        action = game.moves[-1]  # the canonical entry: a move, a batch (6h,ah) or "undo"
        finish: Literal["won"] | None = "won" if game.is_won else None
        try:
            new = await self.store.append_move(
                row.id,
                row.version,
                action,
                score=game.score,
                move_count=game.move_count,
                finish=finish,
                home=game.cards_home,
            )
        except BaseException:
            self._games.pop(row.id, None)  # the cached game moved on without storage
            raise
        self._remember(new, game)
        await self._changed(new)
        if not new.is_active:
            self._games.pop(row.id, None)
            log.info("game %s won in %d moves (score %d)", row.id, game.move_count, game.score)
        elif game.is_lost and front_of(game).dead_end_is_final:
            new = await self._finish(new, game, "lost")  # no move can ever be left: recorded now
        notice = "board.no_moves_left" if game.is_lost and new.is_active else None
        judged = await self._judge(row, new, game, before, undo=undo)
        pending = judged if callable(judged) else None  # a search: ``settle`` runs it after the answer
        undos = self._lost_undos(game, judged) if isinstance(judged, Verdict) else None
        if undos is not None:
            new = await self._record_warning(new)
        png = await self.render(new, game) if draw else b""
        board = await self._board(new, game, png, played=action, notice=notice, lost_undos=undos)
        return replace(board, pending=pending) if pending is not None else board

    # -- can it still be won? (issue 28) -----------------------------------------------
    async def _judge(
        self,
        row: storage.GameRow,
        new: storage.GameRow,
        game: engine.Game[Any],
        before: Any,
        *,
        undo: bool,
    ) -> Verdict | Callable[[], Awaitable[Verdict]] | None:
        """What is known of whether ``new``'s position can still be won: at once when it
        follows from the last known verdict (``bot.play.verdicts``), else the search to run in
        the hint pool (``settle`` starts it once the board is answered: on a loaded machine a
        search beside the picture slowed the answer); None when the board does not warn (no
        worker, a race, a finished game, the player's setting off)."""
        front = front_of(game)
        if before is None or self.solver is None or front.verdict_worker is None:
            return None
        if not new.is_active or is_private(new) or not await warns_lost(self.store, new.owner_id):
            return None
        step = self.verdicts.step(row.id, row.version, new.version, before, front.mark(game), undo=undo)
        if step.verdict is not None:
            return step.verdict
        return functools.partial(self._search, front, new, game.code, game.moves)

    async def _search(
        self, front: GameFront[Any], row: storage.GameRow, code: str, moves: tuple[str, ...]
    ) -> Verdict:
        """The search for ``row``'s position, once a worker is free: by then the game may have
        moved on (nothing to search: its newer position decides) or a search that finished
        meanwhile may have decided it, or told of a winnable position nearer to it."""
        assert self.solver is not None
        async with self._verdict_slots:
            plan = self.verdicts.plan(row.id, row.version)
            if plan is None:
                return Verdict("unknown")
            if plan.verdict is not None:
                return plan.verdict
            back = plan.back
            verdict = await self.solver.verdict(
                front,
                code,
                moves,
                self.verdict_seconds,
                self.verdict_nodes,
                back=back,
                known=plan.known,
                within=plan.within,
            )
        if verdict.status == "lost" and not back:
            verdict = Verdict("lost", undos=1, nodes=verdict.nodes)  # the position before could be won
        self.verdicts.learned(row.id, row.version, verdict)
        return verdict

    @staticmethod
    def _lost_undos(game: engine.Game[Any], verdict: Verdict) -> int | None:
        """The undos the warning names, when the position is proven lost and they are known
        and within reach (the undo history is bounded); else None: say nothing."""
        if verdict.status != "lost" or verdict.undos is None or game.is_won:
            return None
        return verdict.undos if 1 <= verdict.undos <= game.undo_depth else None

    async def _record_warning(self, row: storage.GameRow) -> storage.GameRow:
        """The record says the warning was seen (it is no hint: the game stays unassisted)."""
        if row.warned:
            return row
        try:
            return await self.store.record_warning(row.id)
        except storage.GameNotActive:
            return row

    async def settle(self, board: Board) -> Board | None:
        """Run the search ``board``'s move needs (call it once the board is answered), and give
        ``board`` again if it must now warn that the deal can no longer be won; None when there
        is nothing to add (winnable, out of budget, or the game has moved on since: its newer
        board decides, and a search for a position already left is not run at all)."""
        if board.pending is None or not self.verdicts.current(board.row.id, board.row.version):
            return None
        try:
            verdict = await board.pending()
        except Exception:
            log.exception("deciding whether game %s can still be won failed", board.row.id)
            return None
        undos = self._lost_undos(board.game, verdict)
        if undos is None or not self.verdicts.current(board.row.id, board.row.version):
            return None
        async with self._lock(board.row.id):
            try:
                row = await self.store.get_game(board.row.id)
            except storage.GameNotFound:
                return None
            if row.version != board.row.version or not row.is_active:
                return None
            row = await self._record_warning(row)
        return replace(board, row=row, lost_undos=undos, pending=None)

    async def _board(self, row: storage.GameRow, game: engine.Game[Any], png: bytes, **extra: Any) -> Board:
        """A board; a finished one with its result and whether today's daily is still open."""
        if row.is_active:
            return Board(row, game, png, **extra)
        result = await self.store.get_result(row.id)
        daily = None
        front = front_of(game)
        if front.has_daily:
            today = dailycodes.utc_today(self.clock())
            stats = await self.store.player_stats(row.owner_id, row.kind, today=today)
            daily = today if stats.last_daily != today and row.daily_date != today else None
        return Board(row, game, png, result=result, open_daily=daily, **extra)

    async def undo(self, user_id: int, game_id: int, *, version: int | None = None) -> Board:
        return await self.play(user_id, game_id, engine.UNDO, version=version)

    async def resign(self, user_id: int, game_id: int) -> Board:
        """End the game (``DamagedGameEnded`` for one that no longer replays: no board to draw)."""
        async with self._lock(game_id):
            try:
                row, game = await self._checked(user_id, game_id, None)
            except DamagedGame as damaged:
                if damaged.row.owner_id != user_id:
                    raise UserFeedback("error.not_your_game", owner=f"<@{damaged.row.owner_id}>") from None
                if not damaged.row.is_active:
                    raise UserFeedback("error.game_over") from None
                raise DamagedGameEnded(await self._end_damaged(damaged.row)) from None
            done = await self._finish(row, game, "resigned")
            return await self._board(done, game, await self.render(done, game))

    async def end_game(self, game_id: int) -> storage.GameRow | None:
        """End a game as resigned, whoever owns it (a race's end); None if it was already over."""
        async with self._lock(game_id):
            row, game = await self.load(game_id)
            if not row.is_active:
                return None
            return await self._finish(row, game, "resigned")

    async def board_of(self, user_id: int, game_id: int) -> Board:
        """The player's board of one game, active or finished (a race's "My board")."""
        async with self._lock(game_id):
            row, game = await self.owned(user_id, game_id)
            return await self._board(row, game, await self.render(row, game))

    async def show(self, user_id: int, kind: str | None = None) -> Board:
        """The player's current board (for /board and after a restart)."""
        row = await self.find(user_id, kind)
        async with self._lock(row.id):  # a move must not change the game while it is drawn
            row, game = await self.load(row.id)
            return Board(row, game, await self.render(row, game))

    async def hint(self, user_id: int, game_id: int) -> HintAnswer:
        """The next move to try, from the game's own hint worker (solver or hint player)."""
        row, game = await self.owned(user_id, game_id)
        if not row.is_active:
            raise UserFeedback("error.game_over")
        return await self._advise(row, game)

    async def _advise(self, row: storage.GameRow, game: engine.Game[Any]) -> HintAnswer:
        if is_private(row):  # a race (a stale Hint button): the solver would race for the player
            raise UserFeedback("race.error.no_hints")
        if self.solver is None:
            raise UserFeedback("error.hint_unavailable")
        front = front_of(game)
        await game_settings.apply(self.store, row.owner_id, front, game)  # a move the player can make next
        advice = await self.solver.hint(front, game, self.hint_seconds)
        if advice.status in COUNTED_ADVICE:
            # Help on the record (it ranks an assisted game below an unassisted one).
            try:
                row = await self.store.record_hint(row.id)
            except storage.GameNotActive:
                raise UserFeedback("error.game_over") from None
        return HintAnswer(advice, row, game)

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        await self.store.set_message(game_id, channel_id, message_id)
        self.boards.posted(game_id, channel_id, message_id)

    # -- autocomplete ---------------------------------------------------------------
    async def active_engine_games(self, user_id: int) -> list[tuple[storage.GameRow, engine.Game[Any]]]:
        rows = await self.store.active_games(user_id)
        rows.sort(key=lambda r: r.updated_at, reverse=True)
        return [(row, self._engine_game(row)) for row in rows]

    async def game_for_move(self, user_id: int, notation: str) -> storage.GameRow:
        """Which active game a typed move is for: the one whose notation it looks like."""
        if notation.strip().lower() == engine.UNDO:
            return await self.find(user_id)
        rows = await self.store.active_games(user_id)
        rows.sort(key=lambda r: r.updated_at, reverse=True)
        for row in rows:
            if front_for(row.kind).claims_notation(notation):
                return row
        if not rows:
            raise UserFeedback("error.no_active_game")
        claimant = next((f for f in fronts() if f.claims_notation(notation)), None)
        if claimant is None:
            return rows[0]  # not any game's notation: let that game's engine say why
        raise UserFeedback(claimant.key("error.no_active_game"))


def check_code_kind(front: GameFront[Any], code: engine.GameCode, *, race: bool = False) -> None:
    """A typed code must be a deal of the game being started (or raced): the answer names the
    command that plays (or races) the code's own game."""
    if code.kind != front.kind:
        other = front_for(code.kind)
        key = other.key("race.error.code_other_game") if race else other.key("error.code_other_game")
        raise UserFeedback(key, code=str(code))
