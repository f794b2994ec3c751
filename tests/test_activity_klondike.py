"""Klondike in the Activity's page (headless Chromium, the real server, store and engine, the fake
Discord's OAuth2): a game won by drags of runs, taps on the stock, double taps and Finish, at a
phone's size; the page drawing face-down cards as backs it never learns, the draw-three waste
fanned, a foundation's card dragged back to a pile, a group that does not fit refused in the
engine's words; and the screenshots the docs show (``IMAGES``/klondike)."""

from __future__ import annotations

import contextlib

import pytest

import engine
from bot.adapter.cooldowns import Rate
from bot.play.error_words import error_text, of_game
from engine.cards import card_text
from tests.activity_browser import IMAGES, drag, open_page, pile_cards, settled, spot, table_cards, version
from tests.activity_rig import activity_rig
from tests.klondike_activity import greedy_move, klondike_in_activity

pytestmark = pytest.mark.browser

PLENTY = {"move": Rate(10_000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0)}
WON_BY_GREEDY = "KL1-D1-AAAAAAC"  # the engine's tests' greedy player wins it
DRAW_THREE = "KL1-D3-AAAAAAQ"
SHOTS = IMAGES / "klondike"


async def click_place(page, place: str, *, twice: bool = False) -> None:
    """A tap (a click) on ``place``'s top card, or on its empty slot; two quick ones with ``twice``."""
    slot = f'#table .pile[data-place="{place}"] .slot'
    box = await spot(page, pile_cards(place), otherwise=slot)
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 14)
    await page.mouse.click(x, y, click_count=2 if twice else 1)


async def no_hidden_card(page, game: engine.Game) -> None:
    """Neither the page's state nor its drawing holds a card the player has not seen: every
    face-down card is a back, and the stock one back."""
    hidden = {card_text(c) for c in game.seen_state().unseen}
    table = await page.evaluate("window.boulanger.state.view.table")
    sent = {c for pile in table["piles"] for c in pile["cards"]}
    assert not sent & hidden
    drawn = await table_cards(page)
    assert not {c for cards in drawn.values() for c in cards} & hidden
    down = game.position.down
    for p in range(7):
        assert drawn[str(p + 1)][: down[p]] == ["?"] * down[p]  # backs: no data-card
    assert drawn["s"] == (["?"] if game.position.stock else [])


async def play(page, game: engine.Game, move: str, front) -> str:
    """Make ``move`` on the page as a player would: ``s`` a tap on the stock; a card home by a
    double tap when that is its double tap, else by a drag; any other a drag of its cards."""
    resolved = game.resolve(move)
    if move == "s":
        await click_place(page, "s")
        return "tap"
    source = move[:2] if move[0] == "h" else move[0]
    target = "h" if move.endswith("h") else move[-1]
    if target == "h" and front.double_tap(game, source) == move:
        await click_place(page, source, twice=True)
        return "double tap"
    await drag(page, source, target, len(resolved.cards))
    return "drag"


@contextlib.asynccontextmanager
async def klondike_page(fake_discord, tmp_path, browser, code: str):
    """A player's Klondike game dealt from ``code``, open in the page at a phone's size:
    (the front, the rig, the page, the game's id)."""
    with klondike_in_activity() as front:
        async with activity_rig(fake_discord, tmp_path, rates=PLENTY) as rig:
            ann = fake_discord.add_user("ann")
            view = await rig.start(await rig.sign_in(ann), "klondike", code)
            page = await open_page(browser, rig, ann, kind="klondike", width=390, height=844)
            yield front, rig, page, view["game"]["id"]


async def test_klondike_is_won_on_a_phone_by_drags_taps_and_finish(fake_discord, tmp_path, browser):
    async with klondike_page(fake_discord, tmp_path, browser, WON_BY_GREEDY) as (front, rig, page, game_id):
        kinds = await page.eval_on_selector_all("#kind option", "os => os.map(o => o.value)")
        assert "klondike" in kinds
        mirror = engine.new_game(WON_BY_GREEDY)
        await no_hidden_card(page, mirror)
        await page.screenshot(path=str(SHOTS / "activity-start.png"))
        ways: dict[str, int] = {}
        while not mirror.home_finishes():
            move = greedy_move(mirror)
            assert move is not None, "the greedy line is stuck"
            before = await version(page)
            way = await play(page, mirror, move, front)
            await settled(page, before)
            said = await page.locator("#say").text_content()
            assert not said, f"{move}: {said}"
            mirror.play(move)
            ways[way] = ways.get(way, 0) + 1
            row = await rig.service.store.get_game(game_id)
            assert row.moves[-1] == move
            if mirror.move_count == 60:
                await no_hidden_card(page, mirror)
                await page.screenshot(path=str(SHOTS / "activity-mid.png"))
        assert ways["tap"] >= 10 and ways["drag"] >= 10 and ways["double tap"] >= 5, ways
        home = page.locator("#home")
        assert await home.text_content() == "Finish" and await home.is_enabled()
        before = await version(page)
        await home.click()
        await settled(page, before)
        row = await rig.service.store.get_game(game_id)
        assert row.status == "won"
        kings = page.locator('#table .pile[data-role="foundation"] .card[data-card^="K"]')
        await kings.nth(3).wait_for(timeout=10_000)
        assert page.errors == []


