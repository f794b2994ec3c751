"""A small JSON control API under `/_fake/` for driving a standalone fake from another process.

In-process tests and benchmarks call `FakeDiscord` methods directly; this exists so that
`python -m tests.fakediscord --port N` can be poked with curl or any HTTP client:

    GET  /_fake/state                      ids, URLs, token, connection counters
    POST /_fake/users        {"name"}      -> {"id"}
    POST /_fake/members      {"user_id", "manage_guild": false}
    POST /_fake/slash        {"user_id", "command", "options": {}, "locale": "en-US"}
    POST /_fake/click        {"user_id", "message_id", "custom_id"}
    POST /_fake/select       {"user_id", "message_id", "custom_id", "values": []}
    POST /_fake/autocomplete {"user_id", "command", "options": {}, "focused"}
    GET  /_fake/messages?channel_id=...    public messages, oldest first
    GET  /_fake/violations                 requests Discord would have refused
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .interactions import InteractionResult
from .models import Message

if TYPE_CHECKING:
    from .server import FakeDiscord


def message_json(message: Message | None) -> dict[str, Any] | None:
    if message is None:
        return None
    return {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
        "attachments": [{"filename": a.filename, "size": a.size, "url": a.url} for a in message.attachments],
        "ephemeral": message.ephemeral,
        "edits": message.edits,
        "deleted": message.deleted,
    }


def result_json(result: InteractionResult) -> dict[str, Any]:
    return {
        "interaction_id": str(result.id),
        "type": result.type,
        "failed": result.failed,
        "ephemeral": result.ephemeral,
        "ack_ms": result.ack_ms,
        "elapsed_ms": result.elapsed_ms,
        "message": message_json(result.message),
        "followups": [message_json(m) for m in result.followups],
        "choices": result.choices,
    }


def add_control_routes(app: web.Application, fake: FakeDiscord) -> None:
    def user(body: dict[str, Any]):
        return fake.users[int(body["user_id"])]

    def guarded(func: Callable[[web.Request], Awaitable[Any]]):
        async def handler(request: web.Request) -> web.Response:
            try:
                return web.json_response(await func(request))
            except (LookupError, ValueError, PermissionError, TimeoutError, AssertionError) as exc:
                return web.json_response({"error": f"{type(exc).__name__}: {exc}"}, status=400)

        return handler

    async def state(request: web.Request) -> Any:
        return {
            "api_base": fake.api_base,
            "gateway": fake.gateway_url,
            "token": fake.token,
            "application_id": str(fake.application_id),
            "guild_id": str(fake.guild.id),
            "channel_id": str(fake.channel.id),
            "owner_id": str(fake.owner.id),
            "connected": bool(fake.session and fake.session.connected),
            "identifies": fake.identifies,
            "resumes": fake.resumes,
            "commands": [c["name"] for c in [*fake.global_commands, *fake.commands(fake.guild)]],
        }

    async def users(request: web.Request) -> Any:
        return {"id": str(fake.add_user((await request.json())["name"]).id)}

    async def members(request: web.Request) -> Any:
        body = await request.json()
        fake.add_member(user(body), manage_guild=bool(body.get("manage_guild")))
        return {"ok": True}

    async def slash(request: web.Request) -> Any:
        body = await request.json()
        result = await fake.slash(
            user(body), body["command"], body.get("options") or {}, locale=body.get("locale", "en-US")
        )
        return result_json(result)

    async def click(request: web.Request) -> Any:
        body = await request.json()
        return result_json(await fake.click(user(body), int(body["message_id"]), body["custom_id"]))

    async def select(request: web.Request) -> Any:
        body = await request.json()
        result = await fake.select(user(body), int(body["message_id"]), body["custom_id"], body["values"])
        return result_json(result)

    async def autocomplete(request: web.Request) -> Any:
        body = await request.json()
        return list(
            await fake.autocomplete(user(body), body["command"], body.get("options") or {}, body["focused"])
        )

    async def messages(request: web.Request) -> Any:
        channel = int(request.query.get("channel_id", fake.channel.id))
        return [message_json(m) for m in fake.messages(channel)]

    async def violations(request: web.Request) -> Any:
        return [str(v) for v in fake.violations]

    app.router.add_get("/_fake/state", guarded(state))
    app.router.add_post("/_fake/users", guarded(users))
    app.router.add_post("/_fake/members", guarded(members))
    app.router.add_post("/_fake/slash", guarded(slash))
    app.router.add_post("/_fake/click", guarded(click))
    app.router.add_post("/_fake/select", guarded(select))
    app.router.add_post("/_fake/autocomplete", guarded(autocomplete))
    app.router.add_get("/_fake/messages", guarded(messages))
    app.router.add_get("/_fake/violations", guarded(violations))
