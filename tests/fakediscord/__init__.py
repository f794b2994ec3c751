"""A local fake Discord (REST API v10 + gateway) for driving the real discord.py bot in tests.

Fixtures (tests/conftest.py): `fake_discord` (started, this process's discord.py patched, fails
the test at teardown if any violation was recorded) and `bot_process` (a `BotProcess` for
`python -m bot`, not started).

World: `fake.guild`, `fake.channel` (#general), `fake.owner`, `fake.bot_user`;
`add_user(name)`, `add_member(user, guild=None, manage_guild=False, administrator=False)`,
`add_guild(name)`, `add_channel(guild, name)`.

Players (each returns once the reply is final; `wait="ack"` for the first response only):
`await fake.slash(user, "command" or "group sub", {option: value}, guild=, channel=, locale=, dm=False)`,
`await fake.click(user, message, custom_id)`, `await fake.select(user, message, custom_id, values)`,
`await fake.autocomplete(user, "command", {option: partial}, focused="option") -> Choices`,
`await fake.submit_modal(user, result_that_opened_it, {custom_id: text})`.
`InteractionResult`: `.type` (4/5/6/7/8/9), `.failed` (no answer within 3 s), `.message`,
`.content`, `.embeds`, `.components`, `.attachments` (bytes in `.data`), `.png()`, `.text()`,
`.ephemeral`, `.edited`, `.followups`, `.ack_ms`, `.elapsed_ms`, `wait_followups()`, `wait_edit()`.

Inspection: `fake.messages(channel=None, user=None)` (public, plus `user`'s ephemerals),
`fake.message(id)` (live: later edits show), `fake.attachment_bytes(message, i)`,
`await fake.wait_for_message(channel, check)`, `fake.commands(guild=None)`, `fake.requests`,
`fake.violations` / `take_violations()` / `assert_no_violations()`.

Shards: `FakeDiscord(shards=N)` (what `/gateway/bot` recommends); IDENTIFY's `shard: [id, count]`
gives a session its guilds only, `add_guild(name, shard=(id, count))` places a guild, interactions
go to the connection owning the guild's shard (`result.state.shard`), `fake.session_for(guild_id)`,
`fake.identified_shards`.

Control: `await fake.wait_until_ready(guild=None)`, `await fake.disconnect()` (forces a RESUME),
`fake.advance_clock(seconds)` (token expiry), `fake.rate_limit(path_regex)` (one 429),
`fake.env()` (DISCORD_TOKEN, BOULANGER_DISCORD_API_BASE, BOULANGER_DISCORD_GATEWAY),
`fake.patch_discord()` (Route.BASE and DiscordWebSocket.DEFAULT_GATEWAY, restored on exit).

Standalone: `python -m tests.fakediscord --port N` (prints its environment as JSON; JSON control
API under `/_fake/`, see control.py). Own cost: `python -m tests.fakediscord.bench`.
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