async def test_draw_three_a_foundation_card_back_and_a_group_that_does_not_fit(
    fake_discord, tmp_path, browser
):
    async with klondike_page(fake_discord, tmp_path, browser, DRAW_THREE) as (front, rig, page, game_id):
        mirror = engine.new_game(DRAW_THREE)

        # The stock turns three, side by side, the top one on the right.
        before = await version(page)
        await click_place(page, "s")
        await settled(page, before)
        mirror.play("s")
        waste = page.locator('#table .pile[data-place="w"] .card')
        assert await waste.count() == 3
        boxes = [await spot(page, pile_cards("w"), i) for i in range(3)]
        assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"] and boxes[0]["y"] == boxes[2]["y"]
        shown = [await waste.nth(i).get_attribute("data-card") for i in range(3)]
        assert shown == [card_text(c) for c in mirror.position.waste[-3:]]
        await no_hidden_card(page, mirror)

        # A♥ and A♦ home by double taps (their piles turn up a card), then A♦ dragged back
        # onto pile 7's 2♣.
        for move in ("2h", "3h"):
            assert front.double_tap(mirror, move[0]) == move
            before = await version(page)
            await click_place(page, move[0], twice=True)
            await settled(page, before)
            mirror.play(move)
        await no_hidden_card(page, mirror)
        await page.screenshot(path=str(SHOTS / "activity-draw3.png"))
        suit = "hd" if mirror.position.found[2] else "hh"
        back = f"{suit}7"
        assert mirror.is_legal(back), mirror.seen_text()
        before = await version(page)
        await drag(page, suit, "7")
        await settled(page, before)
        mirror.play(back)
        assert (await rig.service.store.get_game(game_id)).moves[-1] == back
        assert (await table_cards(page))["7"][-1] == card_text(mirror.position.piles[6][-1])

        # The keyboard picks up face-up cards only: pile 7's two, never a back under them.
        pile7 = page.locator('#table .pile[data-place="7"]')
        await pile7.focus()
        await page.keyboard.press("Enter")
        for _ in range(4):
            await page.keyboard.press("ArrowUp")
        assert await pile7.locator(".card.picked").count() == 2 == len(mirror.position.piles[6]) - 6
        await page.keyboard.press("Escape")
        assert "7: 🂠 🂠 🂠 🂠 🂠 🂠 2♣ A♦" in (await pile7.get_attribute("aria-label") or "")

        # A group of two dropped where it does not go: refused in the engine's words (the
        # front's own, when another group of that pile would go there), nothing moves.
        source = next(p for p in range(7) if len(mirror.position.piles[p]) - mirror.position.down[p] > 1)
        target = next(d for d in range(7) if d != source and mirror.position.piles[d])
        with pytest.raises(engine.IllegalMove) as refused:
            mirror.play(front.drop(mirror, str(source + 1), str(target + 1), 2))
        words = error_text("en", of_game(refused.value, "klondike"))
        start = await table_cards(page)
        before = await version(page)
        await drag(page, str(source + 1), str(target + 1), 2)
        await page.wait_for_function("document.querySelector('#say').textContent.length > 0")
        assert await page.locator("#say").text_content() == words
        await page.wait_for_function(
            "!window.boulanger.state.queue.length && !window.boulanger.state.sending"
        )
        assert await version(page) == before and await table_cards(page) == start

        # The stock turned to its end, its empty place shows the redeal mark, and a tap
        # there turns the waste back over; the refusal's words went with the first turn.
        while mirror.position.stock:
            before = await version(page)
            await click_place(page, "s")
            await settled(page, before)
            mirror.play("s")
            assert not await page.locator("#say").text_content()
        stock = page.locator('#table .pile[data-place="s"]')
        assert await stock.locator(".card").count() == 0
        assert await stock.locator(".slot-label").text_content() == "↻"
        before = await version(page)
        await click_place(page, "s")
        await settled(page, before)
        mirror.play("s")
        assert (await table_cards(page))["s"] == ["?"] and (await table_cards(page))["w"] == []
        await no_hidden_card(page, mirror)
        assert page.errors == []
