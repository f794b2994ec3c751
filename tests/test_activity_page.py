"""The Activity's page in headless Chromium (Debian's, driven by Playwright's Python API), outside
Discord with the SDK's own mock, against the real server code, store and engine and the fake
Discord's OAuth2: games won by drag and drop alone and by taps alone, an illegal drop, undo,
the double tap, the keyboard, and a chat board edited after a drag.
"""

from __future__ import annotations

import asyncio

from PIL import Image

import engine
from bot.adapter.cooldowns import Rate
from bot.games import front_for
from tests.activity_browser import IMAGES, drag, open_page, settled, table_cards, tap, version
from tests.activity_rig import activity_rig, drop_of, solution

CODE = "BK1-C4-AAAAA24"
CALC = "CA1-AAAAA24"
PLENTY = {"move": Rate(10_000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0)}


async def test_a_game_won_by_drag_and_drop_alone(fake_discord, tmp_path, browser):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        page = await open_page(browser, rig, ann)
        for move in solution(CODE):
            source, target, count = drop_of(move)
            before = await version(page)
            await drag(page, source, target, count)
            await settled(page, before)
            said = await page.locator("#say").text_content()
            assert not said, f"{move}: {said}"
        assert await rig.service.store.active_games(ann.id) == []
        assert (await rig.service.store.get_game(view["game"]["id"])).status == "won"
        text = await page.locator("#text").text_content()
        assert "won" in text.lower()
        assert await page.evaluate("window.boulanger.state.view.game.status") == "won"
        kings = page.locator('#table .pile[data-role="foundation"] .card[data-card^="K"]')
        await kings.nth(3).wait_for(timeout=10_000)  # the last cards may still be on their way home
        assert await kings.count() == 4
        # Two tokens (the test's, the page's), each checked with Discord once for ~100 calls.
        assert rig.server.auth.checks == 2 == fake_discord.bearer_checks
        assert page.errors == []


async def test_a_game_won_by_taps_alone(fake_discord, tmp_path, browser):
    """Tap a card, then tap where it goes: the solver's one-card moves, nothing dragged."""
    from engine.solver import solve

    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        bob = fake_discord.add_user("bob")
        token = await rig.sign_in(bob)
        view = await rig.start(token, "bakers", CODE)
        found = solve(engine.new_game(engine.parse_code(CODE)), time_limit=20.0, compact=False)
        assert found.verdict == "winnable"
        page = await open_page(browser, rig, bob, width=390, height=844)
        for move in found.moves:
            source, target, count = drop_of(move)
            assert count == 1
            before = await version(page)
            await tap(page, source)
            await page.wait_for_selector(f'#table .pile[data-place="{source}"] .card.picked')
            await page.wait_for_timeout(450)  # not a double tap
            await tap(page, target)
            await settled(page, before)
        game = await rig.service.store.get_game(view["game"]["id"])
        assert game.status == "won"
        assert page.errors == []


async def test_an_illegal_drop_snaps_back_says_why_and_changes_nothing(fake_discord, tmp_path, browser):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        cy = fake_discord.add_user("cy")
        token = await rig.sign_in(cy)
        view = await rig.start(token, "bakers", CODE)
        page = await open_page(browser, rig, cy)
        before_cards = await table_cards(page)
        before = await version(page)
        await drag(page, "1", "2")  # 10♥ onto 3♠
        await page.wait_for_function("document.querySelector('#say').textContent.length > 0")
        said = await page.locator("#say").text_content()
        assert "10♥ cannot go on 3♠" in said
        await page.wait_for_function(
            "!window.boulanger.state.queue.length && !window.boulanger.state.sending"
        )
        assert await version(page) == before
        assert await table_cards(page) == before_cards
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.version == view["game"]["version"] and row.moves == ()
        await page.screenshot(path=str(IMAGES / "activity-refused.png"))


