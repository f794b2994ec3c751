"""The Activity's page on a slow, jittery network (tests/activity_network.py: a delaying proxy
between Debian's Chromium and the real server, store and engine): a late refresh never takes
the page back, quick drags made while earlier ones are on their way all land in order, and a
move the server refuses brings the page back to the server's position in the page's words."""

from __future__ import annotations

import engine
from bot.adapter.cooldowns import Rate
from bot.games import front_for
from bot.languages.i18n import Translator
from tests.activity_browser import drag, held, let_go, lift, open_page, settled, table_cards, tap, version
from tests.activity_network import late, phone
from tests.activity_rig import activity_rig, drop_of, solution

CODE = "BK1-C4-AAAAA24"
PLENTY = {"move": Rate(10_000, 1.0), "start": Rate(100, 1.0), "hint": Rate(100, 1.0), "room": Rate(1000, 1.0)}

WATCH_NUMBERS = """() => { window.seen = [];
    new MutationObserver(() => window.seen.push(document.querySelector('#numbers').textContent))
      .observe(document.querySelector('#numbers'), {childList: true, characterData: true, subtree: true}); }"""


async def drained(page) -> None:
    await page.wait_for_function(
        "() => { const s = window.boulanger.state; return !s.queue.length && !s.sending; }", timeout=20_000
    )


async def behind_the_chat(fake_discord, rig, browser, name: str):
    """A player's page on version 1 while the chat's board moved A♦ home (version 2): the page's
    next drops are refused as out of date. The player, the game's id and the page."""
    user = fake_discord.add_user(name)
    token = await rig.sign_in(user)
    view = await rig.start(token, "bakers", CODE)
    page = await open_page(browser, rig, user)
    body = {"game": view["game"]["id"], "version": view["game"]["version"], "act": "drop"}
    status, _ = await rig.call(token, "/api/play", {**body, "source": "6", "target": "h"})
    assert status == 200
    return user, view["game"]["id"], page


def position(game: engine.Game) -> tuple:
    return tuple(tuple(game.cards_at(p)) for p in game.places()), tuple(game.foundation_counts())


async def test_a_late_refresh_cannot_take_the_page_back(fake_discord, tmp_path, browser):
    """Every answer of /api/state held 300 ms: a refresh asked just before each drop answers
    after the drop's own answer, with an older position. The page never shows it."""
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY, network=late("/api/state", 0.3)) as rig:
        ann = fake_discord.add_user("ann")
        token = await rig.sign_in(ann)
        view = await rig.start(token, "bakers", CODE)
        page = await open_page(browser, rig, ann)
        await page.evaluate(WATCH_NUMBERS)
        moves = solution(CODE)[:16]
        for move in moves:
            before = await version(page)
            await page.evaluate("window.boulanger.refresh(false)")  # on its way: 300 ms
            await drag(page, *drop_of(move))
            await settled(page, before)
        await page.wait_for_timeout(700)  # the last late answers arrive
        seen = await page.evaluate("window.seen")
        counts = [int(text.split("·")[1]) for text in seen]
        assert counts == sorted(counts), seen  # never a move count going back
        assert counts[-1] == len(moves)
        assert await page.evaluate("window.boulanger.state.refusals") == 0
        assert not await page.locator("#say").text_content()
        row = await rig.service.store.get_game(view["game"]["id"])
        assert len(row.moves) == len(moves) and row.version == await version(page)
        assert page.errors == []


async def test_ten_quick_drags_on_a_slow_network_all_land_in_order(fake_discord, tmp_path, browser):
    """150 ms round trip, 50 ms jitter: ten drags made one after the other without waiting for
    the answers, each drawn at once on the one before, sent one by one: none refused, none lost."""
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY, network=phone()) as rig:
        bob = fake_discord.add_user("bob")
        token = await rig.sign_in(bob)
        view = await rig.start(token, "bakers", CODE)
        page = await open_page(browser, rig, bob)
        moves = solution(CODE)[:10]
        mirror = engine.new_game(engine.parse_code(CODE))
        for move in moves:
            await drag(page, *drop_of(move))
            mirror.play(move)
        # Drawn at once: the page shows the tenth move's position while answers are on their way.
        assert (await page.locator("#numbers").text_content()).endswith("· 10")
        await drained(page)
        state = await page.evaluate(
            "(() => { const s = window.boulanger.state;"
            " return {refusals: s.refusals, rollbacks: s.rollbacks, drawn: s.drawn.length}; })()"
        )
        assert state == {"refusals": 0, "rollbacks": 0, "drawn": 10}
        row = await rig.service.store.get_game(view["game"]["id"])
        assert len(row.moves) == 10
        stored = engine.replay(engine.parse_code(CODE), row.moves)
        assert position(stored) == position(mirror)  # the same moves, in the same order
        assert await version(page) == row.version
        assert not await page.locator("#say").text_content()
        assert page.errors == []


