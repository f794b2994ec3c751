"""Several players in one Activity instance, against the real server, store and race keeper and the
fake Discord (its OAuth2 and ``GET /applications/{id}/activity-instances/{id}``): who is at the
table and their progress, a race on one deal for all of them ranked as the chat's races are,
and hostile calls (a table one is not at, a forged instance, another player's race, a second
race, floods, a full table): each a clear error that changes nothing."""

from __future__ import annotations

import engine
from bot.activity import rooms
from bot.adapter.cooldowns import Rate
from bot.play.races import rank, standing
from tests.activity_rig import activity_rig

CODE = "BK1-C4-AAAAA24"
PLENTY = {"move": Rate(1000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0), "race": Rate(100, 1.0)}


def move(view, act="drop", **fields):
    return {"game": view["game"]["id"], "version": view["game"]["version"], "act": act, **fields}


async def poll(rig, token, instance):
    return await rig.call(token, f"/api/room?instance={instance}")


async def test_players_at_one_table_see_each_other_and_their_progress(fake_discord, tmp_path, monkeypatch):
    monkeypatch.setattr(rooms, "SNAPSHOT_SECONDS", 0.0)
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
        instance = fake_discord.launch_activity(fake_discord.channel, ann, bob)
        a, b = await rig.sign_in(ann), await rig.sign_in(bob)
        status, alone = await poll(rig, a, instance)
        assert status == 200 and [p["name"] for p in alone["players"]] == ["ann"]
        assert alone["players"][0]["game"] is None and alone["race"] is None
        view = await rig.start(a, "bakers", CODE)
        assert (await rig.call(a, "/api/play", move(view, source="6", target="h")))[0] == 200
        status, seen = await poll(rig, b, instance)
        assert status == 200 and seen["you"] == str(bob.id)
        by_name = {p["name"]: p["game"] for p in seen["players"]}
        assert by_name["bob"] is None
        assert by_name["ann"] == {
            "kind": "bakers",
            "title": "Jeu du Boulanger",
            "home": 1,
            "moves": 1,
            "status": "active",
            "race": False,
        }
        # Bob's page stops polling: after PRESENCE_SECONDS he is no longer shown.
        rig.server.rooms.clock = lambda: 10**9
        status, later = await poll(rig, a, instance)
        assert [p["name"] for p in later["players"]] == ["ann"]


async def test_a_race_from_the_table_is_the_chats_race_on_one_deal_ranked_the_same(fake_discord, tmp_path):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
        instance = fake_discord.launch_activity(fake_discord.channel, ann, bob)
        a, b = await rig.sign_in(ann), await rig.sign_in(bob)
        await poll(rig, a, instance)
        await poll(rig, b, instance)
        status, opened = await rig.call(a, "/api/room/race", {"instance": instance, "kind": "bakers"})
        assert status == 200, opened
        race = opened["race"]
        assert (
            race["status"] == "lobby" and race["players"] == [str(ann.id)] and race["creator"] == str(ann.id)
        )
        stored = await rig.service.store.get_race(race["id"])
        assert stored.channel_id == fake_discord.channel.id  # Discord's word, not the page's
        assert stored.guild_id == fake_discord.guild.id
        status, early = await rig.call(a, "/api/room/start", {"instance": instance})
        assert status == 422 and early["why"] == "race.error.too_few"
        status, joined = await rig.call(b, "/api/room/join", {"instance": instance})
        assert status == 200 and joined["race"]["players"] == [str(ann.id), str(bob.id)]
        status, again = await rig.call(b, "/api/room/join", {"instance": instance})  # a replayed join
        assert status == 422 and again["why"] == "race.error.already"
        assert len(await rig.service.store.race_players(race["id"])) == 2
        status, not_creator = await rig.call(b, "/api/room/start", {"instance": instance})
        assert status == 403 and not_creator["why"] == "race.error.not_creator"
        status, started = await rig.call(a, "/api/room/start", {"instance": instance})
        assert status == 200 and started["race"]["status"] == "running"
        status, twice = await rig.call(a, "/api/room/start", {"instance": instance})  # replayed
        assert status == 422 and twice["why"] == "race.error.closed"
        ann_game = await rig.service.store.active_game(ann.id, "bakers")
        bob_game = await rig.service.store.active_game(bob.id, "bakers")
        assert ann_game.code == bob_game.code == stored.code and ann_game.source == "race"
        # Each plays their own race game from the page (its code hidden, as in the chat).
        status, mine = await rig.call(a, "/api/state?kind=bakers")
        assert mine["view"]["game"]["id"] == ann_game.id and mine["view"]["game"]["code"] is None
        game = engine.new_game(engine.parse_code(stored.code))
        home = [p for p in game.places() if game.is_legal(p + "h")]
        view = mine["view"]
        for place in home[:1]:
            status, answer = await rig.call(a, "/api/play", move(view, source=place, target="h"))
            assert status == 200
            view = answer["view"]
        status, moved = await rig.call(a, "/api/play", move(view, act="tap", source="1"))
        assert status in (200, 422), moved  # a second move, or the engine's clear refusal
        rig.server.rooms.forget_snapshot(rig.server.rooms._rooms[instance])
        status, seen = await poll(rig, b, instance)
        standings = seen["race"]["standings"]
        assert standings[0]["id"] == str(ann.id)  # ahead: cards home, then moves
        assert {p["name"]: p["game"]["race"] for p in seen["players"]} == {"ann": True, "bob": True}
        await rig.races.end(race["id"])
        rig.server.rooms.forget_snapshot(rig.server.rooms._rooms[instance])
        status, over = await poll(rig, b, instance)
        result = over["race"]
        assert result["status"] == "finished"
        assert [s["place"] for s in result["standings"]] == [1, 2]
        # The places are the chat's: the keeper's ranking of the stored games.
        stored = await rig.service.store.get_race(race["id"])
        games = {g.owner_id: g for g in await rig.service.store.race_games(stored.id)}
        players = await rig.service.store.race_players(stored.id)
        chat = rank([standing(p, games[p.user_id], stored.started_at, stored.finished_at) for p in players])
        assert [s["id"] for s in result["standings"]] == [str(s.user_id) for s in chat]
        assert {p.user_id: p.place for p in players} == {
            int(s["id"]): s["place"] for s in result["standings"]
        }


