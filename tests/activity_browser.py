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


async def box_of(locator) -> dict:
    """The element's box; the page may be redrawing it (an answer just came): asked again."""
    from playwright.async_api import TimeoutError as Timeout

    for _ in range(5):
        try:
            box = await locator.bounding_box(timeout=1000)
        except Timeout:
            box = None
        if box is not None:
            return box
        await asyncio.sleep(0.01)
    raise AssertionError(f"{locator} is not on the page")


async def drag(page, source: str, target: str, count: int = 1) -> None:
    """Press on the ``count``-th card from the top of ``source`` and let go over ``target``."""
    cards = page.locator(f'#table .pile[data-place="{source}"] .card')
    n = await cards.count()
    assert n >= count, f"{source} has {n} cards, not {count}"
    box = await box_of(cards.nth(n - count))
    goal = await box_of(page.locator(f'#table .pile[data-drop="{target}"] .slot').first)
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
