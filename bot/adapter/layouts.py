"""Components V2 cards: one accent-coloured container holding texts, pictures and buttons.

Every post the bot makes (a race's lobby, standings and result, the daily post, leaderboards,
``/stats``) is one card, built here so each reads the same: a heading, its lines, a quieter
note, a picture where there is one, the buttons beneath. A card is a ``discord.ui.LayoutView``
(timeout ``None``: its buttons are ``DynamicItem``s that work after a restart), sent with no
``content`` or ``embeds`` (discord.py sets the v2 flag itself); editing a message sent in the
old form into a card must clear its content and embeds (``UPGRADE``), as Discord requires.

Nothing here knows a game, a post or a board: the callers bring their translated words.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import discord

#: Discord's limits for one v2 message: components in all (nested counted), characters of text.
MAX_COMPONENTS = 40
MAX_TEXT = 4000
ROW_WIDTH = 5  # buttons in one action row
MAX_PICTURES = 10  # items in one media gallery


class Accent:
    """Each kind of post's accent colour (the stripe down the card's side)."""

    RACE = 0x3B82F6
    DAILY = 0xE0A526
    LEADERBOARD = 0x8B5CF6
    STATS = 0x14B8A6


#: The keyword arguments that turn a message sent in the old form (content, embeds) into a card
#: when it is edited: Discord refuses the v2 flag beside content or embeds the message still has.
UPGRADE: dict[str, Any] = {"content": None, "embeds": []}


def heading(text: str) -> str:
    """Markdown for a card's title line."""
    return f"## {text}"


def note(text: str) -> str:
    """Markdown for small grey text under a card's lines (a footer, a rule)."""
    return f"-# {text}"


class Card:
    """A card being built: add parts in reading order, then ``view()``."""

    def __init__(self, accent: int | None = None) -> None:
        self.accent = accent
        self.parts: list[discord.ui.Item[Any]] = []

    def text(self, *lines: str) -> Card:
        """One text display of the non-empty lines (none: nothing is added)."""
        shown = "\n".join(line for line in lines if line)
        if shown:
            self.parts.append(discord.ui.TextDisplay(shown))
        return self

    def heading(self, title: str) -> Card:
        return self.text(heading(title))

    def note(self, text: str) -> Card:
        return self.text(note(text)) if text else self

    def beside(self, lines: Sequence[str], accessory: discord.ui.Item[Any]) -> Card:
        """Up to three texts with a thumbnail or a button to their right (a section)."""
        texts: list[discord.ui.TextDisplay[Any]] = [discord.ui.TextDisplay(line) for line in lines if line][
            :3
        ]
        if texts:
            self.parts.append(discord.ui.Section(*texts, accessory=accessory))
        return self

    def separator(self, *, visible: bool = True, large: bool = False) -> Card:
        spacing = discord.SeparatorSpacing.large if large else discord.SeparatorSpacing.small
        self.parts.append(discord.ui.Separator(visible=visible, spacing=spacing))
        return self

    def picture(self, filename: str, description: str | None = None) -> Card:
        """A picture sent with the message as ``filename`` (``discord.File(..., filename)``)."""
        item = discord.MediaGalleryItem(f"attachment://{filename}", description=description or None)
        self.parts.append(discord.ui.MediaGallery(item))
        return self

    def buttons(self, items: Iterable[discord.ui.Item[Any]]) -> Card:
        """Buttons in rows of five, in order."""
        items = list(items)
        for start in range(0, len(items), ROW_WIDTH):
            self.parts.append(discord.ui.ActionRow(*items[start : start + ROW_WIDTH]))
        return self

    def view(self) -> discord.ui.LayoutView:
        """The card as a message's view: one container, no timeout."""
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.Container(*self.parts, accent_colour=self.accent))
        return view


def thumbnail(url: str, description: str | None = None) -> discord.ui.Thumbnail[Any]:
    """A small picture by URL (https) beside a section's text: an avatar, an icon."""
    return discord.ui.Thumbnail(url, description=description or None)


def custom_ids(components: Iterable[Any]) -> Iterator[str]:
    """Every custom id in a received message's components, however they are nested (action rows
    of the old form, or rows, sections and their accessories inside a v2 container)."""
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            yield custom_id
        yield from custom_ids(getattr(component, "children", None) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from custom_ids((accessory,))
