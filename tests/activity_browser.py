"""Driving the Activity's page in headless Chromium (Debian's, through Playwright's Python API):
open it as a player (the SDK's mock signs in with the fake Discord's code), drag, tap, wait
for the server's answer, read the cards drawn. The ``browser`` fixture is in conftest.py."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

# Where the page tests put their screenshots: a scratch folder, so a test run leaves the
# checkout as it was; `BOULANGER_SCREENSHOTS=docs/images ./test.sh tests/test_activity_page.py
# tests/test_activity_table.py` renews the ones the docs show.
IMAGES = Path(
    os.environ.get("BOULANGER_SCREENSHOTS") or Path(tempfile.gettempdir()) / "boulanger-screenshots"
)
IMAGES.mkdir(parents=True, exist_ok=True)


async def open_page(
    browser, rig, user, *, kind="bakers", width=1280, height=900, instance=None, touch=False, safe_area=None
):
    """``kind=None``: the address names no game (as in Discord: the server chooses);
    ``touch=True``: a phone (touch events, no mouse: Playwright's has_touch and is_mobile);
    ``safe_area``: a notched phone's insets ({"top": 47, …}, CSS's ``env(safe-area-inset-*)``).
    The page's DevTools session is ``page.cdp``."""
    context = await browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch
    )
    page = await context.new_page()
    page.cdp = await context.new_cdp_session(page)  # type: ignore[attr-defined]
    if safe_area:
        await page.cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": safe_area})  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    code = rig.fake.authorization_code(user)
    table = f"&instance_id={instance}" if instance else ""  # Discord's instanceId, outside Discord
    game = f"&kind={kind}" if kind else ""
    url = getattr(rig, "page_url", rig.url)
    await page.goto(f"{url}/?mock_code={code}{game}{table}")
    await page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    page.errors = errors  # type: ignore[attr-defined]
    return page


async def held(page, path: str) -> asyncio.Event:
    """The page's requests to ``path`` held in the browser until the event answered is set: the
    moves a test makes meanwhile are made while the first is on its way however slow the machine
    (a slow network alone is a race a loaded machine's test can lose: its move comes too late)."""
    free = asyncio.Event()

    async def hold(route) -> None:
        await free.wait()
        await route.continue_()

    await page.route(f"**{path}", hold)
    return free


async def version(page) -> int:
    return int(await page.evaluate("window.boulanger.state.view.game.version"))


async def settled(page, before: int) -> None:
    """Wait until the page shows an answer to the move proposed at version ``before``."""
    await page.wait_for_function(
        "v => { const s = window.boulanger.state;"
        " return !s.queue.length && !s.sending && s.view.game.version !== v; }",
        arg=before,
        timeout=10_000,
    )


# The box of a selector's ``index``-th match (from the end when negative; when it has none,
# ``otherwise``'s first), or how many it has. Found and measured in one script: the page draws
# its table anew on every answer (draw() empties the SVG and builds it again), so an element
# found by one call to the browser may be gone by the next (a locator's bounding_box() then
# answers None, as a test tapping while an answer came saw on a loaded machine).
SPOT = """([selector, index, otherwise]) => { let all = document.querySelectorAll(selector);
    if (!all.length && otherwise) { all = document.querySelectorAll(otherwise); index = 0; }
    const el = all[index < 0 ? all.length + index : index];
    if (!el || !el.getClientRects().length) return {count: all.length};
    const r = el.getBoundingClientRect();
    return {count: all.length, x: r.x, y: r.y, width: r.width, height: r.height}; }"""


async def spot(page, selector: str, index: int = -1, *, otherwise: str | None = None) -> dict:
    """The box (viewport pixels, as Playwright's bounding_box) of the ``index``-th element
    matching ``selector`` as the page draws it now."""
    box = await page.evaluate(SPOT, [selector, index, otherwise])
    assert "x" in box, f"{selector}: {box['count']} drawn, none at {index}"
    return box


def pile_cards(place: str) -> str:
    return f'#table .pile[data-place="{place}"] .card'


def drop_slot(place: str) -> str:
    return f'#table .pile[data-drop="{place}"] .slot'


async def drag(page, source: str, target: str, count: int = 1) -> None:
    """Press on the ``count``-th card from the top of ``source`` and let go over ``target``."""
    await lift(page, source, count)
    await let_go(page, target)


async def lift(page, source: str, count: int = 1) -> None:
    """Press on the ``count``-th card from the top of ``source`` and carry it a little way."""
    box = await spot(page, pile_cards(source), -count)
    x, y = box["x"] + box["width"] / 2, box["y"] + 4
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x, y + 20, steps=2)


async def let_go(page, target: str) -> None:
    """Carry the cards lifted over ``target``'s slot and let go."""
    goal = await spot(page, drop_slot(target), 0)
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


async def tap(page, place: str, *, index: int = -1, twice: bool = False) -> None:
    """A click on ``place``'s card (its top one unless ``index``), or on its empty slot; two
    quick ones with ``twice`` (a double tap: one call, so a slow machine keeps them quick)."""
    box = await spot(page, pile_cards(place), index, otherwise=drop_slot(place))
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 12)
    await page.mouse.click(x, y, click_count=2 if twice else 1)
