"""Issue 25: presses discord.py drops, answered by the real bot process through the fake Discord.

Discord sends a press with the message as it is *now* (``FakeDiscord.press``): a fast second
tap, a forged id off its message or a component of the wrong type would otherwise end in
"This interaction failed".
"""

from __future__ import annotations

import storage
from tests.test_bot_discord import CODE, button, eventually
from tests.test_bot_guards import BIG, forged_ids, post_buttons


async def stored_game(bot_process, user_id: int):
    store = await storage.open_store(str(bot_process.db_path))  # a second process on the bot's file
    try:
        return await store.active_game(user_id, "bakers")
    finally:
        await store.close()


def shown(result):
    return result.followups[-1] if result.followups else result.message


async def test_a_double_tap_is_answered_and_plays_once(fake_discord, bot_process):
    fake = fake_discord
    await bot_process.start()
    alice = fake.add_user("alice")
    board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
    first, second = button(board, "h"), button(board, "8")  # both drawn at version 0
    played = await fake.click(alice, board, first)
    assert "A♦ from column 6 home" in played.text()
    assert first not in fake.message(board.id).custom_ids()  # the board was redrawn
    tap = await fake.press(alice, board, second)  # the second tap, against the edited board
    assert not tap.failed and tap.ephemeral and "out of date" in tap.text()
    game = await stored_game(bot_process, alice.id)
    assert game.moves == ("6h",)
    again = await fake.press(alice, board, first)  # the same button twice: still played once
    assert not again.failed and again.ephemeral and "out of date" in again.text()
    assert (await stored_game(bot_process, alice.id)).moves == ("6h",)
    await eventually(lambda: f"g:{game.id}:{game.version}:" in button(fake.message(board.id), "8"))


async def test_forged_ids_on_and_off_the_message_and_of_the_wrong_type_are_all_answered(
    fake_discord, bot_process
):
    fake = fake_discord
    await bot_process.start()
    alice, mallory = fake.add_user("alice"), fake.add_user("mallory")
    board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
    game = await stored_game(bot_process, alice.id)
    other = (await fake.slash(mallory, "boulanger", {"code": CODE})).message
    menus = [f"m:{game.id}:{game.version}", f"m:{game.id}:99", f"m:{BIG}:0", "m:0:0", f"q:{BIG}:x"]
    ids = forged_ids(game.id, game.version, alice.id) + menus
    decoy = await post_buttons(fake, ["x:decoy"])
    unanswered, public, answered = [], {}, 0
    for cid in ids:
        on_message = await post_buttons(fake, [cid])
        cases = [
            (alice, decoy, 2, None),  # off the message
            (alice, board.id, 2, None),  # off the message, on the game's own board
            (mallory, board.id, 2, None),  # someone else's press on that board
            (alice, other.id, 2, None),  # on another player's board
            (alice, on_message, 3, ["1"]),  # on the message, as the wrong type of component
        ]
        for user, message, kind, values in cases:
            result = await fake.press(user, message, cid, component_type=kind, values=values, timeout=10)
            if result.failed or result.message is None:
                unanswered.append((cid, message, kind))
                continue
            answered += 1
            if result.edited is not None and not result.followups and cid.startswith("n:"):
                continue  # a well-formed question button edits its (ephemeral) question
            last = shown(result)
            if not last.ephemeral:
                public[(cid, message, kind)] = last.text()
            assert "went wrong" not in last.text(), (cid, last.text())
    print(f"{len(ids)} forged ids, {answered} presses off their message or of the wrong type answered")
    assert len(ids) >= 73
    assert unanswered == []
    assert public == {}
    assert answered == 5 * len(ids)
    assert (await stored_game(bot_process, alice.id)).moves == ()
    assert fake.message(other.id).custom_ids() == other.custom_ids()  # mallory's board untouched
    assert "unexpected error" not in bot_process.output
