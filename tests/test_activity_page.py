"""The Activity's page in headless Chromium (Debian's, driven by Playwright's Python API), outside
Discord with the SDK's own mock, against the real server code, store and engine and the fake
Discord's OAuth2: games won by drag and drop alone and by taps alone, an illegal drop, undo,
the double tap, the keyboard, and a chat board edited after a drag.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

import engine
from bot.adapter.cooldowns import Rate
from bot.games import front_for
from tests.activity_rig import activity_rig, drop_of, solution

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CODE = "BK1-C4-AAAAA24"
CALC = "CA1-AAAAA24"
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
PLENTY = {"move": Rate(10_000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0)}


@pytest.fixture
async def browser():
    from playwright.async_api import async_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: bash scripts/setup.sh test installs it"
    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            await chromium.close()


async def open_page(browser, rig, user, *, kind="bakers", width=1280, height=900):
    context = await browser.new_context(viewport={"width": width, "height": height}, has_touch=False)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    code = rig.fake.authorization_code(user)
    await page.goto(f"{rig.url}/?mock_code={code}&kind={kind}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    page.errors = errors  # type: ignore[attr-defined]
    return page


async def version(page) -> int:
    return int(await page.evaluate("window.boulanger.state.view.game.version"))


async def settled(page, before: int) -> None:
    """Wait until the page shows an answer to the move proposed at version ``before``."""
    await page.wait_for_function(
        "v => !window.boulanger.state.busy && window.boulanger.state.view.game.version !== v",
        arg=before,
        timeout=10_000,
    )


async def drag(page, source: str, target: str, count: int = 1) -> None:
    """Press on the ``count``-th card from the top of ``source`` and let go over ``target``."""
    cards = page.locator(f'#table .pile[data-place="{source}"] .card')
    n = await cards.count()
    assert n >= count, f"{source} has {n} cards, not {count}"
    box = await cards.nth(n - count).bounding_box()
    assert box is not None
    goal = await page.locator(f'#table .pile[data-drop="{target}"] .slot').first.bounding_box()
    assert goal is not None
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 4)
    await page.mouse.down()
    await page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=4)
    await page.mouse.up()


async def table_cards(page) -> dict[str, list[str]]:
    return await page.evaluate(
        """() => { const out = {};
            for (const g of document.querySelectorAll('#table .pile[data-place]')) {
              const k = g.dataset.place + (g.dataset.role === 'foundation' ? ':' + g.dataset.pile : '');
              out[k] = [...g.querySelectorAll('.card')].map(c => c.dataset.card || '?'); }
            return out; }"""
    )


async def tap(page, place: str, *, index: int = -1) -> None:
    cards = page.locator(f'#table .pile[data-place="{place}"] .card')
    n = await cards.count()
    if n:
        box = await cards.nth(n - 1 if index < 0 else index).bounding_box()
    else:
        box = await page.locator(f'#table .pile[data-drop="{place}"] .slot').first.bounding_box()
    assert box is not None
    await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 12))


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
        assert await page.locator('#table .pile[data-role="foundation"] .card[data-card^="K"]').count() == 4
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
        assert found.verdict == "solvable"
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
        await page.wait_for_function("!window.boulanger.state.busy")
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
        await tap(page, "7")
        await tap(page, "7")
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
    """docs/images/: looked at by whoever changes the page."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        hal = fake_discord.add_user("hal")
        token = await rig.sign_in(hal)
        await rig.start(token, "bakers", CODE)
        await rig.start(token, "calculation", CALC)
        for kind in ("bakers", "calculation"):
            for name, (width, height) in {"phone": (390, 844), "desktop": (1280, 860)}.items():
                page = await open_page(browser, rig, hal, kind=kind, width=width, height=height)
                await asyncio.sleep(0.1)
                await page.screenshot(path=str(IMAGES / f"activity-{kind}-{name}.png"), full_page=True)
                await page.context.close()
