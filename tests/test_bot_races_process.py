"""A race in ``python -m bot`` as a real process, killed with SIGKILL in the middle and restarted."""

from __future__ import annotations

import asyncio

import storage
from tests.fakediscord import BotProcess
from tests.presses import presses
from tests.test_bot_discord import button, eventually, menu_id
from tests.test_bot_races import race_button, standings_lines, winnable


async def play(fake, user, board, step):
    current = fake.message(board.id)
    if step.kind == "menu":
        return await fake.select(user, current, menu_id(current), [step.value])
    return await fake.click(user, current, button(current, step.value or "h"))


async def test_a_race_survives_a_kill_9_with_positions_standings_and_time_limit(fake_discord, tmp_path):
    fake = fake_discord
    code, solution = winnable()
    db = tmp_path / "race.sqlite3"
    env = {"BOULANGER_RACE_EDIT_SECONDS": "1", "BOULANGER_RACE_CHECK_SECONDS": "0.2"}
    proc = BotProcess(fake, db_path=db, env=env)
    try:
        await proc.start()
        alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
        lobby = (await fake.slash(alice, "race", {"game": "bakers", "code": code, "time_limit": 20})).message
        for user in (bob, carol):
            joined = await fake.click(user, lobby, race_button(fake.message(lobby.id), "j"))
            assert "You are in" in joined.text()
        await proc.kill()  # in the lobby: its buttons must still work after the restart
        await proc.start()
        started = await fake.click(alice, lobby, race_button(fake.message(lobby.id), "s"))
        assert "started" in started.text(), started.text()
        await eventually(lambda: "Running" in fake.message(lobby.id).text(), timeout=10)
        boards = {}
        for user in (alice, bob, carol):
            shown = await fake.click(user, lobby, race_button(fake.message(lobby.id), "m"))
            assert shown.ephemeral and shown.message.attachments, shown.text()
            boards[user.id] = shown.message
        steps = presses(code, list(solution))
        first_home = next(n for n, s in enumerate(steps) if s.kind == "home")
        assert first_home > 0, steps[:3]
        ahead = sum(step.moves for step in steps[:first_home])
        for step in steps[:first_home]:  # Alice moves, sending nothing home yet
            await play(fake, alice, boards[alice.id], step)
        for step in steps[: first_home + 1]:  # Bob sends cards home: ahead of her and of Carol
            await play(fake, bob, boards[bob.id], step)
        await eventually(lambda: f" {ahead} move" in fake.message(lobby.id).text(), timeout=10)
        before = standings_lines(fake.message(lobby.id))
        store = await storage.open_store(str(db))
        try:
            (race,) = await store.unsettled_races()
        finally:
            await store.close()

        await proc.kill()  # in the middle of the race
        await proc.start()

        store = await storage.open_store(str(db))
        try:
            again = await store.get_race(race.id)
        finally:
            await store.close()
        assert again.status == "running" and again.ends_at == race.ends_at  # the time limit is intact
        await eventually(lambda: fake.message(lobby.id).edits > 0, timeout=5)
        assert standings_lines(fake.message(lobby.id))[: len(before)] == before  # positions intact
        for step in steps[first_home:]:  # the private board's buttons work after the restart
            result = await play(fake, alice, boards[alice.id], step)
            assert not result.failed, result.text()
        assert "Won in" in fake.message(boards[alice.id].id).text()
        await eventually(lambda: any("wins!" in m.text() for m in fake.messages(fake.channel)), timeout=10)
        (result,) = [m for m in fake.messages(fake.channel) if "wins!" in m.text()]
        lines = standings_lines(result)
        assert f"<@{alice.id}>" in lines[0] and f"<@{bob.id}>" in lines[1] and f"<@{carol.id}>" in lines[2]
        await eventually(lambda: "Finished" in fake.message(lobby.id).text(), timeout=10)
        await proc.kill()
        await proc.start()
        await asyncio.sleep(1.5)  # several keeper rounds after the restart
        assert len([m for m in fake.messages(fake.channel) if "wins!" in m.text()]) == 1
        assert fake.token not in proc.output
    finally:
        await proc.stop()
