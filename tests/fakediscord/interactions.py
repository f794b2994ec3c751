"""Interactions the fake sends (slash commands, clicks, selects, autocomplete) and what came back.

`InteractionState` is the fake's bookkeeping for one interaction token (acknowledged? when?
which messages?); `InteractionResult` is the read-only view a test gets back from
`FakeDiscord.slash/click/select`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .models import Attachment, Message, User

# Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Callback types.
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

#: Which callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE},
}

ACK_DEADLINE = 3.0  # seconds Discord waits for the initial response
TOKEN_LIFETIME = 15 * 60.0  # seconds a token stays valid for followups and edits


@dataclass(eq=False)
class InteractionState:
    """The fake's record of one interaction and everything the bot did with its token."""

    id: int
    token: str
    type: int
    user: User
    guild_id: int | None
    channel_id: int
    created: float  # FakeDiscord.now() when sent
    sent_at: float  # loop.time() when sent, for latency figures
    source_message: Message | None = None  # the message whose component was used
    response_type: int | None = None
    acked_at: float | None = None
    failed: bool = False
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    edits_after_ack: int = 0  # edits of its reply's message by any route (another press's too)
    own_edits: int = 0  # of those, made by this interaction (type 7, or its own token after a defer)
    settled_at: float | None = None
    choices: list[dict[str, Any]] | None = None
    focused_type: int | None = None  # autocomplete: the focused option's type
    modal: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: asyncio.TimerHandle | None = None
    shard: tuple[int, int] = (0, 1)  # the gateway session (shard id, count) it was delivered to
    context: int = 0  # 0 a server, 1 the bot's DM, 2 another DM or a group DM
    owners: dict[str, str] = field(default_factory=dict)  # authorizing_integration_owners
    session_id: str = ""

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    def touch(self, now: float) -> None:
        """Something happened: wake waiters (and remember when the reply first became final)."""
        if self.settled_at is None and self.is_settled():
            self.settled_at = now
        self.changed.set()

    def is_settled(self) -> bool:
        """True once the player sees a final reply (not just 'thinking…') or the 3 s passed."""
        if self.failed:
            return True
        if self.response_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL):
            return True
        if self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            return self.edits_after_ack > 0 or bool(self.followup_ids)
        return False


class InteractionResult:
    """What a test sees after an interaction: the bot's response and the messages it produced.

    Attributes are live: they read the fake's stored messages, so later edits show up too.
    `message` is the reply the player sees: the response message for types 4/5, the edited
    message for 6/7 (or, after a bare type 6, the first followup).
    """

    def __init__(self, fake: Any, state: InteractionState) -> None:
        self._fake = fake
        self.state = state

    def __repr__(self) -> str:
        return (
            f"<InteractionResult type={self.type} failed={self.failed} ephemeral={self.ephemeral} "
            f"content={self.content!r} attachments={len(self.attachments)}>"
        )

    @property
    def id(self) -> int:
        return self.state.id

    @property
    def type(self) -> int | None:
        """The callback type the bot answered with (4, 5, 6, 7, 8 or 9), None if it never did."""
        return self.state.response_type

    @property
    def failed(self) -> bool:
        """True when the bot did not acknowledge within 3 s ("The application did not respond")."""
        return self.state.failed

    @property
    def deferred(self) -> bool:
        return self.type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def ack_ms(self) -> float | None:
        """Milliseconds from sending the interaction to the bot's initial response."""
        if self.state.acked_at is None:
            return None
        return (self.state.acked_at - self.state.sent_at) * 1000

    @property
    def elapsed_ms(self) -> float | None:
        """Milliseconds from sending the interaction to the final reply (after a defer: its edit)."""
        if self.state.settled_at is None:
            return None
        return (self.state.settled_at - self.state.sent_at) * 1000

    @property
    def message(self) -> Message | None:
        state = self.state
        if state.response_type in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            if state.edits_after_ack or not state.followup_ids:
                return state.source_message
            return self._fake.message(state.followup_ids[0])
        if state.original_id is not None:
            return self._fake.message(state.original_id)
        if state.followup_ids:
            return self._fake.message(state.followup_ids[0])
        return None

    @property
    def edited(self) -> Message | None:
        """The component's message when the bot edited it (types 6/7 or `edit_original_response`)."""
        if self.state.source_message is not None and self.state.edits_after_ack:
            return self.state.source_message
        return None

    @property
    def own_edits(self) -> int:
        """How often this interaction itself edited its message: a type 7 response, or its own
        token's edit after a defer. After a type 6 defer the pressed message is shared: another
        press's edit of it also counts in `edits_after_ack` (and makes `message` that board)."""
        return self.state.own_edits

    @property
    def followups(self) -> list[Message]:
        """Followup messages (`interaction.followup.send`), oldest first."""
        return [self._fake.message(mid) for mid in self.state.followup_ids]

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def attachments(self) -> list[Attachment]:
        return self.message.attachments if self.message else []

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices (callback type 8)."""
        return self.state.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9)."""
        return self.state.modal

    def text(self) -> str:
        """Everything a player reads of the message (`Message.text`): content, text displays, embeds."""
        return self.message.text() if self.message else ""

    def png(self, index: int = 0):
        """Attachment `index` decoded as a PNG with Pillow (fails the test if it is not one)."""
        attachment = self.attachments[index]
        assert attachment.data[:8] == b"\x89PNG\r\n\x1a\n", f"{attachment.filename} is not a PNG"
        return attachment.image()

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        """Wait until the bot sent at least `count` followups; returns them."""
        await self._fake._wait(
            self.state, lambda: len(self.state.followup_ids) >= count, timeout, "followups"
        )
        return self.followups

    async def wait_edit(self, edits: int = 1, timeout: float = 5.0) -> Message | None:
        """Wait until the response/source message was edited `edits` times after the acknowledgement."""
        await self._fake._wait(self.state, lambda: self.state.edits_after_ack >= edits, timeout, "edits")
        return self.message


class Choices(list):
    """Autocomplete choices (a list of {"name", "value"}), with the response time in `elapsed_ms`."""

    elapsed_ms: float | None = None

    def names(self) -> list[str]:
        return [c["name"] for c in self]

    def values(self) -> list[Any]:
        return [c["value"] for c in self]
