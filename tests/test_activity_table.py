"""Two players at one Activity table (the same instance), each in their own headless Chromium page,
against the real server, store and race keeper and the fake Discord: each sees the other and
their progress, one starts a race from the page, the other joins, both are dealt the same deal
and see each other's race progress ranked."""

from __future__ import annotations

import engine
from bot.activity import rooms
from bot.adapter.cooldowns import Rate
from tests.activity_browser import IMAGES, drag, open_page, settled, version
from tests.activity_rig import activity_rig, drop_of

CODE = "BK1-C4-AAAAA24"
PLENTY = {"move": Rate(10_000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0), "race": Rate(100, 1.0)}


async def player_text(page, player_id: int, where: str = "room-players") -> str:
    item = page.locator(f'#{where} li[data-player="{player_id}"]')
    return (await item.text_content()) or ""


async def wait_text(page, player_id: int, wanted: str, where: str = "room-players") -> None:
    await page.wait_for_function(
        """([where, id, wanted]) => [...document.querySelectorAll('#' + where + ' li')]
            .some(li => li.dataset.player === id && li.textContent.includes(wanted))""",
        arg=[where, str(player_id), wanted],
        timeout=10_000,
    )


async def answer_yes_if_asked(page) -> None:
    """A player whose game has something at stake is asked before the race ends it."""
    try:
        await page.wait_for_selector("#ask:not([hidden])", timeout=1500)
    except Exception:
        return
    await page.locator("#ask-yes").click()


async def test_two_players_at_one_table_see_each_other_and_race(fake_discord, tmp_path, browser, monkeypatch):
    monkeypatch.setattr(rooms, "SNAPSHOT_SECONDS", 0.2)
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
        instance = fake_discord.launch_activity(fake_discord.channel, ann, bob)
        await rig.start(await rig.sign_in(ann), "bakers", CODE)
        await rig.start(await rig.sign_in(bob), "freecell", "FC1-C4-MS1")
        one = await open_page(browser, rig, ann, instance=instance)
        two = await open_page(browser, rig, bob, kind="freecell", width=390, height=844, instance=instance)
        for page in (one, two):
            await wait_text(page, ann.id, "ann")
            await wait_text(page, bob.id, "bob")
        assert "FreeCell 0/52 · 0" in await player_text(one, bob.id)

        # Ann plays: Bob's page shows her progress, live.
        before = await version(one)
        await drag(one, "6", "h")  # A♦ home
        await settled(one, before)
        await wait_text(two, ann.id, "1/52 · 1")

        # Ann starts a race for the table from her page; Bob joins; Ann starts it now.
        await one.locator("#race-new").click()
        await answer_yes_if_asked(one)  # her game has a move: the race would end it
        await one.wait_for_selector('#race-line[data-status="lobby"]')
        await two.wait_for_selector('#race-line[data-status="lobby"]')
        assert await two.locator("#race-go").is_hidden()  # only its creator starts it early
        await two.locator("#race-join").click()
        await answer_yes_if_asked(two)
        await one.wait_for_function("document.querySelectorAll('#race-standings li').length === 0")
        await one.wait_for_function("!document.querySelector('#race-go').disabled")
        await one.locator("#race-go").click()
        for page in (one, two):
            await page.wait_for_selector('#race-line[data-status="running"]')
            # The race game, dealt to each: the page switched to it (its code hidden, 🏁).
            await page.wait_for_function(
                "() => { const v = window.boulanger.state.view; return v && v.game.kind === 'bakers'"
                " && v.game.code === null && v.game.moves === 0; }",
                timeout=10_000,
            )
        race = (await rig.service.store.unsettled_races())[0]
        ann_game = await rig.service.store.active_game(ann.id, "bakers")
        bob_game = await rig.service.store.active_game(bob.id, "bakers")
        assert ann_game.code == bob_game.code == race.code and ann_game.source == bob_game.source == "race"
        assert await one.evaluate("window.boulanger.state.view.game.id") == ann_game.id
        assert await two.evaluate("window.boulanger.state.view.game.id") == bob_game.id

        # Bob plays his race game by dragging; both see the standings, Bob ahead.
        # The race's deal is random: a card home if one can go, else any legal move.
        mirror = engine.new_game(engine.parse_code(race.code))
        moves = mirror.legal_moves()
        chosen = next((m for m in moves if m.endswith("h")), moves[0])
        home = 1 if chosen.endswith("h") else 0
        before = await version(two)
        await drag(two, *drop_of(chosen))
        await settled(two, before)
        for page in (one, two):
            # Ahead: more cards home, or as many and a move made (the chat's ranking).
            await wait_text(page, bob.id, f"{home}/52 · 1", where="race-standings")
            first = page.locator("#race-standings li").first
            assert await first.get_attribute("data-player") == str(bob.id)
        await one.screenshot(path=str(IMAGES / "activity-table-desktop.png"), full_page=True)
        await two.screenshot(path=str(IMAGES / "activity-table-phone.png"), full_page=True)

        # The race ends (here by the keeper, as at its time limit): both see the places.
        await rig.races.end(race.id)
        for page in (one, two):
            await page.wait_for_selector('#race-line[data-status="finished"]')
            await wait_text(page, bob.id, "1.", where="race-standings")
            await wait_text(page, ann.id, "2.", where="race-standings")
        assert one.errors == [] and two.errors == []
