"""The solver's public functions: ``solve``, ``hint``, ``par`` and the pool-friendly ``solve_code``."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import asdict, replace
from typing import Any

from engine.cards import card_text
from engine.codes import parse_code
from engine.errors import EngineError
from engine.freecell.game import FreeCellGame
from engine.freecell.position import FreeCellPosition
from engine.game import BATCH
from engine.registry import replay
from engine.solver.result import LOST, MOVE, SOLVABLE, UNKNOWN, UNSOLVABLE, WON, Hint, SolveResult
from engine.solver.rules import STEP_COST, rules_for
from engine.solver.search import CELL, EMPTY_COL, HOME, Search, Step, state_key
from engine.solver.weighted import WeightedSearch
from engine.tableau.game import TableauGame
from engine.tableau.notation import CELL as CELL_KIND
from engine.tableau.notation import COLUMN, FOUNDATION, ParsedMove, parse_notation
from engine.tableau.position import EMPTY, TableauMove, TableauPosition

DEFAULT_TIME_LIMIT = 5.0
# The shorter-minded second search's node budget (``_shorter``): this many times the first
# search's nodes, and at least the floor.
SHORT_FACTOR, SHORT_FLOOR = 8, 20_000
CELL_LETTERS = "abcd"


class SolverError(RuntimeError):
    """The search produced a step the engine refuses: a solver bug, never a player's fault."""


# The solver plays any FreeCell-family game: Jeu du Boulanger and FreeCell.
Position = TableauPosition
AnyGame = TableauGame[Any]


def _position_of(target: Position | AnyGame) -> Position:
    if isinstance(target, TableauPosition):
        return target
    if isinstance(target, TableauGame):
        pos: Position = target.position
        return pos
    raise TypeError(f"the solver plays Jeu du Boulanger and FreeCell positions, not {type(target).__name__}")


def _autoplays(target: Position | AnyGame) -> bool:
    """Whether a game sends safe cards home by itself (FreeCell's auto-play, when on)."""
    return isinstance(target, FreeCellGame) and target.autoplay


def _search_for(
    pos: Position,
    dead: set[int] | None = None,
    avoid: set[bytes] | frozenset[bytes] | None = None,
    wins: Iterable[bytes] | None = None,
) -> Search:
    cols = [bytes(c) for c in pos.cols]
    cells = [c for c in pos.cells if c != EMPTY]
    return Search(
        cols, cells, list(pos.found), pos.num_cells, dead=dead, avoid=avoid, wins=wins, rules=rules_for(pos)
    )


def autoplay_form(pos: Position, moves: Sequence[str]) -> list[str]:
    """A solution as a FreeCell player with auto-play presses it: the moves home that safe
    auto-play makes by itself left out (the search sends the same cards home after each step,
    so every other move finds its cards where it expects them; checked move by move)."""
    if not isinstance(pos, FreeCellPosition):
        return list(moves)
    ref, work = pos.copy(), pos.copy()
    out: list[str] = []
    for text in moves:
        move = ref.resolve(parse_notation(text, ref.num_cells))
        ref.apply(move)
        if move.dst_kind == FOUNDATION and work.found[move.dst] > move.cards[0] % 13:
            continue  # auto-play sent it already
        try:
            mine = work.resolve(parse_notation(move.notation, work.num_cells))
        except EngineError as exc:
            raise SolverError(f"{move.notation} is refused once auto-play has played: {exc}") from exc
        if mine.cards != move.cards:
            raise SolverError(f"{move.notation} moves other cards once auto-play has played")
        work.apply(mine)
        out.append(mine.notation)
        work.auto_run()
    if not work.is_won():
        raise SolverError("the solution does not win once auto-play has played")
    return out


