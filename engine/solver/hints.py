"""``hint``: the next move of a win that never returns to a position the game has been in, with the
plans and histories it remembers between hints."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import replace

from engine.game import BATCH
from engine.registry import replay
from engine.solver.lines import autoplay_form, shorten, shorten_autoplay
from engine.solver.positions import (
    AnyGame,
    ExactKey,
    Position,
    exact_key,
    plan_keys,
    position_key,
    tableau_game,
)
from engine.solver.result import LOST, MOVE, UNKNOWN, WINNABLE, WON, Hint, Refused, SolverError
from engine.solver.rules import rules_of
from engine.solver.solving import solve
from engine.tableau.game import TableauGame
from engine.tableau.notation import parse_notation
from engine.tableau.position import EMPTY

# The two in-process caches below are speed-ups only; the lock keeps them whole if hints run
# in several threads.
_CACHE_LOCK = threading.Lock()

# Games whose history ``visited_keys`` rebuilt last, by code: (actions, replayed game, keys).
_HISTORIES: dict[str, tuple[tuple[str, ...], AnyGame, set[bytes]]] = {}

HISTORY_CACHE_SIZE = 64

# Plans handed out by ``hint``, by the exact position their next move is played from, with
# the key of each position they pass through (see ``hint``): a speed-up only, checked
# against the game's history again before it is used.
_PLANS: OrderedDict[ExactKey, tuple[tuple[str, ...], tuple[bytes, ...]]] = OrderedDict()

PLAN_CACHE_SIZE = 256


def visited_keys(game: AnyGame) -> frozenset[bytes]:
    """The keys of every position the game has been in, rebuilt from its code and action log:
    the deal, the position after each action, after each move inside a batch, and the
    positions of lines later undone (an undo leads back to a position already counted).

    A game asked about again with more actions is carried on from where it was left
    (``_HISTORIES``), so following hints costs one replay in all, not one per hint."""
    moves = game.moves
    with _CACHE_LOCK:  # a game replayed here is taken out, so one thread at a time extends it
        known = _HISTORIES.pop(game.code, None)
    if known is None or known[0] != moves[: len(known[0])]:
        scratch = replay(game.code, ())
        assert isinstance(scratch, TableauGame)
        known = ((), scratch, {position_key(scratch.position)})
    done, scratch, keys = known
    for action in moves[len(done) :]:
        if BATCH in action:
            pos = scratch.position.copy()
            for part in action.split(BATCH):
                pos.apply(pos.resolve(parse_notation(part, pos.num_cells)))
                keys.add(position_key(pos))
        scratch.replay((action,))  # as logged: FreeCell's auto-played cards are in the log
        keys.add(position_key(scratch.position))
    with _CACHE_LOCK:
        _HISTORIES[game.code] = (moves, scratch, keys)
        while len(_HISTORIES) > HISTORY_CACHE_SIZE:
            _HISTORIES.pop(next(iter(_HISTORIES)))
    return frozenset(keys)


def _remember(pos: Position, plan: Sequence[str], keys: Sequence[bytes]) -> None:
    """Keep the rest of ``plan`` (and its positions' ``keys``) under the position its first
    move leads to."""
    if len(plan) < 2:
        return
    after = pos.copy()
    after.apply(after.resolve(parse_notation(plan[0], after.num_cells)))
    exact = exact_key(after)
    with _CACHE_LOCK:
        _PLANS[exact] = (tuple(plan[1:]), tuple(keys[1:]))
        _PLANS.move_to_end(exact)
        while len(_PLANS) > PLAN_CACHE_SIZE:
            _PLANS.popitem(last=False)


def clear_plans() -> None:
    """Forget the plans ``hint`` remembers, and the histories (tests use it to check the search alone)."""
    with _CACHE_LOCK:
        _PLANS.clear()
        _HISTORIES.clear()


def hint(game: AnyGame, time_limit: float = 2.0, *, reuse: bool = True) -> Hint:
    """The next move of a win that never returns to a position the game has been in, or proof
    the position is lost and how many undos mend it (``_hint``).

    The plan of a game with auto-play (``Rules.auto_play``: FreeCell's) is given as its
    player presses it, by the game's own auto-play setting: with auto-play, the moves home it
    makes by itself left out (``autoplay_form``) and shortened over the positions such a
    player passes (``shorten_autoplay``: a run moved through a free cell while a card went
    home is one move, which only auto-play makes legal); without, shortened with group moves
    (``shorten``). Either way every
    position the shorter plan's moves lead to is one of the plan's (so none was visited);
    the one right after a shortcut, before auto-play's cards go home, is checked against the
    game's history (``_first_passes``). The rest of the plan is remembered under the
    position the first move leads to (``reuse``)."""
    advice = _hint(game, time_limit, reuse=reuse)
    if rules_of(game.position).auto_play is None or not advice.solution:
        return advice
    pos = game.position
    if advice.undos:
        back = replay(game.code, game.moves)
        assert isinstance(back, TableauGame)
        for _ in range(advice.undos):
            back.undo()
        pos = back.position
    plan = advice.solution
    try:
        solution = autoplay_form(pos, plan) if game.autoplay else list(plan)
    except SolverError:  # a plan auto-play would overtake: its first move is still legal here
        return advice
    if advice.move is not None:
        with suppress(SolverError):  # a shortening that lost its way: the plan as it is
            shorter = shorten_autoplay(pos, solution) if game.autoplay else shorten(pos, solution)
            if not _first_passes(pos, shorter[0], game.autoplay, visited_keys(game)):
                solution = shorter
    if advice.move is None:
        return replace(advice, solution=solution)
    if reuse and solution[0] != plan[0]:
        _remember_after(pos, solution[0], plan, game.autoplay)
    return replace(advice, move=solution[0], solution=solution)


def _first_passes(pos: Position, first: str, autoplay: bool, seen: frozenset[bytes]) -> bool:
    """Whether playing ``first`` (with its auto-play) passes through a position in ``seen``: the
    position right after a shortcut, before auto-play's cards go home, need not be the plan's."""
    work = pos.copy()
    work.apply(work.resolve(parse_notation(first, work.num_cells)))
    if position_key(work) in seen:
        return True
    auto_play = rules_of(pos).auto_play
    if autoplay and auto_play is not None:
        for move in auto_play(work.copy()):
            work.apply(move)
            if position_key(work) in seen:
                return True
    return False


def _remember_after(pos: Position, first: str, plan: Sequence[str], autoplay: bool) -> None:
    """Remember the rest of ``plan`` under the position ``first`` (a shortcut along it, played
    with the game's auto-play) leads to, so following the shortened hint still reuses the plan."""
    after = pos.copy()
    after.apply(after.resolve(parse_notation(first, after.num_cells)))
    auto_play = rules_of(pos).auto_play
    if autoplay and auto_play is not None:
        auto_play(after)
    target = exact_key(after)
    keys = plan_keys(pos, plan)
    if keys is None:
        return
    work = pos.copy()
    for i, text in enumerate(plan[:-1]):
        work.apply(work.resolve(parse_notation(text, work.num_cells)))
        if exact_key(work) == target:
            with _CACHE_LOCK:
                _PLANS[target] = (tuple(plan[i + 1 :]), tuple(keys[i + 1 :]))
                _PLANS.move_to_end(target)
                while len(_PLANS) > PLAN_CACHE_SIZE:
                    _PLANS.popitem(last=False)
            return


def _hint(game: AnyGame, time_limit: float = 2.0, *, reuse: bool = True) -> Hint:
    """The next move of a win that never returns to a position the game has been in, or proof
    the position is lost and how many undos mend it.

    Why hints make progress (issue 13). A hint used to be the first move of a fresh
    solve from the current position, and two solves from neighbouring positions may
    pick plans that undo each other (a card from a cell to an empty column, then back:
    ``c8``, ``8c``, … forever, +5 points a loop). Now the hint is given the game's
    history, every position it has been in (``visited_keys``, rebuilt from the action
    log: undone lines and the moves inside batches included), compared up to column
    order and cell slot (the solver's state key, so never less strict than "the same
    board"), and the move it gives always starts a winning plan that passes through
    none of them:

    1. the plain solve from here (deterministic best-first search); its plan is used
       if no position along it (each single move, each card sent home) was visited;
    2. else the search again with every visited position excluded (``Search``'s
       ``avoid``), which finds a plan that avoids them whenever one exists (when the
       cards it sends home first would pass one, each first move in turn:
       ``_plan_avoiding``).

    Why following hints from any position ends in a win without a repeated position:
    the plan a hint comes from avoids every visited position, so after its first move
    the rest of that plan still avoids them all, the position just left included. The
    next hint's search always has a plan to find (the search is complete; given the time),
    and whatever plan it picks avoids everything visited: no position can come twice,
    there are finitely many, and each stays winnable, so the game ends won. A plan is
    also remembered in-process (``reuse``; under the position its first move leads
    to), so a player who follows the hints gets the continuation of the same plan at
    once (one search a game, not one a hint); it is checked against the history before
    it is used, like any other. Visited positions are compared by the solver's key
    (``position_key``: columns in any order, cells in any slot), which is stricter than
    "the same board", so a board never comes back either.

    Only when no win from here avoids the visited positions (possible after undos or
    moves of the player's own, never while following hints: say every legal move
    undoes one just played) is a revisit given: first a winning move into a position
    not visited (so at least the move itself is new), and as a last resort the plain
    plan's first move, since a hint never hides a win.

    When the position is lost, the earlier positions the undo history reaches are solved
    newest first, within the same overall budget; positions proven lost on the way are
    remembered, so each search only explores what is new.
    """
    t0 = time.monotonic()
    deadline = t0 + time_limit

    def elapsed() -> float:
        return round(time.monotonic() - t0, 4)

    def remaining() -> float:
        return max(0.0, deadline - time.monotonic())

    pos = game.position
    if pos.is_won():
        return Hint(WON, verdict=WINNABLE)
    seen = visited_keys(game)
    if reuse:
        with _CACHE_LOCK:
            cached = _PLANS.get(exact_key(pos))
        if cached is not None and seen.isdisjoint(cached[1]):
            _remember(pos, *cached)
            return Hint(MOVE, cached[0][0], list(cached[0]), verdict=WINNABLE, seconds=elapsed())
    dead: set[int] = set()
    result = solve(pos, time_limit=time_limit, dead=dead, compact=False)
    nodes = result.nodes
    if result.verdict == WINNABLE:
        plan: list[str] | None = result.moves
        keys = plan_keys(pos, result.moves)
        if keys is None:
            raise SolverError("the solver's plan does not replay to a win")
        if not seen.isdisjoint(keys):
            plan, keys, more = _plan_avoiding(pos, seen, deadline)
            nodes += more
        if plan is not None and keys is not None:
            if reuse:
                _remember(pos, plan, keys)
            return Hint(MOVE, plan[0], plan, verdict=WINNABLE, seconds=elapsed(), nodes=nodes)
        # No win avoids them all: a winning move into a position not visited, else the plain
        # plan (a hint never hides a win).
        fresh, more = _fresh_winning_move(pos, result.moves, seen, dead, deadline)
        nodes += more
        if fresh is None and remaining() <= 0:
            if _first_is_new(pos, result.moves, seen):
                fresh = result.moves
            else:
                return Hint(UNKNOWN, verdict=WINNABLE, seconds=elapsed(), nodes=nodes)
        plan = fresh or result.moves
        return Hint(MOVE, plan[0], plan, verdict=WINNABLE, seconds=elapsed(), nodes=nodes)
    if result.verdict == UNKNOWN:
        return Hint(UNKNOWN, seconds=elapsed(), nodes=nodes)
    back = replay(game.code, game.moves)
    assert isinstance(back, TableauGame)
    for undos in range(1, back.undo_depth + 1):
        back.undo()
        if remaining() <= 0:
            return Hint(LOST, verdict=LOST, seconds=elapsed(), nodes=nodes)
        earlier = solve(back.position, time_limit=remaining(), dead=dead, compact=False, short=False)
        nodes += earlier.nodes
        if earlier.verdict == WINNABLE:
            return Hint(
                LOST, undos=undos, solution=earlier.moves, verdict=LOST, seconds=elapsed(), nodes=nodes
            )
        if earlier.verdict == UNKNOWN:
            return Hint(LOST, verdict=LOST, seconds=elapsed(), nodes=nodes)
    return Hint(LOST, exhausted=True, verdict=LOST, seconds=elapsed(), nodes=nodes)


def _plan_avoiding(
    pos: Position, seen: frozenset[bytes], deadline: float
) -> tuple[list[str] | None, list[bytes] | None, int]:
    """A winning plan from ``pos`` through no position in ``seen`` (with the key of each position
    it passes), or None if none was found in time; and the nodes searched.

    The search with ``avoid`` checks every step but the cards it sends home from the start
    position itself (it always sends those first); when that start would pass through a
    visited position (say a Home press undone), each legal first move is tried in turn
    and the search is run from where it leads."""
    nodes = 0
    avoiding = solve(pos, time_limit=max(0.0, deadline - time.monotonic()), avoid=seen, compact=False)
    nodes += avoiding.nodes
    if avoiding.verdict == WINNABLE:
        keys = plan_keys(pos, avoiding.moves)
        if keys is not None and seen.isdisjoint(keys):
            return avoiding.moves, keys, nodes
    elif avoiding.verdict == UNKNOWN or not _home_now(pos):
        return None, None, nodes
    for move in pos.legal_moves():
        after = pos.copy()
        after.apply(move)
        first = position_key(after)
        left = deadline - time.monotonic()
        if first in seen or left <= 0:
            continue
        onward = solve(after, time_limit=left, avoid=seen | {position_key(pos)}, compact=False, short=False)
        nodes += onward.nodes
        if onward.verdict == WINNABLE:
            plan = [move.notation, *onward.moves]
            keys = plan_keys(pos, plan)
            if keys is not None and seen.isdisjoint(keys):
                return plan, keys, nodes
    return None, None, nodes


def _home_now(pos: Position) -> bool:
    """Whether the search sends some card of ``pos`` home before anything else (Jeu du
    Boulanger: any card that can go; FreeCell: a card safe auto-play sends: ``Rules.settle``)."""
    cols = [bytes(c) for c in pos.cols]
    return bool(rules_of(pos).settle(cols, [c for c in pos.cells if c != EMPTY], list(pos.found)))


def _first_is_new(pos: Position, plan: Sequence[str], seen: frozenset[bytes]) -> bool:
    after = pos.copy()
    after.apply(after.resolve(parse_notation(plan[0], after.num_cells)))
    return position_key(after) not in seen


def _fresh_winning_move(
    pos: Position, plan: Sequence[str], seen: frozenset[bytes], dead: set[int], deadline: float
) -> tuple[list[str] | None, int]:
    """A winning plan whose first move leads to a position not in ``seen`` (``plan``'s own first
    move tried first, then every legal move in listing order), and the nodes searched."""
    first = pos.resolve(parse_notation(plan[0], pos.num_cells))
    nodes = 0
    for move in sorted(pos.legal_moves(), key=lambda m: m.notation != first.notation):
        after = pos.copy()
        after.apply(move)
        if position_key(after) in seen:
            continue
        left = deadline - time.monotonic()
        if left <= 0:
            break
        result = solve(after, time_limit=left, dead=dead, compact=False, short=False)
        nodes += result.nodes
        if result.verdict == WINNABLE:
            return [move.notation, *result.moves], nodes
    return None, nodes


def hint_code(
    code: str, moves: Sequence[str] = (), time_limit: float = 2.0, autoplay: bool | None = None
) -> Hint | Refused:
    """``hint`` for the game a code plus an action log rebuild, for process pools; ``Refused`` on
    a bad code or move. ``autoplay``: the player's setting of a game with auto-play (default on).
    """
    game = tableau_game(code, moves, autoplay)
    if isinstance(game, Refused):
        return game
    return hint(game, time_limit)
