"""Playing anywhere (issue 24): a player who installed the app to their own account plays in a
group DM and in a server that has not added the bot, through the real bot against the fake."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

import engine
from bot.adapter.app import BoulangerBot
from bot.games.bakers import shipped_winnable
from bot.running.config import Config
from tests.fakediscord import FakeDiscord
from tests.test_bot_discord import button, eventually, menu_id

PLAYER = {"integration_types": [0, 1], "contexts": [0, 1, 2]}
SERVER_FEATURE = {"integration_types": [0, 1], "contexts": [0]}  # answers why where the bot is not
ADMIN = {"integration_types": [0], "contexts": [0]}


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, db: Path):
    config = Config(token=fake.token, db_path=db, sync_global=True, hint_seconds=2.0, daily_check_seconds=0.2)
    bot = BoulangerBot(config, guild_ready_timeout=0.1)
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_until_ready()
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        await eventually(lambda: bool(fake.global_commands), timeout=10)
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


@pytest.fixture
async def bot(fake_discord, tmp_path):
    async with running(fake_discord, tmp_path / "bot.sqlite3") as b:
        yield b


def channel_calls(fake: FakeDiscord, *channels) -> list[str]:
    """The bot's requests to these channels' endpoints (it may use none of them)."""
    ids = {str(c.id) for c in channels}
    return [f"{r.method} {r.path}" for r in fake.requests if any(f"/channels/{i}" in r.path for i in ids)]


async def test_synced_commands_carry_their_installs_and_contexts(fake_discord, bot):
    synced = {c["name"]: c for c in fake_discord.global_commands}
    for name in ("boulanger", "calculation", "move", "undo", "hint", "resign", "board", "code", "daily"):
        assert {k: synced[name][k] for k in PLAYER} == PLAYER, name
    for name in ("stats", "rules", "help", "language", "settings", "leaderboard"):
        assert {k: synced[name][k] for k in PLAYER} == PLAYER, name
    for name in ("race", "dailychannel"):
        assert {k: synced[name][k] for k in PLAYER} == SERVER_FEATURE, name
    assert {k: synced["serverlanguage"][k] for k in PLAYER} == ADMIN
    fake_discord.assert_no_violations()


async def test_the_fake_checks_synced_installs_and_contexts_against_the_spec(fake_discord):
    import aiohttp

    url = f"{fake_discord.api_base}/applications/{fake_discord.application_id}/commands"
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession() as http:
        for bad in ({"contexts": [0, 3]}, {"integration_types": [1, 1]}, {"integration_types": []}):
            body = [{"name": "x", "description": "d", "type": 1, **bad}]
            async with http.put(url, json=body, headers=headers) as answer:
                assert answer.status == 400, bad
    assert len(fake_discord.take_violations()) == 3


async def test_without_a_user_install_nothing_is_offered_where_the_bot_is_not(fake_discord, bot):
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    group = fake_discord.add_group_dm("friends", alice, bob)
    with pytest.raises(PermissionError, match="not installed here"):
        await fake_discord.slash(alice, "boulanger", {}, channel=group)
    fake_discord.install_app(alice)
    with pytest.raises(PermissionError, match="not available in group DMs"):
        await fake_discord.slash(alice, "race", {"game": "bakers"}, channel=group)
    with pytest.raises(PermissionError, match="not available in group DMs"):
        await fake_discord.slash(alice, "serverlanguage", {"language": "nl"}, channel=group)


async def win_by_presses_and_moves(fake: FakeDiscord, bot, user, board, code: str) -> int:
    """Win ``code`` from its board: Home and place presses, every other single move typed as
    /move (answered privately, the board edited through its interaction). Typed moves count."""
    from engine.solver import solve
    from tests.presses import presses

    typed = 0
    for i, step in enumerate(presses(code, solve(engine.new_game(code), time_limit=20).moves)):
        current = fake.message(board.id)
        if step.kind == "menu" or (step.kind == "place" and i % 3 == 0):
            row = await bot.store.active_game(user.id, "bakers")
            game = engine.replay(code, row.moves)
            notation = step.value if step.kind == "menu" else game.double_tap_target(step.value)
            edits = current.edits
            answer = await fake.slash(
                user, "move", {"notation": notation}, channel=fake.channels[board.channel_id]
            )
            assert answer.ephemeral and "Played" in answer.text(), answer.text()
            await eventually(lambda before=edits: fake.message(board.id).edits > before)  # its token
            typed += 1
        elif step.kind == "menu":
            await fake.select(user, current, menu_id(current), [step.value])
        else:
            pressed = await fake.click(user, current, button(current, step.value or "h"))
            assert pressed.type == 7 and not pressed.ephemeral, pressed  # UPDATE_MESSAGE
    await eventually(lambda: "Won in" in fake.message(board.id).text())
    return typed


@pytest.mark.slow
async def test_a_user_install_plays_and_wins_in_a_group_dm(fake_discord, bot):
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    fake_discord.install_app(alice)
    group = fake_discord.add_group_dm("friends", alice, bob)
    code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
    started = await fake_discord.slash(alice, "boulanger", {"code": code}, channel=group)
    assert not started.ephemeral and started.png().size[0] >= 400
    board = started.message
    assert board.channel_id == group.id and board.interaction_id == started.id  # a reply

    async def recorded() -> bool:
        row = await bot.store.active_game(alice.id, "bakers")
        return row.message_id == board.id and row.channel_id is None  # no channel it may call

    await eventually(recorded)
    typed = await win_by_presses_and_moves(fake_discord, bot, alice, board, code)
    assert typed > 0
    assert (await bot.store.player_stats(alice.id, "bakers")).won == 1
    assert [m.id for m in fake_discord.messages(group) if m.attachments] == [board.id]  # one board
    assert channel_calls(fake_discord, group) == []
    fake_discord.assert_no_violations()


async def test_a_user_install_plays_the_daily_in_a_server_without_the_bot(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    fake_discord.install_app(alice)
    elsewhere = fake_discord.add_guild("No bot here", bot=False)
    channel = elsewhere.channels[0]
    assert bot.get_guild(elsewhere.id) is None
    started = await fake_discord.slash(alice, "daily", {"game": "bakers"}, channel=channel)
    assert not started.ephemeral and started.attachments
    await eventually(lambda: bot.store.active_game(alice.id, "bakers"))
    await asyncio.sleep(0.2)  # the board's message is recorded just after the reply
    row = await bot.store.active_game(alice.id, "bakers")
    assert row.source == "daily" and row.guild_id == elsewhere.id and row.channel_id is None
    await win_by_presses_and_moves(fake_discord, bot, alice, started.message, row.code)
    board = await fake_discord.slash(alice, "leaderboard", {"game": "bakers"}, channel=channel)
    assert "everyone everywhere" in board.text() and f"<@{alice.id}>" in board.text()
    dm = await fake_discord.slash(alice, "stats", {"game": "bakers"}, dm=True)  # the same player
    assert "Played 1, won 1" in dm.text(), dm.text()
    assert channel_calls(fake_discord, *elsewhere.channels) == []
    fake_discord.assert_no_violations()


async def test_features_that_need_the_bot_in_the_server_say_so_in_one_line(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    fake_discord.install_app(alice)
    elsewhere = fake_discord.add_guild("No bot here", owner=alice, bot=False)
    channel = elsewhere.channels[0]
    answers = [
        await fake_discord.slash(alice, "race", {"game": "bakers"}, channel=channel),
        await fake_discord.slash(alice, "dailychannel", {"channel": channel}, channel=channel),
        await fake_discord.slash(
            alice, "leaderboard", {"game": "bakers", "scope": "channel"}, channel=channel
        ),
        await fake_discord.slash(
            alice, "leaderboard", {"game": "bakers", "period": "races"}, channel=channel
        ),
    ]
    for answer in answers:
        assert answer.ephemeral and "\n" not in answer.text(), answer.text()
        assert "Boulanger in this server" in answer.text() or "Boulanger in the server" in answer.text()
        assert f"client_id={fake_discord.application_id}" in answer.text()  # how: the server link
    group = fake_discord.add_group_dm("friends", alice)
    lb = await fake_discord.slash(alice, "leaderboard", {"game": "bakers", "period": "all"}, channel=group)
    assert lb.ephemeral and "scope: Everywhere" in lb.text()
    assert (await bot.store.guild_settings(elsewhere.id)).daily_channel_id is None  # nothing stored
    assert channel_calls(fake_discord, channel, group) == []
    fake_discord.assert_no_violations()


async def test_a_typed_move_after_the_token_expired_answers_with_the_new_board(fake_discord, bot):
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    fake_discord.install_app(alice)
    group = fake_discord.add_group_dm("friends", alice, bob)
    first = await fake_discord.slash(alice, "boulanger", {"code": "BK1-C4-AAAAA24"}, channel=group)
    game = engine.new_game("BK1-C4-AAAAA24")
    move = game.legal_moves()[0]

    async def recorded() -> bool:
        return (await bot.store.active_game(alice.id, "bakers")).message_id == first.message.id

    await eventually(recorded)
    clock = bot.service.boards.clock
    bot.service.boards.clock = lambda: clock() + 15 * 60  # the board's interaction is spent
    fake_discord.advance_clock(15 * 60)
    answer = await fake_discord.slash(alice, "move", {"notation": move}, channel=group)
    assert not answer.ephemeral and answer.attachments and "Played" in answer.text()
    assert answer.message.id != first.message.id and answer.components  # the board moved here

    async def moved() -> bool:
        return (await bot.store.active_game(alice.id, "bakers")).message_id == answer.message.id

    await eventually(moved)
    assert channel_calls(fake_discord, group) == []
    fake_discord.assert_no_violations()


async def test_a_board_moved_to_a_group_dm_is_the_one_a_move_in_the_server_edits(fake_discord, bot):
    """Started where the bot is, shown again in a group DM: a /move in the server edits the group
    DM's board (through its interaction), not the server's old one, whose buttons came off."""
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    fake_discord.install_app(alice)
    group = fake_discord.add_group_dm("friends", alice, bob)
    first = await fake_discord.slash(alice, "boulanger", {"code": "BK1-C4-AAAAA24"})

    async def shown_at(message_id: int) -> bool:
        return (await bot.store.active_game(alice.id, "bakers")).message_id == message_id

    await eventually(lambda: shown_at(first.message.id))
    again = await fake_discord.slash(alice, "board", {}, channel=group)
    await eventually(lambda: shown_at(again.message.id))
    await eventually(lambda: not fake_discord.message(first.message.id).custom_ids())  # moved
    move = engine.new_game("BK1-C4-AAAAA24").legal_moves()[0]
    before = fake_discord.message(first.message.id).edits
    answer = await fake_discord.slash(alice, "move", {"notation": move})
    assert answer.ephemeral and "Played" in answer.text()
    await eventually(lambda: "1 move" in fake_discord.message(again.message.id).text())
    assert fake_discord.message(first.message.id).edits == before
    assert channel_calls(fake_discord, group) == []
    fake_discord.assert_no_violations()


def test_a_boards_interaction_is_used_for_14_minutes_and_only_on_its_message():
    from bot.play.boards import BoardMessages

    now = [0.0]
    boards = BoardMessages(clock=lambda: now[0])
    boards.through(1, 10, "token")
    assert boards.handle(1, 10) == "token" and boards.handle(1, 11) is None and boards.handle(2, 10) is None
    now[0] = 14 * 60 - 1
    assert boards.handle(1, 10) == "token"
    now[0] = 14 * 60
    assert boards.handle(1, 10) is None
