"""The six languages: complete catalogues, right placeholders and plural forms, and who reads which."""

from __future__ import annotations

import string
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import engine
import renderer
import storage
from bot.games import fronts
from bot.languages import i18n_check
from bot.languages.i18n import Translator, available_locales, catalog_keys, t, template, tn
from bot.languages.locale import (
    LANGUAGES,
    client_language,
    current_language,
    picture_labels,
    player_locale,
    set_guild_language,
    set_user_choice,
    shared_locale,
    use_language,
)
from bot.play.service import GameService
from renderer.labels import DEFAULTS as RENDERER_LABELS
from renderer.labels import resolve as resolve_labels

ENGLISH_KEYS = sorted(catalog_keys("en"))
PLURAL_KEYS = {k for k, texts in i18n_check.messages("en").items() if len(texts) > 1}

# Realistic values for every placeholder name the catalogue uses (anything new gets "42").
PARAMS: dict[str, Any] = defaultdict(
    lambda: "42",
    n=3,
    low="5♥",
    high="7♥",
    letter="b",
    what="7♥",
    src="column 3",
    dst="column 5",
    date="2026-11-29",
    score=120,
    move="7♥ from column 3 to column 5",
    place="3",
    moves=87,
    code="BK1-C4-AAAAA24",
    command="boulanger",
    notation="3h",
    squares="🟩🟩🟨⬛",
    owner="<@1234>",
    seconds="4",
    text="zz9",
    card="7♥",
    cell="a",
    need="8♥",
    target="9♠",
    foundation=2,
    needs="Q",
    fits=3,
    count=5,
    column=4,
    run=2,
    capacity=10,
    pile=3,
    version="9",
    game="Jeu du Boulanger",
    reset="<t:1764460800:R>",
    channel="<#42>",
    page=1,
    pages=3,
    cells=4,
    won=5,
    played=9,
    player="Alice",
    rate="56",
    current=3,
    best=7,
    language="Català",
    number=7,
)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_six_languages_have_catalogues():
    assert set(LANGUAGES) == {"en", "bg", "ca", "id", "nl", "ru"}
    assert set(LANGUAGES) <= set(available_locales())


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_english_message_is_translated(lang):
    report = i18n_check.check(lang)
    assert report.missing == [], f"{lang} lacks translations (run python -m bot.languages.i18n_check)"
    assert report.bad_plurals == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translations_use_exactly_the_english_placeholders(lang):
    english, own = i18n_check.messages("en"), i18n_check.messages(lang)
    wrong = {}
    for key, texts in own.items():
        expected = set().union(*(fields(x) for x in english[key]))
        for text in texts:
            got = fields(text)
            # A plural form may leave out {n} ("одна карта"), but nothing else may differ.
            if got != expected and not (key in PLURAL_KEYS and got | {"n"} == expected | {"n"}):
                wrong[key] = (sorted(got), sorted(expected))
    assert wrong == {}


def test_the_placeholder_check_catches_an_unknown_placeholder(tmp_path, monkeypatch):
    """The check above would fail on a translation using a placeholder English lacks."""
    po = tmp_path / "xx.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: xx\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "board.status"\nmsgstr "Punkte {points}"\n',
        encoding="utf-8",
    )
    (tmp_path / "en.po").write_bytes((i18n_check.LOCALES_DIR / "en.po").read_bytes())
    monkeypatch.setattr(i18n_check, "LOCALES_DIR", tmp_path)
    i18n_check.catalog.cache_clear()
    try:
        report = i18n_check.check("xx")
    finally:
        i18n_check.catalog.cache_clear()
    assert report.bad_placeholders == {"board.status": ["points"]}
    assert "board.undone" in report.missing


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", ENGLISH_KEYS)
def test_every_message_renders_with_its_placeholders_filled(lang, key):
    names = set().union(*(fields(x) for x in i18n_check.messages("en")[key]))
    params = {name: PARAMS[name] for name in names - ({"n"} if key in PLURAL_KEYS else set())}
    tr = Translator(lang)  # its own way to the same text (no second normalising)
    if key in PLURAL_KEYS:
        texts = [tn(lang, key, n, **params) for n in (1, 2, 5, 21)]
        assert [tr.n(key, n, **params) for n in (1, 2, 5, 21)] == texts
    else:
        texts = [t(lang, key, **params)]
        assert tr(key, **params) == texts[0]
    for text in texts:
        assert text.strip() and text != key
        assert "{" not in text and "}" not in text, text
    if lang != "en" and template(lang, key) != template("en", key):
        # a real translation, not the English fallback
        assert key in i18n_check.messages(lang)


