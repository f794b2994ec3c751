"""The bot's messages for a terminal: Discord's markdown taken out, and, where the terminal's
encoding cannot show them, the card suits (``10♥`` → ``10H``) and other signs in ASCII.

The messages are written once, for Discord (``**bold**``, ``code`` in backticks, ``-#`` small
print, ``<link>``s); the console prints every line through ``for_terminal``, so no message is
written twice and none is stripped by hand where it is printed.
"""

from __future__ import annotations

import codecs
import re
import unicodedata

from engine.cards import SUIT_SYMBOLS, SUITS

SUIT_LETTERS = str.maketrans(dict(zip(SUIT_SYMBOLS, SUITS, strict=True)))

# Discord's markdown, in the order it is taken out: blocks first, then the marks inside lines.
_FENCE = re.compile(r"```[a-z]*\n?(.*?)\n?```", re.DOTALL)
_LINE_MARKS = re.compile(r"^(?:-# |#{1,3} |> )", re.MULTILINE)
_PAIRED = re.compile(r"(\*\*|__|~~|\|\||`)(.+?)\1", re.DOTALL)
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])")
_MASKED_LINK = re.compile(r"\[([^\]\n]+)\]\(<?(https?://[^)\s>]+)>?\)")
_BARE_LINK = re.compile(r"<(https?://[^>\s]+)>")
_MENTION = re.compile(r"<@!?([0-9]+)>")
_EMOJI = re.compile(r"<a?(:[A-Za-z0-9_]+:)[0-9]+>")

# Signs the messages use that have a plain ASCII form (the rest: their letters without accents,
# else "?").
_ASCII = str.maketrans(
    {
        **dict(zip(SUIT_SYMBOLS, SUITS, strict=True)),
        "—": "-",
        "–": "-",
        "·": "-",
        "•": "*",
        "“": '"',
        "”": '"',
        "„": '"',
        "«": '"',
        "»": '"',
        "‘": "'",
        "’": "'",
        "…": "...",
        "→": "->",
        "←": "<-",
        "↩": "<-",
        "↑": "^",
        "⚠": "!",
        "✓": "ok",
        "×": "x",
        "≤": "<=",
        "≥": ">=",
        "✗": "x",
        "\u00a0": " ",
        "\u202f": " ",
        "💡": "(hint)",
    }
)


def plain(text: str) -> str:
    """``text`` without Discord's markdown: ``**Goal**`` → ``Goal``, a code block's lines
    indented, a mention as ``player N``, a ``<link>`` as the address."""
    text = _FENCE.sub(lambda m: "\n".join("    " + line for line in m.group(1).splitlines()), text)
    text = _LINE_MARKS.sub("", text)
    text = _MASKED_LINK.sub(r"\1 (\2)", text)
    text = _BARE_LINK.sub(r"\1", text)
    text = _MENTION.sub(r"player \1", text)
    text = _EMOJI.sub(r"\1", text)
    previous = None
    while previous != text:  # nested marks: **`code`**
        previous, text = text, _PAIRED.sub(r"\2", text)
    return _ITALIC.sub(r"\1", text)


def can_show(encoding: str | None, text: str = SUIT_SYMBOLS) -> bool:
    """Whether a stream writing ``encoding`` can show every character of ``text`` (a stream
    with no encoding, such as ``io.StringIO``, holds any text; an unknown one is taken for ASCII)."""
    try:
        text.encode(codecs.lookup(encoding or "utf-8").name)
    except LookupError:
        return text.isascii()
    except UnicodeEncodeError:
        return False
    return True


def ascii_cards(text: str) -> str:
    """Suits as the letters the moves and fc-solve use: ``10♥`` → ``10H``, ``Q♠`` → ``QS``."""
    return text.translate(SUIT_LETTERS)


def in_encoding(text: str, encoding: str | None) -> str:
    """``text`` as ``encoding`` can write it: known signs in ASCII, accents dropped, else ``?``."""
    if can_show(encoding, text):
        return text
    out = []
    for ch in text:
        if can_show(encoding, ch):
            out.append(ch)
            continue
        simple = ch.translate(_ASCII)
        if simple == ch:
            bare = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            # An emoji or a joining mark adds nothing a plain terminal can show: left out.
            unshown = unicodedata.category(ch) in ("So", "Mn", "Me", "Cf")
            simple = bare or ("" if unshown else "?")
        out.append(simple)
    return "".join(out)


def for_terminal(text: str, encoding: str | None, *, ascii_suits: bool = False) -> str:
    """A message as the console prints it: plain, its suits as letters when asked or when the
    encoding cannot show them, and every other character one the encoding can write."""
    text = plain(text)
    if ascii_suits or not can_show(encoding):
        text = ascii_cards(text)
    return in_encoding(text, encoding)
