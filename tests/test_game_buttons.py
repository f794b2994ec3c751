"""The buttons that name one game (``bot.adapter.game_buttons``): each posts exactly the
custom id, label and style it always has (a button already posted must still answer after a
restart), answers only its own ids, and is rebuilt from its id with that game."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.adapter.again import WinnableButton
from bot.adapter.game_buttons import GameButtonBase
from bot.adapter.replays import ReplayButton
from bot.adapter.views import CardsButton
from tests.test_fuzz_inputs import run_sync

# What each button posted before they shared a base: (custom id, label, style) for game 42.
POSTED = {
    CardsButton: ("k:42", "Play on the cards", discord.ButtonStyle.primary),
    ReplayButton: ("r:42", "Replay", discord.ButtonStyle.primary),
    WinnableButton: ("w:42", "How could it be won?", discord.ButtonStyle.secondary),
}


@pytest.mark.parametrize("kind", list(POSTED))
def test_each_button_posts_what_it_always_did_and_is_rebuilt_from_it(kind: Any) -> None:
    custom_id, label, style = POSTED[kind]
    button = kind(42)
    posted = {"type": 2, "custom_id": custom_id, "label": label, "style": style.value, "disabled": False}
    assert button.to_component_dict() == posted
    assert kind(42, "x" * 90).item.label == "x" * 80  # a translated label, cut to Discord's limit
    match = button.template.fullmatch(custom_id)
    assert match is not None
    rebuilt = run_sync(kind.from_custom_id(None, None, match))  # type: ignore[arg-type]
    assert type(rebuilt) is kind and rebuilt.game_id == 42 and rebuilt.custom_id == custom_id
    others = [cid for other, (cid, _, _) in POSTED.items() if other is not kind]
    assert not any(button.template.fullmatch(cid) for cid in others)


def test_the_templates_are_the_ones_posted_buttons_were_matched_by() -> None:
    assert CardsButton.custom_id_pattern.pattern == r"k:(?P<gid>[0-9]{1,20})"
    assert ReplayButton.custom_id_pattern.pattern == r"r:(?P<gid>[0-9]+)"
    assert WinnableButton.custom_id_pattern.pattern == r"w:(?P<gid>[0-9]{1,20})"
    assert all(issubclass(kind, GameButtonBase) for kind in POSTED)