def shorten_autoplay(pos: Position, moves: Sequence[str]) -> list[str]:
    """``shorten`` for a solution in auto-play form (``autoplay_form``): positions are those
    a player with auto-play passes through (each move followed by its cards sent home), and a
    shortcut is any legal move that, with its own auto-play, lands exactly on a later one.
    What ``shorten`` cannot see: a run moved through a free cell card by card with a card
    sent home in between (``3b``, ``38``, auto ``3h``, ``b8``) is one run move (``38``) here."""
    if not isinstance(pos, FreeCellPosition) or not moves:
        return list(moves)

    def step(work: FreeCellPosition, move: TableauMove) -> FreeCellPosition:
        after = work.copy()
        after.apply(move)
        after.auto_run()
        return after

    states = [pos.copy()]
    for text in moves:
        states.append(step(states[-1], states[-1].resolve(parse_notation(text, pos.num_cells))))
    index = {_exact_key(p): i for i, p in enumerate(states)}  # last visit wins: loops are skipped
    n = len(moves)
    best = [n + 1] * (n + 1)
    jump: list[tuple[str, int]] = [("", 0)] * (n + 1)
    best[n] = 0
    for i in range(n - 1, -1, -1):
        best[i], jump[i] = best[i + 1] + 1, (moves[i], i + 1)
        for move in states[i].legal_moves():
            j = index.get(_exact_key(step(states[i], move)))
            if j is not None and j > i + 1 and best[j] + 1 < best[i]:
                best[i], jump[i] = best[j] + 1, (move.notation, j)
    out: list[str] = []
    work, i = states[0], 0
    while i < n:
        text, i = jump[i]
        move = work.resolve(parse_notation(text, work.num_cells))
        out.append(move.notation)
        work = step(work, move)
    if not work.is_won():
        raise SolverError("shortening the auto-play solution lost the win")
    return out


def to_notation(pos: Position, steps: Iterable[Step], *, to_win: bool = True) -> list[str]:
    """Turn search steps (card, destination) into engine notation, checking each on a copy
    (and, with ``to_win``, that they end in a win).

    Each step moves one card: onto a column top (``27``: the top card fits, so
    exactly one card moves), into the leftmost empty column (``18``: one card
    without a count), into the leftmost free cell, or home.
    """
    return [move.notation for move in _to_moves(pos, steps, to_win=to_win)]


def _to_moves(pos: Position, steps: Iterable[Step], *, to_win: bool = True) -> list[TableauMove]:
    """``to_notation``'s moves, as the engine resolved them: each step is looked up among the
    engine's legal moves (``find``) by its source and destination, as its notation would be."""
    pos = pos.copy()
    out: list[TableauMove] = []
    for card, dst in steps:
        cols, cells = pos.cols, pos.cells
        src_kind, src = COLUMN, next((i for i, col in enumerate(cols) if col and col[-1] == card), -1)
        if src < 0:
            src_kind, src = CELL_KIND, next((j for j, c in enumerate(cells) if c == card), -1)
            if src < 0:
                raise SolverError(f"step moves {card_text(card)}, which is not available")
        if dst == HOME:
            dst_kind, to = FOUNDATION, 0
        elif dst == CELL:
            dst_kind, to = CELL_KIND, next((j for j, c in enumerate(cells) if c == EMPTY), -1)
        elif dst == EMPTY_COL:
            dst_kind, to = COLUMN, next((i for i, col in enumerate(cols) if not col), -1)
        else:
            dst_kind, to = COLUMN, next((i for i, col in enumerate(cols) if col and col[-1] == dst), -1)
        parsed = ParsedMove(src_kind, src, dst_kind, to, None)
        move = pos.find(parsed) if to >= 0 else None
        if move is None:
            where = (str(src + 1) if src_kind == COLUMN else CELL_LETTERS[src]) + (
                "h"
                if dst_kind == FOUNDATION
                else "?"
                if to < 0
                else str(to + 1)
                if dst_kind == COLUMN
                else CELL_LETTERS[to]
            )
            why = pos.refusal(parsed) if to >= 0 else "there is no such place"
            raise SolverError(f"solver step {where} refused by the engine: {why}")
        if move.cards != (card,):
            raise SolverError(f"solver step {move.notation} would move {len(move.cards)} cards")
        pos.apply(move)
        out.append(move)
    if to_win and not pos.is_won():
        raise SolverError("the solver's solution does not end in a win")
    return out


