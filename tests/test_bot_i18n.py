"""The message catalogue: every key the bot uses exists, fills, and falls back to English."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import engine
from bot.adapter.errors import engine_error_text
from bot.games import fronts
from bot.languages.i18n import Translator, catalog_keys, normalize_locale, t, template, tn

BOT = Path(__file__).resolve().parent.parent / "bot"
PREFIXES = "after|error|board|button|reply|start|hint|share|daily|lb|stats|help|rules|game|place|move|engine"
LITERAL = re.compile(rf'"((?:{PREFIXES})\.[a-z_.]+[a-z_])"')
# Keys the code builds with f-strings, expanded over their possible values.
KINDS = [front.kind for front in fronts()]
# A front's variant of a key: ``front.key("board.won")`` is ``board.won.<kind>``.
KEYED = re.compile(r'\.key\("([a-z_.]+)"\)')
BUILT = [
    *(f"game.{k}" for k in KINDS),
    *(f"rules.{k}" for k in KINDS),
    *(f"board.ended.{s}" for s in ("lost", "resigned")),
    *(f"share.{k}.{r}" for k in KINDS for r in ("won", "lost")),
    *(f"lb.title.{p}" for p in ("all", "week", "daily")),
    *(f"error.empty_{p}" for p in ("column", "cell")),
]


def _plural_keys() -> set[str]:
    from babel.messages.pofile import read_po

    with (BOT / "languages" / "locales" / "en.po").open("rb") as fh:
        return {m.id[0] for m in read_po(fh) if m.pluralizable}


PLURAL_KEYS = _plural_keys()


def used_keys() -> set[str]:
    keys = set(BUILT)
    for path in BOT.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        bases = set(KEYED.findall(text))
        keys |= {f"{base}.{kind}" for base in bases for kind in KINDS}
        # A base that is also a key of its own (``error.no_active_game``) is still checked.
        keys |= set(LITERAL.findall(text)) - {b for b in bases if b not in catalog_keys("en")}
    return keys


def test_every_key_the_bot_uses_is_in_the_english_catalogue():
    missing = sorted(k for k in used_keys() - {"board.png"} if k not in catalog_keys("en"))
    assert missing == []


@pytest.mark.parametrize("key", sorted(catalog_keys("en")))
def test_every_message_fills_its_placeholders(key):
    text = template("en", key)
    plural = key in PLURAL_KEYS
    if plural:
        text = tn("en", key, 2) + tn("en", key, 1)
    names = {f for _, f, _, _ in string.Formatter().parse(text) if f} - ({"n"} if plural else set())
    params = {n: "X" for n in names}
    filled = tn("en", key, 2, **params) if plural else t("en", key, **params)
    assert "{" not in filled and filled.strip() and filled != key


def test_plural_forms():
    assert tn("en", "board.moves", 1) == "1 move"
    assert tn("en", "board.moves", 5) == "5 moves"
    assert Translator("en-GB").n("board.cells", 1) == "1 free cell"


def test_unknown_locale_falls_back_to_english():
    assert normalize_locale("pt-BR") == "en"
    assert t("xx", "button.undo") == t("en", "button.undo") == "Undo"
    assert t("en", "no.such.key") == "no.such.key"


@pytest.mark.parametrize(
    ("code", "moves"),
    [
        ("BK1-C4-AAAAA24", ["1h"]),  # foundation_order
        ("BK1-C4-AAAAA24", ["12"]),  # no_fit
        ("BK1-C4-AAAAA24", ["8a", "7a"]),  # cell_full
        ("BK1-C4-AAAAA24", ["zz"]),  # malformed
        ("BK1-C4-AAAAA24", ["undo"]),  # nothing_to_undo
        ("FC1-C4-MS1", ["12"]),  # no_fit_colour (FreeCell's own words)
        ("CA1-AAAAA24", ["sf1"]),  # no_fit (Calculation's params)
        ("CA1-AAAAA24", ["w1f1"]),  # empty_pile
        ("CA1-AAAAA24", ["sw1", "sw1", "undo"]),  # undo_would_unturn
    ],
)
def test_engine_errors_read_well(code, moves):
    game = engine.new_game(code)
    with pytest.raises(engine.EngineError) as info:
        for move in moves:
            game.play(move)
    text = engine_error_text("en", info.value)
    assert text and "{" not in text
    assert t("en", f"engine.{info.value.reason}") != f"engine.{info.value.reason}"
