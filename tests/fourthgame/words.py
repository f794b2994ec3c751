"""Climb's words in every language the bot speaks: its name, its board's captions and its
moves. A game brings its own words with its front (as Tower does); the shared catalogues
hold none of them."""

from __future__ import annotations

from engine.cards import card_label
from tests.fourthgame.game import HOME, ClimbMove

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "climb": "Climb",
        "climb.stock": "stock",
        "climb.waste": "waste",
        "climb.pile": "pile",
        "turned": "{card} turned",
        "up": "{card} onto the pile",
        "redeal": "the waste turned over as the stock",
    },
    "bg": {
        "climb": "Изкачване",
        "climb.stock": "тесте",
        "climb.waste": "отпадъци",
        "climb.pile": "купчина",
        "turned": "{card} е обърната",
        "up": "{card} на купчината",
        "redeal": "отпадъците обърнати като ново тесте",
    },
    "ca": {
        "climb": "Escalada",
        "climb.stock": "munt",
        "climb.waste": "descart",
        "climb.pile": "pila",
        "turned": "{card} girada",
        "up": "{card} a la pila",
        "redeal": "el descart girat com a munt nou",
    },
    "id": {
        "climb": "Pendakian",
        "climb.stock": "stok",
        "climb.waste": "buangan",
        "climb.pile": "tumpukan",
        "turned": "{card} dibuka",
        "up": "{card} naik ke tumpukan",
        "redeal": "buangan dibalik menjadi stok",
    },
    "nl": {
        "climb": "Klim",
        "climb.stock": "voorraad",
        "climb.waste": "aflegstapel",
        "climb.pile": "stapel",
        "turned": "{card} omgedraaid",
        "up": "{card} op de stapel",
        "redeal": "de aflegstapel omgedraaid als nieuwe voorraad",
    },
    "ru": {
        "climb": "Восхождение",
        "climb.stock": "колода",
        "climb.waste": "отбой",
        "climb.pile": "стопка",
        "turned": "{card} открыта",
        "up": "{card} на стопку",
        "redeal": "отбой перевёрнут в колоду",
    },
}

PICTURE_KEYS = ("climb", "climb.stock", "climb.waste", "climb.pile")


def words(language: str) -> dict[str, str]:
    """Climb's words in ``language`` (English for a language it does not speak)."""
    return WORDS.get(language, WORDS["en"])


def picture_words(language: str) -> dict[str, str]:
    """The words Climb's board draws, under the renderer's keys."""
    own = words(language)
    return {key: own[key] for key in PICTURE_KEYS}


def describe(language: str, move: ClimbMove) -> str:
    own = words(language)
    if move.card is None:
        return own["redeal"]
    return own["up" if move.notation == HOME else "turned"].format(card=card_label(move.card))
