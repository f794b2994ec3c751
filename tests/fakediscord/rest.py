"""REST route handlers of the fake, keyed by the OpenAPI path template they implement.

Each handler gets `(fake, request, params, body, files)` and returns a JSON-able value (or None
for 204). Refusals raise `DiscordError`, which the server turns into Discord's error JSON and, when
the request is one the real Discord would refuse, a recorded violation.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import components_v2, limits
from .interactions import (
    ACK_DEADLINE,
    ALLOWED_CALLBACKS,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    TOKEN_LIFETIME,
    UPDATE_MESSAGE,
    InteractionState,
)
from .models import EPHEMERAL, IS_COMPONENTS_V2, Attachment, Channel, Message, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord

LOADING = 1 << 7


@dataclass
class Upload:
    """One `files[n]` part of a multipart request."""

    index: int
    filename: str
    data: bytes


class DiscordError(Exception):
    """A refusal in Discord's shape; `record=False` for refusals that are not the bot's fault."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict | None = None, *, record: bool = True
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors, self.record = status, code, message, errors, record

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def invalid_form(problems: list[limits.Problem]) -> DiscordError:
    """HTTP 400, code 50035, with Discord's nested `errors` object built from the problems."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for key in problem.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    error = DiscordError(400, 50035, "Invalid Form Body", errors)
    error.details = "; ".join(map(str, problems))  # type: ignore[attr-defined]
    return error


Handler = Callable[..., Awaitable[Any]]
HANDLERS: dict[tuple[str, str], Handler] = {}


def route(method: str, template: str) -> Callable[[Handler], Handler]:
    def register(func: Handler) -> Handler:
        HANDLERS[(method, template)] = func
        return func

    return register


# -- session, gateway, identity ---------------------------------------------------------------


@route("GET", "/gateway")
async def get_gateway(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    return {"url": fake.gateway_url}


@route("GET", "/gateway/bot")
async def get_gateway_bot(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    return {
        "url": fake.gateway_url,
        "shards": fake.shard_count,
        "session_start_limit": {
            "total": 1000,
            "remaining": 999,
            "reset_after": 14400000,
            "max_concurrency": 1,
        },
    }


@route("GET", "/users/@me")
async def get_me(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    return {**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"}


@route("GET", "/oauth2/applications/@me")
@route("GET", "/applications/@me")
async def get_application(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    return fake.application_payload()


@route("GET", "/applications/{application_id}/activity-instances/{instance_id}")
async def get_activity_instance(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    """Who is in an Activity instance, and where (oauth.py launches them)."""
    _app(fake, params)
    fake.instance_checks += 1
    found = fake.activity_instances.get(params["instance_id"])
    if found is None:
        raise DiscordError(404, 10000, "Unknown Activity Instance", record=False)
    return {**found, "users": list(found["users"])}


@route("GET", "/users/{user_id}")
async def get_user(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    user = fake.users.get(_id(params["user_id"]))
    if user is None:
        raise DiscordError(404, 10013, "Unknown User")
    return user.payload()


@route("POST", "/users/@me/channels")
async def create_dm(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    user = fake.users.get(_id(body.get("recipient_id")))
    if user is None:
        raise DiscordError(404, 10013, "Unknown User")
    channel = fake.dm_channel(user)
    return {**channel.payload(), "recipients": [user.payload()]}


# -- guilds and channels ----------------------------------------------------------------------


@route("GET", "/guilds/{guild_id}")
async def get_guild(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    guild = fake.guilds.get(_id(params["guild_id"]))
    if guild is None:
        raise DiscordError(404, 10004, "Unknown Guild")
    data = guild.payload()
    for key in ("channels", "members", "threads", "presences", "voice_states"):
        data.pop(key, None)
    return data


@route("GET", "/guilds/{guild_id}/channels")
async def get_guild_channels(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    guild = fake.guilds.get(_id(params["guild_id"]))
    if guild is None:
        raise DiscordError(404, 10004, "Unknown Guild")
    return [c.payload() for c in guild.channels]


@route("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    guild = fake.guilds.get(_id(params["guild_id"]))
    if guild is None:
        raise DiscordError(404, 10004, "Unknown Guild")
    member = guild.members.get(_id(params["user_id"]))
    if member is None:
        raise DiscordError(404, 10007, "Unknown Member", record=False)
    return member.payload()


@route("GET", "/channels/{channel_id}")
async def get_channel(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    return _channel(fake, params).payload()


@route("POST", "/channels/{channel_id}/messages")
async def create_message(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    channel = _channel(fake, params)
    _check_message(body, files)
    if body.get("enforce_nonce") and body.get("nonce") is not None:  # Discord de-duplicates these
        earlier = fake.nonced_message(channel.id, str(body["nonce"]))
        if earlier is not None:
            return earlier.payload()
    message = fake._new_message(channel, fake.bot_user)
    _apply(fake, message, body, files, creating=True)
    if (body.get("message_reference") or {}).get("message_id"):
        message.type = 19
    fake._store(message)
    if body.get("enforce_nonce") and body.get("nonce") is not None:
        fake.remember_nonce(channel.id, str(body["nonce"]), message)
    return message.payload()


@route("GET", "/channels/{channel_id}/messages")
async def list_messages(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    channel = _channel(fake, params)
    limit = min(int(request.query.get("limit", 50)), 100)
    oldest_first = fake.messages(channel)
    if "before" in request.query:
        oldest_first = [m for m in oldest_first if m.id < _id(request.query["before"])]
    if "after" in request.query:
        # The `limit` messages right after the id, still returned newest first.
        after = [m for m in oldest_first if m.id > _id(request.query["after"])][:limit]
        return [m.payload() for m in reversed(after)]
    return [m.payload() for m in list(reversed(oldest_first))[:limit]]


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    return _channel_message(fake, params).payload()


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    message = _channel_message(fake, params)
    if message.author is not fake.bot_user:
        raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
    _check_message(body, files, message=message)
    _apply(fake, message, body, files)
    fake._edited(message)
    return message.payload()


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    fake._delete(_channel_message(fake, params))
    return None


# -- application commands ---------------------------------------------------------------------


@route("GET", "/applications/{application_id}/commands")
async def get_global_commands(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    _app(fake, params)
    return fake.global_commands


@route("PUT", "/applications/{application_id}/commands")
async def put_global_commands(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    _app(fake, params)
    _check_commands(body)
    if any(c["type"] == 4 for c in fake.global_commands) and not any(c.get("type") == 4 for c in body):
        # Discord keeps an Activity's entry point out of reach of a bulk overwrite that forgets it.
        raise DiscordError(
            400,
            50240,
            "You cannot remove this app's Entry Point command in a bulk update operation. Please include "
            "the Entry Point command in your update request or delete it separately.",
        )
    fake.global_commands = [fake._command_record(c, None, fake.global_commands) for c in body]
    fake.command_syncs.append(("global", len(body)))
    return fake.global_commands


@route("POST", "/applications/{application_id}/commands")
async def post_global_command(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    _app(fake, params)
    _check_commands([body])
    record = fake._command_record(body, None, fake.global_commands)
    fake.global_commands = [c for c in fake.global_commands if c["name"] != record["name"]] + [record]
    return record


@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def get_guild_commands(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    _app(fake, params)
    return fake.guild_commands.get(_guild(fake, params).id, [])


@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def put_guild_commands(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    _app(fake, params)
    guild = _guild(fake, params)
    _check_commands(body)
    old = fake.guild_commands.get(guild.id, [])
    fake.guild_commands[guild.id] = [fake._command_record(c, guild.id, old) for c in body]
    fake.command_syncs.append((guild.id, len(body)))
    return fake.guild_commands[guild.id]


@route("DELETE", "/applications/{application_id}/commands/{command_id}")
async def delete_global_command(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    _app(fake, params)
    before = len(fake.global_commands)
    fake.global_commands = [c for c in fake.global_commands if c["id"] != params["command_id"]]
    if len(fake.global_commands) == before:
        raise DiscordError(404, 10063, "Unknown application command")
    return None


# -- interactions and their webhook -----------------------------------------------------------


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
async def interaction_callback(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    state = fake._interactions.get(_id(params["interaction_id"]))
    if state is None or state.token != params["interaction_token"]:
        raise DiscordError(404, 10062, "Unknown interaction")
    if state.failed or fake.now() - state.created > ACK_DEADLINE:
        fake._fail(state)
        raise DiscordError(404, 10062, "Unknown interaction")
    if state.acknowledged:
        raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
    rtype = body.get("type")
    if rtype not in ALLOWED_CALLBACKS[state.type]:
        raise invalid_form(
            [
                limits.Problem(
                    ("type",),
                    "INTERACTION_CALLBACK_TYPE_INVALID",
                    f"Callback type {rtype} is not valid here.",
                )
            ]
        )
    data = body.get("data") or {}
    message = _callback_effect(fake, state, rtype, data, files)
    state.response_type = rtype
    state.acked_at = fake.loop_time()
    if state.deadline is not None:
        state.deadline.cancel()
    state.touch(fake.loop_time())
    if "with_response" not in request.query:
        return None
    interaction = {
        "id": str(state.id),
        "type": state.type,
        "response_message_loading": rtype == DEFERRED_CHANNEL_MESSAGE,
        "response_message_ephemeral": bool(message and message.ephemeral),
    }
    resource: dict[str, Any] = {"type": rtype}
    if message is not None:
        interaction["response_message_id"] = str(message.id)
        resource["message"] = message.payload()
    return {"interaction": interaction, "resource": resource}


def _callback_effect(
    fake: FakeDiscord, state: InteractionState, rtype: int, data: dict, files: list[Upload]
) -> Message | None:
    """Validate the callback data and apply it; nothing changes if it is refused."""
    channel = fake.channels[state.channel_id]
    if rtype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
        edited = state.source_message if rtype == UPDATE_MESSAGE else None
        _check_message(data, files, message=edited, prefix=("data",))
    elif rtype == AUTOCOMPLETE_RESULT:
        problems = limits.check_choices(data.get("choices"), state.focused_type)
        if problems:
            raise invalid_form(problems)
        state.choices = list(data["choices"])
        return None
    elif rtype == MODAL:
        _check_modal(data)
        state.modal = data
        return None
    if rtype == CHANNEL_MESSAGE:
        message = fake._new_message(channel, fake.bot_user, interaction=state)
        _apply(fake, message, data, files, creating=True)
        fake._store(message)
        fake._set_original(state, message.id)
        return message
    if rtype == DEFERRED_CHANNEL_MESSAGE:
        message = fake._new_message(channel, fake.bot_user, interaction=state)
        message.flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
        message.loading = True
        if message.flags & EPHEMERAL:
            message.visible_to = state.user.id
        fake._store(message)
        fake._set_original(state, message.id)
        return message
    source = state.source_message
    if source is None:  # a modal opened by a slash command: there is no message to update
        raise invalid_form(
            [limits.Problem(("type",), "INTERACTION_CALLBACK_TYPE_INVALID", "No message to update.")]
        )
    fake._set_original(state, source.id)
    if rtype == UPDATE_MESSAGE:
        _apply(fake, source, data, files)
        state.own_edits += 1
        fake._edited(source)
        return source  # Discord answers with the updated message
    return None


def _webhook_state(fake: FakeDiscord, params: dict[str, str]) -> InteractionState:
    state = fake._by_token.get(params["webhook_token"])
    if _id(params["webhook_id"]) != fake.application_id or state is None:
        raise DiscordError(404, 10015, "Unknown Webhook")
    if fake.now() - state.created > TOKEN_LIFETIME:
        raise DiscordError(401, 50027, "Invalid Webhook Token")
    if not state.acknowledged or state.type == AUTOCOMPLETE:
        raise DiscordError(404, 10015, "Unknown Webhook")
    return state


def _token_message(fake: FakeDiscord, state: InteractionState, message_id: str) -> Message:
    if message_id == "@original":
        mid = state.original_id
    else:
        mid = _id(message_id)
        if mid not in state.followup_ids and mid != state.original_id:
            mid = None
    message = fake._messages.get(mid) if mid is not None else None
    if message is None or message.deleted:
        raise DiscordError(404, 10008, "Unknown Message")
    return message


@route("POST", "/webhooks/{webhook_id}/{webhook_token}")
async def followup(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    state = _webhook_state(fake, params)
    _check_message(body, files)
    original = fake._messages.get(state.original_id) if state.original_id else None
    if original is not None and original.loading and not original.deleted:
        # After a "thinking…" defer, Discord turns the first followup into the response itself.
        # Whether it is ephemeral was said by the defer; a v2 layout is the followup's own.
        flags = int(body.get("flags") or 0) & IS_COMPONENTS_V2
        _apply(fake, original, {**body, "flags": flags}, files, creating=True)
        original.loading = False
        original.flags &= ~LOADING
        message = original
        state.own_edits += 1
        fake._edited(message)
    else:
        message = fake._new_message(fake.channels[state.channel_id], fake.bot_user, interaction=state)
        _apply(fake, message, body, files, creating=True)
        if message.flags & EPHEMERAL:
            message.visible_to = state.user.id
        fake._store(message)
    state.followup_ids.append(message.id)
    state.touch(fake.loop_time())
    return message.payload() if request.query.get("wait") in ("1", "true", "True") else None


@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def webhook_get(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    state = _webhook_state(fake, params)
    return _token_message(fake, state, params.get("message_id", "@original")).payload()


@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def webhook_edit(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    state = _webhook_state(fake, params)
    message = _token_message(fake, state, params.get("message_id", "@original"))
    _check_message(body, files, message=None if message.loading else message)
    _apply(fake, message, body, files)
    if message.loading:
        message.loading = False
        message.flags &= ~LOADING
    state.own_edits += 1
    fake._edited(message)
    state.touch(fake.loop_time())
    return message.payload()


@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def webhook_delete(fake: FakeDiscord, request: web.Request, params, body, files) -> Any:
    state = _webhook_state(fake, params)
    fake._delete(_token_message(fake, state, params.get("message_id", "@original")))
    state.touch(fake.loop_time())
    return None


# -- helpers ----------------------------------------------------------------------------------


def _id(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise DiscordError(
            400, 50035, "Invalid Form Body", {"_errors": [{"code": "NUMBER_TYPE_COERCE"}]}
        ) from None


def _app(fake: FakeDiscord, params: dict[str, str]) -> None:
    if _id(params["application_id"]) != fake.application_id:
        raise DiscordError(403, 50001, "Missing Access")


def _guild(fake: FakeDiscord, params: dict[str, str]):
    guild = fake.guilds.get(_id(params["guild_id"]))
    if guild is None:
        raise DiscordError(403, 50001, "Missing Access")
    return guild


def _channel(fake: FakeDiscord, params: dict[str, str]) -> Channel:
    channel = fake.channels.get(_id(params["channel_id"]))
    if channel is None:
        raise DiscordError(404, 10003, "Unknown Channel")
    if not fake.reachable(channel):  # a server without the bot, a group DM: only interactions reach
        raise DiscordError(403, 50001, "Missing Access")
    return channel


def _channel_message(fake: FakeDiscord, params: dict[str, str]) -> Message:
    channel = _channel(fake, params)
    message = fake._messages.get(_id(params["message_id"]))
    if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
        raise DiscordError(404, 10008, "Unknown Message")
    return message


def _check_commands(body: Any) -> None:
    problems = limits.check_commands(body)
    if problems:
        raise invalid_form(problems)


def _check_message(
    body: dict, files: list[Upload], *, message: Message | None = None, prefix: tuple = ()
) -> None:
    """Refuse a create (`message` None) or an edit of `message` as Discord would, changing nothing."""
    v2 = components_v2.is_v2(body, message)
    problems = limits.check_message(body, files=len(files), v2=v2)
    problems += components_v2.check_flag(body, message)
    if v2 and "components" in body:
        problems += components_v2.check_components(
            body.get("components") or [], _attachment_names(body, files, message)
        )
    if problems:
        raise invalid_form([limits.Problem((*prefix, *p.path), p.code, p.message) for p in problems])
    for upload in files:
        if len(upload.data) > limits.ATTACHMENT_SIZE_LIMIT:
            raise DiscordError(413, 40005, "Request entity too large")


def _attachment_names(body: dict, files: list[Upload], message: Message | None) -> set[str]:
    """The file names the message carries after this request (what `attachment://` may name)."""
    uploads = {u.index: u.filename for u in files}
    existing = {a.id: a.filename for a in message.attachments} if message is not None else {}
    described = body.get("attachments")
    if described is None:
        return set(uploads.values()) | set(existing.values())
    names: set[str] = set()
    for item in described:
        key = int(item["id"]) if str(item.get("id")).isdigit() else None
        if key in uploads:
            names.add(item.get("filename") or uploads.pop(key))
        elif key in existing:
            names.add(existing[key])
    return names | set(uploads.values())


def _check_modal(data: dict) -> None:
    problems = []
    if not 1 <= len(data.get("title") or "") <= 45:
        problems.append(
            limits.Problem(("data", "title"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length.")
        )
    if len(data.get("custom_id") or "") > limits.MAX_CUSTOM_ID:
        problems.append(
            limits.Problem(("data", "custom_id"), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        )
    if not 1 <= len(data.get("components") or []) <= 5:
        problems.append(
            limits.Problem(("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5.")
        )
    if problems:
        raise invalid_form(problems)


def _sniff(upload: Upload) -> str | None:
    if upload.data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    return mimetypes.guess_type(upload.filename)[0]


def _apply(
    fake: FakeDiscord, message: Message, body: dict, files: list[Upload], *, creating: bool = False
) -> None:
    """Apply a create/edit body (content, embeds, components, attachments, flags) to a message.

    Everything is computed first and assigned last, so a refused body changes nothing.
    """
    content = (body.get("content") or "") if "content" in body or creating else message.content
    embeds = list(body.get("embeds") or []) if "embeds" in body or creating else message.embeds
    components = _with_ids(list(body.get("components") or [])) if "components" in body or creating else None
    flags = message.flags
    if creating and body.get("flags"):
        flags |= int(body["flags"]) & (EPHEMERAL | (1 << 2) | (1 << 12) | IS_COMPONENTS_V2)
    elif body.get("flags"):  # an edit may set the v2 flag (never remove it: checked before)
        flags |= int(body["flags"]) & IS_COMPONENTS_V2
    uploads = {u.index: u for u in files}
    described = body.get("attachments")
    new_files: list[tuple[Upload, str | None, str | None]] = []
    kept: list[Attachment | int] = []
    if described is not None:
        existing = {a.id: a for a in message.attachments}
        for i, item in enumerate(described):
            key = item.get("id")
            key = int(key) if str(key).isdigit() else None
            if key in uploads:
                new_files.append((uploads.pop(key), item.get("filename"), item.get("description")))
                kept.append(len(new_files) - 1)
            elif key in existing:
                kept.append(existing[key])
            else:
                raise invalid_form(
                    [
                        limits.Problem(
                            ("attachments", i, "id"), "ATTACHMENT_NOT_FOUND", f"Unknown attachment {key}"
                        )
                    ]
                )
    else:
        kept = list(message.attachments)
    for upload in uploads.values():
        new_files.append((upload, None, None))
        kept.append(len(new_files) - 1)
    has_components = bool(components if components is not None else message.components)
    if not (content or embeds or has_components or kept):
        raise DiscordError(400, 50006, "Cannot send an empty message")
    made = [_attachment(fake, message, u, name, desc) for u, name, desc in new_files]
    message.content, message.embeds, message.flags = content, embeds, flags
    if components is not None:
        message.components = components
    message.attachments = [made[k] if isinstance(k, int) else k for k in kept]


def _attachment(
    fake: FakeDiscord,
    message: Message,
    upload: Upload,
    filename: str | None = None,
    description: str | None = None,
) -> Attachment:
    attachment = Attachment(snowflake(), filename or upload.filename, upload.data, description=description)
    attachment.content_type = _sniff(upload)
    attachment.url = f"{fake.base_url}/attachments/{message.channel_id}/{attachment.id}/{attachment.filename}"
    fake._attachments[attachment.id] = attachment
    return attachment


def _with_ids(components: list[dict]) -> list[dict]:
    """Discord numbers components that lack an `id`, depth first from 1."""
    counter = 0

    def walk(items: list[dict]) -> None:
        nonlocal counter
        for item in items:
            counter += 1
            item.setdefault("id", counter)
            walk(item.get("components") or [])

    walk(components)
    return components


__all__ = ["DEFERRED_UPDATE_MESSAGE", "HANDLERS", "DiscordError", "Upload", "invalid_form"]
