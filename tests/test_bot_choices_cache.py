"""A player's own choices (language, deck, lost-deal warning, the games' settings) cost one
database read per ``CACHE_SECONDS``, not one each (issue 26: one round trip per press)."""

from __future__ import annotations

import pytest

import storage
from bot.languages import language


@pytest.fixture
async def counted(tmp_path, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(language, "_clock", lambda: now[0])
    store = await storage.open_store(str(tmp_path / "choices.sqlite3"))
    reads: list[int] = []
    real = store.user_choices

    async def user_choices(user_id: int) -> storage.UserChoices:
        reads.append(user_id)
        return await real(user_id)

    monkeypatch.setattr(store, "user_choices", user_choices)
    try:
        yield store, reads, now
    finally:
        await store.close()


async def everything(store, user_id: int):
    return (
        await language.user_choice(store, user_id),
        await language.user_deck(store, user_id),
        await language.warns_lost(store, user_id),
        await language.player_settings(store, user_id),
    )


async def test_the_four_choices_of_a_player_are_one_read(counted):
    store, reads, now = counted
    await store.set_user_language(7, "nl")
    await store.set_user_deck(7, "four")
    await store.set_user_lost_warning(7, False)
    await store.set_player_setting(7, "freecell.autoplay", "off")
    assert await everything(store, 7) == ("nl", "four", False, {"freecell.autoplay": "off"})
    assert await everything(store, 7) == ("nl", "four", False, {"freecell.autoplay": "off"})
    assert reads == [7]  # twice the four, one read
    now[0] += language.CACHE_SECONDS + 0.1  # another process may have changed them since
    assert await everything(store, 8) == (None, "two", True, {})
    assert await everything(store, 7) == ("nl", "four", False, {"freecell.autoplay": "off"})
    assert reads == [7, 8, 7]


async def test_a_choice_made_here_is_seen_at_once_and_keeps_the_others(counted):
    store, reads, now = counted
    await language.set_user_choice(store, 7, "ru")  # nothing remembered yet: nothing to update
    assert await everything(store, 7) == ("ru", "two", True, {})
    await language.set_user_deck(store, 7, "four")
    await language.set_warns_lost(store, 7, False)
    await language.set_player_setting(store, 7, "freecell.autoplay", "off")
    await language.set_player_setting(store, 7, "freecell.other", "3")
    await language.set_player_setting(store, 7, "freecell.other", None)
    await language.set_user_choice(store, 7, None)
    expected = (None, "four", False, {"freecell.autoplay": "off"})
    assert await everything(store, 7) == expected
    assert reads == [7]  # each change updated what was remembered
    now[0] += language.CACHE_SECONDS + 0.1
    assert await everything(store, 7) == expected  # and it is what was stored
    assert reads == [7, 7]
