"""The real bot, in this process, against the local fake Discord: what a player sees and presses."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import io
from pathlib import Path

import pytest
from PIL import Image

import engine
from bot.adapter.app import BoulangerBot
from bot.games import front_for
from bot.play import dailycodes
from bot.play.starting import StartRequest
from bot.running.config import Config
from tests.fakediscord import FakeDiscord

CODE = "BK1-C4-AAAAA24"


def make_config(fake: FakeDiscord, db: Path, **overrides) -> Config:
    return Config(
        token=fake.token,
        db_path=db,
        dev_guild_id=fake.guild.id,
        hint_seconds=2.0,
        daily_check_seconds=0.2,
        **overrides,
    )


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, db: Path, **overrides):
    bot = BoulangerBot(make_config(fake, db, **overrides), guild_ready_timeout=0.1)
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_until_ready()
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


@pytest.fixture
async def bot(fake_discord, tmp_path):
    async with running(fake_discord, tmp_path / "bot.sqlite3") as b:
        yield b


def quick_5xx_retries(monkeypatch) -> None:
    """discord.py waits 1 + 2 × try seconds between its 5xx retries: not in a test."""
    import discord.http

    class QuickRetries:
        def __getattr__(self, name: str):
            return getattr(asyncio, name)

        async def sleep(self, delay: float, result=None):
            return await asyncio.sleep(min(delay, 0.01), result)

    monkeypatch.setattr(discord.http, "asyncio", QuickRetries())


async def eventually(check, timeout: float = 3.0) -> None:
    """Wait for something the bot does just after its reply (e.g. tidying an old message).

    `check` may return a bool or an awaitable of one (a coroutine function, or a lambda that
    calls one): an awaitable is awaited, never taken as a true value."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        outcome = check()
        if inspect.isawaitable(outcome):
            outcome = await outcome
        if outcome:
            return
        assert loop.time() < deadline, "condition not reached in time"
        await asyncio.sleep(0.02)


def _recorded(bot, user, message_id: int):
    async def check() -> bool:
        row = await bot.store.active_game(user.id, "bakers")
        return row is not None and row.message_id == message_id

    return check


def _one_press(game, move: str) -> bool:
    try:
        return game.double_tap_target(move[0]) == move
    except engine.IllegalMove:
        return False


def menu_id(message) -> str:
    """The custom id of a board's "Another move…" select menu."""
    return next(c["custom_id"] for c in message.walk() if c["type"] == 3)


def board_game_id(message) -> int:
    return int(next(cid for cid in board_ids(message) if cid.startswith(("r:", "w:"))).split(":")[1])


def board_ids(message) -> list[str]:
    return [b["custom_id"] for b in message.buttons()]


def button(message, action: str) -> str:
    """The custom id of the board button for ``action`` (``3``, ``a``, ``h``, ``u`` …)."""
    for cid in board_ids(message):
        if cid.split(":")[-1] == action:
            return cid
    raise LookupError(f"no button {action!r} in {board_ids(message)}")


async def start(fake: FakeDiscord, user, code: str = CODE):
    result = await fake.slash(user, "boulanger", {"code": code})
    assert not result.failed and not result.ephemeral
    return result


async def test_new_game_replies_with_a_png_board_and_buttons(fake_discord, bot):
    """The board is one Components V2 card: a container in the game's colour holding the
    status line, the picture (described by its alt text) and the controls beneath."""
    alice = fake_discord.add_user("alice")
    result = await start(fake_discord, alice)
    image = result.png()
    assert image.size[0] >= 400
    message = result.message
    assert message.is_v2 and message.content == "" and not message.embeds
    (container,) = message.components
    assert container["type"] == 17 and container["accent_color"] == front_for("bakers").accent_colour
    text, gallery, *rows = container["components"]
    assert text["type"] == 10 and CODE in text["content"] and "Score 0" in text["content"]
    assert gallery["type"] == 12
    (picture,) = gallery["items"]
    assert picture["media"]["url"] == "attachment://board.png"
    assert 1 <= len(rows) <= 5 and all(r["type"] == 1 and len(r["components"]) <= 5 for r in rows)
    labels = [b["label"] for b in message.buttons()]
    assert "6 · A♦" in labels and "Home ×1" in labels
    (menu,) = [c for row in rows for c in row["components"] if c["type"] == 3]  # "Another move…"
    assert menu["custom_id"].startswith("m:") and 1 <= len(menu["options"]) <= 25
    (attachment,) = message.attachments
    assert picture["description"] == attachment.description
    assert attachment.description.startswith("Jeu du Boulanger board, 4 free cells, score 0, 0 moves")
    assert "Columns, bottom to top: 1: " in attachment.description and len(attachment.description) <= 1024
    assert len(message.walk()) <= 40


