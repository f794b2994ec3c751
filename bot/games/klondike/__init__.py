"""Klondike's front (issue 43): its presses and buttons (``presses``), its moves and board in
words (``words``), the front itself (``front``) and its start command (``command``). Its
words are its own catalogue, ``bot/games/locales/klondike/<lang>.po``; its picture is
``renderer.games.klondike``; the rules are ``engine.klondike``."""

from bot.games.klondike.front import KlondikeFront

__all__ = ["KlondikeFront"]
