"""The console's output boundary: Discord's markdown out, suits and signs a terminal can show."""

from __future__ import annotations

import pytest

from bot.play.plain_text import ascii_cards, can_show, for_terminal, in_encoding, plain


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("**Goal**: build", "Goal: build"),
        ("💡 Try 7♥ from column 3 to column 5 (`35`).", "💡 Try 7♥ from column 3 to column 5 (35)."),
        ("Type `yes` to end it", "Type yes to end it"),
        ("**`/board`** shows it", "/board shows it"),
        ("__under__ ~~gone~~ ||secret||", "under gone secret"),
        ("an *aside* but 2 * 3 and a*b stay", "an aside but 2 * 3 and a*b stay"),
        ("-# Press **My board** to play", "Press My board to play"),
        ("## Rules\n> quoted", "Rules\nquoted"),
        ("One way:\n```\n6h 8a\n64\n```", "One way:\n    6h 8a\n    64"),
        ("Add it: <https://discord.com/x?y=1>", "Add it: https://discord.com/x?y=1"),
        ("[the invite](https://discord.com/i)", "the invite (https://discord.com/i)"),
        ("**1.** <@123> won", "1. player 123 won"),
        ("<:boulanger:1234> hi", ":boulanger: hi"),
        ("a <reason> stays, so does lost_warning and a|b", "a <reason> stays, so does lost_warning and a|b"),
    ],
)
def test_discord_markdown_is_taken_out(markdown, text):
    assert plain(markdown) == text


def test_every_catalogue_message_prints_without_markdown():
    """No message of any language keeps a Discord mark once plain (the console's one boundary)."""
    from bot.languages.i18n import catalog_keys, template
    from bot.languages.language import LANGUAGES

    for language in LANGUAGES:
        for key in catalog_keys(language):
            text = plain(template(language, key))
            assert "**" not in text and "`" not in text and "\n-# " not in text, (language, key, text)
            assert not text.startswith("-# ") and "<http" not in text, (language, key, text)


def test_suits_as_letters_and_other_signs_in_ascii():
    assert ascii_cards("10♥ on J♠, A♦ home, Q♣") == "10H on JS, AD home, QC"
    assert not can_show("ascii") and can_show("utf-8") and can_show(None) and not can_show("latin-1")
    assert can_show("no-such-codec", "plain") and not can_show("no-such-codec")
    assert in_encoding("Score 0 · 2 moves — “yes” … cel·la ×2 🏆 ✓", "ascii") == (
        'Score 0 - 2 moves - "yes" ... cel-la x2  ok'
    )
    assert in_encoding("Ceci est déjà là", "ascii") == "Ceci est deja la"
    assert in_encoding("Калкулация", "ascii") == "??????????"
    assert in_encoding("déjà 10♥", "latin-1") == "déjà 10H"


def test_for_terminal_is_plain_and_shows_suits_the_terminal_can():
    message = "**Jeu du Boulanger** · `BK1` · 💡 Try 10♥"
    assert for_terminal(message, "utf-8") == "Jeu du Boulanger · BK1 · 💡 Try 10♥"
    assert for_terminal(message, "utf-8", ascii_suits=True) == "Jeu du Boulanger · BK1 · 💡 Try 10H"
    assert for_terminal(message, "ascii") == "Jeu du Boulanger - BK1 - (hint) Try 10H"
    assert for_terminal(message, "latin-1") == "Jeu du Boulanger · BK1 · (hint) Try 10H"
