"""Board presses dispatched by the bot; presses discord.py would drop: answered, never ignored.

A board's buttons and menu (``GameButton``, ``MoveMenu``) are sent as plain component
payloads and are not registered with discord.py (issue 26: it rebuilt a whole view from the
message on every press to find the item): the bot's ``on_interaction`` dispatches them
here, under the rule discord.py applies, a component with that custom id and type on the
message the press came with, and the exceptions below.

discord.py dispatches a component press to the ``DynamicItem`` whose template matches its
custom id, and only when a component with that custom id *and type* is on the message
the press came with; it silently drops the rest, leaving the player with "This
interaction failed". Discord sends a press with the message as it is now, so the most
natural gesture on a phone, a fast second tap, is one of those: its button was on the
board before the first tap redrew it. The bot's ``on_interaction`` hands every component
press here:

- an id matching none of the templates (forged, or from a retired kind of button) gets the
  private "unknown button" answer;
- a board press (``GameButton``, ``MoveMenu``) whose id is not on the message, while the
  message is that same game's board, goes the bot's own way (the item's callback): the
  service answers "out of date" and redraws a stale board, or plays a press of the current
  version exactly as if its button had been there;
- anything else discord.py drops (a type that does not match, a board id on another
  message, any other id not on its message) gets the private "unknown button" answer:
  acting on it could edit a message it does not belong to.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.adapter.errors import report
from bot.adapter.views import GameButton, MoveMenu
from bot.play.feedback import UserFeedback

log = logging.getLogger(__name__)

Factory = type[discord.ui.DynamicItem[Any]]
BOARD_ITEMS: tuple[Factory, ...] = (GameButton, MoveMenu)


def is_ours(custom_id: object, templates: Sequence[re.Pattern[str]]) -> bool:
    return isinstance(custom_id, str) and any(t.fullmatch(custom_id) for t in templates)


def template_of(factory: Factory) -> re.Pattern[str]:
    return factory.__discord_ui_compiled_template__


def matching(custom_id: str, factories: Sequence[Factory]) -> tuple[Factory, re.Match[str]] | None:
    for factory in factories:
        match = template_of(factory).fullmatch(custom_id)
        if match is not None:
            return factory, match
    return None


def _components(message: discord.Message) -> list[Any]:
    """Every component on ``message``, nested ones included (rows, containers, sections)."""
    out: list[Any] = []
    todo: list[Any] = list(message.components)
    while todo:
        component = todo.pop()
        out.append(component)
        todo.extend(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            todo.append(accessory)
    return out


def placed_types(message: discord.Message | None, custom_id: str) -> set[int]:
    """The component types carrying ``custom_id`` on ``message``, as discord.py looks them up."""
    if message is None:
        return set()
    return {c.type.value for c in _components(message) if getattr(c, "custom_id", None) == custom_id}


def board_games(message: discord.Message | None) -> set[int]:
    """The game ids of the board components on ``message`` (one, on a board)."""
    if message is None:
        return set()
    found = set()
    for component in _components(message):
        custom_id = getattr(component, "custom_id", None)
        if not isinstance(custom_id, str):
            continue
        for factory in BOARD_ITEMS:
            match = template_of(factory).fullmatch(custom_id)
            if match is not None:
                found.add(int(match["gid"]))
    return found


async def answer_unknown(interaction: discord.Interaction, factories: Sequence[Factory]) -> None:
    """Dispatch a board press; answer the component press discord.py will drop; leave the
    ones it dispatches alone."""
    if interaction.type is not discord.InteractionType.component:
        return
    data = cast("dict[str, Any]", interaction.data or {})
    custom_id, component_type = data.get("custom_id"), data.get("component_type")
    found = matching(custom_id, factories) if isinstance(custom_id, str) else None
    if found is None or not isinstance(custom_id, str):
        await report(interaction, UserFeedback("error.unknown_button"))
        return
    placed = placed_types(interaction.message, custom_id)
    factory, match = found
    if component_type in placed:
        if factory in BOARD_ITEMS:  # not registered with discord.py: the bot's own
            await _dispatch(interaction, factory, match, custom_id, component_type)
        return  # discord.py dispatches the others to their items
    if not placed and factory in BOARD_ITEMS and int(match["gid"]) in board_games(interaction.message):
        await _dispatch(interaction, factory, match, custom_id, component_type)
        return
    log.info("answered a press discord.py drops: %r (type %r) not on message", custom_id, component_type)
    await report(interaction, UserFeedback("error.unknown_button"))


async def _dispatch(
    interaction: discord.Interaction,
    factory: Factory,
    match: re.Match[str],
    custom_id: str,
    component_type: object,
) -> None:
    """The item's own path, as discord.py runs it for a component on the message."""
    base: discord.ui.Item[Any]
    if factory is MoveMenu:
        base = discord.ui.Select(custom_id=custom_id)
    else:
        base = discord.ui.Button(custom_id=custom_id)
    if component_type != base.type.value:  # a board id sent as another kind of component
        await report(interaction, UserFeedback("error.unknown_button"))
        return
    try:
        item = await factory.from_custom_id(interaction, base, match)
        item._refresh_state(interaction, cast("dict[str, Any]", interaction.data))  # a menu's values
        if await item.interaction_check(interaction):
            await item.callback(interaction)
    except Exception as exc:  # the callbacks report their own errors; this is a safety net
        await report(interaction, exc)
