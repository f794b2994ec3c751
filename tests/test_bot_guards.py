"""Issue 15, through the real bot and the fake Discord: forged presses, replays, quotas, failing edits.

Every odd press gets a private answer; the Replay button draws once, for its owner, one
at a time; quotas answer "try again <t:…:R>"; an interaction is answered whether or not
the board edit after it goes through; a stale board is brought up to date.
"""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

import engine
from bot.adapter.cooldowns import Rate
from bot.games.bakers import BakersFront, shipped_winnable
from bot.play.starting import StartRequest
from tests.fakediscord import FakeDiscord
from tests.test_bot_discord import CODE, button, eventually, running, start

BIG = 2**63


@pytest.fixture
async def bot(fake_discord, tmp_path):
    async with running(fake_discord, tmp_path / "bot.sqlite3") as b:
        yield b


async def post_buttons(fake: FakeDiscord, custom_ids: list[str]) -> int:
    """A message "from the bot" carrying buttons with these custom ids (as a forger would craft)."""
    rows = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": str(i + j), "custom_id": cid}
                for j, cid in enumerate(custom_ids[i : i + 5])
            ],
        }
        for i in range(0, len(custom_ids), 5)
    ]
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        body = {"content": "forged", "components": rows}
        async with http.post(f"{fake.api_base}/channels/{fake.channel.id}/messages", json=body) as response:
            assert response.status == 200, await response.text()
            return int((await response.json())["id"])


def forged_ids(game_id: int, version: int, user_id: int) -> list[str]:
    g = f"g:{game_id}:{version}"
    return [
        # out-of-range actions and selections on a real game
        f"{g}::9",
        f"{g}::e",
        f"{g}::p9",
        f"{g}::zz",
        f"{g}::f9",
        f"{g}::w0",
        f"{g}:d:h",
        f"{g}:9:1",
        f"{g}::0",
        f"{g}:a:a",
        f"{g}:e:h",
        # ids and versions out of storage's range
        f"g:{BIG}:0::1",
        f"g:{BIG * 4}:0::1",
        f"g:{10**40}:0::u",
        f"g:{game_id}:{10**30}::1",
        f"g:{game_id}:{BIG}::1",
        "g:0:0::1",
        f"g:{game_id}:99::1",
        # replay
        f"r:{BIG}",
        "r:0",
        f"r:{game_id}",
        f"r:{10**50}",
        # play-again buttons under finished boards
        "a:z:4",
        "a:b:7",
        f"w:{BIG}",
        "w:0",
        f"w:{game_id}",
        # daily Play buttons
        "d:b:99999999",
        "d:z:20260101",
        "d:c:00000000",
        "d:b:20261341",
        # leaderboard pages
        "lb:b:d:99999999:0",
        "lb:b:a:20261301:0",
        "lb:z:a:20260101:0",
        "lb:c:w:20260101:-999999",
        "lb:b:a:00000000:999999",
        "lb:c:d:20260230:5",
        # race buttons: lobbies, questions and results that do not exist or were tampered with
        f"q:{BIG}:j",
        "q:0:m",
        f"q:{10**19}:s",
        f"qy:j:{user_id}:{BIG}",
        f"qy:j:{BIG}:1",
        f"qc:{user_id}:b:4:99:30:",
        f"qc:{user_id}:b:4:2:999:",
        f"qc:{user_id}:z:4:2:30:",
        f"qc:{user_id}:b:3:2:30:",
        f"qc:{user_id}:b:4:2:30:BK1-ZZZZ",
        f"qc:{user_id}:b:0:2:30:CA1-AAAAA24",
        f"qc:{BIG}:b:4:2:30:",
        f"qp:{BIG}",
        "qp:0",
        "qp:12345",
        # matching no template at all
        "x:1",
        "g:abc",
        "lb:",
        "g:1:2:3:4:5",
        "r:",
        "n:s",
        "d:b:2026",
        "💥" * 20,
        # the new-game question (last: a well-formed one starts the presser's game, as asked)
        f"n:s:{user_id}:{BIG}:0:b:4::",
        f"n:s:{user_id}:{game_id}:0:z:4::",
        f"n:s:{user_id}:{game_id}:0:b:3::",
        f"n:s:{user_id}:{game_id}:0:b:4::BK1-ZZZZ",
        f"n:s:{user_id}:{game_id}:{BIG}:c:0:ad:CA1-AAAAA24",
        f"n:k:{user_id}:{game_id}:0:b:4::",
        f"n:s:{BIG}:{game_id}:0:b:4::",
        f"n:s:{user_id}:{game_id}:0:b:4:d:BK1-C4-AAAAA24",
    ]