async def test_a_refused_move_rolls_back_to_the_servers_position_in_the_pages_words(
    fake_discord, tmp_path, browser
):
    """The game moves on in the chat while the page shows an older position: the page's next
    drops (drawn at once) are refused, and the page shows where the game stands and says so."""
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY, network=phone()) as rig:
        cy, game_id, page = await behind_the_chat(fake_discord, rig, browser, "cy")
        moves = solution(CODE)
        free = await held(page, "/api/play")
        await drag(page, *drop_of(moves[0]))  # on version 1: refused as out of date (on its way …)
        await drag(page, *drop_of(moves[1]))  # … while this one is queued behind it: rolled back with it
        assert await page.evaluate("window.boulanger.state.queue.length") == 2
        free.set()
        await drained(page)
        said = await page.locator("#say").text_content()
        assert said == Translator("en")("activity.moved_on")
        assert "/board" not in said and "/" not in said
        row = await rig.service.store.get_game(game_id)
        assert row.moves == ("6h",)
        assert await version(page) == row.version
        fresh = await open_page(browser, rig, cy)
        assert await table_cards(page) == await table_cards(fresh)  # the server's position
        assert await page.evaluate("window.boulanger.state.rollbacks") == 1
        # And the page plays on from there.
        before = await version(page)
        await drag(page, "7", "a")
        await settled(page, before)
        assert (await rig.service.store.get_game(game_id)).moves == ("6h", "7a")
        assert page.errors == []


async def test_a_double_tap_made_while_a_drop_is_on_its_way_is_played_after_it(
    fake_discord, tmp_path, browser
):
    """The one-press move's target depends on the position it is played on: queued, it is drawn
    when its turn comes (on the position the drop before it left) and played there."""
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY, network=phone()) as rig:
        di = fake_discord.add_user("di")
        token = await rig.sign_in(di)
        view = await rig.start(token, "bakers", CODE)
        page = await open_page(browser, rig, di)
        free = await held(page, "/api/play")
        await drag(page, "6", "h")  # A♦ home, on its way …
        await tap(page, "7", twice=True)  # … while column 7 is tapped twice
        assert await page.evaluate("window.boulanger.state.queue.length") == 2
        free.set()
        await drained(page)
        mirror = engine.new_game(engine.parse_code(CODE))
        mirror.play("6h")
        one_press = front_for("bakers").double_tap(mirror, "7")
        row = await rig.service.store.get_game(view["game"]["id"])
        assert row.moves == ("6h", one_press)
        assert await page.evaluate("[window.boulanger.state.refusals, window.boulanger.state.rollbacks]") == [
            0,
            0,
        ]
        assert await version(page) == row.version
        assert page.errors == []


async def test_cards_held_while_a_refusal_comes_are_not_dropped_on_the_servers_position(
    fake_discord, tmp_path, browser
):
    """A finger carries cards while the answer to a move before them says the game moved on: they
    were picked up on a position that did not happen, so letting go plays nothing; the page shows
    the server's position and its words about the refusal stay."""
    async with activity_rig(fake_discord, tmp_path, rates=PLENTY, network=phone()) as rig:
        eve, game_id, page = await behind_the_chat(fake_discord, rig, browser, "eve")
        moves = solution(CODE)
        free = await held(page, "/api/play")
        await drag(page, *drop_of(moves[0]))  # A♦ home on version 1: refused, on its way …
        source, target, count = drop_of(moves[1])
        await lift(page, source, count)  # … while the next cards are picked up
        free.set()
        await page.wait_for_function("window.boulanger.state.refusals === 1", timeout=20_000)
        await let_go(page, target)
        await drained(page)
        assert await page.locator("#say").text_content() == Translator("en")("activity.moved_on")
        assert (await rig.service.store.get_game(game_id)).moves == ("6h",)
        fresh = await open_page(browser, rig, eve)
        assert await table_cards(page) == await table_cards(fresh)
        assert page.errors == []