def _exact_key(pos: Position) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    return (tuple(map(tuple, pos.cols)), tuple(pos.cells), tuple(pos.found))


# A position's exact key for ``shorten``: its columns in place and its cells slot by slot
# (255 for an empty one), as bytes; the foundations hold the cards that are in neither.
_Board = tuple[bytes, ...]
_NO_CELL = 255


def _board(pos: Position) -> _Board:
    return (*map(bytes, pos.cols), bytes(_NO_CELL if c == EMPTY else c for c in pos.cells))


def _after(board: _Board, move: TableauMove) -> _Board:
    """The exact key of the position ``move`` leads to from the one keyed ``board``."""
    rows = list(board)
    cells = rows[-1]
    n = len(move.cards)
    if move.src_kind == COLUMN:
        rows[move.src] = rows[move.src][:-n]
    else:
        cells = cells[: move.src] + bytes((_NO_CELL,)) + cells[move.src + 1 :]
    if move.dst_kind == COLUMN:
        rows[move.dst] = rows[move.dst] + bytes(move.cards)
    elif move.dst_kind == CELL_KIND:
        cells = cells[: move.dst] + bytes(move.cards) + cells[move.dst + 1 :]
    rows[-1] = cells
    return tuple(rows)


def shorten(pos: Position, moves: Sequence[str]) -> list[str]:
    """The fewest moves that pass through positions of ``moves``, using group moves.

    Every position the solution visits is indexed; from each one, every legal
    engine group move (two cards or more, from a column) that lands exactly on a
    later position is a shortcut. The shortest chain of such jumps is the result, so
    each move in it is one the engine itself listed as legal from the position it is
    played in, and the last position is still the win. (Single-card shortcuts, a card
    that went the long way round, were tried too: the search's solutions on deals 1-60
    had none, and listing them cost most of the time.)
    """
    work = pos.copy()
    applied = []
    for text in moves:
        move = work.resolve(parse_notation(text, work.num_cells))
        work.apply(move)
        applied.append(move)
    return [m.notation for m in _shortest(pos, applied, list(moves))]


