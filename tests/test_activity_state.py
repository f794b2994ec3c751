"""The Activity's game API as the page on a phone uses it (real server, store and engine, the fake
Discord's OAuth2 and instances): refusals in the page's own words in every language, the moves a
page may draw at once (``view.moves``), the seat a page opens on and what a forged instance gets,
and a table poll telling each player their own game's version (and nobody else's)."""

from __future__ import annotations

import engine
from bot.activity import rooms
from bot.activity.server import PAGE_REFUSALS
from bot.adapter.cooldowns import Rate
from bot.games import front_for
from bot.languages.i18n import Translator
from bot.languages.language import LANGUAGES
from tests.activity_rig import activity_rig

CODE = "BK1-C4-AAAAA24"
PLENTY = {"move": Rate(1000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0), "room": Rate(1000, 1.0)}


def move(view, act="drop", **fields):
    return {"game": view["game"]["id"], "version": view["game"]["version"], "act": act, **fields}


def test_the_pages_refusals_name_no_chat_command_in_any_language():
    for language in LANGUAGES:
        tr = Translator(language)
        for key in PAGE_REFUSALS.values():
            text = tr(key)
            assert text and text != key and "/" not in text, (language, key, text)


async def test_refusals_in_the_pages_words(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        assert (await rig.call(token, "/api/play", move(view, source="6", target="h")))[0] == 200
        status, stale = await rig.call(token, "/api/play", move(view, source="7", target="a"))
        assert status == 409 and stale["why"] == "error.stale_board"
        assert stale["error"] == "The game moved on in the chat: here is where it stands."
        assert stale["view"]["game"]["version"] == view["game"]["version"] + 1
        row = await rig.service.store.get_game(view["game"]["id"])
        await rig.service.store.finish_game(
            row.id, row.version, "resigned", score=0, move_count=row.move_count
        )
        status, over = await rig.call(token, "/api/play", move(stale["view"], source="7", target="a"))
        assert status == 410 and "/" not in over["error"] and "over" in over["error"]


async def test_each_view_lists_the_moves_the_page_may_draw_at_once(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        game = engine.new_game(engine.parse_code(CODE))
        front = front_for("bakers")
        drops = {tuple(d) for d in view["moves"]["drops"]}
        legal = {m.lower() for m in game.legal_moves()}
        assert {front.drop(game, *d).lower() for d in drops} == legal  # every legal move, no other
        assert ("6", "h", 1) in drops and ("1", "2", 1) not in drops
        # A double tap's move is listed where it lands: the chat's one press.
        for place, (target, count) in view["moves"]["taps"].items():
            assert front.drop(game, place, target, count).lower() == front.double_tap(game, place).lower()
        assert view["moves"]["taps"]["6"] == ["h", 1]
        # The suits' piles say which suit each takes, so a card drawn early lands on its own.
        suits = [p["suit"] for p in view["table"]["piles"] if p["role"] == "foundation"]
        assert sorted(suits) == ["C", "D", "H", "S"]


async def test_a_seat_opens_the_page_on_its_game_and_a_forged_instance_changes_nothing(
    fake_discord, tmp_path
):
    async with activity_rig(fake_discord, tmp_path, rates={**PLENTY, "room": Rate(3, 60.0)}) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        calc = await rig.start(token, "calculation", "CA1-AAAAA24")
        latest = await rig.start(token, "bakers", CODE)
        instance = fake_discord.launch_activity(fake_discord.channel, ann)
        status, plain = await rig.call(token, f"/api/state?instance={instance}")
        assert status == 200 and plain["view"]["game"]["id"] == latest["game"]["id"]
        # Shown there: seated there; switching game (kind) moves the seat.
        status, shown = await rig.call(token, f"/api/state?instance={instance}&kind=calculation")
        assert shown["view"]["game"]["id"] == calc["game"]["id"]
        status, back = await rig.call(token, f"/api/state?instance={instance}")
        assert back["view"]["game"]["id"] == calc["game"]["id"]
        # The seated game ends: the page opens on the player's active game of its kind (a new deal).
        row = await rig.service.store.get_game(calc["game"]["id"])
        await rig.service.store.finish_game(
            row.id, row.version, "resigned", score=0, move_count=row.move_count
        )
        fresh = await rig.start(token, "calculation", "CA1-AAAAA25")
        status, later = await rig.call(token, f"/api/state?instance={instance}")
        assert later["view"]["game"]["id"] == fresh["game"]["id"]
        # Forged instances: answered as without one (the player's latest), at most the room quota
        # of questions to Discord.
        checks = fake_discord.instance_checks
        for n in range(6):
            status, data = await rig.call(token, f"/api/state?instance=i-forged-{n}")
            assert status == 200 and data["view"] is not None
        assert fake_discord.instance_checks - checks <= 3


async def test_a_table_poll_tells_each_player_their_own_games_version_only(
    fake_discord, tmp_path, monkeypatch
):
    monkeypatch.setattr(rooms, "SNAPSHOT_SECONDS", 0.0)
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
        instance = fake_discord.launch_activity(fake_discord.channel, ann, bob)
        a, b = await rig.sign_in(ann), await rig.sign_in(bob)
        view = await rig.start(a, "bakers", CODE)
        await rig.start(b, "bakers", "BK1-C4-AAAAA25")
        assert (await rig.call(a, "/api/play", move(view, source="6", target="h")))[0] == 200
        await rig.call(b, f"/api/room?instance={instance}")
        status, seen = await rig.call(a, f"/api/room?instance={instance}")
        assert status == 200 and seen["yours"] == [view["game"]["id"], view["game"]["version"] + 1]
        assert "versions" not in seen
        status, theirs = await rig.call(b, f"/api/room?instance={instance}")
        assert theirs["yours"][0] != view["game"]["id"]


async def test_the_page_draws_its_players_own_deck(fake_discord, tmp_path):
    from bot.languages.language import set_user_deck

    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
        await set_user_deck(rig.service.store, ann.id, "four")
        ann_view = await rig.start(await rig.sign_in(ann), "bakers", CODE)
        bob_view = await rig.start(await rig.sign_in(bob), "bakers", CODE)
        assert (ann_view["deck"], bob_view["deck"]) == ("four", "two")
        status, moved = await rig.call(
            await rig.sign_in(ann), "/api/play", move(ann_view, source="6", target="h")
        )
        assert status == 200 and moved["view"]["deck"] == "four"
