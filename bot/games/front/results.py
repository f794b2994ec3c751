"""A front's results: how a game ends (at a dead end, with a replay or a lesson), its
share squares, its leaderboard and ``/stats`` lines, the daily board's rule and a racer's
progress. Every member has a default: a win and its moves, or "not won" and the moves.
"""

from __future__ import annotations

from typing import ClassVar

import storage
from bot.games.front.part import G, Part
from bot.games.front.solving import WorkerPool
from bot.languages.i18n import Translator


def elapsed(seconds: int) -> str:
    """A game's time as a clock shows it: ``4:32``, ``1:02:03``."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def scored_result_words(tr: Translator, best: storage.FinishedGame, score: str) -> list[str]:
    """A leaderboard entry of a game whose score is shown but never ranks: a win and its moves,
    or "not won", its cards home and moves (what ranks it); then the ``score`` in words."""
    if best.won:
        return [tr("lb.won_in", moves=best.move_count), score]
    progress = [] if best.home is None else [tr("lb.cards_home", score=best.home)]
    return [tr("lb.not_won"), *progress, tr.n("board.moves", best.move_count), score]


class Results(Part[G]):
    """Endings and rankings in the game's words."""

    dead_end_is_final: ClassVar[bool] = False  # no legal move left: the game is lost at once
    explains_losses: ClassVar[bool] = False  # a lost game's board offers "how could it be won?"

    def share_squares(self, tr: Translator, game: G) -> str:
        """What a finished daily's share line shows beyond its outcome: spoiler-free facts
        that differ between players (progress squares, the free cells played with); nothing
        by default."""
        return ""

    async def after_game(self, tr: Translator, row: storage.GameRow, solver: WorkerPool | None) -> str | None:
        """A private note after a game ends (e.g. whether a lost deal could have been won)."""
        return None

    def result_words(self, tr: Translator, best: storage.FinishedGame) -> list[str]:
        """A leaderboard entry's best result, as the parts of its line: by default a win and
        its moves, or "not won" and the moves."""
        if best.won:
            return [tr("lb.won_in", moves=best.move_count)]
        return [tr("lb.not_won"), tr.n("board.moves", best.move_count)]

    def best_line(self, tr: Translator, best: storage.FinishedGame) -> str:
        """The best game's line in ``/stats``: by default "Best:" and its ``result_words``."""
        return tr("stats.best", result=", ".join(self.result_words(tr, best)))

    def effort_words(self, tr: Translator, result: storage.FinishedGame, *, undos: bool = False) -> list[str]:
        """A result's time, and its hints (and with ``undos`` its undos) when there were any:
        ``⏱ 4:32``, ``💡 2``, ``↩ 3``. Shown with every result; what ranks is the rank key."""
        out = [] if result.seconds is None else [tr("result.time", time=elapsed(result.seconds))]
        if result.hints:
            out.append(tr.n("result.hints", result.hints))
        if undos and result.undos:
            out.append(tr.n("result.undos", result.undos))
        return out

    def ranking_rule(self, tr: Translator) -> str | None:
        """The board's ranking in one plain sentence (None: the game does not say)."""
        return None

    def race_progress(self, tr: Translator, home: int) -> str:
        """A race player's progress in words, from the cards on the foundations."""
        return tr.n("race.home", home)
