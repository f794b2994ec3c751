"""Acting as players: slash commands, button clicks, selects, autocomplete and modals.

`PlayerActions` is mixed into `FakeDiscord`. Each action is checked the way Discord's own client
would check it (registered command, option types and ranges, visible message, existing enabled
component), sent over the gateway as INTERACTION_CREATE, and awaited as an `InteractionResult`.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from typing import Any

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

#: What the bot may do in every channel (sent as `app_permissions`).
BOT_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY | MANAGE_MESSAGES
)
#: What a user-installed app's replies may carry where the bot is no member.
USER_APP_PERMISSIONS = EMBED_LINKS | ATTACH_FILES


class PlayerActions:
    """Player-side actions of the fake (mixed into FakeDiscord)."""

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
        dm: bool = False,
    ) -> InteractionResult:
        """Run `/command` (use "group sub" for subcommands) as `user`; returns the bot's reply.

        Options are checked against the registered command like Discord's client does (unknown
        or missing required options, choices, ranges raise ValueError; an unregistered command
        raises LookupError; a member lacking `default_member_permissions` gets PermissionError).
        `dm=True` runs it in the user's DM with the bot (global commands allowed in DMs only);
        `channel` may be a group DM (`add_group_dm`) or a channel of a server without the bot
        (`add_guild(bot=False)`): there only a user install (`install_app`) offers commands, and
        each command only in the contexts it was synced with (`integration_types`, `contexts`).
        `wait=True` waits until the reply is final (after a defer: its edit or first followup),
        `wait="ack"` only for the initial response, `wait=False` not at all.
        """
        guild, channel = self._where(user, guild, channel, dm)
        record, options_payload, resolved = self._command_options(command, options or {}, guild, None)
        self._check_available(record, user, guild, channel)
        if guild is not None:
            self._check_command_permission(record, guild.members[user.id], check_permissions)
        return await self._command(
            record, options_payload, resolved, command, user, guild, channel, locale, wait, timeout
        )

    async def slash_raw(
        self,
        user: User,
        command: str,
        options: list[dict[str, Any]],
        *,
        resolved: dict[str, Any] | None = None,
        guild: Guild | None = None,
        channel: Channel | None = None,
        locale: str = "en-US",
        wait: bool | str = True,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """`/command` with `options` sent exactly as given (Discord-shaped: name, type, value).

        What a modified client could make Discord's API carry, and Discord's own client never
        sends: a choice outside the list, a number out of range, an id that `resolved` does
        not hold, a missing required option. Unlike `slash`, nothing is checked."""
        guild, channel = self._where(user, guild, channel, False)
        record = self._find_command(command.strip().lstrip("/").split()[0], guild)
        return await self._command(
            record, options, resolved, command, user, guild, channel, locale, wait, timeout
        )

    async def _command(
        self,
        record: dict[str, Any],
        options: list[dict[str, Any]],
        resolved: dict[str, Any] | None,
        command: str,
        user: User,
        guild: Guild | None,
        channel: Channel,
        locale: str,
        wait: bool | str,
        timeout: float,
    ) -> InteractionResult:
        """The APPLICATION_COMMAND interaction of `record` with these options, as Discord sends it."""
        data: dict[str, Any] = {"id": record["id"], "name": record["name"], "type": 1, "options": options}
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
        dm: bool = False,
    ) -> Choices:
        """Type into option `focused` of `/command` (its partial text is `options[focused]`).

        Returns the bot's choices (a list of {"name", "value"} with `.elapsed_ms`); raises
        AssertionError if the bot did not answer within 3 s.
        """
        guild, channel = self._where(user, guild, channel, dm)
        record, options_payload, _ = self._command_options(command, options, guild, focused)
        self._check_available(record, user, guild, channel)
        data: dict[str, Any] = {
            "id": record["id"],
            "name": record["name"],
            "type": 1,
            "options": options_payload,
        }
        if record.get("guild_id"):
            data["guild_id"] = record["guild_id"]
        state = await self._send_interaction(AUTOCOMPLETE, user, guild, channel, data, locale=locale)
        state.focused_type = _focused_type(options_payload)
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

    async def press(
        self,
        user: User,
        message: Message | int,
        custom_id: str,
        *,
        component_type: int = 2,
        values: list[Any] | None = None,
        locale: str = "en-US",
        wait: bool | str = True,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """A component interaction with any custom id, sent with `message` as it is *now*.

        What Discord sends for a fast second tap (the button was on the message before the
        first tap redrew it) and what a modified client can send: unlike `click`, the id
        need not be on the message, nor the type match its component. `values` is sent as
        given (a select menu's choices, even ones Discord would refuse).
        """
        msg = self._usable_message(
            user, self.message(message.id if isinstance(message, Message) else message)
        )
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        component = msg.find_component(custom_id)
        if component is not None and component.get("id") is not None:
            data["id"] = component["id"]
        if values is not None or component_type != 2:
            data["values"] = list(values or [])
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
        guild = self.guilds.get(origin.guild_id) if origin.guild_id is not None else None
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
        guild = self.guilds.get(msg.guild_id) if msg.guild_id is not None else None
        if guild is not None:
            self.add_member(user, guild)
        state = await self._send_interaction(
            MESSAGE_COMPONENT, user, guild, channel, data, message=msg, locale=locale
        )
        return await self._result(state, wait, timeout)

    async def _send_interaction(
        self,
        itype: int,
        user: User,
        guild: Guild | None,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        locale: str = "en-US",
    ) -> InteractionState:
        # Only the connection owning the guild's shard gets it (a DM: shard 0), as on Discord.
        session = await self.wait_until_ready(guild=guild, dm=guild is None)
        context, owners = self._context(user, guild, channel)
        if message is not None and message.owners:
            owners = dict(message.owners)  # a component: the installs of the interaction that made it
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
            "channel_id": str(channel.id),
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
        }
        if guild is not None:
            member = guild.members[user.id]
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                channel={**channel.payload(), "permissions": str(member.permissions)},
                member=member.payload(with_permissions=True),
                guild_locale=guild.locale,
                app_permissions=str(
                    BOT_PERMISSIONS | guild.everyone.permissions
                    if guild.bot_member
                    else USER_APP_PERMISSIONS  # only the player's install: no member's rights
                ),
                authorizing_integration_owners=owners,
                context=context,
            )
        elif channel.type == 1:  # the bot's DM with the user
            payload.update(
                channel={**channel.payload(), "recipients": [user.payload()]},
                user=user.payload(),
                app_permissions=str(BOT_PERMISSIONS),
                authorizing_integration_owners=owners,
                context=context,
            )
        else:  # a group DM: the bot is no member, only the player's install answers
            payload.update(
                channel=channel.payload(),
                user=user.payload(),
                app_permissions=str(USER_APP_PERMISSIONS),
                authorizing_integration_owners=owners,
                context=context,
            )
        if message is not None:
            payload["message"] = message.payload()
        state = InteractionState(
            id=iid,
            token=token,
            type=itype,
            user=user,
            guild_id=guild.id if guild is not None else None,
            channel_id=channel.id,
            created=self.now(),
            sent_at=self.loop_time(),
            source_message=message,
            shard=session.shard,
            session_id=session.id,
            context=context,
            owners=owners,
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
                hint = ""
                if state.response_type in (5, 6):
                    hint = (
                        f"; it deferred (type {state.response_type}) but neither edited the response nor "
                        "sent a followup (pass wait='ack' if acknowledging alone is intended)"
                    )
                raise TimeoutError(
                    f"the bot did not send {what} to interaction {state.id} within {timeout} s "
                    f"(response type so far: {state.response_type}){hint}"
                )
            state.changed.clear()
            if done():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(state.changed.wait(), remaining)

    def _where(
        self, user: User, guild: Guild | None, channel: Channel | None, dm: bool
    ) -> tuple[Guild | None, Channel]:
        """The guild (None in a DM) and channel an interaction happens in; joins `user` to the guild."""
        if dm:
            return None, self.dm_channel(user)
        if guild is None and channel is not None and channel.guild_id is None:
            return None, channel  # a group DM
        if guild is None and channel is not None:
            guild = self.guilds[channel.guild_id]
        guild = guild or self.guild
        self.add_member(user, guild)
        return guild, channel or guild.channels[0]

    def _context(self, user: User, guild: Guild | None, channel: Channel) -> tuple[int, dict[str, str]]:
        """The interaction's `context` (0 server, 1 bot DM, 2 group DM) and
        `authorizing_integration_owners` ("0": the server that installed the app, "1": the user)."""
        owners: dict[str, str] = {}
        if guild is not None:
            context = 0
            if guild.bot_member:
                owners["0"] = str(guild.id)
        elif channel.type == 1:
            context = 1
            owners["0"] = "0"  # Discord's value for a guild install used in the bot's DM
        else:
            context = 2
        if user.id in self.user_installs:
            owners["1"] = str(user.id)
        return context, owners

    def _check_available(
        self, record: dict[str, Any], user: User, guild: Guild | None, channel: Channel
    ) -> None:
        """Discord's client offers a command only where one of its installs is present and its
        `contexts` include this place (a guild command: its guild, guild install only)."""
        context, owners = self._context(user, guild, channel)
        if record.get("guild_id"):
            types, contexts = [0], [0]
        else:
            types = record.get("integration_types") or [0]
            contexts = record.get("contexts")
            if contexts is None:  # not given: servers, and DMs unless dm_permission is false
                contexts = [0] if record.get("dm_permission") is False else [0, 1]
        installed = {int(k) for k in owners} & set(types)
        if context == 1 and "0" in owners and 0 in types and record.get("dm_permission") is False:
            installed.discard(0)
        names = {0: "a server", 1: "DMs", 2: "group DMs"}
        if context not in contexts:
            raise PermissionError(f"/{record['name']} is not available in {names[context]}")
        if not installed:
            raise PermissionError(
                f"/{record['name']} is not installed here (integration_types {types}; "
                f"installs present: {sorted(int(k) for k in owners)})"
            )

    def _find_command(self, name: str, guild: Guild | None) -> dict[str, Any]:
        scoped = self.guild_commands.get(guild.id, []) if guild is not None else []
        for record in [*scoped, *self.global_commands]:
            if record["name"] == name and record.get("type", 1) == 1:
                return record
        known = sorted({c["name"] for c in [*scoped, *self.global_commands]})
        where = f"guild {guild.name!r}" if guild is not None else "DMs (global commands only)"
        raise LookupError(f"/{name} is not registered (for {where}); registered: {known}")

    def _command_options(
        self, command: str, options: dict[str, Any], guild: Guild | None, focused: str | None
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
        values = [
            self._option(command, d, options, resolved, focused, guild) for d in defs if d["name"] in options
        ]
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
        guild: Guild | None,
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
            member = guild.members.get(value.id) if guild is not None else None
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


def _focused_type(options: list[dict[str, Any]]) -> int | None:
    """The option type (3 string, 4 integer, 10 number) of the focused option, however nested."""
    for option in options:
        if option.get("focused"):
            return option["type"]
        found = _focused_type(option.get("options") or [])
        if found is not None:
            return found
    return None
