"""The Activity's web server: its page, the OAuth2 code exchange and the game API (aiohttp).

It runs in the bot's process (``BOULANGER_ACTIVITY``; docs/ARCHITECTURE.md says why) on the
bot's own ``GameService``, so an Activity move and a chat press on the same game wait for the
same lock, and the chat board of a game moved here is edited by the bot (``board_changed``,
handed in: nothing here imports discord).

Every ``/api`` call but ``/api/config`` and ``/api/token`` carries the player's Discord access
token (``Authorization: Bearer …``), checked by ``DiscordAuth``. The page only proposes: a
drop, a tap or Home is turned into notation by the game's front on the position it is played
on, and the engine decides. Every refusal is JSON ``{"error": words, "why": key, "view": …}``
with the game as it is (nothing changed):

* 400 a request that is not what the page sends; 401 no token, or one Discord does not know;
* 403 another player's game; 404 no such game; 409 a stale version (the game moved on: the
  view is the current one); 410 the game is over; 422 the engine's refusal, in words;
* 429 a quota used up (the chat's own quotas: hints, starts, and a move quota);
* 503 Discord did not answer the check.

Several players in one instance (``/api/room*``, ``bot.activity.rooms``): who is at the table
and their progress, and a race on one deal for all of them, the chat's races; 403 also for an
instance Discord does not know or does not list the player in.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

import engine
import storage
from bot.activity.auth import DiscordAuth, DiscordUnavailable, NotSignedIn, Player
from bot.activity.moves import page_moves
from bot.activity.rooms import Instance, InstanceCheck, NotAtTable, Room, Rooms
from bot.activity.seats import Seats
from bot.games import front_of, fronts
from bot.languages.i18n import Translator, template
from bot.languages.language import (
    client_language,
    use_language,
    user_choice,
    user_deck,
)
from bot.play.board_text import board_content
from bot.play.describe import hint_text
from bot.play.error_words import error_text
from bot.play.feedback import UserFeedback
from bot.play.races import DEFAULT_START_IN, RaceJoinAsk, RaceKeeper
from bot.play.service import Board, GameInProgress, GameService, StaleBoard, StartRequest, is_private

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
# The quotas drawn from (``bot.adapter.cooldowns``): the chat's, and the room's polls.
MOVE, HINT, START, RACE, ROOM = "move", "hint", "start", "race", "room"
MAX_BODY = 4096  # bytes of a request body: a move is a few dozen
ACTS = frozenset({"drop", "tap", "undo", "home"})
_PLACE = re.compile(r"^[a-z0-9]{1,3}$")
# The words of the page itself, by catalogue key (the rest comes with each view).
PAGE_WORDS = {
    "undo": "button.undo",
    "hint": "button.hint",
    "new": "button.new_deal",
    "daily": "button.play_daily",
    "code": "activity.code",
    "confirm": "button.confirm_start",
    "keep": "button.keep_playing",
    "loading": "activity.loading",
    "help": "activity.help",
    "choose": "activity.choose",
    "room": "activity.room",
    "race_new": "activity.race_new",
    "race_join": "activity.race_join",
    "race_go": "activity.race_go",
    "race_lobby": "activity.race_lobby",
    "race_running": "activity.race_running",
    "race_over": "activity.race_over",
    "race_cancelled": "activity.race_cancelled",
    "touch_help": "activity.touch_help",
    "moved_on": "activity.moved_on",
    "no_answer": "activity.no_answer",
}
# A refusal of a move in the page's own words, where the chat's would name a command.
PAGE_REFUSALS = {
    "error.stale_board": "activity.moved_on",
    "error.game_over": "activity.game_over",
    "error.unknown_button": "activity.not_a_move",
}


class Quotas(Protocol):
    """The players' quotas (``bot.adapter.cooldowns.Quotas``): ``hit`` raises ``UserFeedback``."""

    def hit(self, quota: str, user_id: int) -> None: ...


#: Told of every board an Activity call changed (the bot edits that game's chat board).
BoardChanged = Callable[[Board], None]


class BadRequest(Exception):
    """A request the page never sends (HTTP 400)."""


