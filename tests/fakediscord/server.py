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
import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import rest
from .gateway import GUILD_MESSAGES, PRIVILEGED_INTENTS, GatewaySession, handle_gateway
from .interactions import (
    ACK_DEADLINE,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Choices,
    InteractionResult,
    InteractionState,
)
from .models import (
    ATTACH_FILES,
    EMBED_LINKS,
    EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    MANAGE_MESSAGES,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    snowflake,
)
from .openapi import SpecRoute, load_spec

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
DEFAULT_TOKEN = "fake-token"
#: What the bot may do in every channel (sent as `app_permissions`).
BOT_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY | MANAGE_MESSAGES
)


@dataclass
class Violation:
    """A request the real Discord would refuse (or a rule the bot broke, like the 3 s deadline)."""

    method: str
    path: str
    reason: str
    status: int = 400
    body: Any = None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}: {self.reason}"


@dataclass
class RequestRecord:
    """One REST request the bot made, with the documented route it matched and the answer."""

    method: str
    path: str
    route: str | None
    body: Any
    status: int = 0
    files: int = 0
    at: float = field(default_factory=time.monotonic)


class FakeDiscord:
    """The fake Discord. Use as `async with FakeDiscord() as fake:` or `await fake.start()`.

    A default guild (`fake.guild`, owned by `fake.owner`) with a `#general` channel
    (`fake.channel`) exists from the start; add more with `add_guild`, `add_channel`,
    `add_user` and `add_member`.
    """

    def __init__(
        self, *, token: str = DEFAULT_TOKEN, privileged_intents: int = 0, app_name: str = "Boulanger"
    ):
        self.token = token
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
        self._sockets: set[Any] = set()
        self._session_event = asyncio.Event()
        self._message_event = asyncio.Event()
        self._forced_429: list[dict[str, Any]] = []
        self._clock_offset = 0.0
        self._runner: web.AppRunner | None = None
        self.port = 0
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
        self, name: str, *, owner: User | None = None, channels: tuple[str, ...] = ("general",)
    ) -> Guild:
        """A new guild with text channels; the bot is a member. Connected bots get GUILD_CREATE."""
        owner = owner or self.add_user(f"{name} owner")
        guild = Guild(snowflake(), name, owner.id)
        guild.roles.append(Role(guild.id, "@everyone", EVERYONE_PERMISSIONS))
        self.guilds[guild.id] = guild
        for channel_name in channels:
            self.add_channel(guild, channel_name)
        guild.members[self.bot_user.id] = Member(self.bot_user, guild)
        guild.members[owner.id] = Member(owner, guild)
        if self.session is not None:
            self._spawn(self.session.dispatch("GUILD_CREATE", guild.payload()))
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(snowflake(), name, guild.id, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        if self.session is not None and len(guild.channels) > 1:
            self._spawn(self.session.dispatch("CHANNEL_CREATE", channel.payload()))
        return channel

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

    async def wait_until_ready(self, timeout: float = 10.0) -> GatewaySession:
        """Wait until a bot is connected and has been sent READY and its guilds."""
        deadline = self.loop_time() + timeout
        while True:
            session = self.session
            if session is not None and session.connected and session.ready.is_set():
                return session
            remaining = deadline - self.loop_time()
            if remaining <= 0:
                raise TimeoutError(f"no bot connected to the fake gateway within {timeout} s")
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

    # -- acting as players ----------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        guild: Guild | None = None,
        channel: Channel | None = None,
        locale: str = "en-US",
        wait: bool | str = True,
        timeout: float = 10.0,
        check_permissions: bool = True,
    ) -> InteractionResult:
        """Run `/command` (use "group sub" for subcommands) as `user`; returns the bot's reply.

        Options are checked against the registered command like Discord's client does (unknown
        or missing required options, choices, ranges raise ValueError; an unregistered command
        raises LookupError; a member lacking `default_member_permissions` gets PermissionError).
        `wait=True` waits until the reply is final (after a defer: its edit or first followup),
        `wait="ack"` only for the initial response, `wait=False` not at all.
        """
        guild = guild or self.guild
        channel = channel or guild.channels[0]
        member = self.add_member(user, guild)
        record, options_payload, resolved = self._command_options(command, options or {}, guild, None)
        self._check_command_permission(record, member, check_permissions)
        data: dict[str, Any] = {
            "id": record["id"],
            "name": record["name"],
            "type": 1,
            "options": options_payload,
        }
        if record.get("guild_id"):
            data["guild_id"] = record["guild_id"]
        if resolved:
            data["resolved"] = resolved
        state = await self._send_interaction(APPLICATION_COMMAND, user, guild, channel, data, locale=locale)
        state.command = command  # type: ignore[attr-defined]
        return await self._result(state, wait, timeout)

    async def autocomplete(
        self,
        user: User,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        guild: Guild | None = None,
        channel: Channel | None = None,
        locale: str = "en-US",
        timeout: float = 10.0,
    ) -> Choices:
        """Type into option `focused` of `/command` (its partial text is `options[focused]`).

        Returns the bot's choices (a list of {"name", "value"} with `.elapsed_ms`); raises
        AssertionError if the bot did not answer within 3 s.
        """
        guild = guild or self.guild
        channel = channel or guild.channels[0]
        self.add_member(user, guild)
        record, options_payload, _ = self._command_options(command, options, guild, focused)
        data: dict[str, Any] = {
            "id": record["id"],
            "name": record["name"],
            "type": 1,
            "options": options_payload,
        }
        if record.get("guild_id"):
            data["guild_id"] = record["guild_id"]
        state = await self._send_interaction(AUTOCOMPLETE, user, guild, channel, data, locale=locale)
        result = await self._result(state, True, timeout)
        if result.failed or result.choices is None:
            raise AssertionError(
                f"the bot did not answer the autocomplete of /{command} {focused} within 3 s"
            )
        choices = Choices(result.choices)
        choices.elapsed_ms = result.elapsed_ms
        return choices

    async def click(
        self,
        user: User,
        message: Message | int,
        custom_id: str,
        *,
        locale: str = "en-US",
        wait: bool | str = True,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """Press the button `custom_id` on `message` as `user` (who must be able to see it)."""
        msg = self._usable_message(user, message)
        component = msg.find_component(custom_id)
        if component is None or component.get("type") != 2:
            raise LookupError(f"message {msg.id} has no button {custom_id!r}; it has {msg.custom_ids()}")
        if component.get("disabled"):
            raise ValueError(f"button {custom_id!r} is disabled: nobody can press it")
        data = {"custom_id": custom_id, "component_type": 2, "id": component.get("id")}
        return await self._component(user, msg, data, locale, wait, timeout)

    async def select(
        self,
        user: User,
        message: Message | int,
        custom_id: str,
        values: list[str],
        *,
        locale: str = "en-US",
        wait: bool | str = True,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """Choose `values` in the select menu `custom_id` on `message` as `user`."""
        msg = self._usable_message(user, message)
        component = msg.find_component(custom_id)
        if component is None or component.get("type") not in (3, 5, 6, 7, 8):
            raise LookupError(f"message {msg.id} has no select menu {custom_id!r}; it has {msg.custom_ids()}")
        if component.get("disabled"):
            raise ValueError(f"select menu {custom_id!r} is disabled")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select menu {custom_id!r} takes {low} to {high} values, not {len(values)}")
        if component["type"] == 3:
            allowed = [o["value"] for o in component.get("options", [])]
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise ValueError(f"select menu {custom_id!r} has no options {unknown}; it has {allowed}")
        data = {"custom_id": custom_id, "component_type": component["type"], "values": list(values)}
        data["id"] = component.get("id")
        return await self._component(user, msg, data, locale, wait, timeout)

    async def submit_modal(
        self,
        user: User,
        opened: InteractionResult,
        values: dict[str, str],
        *,
        wait: bool | str = True,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in `opened` (text inputs by custom_id)."""
        modal = opened.modal
        if modal is None:
            raise ValueError("that interaction did not open a modal")
        rows = []
        for row in modal.get("components", []):
            inputs = [c for c in row.get("components", []) if c.get("type") == 4]
            rows.append(
                {
                    "type": 1,
                    "components": [
                        {"type": 4, "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}
                        for c in inputs
                    ],
                }
            )
        data = {"custom_id": modal["custom_id"], "components": rows}
        origin = opened.state
        guild = self.guilds.get(origin.guild_id or 0) or self.guild
        state = await self._send_interaction(
            MODAL_SUBMIT, user, guild, self.channels[origin.channel_id], data, message=origin.source_message
        )
        return await self._result(state, wait, timeout)

    # -- internals: interactions ----------------------------------------------------------------

    def _usable_message(self, user: User, message: Message | int) -> Message:
        msg = message if isinstance(message, Message) else self.message(message)
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        if msg.visible_to is not None and msg.visible_to != user.id:
            raise LookupError(f"message {msg.id} is ephemeral: only its owner can see it")
        if msg.loading:
            raise LookupError(f"message {msg.id} is still 'thinking…'")
        return msg

    async def _component(
        self, user: User, msg: Message, data: dict[str, Any], locale: str, wait: bool | str, timeout: float
    ) -> InteractionResult:
        channel = self.channels[msg.channel_id]
        guild = self.guilds.get(msg.guild_id or 0) or self.guild
        self.add_member(user, guild)
        state = await self._send_interaction(
            MESSAGE_COMPONENT, user, guild, channel, data, message=msg, locale=locale
        )
        return await self._result(state, wait, timeout)

    async def _send_interaction(
        self,
        itype: int,
        user: User,
        guild: Guild,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        locale: str = "en-US",
    ) -> InteractionState:
        session = await self.wait_until_ready()
        member = guild.members[user.id]
        iid = snowflake()
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": str(member.permissions)},
            "member": member.payload(with_permissions=True),
            "locale": locale,
            "guild_locale": guild.locale,
            "app_permissions": str(BOT_PERMISSIONS | guild.everyone.permissions),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
        }
        if message is not None:
            payload["message"] = message.payload()
        state = InteractionState(
            id=iid,
            token=token,
            type=itype,
            user=user,
            guild_id=guild.id,
            channel_id=channel.id,
            created=self.now(),
            sent_at=self.loop_time(),
            source_message=message,
        )
        self._interactions[iid] = state
        self._by_token[token] = state
        state.deadline = asyncio.get_running_loop().call_later(ACK_DEADLINE, self._deadline_passed, state)
        await session.dispatch("INTERACTION_CREATE", payload)
        return state

    def _deadline_passed(self, state: InteractionState) -> None:
        if not state.acknowledged and not state.failed:
            what = getattr(state, "command", None) or (state.source_message and "component") or "interaction"
            self.violation(
                "INTERACTION",
                f"/interactions/{state.id}",
                f"{what} not acknowledged within {ACK_DEADLINE:g} s (Discord shows 'The application did not respond')",
                status=404,
            )
            self._fail(state)

    def _fail(self, state: InteractionState) -> None:
        state.failed = True
        state.touch(self.loop_time())

    async def _result(self, state: InteractionState, wait: bool | str, timeout: float) -> InteractionResult:
        if wait == "ack":
            await self._wait(state, lambda: state.acknowledged or state.failed, timeout, "an acknowledgement")
        elif wait:
            await self._wait(state, state.is_settled, timeout, "a final reply")
        return InteractionResult(self, state)

    async def _wait(
        self, state: InteractionState, done: Callable[[], bool], timeout: float, what: str
    ) -> None:
        deadline = self.loop_time() + timeout
        while not done():
            remaining = deadline - self.loop_time()
            if remaining <= 0:
                raise TimeoutError(
                    f"the bot did not send {what} to interaction {state.id} within {timeout} s "
                    f"(response type so far: {state.response_type})"
                )
            state.changed.clear()
            if done():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(state.changed.wait(), remaining)

    def _find_command(self, name: str, guild: Guild) -> dict[str, Any]:
        for record in [*self.guild_commands.get(guild.id, []), *self.global_commands]:
            if record["name"] == name and record.get("type", 1) == 1:
                return record
        known = sorted({c["name"] for c in [*self.guild_commands.get(guild.id, []), *self.global_commands]})
        raise LookupError(f"/{name} is not registered (for guild {guild.name!r}); registered: {known}")

    def _command_options(
        self, command: str, options: dict[str, Any], guild: Guild, focused: str | None
    ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        """The registered command and Discord-shaped options for `options` (validated like the client)."""
        path = command.strip().lstrip("/").split()
        record = self._find_command(path[0], guild)
        defs = record.get("options") or []
        wrappers: list[dict[str, Any]] = []
        for part in path[1:]:
            sub = next((d for d in defs if d["name"] == part and d["type"] in (1, 2)), None)
            if sub is None:
                raise ValueError(f"/{command}: {part!r} is not a subcommand")
            wrappers.append({"type": sub["type"], "name": part})
            defs = sub.get("options") or []
        if any(d["type"] in (1, 2) for d in defs):
            names = [d["name"] for d in defs]
            raise ValueError(f"/{command} needs a subcommand: one of {names}")
        resolved: dict[str, Any] = {}
        values = [self._option(command, d, options, resolved, focused) for d in defs if d["name"] in options]
        unknown = set(options) - {d["name"] for d in defs}
        if unknown:
            raise ValueError(
                f"/{command} has no option(s) {sorted(unknown)}; it has {[d['name'] for d in defs]}"
            )
        if focused is None:
            missing = [d["name"] for d in defs if d.get("required") and d["name"] not in options]
            if missing:
                raise ValueError(f"/{command} requires {missing}")
        elif focused not in options:
            raise ValueError(f"the focused option {focused!r} needs its partial text in options")
        for wrapper in reversed(wrappers):
            wrapper["options"] = values
            values = [wrapper]
        return record, values, resolved

    def _option(
        self,
        command: str,
        d: dict[str, Any],
        options: dict[str, Any],
        resolved: dict[str, Any],
        focused: str | None,
    ) -> dict[str, Any]:
        name, kind, value = d["name"], d["type"], options[d["name"]]
        if name == focused:
            if not d.get("autocomplete"):
                raise ValueError(f"/{command} option {name!r} has no autocomplete")
            return {"type": kind, "name": name, "value": str(value), "focused": True}
        if kind == 3:
            value = str(value)
            if not d.get("min_length", 0) <= len(value) <= d.get("max_length", 6000):
                raise ValueError(f"/{command} {name}: length {len(value)} out of range")
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"/{command} {name} takes an integer, not {value!r}")
        elif kind == 10:
            value = float(value)
        elif kind == 5:
            value = bool(value)
        if kind in (6, 9) and str(value).isdigit() and int(value) in self.users:
            value = self.users[int(value)]  # an id (the standalone control API passes ids)
        elif kind == 7 and str(value).isdigit() and int(value) in self.channels:
            value = self.channels[int(value)]
        if kind in (6, 9) and isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            member = self.guild.members.get(value.id)
            for guild in self.guilds.values():
                member = guild.members.get(value.id) or member
            if member is not None:
                member_data = member.payload(with_permissions=True)
                member_data.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member_data
            value = str(value.id)
        elif kind == 7 and isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id),
                "name": value.name,
                "type": value.type,
                "permissions": str(EVERYONE_PERMISSIONS),
            }
            value = str(value.id)
        elif kind in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            value = str(value.id)
        elif kind in (6, 7, 8, 9):
            raise ValueError(f"/{command} {name} takes a User/Channel/Role object, not {value!r}")
        if kind in (4, 10):
            low, high = d.get("min_value"), d.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(f"/{command} {name}={value} is outside {low}..{high}")
        choices = d.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"/{command} {name}={value!r} is not one of {[c['value'] for c in choices]}")
        return {"type": kind, "name": name, "value": value}

    def _check_command_permission(self, record: dict[str, Any], member: Member, check: bool) -> None:
        needed = record.get("default_member_permissions")
        if check and needed is not None:
            needed = int(needed)
            if member.permissions & needed != needed:
                raise PermissionError(f"{member.user.name} lacks the permissions /{record['name']} requires")

    # -- internals: state -----------------------------------------------------------------------

    def _new_message(
        self, channel: Channel, author: User, *, interaction: InteractionState | None = None
    ) -> Message:
        message = Message(snowflake(), channel.id, channel.guild_id, author)
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.interaction_type = interaction.type
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
        message.edited_timestamp = iso_now()
        self._message_event.set()
        self._gateway_event("MESSAGE_UPDATE", message)

    def _delete(self, message: Message) -> None:
        message.deleted = True
        self._message_event.set()
        if message.visible_to is None and self.session is not None and self.session.intents & GUILD_MESSAGES:
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                data["guild_id"] = str(message.guild_id)
            self._spawn(self.session.dispatch("MESSAGE_DELETE", data))

    def _gateway_event(self, name: str, message: Message) -> None:
        session = self.session
        if message.visible_to is not None or message.loading or session is None:
            return
        if message.guild_id is not None and not session.intents & GUILD_MESSAGES:
            return
        self._spawn(session.dispatch(name, message.payload()))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks = getattr(self, "_tasks", set())
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
        if guild_id is not None:
            record["guild_id"] = str(guild_id)
        return record

    def ready_payload(self, session: GatewaySession) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds.values()],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": [0, 1],
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

    # -- internals: HTTP ------------------------------------------------------------------------

    def _headers(self, route: SpecRoute | None, path: str) -> dict[str, str]:
        bucket = f"{route.template if route else path}".encode().hex()[:32]
        return {
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": "49",
            "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
            "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Scope": "user",
        }

    def _json(self, data: Any, status: int, headers: dict[str, str]) -> web.Response:
        if data is None and status < 300:
            return web.Response(status=204, headers=headers)
        return web.Response(
            status=status,
            body=json.dumps(data).encode(),
            headers={**headers, "Content-Type": "application/json"},
        )

    async def _handle_api(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        route = self.spec.match(method, path)
        record = RequestRecord(method, path, route.template if route else None, None)
        self.requests.append(record)
        headers = self._headers(route, path)
        forced = self._forced(method, path)
        if forced is not None:
            record.status = 429
            retry = forced["retry"]
            headers.update(
                {
                    "Via": "1.1 google",
                    "Retry-After": f"{retry}",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{retry}",
                }
            )
            return self._json(
                {"message": "You are being rate limited.", "retry_after": retry, "global": False},
                429,
                headers,
            )
        if route is None:
            status = 405 if self.spec.path_known(path) else 404
            self.violation(method, path, "no such route in Discord's API (OpenAPI spec)", status)
            record.status = status
            return self._json({"message": f"{status}: Not Found", "code": 0}, status, headers)
        try:
            body, files = await self._read_body(request)
        except ValueError as exc:
            self.violation(method, path, f"unreadable body: {exc}")
            record.status = 400
            return self._json(
                {"message": "The request body contains invalid JSON.", "code": 50109}, 400, headers
            )
        record.body, record.files = body, len(files)
        status, data = await self._dispatch(request, route, body, files)
        record.status = status
        return self._json(data, status, headers)

    async def _dispatch(
        self, request: web.Request, route: SpecRoute, body: Any, files: list
    ) -> tuple[int, Any]:
        method, path = request.method, request.path
        token_route = route.template.startswith(("/interactions/", "/webhooks/{webhook_id}/{webhook_token}"))
        if not token_route and request.headers.get("Authorization") != f"Bot {self.token}":
            return 401, {"message": "401: Unauthorized", "code": 0}
        if body is None and self.spec.body_required(route):
            self.violation(method, path, "a request body is required")
            return 400, {
                "message": "Invalid Form Body",
                "code": 50035,
                "errors": {"_errors": [{"code": "BASE_TYPE_REQUIRED"}]},
            }
        if body is not None:
            problems = self.spec.validate(route, body)
            if problems:
                self.violation(method, path, "OpenAPI schema: " + "; ".join(problems[:5]), 400, body)
                errors = {"_errors": [{"code": "OPENAPI_SCHEMA", "message": p} for p in problems[:10]]}
                return 400, {"message": "Invalid Form Body", "code": 50035, "errors": errors}
        handler = rest.HANDLERS.get((route.method, route.template))
        if handler is None:
            self.violation(
                method,
                path,
                f"route {route.method} {route.template} exists but the fake does not emulate it",
                501,
            )
            return 404, {"message": "404: Not Found (not emulated by the fake)", "code": 0}
        try:
            return 200, await handler(self, request, route.params, body if body is not None else {}, files)
        except rest.DiscordError as error:
            if error.record:
                detail = getattr(error, "details", "")
                self.violation(
                    method,
                    path,
                    f"{error.code} {error.message}" + (f": {detail}" if detail else ""),
                    error.status,
                    body,
                )
            return error.status, error.body()

    async def _read_body(self, request: web.Request) -> tuple[Any, list[rest.Upload]]:
        if not request.can_read_body:
            return None, []
        ctype = request.content_type
        if ctype == "multipart/form-data":
            return _parse_multipart(await request.read(), request.headers.get("Content-Type", ""))
        raw = await request.read()
        if not raw:
            return None, []
        if ctype != "application/json":
            raise ValueError(f"Content-Type {ctype!r}")
        return json.loads(raw), []

    def _forced(self, method: str, path: str) -> dict[str, Any] | None:
        for rule in self._forced_429:
            if rule["left"] > 0 and rule["re"].search(path) and rule["method"] in (None, method):
                rule["left"] -= 1
                return rule
        return None

    async def _handle_gateway(self, request: web.Request) -> web.WebSocketResponse:
        return await handle_gateway(self, request)

    async def _handle_attachment(self, request: web.Request) -> web.Response:
        attachment = self._attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )


_DISPOSITION = re.compile(r'\bname="([^"]*)"(?:; filename="([^"]*)")?')


def _parse_multipart(raw: bytes, content_type: str) -> tuple[Any, list[rest.Upload]]:
    """`payload_json` and `files[n]` parts of a multipart body (aiohttp's reader is slow here)."""
    match = re.search(r'boundary="?([^";]+)"?', content_type)
    if match is None:
        raise ValueError("multipart body without a boundary")
    delimiter = b"--" + match.group(1).encode()
    body: Any = None
    files: list[rest.Upload] = []
    for chunk in raw.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break
        head, sep, data = chunk.partition(b"\r\n\r\n")
        if not sep:
            raise ValueError("malformed multipart part")
        data = data.removesuffix(b"\r\n")
        disposition = next(
            (
                line
                for line in head.decode("utf-8", "replace").split("\r\n")
                if line.lower().startswith("content-disposition")
            ),
            "",
        )
        found = _DISPOSITION.search(disposition)
        name = found.group(1) if found else ""
        if name == "payload_json":
            body = json.loads(data)
        elif index := re.fullmatch(r"files\[(\d+)\]", name):
            files.append(
                rest.Upload(int(index.group(1)), (found.group(2) if found else None) or "file", data)
            )
        else:
            raise ValueError(f"unexpected multipart field {name!r}")
    return body, files
