"""The few words drawn on a picture, English by default.

The bot passes its own translations (``labels={"score": "очки", ...}``); the
renderer never imports the bot's catalogue. Keys are fixed so a typo fails
loudly instead of silently drawing English.
"""

from __future__ import annotations

from collections.abc import Mapping

from renderer.text import fitted

DEFAULTS: dict[str, str] = {
    "bakers": "Jeu du Boulanger",  # titles
    "calculation": "Calculation",
    "score": "score",
    "moves": "moves",
    "won": "WON",
    "lost": "LOST",
    "stock": "stock",
    "turned": "turned",
    "next": "next",
    "done": "done",
    "practice": "PRACTICE",  # where the deal came from, on a tag after the code (``TAGS``)
    "daily": "DAILY",
    "race": "RACE",
}

TAGS = ("practice", "daily", "race")  # the labels a header's tag may show

MAX_LABEL = 24

# (font size, widest in px) where each word is drawn: a long translation is cut
# short with "…" rather than running into its neighbours.
ROOM: dict[str, tuple[int, int]] = {
    "bakers": (18, 180),
    "calculation": (18, 180),
    "score": (16, 76),
    "moves": (16, 76),
    "won": (18, 170),
    "lost": (18, 170),
    "stock": (18, 108),
    "turned": (18, 108),
    "next": (20, 104),
    "done": (20, 140),
    "practice": (14, 150),  # and cut again to the room the header has left
    "daily": (14, 150),
    "race": (14, 150),
}

Labels = tuple[tuple[str, str], ...]  # hashable, so it can key the background cache


def resolve(labels: Mapping[str, str] | None) -> Labels:
    """Defaults overridden by ``labels``; ``ValueError`` on an unknown key or a bad value."""
    merged = dict(DEFAULTS)
    for key, value in (labels or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown label {key!r}; known labels: {', '.join(DEFAULTS)}")
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_LABEL:
            raise ValueError(f"label {key!r} must be 1-{MAX_LABEL} characters of text, not {value!r}")
        merged[key] = value.strip()
    return tuple((key, fitted(value, *ROOM[key])) for key, value in merged.items())


def check_tag(tag: object) -> str | None:
    """``tag`` if it is None or one of ``TAGS``; ``ValueError`` otherwise."""
    if tag is None or (isinstance(tag, str) and tag in TAGS):
        return tag
    raise ValueError(f"unknown tag {tag!r}; known tags: {', '.join(TAGS)}")
