"""The gateway websocket: HELLO, IDENTIFY/READY, heartbeats, RESUME, member chunks, dispatches.

One `GatewaySession` outlives its socket so a client that lost its connection can RESUME and get
the events it missed; a new process IDENTIFYs and gets a fresh session (the old one of the same
shard is dropped).

Sharding: IDENTIFY may carry `shard: [id, count]` (default `[0, 1]`). A session then gets READY
and GUILD_CREATE for the guilds of its shard only, `(guild_id >> 22) % count == id`, and the fake
delivers a guild's events and interactions only to the session owning that guild's shard (DMs to
shard 0), like Discord.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41250
# Opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 3, 4, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
# Intents that need a switch in the developer portal.
PRIVILEGED_INTENTS = {1 << 1: "GUILD_MEMBERS", 1 << 8: "GUILD_PRESENCES", 1 << 15: "MESSAGE_CONTENT"}
GUILD_MESSAGES = 1 << 9


@dataclass(eq=False)
class GatewaySession:
    """A gateway session: its id, sequence, replay buffer and current socket (None while away)."""

    id: str
    intents: int
    seq: int = 0
    buffer: list[tuple[int, str]] = field(default_factory=list)
    socket: _Socket | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    identified_at: float = 0.0
    shard: tuple[int, int] = (0, 1)  # (id, count) from IDENTIFY

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session gets `guild_id`'s events (None: DMs, which go to shard 0)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    @property
    def connected(self) -> bool:
        return self.socket is not None and not self.socket.ws.closed

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send (or buffer for RESUME, if the socket is gone) one DISPATCH event."""
        self.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, text))
        del self.buffer[:-1000]
        if self.connected:
            await self.socket.send(text)


class _Socket:
    """One websocket connection, with zlib-stream compression when the client asked for it."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self._zlib = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()

    async def send(self, text: str) -> None:
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._zlib is None:
                    await self.ws.send_str(text)
                else:
                    data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
            except (ConnectionError, RuntimeError):
                log.debug("gateway send on a closing socket dropped")

    async def send_op(self, op: int, data: Any) -> None:
        await self.send(json.dumps({"op": op, "d": data}))


async def handle_gateway(fake: FakeDiscord, request: web.Request) -> web.WebSocketResponse:
    """The `/gateway` websocket endpoint."""
    ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
    await ws.prepare(request)
    fake.gateway_connections += 1
    sock = _Socket(ws, request.query.get("compress") == "zlib-stream")
    fake._sockets.add(sock)
    session: GatewaySession | None = None
    await sock.send_op(HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["fake-gateway"]})
    try:
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.BINARY:
                    fake.violation("GATEWAY", "/gateway", "binary frames are not accepted from clients")
                continue
            payload = json.loads(msg.data)
            op, data = payload.get("op"), payload.get("d")
            if op == HEARTBEAT:
                await sock.send_op(HEARTBEAT_ACK, None)
            elif op == IDENTIFY:
                session = await _identify(fake, sock, data or {})
                if session is None:
                    break
            elif op == RESUME:
                session = await _resume(fake, sock, data or {})
            elif op == REQUEST_MEMBERS:
                await _member_chunk(fake, session, data or {})
            elif op in (PRESENCE, VOICE):
                pass
            else:
                await ws.close(code=4001, message=b"Unknown opcode.")
    finally:
        fake._sockets.discard(sock)
        if session is not None and session.socket is sock:
            session.socket = None
    return ws


async def _identify(fake: FakeDiscord, sock: _Socket, data: dict[str, Any]) -> GatewaySession | None:
    if data.get("token") != fake.token:
        await sock.ws.close(code=4004, message=b"Authentication failed.")
        return None
    intents = int(data.get("intents") or 0)
    missing = [
        name
        for bit, name in PRIVILEGED_INTENTS.items()
        if intents & bit and not fake.privileged_intents & bit
    ]
    if missing:
        await sock.ws.close(code=4014, message=b"Disallowed intent(s).")
        fake.violation("GATEWAY", "/gateway", f"IDENTIFY asks for privileged intents not enabled: {missing}")
        return None
    shard = _shard(data.get("shard"))
    if shard is None:
        fake.violation("GATEWAY", "/gateway", f"IDENTIFY with an invalid shard: {data.get('shard')!r}")
        await sock.ws.close(code=4010, message=b"Invalid shard.")
        return None
    session = GatewaySession(id=uuid.uuid4().hex, intents=intents, socket=sock, shard=shard)
    session.identified_at = asyncio.get_running_loop().time()
    for old in [s for s in fake.sessions.values() if s.shard == shard]:
        fake.sessions.pop(old.id, None)  # a new process took the shard over
    fake.sessions[session.id] = session
    fake.session = session
    fake.identifies += 1
    fake.identified_shards.append(shard)
    await session.dispatch("READY", fake.ready_payload(session))
    for guild in fake.guilds.values():
        if session.owns(guild.id) and guild.bot_member:
            await session.dispatch("GUILD_CREATE", guild.payload())
    session.ready.set()
    fake._session_changed()
    return session


def _shard(value: Any) -> tuple[int, int] | None:
    """IDENTIFY's `shard` as (id, count); None if it is not a valid pair (Discord closes 4010)."""
    if value is None:
        return (0, 1)
    if not isinstance(value, list) or len(value) != 2 or not all(type(v) is int for v in value):
        return None
    shard_id, count = value
    if count < 1 or not 0 <= shard_id < count:
        return None
    return (shard_id, count)


async def _resume(fake: FakeDiscord, sock: _Socket, data: dict[str, Any]) -> GatewaySession | None:
    session = fake.sessions.get(data.get("session_id") or "")
    if data.get("token") != fake.token or session is None:
        await sock.send_op(INVALID_SESSION, False)
        return None
    if session.socket is not None and session.socket is not sock:
        await session.socket.ws.close(code=4000)
    session.socket = sock
    after = int(data.get("seq") or 0)
    for seq, text in list(session.buffer):
        if seq > after:
            await sock.send(text)
    await session.dispatch("RESUMED", {"_trace": ["fake-gateway"]})
    fake.resumes += 1
    fake.session = session
    fake._session_changed()
    return session


async def _member_chunk(fake: FakeDiscord, session: GatewaySession | None, data: dict[str, Any]) -> None:
    if session is None:
        return
    guild = fake.guilds.get(int(data.get("guild_id") or 0))
    if guild is None:
        return
    members = list(guild.members.values())
    if data.get("user_ids"):
        wanted = {int(u) for u in data["user_ids"]}
        members = [m for m in members if m.user.id in wanted]
    elif data.get("query"):
        members = [m for m in members if m.user.name.lower().startswith(data["query"].lower())]
    limit = int(data.get("limit") or 0)
    if limit:
        members = members[:limit]
    chunk: dict[str, Any] = {
        "guild_id": str(guild.id),
        "members": [m.payload() for m in members],
        "chunk_index": 0,
        "chunk_count": 1,
    }
    if data.get("nonce"):
        chunk["nonce"] = data["nonce"]
    await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
