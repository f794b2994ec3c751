"""Guild and user settings, daily posts (never doubled, caught up), daily codes, the winnable-deal stock."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

import storage
from tests.storage_procs.clock import FakeClock

UTC = dt.UTC
DAY = dt.date(2026, 3, 4)
MIDNIGHT = dt.datetime(2026, 3, 4, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(MIDNIGHT + dt.timedelta(hours=1))


# ``store`` (tests/conftest.py) runs each test on SQLite and on PostgreSQL, with this ``clock``.


async def test_guild_settings_default_then_change_field_by_field(store):
    assert await store.guild_settings(5) == storage.GuildSettings(5, None, 0, None)
    await store.set_guild_settings(5, daily_channel_id=50)
    await store.set_guild_settings(5, post_minute=90, language="fr")
    assert await store.guild_settings(5) == storage.GuildSettings(5, 50, 90, "fr")
    assert await store.set_guild_settings(5, daily_channel_id=None) == storage.GuildSettings(
        5, None, 90, "fr"
    )
    assert await store.guild_settings(5) == storage.GuildSettings(5, None, 90, "fr")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"post_minute": 1440}, "post_minute must be from 0 to 1439"),
        ({"post_minute": -1}, "post_minute must be a non-negative"),
        ({"daily_channel_id": "chan"}, "daily_channel_id must be an integer"),
        ({"language": "x" * 36}, "at most 35"),
    ],
)
async def test_bad_guild_settings_change_nothing(store, kwargs, message):
    await store.set_guild_settings(5, daily_channel_id=50, post_minute=3)
    with pytest.raises(storage.InvalidValue, match=message):
        await store.set_guild_settings(5, **kwargs)
    assert await store.guild_settings(5) == storage.GuildSettings(5, 50, 3, None)


async def test_user_language_is_remembered_and_cleared(store):
    assert await store.user_language(9) is None
    await store.set_user_language(9, "pt-BR")
    assert await store.user_language(9) == "pt-BR"
    await store.set_user_language(9, None)
    assert await store.user_language(9) is None


async def test_user_deck_is_remembered_apart_from_the_language_and_cleared(store):
    assert await store.user_deck(9) is None
    await store.set_user_language(9, "ru")
    await store.set_user_deck(9, "four")
    assert (await store.user_deck(9), await store.user_language(9)) == ("four", "ru")
    await store.set_user_language(9, None)  # one setting's change keeps the other
    assert await store.user_deck(9) == "four"
    await store.set_user_deck(9, None)
    assert await store.user_deck(9) is None
    with pytest.raises(storage.InvalidValue, match="deck must be one of two, four"):
        await store.set_user_deck(9, "rainbow")
    assert await store.user_deck(9) is None


async def test_player_settings_are_kept_by_name_per_player_and_cleared(store):
    """The generic per-player settings a game's front declares: storage keeps any name it is
    given, apart per player and from the other settings; None goes back to the default."""
    assert await store.player_settings(9) == {}
    await store.set_player_setting(9, "somegame.rule", "off")
    await store.set_player_setting(9, "other.thing", "3")
    await store.set_player_setting(10, "somegame.rule", "on")
    await store.set_user_deck(9, "four")
    assert await store.player_settings(9) == {"other.thing": "3", "somegame.rule": "off"}
    await store.set_player_setting(9, "somegame.rule", "on")  # changed in place
    assert (await store.player_settings(9))["somegame.rule"] == "on"
    await store.set_player_setting(9, "somegame.rule", None)
    assert await store.player_settings(9) == {"other.thing": "3"}
    assert await store.player_settings(10) == {"somegame.rule": "on"}
    assert await store.user_deck(9) == "four"


async def test_a_players_choices_are_read_together_as_each_was_stored(store):
    assert await store.user_choices(9) == storage.UserChoices()  # nothing chosen: every default
    await store.set_player_setting(9, "somegame.rule", "off")
    assert await store.user_choices(9) == storage.UserChoices(settings=(("somegame.rule", "off"),))
    await store.set_user_language(9, "ru")
    await store.set_user_deck(9, "four")
    await store.set_user_lost_warning(9, False)
    await store.set_player_setting(9, "another.rule", "3")
    await store.set_user_deck(10, "two")
    choices = await store.user_choices(9)
    assert choices == storage.UserChoices(
        "ru", "four", False, (("another.rule", "3"), ("somegame.rule", "off"))
    )
    assert (choices.language, choices.deck, choices.lost_warning, dict(choices.settings)) == (
        await store.user_language(9),
        await store.user_deck(9),
        await store.user_lost_warning(9),
        await store.player_settings(9),
    )
    assert await store.user_choices(10) == storage.UserChoices(deck="two")
    await store.set_user_lost_warning(9, True)
    assert (await store.user_choices(9)).lost_warning is True
    with pytest.raises(storage.InvalidValue, match="user_id"):
        await store.user_choices(-1)


@pytest.mark.parametrize(
    ("name", "value"),
    [("", "on"), ("x" * 65, "on"), ("a rule", "on"), ("rule", ""), ("rule", "o'n"), (3, "on"), ("rule", 1)],
)
async def test_bad_player_settings_are_refused_and_change_nothing(store, name, value):
    with pytest.raises(storage.InvalidValue, match="a setting's"):
        await store.set_player_setting(9, name, value)
    assert await store.player_settings(9) == {}


async def test_daily_posts_are_due_after_the_post_time_and_done_once_recorded(store):
    await store.set_guild_settings(1, daily_channel_id=11)
    await store.set_guild_settings(2, daily_channel_id=22, post_minute=120)
    await store.set_guild_settings(3, language="de")  # no daily channel: never due
    assert [g.guild_id for g in await store.pending_daily_posts(DAY, now=MIDNIGHT)] == [1]
    assert [
        g.guild_id for g in await store.pending_daily_posts(DAY, now=MIDNIGHT + dt.timedelta(hours=2))
    ] == [1, 2]
    assert await store.pending_daily_posts(DAY, now=MIDNIGHT - dt.timedelta(minutes=1)) == []

    assert await store.claim_daily_post(1, DAY, 11) is True
    post = await store.record_daily_post_message(1, DAY, 777)
    assert (post.channel_id, post.message_id) == (11, 777) and post.posted_at is not None
    assert await store.claim_daily_post(1, DAY, 11) is False  # never doubled
    # After downtime (the next morning) the missed post of guild 2 is still due: catch up.
    late = MIDNIGHT + dt.timedelta(hours=30)
    assert [g.guild_id for g in await store.pending_daily_posts(DAY, now=late)] == [2]
    assert await store.daily_post(1, DAY) == post
    assert await store.daily_post(2, DAY) is None


async def test_concurrent_claims_let_exactly_one_poster_through(store, stores, clock):
    other = await stores.open(clock=clock)  # a second connection, as another process
    claims = await asyncio.gather(
        *(s.claim_daily_post(1, DAY, 11) for s in [store, other] * 10),
    )
    assert claims.count(True) == 1


async def test_a_stale_unsent_claim_can_be_retaken_and_a_released_one_at_once(store, clock):
    assert await store.claim_daily_post(1, DAY, 11) is True
    assert await store.claim_daily_post(1, DAY, 11, now=clock.now + dt.timedelta(minutes=9)) is False
    assert await store.claim_daily_post(1, DAY, 12, now=clock.now + dt.timedelta(minutes=10)) is True
    assert (await store.daily_post(1, DAY)).channel_id == 12
    await store.release_daily_post(1, DAY)
    assert await store.daily_post(1, DAY) is None
    assert await store.claim_daily_post(1, DAY, 11) is True
    await store.record_daily_post_message(1, DAY, 5)
    await store.release_daily_post(1, DAY)  # a sent post is never released
    assert (await store.daily_post(1, DAY)).message_id == 5


async def test_recording_an_unclaimed_post_is_refused(store):
    with pytest.raises(storage.InvalidValue, match="claim it first"):
        await store.record_daily_post_message(1, DAY, 5)


async def test_the_daily_code_is_set_once(store):
    assert await store.daily_code("bakers", DAY) is None
    assert await store.set_daily_code("bakers", DAY, "BK1-C4-AAAAA24") == "BK1-C4-AAAAA24"
    assert await store.set_daily_code("bakers", DAY, "BK1-C4-AAAAAAB") == "BK1-C4-AAAAA24"
    assert await store.daily_code("bakers", DAY) == "BK1-C4-AAAAA24"
    assert await store.daily_code("calculation", DAY) is None


async def test_winnable_deals_are_added_once_and_each_taken_once(store):
    assert await store.add_winnable_deals("bakers", "2", [10, 20, 30, 20]) == 3
    assert await store.add_winnable_deals("bakers", "2", [30, 40]) == 1
    assert await store.add_winnable_deals("bakers", "1", [10]) == 1
    assert await store.count_winnable_deals("bakers", "2") == 4
    taken = [await store.take_winnable_deal("bakers", "2") for _ in range(5)]
    assert sorted(taken[:4]) == [10, 20, 30, 40] and taken[4] is None
    assert await store.count_winnable_deals("bakers", "2") == 0
    assert await store.add_winnable_deals("bakers", "2", [10]) == 0  # a taken deal is not handed out again
    assert await store.take_winnable_deal("bakers", "2") is None
    assert await store.count_winnable_deals("bakers", "1") == 1


async def test_taking_deals_is_spread_over_the_stock(store):
    await store.add_winnable_deals("bakers", "4", range(0, 1000))
    first = [await store.take_winnable_deal("bakers", "4") for _ in range(20)]
    assert len(set(first)) == 20 and max(first) - min(first) > 300  # not simply the lowest numbers


async def test_concurrent_takers_never_get_the_same_deal(store, stores):
    await store.add_winnable_deals("calculation", "", range(30))
    other = await stores.open()
    taken = await asyncio.gather(*(s.take_winnable_deal("calculation", "") for s in [store, other] * 15))
    assert sorted(taken) == list(range(30))