def _shortest(pos: Position, applied: Sequence[TableauMove], moves: Sequence[str]) -> list[TableauMove]:
    """``shorten`` on moves already resolved (``applied``, written ``moves``): the positions are
    keyed by ``_board``. The shortcuts are looked for on the keys alone, cheaply: from each
    position, every ordered run of two cards or more at a column's top (``FIT``, the engine's
    build rule) onto each column whose top takes it (``Rules.onto``) or into each empty column, kept if it lands
    on a later position; then only those are asked of the engine (``moves`` at that position,
    which also applies the capacity), so each jump kept is a move the engine itself listed."""
    boards = [_board(pos)]
    for move in applied:
        boards.append(_after(boards[-1], move))
    index = {k: i for i, k in enumerate(boards)}  # last visit wins: loops are skipped too
    n = len(applied)
    fit = pos.FIT
    onto = rules_for(pos).onto  # the cards each card may be put on: FIT's, listed
    ncols = len(pos.cols)
    ncells = len(pos.cells)
    # maybe[i]: (later position j > i + 1, source column) of the runs that may jump there
    maybe: dict[int, list[tuple[int, int]]] = {}
    # A group move sends nothing home and leaves the cells as they are: a position can only
    # jump to a later one with the same cards home (they never come back, so those follow it
    # in a row) and the same cells; positions with none are skipped at once.
    left = [sum(map(len, board[:ncols])) + ncells - board[ncols].count(_NO_CELL) for board in boards]
    same_until = list(range(n + 1))  # the last position with as many cards not home
    for i in range(n - 1, -1, -1):
        if left[i + 1] == left[i]:
            same_until[i] = same_until[i + 1]
    for i in range(n):
        here = boards[i]
        if not any(boards[j][-1] == here[-1] for j in range(i + 2, same_until[i] + 1)):
            continue
        empties = [d for d in range(ncols) if not here[d]]
        tops = {here[d][-1]: d for d in range(ncols) if here[d]}
        for s in range(ncols):
            col = here[s]
            size = len(col)
            k = 1
            while k < size and fit[col[size - k - 1]][col[size - k]] == 1:
                k += 1
                base = col[size - k]
                for d in [tops[t] for t in onto[base] if t in tops] + empties:
                    rows = list(here)
                    rows[s] = col[: size - k]
                    rows[d] = here[d] + col[size - k :]
                    j = index.get(tuple(rows))
                    if j is not None and j > i + 1:
                        maybe.setdefault(i, []).append((j, s))
    # jumps[i]: the engine's moves from position i that land on a later position j > i + 1
    jumps: list[list[tuple[int, TableauMove]]] = [[] for _ in range(n)]
    work = pos.copy()
    for i in range(n):
        for s in sorted({s for _, s in maybe[i]}) if i in maybe else ():
            for move in work.moves((COLUMN, s)):
                if len(move.cards) > 1:
                    j = index.get(_after(boards[i], move))
                    if j is not None and j > i + 1:
                        jumps[i].append((j, move))
        work.apply(applied[i])
    best = [n + 1] * (n + 1)  # best[i]: fewest moves from position i to the end
    choice: list[TableauMove] = list(applied)
    best[n] = 0
    for i in range(n - 1, -1, -1):
        best[i] = best[i + 1] + 1
        for j, move in jumps[i]:
            if best[j] + 1 < best[i]:
                best[i], choice[i] = best[j] + 1, move
    out: list[TableauMove] = []
    work = pos.copy()
    i = 0
    while i < n:
        move = choice[i]
        # every move is one the engine listed (or resolved) at exactly this position: the
        # solution's own moves replay as they were resolved, and where a jump lands is checked
        work.apply(move)
        out.append(move)
        if move.notation != moves[i]:
            i = index[_after(boards[i], move)]
            if _board(work) != boards[i]:
                raise SolverError("shortening the solution lost its way")
        else:
            i += 1
    if not work.is_won():
        raise SolverError("shortening the solution lost the win")
    return out


def solve(
    target: Position | AnyGame,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    node_limit: int | None = None,
    dead: set[int] | None = None,
    avoid: set[bytes] | frozenset[bytes] | None = None,
    compact: bool = True,
    autoplay: bool | None = None,
    short: bool = True,
) -> SolveResult:
    """Decide a Jeu du Boulanger or FreeCell position (4 to 1 free cells).

    ``"solvable"`` comes with a checked winning move list, ``"unsolvable"`` is a
    proof by complete search, ``"unknown"`` means the time or node budget ran
    out. ``dead`` is an optional shared set of positions already proven lost
    (see ``Search``); ``avoid``, keys of positions the solution must not pass
    through (``position_key``; then "unsolvable" means "not without them"). ``compact`` shortens the solution with shortcuts and group
    moves (``shorten``; about 4% fewer moves for some 35 ms). ``autoplay`` (FreeCell; by
    default the game's own setting, off for a bare position) leaves out the moves home that
    safe auto-play makes by itself (``autoplay_form``); otherwise every move is written.
    ``short`` (the games of ``rules.STEP_COST``: FreeCell) looks for a shorter win once one is
    found (``_shorter``); off where only the verdict matters.
    """
    pos = _position_of(target)
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    search = _search_for(pos, dead, avoid)
    verdict, steps = search.run(deadline, node_limit)
    nodes = search.nodes
    if verdict == SOLVABLE and short:
        steps, more = _shorter(pos, steps, search, avoid, deadline)
        nodes += more
    applied = _to_moves(pos, steps) if verdict == SOLVABLE else []
    moves = atomic = [m.notation for m in applied]
    if compact and moves:
        moves = [m.notation for m in _shortest(pos, applied, atomic)]
    if moves and (_autoplays(target) if autoplay is None else autoplay):
        try:
            moves = autoplay_form(pos, moves)
        except SolverError:  # a shortcut that auto-play overtook: the plain solution always fits
            moves = autoplay_form(pos, atomic)
        if compact:
            moves = shorten_autoplay(pos, moves)
    return SolveResult(verdict, moves, round(time.monotonic() - t0, 4), nodes)


