"""Issue 25: option values Discord's own client never sends, through the real bot process.

A modified client can make Discord carry a choice outside the list, a number out of range or
of another type, an id that ``resolved`` does not hold (or no number at all), a required
option left out, an option the command does not have, or a select menu's values ``[null]``.
Every one gets the clear private answer, never a traceback or "Something went wrong".
"""

from __future__ import annotations

from typing import Any

from tests.test_bot_discord import CODE

UNRESOLVED = "1234567890123456789"


def baseline(definition: dict[str, Any]) -> Any:
    """A value Discord would send for an option (the first choice, a small number...)."""
    if definition.get("choices"):
        return definition["choices"][0]["value"]
    return {3: "BK1-C4-AAAAA24", 4: definition.get("min_value", 1), 5: False}.get(definition["type"])


def odd_values(definition: dict[str, Any]) -> list[Any]:
    kind = definition["type"]
    if kind == 3:
        odd: list[Any] = [12, None, ["x"]]
        if definition.get("choices"):
            odd += ["zz-not-a-choice", "", "BAKERS"]
        return odd
    if kind == 4:
        low, high = definition.get("min_value"), definition.get("max_value")
        allowed = [c["value"] for c in definition.get("choices") or []]

        def valid(value: Any) -> bool:
            if isinstance(value, bool) or not isinstance(value, int):
                return False
            return value in allowed or (low is not None and high is not None and low <= value <= high)

        return [v for v in (3, 2**63, -(2**63) - 1, 0, -1, 10**30, "abc", 2.5, None, True) if not valid(v)]
    if kind == 5:
        return ["maybe", 2, None]
    if kind in (6, 7):  # user, channel: ids the resolved data does not hold, or no id at all
        return [UNRESOLVED, "abc", "-1", "", 2**64, None]
    return [None]


def cases(commands: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    found = []
    for command in commands:
        defs = [d for d in command.get("options") or [] if d["type"] not in (1, 2)]
        if not defs:
            found.append((command["name"], [{"name": "nothing", "type": 3, "value": "x"}]))  # not its option
            continue
        required = [d for d in defs if d.get("required")]
        for gone in required:  # a required option left out
            kept = [d for d in required if d is not gone]
            found.append(
                (
                    command["name"],
                    [{"name": d["name"], "type": d["type"], "value": baseline(d)} for d in kept],
                )
            )
        for d in defs:
            others = [r for r in required if r is not d]
            base = [{"name": r["name"], "type": r["type"], "value": baseline(r)} for r in others]
            for value in odd_values(d):
                if d["name"] == "notation" and isinstance(value, str):
                    continue  # any text is a notation to try (and answered: issue 15's fuzz)
                found.append(
                    (command["name"], [*base, {"name": d["name"], "type": d["type"], "value": value}])
                )
            found.append(
                (
                    command["name"],
                    [*base, {"name": d["name"], "type": 3 if d["type"] != 3 else 4, "value": "1"}],
                )
            )
    return found


async def test_odd_option_values_get_the_clear_private_answer(fake_discord, bot_process):
    fake = fake_discord
    await bot_process.start()
    alice = fake.add_user("alice")
    fake.add_member(alice, manage_guild=True)
    await fake.slash(alice, "boulanger", {"code": CODE})  # a game to act on
    sent = cases(fake.commands(fake.guild))
    unanswered, public, generic = [], [], []
    for name, options in sent:
        result = await fake.slash_raw(alice, name, options, timeout=15)
        if result.failed or result.message is None:
            unanswered.append((name, options))
            continue
        shown = result.followups[-1] if result.followups else result.message
        if not shown.ephemeral:
            public.append((name, options, shown.text()[:80]))
        if "went wrong" in shown.text():
            generic.append((name, options))
    print(f"{len(sent)} odd option payloads, {len(sent) - len(unanswered)} answered")
    assert unanswered == []
    assert generic == []
    assert public == []
    assert len(sent) >= 200
    assert "Traceback" not in bot_process.output


async def test_a_select_menu_with_odd_values_is_answered(fake_discord, bot_process):
    fake = fake_discord
    await bot_process.start()
    alice = fake.add_user("alice")
    board = (await fake.slash(alice, "boulanger", {"code": CODE})).message
    menu = next(c for c in board.custom_ids() if c.startswith("m:"))
    for values in ([None], [], [12], [["x"]], ["zz"], ["6h", "6h"], [""]):
        result = await fake.press(alice, board, menu, component_type=3, values=values)
        assert not result.failed, values
        shown = result.followups[-1] if result.followups else result.message
        assert shown.ephemeral and "went wrong" not in shown.text(), (values, shown.text())
    assert "Traceback" not in bot_process.output
