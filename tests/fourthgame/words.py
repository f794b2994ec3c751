"""Ladder's words in every language the bot speaks: its name, its board's captions and its
moves. A game brings its own words with its front (as Tower does); the shared catalogues
hold none of them."""

from __future__ import annotations

from engine.cards import card_label
from tests.fourthgame.game import HOME, LadderMove

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "ladder": "Ladder",
        "ladder.stock": "stock",
        "ladder.waste": "waste",
        "ladder.pile": "ladder",
        "turned": "{card} turned",
        "up": "{card} onto the ladder",
        "redeal": "the waste turned over as the stock",
    },
    "bg": {
        "ladder": "Стълба",
        "ladder.stock": "тесте",
        "ladder.waste": "отпадъци",
        "ladder.pile": "стълба",
        "turned": "{card} е обърната",
        "up": "{card} на стълбата",
        "redeal": "отпадъците обърнати като ново тесте",
    },
    "ca": {
        "ladder": "Escala",
        "ladder.stock": "munt",
        "ladder.waste": "descart",
        "ladder.pile": "escala",
        "turned": "{card} girada",
        "up": "{card} a l'escala",
        "redeal": "el descart girat com a munt nou",
    },
    "id": {
        "ladder": "Tangga",
        "ladder.stock": "stok",
        "ladder.waste": "buangan",
        "ladder.pile": "tangga",
        "turned": "{card} dibuka",
        "up": "{card} naik ke tangga",
        "redeal": "buangan dibalik menjadi stok",
    },
    "nl": {
        "ladder": "Ladderpatience",
        "ladder.stock": "stapel",
        "ladder.waste": "aflegstapel",
        "ladder.pile": "ladder",
        "turned": "{card} omgedraaid",
        "up": "{card} op de ladder",
        "redeal": "de aflegstapel omgedraaid als nieuwe stapel",
    },
    "ru": {
        "ladder": "Лестница",
        "ladder.stock": "колода",
        "ladder.waste": "отбой",
        "ladder.pile": "лестница",
        "turned": "{card} открыта",
        "up": "{card} на лестницу",
        "redeal": "отбой перевёрнут в колоду",
    },
}

PICTURE_KEYS = ("ladder", "ladder.stock", "ladder.waste", "ladder.pile")


def words(language: str) -> dict[str, str]:
    """Ladder's words in ``language`` (English for a language it does not speak)."""
    return WORDS.get(language, WORDS["en"])


def picture_words(language: str) -> dict[str, str]:
    """The words Ladder's board draws, under the renderer's keys."""
    own = words(language)
    return {key: own[key] for key in PICTURE_KEYS}


def describe(language: str, move: LadderMove) -> str:
    own = words(language)
    if move.card is None:
        return own["redeal"]
    return own["up" if move.notation == HOME else "turned"].format(card=card_label(move.card))