def _shorter(
    pos: Position,
    steps: list[Step],
    first: Search,
    avoid: set[bytes] | frozenset[bytes] | None,
    deadline: float | None,
) -> tuple[list[Step], int]:
    """A shorter win than ``steps`` (the ``first`` search's) from the second search
    (``engine.solver.weighted``), for the games that have one, sharing the first's column
    costs; ``steps`` when it finds none within its budget or its win is no shorter. And the
    nodes it searched."""
    rules = rules_for(pos)
    cost = STEP_COST.get(rules.name)
    if cost is None:
        return steps, 0
    cols = [bytes(c) for c in pos.cols]
    cells = [c for c in pos.cells if c != EMPTY]
    second = WeightedSearch(
        cols,
        cells,
        list(pos.found),
        pos.num_cells,
        rules=rules,
        step_cost=cost,
        avoid=avoid,
        cost_cache=first.cost_cache if first.rules is rules else None,
    )
    verdict, found = second.run(deadline, max(SHORT_FLOOR, SHORT_FACTOR * first.nodes))
    if verdict == SOLVABLE and len(found) < len(steps):
        return found, second.nodes
    return steps, second.nodes


def _tableau_game(code: str, moves: Sequence[str], autoplay: bool | None) -> AnyGame | str:
    """The game a code and an action log rebuild, with the player's auto-play setting, or an
    error message."""
    try:
        game = replay(code, moves)
    except EngineError as exc:
        return str(exc)
    if not isinstance(game, TableauGame):
        return f"{code} is not a Jeu du Boulanger or FreeCell code"
    if isinstance(game, FreeCellGame) and autoplay is not None:
        game.autoplay = autoplay
    return game


def solve_code(
    code: str,
    moves: Sequence[str] = (),
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    autoplay: bool | None = None,
) -> dict[str, Any]:
    """Solve the position a code plus an action log reach; a plain dict, for process pools.
    ``autoplay``: a FreeCell player's setting (default on).

    Bad input gives ``{"error": message}`` instead of raising, so a worker never dies on it.
    """
    game = _tableau_game(code, moves, autoplay)
    if isinstance(game, str):
        return {"error": game}
    return solve(game, time_limit=time_limit).to_json() | {"code": game.code}


def position_key(pos: Position) -> bytes:
    """The solver's key of a position (``search.state_key``): its columns up to their order
    and its free cells up to which slot holds which card; equal boards have equal keys."""
    return state_key([bytes(c) for c in pos.cols], [c for c in pos.cells if c != EMPTY])


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


def _plan_keys(pos: Position, moves: Sequence[str], *, to_win: bool = True) -> list[bytes] | None:
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
    return _plan_keys(pos, moves)


# The two in-process caches below are speed-ups only; the lock keeps them whole if hints run
# in several threads.
_CACHE_LOCK = threading.Lock()
# Games whose history ``visited_keys`` rebuilt last, by code: (actions, replayed game, keys).
_HISTORIES: dict[str, tuple[tuple[str, ...], AnyGame, set[bytes]]] = {}
HISTORY_CACHE_SIZE = 64

ExactKey = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]
# Plans handed out by ``hint``, by the exact position their next move is played from, with
# the key of each position they pass through (see ``hint``): a speed-up only, checked
# against the game's history again before it is used.
_PLANS: OrderedDict[ExactKey, tuple[tuple[str, ...], tuple[bytes, ...]]] = OrderedDict()
PLAN_CACHE_SIZE = 256


