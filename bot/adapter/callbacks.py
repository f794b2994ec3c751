"""A pressed board's new picture, text and buttons (callback type 7) as one prebuilt request.

discord.py's ``InteractionResponse.edit_message`` costs about a third of a board press's CPU
in the bot process (issue 26): it builds a ``Route`` (quoting the token), an ``aiohttp.FormData``
written part by part by aiohttp's multipart writer, asks for the callback's resource
(``with_response``) and parses the message Discord sends back into a ``Message`` with a
``Button`` object per button, which nothing reads. Here the same JSON (the same fields, in
the same order) and the same picture go out as one ``multipart/form-data`` body through the
same aiohttp session, without ``with_response`` (Discord answers 204), and Discord's answers
are handled as discord.py's webhook adapter handles them: 429 and 5xx retried (at most five
tries), 403, 404 and the rest raised as ``discord.Forbidden``, ``discord.NotFound`` and
``discord.HTTPException``. The interaction is then marked answered, so everything after
(followups, ``is_done``) behaves as after ``edit_message``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any
from urllib.parse import quote

import aiohttp
import discord
from discord.utils import _parse_ratelimit_header, _to_json

log = logging.getLogger(__name__)

#: Tries of one callback when Discord answers 429 (through its proxy) or 5xx: discord.py's own.
ATTEMPTS = 5


async def pause(seconds: float) -> None:
    """The wait before a retry (discord.py's: 1 + 2 × try seconds after a 5xx; tests shorten it)."""
    await asyncio.sleep(seconds)


def update_body(payload: dict[str, Any], picture: bytes, filename: str) -> tuple[bytes, str]:
    """The ``multipart/form-data`` body (``payload_json``, then the file as ``files[0]``) and
    its Content-Type."""
    boundary = secrets.token_hex(16)
    head = (
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="payload_json"\r\n'
        "Content-Type: application/json\r\n\r\n"
        f"{_to_json(payload)}\r\n"
        f"--{boundary}\r\n"
        f'Content-Disposition: form-data; name="files[0]"; filename="{filename}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    return b"".join((head, picture, f"\r\n--{boundary}--\r\n".encode())), (
        f"multipart/form-data; boundary={boundary}"
    )


def update_payload(
    interaction: discord.Interaction,
    *,
    content: str,
    components: list[dict[str, Any]],
    filename: str,
    description: str | None,
) -> dict[str, Any]:
    """What ``edit_message(content=, attachments=[file], view=)`` sends (discord.py's
    ``interaction_message_response_params``), key for key."""
    attachment: dict[str, Any] = {"id": 0, "filename": filename}
    if description is not None:
        attachment["description"] = description
    data: dict[str, Any] = {"tts": False, "content": content, "components": components}
    mentions = interaction._state.allowed_mentions
    if mentions is not None:
        data["allowed_mentions"] = mentions.to_dict()
    data["attachments"] = [attachment]
    return {"type": discord.InteractionResponseType.message_update.value, "data": data}


async def update_message(
    interaction: discord.Interaction,
    *,
    content: str,
    components: list[dict[str, Any]],
    picture: bytes,
    filename: str,
    description: str | None,
) -> None:
    """Answer a component press by replacing its message (``edit_message``'s effect, not its
    cost). ``discord.InteractionResponded`` if it was answered already."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    if interaction.message is not None:  # as edit_message: a view stored for it stops tracking it
        interaction._state.prevent_view_updates_for(interaction.message.id)
    payload = update_payload(
        interaction, content=content, components=components, filename=filename, description=description
    )
    body, content_type = update_body(payload, picture, filename)
    url = (
        f"{discord.http.Route.BASE}/interactions/{interaction.id}/"
        f"{quote(interaction.token, safe='')}/callback"
    )
    await _post(interaction, url, body, content_type)
    response._response_type = discord.InteractionResponseType.message_update


async def _post(interaction: discord.Interaction, url: str, body: bytes, content_type: str) -> None:
    """discord.py's webhook adapter's answer to each status (``AsyncWebhookAdapter.request``)."""
    session: aiohttp.ClientSession = interaction._session
    http = interaction._state.http
    headers = {"Content-Type": content_type}
    last: aiohttp.ClientResponse | None = None  # the last answer, once every try is spent
    data: Any = None
    for attempt in range(ATTEMPTS):
        try:
            async with session.post(
                url, data=body, headers=headers, proxy=http.proxy, proxy_auth=http.proxy_auth
            ) as reply:
                last = reply
                log.debug(
                    "interaction %s: POST %s has returned status code %s", interaction.id, url, reply.status
                )
                data = await _json_or_text(reply)
                if reply.headers.get("X-Ratelimit-Remaining") == "0" and reply.status != 429:
                    # discord.py delays the interaction's next request (its followups) by as much
                    await pause(_parse_ratelimit_header(reply))
                if 200 <= reply.status < 300:
                    return
                if reply.status == 429:
                    if not reply.headers.get("Via"):  # not Discord's proxy: a ban, not a limit
                        raise discord.HTTPException(reply, data)
                    retry_after = float(data["retry_after"])
                    log.warning(
                        "interaction %s callback rate limited; retrying in %.2f s",
                        interaction.id,
                        retry_after,
                    )
                    await pause(retry_after)
                    continue
                if reply.status >= 500:
                    await pause(1 + attempt * 2)
                    continue
                if reply.status == 403:
                    raise discord.Forbidden(reply, data)
                if reply.status == 404:
                    raise discord.NotFound(reply, data)
                raise discord.HTTPException(reply, data)
        except OSError as exc:  # a connection reset (as discord.py: errno 54 and 10054 only)
            if attempt < ATTEMPTS - 1 and exc.errno in (54, 10054):
                await pause(1 + attempt * 2)
                continue
            raise
    assert last is not None
    if last.status >= 500:
        raise discord.DiscordServerError(last, data)
    raise discord.HTTPException(last, data)


async def _json_or_text(reply: aiohttp.ClientResponse) -> Any:
    text = await reply.text(encoding="utf-8")
    if text and reply.headers.get("Content-Type", "").startswith("application/json"):
        return discord.utils._from_json(text)
    return text
