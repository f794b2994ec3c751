"""The moves a page may draw at once, before the server answers (``ActivityServer.view``).

The page knows no game, so it cannot tell a legal drop from an illegal one; the server tells it,
with each position, which drops the engine would take now (``drops``: source place, target
place, cards carried) and where each pile's double tap goes (``taps``). A drop or tap the page
finds in these is drawn at once (the player sees the card land), then sent; the engine still
decides, and a refusal brings the page back to the server's position. Anything else is sent and
drawn when the answer comes.

Found from the front alone (its ``table``, ``drop`` and ``double_tap`` and the engine's legal
moves): every card the table lets the player pick up, on every pile that takes a drop, turned
into notation by the front and looked up among the legal moves' canonical notations, shortest
carries first, until every legal move has its drop (a position has a few: 0.1-0.3 ms). A move
whose drop is written otherwise than its canonical notation is simply not drawn in advance.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.games.front.table import ActivityTable, Pile, Table
from bot.play.feedback import UserFeedback

Drop = tuple[str, str, int]  # (source place, target place, cards carried)


def page_moves(front: ActivityTable[Any], game: engine.Game[Any], table: Table) -> dict[str, Any]:
    """``{"drops": [[source, target, count], …], "taps": {place: [target, count]}}``."""
    legal = {m.lower() for m in game.legal_moves()}
    if not legal:
        return {"drops": [], "taps": {}}
    targets = list(dict.fromkeys(p.drop for p in table.piles if p.drop))
    by_notation: dict[str, Drop] = {}
    depth = max((len(_counts(p)) for p in table.piles), default=0)
    for count in range(1, depth + 1):  # single cards first: most moves, found soonest
        for pile in table.piles:
            if count not in _counts(pile):
                continue
            for target in targets:
                if target == pile.place:
                    continue
                try:
                    notation = front.drop(game, pile.place, target, count).lower()
                except (UserFeedback, engine.EngineError):  # not a group this drop moves
                    continue
                if notation in legal:
                    by_notation.setdefault(notation, (pile.place, target, count))
        if len(by_notation) == len(legal):
            break  # every legal move has its drop: no need to try longer runs
    taps: dict[str, list[Any]] = {}
    for pile in table.piles:
        if pile.drag == "none" or not pile.cards:
            continue
        try:
            chosen = front.double_tap(game, pile.place).lower()
        except (UserFeedback, engine.EngineError):
            continue
        found = by_notation.get(chosen)
        if found is not None:
            taps[pile.place] = [found[1], found[2]]
    return {"drops": [list(d) for d in by_notation.values()], "taps": taps}


def _counts(pile: Pile) -> range:
    """How many cards of ``pile``'s top the page lets a player carry (face-up ones only)."""
    if pile.drag == "none" or not pile.cards or not pile.cards[-1]:
        return range(0)
    if pile.drag == "top":
        return range(1, 2)
    face_up = len(pile.cards) - max((i + 1 for i, c in enumerate(pile.cards) if not c), default=0)
    return range(1, face_up + 1)