async def test_every_forged_press_gets_a_private_answer(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    await start(fake_discord, alice)
    game = await bot.store.active_game(alice.id, "bakers")
    ids = forged_ids(game.id, game.version, alice.id)
    unanswered = []
    answers = {}
    for cid in ids:
        message = await post_buttons(fake_discord, [cid])
        result = await fake_discord.click(alice, message, cid, timeout=10)
        if result.failed or result.message is None:
            unanswered.append(cid)
            continue
        if cid.startswith("lb:") and result.edited is not None and result.edited.is_v2:
            continue  # a page number out of range: the nearest page is shown (public, as all pages)
        if cid.startswith("n:") and result.edited is not None:
            continue  # a well-formed question button answers by editing its question (ephemeral there)
        shown = result.followups[-1] if result.followups else result.message
        answers[cid] = (shown.ephemeral, shown.text())
    assert unanswered == []
    public = {cid: a for cid, a in answers.items() if not a[0]}
    assert public == {}, public
    for cid, (_, text) in answers.items():
        assert "went wrong" not in text, (cid, text)
    assert (await bot.store.get_game(game.id)).moves == ()


# -- the Replay button ---------------------------------------------------------------------------
async def won_game(bot, user) -> int:
    """A won game of ``user``'s, played through the service (no Discord needed to win it)."""
    from engine.solver import solve

    code = engine.code_for("bakers", shipped_winnable(4)[0], 4)
    started = await bot.service.start(StartRequest(user.id, "bakers", code=engine.parse_code(code)))
    game_id = started.board.row.id
    for move in solve(engine.new_game(code), time_limit=20).moves:
        await bot.service.play(user.id, game_id, move)
    assert (await bot.store.get_game(game_id)).status == "won"
    return game_id


def final_followup(result):
    return result.followups[-1] if result.followups else result.message


async def test_replay_is_drawn_once_by_its_owner_and_then_anyone_may_watch(fake_discord, bot, monkeypatch):
    from bot.adapter import replays

    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    game_id = await won_game(bot, alice)
    message = await post_buttons(fake_discord, [f"r:{game_id}"])
    with monkeypatch.context() as short:  # a game longer than the bot will draw
        short.setattr(replays, "MAX_REPLAY_ACTIONS", 10)
        too_long = await fake_discord.click(alice, message, f"r:{game_id}")
        assert too_long.ephemeral and "too long to replay" in too_long.text()
    refused = await fake_discord.click(bob, message, f"r:{game_id}")
    assert refused.ephemeral and "Only the player" in refused.text() and "once made" in refused.text()
    assert bot.replays.drawn == 0
    made = await fake_discord.click(alice, message, f"r:{game_id}", timeout=60)
    assert made.deferred and not made.failed
    (gif,) = await made.wait_followups(1, timeout=60)
    assert not gif.ephemeral and gif.attachments[0].data[:6] == b"GIF89a"
    watched = await fake_discord.click(bob, message, f"r:{game_id}", timeout=30)
    (again,) = await watched.wait_followups(1, timeout=30)
    assert again.attachments[0].data == gif.attachments[0].data
    assert bot.replays.drawn == 1  # the second press re-sent the cached GIF
    # The owner's quota (2 a minute here): the third upload is refused with a time to come back.
    bot.quotas.rates["replay"] = Rate(2, 60.0)
    await fake_discord.click(alice, message, f"r:{game_id}", timeout=30)
    cooled = await fake_discord.click(alice, message, f"r:{game_id}")
    assert cooled.ephemeral and "try again <t:" in cooled.text() and ":R>" in cooled.text()


@pytest.mark.slow
async def test_only_one_replay_is_drawn_at_a_time_and_a_huge_one_is_not_sent(fake_discord, bot, monkeypatch):
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    first, second = await won_game(bot, alice), await won_game(bot, bob)
    drawn = BakersFront.render_replay

    def slow(self, code, moves, **kwargs):
        time.sleep(2.0)
        return drawn(self, code, moves, **kwargs)

    monkeypatch.setattr(BakersFront, "render_replay", slow)
    message = await post_buttons(fake_discord, [f"r:{first}", f"r:{second}"])
    making = await fake_discord.click(alice, message, f"r:{first}", wait="ack")
    await eventually(lambda: bot.replays.busy, timeout=10)  # the first one is being drawn
    busy = await fake_discord.click(bob, message, f"r:{second}")
    assert busy.ephemeral and "Another replay is being drawn" in busy.text()
    await making.wait_followups(1, timeout=60)
    bot.replays.max_upload = 1000  # a GIF over the cap is refused, and not drawn a second time
    too_big = await fake_discord.click(bob, message, f"r:{second}", timeout=60)
    (note,) = await too_big.wait_followups(1, timeout=60)
    assert note.ephemeral and "too large" in note.text()
    assert not fake_discord.message(too_big.state.original_id).text()  # no public "thinking…" left
    again = await fake_discord.click(bob, message, f"r:{second}")
    assert again.ephemeral and "too large" in again.text() and bot.replays.drawn == 2


async def test_an_error_after_a_public_defer_is_private(fake_discord, bot, monkeypatch):
    alice = fake_discord.add_user("alice")
    game_id = await won_game(bot, alice)

    def broken(self, code, moves, **kwargs):
        raise RuntimeError("the renderer fell over")

    monkeypatch.setattr(BakersFront, "render_replay", broken)
    message = await post_buttons(fake_discord, [f"r:{game_id}"])
    result = await fake_discord.click(alice, message, f"r:{game_id}", timeout=30)
    (note,) = await result.wait_followups(1, timeout=30)
    assert note.ephemeral and "went wrong" in note.text()
    assert fake_discord.message(result.state.original_id).deleted  # the public "thinking…" is gone
    assert [m for m in fake_discord.messages() if "went wrong" in m.text()] == []  # nothing public


# -- quotas ------------------------------------------------------------------------------------------
async def test_hints_and_starts_have_per_player_quotas(fake_discord, bot):
    bot.quotas.rates.update(hint=Rate(1, 60.0), start=Rate(2, 60.0))
    alice, bob = fake_discord.add_user("alice"), fake_discord.add_user("bob")
    board = (await start(fake_discord, alice)).message
    hint = await fake_discord.click(alice, board, button(board, "i"))
    await hint.wait_followups(1, timeout=20)
    again = await fake_discord.click(alice, board, button(board, "i"))
    assert again.ephemeral and "Slow down" in again.text() and "<t:" in again.text()
    typed = await fake_discord.slash(alice, "hint")  # /hint draws from the same bucket
    assert typed.ephemeral and "Slow down" in typed.text() and "<t:" in typed.text()
    await fake_discord.slash(alice, "calculation", {"code": "CA1-AAAAA24"})  # the second start
    third = await fake_discord.slash(alice, "boulanger")
    assert third.ephemeral and "Slow down" in third.text()
    assert not (await start(fake_discord, bob)).ephemeral  # quotas are per player


# -- answer first, then edit ---------------------------------------------------------------------
BOARD_EDIT = r"^/channels/\d+/messages/\d+$"


async def test_move_is_answered_before_a_rate_limited_board_edit(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    await eventually(lambda: bot.service.boards.shown(1) is not None, timeout=5)
    fake_discord.rate_limit(BOARD_EDIT, retry_after=3.5, method="PATCH")
    result = await fake_discord.slash(alice, "move", {"notation": "6h"})
    assert not result.failed and result.ack_ms < 3000
    assert result.ephemeral and "A♦ from column 6 home" in result.text()
    await eventually(lambda: "Score 10" in fake_discord.message(board.id).text(), timeout=10)


async def test_a_failing_board_edit_says_the_move_was_saved(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    game = await bot.store.active_game(alice.id, "bakers")
    await eventually(lambda: bot.service.boards.shown(game.id) is not None)
    fake_discord.server_error(BOARD_EDIT, status=503, times=5, method="PATCH")
    result = await fake_discord.slash(alice, "move", {"notation": "6h"})
    assert not result.failed and result.ephemeral and "A♦ from column 6 home" in result.text()
    (saved,) = await result.wait_followups(1)
    assert saved.ephemeral and "was saved" in saved.text() and "/board" in saved.text()
    assert "nothing was changed" not in saved.text().lower()
    assert (await bot.store.get_game(game.id)).moves == ("6h",)
    # A 500 is retried by discord.py a second later: the answer does not wait for it.
    fake_discord.take_violations()
    fake_discord.server_error(BOARD_EDIT, status=500, times=1, method="PATCH")
    undone = await fake_discord.slash(alice, "undo")
    assert not undone.failed and undone.ack_ms < 1000 and "took back" in undone.text().lower()
    await eventually(lambda: "Score 0" in fake_discord.message(board.id).text(), timeout=10)


async def test_a_press_whose_edit_fails_is_answered_and_the_board_updated(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    # A 429 without Cloudflare's Via header: discord.py gives up at once (no retry).
    fake_discord.server_error(r"^/interactions/\d+/[^/]+/callback$", status=429, times=1)
    result = await fake_discord.click(alice, board, button(board, "6"))
    assert not result.failed and result.ephemeral
    assert "was saved" in result.text() and "/board" in result.text()
    await eventually(lambda: "A♦ from column 6 home" in fake_discord.message(board.id).text())


async def test_a_stale_board_is_brought_up_to_date_on_its_first_press(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    game = await bot.store.active_game(alice.id, "bakers")
    await eventually(lambda: bot.service.boards.shown(game.id) is not None)
    await bot.service.play(alice.id, game.id, "6h")  # played elsewhere: this board is behind
    assert "Score 0" in fake_discord.message(board.id).text()
    stale = await fake_discord.click(alice, board, button(board, "1"))
    assert stale.ephemeral and "out of date" in stale.text()
    await eventually(lambda: "Score 10" in fake_discord.message(board.id).text())
    fresh = fake_discord.message(board.id)
    now = await bot.store.get_game(game.id)
    assert f"g:{game.id}:{now.version}:" in button(fresh, "1")  # its buttons carry the current version
    assert (await bot.store.get_game(game.id)).moves == ("6h",)


async def test_a_move_right_after_the_start_edits_that_board(fake_discord, bot, monkeypatch):
    """The /move arrives while the new board is still being posted: no second board."""
    drawn = BakersFront.render

    def slow(self, game, **kwargs):
        time.sleep(0.8)
        return drawn(self, game, **kwargs)

    monkeypatch.setattr(BakersFront, "render", slow)
    alice = fake_discord.add_user("alice")
    starting = asyncio.create_task(fake_discord.slash(alice, "boulanger", {"code": CODE}))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 5
    while await bot.store.active_game(alice.id, "bakers") is None:
        assert loop.time() < deadline
        await asyncio.sleep(0.01)
    moved = await fake_discord.slash(alice, "move", {"notation": "6h"})
    started = await starting
    assert not moved.failed and not started.failed and moved.ephemeral
    await eventually(lambda: "Score 10" in fake_discord.message(started.message.id).text(), timeout=10)
    boards = [m for m in fake_discord.messages() if not m.ephemeral and m.attachments]
    assert [m.id for m in boards] == [started.message.id]


async def test_a_game_stops_taking_moves_at_the_action_cap(fake_discord, bot, monkeypatch):
    from bot.play import service as service_module

    monkeypatch.setattr(service_module, "MAX_ACTIONS", 40)
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    game = await bot.store.active_game(alice.id, "bakers")
    await bot.store.append_moves(game.id, game.version, ["6h", "undo"] * 20, score=0, move_count=0)
    fresh = await fake_discord.slash(alice, "board")
    refused = await fake_discord.click(alice, fresh.message, button(fresh.message, "6"))  # one press: 6h
    assert refused.ephemeral and "40 actions" in refused.text() and "/resign" in refused.text()
    typed = await fake_discord.slash(alice, "move", {"notation": "6h"})
    assert typed.ephemeral and "40 actions" in typed.text()
    resigned = await fake_discord.slash(alice, "resign")
    assert "You resigned" in resigned.text()
    assert len((await bot.store.get_game(game.id)).moves) == 40
    assert board.id != fresh.message.id
