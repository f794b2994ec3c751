"""The Activity's page on a phone: Debian's Chromium with Playwright's touch emulation (has_touch,
is_mobile; fingers through the DevTools protocol's touch events, so the browser's own gesture
handling, scrolling and text selection, takes part) at 390 × 844 and 360 × 740, against the real
server, store and engine: a game won by finger drags and taps, a drag cancelled when the finger
leaves the table, a long press that selects nothing, no page scroll while dragging, the layout
inside a notched phone's safe area, touch targets a finger wide, and the screenshots the docs
show (``IMAGES``)."""

from __future__ import annotations

import pytest

import engine
from bot.adapter.cooldowns import Rate
from bot.languages.i18n import Translator
from tests.activity_browser import (
    IMAGES,
    drop_slot,
    open_page,
    pile_cards,
    settled,
    spot,
    table_cards,
    version,
)
from tests.activity_rig import activity_rig, drop_of

CODE = "BK1-C4-AAAAA24"
PLENTY = {"move": Rate(10_000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0)}
PHONES = [(390, 844), (360, 740)]
NOTCH = {"top": 47, "bottom": 34, "left": 0, "right": 0}  # a notched phone held upright


class Finger:
    """One finger on the page's screen (CDP ``Input.dispatchTouchEvent``)."""

    def __init__(self, page, cdp) -> None:
        self.page, self.cdp = page, cdp

    async def touch(self, kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        await self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    async def drag(
        self, x0: float, y0: float, x1: float, y1: float, *, steps: int = 6, hold: int = 0
    ) -> None:
        await self.touch("touchStart", x0, y0)
        if hold:
            await self.page.wait_for_timeout(hold)
        for i in range(1, steps + 1):
            await self.touch("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        await self.touch("touchEnd", x1, y1)

    async def tap(self, x: float, y: float) -> None:
        await self.page.touchscreen.tap(x, y)


async def phone(browser, rig, user, width, height, *, notch=False):
    page = await open_page(
        browser, rig, user, width=width, height=height, touch=True, safe_area=NOTCH if notch else None
    )
    return page, Finger(page, page.cdp)


async def card_spot(page, place: str, count: int = 1) -> tuple[float, float]:
    """Where a finger presses to carry ``count`` cards of ``place``'s top: the visible edge of the
    lowest of them (the top card's middle)."""
    box = await spot(page, pile_cards(place), -count)
    edge = box["height"] / 2 if count == 1 else 8
    return box["x"] + box["width"] / 2, box["y"] + edge


async def drop_spot(page, place: str) -> tuple[float, float]:
    box = await spot(page, drop_slot(place), 0)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize(("width", "height"), PHONES)
async def test_a_game_won_by_finger_drags_and_taps(fake_discord, tmp_path, browser, width, height):
    from engine.solver import solve

    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        found = solve(engine.new_game(engine.parse_code(CODE)), time_limit=20.0)
        assert found.verdict == "winnable"
        page, finger = await phone(browser, rig, ann, width, height)
        assert await page.locator("#help").text_content() == Translator("en")("activity.touch_help")
        tapped = ""
        for i, move in enumerate(found.moves):
            source, target, count = drop_of(move)
            before = await version(page)
            if count == 1 and i % 2:  # every other single card by two taps: it, then its place
                if source == tapped:
                    await page.wait_for_timeout(450)  # not a double tap on the last tapped pile
                await finger.tap(*await card_spot(page, source))
                await page.wait_for_selector(f'#table .pile[data-place="{source}"] .card.picked')
                await finger.tap(*await drop_spot(page, target))
                tapped = target
            else:
                await finger.drag(*await card_spot(page, source, count), *await drop_spot(page, target))
                tapped = ""
            await settled(page, before)
            said = await page.locator("#say").text_content()
            assert not said, f"{move}: {said}"
        assert (await rig.service.store.get_game(view["game"]["id"])).status == "won"
        assert await page.evaluate("window.boulanger.state.rollbacks") == 0
        assert page.errors == []


@pytest.mark.parametrize(("width", "height"), PHONES)
async def test_fingers_on_a_notched_phone(fake_discord, tmp_path, browser, width, height):
    """Cancelled drags, long presses, no scrolling under a drag, the safe area and the sizes."""
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
        bob = fake_discord.add_user("bob")
        token = await rig.sign_in(bob)
        view = await rig.start(token, "bakers", CODE)
        page, finger = await phone(browser, rig, bob, width, height, notch=True)
        start = await table_cards(page)

        # A drag whose finger leaves the table (let go over the header): nothing is played.
        x, y = await card_spot(page, "6")
        bar = await page.locator("#bar").bounding_box()
        await finger.drag(x, y, x, bar["y"] + bar["height"] / 2)
        await page.wait_for_timeout(400)
        assert await table_cards(page) == start
        assert (await rig.service.store.get_game(view["game"]["id"])).moves == ()

        # A long press on a card, on the header and on the words below selects nothing. (Chromium
        # on Linux makes no touch selection of its own, so what a phone's browser reads is checked
        # too: no text of the page can be selected outside its form fields, and a long press's
        # context menu on the table is cancelled.)
        for where in (await card_spot(page, "3"), await centre(page, "#code"), await centre(page, "#help")):
            await finger.drag(*where, *where, steps=1, hold=900)
            assert await page.evaluate("window.getSelection().toString()") == ""
        selectable = await page.evaluate(
            """() => [...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null
                && getComputedStyle(e).userSelect !== 'none').map(e => e.id || e.tagName)"""
        )
        assert selectable == ["kind", "code-input"]  # the form fields only
        cancelled = await page.evaluate(
            """() => { const e = new MouseEvent('contextmenu', {bubbles: true, cancelable: true});
                return !document.querySelector('#table .card').dispatchEvent(e); }"""
        )
        assert cancelled

        # The page is taller than the screen: a swipe on the words below scrolls it …
        assert await page.evaluate("document.documentElement.scrollHeight > innerHeight")
        hx, hy = await centre(page, "#controls")
        await finger.drag(hx, hy, hx, hy - 200, steps=8)
        await page.wait_for_timeout(300)
        assert await page.evaluate("scrollY") > 0
        await page.evaluate("scrollTo(0, 0)")
        await page.wait_for_timeout(200)
        # … but a drag on the table moves cards, never the page: A♦ down to its foundation and
        # 4♣ down a long way to a free cell, watched for any scroll as it goes.
        await page.evaluate(
            "window.scrolled = 0; addEventListener('scroll', () => { window.scrolled += 1; })"
        )
        before = await version(page)
        await finger.drag(*await card_spot(page, "6"), *await drop_spot(page, "h"), steps=10)
        await settled(page, before)
        before = await version(page)
        x, y = await card_spot(page, "1")
        await finger.drag(x, y, x, y + 150, steps=5)  # down the column: no scroll, snaps back
        await page.wait_for_timeout(300)
        assert await page.evaluate("[scrollY, window.scrolled]") == [0, 0]
        assert (await rig.service.store.get_game(view["game"]["id"])).moves == ("6h",)

        # Inside the safe area: the header below the notch, the buttons above the home bar.
        box = {k: await page.locator(k).bounding_box() for k in ("#bar", "#table", "#controls")}
        assert box["#bar"]["y"] >= NOTCH["top"]
        assert box["#controls"]["y"] + box["#controls"]["height"] <= height - NOTCH["bottom"] + 1
        assert box["#table"]["x"] >= 0 and box["#table"]["x"] + box["#table"]["width"] <= width
        # The table fills the height between the header and the buttons.
        assert box["#table"]["y"] + box["#table"]["height"] >= box["#controls"]["y"] - 40
        # The header on one line; cards and each column's touch area a finger wide.
        tops = [(await page.locator(k).bounding_box())["y"] for k in ("#kind", "#code", "#numbers")]
        assert max(tops) - min(tops) < 12 and box["#bar"]["height"] < 48
        hits = await page.eval_on_selector_all(
            '#table .pile[data-role="column"] .hit', "hs => hs.map(h => h.getBoundingClientRect().width)"
        )
        assert len(hits) == 8 and min(hits) >= 44
        face = await page.locator("#table .card .face").first.bounding_box()
        assert face["width"] >= (44 if width >= 390 else 42)
        # The code box shows its whole placeholder.
        fits = await page.evaluate(
            """() => { const i = document.querySelector('#code-input'); const c = document.createElement('canvas')
                .getContext('2d'); c.font = getComputedStyle(i).font;
                return c.measureText(i.placeholder).width <= i.clientWidth; }"""
        )
        assert fits
        await page.evaluate("scrollTo(0, 0)")
        await page.screenshot(path=str(IMAGES / f"activity-touch-{width}.png"))
        assert page.errors == []


async def centre(page, selector: str) -> tuple[float, float]:
    box = await page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 12)
