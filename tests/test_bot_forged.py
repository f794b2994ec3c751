"""Forged and odd custom ids, pressed through the fake Discord: every one gets a private answer."""

from __future__ import annotations

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.test_bot_discord import CODE, bot, eventually, start  # noqa: F401  (the fixture)

BIG = 2**63


async def post_buttons(fake: FakeDiscord, custom_ids: list[str]) -> int:
    """A message "from the bot" carrying buttons with these custom ids (as a forger would craft)."""
    rows = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": str(i + j), "custom_id": cid}
                for j, cid in enumerate(custom_ids[i : i + 5])
            ],
        }
        for i in range(0, len(custom_ids), 5)
    ]
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        body = {"content": "forged", "components": rows}
        async with http.post(f"{fake.api_base}/channels/{fake.channel.id}/messages", json=body) as response:
            assert response.status == 200, await response.text()
            return int((await response.json())["id"])


def forged_ids(game_id: int, version: int, user_id: int) -> list[str]:
    g = f"g:{game_id}:{version}"
    return [
        # out-of-range actions and selections on a real game
        f"{g}::9", f"{g}::e", f"{g}::p9", f"{g}::zz", f"{g}::f9", f"{g}::w0", f"{g}:d:h", f"{g}:9:1",
        f"{g}::0", f"{g}:a:a", f"{g}::h",
        # ids and versions out of storage's range
        f"g:{BIG}:0::1", f"g:{BIG * 4}:0::1", f"g:{10**40}:0::u", f"g:{game_id}:{10**30}::1",
        f"g:{game_id}:{BIG}::1", "g:0:0::1", f"g:{game_id}:99::1",
        # replay
        f"r:{BIG}", "r:0", f"r:{game_id}", f"r:{10**50}",
        # daily Play buttons
        "d:b:99999999", "d:z:20260101", "d:c:00000000", "d:b:20261341",
        # leaderboard pages
        "lb:b:d:99999999:0", "lb:b:a:20261301:0", "lb:z:a:20260101:0", "lb:c:w:20260101:-999999",
        "lb:b:a:00000000:999999", "lb:c:d:20260230:5",
        # matching no template at all
        "x:1", "g:abc", "lb:", "g:1:2:3:4:5", "r:", "n:s", "d:b:2026", "💥" * 20,
        # the new-game question (last: a well-formed one starts the presser's game, as asked)
        f"n:s:{user_id}:{BIG}:0:b:4::", f"n:s:{user_id}:{game_id}:0:z:4::", f"n:s:{user_id}:{game_id}:0:b:3::",
        f"n:s:{user_id}:{game_id}:0:b:4::BK1-ZZZZ", f"n:s:{user_id}:{game_id}:{BIG}:c:0:ad:CA1-AAAAA24",
        f"n:k:{user_id}:{game_id}:0:b:4::", f"n:s:{BIG}:{game_id}:0:b:4::",
        f"n:s:{user_id}:{game_id}:0:b:4:d:BK1-C4-AAAAA24",
    ]


async def test_every_forged_press_gets_a_private_answer(fake_discord, bot):
    alice = fake_discord.add_user("alice")
    board = (await start(fake_discord, alice)).message
    game = await bot.store.active_game(alice.id, "bakers")
    ids = forged_ids(game.id, game.version, alice.id)
    unanswered = []
    answers = {}
    for cid in ids:
        message = await post_buttons(fake_discord, [cid])
        result = await fake_discord.click(alice, message, cid, timeout=10)
        if result.failed or result.message is None:
            unanswered.append(cid)
            continue
        if cid.startswith("lb:") and result.edited is not None and result.edited.embeds:
            continue  # a page number out of range: the nearest page is shown (public, as all pages)
        if cid.startswith("n:") and result.edited is not None:
            continue  # a well-formed question button answers by editing its question (ephemeral there)
        shown = result.followups[-1] if result.followups else result.message
        answers[cid] = (shown.ephemeral, shown.content)
    for cid, a in answers.items():
        print(repr(cid), a)
    assert unanswered == []
    public = {cid: a for cid, a in answers.items() if not a[0]}
    assert public == {}
    for cid, (_, text) in answers.items():
        assert "went wrong" not in text, (cid, text)
    assert (await bot.store.get_game(game.id)).moves == ()