@pytest.mark.parametrize(
    ("n", "ru", "bg"),
    [
        (1, "1 карта", "1 карта"),
        (2, "2 карты", "2 карти"),
        (5, "5 карт", "5 карти"),
        (11, "11 карт", "11 карти"),
        (21, "21 карта", "21 карти"),
        (22, "22 карты", "22 карти"),
    ],
)
def test_card_counts_take_the_right_plural_form(n, ru, bg):
    assert tn("ru", "move.group", n, low="5♥", high="7♥") == f"{ru} (5♥–7♥)"
    assert tn("bg", "move.group", n, low="5♥", high="7♥") == f"{bg} (5♥–7♥)"


@pytest.mark.parametrize(
    ("n", "ru", "bg"),
    [
        (1, "ход", "ход"),
        (2, "хода", "хода"),
        (5, "ходов", "хода"),
        (11, "ходов", "хода"),
        (21, "ход", "хода"),
        (22, "хода", "хода"),
    ],
)
def test_move_counts_take_the_right_plural_form(n, ru, bg):
    assert tn("ru", "board.moves", n) == f"{n} {ru}"
    assert tn("bg", "board.moves", n) == f"{n} {bg}"


def test_plural_rules_come_from_each_catalogues_header():
    assert i18n_check.catalog("ru").num_plurals == 3
    assert i18n_check.catalog("bg").num_plurals == 2
    assert i18n_check.catalog("id").num_plurals == 1
    assert tn("id", "board.cells", 1) == "1 sel bebas" and tn("id", "board.cells", 3) == "3 sel bebas"
    assert tn("nl", "board.cells", 1) == "1 vrije cel" and tn("nl", "board.cells", 2) == "2 vrije cellen"
    assert tn("ca", "board.moves", 1) == "1 jugada" and tn("ca", "board.moves", 7) == "7 jugades"


def test_a_shared_placeholder_registered_later_is_filled(monkeypatch):
    """Which shared placeholders a text uses is remembered: registering one must count."""
    from bot.languages import i18n

    monkeypatch.setattr(i18n, "_SHARED", dict(i18n._SHARED))
    text = "Play {late_shared_name} now"
    assert i18n._fill(text, "k", {}, "en") == text  # unknown: the text as it is, with a warning
    i18n.share_param("late_shared_name", lambda lang: f"/late-{lang}")
    assert i18n._fill(text, "k", {}, "nl") == "Play /late-nl now"
    assert i18n._fill(text, "k", {"late_shared_name": "mine"}, "nl") == "Play mine now"  # the caller's wins


def test_a_text_without_params_is_still_formatted_when_it_has_braces():
    from bot.languages import i18n

    assert i18n._fill("no braces", "k", {}, "en") == "no braces"
    assert i18n._fill("a {{literal}} brace", "k", {}, "en") == "a {literal} brace"


def test_a_language_without_a_message_falls_back_to_english(monkeypatch):
    from bot.languages import i18n

    i18n.forget_catalogues()
    real = i18n.read_po

    def without_undo(fh, locale=None, **kw):
        catalog = real(fh, locale=locale, **kw)
        if locale == "ru":
            catalog.delete("button.undo")
        return catalog

    monkeypatch.setattr(i18n, "read_po", without_undo)
    try:
        assert t("ru", "button.undo") == "Undo"
        assert t("ru", "button.hint") == "Подсказка"
    finally:
        i18n.forget_catalogues()


# -- who reads which language --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        (discord.Locale.russian, "ru"),
        (discord.Locale.bulgarian, "bg"),
        (discord.Locale.indonesian, "id"),
        (discord.Locale.dutch, "nl"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        ("en-GB", "en"),
        (discord.Locale.french, None),
        (discord.Locale.spain_spanish, None),
        (None, None),
    ],
)
def test_client_locales_map_to_our_languages(locale, lang):
    assert client_language(locale) == lang


