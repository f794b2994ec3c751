"""Whether each game's position can still be won, kept along its undo path (issue 28).

Most moves need no search: a move onto the line of the last known win is still
winnable (the rest of that line is the win), a move from a lost position is lost
one undo further, and an undo gives back the verdict of the position it returns to.
A game of a deal whose win is known (a shipped stock deal) starts on that win's line.
Only a move off the line (or a game nothing is known of, say after a restart)
asks the solver, in the hint pool, within ``VERDICT_SECONDS`` and ``VERDICT_NODES``; a move
off a known line is handed that line, so the search may stop where it rejoins it.
No Discord, no engine rules: positions are the fronts' opaque marks.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field

from bot.games.base import Verdict

# The solver's budget for one position (and, after a restart, the searches back for the
# undos): past it the board says nothing rather than guess.
VERDICT_SECONDS = 1.5
VERDICT_NODES = 250_000
# Games remembered, and positions per game (the engine's undo limit is 100).
GAMES_KEPT = 512
PATH_KEPT = 128


@dataclass
class _Path:
    """One game's positions from the oldest remembered to the current one, with what is known
    of each (None: not known yet) and the game's version when it was last there, valid at
    ``version``; each position is one move on from the one before."""

    version: int
    marks: list[Hashable] = field(default_factory=list)
    verdicts: list[Verdict | None] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Step:
    """What an action led to: the verdict when it follows from what was known, else None
    (search); ``back``: whether that search must also find the undos (nothing is known of the
    position before); ``known``: marks of positions known to be winnable, in their line's
    order (the nearest such position on the undo path and its line), where a search may stop;
    ``within``: the undos back to that position (then no more undos are needed)."""

    verdict: Verdict | None
    back: bool
    known: tuple[Hashable, ...] = ()
    within: int | None = None


def _after_move(prev: Verdict | None, mark: Hashable) -> Verdict | None:
    if prev is None:
        return None
    if prev.status == "winnable" and mark in prev.line:
        return Verdict("winnable", prev.line[prev.line.index(mark) + 1 :])
    if prev.status == "lost":
        return Verdict("lost", undos=None if prev.undos is None else prev.undos + 1)
    return None


def _after_undo(prev: Verdict | None, left: Hashable) -> Verdict | None:
    """The position an undo returns to, from what was known of the one it left."""
    if prev is None:
        return None
    if prev.status == "winnable":  # it leads to a winnable position: winnable through it
        return Verdict("winnable", (left, *prev.line))
    if prev.status == "lost" and prev.undos is not None:
        return Verdict("winnable") if prev.undos == 1 else Verdict("lost", undos=prev.undos - 1)
    return None


def _nearest_win(path: _Path) -> tuple[tuple[Hashable, ...], int | None]:
    """The nearest position before the current one on the undo path known to be winnable,
    with its line, and the undos back to it: a search may stop on reaching that line, and a
    lost position needs no more undos than that (a press whose search was skipped, the
    player having moved on, leaves its position unknown: the one before it still helps)."""
    last = len(path.marks) - 1
    for i in range(last - 1, -1, -1):
        verdict = path.verdicts[i]
        if verdict is not None and verdict.status == "winnable":
            return (path.marks[i], *verdict.line), last - i
    return (), None


class Verdicts:
    """What is known of each game's positions, in memory (lost on restart: then it searches)."""

    def __init__(self) -> None:
        self._paths: OrderedDict[int, _Path] = OrderedDict()

    def step(
        self, game_id: int, version: int, new_version: int, before: Hashable, after: Hashable, *, undo: bool
    ) -> Step:
        """Record an action on game ``game_id`` from ``version`` (position ``before``) to
        ``new_version`` (position ``after``) and say what is known of where it led."""
        path = self._paths.get(game_id)
        if path is None or path.version != version or not path.marks or path.marks[-1] != before:
            path = _Path(version, [before], [None], [version])
        prev = path.verdicts[-1]
        if undo:
            path.marks.pop()
            path.verdicts.pop()
            path.versions.pop()
            if not path.marks or path.marks[-1] != after:
                path.marks, path.verdicts, path.versions = [after], [None], [new_version]
            if path.verdicts[-1] is None:
                path.verdicts[-1] = _after_undo(prev, before)
            path.versions[-1] = new_version
            back = True
        else:
            path.marks.append(after)
            path.verdicts.append(_after_move(prev, after))
            path.versions.append(new_version)
            del path.marks[:-PATH_KEPT], path.verdicts[:-PATH_KEPT], path.versions[:-PATH_KEPT]
            back = prev is None or prev.status != "winnable"
        known, within = _nearest_win(path) if path.verdicts[-1] is None else ((), None)
        path.version = new_version
        self._paths[game_id] = path
        self._keep(game_id)
        return Step(path.verdicts[-1], back, known, within)

    def seed(self, game_id: int, version: int, mark: Hashable, line: tuple[Hashable, ...]) -> None:
        """A new game at ``version`` whose deal has a known win: its position ``mark`` is
        winnable along ``line`` (the marks of the positions that win passes through)."""
        self._paths[game_id] = _Path(version, [mark], [Verdict("winnable", line)], [version])
        self._keep(game_id)

    def hold(self, game_id: int, version: int, mark: Hashable) -> Verdict | None:
        """What is known of the game's position at ``version`` (``mark``), None if nothing (a
        hint asks: then it searches, within the warning's budget, and ``learned`` keeps the
        answer); a position the keeper does not hold (after a restart) is held from now on, but
        never in place of a newer one (the game moved on since the hint read it)."""
        path = self._paths.get(game_id)
        if path is not None and path.version > version:
            return None
        if path is None or path.version != version or path.marks[-1] != mark:
            path = self._paths[game_id] = _Path(version, [mark], [None], [version])
        self._keep(game_id)
        return path.verdicts[-1]

    def _keep(self, game_id: int) -> None:
        self._paths.move_to_end(game_id)
        while len(self._paths) > GAMES_KEPT:
            self._paths.popitem(last=False)

    def learned(self, game_id: int, version: int, verdict: Verdict) -> bool:
        """Keep a search's verdict for the position at ``version``, and what follows from it
        for the positions the game has moved on to since (a search finishing after the
        player's next press still tells about it); False if the game has moved on (the
        newer action decides its own position)."""
        path = self._paths.get(game_id)
        if path is None or version not in path.versions:
            return False
        i = len(path.versions) - 1 - path.versions[::-1].index(version)
        last = len(path.marks) - 1
        if i == last or path.verdicts[i] is None:
            path.verdicts[i] = verdict
        for j in range(i + 1, last + 1):
            if path.verdicts[j] is None:
                path.verdicts[j] = _after_move(path.verdicts[j - 1], path.marks[j])
        return i == last and path.version == version

    def plan(self, game_id: int, version: int) -> Step | None:
        """What a search for the game's position at ``version`` is to do, from what is known
        now (searches that finished meanwhile included): None if the game has moved on (its
        newer position decides), a ``Step`` with the verdict if it follows by now, else one
        saying where the search may stop (``known``, ``within``) and whether to look back."""
        path = self._paths.get(game_id)
        if path is None or path.version != version:
            return None
        known, within = _nearest_win(path)
        return Step(path.verdicts[-1], within != 1, known, within)

    def current(self, game_id: int, version: int) -> bool:
        """Whether ``version`` is still the game's latest known action."""
        path = self._paths.get(game_id)
        return path is not None and path.version == version

    def forget(self, game_id: int) -> None:
        self._paths.pop(game_id, None)