async def test_hostile_calls_at_a_table_change_nothing(fake_discord, tmp_path, monkeypatch):
    monkeypatch.setattr(rooms, "MAX_ROOM_PLAYERS", 2)
    async with activity_rig(fake_discord, tmp_path, rates={**PLENTY, "room": Rate(8, 60.0)}) as rig:
        ann, bob, cy, dee = (fake_discord.add_user(n) for n in ("ann", "bob", "cy", "dee"))
        instance = fake_discord.launch_activity(fake_discord.channel, ann, bob, dee)
        other = fake_discord.launch_activity(fake_discord.channel, cy)
        a, b, c, d = [await rig.sign_in(u) for u in (ann, bob, cy, dee)]
        assert (await poll(rig, a, instance))[0] == 200
        # Cy is not in this instance (Discord says so): not at the table, not shown.
        status, refused = await poll(rig, c, instance)
        assert status == 403 and refused["why"] == "not_at_table"
        status, refused = await rig.call(c, "/api/room/race", {"instance": instance, "kind": "bakers"})
        assert status == 403
        # A forged instance id; junk; a forged token.
        for junk in ("i-forged", "x" * 500, ""):
            assert (await poll(rig, a, junk))[0] in (400, 403)
        status, _ = await rig.call(a, "/api/room/race", {"instance": 5, "kind": "bakers"})
        assert status == 400
        status, _ = await rig.call(a, "/api/room/race", {"instance": instance, "kind": "poker"})
        assert status == 400
        assert (await poll(rig, "forged-token", instance))[0] == 401
        # Bob never opened the page: he cannot start a race for the table.
        status, refused = await rig.call(b, "/api/room/race", {"instance": instance, "kind": "bakers"})
        assert status == 403 and refused["why"] == "not_at_table"
        # Nobody's race to join or start yet.
        status, refused = await rig.call(a, "/api/room/join", {"instance": instance})
        assert status == 404 and refused["why"] == "no_race"
        # A full table (2 here) refuses a third player, who can still play their own game.
        assert (await poll(rig, b, instance))[0] == 200
        status, full = await poll(rig, d, instance)
        assert status == 403 and full["why"] == "activity.room_full" and "2 players" in full["error"]
        assert (await rig.call(d, "/api/state"))[0] == 200
        # One open race per table.
        assert (await rig.call(a, "/api/room/race", {"instance": instance, "kind": "bakers"}))[0] == 200
        status, second = await rig.call(b, "/api/room/race", {"instance": instance, "kind": "calculation"})
        assert status == 409 and second["why"] == "race_open"
        assert len(await rig.service.store.unsettled_races()) == 1
        # Cy's own table knows nothing of this race.
        assert (await poll(rig, c, other))[1]["race"] is None
        # Floods: the room quota (8 a minute here) answers 429.
        codes = [(await poll(rig, a, instance))[0] for _ in range(8)]
        assert codes.count(429) >= 4
        # Discord was asked about each instance once, not at every poll (INSTANCE_SECONDS).
        assert fake_discord.instance_checks <= 5
        # A flood of forged instance ids reaches Discord no more often than the quota allows.
        checks = fake_discord.instance_checks
        answers = [await rig.call(c, "/api/room/join", {"instance": f"i-forged-{n}"}) for n in range(20)]
        assert {status for status, _ in answers} == {403, 429}
        assert fake_discord.instance_checks - checks <= 8
        assert len(await rig.service.store.unsettled_races()) == 1
