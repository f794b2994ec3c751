"""What the solver calls a position (one of an eight-column game with free cells: Jeu du
Boulanger's, FreeCell's, any game whose position hands the solver its rules) and the keys it
knows one by."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError
from engine.registry import replay
from engine.solver.result import Refused
from engine.solver.rules import rules_of
from engine.solver.search import state_key
from engine.tableau.game import TableauGame
from engine.tableau.notation import parse_notation
from engine.tableau.position import EMPTY, TableauPosition

Position = TableauPosition

AnyGame = TableauGame[Any]

ExactKey = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]


def position_of(target: Position | AnyGame) -> Position:
    if isinstance(target, TableauPosition):
        return target
    if isinstance(target, TableauGame):
        pos: Position = target.position
        return pos
    raise TypeError(f"the solver plays eight-column games' positions, not {type(target).__name__}")


def autoplays(target: Position | AnyGame) -> bool:
    """Whether a game plays its rules' own moves after each move (FreeCell's auto-play, when on)."""
    return (
        isinstance(target, TableauGame)
        and target.autoplay
        and rules_of(target.position).auto_play is not None
    )


def exact_key(pos: Position) -> ExactKey:
    return (tuple(map(tuple, pos.cols)), tuple(pos.cells), tuple(pos.found))


def position_key(pos: Position) -> bytes:
    """The solver's key of a position (``search.state_key``): its columns up to their order
    and its free cells up to which slot holds which card; equal boards have equal keys."""
    return state_key([bytes(c) for c in pos.cols], [c for c in pos.cells if c != EMPTY])


def plan_keys(pos: Position, moves: Sequence[str], *, to_win: bool = True) -> list[bytes] | None:
    """The key of each position ``moves`` pass through from ``pos`` (one per move), or None
    unless they are legal and (with ``to_win``) end in a win."""
    work = pos.copy()
    keys = []
    try:
        for text in moves:
            work.apply(work.resolve(parse_notation(text, work.num_cells)))
            keys.append(position_key(work))
    except EngineError:
        return None
    return keys if work.is_won() or not to_win else None


def line_keys(pos: Position, moves: Sequence[str]) -> list[bytes] | None:
    """The ``position_key`` of each position a win by ``moves`` passes through from ``pos``
    (one a move), or None unless they are legal and win: a known solution (a shipped stock
    deal's) as a verdict's line, so the first search of a new game is a short one back to it."""
    return plan_keys(pos, moves)


def tableau_game(code: str, moves: Sequence[str], autoplay: bool | None = None) -> AnyGame | Refused:
    """The game a code and an action log rebuild, with the player's auto-play setting (for a
    game that has one), or why not."""
    try:
        game = replay(code, moves)
    except EngineError as exc:
        return Refused(str(exc))
    if not isinstance(game, TableauGame):
        return Refused(f"{code} is not a code of a game the solver plays")
    if autoplay is not None and rules_of(game.position).auto_play is not None:
        game.autoplay = autoplay
    return game