class ActivityServer:
    def __init__(
        self,
        service: GameService,
        auth: DiscordAuth,
        *,
        quotas: Quotas | None = None,
        board_changed: BoardChanged | None = None,
        races: RaceKeeper | None = None,
        static: Path = STATIC,
    ) -> None:
        self.service = service
        self.auth = auth
        self.seats = Seats()  # the game each player's page opens on, per channel
        self.rooms = Rooms(races, seats=self.seats) if races is not None else None  # an instance's players
        self.instances = InstanceCheck(auth.instance)
        self.quotas = quotas
        self.board_changed = board_changed
        self.static = static
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- serving ------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._errors])
        app.router.add_get("/", self.index)
        app.router.add_static("/static/", self.static, append_version=False)
        app.router.add_get("/api/config", self.config)
        app.router.add_post("/api/token", self.token)
        app.router.add_get("/api/state", self.state)
        app.router.add_post("/api/start", self.start_game)
        app.router.add_post("/api/play", self.play)
        app.router.add_post("/api/hint", self.hint)
        app.router.add_get("/api/room", self.room)
        app.router.add_post("/api/room/race", self.room_race)
        app.router.add_post("/api/room/join", self.room_join)
        app.router.add_post("/api/room/start", self.room_start)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])  # the port given, or the one chosen for 0
        log.info("the Activity on http://%s:%d/", host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.auth.close()

    @web.middleware
    async def _errors(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        try:
            return await handler(request)
        except BadRequest as exc:
            return refusal(400, str(exc), "bad_request")
        except NotSignedIn as exc:
            return refusal(401, str(exc), "not_signed_in")
        except NotAtTable as exc:
            return refusal(403, str(exc), "not_at_table")
        except DiscordUnavailable as exc:
            log.warning("the Activity could not check a token with Discord: %s", exc)
            return refusal(503, "Discord did not answer: try again in a moment.", "discord_unavailable")
        except web.HTTPException:
            raise
        except Exception:
            log.exception("the Activity failed on %s %s", request.method, request.path)
            return refusal(500, "Something went wrong; nothing was played.", "bug")

    # -- the page and signing in -----------------------------------------------------------
    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(self.static / "index.html", headers={"Cache-Control": "no-cache"})

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": str(self.auth.client_id)})

    async def token(self, request: web.Request) -> web.Response:
        body = await read_json(request)
        code = body.get("code")
        if not isinstance(code, str):
            raise BadRequest("the authorization code is missing")
        return web.json_response(await self.auth.exchange(code))

    async def _player(self, request: web.Request) -> tuple[Player, Translator]:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme != "Bearer" or not token:
            raise NotSignedIn("sign in first: no access token")
        player = await self.auth.player(token.strip())
        store = self.service.store
        language = await user_choice(store, player.id) or client_language(player.locale) or "en"
        use_language(language)  # the pictures and words of this request (a task of its own)
        return player, Translator(language)

    # -- the game API -------------------------------------------------------------------
    async def state(self, request: web.Request) -> web.Response:
        """The player's game: of ``kind`` when the page names one, else the one they sit at in
        the ``instance``'s channel (``Seats``: a board's "Play on the cards", or the page shown
        there before a reload), else their latest; and the games offered."""
        player, tr = await self._player(request)
        kind = request.query.get("kind") or None
        offered = {f.kind for f in fronts() if f.in_activity}
        if kind is not None and kind not in offered:
            raise BadRequest("no such game here")
        instance = await self._instance(player, request.query.get("instance"))
        board = None
        if kind is None and instance is not None:
            board = await self._seated(player, instance.channel_id, offered)
        if board is None:
            try:
                row = await self.service.find(player.id, kind)
                if kind is not None or row.kind in offered:
                    row, game = await self.service.load(row.id)
                    board = Board(row, game, b"")
            except UserFeedback:
                board = None  # no active game of that kind: the page offers to start one
        if board is not None and instance is not None:
            self.seats.seat(player.id, instance.channel_id, board.row.id)
        view = None if board is None else await self.view(tr, board)
        games = [
            {"kind": f.kind, "title": f.title(tr), "daily": f.has_daily} for f in fronts() if f.in_activity
        ]
        words = {name: template(tr.locale, key) for name, key in PAGE_WORDS.items()}  # the page fills {…}
        return web.json_response(
            {
                "player": {"id": str(player.id), "name": player.name},
                "games": games,
                "words": words,
                "view": view,
                "language": tr.locale,
            }
        )

    async def _instance(self, player: Player, instance_id: Any) -> Instance | None:
        """Discord's word on the instance the page names, if the player is in it; None when it
        names none, or one Discord does not list them in (the page then plays without a
        table). An instance not asked about lately draws from the room quota, as a table's
        poll does, so forged ids never become a flood of questions to Discord."""
        if not isinstance(instance_id, str) or not instance_id:
            return None
        found = self.instances.known(instance_id)
        try:
            if found is None:
                if self.quotas is not None:
                    self.quotas.hit(ROOM, player.id)
                found = await self.instances.get(instance_id)
        except (NotAtTable, UserFeedback, DiscordUnavailable):
            return None
        return found if player.id in found.users else None

    async def _seated(self, player: Player, channel_id: int, offered: set[str]) -> Board | None:
        """The game the player sits at in this channel, if it is theirs and still to be played
        (else their active game of its kind: a new deal started since)."""
        game_id = self.seats.game(player.id, channel_id)
        if game_id is None:
            return None
        try:
            row, game = await self.service.owned(player.id, game_id)
            if row.kind not in offered:
                return None
            if not row.is_active:
                row, game = await self.service.load((await self.service.find(player.id, row.kind)).id)
        except (UserFeedback, storage.StorageError):
            self.seats.leave(player.id, channel_id, game_id)
            return None
        return Board(row, game, b"")

    async def start_game(self, request: web.Request) -> web.Response:
        player, tr = await self._player(request)
        body = await read_json(request)
        kind = body.get("kind")
        if not isinstance(kind, str) or kind not in {f.kind for f in fronts() if f.in_activity}:
            raise BadRequest("no such game")
        daily = body.get("daily") is True
        code = None
        if isinstance(body.get("code"), str) and body["code"].strip():
            try:
                code = engine.parse_code(body["code"].strip(), kind=kind)
            except engine.EngineError as exc:
                return refusal(422, error_text(tr.locale, exc) or str(exc), "bad_code")
        replace = body.get("replace")
        if replace is not None:
            if not (isinstance(replace, list) and len(replace) == 2 and all(type(v) is int for v in replace)):
                raise BadRequest("replace is [game id, version]")
            replace = (replace[0], replace[1])
        try:
            if self.quotas is not None:
                self.quotas.hit(START, player.id)
            started = await self.service.start(
                StartRequest(player.id, kind, code=code, daily=daily, replace=replace)
            )
        except GameInProgress as busy:
            return refusal(409, busy.text(tr.locale), "in_progress", ask=[busy.row.id, busy.row.version])
        except UserFeedback as exc:
            return refusal(status_of(exc), exc.text(tr.locale), exc.key)
        self.service.boards.posted(started.board.row.id, None, None)  # no chat board is coming
        instance = await self._instance(player, body.get("instance"))
        if instance is not None:
            self.seats.seat(player.id, instance.channel_id, started.board.row.id)
        return web.json_response({"view": await self.view(tr, started.board)})

    async def play(self, request: web.Request) -> web.Response:
        """A drop, a tap (the chat's one-press move), Undo or Home on the player's game."""
        player, tr = await self._player(request)
        body = await read_json(request)
        game_id, version, act = body.get("game"), body.get("version"), body.get("act")
        if type(game_id) is not int or type(version) is not int or act not in ACTS:
            raise BadRequest("a move is {game, version, act: drop|tap|undo|home, …}")
        source, target, count = body.get("source", ""), body.get("target", ""), body.get("count", 1)
        if not (isinstance(source, str) and isinstance(target, str) and type(count) is int):
            raise BadRequest("source and target are places, count a number")
        if (act in ("drop", "tap") and not _PLACE.match(source)) or (
            act == "drop" and not _PLACE.match(target)
        ):
            raise BadRequest("a drop names its source and target places")

        def choose(game: engine.Game[Any]) -> str:
            front = front_of(game)
            if act == "undo":
                return engine.UNDO
            if act == "home":
                return front.home_move(game)
            if act == "tap":
                return front.double_tap(game, source)
            return front.drop(game, source, target, count)

        try:
            if self.quotas is not None:
                self.quotas.hit(MOVE, player.id)
            board = await self.service.propose(player.id, game_id, version, choose, draw=False)
        except (UserFeedback, engine.EngineError, storage.StorageError) as exc:
            return await self._refused(player, tr, game_id, exc)
        if self.board_changed is not None:
            self.board_changed(board)
        return web.json_response({"view": await self.view(tr, board)})

    async def hint(self, request: web.Request) -> web.Response:
        player, tr = await self._player(request)
        body = await read_json(request)
        game_id = body.get("game")
        if type(game_id) is not int:
            raise BadRequest("a hint is {game}")
        try:
            if self.quotas is not None:
                self.quotas.hit(HINT, player.id)
            answer = await self.service.hint(player.id, game_id)
        except (UserFeedback, engine.EngineError, storage.StorageError) as exc:
            return await self._refused(player, tr, game_id, exc)
        advice = answer.advice
        text = hint_text(tr, answer.game, advice)
        return web.json_response({"hint": text, "move": advice.move if advice.status == "move" else None})

    async def _refused(self, player: Player, tr: Translator, game_id: int, exc: Exception) -> web.Response:
        """The refusal in the page's words (never a chat command's), with the game as it now is
        (nothing changed): the page shows that position."""
        text = error_text(tr.locale, exc)
        if text is None:
            raise exc
        why = exc.key if isinstance(exc, UserFeedback) else getattr(exc, "reason", type(exc).__name__)
        if isinstance(exc, storage.VersionConflict):
            why = "error.stale_board"
        elif isinstance(exc, storage.GameNotActive):
            why = "error.game_over"
        if why in PAGE_REFUSALS:
            text = tr(PAGE_REFUSALS[why])
        view = None
        if not isinstance(exc, UserFeedback) or exc.key != "error.not_your_game":
            try:
                row, game = await self.service.owned(player.id, game_id)
                view = await self.view(tr, Board(row, game, b""))
            except (UserFeedback, storage.StorageError):
                view = None
        return refusal(status_of(exc), text, str(why), view=view)

    # -- several players in one instance (bot.activity.rooms) ---------------------------------
    async def _room(self, player: Player, instance_id: Any, *, polling: bool = False) -> tuple[Rooms, Room]:
        """The table the player is at, on the room quota (every table call draws from it, so a
        flood of forged instance ids never becomes a flood of questions to Discord)."""
        if self.rooms is None:
            raise BadRequest("no rooms here")
        if not isinstance(instance_id, str):
            raise BadRequest("an instance id is needed")
        if self.quotas is not None:
            self.quotas.hit(ROOM, player.id)
        instance = await self.instances.get(instance_id)
        if polling:
            return self.rooms, self.rooms.enter(instance, player.id, player.name)
        return self.rooms, self.rooms.room(instance, player.id)

    async def room(self, request: web.Request) -> web.Response:
        """The poll: who is at the table (``instance``), their progress, the room's race."""
        player, tr = await self._player(request)
        try:
            rooms, room = await self._room(player, request.query.get("instance"), polling=True)
        except UserFeedback as exc:
            return refusal(status_of(exc), exc.text(tr.locale), exc.key)
        return web.json_response(rooms.answer(await rooms.view(tr, room), player.id))

    async def room_race(self, request: web.Request) -> web.Response:
        """A race of ``kind`` for the table, its lobby with the player in it (the chat's race:
        posted, ranked and ended as /race's, in the instance's channel)."""
        player, tr = await self._player(request)
        body = await read_json(request)
        kind = body.get("kind")
        if not isinstance(kind, str) or kind not in {f.kind for f in fronts() if f.in_activity}:
            raise BadRequest("no such game")
        try:
            rooms, room = await self._room(player, body.get("instance"))
        except UserFeedback as exc:  # the room quota
            return refusal(status_of(exc), exc.text(tr.locale), exc.key)
        async with room.lock:
            if room.race_id is not None:
                open_race = await self.service.store.get_race(room.race_id)
                if open_race.status in ("lobby", "running"):
                    return refusal(409, tr("activity.race_open"), "race_open")
            try:
                if self.quotas is not None:
                    self.quotas.hit(RACE, player.id)
                race = await rooms.keeper.create(
                    player.id,
                    kind,
                    guild_id=room.instance.guild_id,
                    channel_id=room.instance.channel_id,
                    start_in=DEFAULT_START_IN,
                    language=tr.locale,
                    agreed=body.get("agreed") is True,
                )
            except GameInProgress as busy:
                return refusal(409, busy.text(tr.locale), "in_progress")
            except UserFeedback as exc:
                return refusal(status_of(exc), exc.text(tr.locale), exc.key)
            room.race_id = race.id
            rooms.forget_snapshot(room)
        return web.json_response(rooms.answer(await rooms.view(tr, room), player.id))

    async def room_join(self, request: web.Request) -> web.Response:
        """The player joins the room's race lobby."""

        async def join(rooms: Rooms, player: Player, race_id: int, body: dict[str, Any]) -> None:
            await rooms.keeper.join(player.id, race_id, agreed=body.get("agreed") is True)

        return await self._race_step(request, join)

    async def room_start(self, request: web.Request) -> web.Response:
        """The race's creator starts it now (at least two players in)."""

        async def start(rooms: Rooms, player: Player, race_id: int, body: dict[str, Any]) -> None:
            await rooms.keeper.start_now(player.id, race_id)

        return await self._race_step(request, start)

    async def _race_step(
        self,
        request: web.Request,
        step: Callable[[Rooms, Player, int, dict[str, Any]], Awaitable[None]],
    ) -> web.Response:
        """One step of the room's race (join, start): the same room checks and refusals, then
        the room's new view."""
        player, tr = await self._player(request)
        body = await read_json(request)
        try:
            rooms, room = await self._room(player, body.get("instance"))
        except UserFeedback as exc:  # the room quota
            return refusal(status_of(exc), exc.text(tr.locale), exc.key)
        if room.race_id is None:
            return refusal(404, tr("activity.no_race"), "no_race")
        try:
            await step(rooms, player, room.race_id, body)
        except RaceJoinAsk as busy:
            return refusal(409, busy.text(tr.locale), "in_progress")
        except UserFeedback as exc:
            return refusal(status_of(exc), exc.text(tr.locale), exc.key)
        rooms.forget_snapshot(room)
        return web.json_response(rooms.answer(await rooms.view(tr, room), player.id))

    # -- what the page draws ----------------------------------------------------------------
    async def view(self, tr: Translator, board: Board) -> dict[str, Any]:
        """A game as the page draws it: its piles (the front's ``table``), its numbers, the
        board's text (as in the chat), and what may be pressed."""
        row, game = board.row, board.game
        front = front_of(game)
        table = front.table(tr, game)
        if table is None:
            raise BadRequest("this game is not offered in the Activity")
        return {
            "game": {
                "id": row.id,
                "version": row.version,
                "kind": row.kind,
                "title": front.title(tr),
                "code": None if is_private(row) else row.code,
                "active": row.is_active,
                "status": row.status,
                "score": game.score,
                "moves": game.move_count,
                "home": game.cards_home,
                "can_undo": row.is_active and game.undo_depth > 0,
                "hints": row.is_active and not is_private(row),
            },
            "table": asdict(table),
            # What the page may draw before the server answers (bot.activity.moves).
            "moves": page_moves(front, game, table) if row.is_active else {"drops": [], "taps": {}},
            "text": board_content(tr, board),
            "deck": await user_deck(self.service.store, row.owner_id),  # the owner's: only they see it here
        }


def refusal(status: int, text: str, why: str, **extra: Any) -> web.Response:
    return web.json_response({"error": text, "why": why, **extra}, status=status)


def status_of(exc: BaseException) -> int:
    if isinstance(exc, StaleBoard | storage.VersionConflict):
        return 409
    if isinstance(exc, UserFeedback):
        if exc.key == "error.cooldown":
            return 429
        if exc.key in ("error.not_your_game", "activity.room_full", "race.error.not_creator"):
            return 403
        if exc.key in ("error.no_such_game",):
            return 404
        if exc.key == "error.game_over":
            return 410
        return 422
    if isinstance(exc, storage.GameNotFound):
        return 404
    if isinstance(exc, storage.GameNotActive):
        return 410
    if isinstance(exc, engine.EngineError):
        return 422
    return 503


async def read_json(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json(loads=json.loads)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the body is not JSON") from None
    except web.HTTPRequestEntityTooLarge:
        raise BadRequest("the body is too large") from None
    if not isinstance(body, dict):
        raise BadRequest("the body is a JSON object")
    return body
