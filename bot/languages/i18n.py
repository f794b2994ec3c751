"""Every player-facing text, from one gettext catalogue per language.

Catalogues live in ``bot/languages/locales/<lang>.po`` with message keys as msgids
(``error.not_your_game``) and ``str.format`` placeholders (``{card}``). They
are read at start-up with Babel and turned into ``gettext`` translations, so
plural forms follow each language's own ``Plural-Forms`` rule. A language or
a message that is missing falls back to English, and English to the key.

A game may keep its own words with its front: ``bot/games/locales/<game>/<lang>.po``
(``GAME_LOCALES_DIR``), read into that language's catalogue after the shared one; a key
may live in one file only (``ValueError`` otherwise), so a game never changes another's
words.
"""

from __future__ import annotations

import gettext
import io
import logging
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).with_name("locales")
GAME_LOCALES_DIR = Path(__file__).resolve().parent.parent / "games" / "locales"
DEFAULT_LOCALE = "en"
#: Discord client locales we answer in their own language (Catalan has none).
CLIENT_LOCALES = {"en-US": "en", "en-GB": "en", "bg": "bg", "id": "id", "nl": "nl", "ru": "ru"}


def catalogue_files(lang: str, shared: Path | None = None) -> list[Path]:
    """The files of ``lang``'s catalogue: the shared one (in ``shared``, default
    ``LOCALES_DIR``), then each game's own, in name order."""
    first = (shared or LOCALES_DIR) / f"{lang}.po"
    games = sorted(GAME_LOCALES_DIR.glob(f"*/{lang}.po")) if GAME_LOCALES_DIR.is_dir() else []
    return [p for p in (first, *games) if p.exists()]


def read_catalogue(lang: str, shared: Path | None = None) -> Catalog | None:
    """``lang``'s catalogue, the shared file and the games' own merged (None: no file);
    ``ValueError`` when two files hold the same key."""
    files = catalogue_files(lang, shared)
    if not files:
        return None
    with files[0].open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    for path in files[1:]:
        with path.open("rb") as fh:
            extra = read_po(fh, locale=lang)
        for message in extra:
            if not message.id:
                continue
            if message.id in catalog:
                raise ValueError(f"{path}: the key {message.id!r} is in another catalogue file too")
            catalog[message.id] = message
    return catalog


def available_locales() -> list[str]:
    return sorted(p.stem for p in LOCALES_DIR.glob("*.po"))


def normalize_locale(locale: object) -> str:
    """Discord's ``en-US``/``pt-BR``/``ru`` (or a ``discord.Locale``) to a catalogue name."""
    text = str(getattr(locale, "value", locale) or DEFAULT_LOCALE)
    lang = text.replace("_", "-").split("-")[0].lower()
    return lang if lang in _known() else DEFAULT_LOCALE


@cache
def _known() -> frozenset[str]:
    return frozenset(available_locales())


@cache
def catalogue(lang: str) -> Catalog | None:
    """``read_catalogue(lang)`` of the shipped files, read once: the messages and the slash
    commands' translations (``command_translator``) share it (Babel's parser is most of
    their cost at start-up). Not to be changed."""
    return read_catalogue(lang)


def forget_catalogues() -> None:
    """Read the files again at the next use (tests that change what they hold)."""
    catalogue.cache_clear()
    _translations.cache_clear()
    _USES.clear()


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    catalog = catalogue(lang)
    if catalog is None:
        return gettext.NullTranslations()
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    trans = gettext.GNUTranslations(buf)
    if lang != DEFAULT_LOCALE:
        trans.add_fallback(_translations(DEFAULT_LOCALE))
    return trans


# Placeholders any message may hold, filled from what is registered rather than written into
# the catalogues: ``{start_commands}`` and the like name every registered game
# (``bot.games`` shares them), so a new game needs no shared text changed. A caller's own
# param of the same name wins.
_SHARED: dict[str, Callable[[str], str]] = {}


# Which shared placeholders each message text uses: a board's words are a dozen or more
# messages a press, and scanning every text for every shared name each time cost more than
# filling it (issue 26).
_USES: dict[str, tuple[str, ...]] = {}
_USES_KEPT = 4096


def share_param(name: str, fill: Callable[[str], str]) -> None:
    """Let every message use ``{name}``, filled with ``fill(language)`` when it does."""
    _SHARED[name] = fill
    _USES.clear()


def _shared_in(template: str) -> tuple[str, ...]:
    uses = _USES.get(template)
    if uses is None:
        uses = tuple(n for n in _SHARED if "{" + n + "}" in template)
        if len(_USES) >= _USES_KEPT:
            _USES.clear()
        _USES[template] = uses
    return uses


def with_shared(lang: str, template: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` and the shared placeholders ``template`` uses (``share_param``)."""
    shared = {n: _SHARED[n](lang) for n in _shared_in(template) if n not in params}
    return {**shared, **params} if shared else params


def _fill(template: str, key: str, params: dict[str, Any], lang: str = DEFAULT_LOCALE) -> str:
    if not params and "{" not in template and "}" not in template:
        return template  # nothing to fill (a button's label): what format would give
    params = with_shared(lang, template, params)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("message %r could not be filled with %s", key, sorted(params))
        return template


def t(locale: object, key: str, **params: Any) -> str:
    """The message ``key`` in ``locale`` (falling back to English), filled with ``params``."""
    lang = normalize_locale(locale)
    return _fill(_translations(lang).gettext(key), key, params, lang)


def tn(locale: object, key: str, n: int, **params: Any) -> str:
    """A message with plural forms chosen by ``n`` (also available as ``{n}``)."""
    lang = normalize_locale(locale)
    text = _translations(lang).ngettext(key, key, n)
    return _fill(text, key, {"n": n, **params}, lang)


def template(locale: object, key: str) -> str:
    """The unfilled message (or ``key`` itself when no catalogue has it)."""
    return _translations(normalize_locale(locale)).gettext(key)


def has(locale: object, key: str) -> bool:
    """Whether ``key`` exists in the catalogue (English included as fallback)."""
    return _translations(normalize_locale(locale)).gettext(key) != key


def catalog_keys(lang: str = DEFAULT_LOCALE) -> set[str]:
    """All message keys of one catalogue (for tests and translators)."""
    catalog = read_catalogue(lang)
    assert catalog is not None, f"no catalogue for {lang!r}"
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


class Translator:
    """Text for one player: ``tr("key", x=1)`` and ``tr.n("key", 3)``."""

    __slots__ = ("locale",)

    def __init__(self, locale: object = DEFAULT_LOCALE) -> None:
        self.locale = normalize_locale(locale)

    def __call__(self, key: str, **params: Any) -> str:
        lang = self.locale  # already a catalogue's name: ``t`` without normalising it again
        return _fill(_translations(lang).gettext(key), key, params, lang)

    def n(self, key: str, n: int, **params: Any) -> str:
        lang = self.locale
        return _fill(_translations(lang).ngettext(key, key, n), key, {"n": n, **params}, lang)
