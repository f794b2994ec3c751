"""A search's steps as a player's moves: checked against the engine, shortened with group moves, and
as a player presses them in a game with auto-play (the game's ``Rules.auto_play``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import card_text
from engine.errors import EngineError
from engine.solver.positions import Position, exact_key
from engine.solver.result import SolverError
from engine.solver.rules import rules_of
from engine.solver.search import CELL, EMPTY_COL, HOME, Step
from engine.tableau.notation import CELL as CELL_KIND
from engine.tableau.notation import COLUMN, FOUNDATION, ParsedMove, parse_notation
from engine.tableau.position import EMPTY, TableauMove

CELL_LETTERS = "abcd"


def to_notation(pos: Position, steps: Iterable[Step], *, to_win: bool = True) -> list[str]:
    """Turn search steps (card, destination) into engine notation, checking each on a copy
    (and, with ``to_win``, that they end in a win).

    Each step moves one card: onto a column top (``27``: the top card fits, so
    exactly one card moves), into the leftmost empty column (``18``: one card
    without a count), into the leftmost free cell, or home.
    """
    return [move.notation for move in to_moves(pos, steps, to_win=to_win)]


def to_moves(pos: Position, steps: Iterable[Step], *, to_win: bool = True) -> list[TableauMove]:
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


def as_pressed(pos: Position, moves: Sequence[str], atomic: Sequence[str], *, compact: bool) -> list[str]:
    """A solution (``moves``, or the unshortened ``atomic`` where a shortcut does not fit) as a
    player with the game's auto-play presses it (``autoplay_form``), shortened over the
    positions such a player passes through with ``compact`` (``shorten_autoplay``)."""
    try:
        pressed = autoplay_form(pos, moves)
    except SolverError:  # a shortcut that auto-play overtook: the plain solution always fits
        pressed = autoplay_form(pos, atomic)
    return shorten_autoplay(pos, pressed) if compact else pressed


def autoplay_form(pos: Position, moves: Sequence[str]) -> list[str]:
    """A solution as a player with the game's auto-play presses it (``Rules.auto_play``;
    unchanged for a game without): the moves home that auto-play makes by itself left out
    (the search sends the same cards home after each step, so every other move finds its
    cards where it expects them; checked move by move)."""
    auto_play = rules_of(pos).auto_play
    if auto_play is None:
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
        auto_play(work)
    if not work.is_won():
        raise SolverError("the solution does not win once auto-play has played")
    return out


def shorten_autoplay(pos: Position, moves: Sequence[str]) -> list[str]:
    """``shorten`` for a solution in auto-play form (``autoplay_form``): positions are those
    a player with auto-play passes through (each move followed by its cards sent home), and a
    shortcut is any legal move that, with its own auto-play, lands exactly on a later one.
    What ``shorten`` cannot see: a run moved through a free cell card by card with a card
    sent home in between (``3b``, ``38``, auto ``3h``, ``b8``) is one run move (``38``) here."""
    auto_play = rules_of(pos).auto_play
    if auto_play is None or not moves:
        return list(moves)

    def step(work: Position, move: TableauMove) -> Position:
        after = work.copy()
        after.apply(move)
        auto_play(after)
        return after

    states = [pos.copy()]
    for text in moves:
        states.append(step(states[-1], states[-1].resolve(parse_notation(text, pos.num_cells))))
    index = {exact_key(p): i for i, p in enumerate(states)}  # last visit wins: loops are skipped
    n = len(moves)
    best = [n + 1] * (n + 1)
    jump: list[tuple[str, int]] = [("", 0)] * (n + 1)
    best[n] = 0
    for i in range(n - 1, -1, -1):
        best[i], jump[i] = best[i + 1] + 1, (moves[i], i + 1)
        for move in states[i].legal_moves():
            j = index.get(exact_key(step(states[i], move)))
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
    return [m.notation for m in shortest(pos, applied, list(moves))]


def shortest(pos: Position, applied: Sequence[TableauMove], moves: Sequence[str]) -> list[TableauMove]:
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
    onto = rules_of(pos).onto  # the cards each card may be put on: FIT's, listed
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
