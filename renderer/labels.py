"""The few words drawn on a picture, English by default.

The bot passes its own translations (``labels={"score": "очки", ...}``); the
renderer never imports the bot's catalogue. The words every board draws (the
header's, the outcome's, the deal's source) are here; each game's board module
declares its own (its title under its kind, its places' words) in ``WORDS``,
added here when it registers (``renderer.boards.register``). Keys are fixed so a
typo fails loudly instead of silently drawing English.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from renderer.text import fitted

# A word: its English default and where it is drawn, (font size, widest in px): a long
# translation is cut short with "…" rather than running into its neighbours.
Word = tuple[str, int, int]

SHARED: dict[str, Word] = {
    "score": ("score", 20, 96),
    "moves": ("moves", 20, 96),
    "won": ("WON", 18, 170),
    "lost": ("LOST", 18, 170),
    # where the deal came from, on a tag after the game's name (``TAGS``)
    "practice": ("PRACTICE", 16, 170),
    "daily": ("DAILY", 16, 170),
    "race": ("RACE", 16, 170),
}

TAGS = ("practice", "daily", "race")  # the labels a header's tag may show

MAX_LABEL = 24

# Every word a picture may draw: the shared ones and each registered board's.
WORDS: dict[str, Word] = dict(SHARED)
# Their English defaults (``renderer.DEFAULT_LABELS``), kept in step with ``WORDS``.
DEFAULTS: dict[str, str] = {key: word[0] for key, word in WORDS.items()}

Labels = tuple[tuple[str, str], ...]  # hashable, so it can key the background cache


def add(words: Mapping[str, Word], owner: str) -> None:
    """Make a board's own words known; ``ValueError`` if one is a shared word or another
    board's word drawn differently (two games may share a word only when it is the same)."""
    for key, word in words.items():
        if key in SHARED or (key in WORDS and WORDS[key] != word):
            raise ValueError(f"{owner} cannot declare the picture word {key!r}: it is taken")
    for key, word in words.items():
        WORDS[key] = word
        DEFAULTS[key] = word[0]


def forget(keys: Iterable[str]) -> None:
    """Drop a board's own words (a game unregistered); the shared words stay."""
    for key in keys:
        if key not in SHARED:
            WORDS.pop(key, None)
            DEFAULTS.pop(key, None)


def check(labels: Mapping[str, str] | None) -> dict[str, str]:
    """``labels`` stripped; ``ValueError`` on an unknown key or a bad value."""
    given: dict[str, str] = {}
    for key, value in (labels or {}).items():
        if key not in WORDS:
            raise ValueError(f"unknown label {key!r}; known labels: {', '.join(WORDS)}")
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_LABEL:
            raise ValueError(f"label {key!r} must be 1-{MAX_LABEL} characters of text, not {value!r}")
        given[key] = value.strip()
    return given


def resolve(labels: Mapping[str, str] | None, keys: Iterable[str] | None = None) -> Labels:
    """The words ``keys`` (default: every known word) in English overridden by ``labels``,
    each fitted to its room; ``ValueError`` on an unknown key or a bad value."""
    given = check(labels)
    out = []
    for key in WORDS if keys is None else keys:
        default, size, widest = WORDS[key]
        out.append((key, fitted(given.get(key, default), size, widest)))
    return tuple(out)


def check_tag(tag: object) -> str | None:
    """``tag`` if it is None or one of ``TAGS``; ``ValueError`` otherwise."""
    if tag is None or (isinstance(tag, str) and tag in TAGS):
        return tag
    raise ValueError(f"unknown tag {tag!r}; known tags: {', '.join(TAGS)}")
