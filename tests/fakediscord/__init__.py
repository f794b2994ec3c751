"""A local fake Discord (REST API v10 + gateway) for driving the real discord.py bot in tests.

Typical use (see `tests/conftest.py` for the fixtures)::

    async with FakeDiscord() as fake, fake.patch_discord():
        ...start a discord.py client with token fake.token...
        alice = fake.add_user("alice")
        result = await fake.slash(alice, "new", {"cells": 4})
        assert result.png().size[0] > 0

`BotProcess` runs `python -m bot` against it in a subprocess (for kill-and-restart tests).
"""

from .botproc import BotProcess
from .interactions import Choices, InteractionResult
from .models import MANAGE_GUILD, Attachment, Channel, Guild, Member, Message, Role, User
from .server import DEFAULT_TOKEN, FakeDiscord, Violation

__all__ = [
    "DEFAULT_TOKEN",
    "MANAGE_GUILD",
    "Attachment",
    "BotProcess",
    "Channel",
    "Choices",
    "FakeDiscord",
    "Guild",
    "InteractionResult",
    "Member",
    "Message",
    "Role",
    "User",
    "Violation",
]
