"""The Activity's server against the fake Discord's OAuth2, on a real SQLite store: signing in,
the token checks and their cache, and hostile input (forged tokens, another player's game,
stale versions, floods, junk), each a clear error that changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

import engine
from bot.activity import auth
from bot.activity.server import STATIC
from bot.adapter.cooldowns import Rate
from tests.activity_rig import activity_rig

CODE = "BK1-C4-AAAAA24"
PLENTY = {"move": Rate(1000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0)}


def move(view, act="drop", **fields):
    return {"game": view["game"]["id"], "version": view["game"]["version"], "act": act, **fields}


async def test_signing_in_trades_the_code_with_the_secret_which_never_reaches_the_page(
    fake_discord, tmp_path
):
    async with activity_rig(fake_discord, tmp_path) as rig:
        ann = fake_discord.add_user("ann")
        code = fake_discord.authorization_code(ann)
        status, data = await rig.call(None, "/api/token", {"code": code})
        assert status == 200 and set(data) == {"access_token", "expires_in", "scope"}
        status, again = await rig.call(None, "/api/token", {"code": code})  # a code works once
        assert status == 401 and again["why"] == "not_signed_in"
        status, me = await rig.call(data["access_token"], "/api/state")
        assert status == 200 and me["player"] == {"id": str(ann.id), "name": "ann"}
        secret = fake_discord.client_secret
        status, config = await rig.call(None, "/api/config")
        assert config == {"client_id": str(fake_discord.application_id)}
        for path in STATIC.iterdir():
            assert secret not in path.read_text(encoding="utf-8")
        async with rig.http.get(f"{rig.url}/") as page:
            assert page.status == 200 and secret not in await page.text()
        assert secret not in repr(rig.server.auth)


async def test_a_token_is_checked_with_discord_once_then_again_when_its_answer_is_old(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path) as rig:
        now = [1000.0]
        rig.server.auth.clock = lambda: now[0]
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        for _ in range(20):
            assert (await rig.call(token, "/api/state"))[0] == 200
        assert fake_discord.bearer_checks == 1
        now[0] += auth.TOKEN_SECONDS + 1
        assert (await rig.call(token, "/api/state"))[0] == 200
        assert fake_discord.bearer_checks == 2
        fake_discord.revoke(token)  # Discord forgets it: within the minute the cache still says yes,
        now[0] += auth.TOKEN_SECONDS + 1  # after it no
        status, data = await rig.call(token, "/api/state")
        assert status == 401 and data["why"] == "not_signed_in"


async def test_forged_tokens_are_refused_changing_nothing_and_a_flood_of_one_is_asked_once(
    fake_discord, tmp_path
):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        checks = fake_discord.bearer_checks
        for forged in ("forged-token", token + "x", token.upper()):
            status, data = await rig.call(forged, "/api/play", move(view, source="6", target="h"))
            assert status == 401 and data["why"] == "not_signed_in", data
        for _ in range(30):
            await rig.call("forged-token", "/api/play", move(view, source="6", target="h"))
        assert fake_discord.bearer_checks == checks + 3  # each forged token asked about once
        status, data = await rig.call(None, "/api/play", move(view, source="6", target="h"))
        assert status == 401
        status, data = await rig.call("x" * 5000, "/api/state")
        assert status in (400, 401)
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == () and row.version == view["game"]["version"]


async def test_another_players_game_is_refused_and_unchanged(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
        ann_token, bob_token = await rig.sign_in(ann), await rig.sign_in(bob)
        view = await rig.start(ann_token, "bakers", CODE)
        for act, fields in (("drop", {"source": "6", "target": "h"}), ("tap", {"source": "6"}), ("undo", {})):
            status, data = await rig.call(bob_token, "/api/play", move(view, act, **fields))
            assert status == 403 and data["why"] == "error.not_your_game" and "not yours" in data["error"]
            assert data.get("view") is None  # nothing of the other player's game is shown
        status, data = await rig.call(bob_token, "/api/hint", {"game": view["game"]["id"]})
        assert status == 403
        status, data = await rig.call(
            bob_token, "/api/play", {**move(view, source="6", target="h"), "game": 10**6}
        )
        assert status == 404
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == ()


async def test_a_stale_version_is_refused_with_the_position_as_it_is(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        status, played = await rig.call(token, "/api/play", move(view, source="6", target="h"))
        assert status == 200 and played["view"]["game"]["version"] == view["game"]["version"] + 1
        status, data = await rig.call(token, "/api/play", move(view, source="7", target="a"))  # old version
        assert status == 409 and data["why"] == "error.stale_board"
        assert data["view"]["game"]["version"] == played["view"]["game"]["version"]
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == ("6h",)


async def test_the_engine_decides_and_says_why(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        cases = [
            ({"source": "1", "target": "2"}, "no_fit", "10♥ cannot go on 3♠"),
            ({"source": "a", "target": "1"}, "empty_source", "no card at free cell a"),
            ({"source": "1", "target": "2", "count": 3}, None, ""),
            ({"source": "1", "target": "h"}, None, "10♥"),
        ]
        for fields, why, words in cases:
            status, data = await rig.call(token, "/api/play", move(view, **fields))
            assert status == 422, (fields, data)
            if why:
                assert data["why"] == why
            assert words in data["error"]
            assert data["view"]["game"]["version"] == view["game"]["version"]
        status, data = await rig.call(token, "/api/play", move(view, "undo"))
        assert status == 422 and data["why"] == "nothing_to_undo"
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == ()


async def test_home_and_the_one_press_move_are_the_chats(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        game = engine.new_game(engine.parse_code(CODE))
        status, data = await rig.call(token, "/api/play", move(view, "home"))
        assert status == 200
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == (",".join(game.home_run()),)
        status, data = await rig.call(token, "/api/play", move(data["view"], "tap", source="2"))
        assert status == 200
        game.play_home()
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves[-1] == game.double_tap_target("2")
        calc = await rig.start(token, "calculation", "CA1-AAAAA24")
        status, data = await rig.call(token, "/api/play", move(calc, "home"))
        assert status == 422  # Calculation has no Home
        assert (await rig.service.store.get_game(calc["game"]["id"])).moves == ()


async def test_floods_meet_the_chats_quotas(fake_discord, tmp_path):
    rates = {"move": Rate(3, 60.0), "start": Rate(1, 60.0), "hint": Rate(1, 60.0)}
    async with activity_rig(fake_discord, tmp_path, rates=rates) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        answers = await asyncio.gather(
            *(rig.call(token, "/api/play", move(view, source="6", target="h")) for _ in range(10))
        )
        statuses = sorted(status for status, _ in answers)
        assert statuses.count(200) == 1  # one move played; the others stale or over the quota
        assert statuses.count(429) == 7 and statuses.count(409) == 2
        flooded = next(data for status, data in answers if status == 429)
        assert flooded["why"] == "error.cooldown" and "Slow down" in flooded["error"]
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == ("6h",)
        rig.quotas.hit("hint", ann.id)  # the chat's /hint used the one hint: the Activity's waits
        status, data = await rig.call(token, "/api/hint", {"game": view["game"]["id"]})
        assert status == 429
        status, data = await rig.call(token, "/api/start", {"kind": "bakers", "code": "BK1-C4-AAAAA25"})
        assert status == 429 and data["why"] == "error.cooldown"  # the one start was the rig's
        assert (await rig.service.store.active_game(ann.id, "bakers")).id == view["game"]["id"]


async def test_junk_requests_are_refused_plainly(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        headers = {"Authorization": f"Bearer {token}"}
        async with rig.http.post(f"{rig.url}/api/play", data=b"{not json", headers=headers) as answer:
            assert answer.status == 400 and (await answer.json())["why"] == "bad_request"
        async with rig.http.post(f"{rig.url}/api/play", data=b"x" * 10_000, headers=headers) as answer:
            assert answer.status in (400, 413)
        for body in (
            [],
            {"game": "1", "version": 1, "act": "drop"},
            {**move(view), "act": "resign"},
            {**move(view), "source": "../../etc", "target": "h"},
            {**move(view), "source": "6", "target": "h", "count": "2"},
            {**move(view), "version": True},
        ):
            status, data = await rig.call(token, "/api/play", body)
            assert status == 400, (body, data)
        status, data = await rig.call(token, "/api/start", {"kind": "poker"})
        assert status == 400
        status, data = await rig.call(token, "/api/start", {"kind": "bakers", "code": "CA1-AAAAA24"})
        assert status == 422
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == () and row.is_active


async def test_a_game_at_stake_is_ended_only_when_the_player_agrees(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        status, _ = await rig.call(token, "/api/play", move(view, source="6", target="h"))
        assert status == 200
        status, data = await rig.call(token, "/api/start", {"kind": "bakers"})
        assert status == 409 and data["why"] == "in_progress" and data["ask"] == [view["game"]["id"], 2]
        assert (await rig.service.store.get_game(view["game"]["id"])).is_active
        status, data = await rig.call(token, "/api/start", {"kind": "bakers", "replace": data["ask"]})
        assert status == 200 and data["view"]["game"]["id"] != view["game"]["id"]
        assert (await rig.service.store.get_game(view["game"]["id"])).status == "resigned"


async def test_every_move_tells_the_bot_which_board_changed(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        await rig.call(token, "/api/play", move(view, source="1", target="2"))  # refused: no change
        assert rig.changed == []
        _, data = await rig.call(token, "/api/play", move(view, source="6", target="h"))
        assert [b.row.version for b in rig.changed] == [data["view"]["game"]["version"]]
        assert rig.changed[0].png == b""  # the page draws its own cards: no picture was drawn


async def test_discord_not_answering_is_a_503_not_a_refusal(tmp_path):
    from tests.fakediscord import FakeDiscord

    fake = FakeDiscord()
    await fake.start()
    async with activity_rig(fake, tmp_path) as rig:
        ann = fake.add_user("ann")
        token = fake.access_token(ann)
        await fake.stop()  # Discord is gone
        status, data = await rig.call(token, "/api/state")
        assert status == 503 and data["why"] == "discord_unavailable"


def test_the_static_files_are_the_page_and_its_bundle():
    names = {p.name for p in Path(STATIC).iterdir()}
    assert {"index.html", "app.js", "style.css", "sdk.js"} <= names


async def test_the_page_is_served_with_its_files(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path) as rig:
        for path, kind in (
            ("/", "text/html"),
            ("/static/app.js", "javascript"),
            ("/static/sdk.js", "javascript"),
        ):
            async with rig.http.get(f"{rig.url}{path}") as answer:
                assert answer.status == 200 and kind in answer.headers["Content-Type"]
        async with rig.http.get(f"{rig.url}/static/../server.py") as answer:
            assert answer.status in (403, 404)
        assert isinstance(rig.http, aiohttp.ClientSession)
