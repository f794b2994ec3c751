"""Buttons already posted keep working: the custom ids the bot wrote before each game's option
and selection moved into its front still match, and read back to the same request.

The option slot (free cells, for Jeu du Boulanger) was one digit and the selection slot
``[0-9a-d]``; both now take any short token, which the game's front reads
(``GameFront.parse_option``, ``GameFront.selections``). What the bot writes is unchanged.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import engine
from bot.adapter.again import AgainButton
from bot.adapter.cogs.leaderboard import PageButton
from bot.adapter.cogs.race import CreateChoice, NewRace
from bot.adapter.confirm import Request, StartChoice
from bot.adapter.views import GameButton
from bot.games import front_for
from bot.play.feedback import UserFeedback

# Ids as the bot wrote them before this change (one of each shape).
POSTED: dict[Any, list[str]] = {
    GameButton: ["g:12:3::4", "g:12:3:a:5", "g:12:3:4:h", "g:7:0:2:f3", "g:7:0::p2", "g:9:1::u"],
    AgainButton: ["a:b:4", "a:b:2", "a:b:1", "a:c:0"],
    StartChoice: ["n:s:1:2:3:b:2:a:", "n:k:1:2:3:c:0:d:", "n:s:1:2:3:b:0::BK1-C2-AAAAA24"],
    CreateChoice: ["qc:1:b:4:2:30:", "qc:1:c:0:5:60:CA1-AAAAA24", "qc:1:b:0:2:30:BK1-C1-AAAAA24"],
    PageButton: ["lb:b:w4:20261201:1", "lb:b:a:20261201:0", "lb:c:sa:20261201:0", "lb:b:gd:20261201:-1"],
}


def read(item: Any, custom_id: str) -> Any:
    match = item.custom_id_pattern.fullmatch(custom_id)
    assert match is not None, custom_id
    return asyncio.run(item.from_custom_id(None, None, match))


@pytest.mark.parametrize(("item", "custom_id"), [(i, c) for i, ids in POSTED.items() for c in ids])
def test_an_id_posted_before_still_matches_and_reads_back_whole(item: Any, custom_id: str) -> None:
    assert read(item, custom_id).custom_id == custom_id


def test_old_ids_carry_the_same_requests() -> None:
    assert read(StartChoice, "n:s:1:2:3:b:2:a:")._request() == Request("bakers", cells=2, any_deal=True)
    assert read(StartChoice, "n:k:1:2:3:c:0:d:")._request() == Request("calculation", daily=True)
    coded = read(StartChoice, "n:s:1:2:3:b:0::BK1-C2-AAAAA24")._request()
    assert coded == Request("bakers", code=engine.parse_code("BK1-C2-AAAAA24"))
    assert read(CreateChoice, "qc:1:b:4:2:30:").request() == NewRace("bakers", 4, None, 2, 30)
    assert read(CreateChoice, "qc:1:c:0:5:60:").request() == NewRace("calculation", None, None, 5, 60)
    bakers, calculation = front_for("bakers"), front_for("calculation")
    assert [bakers.parse_option(read(AgainButton, f"a:b:{n}").option) for n in (4, 2, 1)] == [4, 2, 1]
    assert calculation.parse_option(read(AgainButton, "a:c:0").option) is None


def test_the_ids_written_now_are_the_ids_written_before() -> None:
    assert Request("bakers", cells=2, any_deal=True).custom_id_part() == "b:2:a:"
    assert Request("calculation", daily=True).custom_id_part() == "c:0:d:"
    assert NewRace("bakers", 4, None, 2, 30).custom_id(1) == "qc:1:b:4:2:30:"
    assert NewRace("calculation", None, None, 5, 60).custom_id(1) == "qc:1:c:0:5:60:"
    bakers, calculation = front_for("bakers"), front_for("calculation")
    assert [bakers.option_token(n) for n in (4, 2, 1, None)] == ["4", "2", "1", ""]
    assert calculation.option_token(None) == ""  # "0" where a slot must not be empty, as before


def test_a_forged_option_or_selection_is_refused_by_the_front() -> None:
    bakers = front_for("bakers")
    for token in ("x", "4a", "123"):
        with pytest.raises(UserFeedback, match=r"error\.unknown_button"):
            bakers.parse_option(token)
    with pytest.raises(UserFeedback, match=r"error\.bad_cells"):
        read(StartChoice, "n:s:1:2:3:b:3::")._request()  # a count the game does not offer
    with pytest.raises(UserFeedback, match=r"error\.unknown_button"):
        read(CreateChoice, "qc:1:b:zz:2:30:").request()
    game = engine.new_game("BK1-C4-AAAAA24")
    with pytest.raises(UserFeedback, match=r"error\.unknown_button"):
        bakers.press(game, "e", "3")  # a selection no Jeu du Boulanger place has
    calculation = front_for("calculation")
    with pytest.raises(UserFeedback, match=r"error\.unknown_button"):
        calculation.press(engine.new_game("CA1-AAAAA24"), "a", "f1")
