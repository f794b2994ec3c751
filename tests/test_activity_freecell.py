"""FreeCell in the Activity's page (headless Chromium, the real server, store and engine, the fake
Discord's OAuth2): the page knows no game, so FreeCell comes through the registry like the
others: won by dragging runs, played by taps and a double tap (the chat's one press), its
alternating colours refused in the engine's words, and its safe auto-play drawn."""

from __future__ import annotations

import engine
from bot.adapter.cooldowns import Rate
from bot.games import front_for, fronts
from engine.solver import solve
from tests.activity_browser import drag, open_page, settled, table_cards, tap, version
from tests.activity_rig import activity_rig

PLENTY = {"move": Rate(10_000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0)}
# The first search's solution of this deal (``short=False``: the shorter second search's
# carries fewer runs) moves runs of two cards between columns.
WON_BY_DRAG = "FC1-C4-MS617"
DEAL_1 = "FC1-C4-MS1"


async def test_freecell_is_offered_and_won_by_dragging_runs(fake_discord, tmp_path, browser):
    found = solve(engine.new_game(WON_BY_DRAG), time_limit=20.0, short=False)
    assert found.verdict == "winnable"
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "freecell", WON_BY_DRAG)
        page = await open_page(browser, rig, ann, kind="freecell")
        kinds = await page.eval_on_selector_all("#kind option", "os => os.map(o => o.value)")
        assert kinds == [f.kind for f in fronts() if f.in_activity] and "freecell" in kinds
        mirror = engine.new_game(WON_BY_DRAG)
        runs = 0
        for move in found.moves:
            carried = len(mirror.resolve(move).cards)  # what a player picks up: the whole run
            runs += carried > 1
            before = await version(page)
            await drag(page, move[0], move[1], carried)
            await settled(page, before)
            said = await page.locator("#say").text_content()
            assert not said, f"{move}: {said}"
            mirror.play(move)
        assert runs >= 10
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.status == "won"
        assert any(f"v{2:x}" in action for action in row.moves)  # a run dropped names its size
        kings = page.locator('#table .pile[data-role="foundation"] .card[data-card^="K"]')
        await kings.nth(3).wait_for(timeout=10_000)  # the last cards may still be on their way home
        assert await kings.count() == 4
        assert page.errors == []


async def test_freecell_by_taps_a_double_tap_an_illegal_drop_and_auto_play(fake_discord, tmp_path, browser):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        bob = fake_discord.add_user("bob")
        token = await rig.sign_in(bob)
        view = await rig.start(token, "freecell", DEAL_1)
        game_id = view["game"]["id"]
        page = await open_page(browser, rig, bob, kind="freecell", width=390, height=844)
        assert await page.locator('#table .pile[data-role="cell"]').count() == 4
        start = await table_cards(page)

        # 6♠ on 9♣: the engine's reason, in words; nothing changes.
        before = await version(page)
        await drag(page, "1", "2")
        await page.wait_for_function("document.querySelector('#say').textContent.length > 0")
        said = await page.locator("#say").text_content()
        assert "6♠ cannot go on 9♣" in said and "other colour" in said, said
        await page.wait_for_function(
            "!window.boulanger.state.queue.length && !window.boulanger.state.sending"
        )
        assert await version(page) == before and await table_cards(page) == start
        assert (await rig.service.store.get_game(game_id)).moves == ()

        # Tap a card, tap a free cell: the solver's first moves.
        mirror = engine.new_game(DEAL_1)
        for move in ("7a", "7b"):
            before = await version(page)
            await tap(page, move[0])
            await page.wait_for_selector(f'#table .pile[data-place="{move[0]}"] .card.picked')
            await page.wait_for_timeout(450)  # not a double tap
            await tap(page, move[1])
            await settled(page, before)
            mirror.play(move)
        assert (await rig.service.store.get_game(game_id)).moves == ("7a", "7b")

        # A double tap plays the chat's one press (FreeCell's: the longest run onto a column).
        expected = front_for("freecell").double_tap(mirror, "7")
        before = await version(page)
        await tap(page, "7", twice=True)
        await settled(page, before)
        row = await rig.service.store.get_game(game_id)
        played, *sent_home = row.moves[-1].split(",")
        assert played == expected
        mirror.play(expected)
        assert sent_home and all(m.endswith("h") for m in sent_home)  # auto-play rode in the action
        # The page draws the engine's position, the cards safe auto-play sent home included.
        drawn = await table_cards(page)
        for place in mirror.places():
            assert drawn[place] == [engine.cards.card_text(c) for c in mirror.cards_at(place)], place
        homes = [c for k, cards in drawn.items() if k.startswith("h:") for c in cards]
        assert len(homes) == sum(1 for n in mirror.foundation_counts() if n)
        assert await page.evaluate("window.boulanger.state.view.game.home") == mirror.cards_home
        assert page.errors == []
