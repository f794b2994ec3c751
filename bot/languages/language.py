"""Which language a reader gets, without Discord: stored choices, the current language, labels.

The order for a player is: the language they picked with ``/language`` (stored
in ``storage``), then their Discord client locale when we speak it, then the
server's language set by an admin, then English (``bot.languages.locale`` reads the
interaction; this module holds what the service and console need without it).

Stored choices (languages and decks) are cached in memory per store and
updated when changed here, so resolving a language costs no database query per
click; a player's own choices (language, deck, warning, the games' settings) are read
together (``Store.user_choices``), one query where a press needed three or four. Several bot
processes may share one database (shards split between them), so a cached
choice is trusted for ``CACHE_SECONDS`` only: a change made through another
process is seen within that time. (On PostgreSQL, LISTEN/NOTIFY could tell the
other processes at once; not done yet.)

The resolved language is kept in a context variable for the current
interaction, so the board picture drawn deeper down (``service.render``) gets
its words in the same language without every service call carrying it.
"""

from __future__ import annotations

import contextvars
import dataclasses
import logging
import time
import weakref
from collections import OrderedDict
from functools import cache
from typing import Any

from bot.languages.i18n import CLIENT_LOCALES, DEFAULT_LOCALE, normalize_locale, t
from storage import Deck, UserChoices

log = logging.getLogger(__name__)

#: The languages players can read, in the order ``/language`` offers them.
LANGUAGES = ("en", "bg", "ca", "id", "nl", "ru")
#: Remembered choices per store (users and guilds each); the oldest are forgotten first.
CACHE_SIZE = 50_000
#: How long a remembered choice is trusted (another process may have changed it).
CACHE_SECONDS = 5.0

# Words every board picture draws: renderer label key → catalogue key (each game's own
# words, its title among them, come from its front: ``GameFront.picture_words``).
PICTURE_KEYS = {
    "score": "picture.score",
    "moves": "picture.moves",
    "won": "picture.won",
    "lost": "picture.lost",
    "practice": "picture.tag.practice",  # the header's tag: where the deal came from
    "daily": "picture.tag.daily",
    "race": "picture.tag.race",
}

_current: contextvars.ContextVar[str] = contextvars.ContextVar("boulanger_language", default=DEFAULT_LOCALE)
# The deck the Activity's page draws its request's cards with (its own requests only: the service
# reads a board's deck from its owner's choices).
_MISSING = object()


_Table = OrderedDict[int, tuple[float, Any]]


def _clock() -> float:
    return time.monotonic()


class _Memory:
    """Stored choices of one store: user id → (when read, ``UserChoices``), guild id → (when
    read, language or None)."""

    def __init__(self) -> None:
        self.users: _Table = OrderedDict()
        self.guilds: _Table = OrderedDict()

    @staticmethod
    def get(table: _Table, key: int) -> Any:
        entry = table.get(key)
        if entry is None:
            return _MISSING
        if _clock() - entry[0] >= CACHE_SECONDS:  # perhaps changed by another process since
            del table[key]
            return _MISSING
        table.move_to_end(key)
        return entry[1]

    @staticmethod
    def put(table: _Table, key: int, value: Any) -> None:
        table[key] = (_clock(), value)
        table.move_to_end(key)
        while len(table) > CACHE_SIZE:
            table.popitem(last=False)


_memories: weakref.WeakKeyDictionary[Any, _Memory] = weakref.WeakKeyDictionary()


def _memory(store: Any) -> _Memory:
    memory = _memories.get(store)
    if memory is None:
        memory = _memories[store] = _Memory()
    return memory


def supported(language: object) -> str | None:
    """``language`` if it is one we speak (``"ru"``), else None."""
    return language if isinstance(language, str) and language in LANGUAGES else None


def client_language(locale: object) -> str | None:
    """A Discord client locale (``discord.Locale`` or its value) mapped to our language, or None."""
    value = str(getattr(locale, "value", locale) or "")
    return CLIENT_LOCALES.get(value)


async def _choices(store: Any, user_id: int) -> UserChoices:
    """The player's stored choices, all read at once and trusted for ``CACHE_SECONDS``."""
    memory = _memory(store)
    cached = memory.get(memory.users, user_id)
    if cached is _MISSING:
        cached = await store.user_choices(user_id)
        memory.put(memory.users, user_id, cached)
    assert isinstance(cached, UserChoices)
    return cached


