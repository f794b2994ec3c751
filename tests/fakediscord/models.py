"""The fake's world: users, guilds, channels, members and stored messages, with their v10 payloads.

Everything here is plain data the tests can build and inspect; the payload methods produce the
JSON shapes discord.py 2.7.1 parses (gateway GUILD_CREATE, interaction `member`, REST messages).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits the tests and the fake care about (Discord's values).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

#: What @everyone may do in a fresh guild (read, write, embed, attach, use commands).
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)

EPHEMERAL = 1 << 6
IS_COMPONENTS_V2 = 1 << 15

_counter = itertools.count()


def snowflake() -> int:
    """A fresh, time-ordered snowflake, like Discord's (discord.py derives `created_at` from it)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    """The current time in Discord's ISO 8601 format."""
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)
class User:
    """A Discord account (a player, or the bot itself when `bot` is true)."""

    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"  # what /users/@me tells an Activity (oauth.py)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class Role:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Channel:
    """A guild text channel (type 0), a DM channel (type 1) or a group DM (type 3)."""

    id: int
    name: str
    guild_id: int | None = None
    type: int = 0
    position: int = 0
    recipients: list[User] = field(default_factory=list)  # a group DM's members

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "last_message_id": None, "flags": 0}
        if self.type == 3:
            data.update(name=self.name, owner_id=str(self.recipients[0].id), icon=None)
            data["recipients"] = [u.payload() for u in self.recipients]
        if self.guild_id is not None:
            data.update(
                guild_id=str(self.guild_id),
                name=self.name,
                position=self.position,
                permission_overwrites=[],
                topic=None,
                nsfw=False,
                rate_limit_per_user=0,
                parent_id=None,
            )
        return data


@dataclass(eq=False)
class Member:
    """A user's membership in a guild, with the roles that give it permissions."""

    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    @property
    def permissions(self) -> int:
        """Guild-level permissions: the owner and administrators get everything."""
        if self.user.id == self.guild.owner_id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def payload(self, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Guild:
    """A server with its channels, roles and members."""

    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    channels: list[Channel] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    #: False for a server that has not added the bot (players may still use their own install).
    bot_member: bool = True

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    def role(self, name: str, permissions: int) -> Role:
        """The role called `name`, created with `permissions` if the guild lacks it."""
        for role in self.roles:
            if role.name == name:
                return role
        role = Role(snowflake(), name, permissions, position=len(self.roles))
        self.roles.append(role)
        return role

    def channel(self, name: str) -> Channel:
        """The channel called `name` (raises LookupError if there is none)."""
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise LookupError(f"guild {self.name!r} has no channel #{name}")

    def payload(self, bot_user: User | None = None) -> dict[str, Any]:
        """The GUILD_CREATE payload discord.py needs to fill its cache."""
        members = list(self.members.values())
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "preferred_locale": self.locale,
            "features": [],
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in self.channels],
            "threads": [],
            "members": [m.payload() for m in members],
            "member_count": len(members),
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "lazy": True,
            "nsfw": False,
            "joined_at": iso_now(),
            "max_members": 500000,
            "max_video_channel_users": 25,
        }


@dataclass(eq=False)
class Attachment:
    """A file stored with a message; `data` holds the exact bytes the bot uploaded."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    def image(self):
        """The attachment decoded with Pillow (raises if it is not a valid image)."""
        from io import BytesIO

        from PIL import Image

        image = Image.open(BytesIO(self.data))
        image.load()
        return image

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        if (
            self.content_type == "image/png"
            and self.data[:8] == b"\x89PNG\r\n\x1a\n"
            and len(self.data) >= 24
        ):
            data["width"] = int.from_bytes(self.data[16:20], "big")
            data["height"] = int.from_bytes(self.data[20:24], "big")
        return data


@dataclass(eq=False)
class Message:
    """A message as the fake stores it; `visible_to` is the one user who sees an ephemeral one."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    interaction_id: int | None = None
    interaction_user: User | None = None
    interaction_type: int | None = None
    owners: dict[str, str] = field(default_factory=dict)  # the interaction's authorizing installs
    application_id: int | None = None
    webhook_id: int | None = None
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    edits: int = 0
    # The fake's loop time of each edit, for tests of how often a message is edited.
    edit_times: list[float] = field(default_factory=list)
    deleted: bool = False
    loading: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[str]:
        """Every custom_id in the message's components, in order."""
        found: list[str] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if "custom_id" in item:
                    found.append(item["custom_id"])
                walk(item.get("components") or [])
                if isinstance(item.get("accessory"), dict):
                    walk([item["accessory"]])

        walk(self.components)
        return found

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        """The component with this custom_id, or None."""

        def walk(items: list[dict[str, Any]]) -> dict[str, Any] | None:
            for item in items:
                if item.get("custom_id") == custom_id:
                    return item
                inner = list(item.get("components") or [])
                if isinstance(item.get("accessory"), dict):
                    inner.append(item["accessory"])
                hit = walk(inner)
                if hit is not None:
                    return hit
            return None

        return walk(self.components)

    def walk(self) -> list[dict[str, Any]]:
        """Every component, depth first (a container's, a section's accessory, a row's items)."""
        found: list[dict[str, Any]] = []

        def visit(items: list[dict[str, Any]]) -> None:
            for item in items:
                found.append(item)
                visit(list(item.get("components") or []))
                if isinstance(item.get("accessory"), dict):
                    visit([item["accessory"]])

        visit(self.components)
        return found

    def buttons(self) -> list[dict[str, Any]]:
        """All buttons (component type 2), row by row, wherever a v2 layout holds them."""
        return [c for c in self.walk() if c.get("type") == 2]

    @property
    def is_v2(self) -> bool:
        """Sent with the IS_COMPONENTS_V2 flag: its text is in text displays, its pictures in media."""
        return bool(self.flags & IS_COMPONENTS_V2)

    def texts(self) -> list[str]:
        """The content of each text display (type 10), in order."""
        return [c.get("content") or "" for c in self.walk() if c.get("type") == 10]

    def text(self) -> str:
        """Everything a player reads: content, text displays, embed titles, descriptions, fields
        and footers (a classic message and a v2 card alike)."""
        parts = [self.content, *self.texts()]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for fld in embed.get("fields") or []:
                parts += [fld.get("name") or "", fld.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(p for p in parts if p)

    def media(self) -> list[dict[str, Any]]:
        """Each media gallery item and thumbnail (`media.url`, `description`), in order."""
        found: list[dict[str, Any]] = []
        for c in self.walk():
            if c.get("type") == 12:
                found += c.get("items") or []
            elif c.get("type") == 11:
                found.append(c)
        return found

    def containers(self) -> list[dict[str, Any]]:
        """The containers (type 17) of a v2 layout."""
        return [c for c in self.walk() if c.get("type") == 17]

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": self.owners
                or ({"0": str(self.guild_id)} if self.guild_id else {}),
            }
        return data