class CountingStore:
    """A real store that counts the language reads (the cache should spare them)."""

    def __init__(self, store: storage.Store) -> None:
        self.store = store
        self.reads = 0

    async def user_language(self, user_id: int) -> str | None:
        self.reads += 1
        return await self.store.user_language(user_id)

    async def user_choices(self, user_id: int) -> storage.UserChoices:
        self.reads += 1  # the player's language, deck, warning and settings in one read
        return await self.store.user_choices(user_id)

    async def guild_settings(self, guild_id: int) -> storage.GuildSettings:
        self.reads += 1
        return await self.store.guild_settings(guild_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


@pytest.fixture
async def store(tmp_path):
    real = await storage.open_store(str(tmp_path / "lang.sqlite3"))
    try:
        yield CountingStore(real)
    finally:
        await real.close()


def interaction(store: Any, user_id: int = 7, locale: object = "en-US", guild_id: int | None = 99) -> Any:
    return SimpleNamespace(
        user=SimpleNamespace(id=user_id),
        locale=locale,
        guild_id=guild_id,
        client=SimpleNamespace(store=store),
    )


async def test_a_stored_choice_overrides_the_client_locale(store):
    assert await player_locale(interaction(store, locale=discord.Locale.russian)) == "ru"
    await set_user_choice(store, 7, "ca")
    assert await player_locale(interaction(store, locale=discord.Locale.russian)) == "ca"
    assert await store.store.user_language(7) == "ca"  # stored, so it survives a restart
    await set_user_choice(store, 7, None)  # automatic again
    assert await player_locale(interaction(store, locale=discord.Locale.russian)) == "ru"


async def test_the_server_language_is_for_players_whose_client_we_do_not_speak(store):
    await set_guild_language(store, 99, "nl")
    assert await player_locale(interaction(store, locale=discord.Locale.french)) == "nl"
    assert await player_locale(interaction(store, locale=discord.Locale.bulgarian)) == "bg"
    assert await player_locale(interaction(store, locale=discord.Locale.french, guild_id=None)) == "en"
    assert await player_locale(interaction(store, locale=discord.Locale.french, guild_id=5)) == "en"
    # Posts for the whole channel (leaderboards) use the server's language first.
    assert await shared_locale(interaction(store, locale=discord.Locale.bulgarian)) == "nl"
    assert await shared_locale(interaction(store, locale=discord.Locale.bulgarian, guild_id=5)) == "bg"
    assert (await store.store.guild_settings(99)).language == "nl"


async def test_resolving_a_language_again_costs_no_database_read(store):
    await player_locale(interaction(store, locale=discord.Locale.french))
    reads = store.reads
    assert reads == 2  # the player's choice, then the server's language
    for _ in range(20):
        await player_locale(interaction(store, locale=discord.Locale.french))
    assert store.reads == reads
    await set_user_choice(store, 7, "id")  # a change is seen at once, still without a read
    assert await player_locale(interaction(store, locale=discord.Locale.french)) == "id"
    assert store.reads == reads


async def test_unsupported_languages_are_refused_and_nothing_is_stored(store):
    with pytest.raises(ValueError, match="unsupported language"):
        await set_user_choice(store, 7, "fr")
    with pytest.raises(ValueError, match="unsupported language"):
        await set_guild_language(store, 99, "xx")
    assert await store.store.user_language(7) is None
    assert (await store.store.guild_settings(99)).language is None


async def test_a_broken_store_still_answers_by_client_locale(store):
    class Broken:
        async def user_choices(self, user_id: int) -> storage.UserChoices:
            raise storage.DatabaseBusy("locked")

    assert await player_locale(interaction(Broken(), locale=discord.Locale.dutch)) == "nl"
    assert await player_locale(interaction(Broken(), locale=discord.Locale.french)) == "en"


# -- the words on the pictures ---------------------------------------------------------------------
def test_every_picture_word_comes_from_the_catalogue():
    assert set(picture_labels("en")) == set(RENDERER_LABELS)  # the game titles come from the fronts
    for lang in LANGUAGES:
        labels = picture_labels(lang)
        resolve_labels(labels)  # the renderer accepts them (known keys, at most 24 characters)
        words = {k: w for k, w in labels.items() if k not in {f.kind for f in fronts()}}  # titles have room
        assert all(len(word) <= 12 for word in words.values()), words
    assert picture_labels("ru")["score"] == "очки" and picture_labels("bg")["stock"] == "тесте"
    assert picture_labels("en") == {k: v for k, v in RENDERER_LABELS.items()}


async def test_the_service_draws_the_board_in_the_current_language(store):
    service = GameService(store.store)
    game = engine.new_game("CA1-AAAAA24")
    row = await store.store.create_game("calculation", game.code, 1, None, None)
    use_language("ru")
    try:
        assert current_language() == "ru"
        russian = await service.render(row, game)
    finally:
        use_language("en")
    english = await service.render(row, game)
    assert russian == renderer.render_png(game, labels=picture_labels("ru"))
    assert english == renderer.render_png(game) != russian


@pytest.mark.parametrize(
    ("notation", "ru", "nl"),
    [("a1", "Здесь нет карты: ячейка a.", "Er ligt geen kaart op vrije cel a.")],
)
def test_engine_errors_name_places_in_the_players_language(notation, ru, nl):
    from bot.adapter.errors import engine_error_text

    game = engine.new_game("BK1-C4-AAAAA24")
    with pytest.raises(engine.EngineError) as caught:
        game.play(notation)
    assert engine_error_text("en", caught.value) == "There is no card at free cell a."
    assert engine_error_text("ru", caught.value) == ru
    assert engine_error_text("nl", caught.value) == nl


def test_the_console_speaks_the_chosen_language(tmp_path, monkeypatch, capsys):
    import io

    from bot.play import console

    monkeypatch.setattr("sys.stdin", io.StringIO("new calculation CA1-AAAAA24\nhelp\nquit\n"))
    args = ["--lang", "bg", "--db", str(tmp_path / "c.sqlite3"), "--out", str(tmp_path / "out"), "--png"]
    assert console.main(args) == 0
    out = capsys.readouterr().out
    assert "Калкулация" in out and "Точки: 4" in out
    picture = (tmp_path / "out" / "board-001.png").read_bytes()
    practice = renderer.render_png(
        engine.new_game("CA1-AAAAA24"), labels=picture_labels("bg"), tag="practice"
    )
    assert picture == practice  # a typed code: a practice game, tagged in Bulgarian


BAD_INPUT = [
    ("BK1-C4-AAAAA24", "a1"),  # empty_source
    ("BK1-C4-AAAAA24", "ab"),  # cell_to_cell
    ("BK1-C4-AAAAA24", "h1"),  # foundation_final
    ("BK1-C4-AAAAA24", "1h"),  # foundation_order
    ("BK1-C4-AAAAA24", "12"),  # no_fit
    ("BK1-C4-AAAAA24", "11"),  # same_place
    ("BK1-C4-AAAAA24", "zz"),  # malformed
    ("BK1-C4-AAAAA24", "a1v2"),  # bad_count with the typed text
    ("BK1-C1-AAAAA24", "3b"),  # no_such_cell
    ("CA1-AAAAA24", "w9"),  # no_such_pile
    ("CA1-AAAAA24", "sf7"),  # no_such_foundation
    ("CA1-AAAAA24", "sf1"),  # no_fit (Calculation's variant)
    ("CA1-AAAAA24", "w1f1"),  # empty_pile
    ("CA1-AAAAA24", "w1w2"),  # waste_to_waste
    (None, "BK1-C9-AAAAA24"),  # code_cells
    (None, "XX1-AAAAA24"),  # code_game
    (None, "BK1-C4-AAAA"),  # code_length
    (None, "BK1-C4-AAAAA21"),  # code_alphabet
    (None, "BK9-C4-AAAAA24"),  # code_version
]


@pytest.mark.parametrize(("code", "typed"), BAD_INPUT)
def test_engine_errors_come_from_the_catalogue_in_every_language(code, typed):
    from bot.adapter.errors import engine_error_text

    with pytest.raises(engine.EngineError) as caught:
        engine.new_game(code).play(typed) if code else engine.parse_code(typed)
    texts = {lang: engine_error_text(lang, caught.value) for lang in LANGUAGES}
    assert str(caught.value) not in texts.values(), texts  # the engine's own English is only a fallback
    assert len(set(texts.values())) == len(LANGUAGES), texts
    assert all("{" not in text for text in texts.values())


def test_engine_params_read_as_on_the_cards():
    from bot.languages.locale import localise_params

    assert localise_params("ru", {"needs": 11, "card": "6♠"}) == {"needs": "J", "card": "6♠"}
    assert localise_params("ru", {"needs": 7})["needs"] == "7"
    assert localise_params("bg", {"place": "column 3"}) == {"place": "колона 3"}
    assert localise_params("ca", {"place": "its foundation"}) == {"place": "el seu fonament"}
    assert localise_params("ru", {"place": "somewhere"}) == {"place": "somewhere"}