def _chose(store: Any, user_id: int, **changes: Any) -> None:
    """A choice just stored, in the remembered ones (if any: else the next read has it),
    trusted no longer than the others read with it."""
    memory = _memory(store)
    entry = memory.users.get(user_id)
    if entry is not None:
        memory.users[user_id] = (entry[0], dataclasses.replace(entry[1], **changes))


async def user_choice(store: Any, user_id: int) -> str | None:
    """The language a player picked with ``/language`` (None: automatic)."""
    return supported((await _choices(store, user_id)).language)


async def guild_language(store: Any, guild_id: int | None) -> str | None:
    """The language a server's admins set for its shared posts (None: not set)."""
    if guild_id is None:
        return None
    memory = _memory(store)
    cached = memory.get(memory.guilds, guild_id)
    if cached is not _MISSING:
        return supported(cached)
    language = supported((await store.guild_settings(guild_id)).language)
    memory.put(memory.guilds, guild_id, language)
    return language


async def set_user_choice(store: Any, user_id: int, language: str | None) -> None:
    """Store a player's choice (None: back to automatic) and update the cache."""
    if language is not None and supported(language) is None:
        raise ValueError(f"unsupported language {language!r}")
    await store.set_user_language(user_id, language)
    _chose(store, user_id, language=language)


async def set_guild_language(store: Any, guild_id: int, language: str | None) -> None:
    """Store a server's language for shared posts (None: unset) and update the cache."""
    if language is not None and supported(language) is None:
        raise ValueError(f"unsupported language {language!r}")
    await store.set_guild_settings(guild_id, language=language)
    memory = _memory(store)
    memory.put(memory.guilds, guild_id, language)


async def user_deck(store: Any, user_id: int) -> Deck:
    """The deck a player chose with ``/settings`` (two colours unless they chose four)."""
    return "four" if (await _choices(store, user_id)).deck == "four" else "two"


async def set_user_deck(store: Any, user_id: int, deck: Deck) -> None:
    """Store a player's deck and update the cache."""
    stored = None if deck == "two" else deck
    await store.set_user_deck(user_id, stored)
    _chose(store, user_id, deck=stored)


async def warns_lost(store: Any, user_id: int) -> bool:
    """Whether the player's boards say when their deal can no longer be won (``/settings``;
    on unless they turned it off)."""
    return (await _choices(store, user_id)).lost_warning is not False


async def set_warns_lost(store: Any, user_id: int, on: bool) -> None:
    """Store a player's choice of the warning and update the cache."""
    await store.set_user_lost_warning(user_id, None if on else False)
    _chose(store, user_id, lost_warning=None if on else False)


async def player_settings(store: Any, user_id: int) -> dict[str, str]:
    """A player's stored settings of the games' own (``GameFront.settings``), by stored name;
    a name not in it is at its default."""
    return dict((await _choices(store, user_id)).settings)


async def set_player_setting(store: Any, user_id: int, name: str, value: str | None) -> None:
    """Store one of a player's game settings (None: back to its default) and update the cache."""
    await store.set_player_setting(user_id, name, value)
    entry = _memory(store).users.get(user_id)
    if entry is not None:
        kept = {k: v for k, v in entry[1].settings if k != name} | ({} if value is None else {name: value})
        _chose(store, user_id, settings=tuple(sorted(kept.items())))


def current_language() -> str:
    """The language resolved for the interaction being handled (English outside one)."""
    return _current.get()


def use_language(language: str) -> None:
    """Make ``language`` the current one (for work not started by an interaction)."""
    _current.set(supported(language) or DEFAULT_LOCALE)


def localise_params(language: object, params: dict[str, Any]) -> dict[str, Any]:
    """Engine error params as players read them: each game's front puts its own places and
    ranks in the player's words (``GameFront.localise_params``)."""
    from bot.games import fronts

    lang = normalize_locale(language)
    for front in fronts():
        params = front.localise_params(lang, params)
    return params


def picture_labels(language: str, kind: str | None = None) -> dict[str, str]:
    """The words the renderer draws on a board of ``kind`` (``renderer.render_png(labels=...)``)
    in ``language``: the shared ones and that game's own (with no kind, every registered game's)."""
    from bot.games import fronts

    return _picture_labels(language, tuple(f.kind for f in fronts()) if kind is None else (kind,))


@cache
def _picture_labels(language: str, kinds: tuple[str, ...]) -> dict[str, str]:
    from bot.games import front_for

    words = {label: t(language, key) for label, key in PICTURE_KEYS.items()}
    for kind in kinds:
        words |= front_for(kind).picture_words(language)
    return words