async def test_button_moves_edit_the_same_message_with_a_new_png(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    before = fake_discord.attachment_bytes(board)
    moved = await fake_discord.click(alice, board, button(board, "6"))  # one press: A♦ home
    assert moved.edited is not None and moved.edited.id == board.id
    assert "A♦ from column 6 home" in moved.text() and "Score 10" in moved.text()
    after = fake_discord.attachment_bytes(board)
    assert after != before and after[:8] == b"\x89PNG\r\n\x1a\n"
    current = fake_discord.message(board.id)
    menu = next(c for c in current.walk() if c["type"] == 3)
    option = menu["options"][0]  # a move no button plays, in words
    chosen = await fake_discord.select(alice, current, menu["custom_id"], [option["value"]])
    assert chosen.edited.id == board.id and option["label"] in chosen.text()
    assert len(fake_discord.messages()) == 1  # one board message, edited in place
    game = await bot.store.active_game(alice.id, "bakers")
    assert game.moves == ("6h", option["value"])
    undone = await fake_discord.click(alice, board, button(fake_discord.message(board.id), "u"))
    assert (
        undone.edited.id == board.id and (await bot.store.active_game(alice.id, "bakers")).moves[-1] == "undo"
    )


async def test_illegal_move_is_an_ephemeral_error_and_changes_nothing(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    content = fake_discord.message(board.id).text()
    result = await fake_discord.slash(alice, "move", {"notation": "12"})
    assert result.ephemeral and "10♥ cannot go on 3♠" in result.text()
    result = await fake_discord.click(alice, board, button(board, "a"))  # an empty free cell
    assert result.ephemeral and "free cell a is empty" in result.text().lower()
    assert fake_discord.message(board.id).text() == content
    game = await bot.store.active_game(alice.id, "bakers")
    assert game.moves == ()


async def test_another_players_click_is_refused(fake_discord, bot):
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    board = (await start(fake_discord, alice)).message
    result = await fake_discord.click(bob, board, button(board, "6"))
    assert result.ephemeral and "not yours" in result.text() and "/boulanger" in result.text()
    assert "Selected" not in fake_discord.message(board.id).text()


async def test_stale_button_is_refused(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    old_components = copy.deepcopy(board.components)
    old_undo_row = board_ids(board)
    await fake_discord.click(alice, board, button(board, "6"))  # one press: home
    # A button drawn before that move (its custom id carries the old version):
    old_id = next(c for c in old_undo_row if c.endswith(":8"))
    # A client that has not yet received the edit still shows (and sends) the old buttons:
    fake_discord.message(board.id).components = old_components
    result = await fake_discord.click(alice, board, old_id)
    assert result.ephemeral and "out of date" in result.text()
    game = await bot.store.active_game(alice.id, "bakers")
    assert game.moves == ("6h",)


async def test_move_command_autocomplete_and_typed_moves(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    choices = await fake_discord.autocomplete(alice, "move", {"notation": "home"}, "notation")
    assert choices and all(len(c["name"]) <= 100 for c in choices)
    assert "6h" in choices.values()
    assert any("A♦ from column 6 home" in n for n in choices.names())
    everything = await fake_discord.autocomplete(alice, "move", {"notation": ""}, "notation")
    assert len(everything) <= 25
    result = await fake_discord.slash(alice, "move", {"notation": "6h"})
    assert result.ephemeral and "A♦ from column 6 home" in result.text()
    await eventually(lambda: "Score 10" in fake_discord.message(board.id).text())  # edited, after the answer
    bad = await fake_discord.slash(alice, "move", {"notation": "12"})
    assert bad.ephemeral and "cannot go on" in bad.text()
    nonsense = await fake_discord.slash(alice, "move", {"notation": "zz"})
    assert nonsense.ephemeral and "is not a move" in nonsense.text()
    assert (await bot.store.active_game(alice.id, "bakers")).moves == ("6h",)


async def test_errors_without_a_game_and_with_a_bad_code(fake_discord, bot):
    carol = fake_discord.add_user("carol")
    result = await fake_discord.slash(carol, "undo")
    assert result.ephemeral and "no game in progress" in result.text()
    bad = await fake_discord.slash(carol, "boulanger", {"code": "BK1-C3-AAAAA24"})
    assert bad.ephemeral and "C4, C2, C1" in bad.text()
    assert await bot.store.active_games(carol.id) == []


async def test_board_reposts_and_moves_the_buttons(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    first = (await start(fake_discord, alice)).message

    async def recorded() -> bool:  # the bot notes the board's message id just after replying
        return (await bot.store.active_game(alice.id, "bakers")).message_id == first.id

    await eventually(recorded)
    again = await fake_discord.slash(alice, "board")
    assert again.message.id != first.id and again.message.buttons()
    await eventually(lambda: fake_discord.message(first.id).buttons() == [])
    stripped = fake_discord.message(first.id)  # still the card: its text and picture, no controls
    assert (
        stripped.is_v2
        and CODE in stripped.text()
        and stripped.media()[0]["media"]["url"] == "attachment://board.png"
    )
    assert not [c for c in stripped.walk() if c["type"] == 1] and len(stripped.attachments) == 1
    code = await fake_discord.slash(alice, "code")
    assert code.ephemeral and CODE in code.text()
    await eventually(_recorded(bot, alice, again.message.id))
    fresh = await fake_discord.slash(alice, "boulanger")  # no move played yet: replaced, no question
    assert "was ended as resigned" in fresh.text()
    await eventually(lambda: fake_discord.message(again.message.id).buttons() == [])


async def test_calculation_game_with_buttons(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    result = await fake_discord.slash(alice, "calculation", {"code": "CA1-AAAAA24"})
    board = result.message
    assert result.png().size[0] >= 400
    moved = await fake_discord.click(alice, board, button(board, "f3"))  # 6♠ fits foundation 3
    assert "6♠ from the turned card to foundation 3" in moved.text()
    assert (await bot.store.active_game(alice.id, "calculation")).moves == ("sf3",)


async def test_a_whole_short_game_played_through_the_bot(fake_discord, bot):
    """Play a shipped winnable deal to the end with buttons only, as a player would."""
    from bot.games.bakers import shipped_winnable
    from engine.solver import solve
    from tests.presses import presses

    alice = fake_discord.add_user("alice")
    code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
    board = (await start(fake_discord, alice, code)).message
    steps = presses(code, solve(engine.new_game(code), time_limit=20).moves)
    for step in steps:
        current = fake_discord.message(board.id)
        if step.kind == "menu":
            result = await fake_discord.select(alice, current, menu_id(current), [step.value])
        else:
            result = await fake_discord.click(alice, current, button(current, step.value or "h"))
        assert not result.ephemeral, result.text()
    final = fake_discord.message(board.id)
    assert "Won in" in final.text()
    stored = await bot.store.get_game(board_game_id(final))
    game = engine.replay(code, stored.moves)
    assert game.is_won and len(stored.moves) == len(steps) < game.move_count  # Home played batches
    buttons = final.buttons()
    assert [b["custom_id"].split(":")[0] for b in buttons] == ["a", "d", "r"]  # new deal, daily, replay
    replay_button = buttons[-1]
    assert (await bot.store.player_stats(alice.id, "bakers")).won == 1
    bob = fake_discord.add_user("bob")  # only the player has it drawn …
    refused = await fake_discord.click(bob, final, replay_button["custom_id"])
    assert refused.ephemeral and "Only the player" in refused.text()
    replay = await fake_discord.click(alice, final, replay_button["custom_id"], timeout=30)
    assert replay.deferred and not replay.ephemeral
    (shown,) = replay.followups or await replay.wait_followups(1, timeout=30)
    gif = shown.attachments[0]
    assert gif.filename == "replay.gif" and gif.data[:6] == b"GIF89a"
    with Image.open(io.BytesIO(gif.data)) as im:
        assert im.n_frames == len(engine.replay(code, game.moves).moves) + 1
    watched = await fake_discord.click(bob, final, replay_button["custom_id"], timeout=30)  # … anyone watches
    (again,) = watched.followups or await watched.wait_followups(1, timeout=30)
    assert not again.ephemeral and again.attachments[0].data == gif.data
    assert bot.replays.drawn == 1  # sent again from the cache, not drawn twice


async def test_leaderboard_after_several_players(fake_discord, bot):
    players = [fake_discord.add_user(f"p{i}") for i in range(3)]
    for i, player in enumerate(players):
        await fake_discord.slash(player, "calculation", {"code": "CA1-AAAAA24"})
        for _ in range(i + 1):  # a game resigned before its first move would count nowhere
            await fake_discord.slash(player, "move", {"notation": "sw1"})
        await fake_discord.slash(player, "resign")
    # Typed codes are practice: off the main board, on the deal's own board.
    main = await fake_discord.slash(players[0], "leaderboard", {"game": "calculation"})
    assert not any(f"<@{p.id}>" in main.text() for p in players)
    result = await fake_discord.slash(
        players[0], "leaderboard", {"game": "calculation", "code": "CA1-AAAAA24"}
    )
    text = result.text()
    assert all(f"<@{p.id}>" in text for p in players) and "CA1-AAAAA24" in text
    stats = await fake_discord.slash(players[0], "stats", {"game": "calculation"})
    assert "Played 1" in stats.text() and "Practice games: 1" in stats.text()


async def test_main_boards_rank_stock_deals_per_cell_count(fake_discord, bot):
    """A practice win (typed code) stays off the channel's main board but is on the deal's board;
    a 1-cell win and a 4-cell win are on separate boards."""
    service = bot.service
    typed, four, one = (fake_discord.add_user(n) for n in ("typed", "four", "one"))
    channel = fake_discord.channel.id
    for user, kwargs in (
        (typed, {"code": engine.parse_code("BK1-C4-AAAAA24")}),
        (four, {"cells": 4}),
        (one, {"cells": 1}),
    ):
        started = await service.start(StartRequest(user.id, "bakers", channel_id=channel, **kwargs))
        row = started.board.row
        await service.store.finish_game(row.id, row.version, "won", score=100, move_count=90)
    practice = await service.store.get_result(started.board.row.id - 2)
    assert practice is not None and practice.source == "practice"
    main = (await fake_discord.slash(four, "leaderboard", {"game": "bakers"})).text()
    assert f"<@{four.id}>" in main and f"<@{typed.id}>" not in main and f"<@{one.id}>" not in main
    ones = (await fake_discord.slash(four, "leaderboard", {"game": "bakers", "cells": 1})).text()
    assert f"<@{one.id}>" in ones and f"<@{four.id}>" not in ones and f"<@{typed.id}>" not in ones
    deal = (
        await fake_discord.slash(four, "leaderboard", {"game": "bakers", "code": "BK1-C4-AAAAA24"})
    ).text()
    assert f"<@{typed.id}>" in deal and f"<@{one.id}>" not in deal
    stats = (await fake_discord.slash(typed, "stats", {"game": "bakers"})).text()
    assert "Practice games: 1" in stats and "Best" not in stats


async def test_daily_post_appears_exactly_once(fake_discord, tmp_path):
    db = tmp_path / "daily.sqlite3"
    admin = fake_discord.add_user("admin")
    fake_discord.add_member(admin, manage_guild=True)
    channel = fake_discord.channel
    async with running(fake_discord, db):
        result = await fake_discord.slash(admin, "dailychannel", {"channel": channel})
        assert result.ephemeral and "<t:" in result.text()
        post = await fake_discord.wait_for_message(channel, lambda m: "Daily challenge" in m.text())
        await asyncio.sleep(0.6)  # a few scheduler rounds
        player = fake_discord.add_user("player")
        played = await fake_discord.click(player, post, post.buttons()[0]["custom_id"])
        assert "daily challenge" in played.text() and not played.ephemeral
    async with running(fake_discord, db):
        await asyncio.sleep(0.6)
    posts = [m for m in fake_discord.messages(channel) if "Daily challenge" in m.text()]
    assert len(posts) == 1


async def test_dailychannel_needs_manage_server(fake_discord, bot):
    member = fake_discord.add_user("member")
    with pytest.raises(PermissionError):
        await fake_discord.slash(member, "dailychannel", {"channel": fake_discord.channel})


async def test_hint_button_rules_and_help(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    hint = await fake_discord.click(alice, board, button(board, "i"))
    assert hint.deferred
    (note,) = await hint.wait_followups(1, timeout=20)
    assert note.ephemeral and "Try" in note.text()
    notation = note.text().rsplit("`", 2)[-2]
    assert notation in engine.new_game(CODE).legal_moves()
    rules = await fake_discord.slash(alice, "rules", {"game": "calculation"})
    assert rules.ephemeral and "foundation 2 by two" in rules.text()
    helped = await fake_discord.slash(alice, "help")
    assert "/move" in helped.text() and "/daily" in helped.text()


async def test_lost_calculation_player_learns_the_deal_was_winnable(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    await fake_discord.slash(alice, "calculation", {"code": "CA1-AAAAA24"})
    result = await fake_discord.slash(alice, "resign")
    assert result.ephemeral and "You resigned CA1-AAAAA24" in result.text()
    notes = await result.wait_followups(1, timeout=20)
    assert "could have been won" in notes[-1].content
    moves = notes[-1].content.split("```")[1].split()
    game = engine.new_game("CA1-AAAAA24")
    for move in moves:
        game.play(move)
    assert game.is_won


@pytest.mark.slow
async def test_leaderboard_pages(fake_discord, bot):
    players = [fake_discord.add_user(f"q{i}") for i in range(12)]
    for i, player in enumerate(players):
        await fake_discord.slash(player, "calculation", {} if i % 2 else {"code": "CA1-AAAAA24"})
        await fake_discord.slash(player, "move", {"notation": "sw1"})  # played: it counts
        await fake_discord.slash(player, "resign")
    first = await fake_discord.slash(players[0], "leaderboard", {"game": "calculation", "period": "week"})
    assert "Page 1 of 1" in first.text() and first.text().count("<@") == 6  # new deals only
    # A deal's board pages too (its code rides in the buttons' custom ids).
    first = await fake_discord.slash(
        players[0], "leaderboard", {"game": "calculation", "code": "ca1-aaaaa24"}
    )
    assert "Page 1 of 1" in first.text() and first.text().count("<@") == 6
    for i, player in enumerate(players[:10]):
        await fake_discord.slash(player, "calculation", {} if i % 2 == 0 else {"code": "CA1-AAAAA24"})
        await fake_discord.slash(player, "move", {"notation": "sw1"})
        await fake_discord.slash(player, "resign")
    first = await fake_discord.slash(players[0], "leaderboard", {"game": "calculation", "period": "week"})
    assert "Page 1 of 2" in first.text() and first.text().count("<@") == 10
    nxt = next(b for b in first.message.buttons() if b["label"] == "▶")
    second = await fake_discord.click(players[5], first.message, nxt["custom_id"])
    assert "Page 2 of 2" in second.text() and second.text().count("<@") == 1
    deal = await fake_discord.slash(players[0], "leaderboard", {"game": "calculation", "code": "CA1-AAAAA24"})
    assert "Page 1 of 2" in deal.text()
    nxt = next(b for b in deal.message.buttons() if b["label"] == "▶")
    second = await fake_discord.click(players[5], deal.message, nxt["custom_id"])
    assert "Page 2 of 2" in second.text() and second.text().count("<@") == 1


async def test_leaderboard_scopes_channel_server_and_everywhere(fake_discord, bot):
    """Daily wins in two channels of this server and in another server: the channel board shows
    this channel's, the server board both channels', the global board everyone's in rank order;
    its buttons page it and keep the scope; other periods are refused globally."""
    service = bot.service
    other = fake_discord.add_guild("other")
    second = fake_discord.add_channel(fake_discord.guild, "second")
    here, there, away = (fake_discord.add_user(n) for n in ("here", "there", "away"))
    for user, guild, channel, moves in (
        (here, fake_discord.guild, fake_discord.channel, 95),
        (there, fake_discord.guild, second, 90),
        (away, other, other.channels[0], 85),
    ):
        started = await service.start(
            StartRequest(user.id, "bakers", guild_id=guild.id, channel_id=channel.id, daily=True)
        )
        row = started.board.row
        await service.store.finish_game(row.id, row.version, "won", score=100, move_count=moves)
    mention = {u: f"<@{u.id}>" for u in (here, there, away)}

    def shown(result) -> list:
        text = result.text()
        return sorted((u for u in mention if mention[u] in text), key=lambda u: text.index(mention[u]))

    daily = {"game": "bakers", "period": "daily"}
    channel = await fake_discord.slash(here, "leaderboard", daily)
    assert shown(channel) == [here] and "in this channel" in channel.text()
    server = await fake_discord.slash(here, "leaderboard", {**daily, "scope": "server"})
    assert shown(server) == [there, here] and "in this server" in server.text()
    everywhere = await fake_discord.slash(here, "leaderboard", {"game": "bakers", "scope": "global"})
    assert shown(everywhere) == [away, there, here] and "everyone everywhere" in everywhere.text()
    assert "Page 1" in everywhere.text() and "Page 1 of" not in everywhere.text()  # never counted
    (back, forward) = everywhere.message.buttons()
    assert back["disabled"] and forward["disabled"] and forward["custom_id"].startswith("lb:b:gd:")
    # The other boards of the server: the daily games are not stock deals, so not on them.
    week = await fake_discord.slash(
        here, "leaderboard", {"game": "bakers", "period": "week", "scope": "server"}
    )
    assert shown(week) == [] and "best in this server this week" in week.text()
    for options in ({"period": "all"}, {"period": "week"}, {"period": "races"}, {"code": CODE}):
        refused = await fake_discord.slash(
            here, "leaderboard", {"game": "bakers", "scope": "global", **options}
        )
        assert refused.ephemeral and "Only the daily challenge has a board for everyone" in refused.text()


async def test_global_daily_board_pages_keep_their_scope(fake_discord, bot):
    service = bot.service
    other = fake_discord.add_guild("other")
    players = [fake_discord.add_user(f"g{i}") for i in range(12)]
    for i, user in enumerate(players):
        guild = other if i % 2 else fake_discord.guild
        started = await service.start(
            StartRequest(user.id, "bakers", guild_id=guild.id, channel_id=guild.channels[0].id, daily=True)
        )
        row = started.board.row
        await service.store.finish_game(row.id, row.version, "won", score=0, move_count=100 + i)
    first = await fake_discord.slash(players[0], "leaderboard", {"game": "bakers", "scope": "global"})
    assert first.text().count("<@") == 10 and f"<@{players[0].id}>" in first.text()
    nxt = next(b for b in first.message.buttons() if b["label"] == "▶")
    assert not nxt["disabled"]
    second = await fake_discord.click(players[3], first.message, nxt["custom_id"])
    assert "Page 2" in second.text() and "**11.**" in second.text()
    assert [f"<@{p.id}>" in second.text() for p in players[10:]] == [True, True]
    assert all(b["custom_id"].startswith("lb:b:gd:") for b in second.message.buttons())
    assert next(b for b in second.message.buttons() if b["label"] == "▶")["disabled"]
    # The same buttons from a channel board carry no scope letter (ids of older boards still work).
    here = await fake_discord.slash(players[0], "leaderboard", {"game": "bakers", "period": "daily"})
    assert all(b["custom_id"].startswith("lb:b:d") for b in here.message.buttons())


async def test_slow_work_is_deferred_within_discords_deadline(fake_discord, bot, monkeypatch):
    """A board that takes 2 s to come back (a busy render process, a slow database): the bot
    acknowledges first, then edits the message. (A picture drawn on the event loop takes a
    millisecond or two; what can be slow is what the loop waits for.)"""
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    drawn = bot.pictures.render

    async def slow_render(front, game, **kwargs):
        await asyncio.sleep(2.0)
        return await drawn(front, game, **kwargs)

    monkeypatch.setattr(bot.pictures, "render", slow_render)
    result = await fake_discord.click(alice, board, button(board, "6"), timeout=10)
    assert not result.failed and result.deferred and result.ack_ms < 3000
    assert result.edited is not None and "A♦ from column 6 home" in result.edited.text()


async def test_a_post_sent_just_before_a_crash_is_found_not_doubled(fake_discord, tmp_path):
    """The bot died after sending the daily post but before recording it; its claim went stale."""
    import datetime as dt

    import aiohttp

    import storage
    from bot.adapter.cogs.daily import daily_post_card
    from bot.languages.i18n import Translator
    from bot.play import dailycodes

    fake, db = fake_discord, tmp_path / "crash.sqlite3"
    day = dailycodes.utc_today()
    store = await storage.open_store(str(db))
    try:
        await store.set_guild_settings(fake.guild.id, daily_channel_id=fake.channel.id)
        long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=30)
        assert await store.claim_daily_post(fake.guild.id, day, fake.channel.id, now=long_ago)
    finally:
        await store.close()
    card = daily_post_card(
        Translator("en"),
        day,
        {"bakers": "BK1-C4-AAAAA24", "calculation": "CA1-AAAAA24", "freecell": "FC1-C4-MS5"},
    )
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:  # the post the crashed bot had sent
        body = {"flags": 1 << 15, "components": card.to_components()}  # its Play buttons in a card
        async with http.post(f"{fake.api_base}/channels/{fake.channel.id}/messages", json=body) as response:
            assert response.status == 200
            sent = int((await response.json())["id"])
    async with running(fake, db) as bot:

        async def recorded() -> bool:
            post = await bot.store.daily_post(fake.guild.id, day)
            return post is not None and post.message_id is not None

        await eventually(recorded, timeout=15)
        assert (await bot.store.daily_post(fake.guild.id, day)).message_id == sent
        await asyncio.sleep(0.6)  # a few more scheduler rounds
    posts = [m for m in fake.messages(fake.channel) if "Daily challenge" in m.text()]
    assert [m.id for m in posts] == [sent]


# -- a new game while one is in progress ---------------------------------------------------
async def _game_with_a_move(fake: FakeDiscord, bot, user):
    board = (await start(fake, user)).message
    await fake.click(user, board, button(board, "6"))  # A♦ home
    await eventually(_recorded(bot, user, board.id))
    return board, await bot.store.active_game(user.id, "bakers")


def choice(message, act: str) -> str:
    """The custom id of the question's "Start the new game" (``s``) or "Keep playing" (``k``)."""
    return next(cid for cid in board_ids(message) if cid.startswith(f"n:{act}:"))


async def test_a_new_game_asks_before_ending_one_in_progress(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board, old = await _game_with_a_move(fake_discord, bot, alice)
    asked = await fake_discord.slash(alice, "boulanger", {"cells": 2})
    assert asked.ephemeral and asked.attachments == []
    assert CODE in asked.text() and "1 move" in asked.text() and "score 10" in asked.text()
    assert "daily" not in asked.text()
    labels = [b["label"] for b in asked.message.buttons()]
    assert labels == ["Start the new game", "Keep playing"]
    assert all(len(cid) <= 100 for cid in board_ids(asked.message))
    # Nothing changed, and the old board still plays:
    assert await bot.store.active_game(alice.id, "bakers") == old
    assert [m.id for m in fake_discord.messages() if not m.ephemeral] == [board.id]
    moved = await fake_discord.click(alice, board, button(fake_discord.message(board.id), "8"))
    assert not moved.ephemeral and "J♦ from column 8 to free cell a" in moved.text()
    kept = await fake_discord.click(alice, asked.message, choice(asked.message, "k"))
    assert kept.edited.id == asked.message.id and kept.edited.buttons() == []
    assert "Nothing changed" in kept.text() and "/board" in kept.text()
    assert (await bot.store.active_game(alice.id, "bakers")).moves == ("6h", "8a")
    assert fake_discord.message(board.id).buttons()  # still playable


async def test_confirming_resigns_the_old_game_and_posts_the_new_board_even_after_a_restart(
    fake_discord, tmp_path
):
    db = tmp_path / "confirm.sqlite3"
    alice = fake_discord.add_user("alice")
    async with running(fake_discord, db) as bot:
        board, old = await _game_with_a_move(fake_discord, bot, alice)
        asked = await fake_discord.slash(alice, "boulanger", {"code": "BK1-C2-AAAAA24"})
        assert asked.ephemeral
    async with running(fake_discord, db) as bot:  # the question's buttons outlive the process
        done = await fake_discord.click(alice, asked.message, choice(asked.message, "s"))
        (posted,) = await done.wait_followups(1)
        assert not posted.ephemeral and posted.buttons()
        assert "BK1-C2-AAAAA24" in posted.text() and "was ended as resigned" in posted.text()
        await eventually(lambda: "Done" in fake_discord.message(asked.message.id).text())
        assert fake_discord.message(asked.message.id).buttons() == []
        result = await bot.store.get_result(old.id)
        assert result.status == "resigned" and result.move_count == 1
        new = await bot.store.active_game(alice.id, "bakers")
        assert new.code == "BK1-C2-AAAAA24"
        await eventually(_recorded(bot, alice, posted.id))
        await eventually(lambda: fake_discord.message(board.id).buttons() == [])  # the old board is over
        played = await fake_discord.click(alice, posted, button(posted, "6"))
        assert played.edited.id == posted.id and "A♦ from column 6 home" in played.text()


async def test_a_stale_confirmation_is_refused_and_asks_again(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board, old = await _game_with_a_move(fake_discord, bot, alice)
    asked = await fake_discord.slash(alice, "calculation")
    assert not asked.ephemeral and "already have a game of" not in asked.text()  # other kind: no question
    asked = await fake_discord.slash(alice, "boulanger")
    await fake_discord.click(alice, board, button(fake_discord.message(board.id), "8"))  # 8a: it moved
    stale = await fake_discord.click(alice, asked.message, choice(asked.message, "s"))
    await eventually(lambda: "changed since" in fake_discord.message(asked.message.id).text())
    again = fake_discord.message(asked.message.id)
    assert "2 moves" in again.text() and again.buttons()
    assert stale.followups == []  # no new board
    game = await bot.store.active_game(alice.id, "bakers")
    assert game.id == old.id and game.moves == ("6h", "8a")
    # The fresh question works:
    await fake_discord.click(alice, again, choice(again, "s"))
    await eventually(lambda: "Done" in fake_discord.message(asked.message.id).text())
    assert (await bot.store.get_result(old.id)).status == "resigned"


async def test_a_daily_game_in_progress_mentions_the_counted_attempt(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    first = await fake_discord.slash(alice, "daily", {"game": "calculation"}, timeout=30)
    assert not first.ephemeral and "daily challenge" in first.text()
    again = await fake_discord.slash(alice, "calculation", {"code": "CA1-AAAAA24"})
    assert again.ephemeral and "daily challenge" in again.text() and "counted attempt" in again.text()
    assert (await bot.store.active_game(alice.id, "calculation")).daily_date is not None


async def test_a_player_who_chose_the_four_colour_deck_gets_it_on_every_board(fake_discord, tmp_path):
    import renderer

    db = tmp_path / "deck.sqlite3"
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    async with running(fake_discord, db):
        chosen = await fake_discord.slash(alice, "settings", {"deck": "four"})
        assert chosen.ephemeral and "four-colour deck" in chosen.text()
        board = await start(fake_discord, alice)
        # (a typed code: practice games, tagged so)
        assert fake_discord.attachment_bytes(board.message) == renderer.render_png(
            engine.new_game(CODE), deck="four", tag="practice"
        )
        other = await start(fake_discord, bob)  # another player keeps the two-colour deck
        assert fake_discord.attachment_bytes(other.message) == renderer.render_png(
            engine.new_game(CODE), tag="practice"
        )
    async with running(fake_discord, db):  # stored: a restarted bot remembers it
        moved = await fake_discord.click(
            alice, board.message, button(fake_discord.message(board.message.id), "6")
        )
        game = engine.new_game(CODE)
        game.play("6h")
        assert fake_discord.attachment_bytes(moved.edited) == renderer.render_png(
            game, deck="four", tag="practice"
        )
        back = await fake_discord.slash(alice, "settings", {"deck": "two"})
        assert "two-colour deck" in back.text()


async def test_home_sends_a_batch_and_one_undo_takes_it_all_back_through_discord(fake_discord, bot):
    """Near the end of a won deal: Finish plays the rest; before that, Home + Undo is one action each."""
    from bot.games.bakers import shipped_winnable
    from engine.solver import solve

    alice = fake_discord.add_user("alice")
    code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
    board = (await start(fake_discord, alice, code)).message
    game = await bot.store.active_game(alice.id, "bakers")
    mirror = engine.new_game(code)
    for move in solve(engine.new_game(code), time_limit=20).moves:
        if len(mirror.home_run()) >= 2 and not mirror.home_finishes():
            break
        await bot.service.play(alice.id, game.id, move)
        mirror.play(move)
    run = mirror.home_run()
    assert len(run) >= 2
    shown = await fake_discord.slash(alice, "board")
    board = shown.message
    labels = [b["label"] for b in board.buttons()]
    assert f"Home ×{len(run)}" in labels
    sent = await fake_discord.click(alice, board, button(board, "h"))
    assert f"{len(run)} cards home" in sent.text() and not sent.ephemeral
    stored = await bot.store.get_game(game.id)
    assert stored.moves[-1] == ",".join(run) and stored.move_count == mirror.move_count + len(run)
    undone = await fake_discord.click(alice, board, button(fake_discord.message(board.id), "u"))
    assert not undone.ephemeral and (await bot.store.get_game(game.id)).move_count == mirror.move_count


async def test_a_calculation_dead_end_is_recorded_lost_without_a_press(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    started = await fake_discord.slash(alice, "calculation", {"code": "CA1-AAAAA24"})
    mirror = engine.new_game("CA1-AAAAA24")
    last = None
    while not mirror.is_over:
        move = "sw1" if mirror.turned is not None else mirror.legal_moves()[0]
        last = await fake_discord.slash(alice, "move", {"notation": move})
        mirror.play(move)
    assert mirror.is_lost and last is not None
    assert await bot.store.active_game(alice.id, "calculation") is None
    deal = await bot.store.leaderboard("calculation", channel_id=fake_discord.channel.id, code="CA1-AAAAA24")
    (result,) = list(deal)
    assert result.user_id == alice.id and result.best.status == "lost"
    final = fake_discord.message(started.message.id)
    assert "new deal" in " ".join(b["label"].lower() for b in final.buttons())


async def test_a_daily_post_created_but_answered_500_to_every_retry_is_posted_once(
    fake_discord, tmp_path, monkeypatch
):
    """Discord made the message, then answered 500 to discord.py's every retry: the poster's next
    attempt carries the same enforced nonce, so Discord (and the fake) hands back that message."""
    quick_5xx_retries(monkeypatch)
    admin = fake_discord.add_user("admin")
    fake_discord.add_member(admin, manage_guild=True)
    channel = fake_discord.channel
    async with running(fake_discord, tmp_path / "nonce.sqlite3") as bot:
        await bot.store.set_guild_settings(fake_discord.guild.id, daily_channel_id=channel.id)
        fake_discord.fail_after_applying(rf"^/channels/{channel.id}/messages$", method="POST", times=8)
        await eventually(lambda: bool(fake_discord.messages(channel)), timeout=10)
        day = dailycodes.utc_today(bot.service.clock())

        async def recorded() -> bool:
            post = await bot.store.daily_post(fake_discord.guild.id, day)
            return post is not None and post.message_id is not None

        await eventually(recorded, timeout=15)  # once a later attempt got the message back
        await asyncio.sleep(1.0)  # the poster's later checks, each of which might send again
        post = await bot.store.daily_post(fake_discord.guild.id, day)
    posts = [m for m in fake_discord.messages(channel) if "Daily challenge" in m.text()]
    assert len(posts) == 1 and posts[0].id == post.message_id


def test_a_server_board_needs_a_server():
    """In a direct message (no guild id) the server scope is refused with words, not a crash."""
    from bot.adapter.cogs.leaderboard import scope_filter
    from bot.play.feedback import UserFeedback

    with pytest.raises(UserFeedback) as refused:
        scope_filter("server", 5, None)
    assert refused.value.key == "error.lb_no_server"
    assert scope_filter("server", 5, 7) == {"guild_id": 7}
    assert scope_filter("channel", 5, 7) == {"channel_id": 5}
    assert scope_filter("global", 5, 7) == {}


async def test_a_hinted_daily_win_shows_time_and_hint_and_ranks_below_a_longer_unassisted_win(
    fake_discord, bot
):
    """A daily won through the bot after one hint: its result message and share line say the
    time, the hint and that it counted; /stats gives the winning times and the best game's moment;
    on the daily board an unassisted win with more moves ranks above it, and the rule is stated."""
    import re

    from engine.solver import solve

    hinted, plain = fake_discord.add_user("hinted"), fake_discord.add_user("plain")
    board = (await fake_discord.slash(hinted, "daily", {"game": "bakers"})).message
    asked = await fake_discord.click(hinted, board, button(board, "i"))
    (note,) = await asked.wait_followups(1, timeout=20)
    assert "Try" in note.text()
    game = await bot.store.active_game(hinted.id, "bakers")
    assert game.hints == 1
    solution = solve(engine.new_game(game.code), time_limit=20).moves
    for move in solution[:-1]:
        await bot.service.play(hinted.id, game.id, move)
    last = await fake_discord.slash(hinted, "move", {"notation": solution[-1]})
    shares = await last.wait_followups(1, timeout=10)
    await eventually(lambda: "Won in" in fake_discord.message(board.id).text())
    result = fake_discord.message(board.id).text()
    assert re.search(r"⏱ \d+:\d\d · 💡 1 hint\b", result), result
    assert "Counted: your first finished attempt at this daily challenge" in result
    share = next(m.text() for m in shares if "daily" in m.text())
    assert re.search(
        rf"won in {len(solution)} moves · 4 free cells · ⏱ \d+:\d\d · 💡 1 hint \(counted: first finished attempt\)",
        share,
    ), share
    stats = (await fake_discord.slash(hinted, "stats", {"game": "bakers"})).text()
    assert re.search(r"Fastest win \d+:\d\d · average win \d+:\d\d", stats), stats
    assert re.search(rf"Best: won in {len(solution)} moves .*💡 1 hint · finished <t:\d+:R>", stats), stats
    assert "best score" not in stats.lower()

    started = await bot.service.start(
        StartRequest(plain.id, "bakers", channel_id=fake_discord.channel.id, daily=True)
    )
    row = started.board.row
    await bot.store.finish_game(row.id, row.version, "won", score=0, move_count=len(solution) + 10, home=52)
    daily = (await fake_discord.slash(plain, "leaderboard", {"game": "bakers", "period": "daily"})).text()
    lines = [line for line in daily.splitlines() if "<@" in line]
    assert f"<@{plain.id}>" in lines[0] and "💡" not in lines[0]
    assert f"<@{hinted.id}>" in lines[1] and "💡 1 hint" in lines[1] and "⏱" in lines[1]
    assert "unassisted (no 💡) before assisted, then fewer moves, then less time" in daily
    assert re.search(r"Next challenge <t:\d+:R>", daily)


async def test_a_practice_or_daily_board_is_tagged_in_its_header_only(fake_discord, bot):
    from PIL import ImageChops

    import renderer

    alice, bob, carol = (fake_discord.add_user(n) for n in ("alice", "bob", "carol"))
    stock = await fake_discord.slash(alice, "boulanger", {})
    row = await bot.store.active_game(alice.id, "bakers")
    assert row.source == "stock"
    practice = await start(fake_discord, bob, row.code)  # the same deal, typed: practice
    assert (await bot.store.active_game(bob.id, "bakers")).source == "practice"
    pictures = [
        Image.open(io.BytesIO(fake_discord.attachment_bytes(m.message))).convert("RGB")
        for m in (stock, practice)
    ]
    assert pictures[0].size == pictures[1].size
    changed = ImageChops.difference(*pictures).getbbox()
    assert changed is not None and changed[3] <= renderer.layout.HEADER_H  # the header, nothing else
    game = engine.new_game(row.code)
    assert fake_discord.attachment_bytes(stock.message) == renderer.render_png(game)
    assert fake_discord.attachment_bytes(practice.message) == renderer.render_png(game, tag="practice")
    assert f"`{row.code}`" in stock.text() and f"`{row.code}`" in practice.text()
    daily = await fake_discord.slash(carol, "daily", {"game": "bakers"})
    today = await bot.store.active_game(carol.id, "bakers")
    assert today.source == "daily"
    expected = renderer.render_png(engine.new_game(today.code), tag="daily")
    assert fake_discord.attachment_bytes(daily.message) == expected