async def test_undo_takes_a_dragged_move_back(fake_discord, tmp_path, browser):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        di = fake_discord.add_user("di")
        token = await rig.sign_in(di)
        view = await rig.start(token, "bakers", CODE)
        page = await open_page(browser, rig, di)
        start_cards = await table_cards(page)
        assert await page.locator("#undo").is_disabled()
        before = await version(page)
        await drag(page, "6", "h")  # A♦ home
        await settled(page, before)
        moved = await table_cards(page)
        assert moved != start_cards
        assert await page.locator("#undo").is_enabled()
        before = await version(page)
        await page.locator("#undo").click()
        await settled(page, before)
        assert await table_cards(page) == start_cards
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves[-1] == "undo"


async def test_a_double_tap_plays_the_chats_one_press_move(fake_discord, tmp_path, browser):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        eve = fake_discord.add_user("eve")
        token = await rig.sign_in(eve)
        view = await rig.start(token, "bakers", CODE)
        expected = front_for("bakers").double_tap(engine.new_game(engine.parse_code(CODE)), "7")
        page = await open_page(browser, rig, eve)
        before = await version(page)
        await tap(page, "7", twice=True)
        await settled(page, before)
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == (expected,)


async def test_the_keyboard_plays_and_every_pile_is_labelled(fake_discord, tmp_path, browser):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        fay = fake_discord.add_user("fay")
        token = await rig.sign_in(fay)
        view = await rig.start(token, "bakers", CODE)
        page = await open_page(browser, rig, fay)
        labels = await page.eval_on_selector_all(
            "#table .pile[tabindex]", "gs => gs.map(g => g.getAttribute('aria-label'))"
        )
        assert "column 6: 5♣ 8♣ A♠ 3♥ 10♠ J♦"[:9] in " ".join(labels)
        assert len(labels) == 16  # 4 cells, 4 foundations, 8 columns
        column6 = page.locator('#table .pile[data-place="6"]')
        await column6.focus()
        before = await version(page)
        await page.keyboard.press("Enter")  # pick up the top card
        home = page.locator('#table .pile[data-role="foundation"]').first
        await home.focus()
        await page.keyboard.press("Enter")  # put it home
        await settled(page, before)
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == ("6h",)


async def test_calculation_is_drawn_from_the_same_page(fake_discord, tmp_path, browser):
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        gus = fake_discord.add_user("gus")
        token = await rig.sign_in(gus)
        view = await rig.start(token, "calculation", CALC)
        game = engine.new_game(engine.parse_code(CALC))
        page = await open_page(browser, rig, gus, kind="calculation")
        turned = await page.locator('#table .pile[data-place="s"] .card').get_attribute("data-card")
        assert turned == engine.cards.card_text(game.turned)
        before = await version(page)
        await drag(page, "s", "w2")
        await settled(page, before)
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == ("sw2",)
        assert await page.locator('#table .pile[data-place="w2"] .card').get_attribute("data-card") == turned


async def test_screenshots_at_phone_and_desktop_sizes(fake_discord, tmp_path, browser):
    """The pictures in docs/images/ (see ``IMAGES``): looked at by whoever changes the page."""
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        hal = fake_discord.add_user("hal")
        token = await rig.sign_in(hal)
        await rig.start(token, "bakers", CODE)
        await rig.start(token, "calculation", CALC)
        await rig.start(token, "freecell", "FC1-C4-MS1")
        for kind in ("bakers", "calculation", "freecell"):
            for name, (width, height) in {"phone": (390, 844), "desktop": (1280, 860)}.items():
                page = await open_page(browser, rig, hal, kind=kind, width=width, height=height)
                await asyncio.sleep(0.1)
                shot = IMAGES / f"activity-{kind}-{name}.png"
                await page.screenshot(path=str(shot), full_page=True)
                with Image.open(shot) as picture:
                    assert picture.width == width and picture.height >= height
                await page.context.close()