def _remember(pos: Position, plan: Sequence[str], keys: Sequence[bytes]) -> None:
    """Keep the rest of ``plan`` (and its positions' ``keys``) under the position its first
    move leads to."""
    if len(plan) < 2:
        return
    after = pos.copy()
    after.apply(after.resolve(parse_notation(plan[0], after.num_cells)))
    exact = _exact_key(after)
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

    A FreeCell game's plan is given as its player presses it, by the game's own auto-play
    setting: with auto-play, the moves home it makes by itself left out (``autoplay_form``)
    and shortened over the positions such a player passes (``shorten_autoplay``: a run
    moved through a free cell while a card went home is one move, which only auto-play
    makes legal); without, shortened with group moves (``shorten``). Either way every
    position the shorter plan's moves lead to is one of the plan's (so none was visited);
    the one right after a shortcut, before auto-play's cards go home, is checked against the
    game's history (``_first_passes``). The rest of the plan is remembered under the
    position the first move leads to (``reuse``)."""
    advice = _hint(game, time_limit, reuse=reuse)
    if not isinstance(game, FreeCellGame) or not advice.solution:
        return advice
    pos = game.position
    if advice.undos:
        back = replay(game.code, game.moves)
        assert isinstance(back, FreeCellGame)
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


def _first_passes(pos: FreeCellPosition, first: str, autoplay: bool, seen: frozenset[bytes]) -> bool:
    """Whether playing ``first`` (with its auto-play) passes through a position in ``seen``: the
    position right after a shortcut, before auto-play's cards go home, need not be the plan's."""
    work = pos.copy()
    work.apply(work.resolve(parse_notation(first, work.num_cells)))
    if position_key(work) in seen:
        return True
    if autoplay:
        for move in list(work.copy().auto_run()):
            work.apply(move)
            if position_key(work) in seen:
                return True
    return False


def _remember_after(pos: FreeCellPosition, first: str, plan: Sequence[str], autoplay: bool) -> None:
    """Remember the rest of ``plan`` under the position ``first`` (a shortcut along it, played
    with the game's auto-play) leads to, so following the shortened hint still reuses the plan."""
    after = pos.copy()
    after.apply(after.resolve(parse_notation(first, after.num_cells)))
    if autoplay:
        after.auto_run()
    target = _exact_key(after)
    keys = _plan_keys(pos, plan)
    if keys is None:
        return
    work = pos.copy()
    for i, text in enumerate(plan[:-1]):
        work.apply(work.resolve(parse_notation(text, work.num_cells)))
        if _exact_key(work) == target:
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
        return Hint(WON, winnable=True)
    seen = visited_keys(game)
    if reuse:
        with _CACHE_LOCK:
            cached = _PLANS.get(_exact_key(pos))
        if cached is not None and seen.isdisjoint(cached[1]):
            _remember(pos, *cached)
            return Hint(MOVE, cached[0][0], list(cached[0]), winnable=True, seconds=elapsed())
    dead: set[int] = set()
    result = solve(pos, time_limit=time_limit, dead=dead, compact=False)
    nodes = result.nodes
    if result.verdict == SOLVABLE:
        plan: list[str] | None = result.moves
        keys = _plan_keys(pos, result.moves)
        if keys is None:
            raise SolverError("the solver's plan does not replay to a win")
        if not seen.isdisjoint(keys):
            plan, keys, more = _plan_avoiding(pos, seen, deadline)
            nodes += more
        if plan is not None and keys is not None:
            if reuse:
                _remember(pos, plan, keys)
            return Hint(MOVE, plan[0], plan, winnable=True, seconds=elapsed(), nodes=nodes)
        # No win avoids them all: a winning move into a position not visited, else the plain
        # plan (a hint never hides a win).
        fresh, more = _fresh_winning_move(pos, result.moves, seen, dead, deadline)
        nodes += more
        if fresh is None and remaining() <= 0:
            if _first_is_new(pos, result.moves, seen):
                fresh = result.moves
            else:
                return Hint(UNKNOWN, winnable=True, seconds=elapsed(), nodes=nodes)
        plan = fresh or result.moves
        return Hint(MOVE, plan[0], plan, winnable=True, seconds=elapsed(), nodes=nodes)
    if result.verdict == UNKNOWN:
        return Hint(UNKNOWN, seconds=elapsed(), nodes=nodes)
    back = replay(game.code, game.moves)
    assert isinstance(back, TableauGame)
    for undos in range(1, back.undo_depth + 1):
        back.undo()
        if remaining() <= 0:
            return Hint(LOST, winnable=False, seconds=elapsed(), nodes=nodes)
        earlier = solve(back.position, time_limit=remaining(), dead=dead, compact=False, short=False)
        nodes += earlier.nodes
        if earlier.verdict == SOLVABLE:
            return Hint(
                LOST, undos=undos, solution=earlier.moves, winnable=False, seconds=elapsed(), nodes=nodes
            )
        if earlier.verdict == UNKNOWN:
            return Hint(LOST, winnable=False, seconds=elapsed(), nodes=nodes)
    return Hint(LOST, exhausted=True, winnable=False, seconds=elapsed(), nodes=nodes)


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
    if avoiding.verdict == SOLVABLE:
        keys = _plan_keys(pos, avoiding.moves)
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
        if onward.verdict == SOLVABLE:
            plan = [move.notation, *onward.moves]
            keys = _plan_keys(pos, plan)
            if keys is not None and seen.isdisjoint(keys):
                return plan, keys, nodes
    return None, None, nodes


def _home_now(pos: Position) -> bool:
    """Whether the search sends some card of ``pos`` home before anything else (Jeu du
    Boulanger: any card that can go; FreeCell: a card safe auto-play sends)."""
    cols = [bytes(c) for c in pos.cols]
    return bool(rules_for(pos).settle(cols, [c for c in pos.cells if c != EMPTY], list(pos.found)))


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
        if result.verdict == SOLVABLE:
            return [move.notation, *result.moves], nodes
    return None, nodes


def hint_code(
    code: str, moves: Sequence[str] = (), time_limit: float = 2.0, autoplay: bool | None = None
) -> dict[str, Any]:
    """``hint`` for the game a code plus an action log rebuild; a plain dict, for process pools.
    ``autoplay``: a FreeCell player's setting (default on).

    Keys: status, move, solution, undos, exhausted, seconds, nodes, code; or
    ``{"error": message}`` on a bad code or move.
    """
    game = _tableau_game(code, moves, autoplay)
    if isinstance(game, str):
        return {"error": game}
    return asdict(hint(game, time_limit)) | {"code": game.code}


def standing_code(
    code: str,
    moves: Sequence[str] = (),
    time_limit: float = 1.0,
    node_limit: int | None = None,
    *,
    back: bool = False,
    known: Sequence[bytes] = (),
    within: int | None = None,
) -> dict[str, Any]:
    """Whether the position a code plus an action log reach can still be won; a plain dict for
    process pools (issue 28: the board's "this deal can no longer be won").

    ``known``: keys (``position_key``) of positions already proven winnable, in the order of
    their winning line (the last verdict's position and its ``line``): the search ends as soon
    as it reaches one, and the answer's line is the way there followed by the rest of
    ``known`` (issue 26: a move off a known line costs a short search back to it, not a
    whole new solution); ``within``: the undos back to the first of ``known`` (a lost
    position's search back stops there).

    Keys: ``verdict`` (``"solvable"``, ``"unsolvable"``, ``"unknown"`` when the budget ran
    out), ``line`` (for "solvable": the ``position_key`` of each position a win from here
    passes through, so a player who keeps to it needs no further search), ``undos`` (for
    "unsolvable" with ``back``: the fewest undos to a position proven winnable, None if
    none was found within the budget), ``nodes``, ``seconds``; or ``{"error": message}``.
    ``time_limit`` and ``node_limit`` bound the whole call, the searches back included.
    """
    t0 = time.monotonic()
    try:
        game = replay(code, moves)
    except EngineError as exc:
        return {"error": str(exc)}
    if not isinstance(game, TableauGame):
        return {"error": f"{code} is not a Jeu du Boulanger or FreeCell code"}
    deadline = t0 + time_limit
    nodes_left = node_limit

    def spend(target: AnyGame, dead: set[int]) -> SolveResult:
        nonlocal nodes_left
        left = max(0.0, deadline - time.monotonic())
        # Every move written (no auto-play form): the line is the positions the plan passes through.
        result = solve(
            target,
            time_limit=left,
            node_limit=nodes_left,
            dead=dead,
            compact=False,
            autoplay=False,
            short=False,
        )
        if nodes_left is not None:
            nodes_left = max(0, nodes_left - result.nodes)
        return result

    def answer(verdict: str, nodes: int, **extra: Any) -> dict[str, Any]:
        return (
            {"verdict": verdict, "line": [], "undos": None, "nodes": nodes}
            | extra
            | {"seconds": round(time.monotonic() - t0, 4)}
        )

    dead: set[int] = set()
    if known:
        line, verdict, nodes = _rejoin(game.position, known, dead, deadline, nodes_left)
        if nodes_left is not None:
            nodes_left = max(0, nodes_left - nodes)
        if verdict == SOLVABLE:
            return answer(SOLVABLE, nodes, line=line)
    else:
        here = spend(game, dead)
        verdict, nodes = here.verdict, here.nodes
        if verdict == SOLVABLE:
            keys = _plan_keys(game.position, here.moves)
            if keys is None:
                raise SolverError("the solver's plan does not replay to a win")
            return answer(SOLVABLE, nodes, line=keys)
    if verdict == UNKNOWN or not back:
        return answer(verdict, nodes)
    for undos in range(1, game.undo_depth + 1):
        if undos == within:  # known to be winnable there: no search
            return answer(UNSOLVABLE, nodes, undos=undos)
        game.undo()
        if time.monotonic() >= deadline or nodes_left == 0:
            break
        if known:
            _, found, spent = _rejoin(game.position, known, dead, deadline, nodes_left)
            if nodes_left is not None:
                nodes_left = max(0, nodes_left - spent)
        else:
            earlier = spend(game, dead)
            found, spent = earlier.verdict, earlier.nodes
        nodes += spent
        if found == SOLVABLE:
            return answer(UNSOLVABLE, nodes, undos=undos)
        if found == UNKNOWN:
            break
    return answer(UNSOLVABLE, nodes)


def _rejoin(
    pos: Position, known: Sequence[bytes], dead: set[int], deadline: float, node_limit: int | None
) -> tuple[list[bytes], str, int]:
    """Search from ``pos`` for a win or for one of the ``known`` winnable positions: (the
    keys of a winning line, verdict, nodes). The line is the way found, then the rest of
    ``known`` past the position it joins."""
    index = {key: i for i, key in enumerate(known)}
    search = _search_for(pos, dead, wins=index)
    verdict, steps = search.run(deadline, node_limit)
    if verdict != SOLVABLE:
        return [], verdict, search.nodes
    joined = search.joined
    keys = _plan_keys(pos, to_notation(pos, steps, to_win=joined is None), to_win=joined is None)
    if keys is None:
        raise SolverError("the solver's way back to a known line does not replay")
    if joined is not None:
        keys += known[index[joined] + 1 :]
    return keys, SOLVABLE, search.nodes


def par(code: str, time_limit: float | None = 30.0) -> int | None:
    """The length of the solver's solution of a deal, or None if it has none (or none in time)."""
    game = replay(parse_code(code), ())
    if not isinstance(game, TableauGame):
        raise ValueError(f"{code} is not a Jeu du Boulanger or FreeCell code")
    result = solve(game, time_limit=time_limit)
    return len(result.moves) if result.verdict == SOLVABLE else None


__all__ = [
    "DEFAULT_TIME_LIMIT",
    "SOLVABLE",
    "UNKNOWN",
    "UNSOLVABLE",
    "SolverError",
    "autoplay_form",
    "clear_plans",
    "hint",
    "hint_code",
    "line_keys",
    "par",
    "position_key",
    "shorten",
    "solve",
    "solve_code",
    "standing_code",
    "to_notation",
    "visited_keys",
]
