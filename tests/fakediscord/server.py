"""`FakeDiscord`: a local stand-in for Discord's REST API v10 and gateway, for end-to-end tests.

It runs an aiohttp server on 127.0.0.1 that the real, unmodified discord.py 2.7.1 talks to,
stores everything the bot sends, enforces Discord's rules (OpenAPI request schemas, message and
component limits, the 3 s acknowledgement, 15 min tokens) and lets tests act as players
(`slash`, `click`, `select`, `autocomplete`). Every request the real Discord would refuse is
answered with Discord's error JSON and recorded in `violations`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

from aiohttp import web

from .gateway import GUILD_MESSAGES, PRIVILEGED_INTENTS, GatewaySession
from .httpapi import HttpApi, RequestRecord, Violation
from .interactions import (
    APPLICATION_COMMAND,
    InteractionState,
)
from .models import (
    EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    snowflake,
)
from .oauth import OAuth
from .openapi import load_spec
from .players import PlayerActions

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
DEFAULT_TOKEN = "fake-token"


class FakeDiscord(PlayerActions, HttpApi, OAuth):
    """The fake Discord. Use as `async with FakeDiscord() as fake:` or `await fake.start()`.

    A default guild (`fake.guild`, owned by `fake.owner`) with a `#general` channel
    (`fake.channel`) exists from the start; add more with `add_guild`, `add_channel`,
    `add_user` and `add_member`.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        privileged_intents: int = 0,
        app_name: str = "Boulanger",
        shards: int = 1,
    ):
        self.token = token
        #: The shard count `GET /gateway/bot` recommends (bots may IDENTIFY with any count).
        self.shard_count = shards
        #: `(id, count)` of every IDENTIFY, in order.
        self.identified_shards: list[tuple[int, int]] = []
        #: Intents enabled "in the developer portal" (bits of PRIVILEGED_INTENTS); others close with 4014.
        self.privileged_intents = privileged_intents
        self.spec = load_spec()
        self.bot_user = User(snowflake(), app_name, bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[Any, int]] = []
        #: Players who installed the app to their own account (integration type 1).
        self.user_installs: set[int] = set()
        self.violations: list[Violation] = []
        self.requests: list[RequestRecord] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.session: GatewaySession | None = None
        self.identifies = 0
        self.resumes = 0
        self.gateway_connections = 0
        self._messages: dict[int, Message] = {}
        self._channel_messages: dict[int, list[int]] = {}
        self._attachments: dict[int, Any] = {}
        self._interactions: dict[int, InteractionState] = {}
        self._by_token: dict[str, InteractionState] = {}
        self._by_original: dict[int, list[InteractionState]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sockets: set[Any] = set()
        self._session_event = asyncio.Event()
        self._message_event = asyncio.Event()
        self._forced_429: list[dict[str, Any]] = []
        # Enforced nonces seen per channel: (channel id, nonce) → (message, when), as Discord
        # de-duplicates them "for a few minutes"; and requests applied, then answered 5xx.
        self._nonces: dict[tuple[int, str], tuple[Any, float]] = {}
        self._failed_after: list[dict[str, Any]] = []
        self._refusals: list[dict[str, Any]] = []
        self._clock_offset = 0.0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._init_oauth()  # an Activity's codes and access tokens (oauth.py)
        self.owner = self.add_user("owner")
        self.guild = self.add_guild("Test Guild", owner=self.owner)
        self.channel = self.guild.channels[0]

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self, port: int = 0, host: str = "127.0.0.1", *, control: bool = False) -> FakeDiscord:
        """Listen on `host:port` (0 = a free port, then read `fake.port`).

        `control=True` adds the JSON control API under `/_fake/` (see `control.py`) so another
        process can act as players; in-process tests call the methods directly instead.
        """
        app = web.Application(client_max_size=64 * 1024 * 1024)
        if control:
            from .control import add_control_routes

            add_control_routes(app, self)
        app.router.add_post(API_PREFIX + "/oauth2/token", self._handle_oauth_token)  # not in the spec
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle_api)
        app.router.add_get("/gateway", self._handle_gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._handle_attachment)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.host = host
        return self

    async def stop(self) -> None:
        """Close every gateway socket and the server."""
        for state in self._interactions.values():
            if state.deadline is not None:
                state.deadline.cancel()
        for sock in list(self._sockets):
            await sock.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What `discord.http.Route.BASE` must be (env `BOULANGER_DISCORD_API_BASE`)."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What `DiscordWebSocket.DEFAULT_GATEWAY` must be (env `BOULANGER_DISCORD_GATEWAY`)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables that point a `python -m bot` process at this fake."""
        return {
            "DISCORD_TOKEN": self.token,
            "BOULANGER_DISCORD_API_BASE": self.api_base,
            "BOULANGER_DISCORD_GATEWAY": self.gateway_url,
        }

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point this process's discord.py at the fake (restored on exit)."""
        import discord.gateway
        import discord.http
        import yarl

        old_base, old_gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    def now(self) -> float:
        """The fake's clock (loop time plus `advance_clock` offsets), for deadlines and token expiry."""
        return self.loop_time() + self._clock_offset

    def loop_time(self) -> float:
        return asyncio.get_running_loop().time()

    def advance_clock(self, seconds: float) -> None:
        """Pretend `seconds` passed, e.g. 15 * 60 to expire every interaction token."""
        self._clock_offset += seconds

    # -- the world ------------------------------------------------------------------------------

    def add_user(self, name: str) -> User:
        """A new player account."""
        user = User(snowflake(), name)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: User | None = None,
        channels: tuple[str, ...] = ("general",),
        shard: tuple[int, int] | None = None,
        bot: bool = True,
    ) -> Guild:
        """A new guild with text channels; the bot is a member. Connected bots get GUILD_CREATE.

        `shard=(id, count)` picks an id on that shard: `(guild_id >> 22) % count == id`.
        `bot=False`: a server that has not added the bot (no GUILD_CREATE, its channel endpoints
        answer 403 Missing Access); players with the app installed to their account may still
        use its commands there (`install_app`)."""
        owner = owner or self.add_user(f"{name} owner")
        guild_id = snowflake()
        if shard is not None:
            shard_id, count = shard
            stamp = guild_id >> 22
            stamp += (shard_id - stamp) % count  # a few ms later at most
            guild_id = (stamp << 22) | (guild_id & 0x3FFFFF)
        guild = Guild(guild_id, name, owner.id, bot_member=bot)
        guild.roles.append(Role(guild.id, "@everyone", EVERYONE_PERMISSIONS))
        self.guilds[guild.id] = guild
        for channel_name in channels:
            self.add_channel(guild, channel_name)
        if bot:
            guild.members[self.bot_user.id] = Member(self.bot_user, guild)
        guild.members[owner.id] = Member(owner, guild)
        session = self.session_for(guild.id)
        if session is not None and bot:
            self._spawn(session.dispatch("GUILD_CREATE", guild.payload()))
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(snowflake(), name, guild.id, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        session = self.session_for(guild.id)
        if session is not None and len(guild.channels) > 1 and guild.bot_member:
            self._spawn(session.dispatch("CHANNEL_CREATE", channel.payload()))
        return channel

    def enable_activities(self) -> dict[str, Any]:
        """What turning Activities on in the Developer Portal does: Discord adds the app's entry
        point command ("Launch", type 4 PRIMARY_ENTRY_POINT, handled by launching the Activity)."""
        body = {
            "name": "launch",
            "type": 4,
            "handler": 2,
            "description": "Launch an activity",
            "integration_types": [0, 1],
            "contexts": [0, 1, 2],
        }
        record = self._command_record(body, None, self.global_commands)
        self.global_commands = [c for c in self.global_commands if c["type"] != 4] + [record]
        return record

    def install_app(self, user: User) -> None:
        """`user` installs the app to their account: its user-install commands follow them."""
        self.user_installs.add(user.id)

    def add_group_dm(self, name: str, *users: User) -> Channel:
        """A group DM of `users` (the first owns it); the bot is never a member of one."""
        channel = Channel(snowflake(), name, None, type=3, recipients=list(users))
        self.channels[channel.id] = channel
        return channel

    def reachable(self, channel: Channel) -> bool:
        """May the bot use this channel's endpoints (a server that added it, or its own DMs)?"""
        if channel.guild_id is not None:
            return self.guilds[channel.guild_id].bot_member
        return channel.type == 1

    def dm_channel(self, user: User) -> Channel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.name == str(user.id):
                return channel
        channel = Channel(snowflake(), str(user.id), None, type=1)
        self.channels[channel.id] = channel
        return channel

    def add_member(
        self,
        user: User,
        guild: Guild | None = None,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        permissions: int = 0,
    ) -> Member:
        """Make `user` a member of `guild` (default guild), optionally with Manage Server etc."""
        guild = guild or self.guild
        member = guild.members.get(user.id) or Member(user, guild)
        guild.members[user.id] = member
        if manage_guild:
            member.roles.append(guild.role("Manager", MANAGE_GUILD))
        if administrator:
            member.roles.append(guild.role("Admin", 1 << 3))
        if permissions:
            member.roles.append(guild.role(f"perm-{permissions}", permissions))
        return member

    # -- inspection -----------------------------------------------------------------------------

    def messages(self, channel: Channel | int | None = None, *, user: User | None = None) -> list[Message]:
        """Messages in a channel (default `fake.channel`), oldest first, deleted ones left out.

        Ephemeral messages are included only when `user` is the one who can see them.
        """
        cid = (channel.id if isinstance(channel, Channel) else channel) or self.channel.id
        found = [self._messages[mid] for mid in self._channel_messages.get(cid, [])]
        return [
            m
            for m in found
            if not m.deleted and (m.visible_to is None or (user is not None and m.visible_to == user.id))
        ]

    def message(self, message_id: int | str) -> Message:
        """The stored message with this id (deleted ones too; check `.deleted`)."""
        try:
            return self._messages[int(message_id)]
        except KeyError:
            raise LookupError(f"no message {message_id} was ever sent") from None

    def attachment_bytes(self, message: Message | int, index: int = 0) -> bytes:
        msg = message if isinstance(message, Message) else self.message(message)
        return msg.attachments[index].data

    def take_violations(self) -> list[Violation]:
        """Return and forget the recorded violations (for tests that cause them on purpose)."""
        found, self.violations = self.violations, []
        return found

    def assert_no_violations(self) -> None:
        if self.violations:
            lines = "\n  ".join(map(str, self.violations))
            raise AssertionError(f"the bot sent requests Discord would refuse:\n  {lines}")

    def violation(self, method: str, path: str, reason: str, status: int = 400, body: Any = None) -> None:
        log.warning("fake Discord violation: %s %s: %s", method, path, reason)
        self.violations.append(Violation(method, path, reason, status, body))

    def commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The registered commands: global, or those of `guild`."""
        return self.guild_commands.get(guild.id, []) if guild else self.global_commands

    def rate_limit(
        self, pattern: str, *, retry_after: float = 0.1, times: int = 1, method: str | None = None
    ) -> None:
        """Answer the next `times` requests whose path matches the regex `pattern` with a 429."""
        self._forced_429.append(
            {"re": re.compile(pattern), "retry": retry_after, "left": times, "method": method}
        )

    def refuse(
        self,
        pattern: str,
        *,
        status: int = 403,
        code: int = 50001,
        message: str = "Missing Access",
        times: int | None = None,
        method: str | None = None,
    ) -> None:
        """Answer requests whose path matches the regex `pattern` with Discord's error `status`
        (default 403 Missing Access; 404 10003 Unknown Channel, 503...), `times` times or until
        `allow(pattern)`. Not recorded as violations: the test wants them."""
        self._refusals.append(
            {"re": re.compile(pattern), "status": status, "code": code, "message": message}
            | {"left": times, "method": method}
        )

    def allow(self, pattern: str) -> None:
        """Stop the refusals added with `refuse(pattern)`."""
        self._refusals = [r for r in self._refusals if r["re"].pattern != pattern]

    def server_error(
        self, pattern: str, *, status: int = 500, times: int = 1, method: str | None = None
    ) -> None:
        """Answer the next `times` requests whose path matches `pattern` with a 5xx (nothing applied)."""
        self._forced_429.append(
            {"re": re.compile(pattern), "retry": 0.0, "left": times, "method": method, "status": status}
        )

    NONCE_WINDOW = 120.0  # seconds an enforced nonce de-duplicates (Discord: a few minutes)

    def remember_nonce(self, channel_id: int, nonce: str, message: Any) -> None:
        self._nonces[(channel_id, nonce)] = (message, self.loop_time())

    def nonced_message(self, channel_id: int, nonce: str) -> Any:
        """The message created with this enforced nonce lately, if any."""
        found = self._nonces.get((channel_id, nonce))
        if found is None or self.loop_time() - found[1] > self.NONCE_WINDOW:
            return None
        return found[0]

    def fail_after_applying(
        self, pattern: str, *, status: int = 500, times: int = 1, method: str | None = None
    ) -> None:
        """Carry out the next `times` requests matching `pattern`, then answer them with a 5xx
        anyway (Discord created the message, the reply was lost): the client cannot tell."""
        self._failed_after.append(
            {"re": re.compile(pattern), "left": times, "method": method, "status": status}
        )

    def _failing_after(self, method: str, path: str) -> int | None:
        for rule in self._failed_after:
            if rule["left"] > 0 and rule["re"].search(path) and rule["method"] in (None, method):
                rule["left"] -= 1
                return int(rule["status"])
        return None

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The session owning `guild_id`'s shard (None: a DM, shard 0), latest IDENTIFY first."""
        owners = [s for s in self.sessions.values() if s.owns(guild_id)]
        return max(owners, key=lambda s: s.identified_at) if owners else None

    async def wait_until_ready(
        self, timeout: float = 10.0, *, guild: Guild | None = None, dm: bool = False
    ) -> GatewaySession:
        """Wait until a bot is connected and has been sent READY and its guilds.

        With `guild` (or `dm=True`): the session owning that guild's shard (DMs: shard 0);
        otherwise the latest session."""
        deadline = self.loop_time() + timeout
        while True:
            if guild is not None or dm:
                session = self.session_for(guild.id if guild is not None else None)
            else:
                session = self.session
            if session is not None and session.connected and session.ready.is_set():
                return session
            remaining = deadline - self.loop_time()
            if remaining <= 0:
                where = f" for guild {guild.id}" if guild is not None else " for DMs" if dm else ""
                raise TimeoutError(f"no bot connected to the fake gateway{where} within {timeout} s")
            self._session_event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._session_event.wait(), min(remaining, 0.25))

    async def wait_for_message(
        self,
        channel: Channel | int | None = None,
        check: Callable[[Message], bool] | None = None,
        *,
        timeout: float = 5.0,
    ) -> Message:
        """Wait for a public message in `channel` (that passes `check`) and return it."""
        deadline = self.loop_time() + timeout
        while True:
            for message in reversed(self.messages(channel)):
                if check is None or check(message):
                    return message
            remaining = deadline - self.loop_time()
            if remaining <= 0:
                raise TimeoutError(f"no matching message appeared within {timeout} s")
            self._message_event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._message_event.wait(), remaining)

    async def disconnect(self, code: int = 4000) -> None:
        """Close the bot's gateway socket server-side (discord.py then RESUMEs its session)."""
        if self.session is not None and self.session.socket is not None:
            await self.session.socket.ws.close(code=code)

    # -- internals: state -----------------------------------------------------------------------

    def _new_message(
        self, channel: Channel, author: User, *, interaction: InteractionState | None = None
    ) -> Message:
        message = Message(snowflake(), channel.id, channel.guild_id, author)
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.interaction_type = interaction.type
            message.owners = dict(interaction.owners)
            message.application_id = self.application_id
            message.webhook_id = self.application_id
            message.type = 20 if interaction.type == APPLICATION_COMMAND else 0
        return message

    def _store(self, message: Message) -> None:
        if message.flags & (1 << 6) and message.visible_to is None and message.interaction_user is not None:
            message.visible_to = message.interaction_user.id
        self._messages[message.id] = message
        self._channel_messages.setdefault(message.channel_id, []).append(message.id)
        self._message_event.set()
        self._gateway_event("MESSAGE_CREATE", message)

    def _set_original(self, state: InteractionState, message_id: int) -> None:
        """Remember which message an interaction's reply lives in (edited later by any route)."""
        state.original_id = message_id
        self._by_original.setdefault(message_id, []).append(state)

    def _edited(self, message: Message) -> None:
        from .models import iso_now

        now = self.loop_time()
        for state in self._by_original.get(message.id, ()):
            state.edits_after_ack += 1
            state.touch(now)
        message.edits += 1
        message.edit_times.append(now)
        message.edited_timestamp = iso_now()
        self._message_event.set()
        self._gateway_event("MESSAGE_UPDATE", message)

    def _delete(self, message: Message) -> None:
        message.deleted = True
        self._message_event.set()
        session = self.session_for(message.guild_id)
        if message.visible_to is None and session is not None and session.intents & GUILD_MESSAGES:
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                data["guild_id"] = str(message.guild_id)
            self._spawn(session.dispatch("MESSAGE_DELETE", data))

    def _gateway_event(self, name: str, message: Message) -> None:
        session = self.session_for(message.guild_id)
        if message.visible_to is not None or message.loading or session is None:
            return
        if message.guild_id is not None and not session.intents & GUILD_MESSAGES:
            return
        self._spawn(session.dispatch(name, message.payload()))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _session_changed(self) -> None:
        self._session_event.set()

    def _command_record(
        self, body: dict[str, Any], guild_id: int | None, previous: list[dict]
    ) -> dict[str, Any]:
        """What Discord stores and returns for a registered command (ids stable across re-syncs)."""
        old = next(
            (c for c in previous if c["name"] == body["name"] and c["type"] == body.get("type", 1)), None
        )
        record = {
            "id": old["id"] if old else str(snowflake()),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
            "type": body.get("type") or 1,
            "name": body["name"],
            "name_localizations": body.get("name_localizations"),
            "description": body.get("description") or "",
            "description_localizations": body.get("description_localizations"),
            "default_member_permissions": (
                None
                if body.get("default_member_permissions") is None
                else str(body["default_member_permissions"])
            ),
            "dm_permission": body.get("dm_permission", True),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "nsfw": bool(body.get("nsfw")),
        }
        if body.get("options"):
            record["options"] = body["options"]
        if record["type"] == 4:
            record["handler"] = body.get("handler", 1)
        if guild_id is not None:
            record["guild_id"] = str(guild_id)
        return record

    def ready_payload(self, session: GatewaySession) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [
                {"id": str(g.id), "unavailable": True}
                for g in self.guilds.values()
                if session.owns(g.id) and g.bot_member
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": list(session.shard),
            "application": {"id": str(self.application_id), "flags": self._application_flags()},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "user_settings": {},
            "auth": {},
            "_trace": ["fake-gateway"],
        }

    def _application_flags(self) -> int:
        flags = 1 << 23  # APPLICATION_COMMAND_BADGE
        limited = {1 << 1: 1 << 15, 1 << 8: 1 << 13, 1 << 15: 1 << 19}
        for intent in PRIVILEGED_INTENTS:
            if self.privileged_intents & intent:
                flags |= limited[intent]
        return flags

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self._application_flags(),
            "owner": self.owner.payload(),
            "team": None,
            "hook": True,
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "rpc_origins": [],
            "tags": [],
            "bot": self.bot_user.payload(),
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }
