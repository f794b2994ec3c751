"""Board pictures: drawn on the event loop (the default) or in a process pool.

A board costs about 1-2 ms to draw and encode, and drawing it on the event loop is the
cheapest place: drawn in threads (as before 2026-12-03) each picture cost about 2.8 ms of CPU
instead of 1.8 ms inside a busy bot, and the event loop's latency was worse, not better
(p50 104-237 ms against 41 ms at the stress pace of ``benchmarks/bot.py``): Pillow holds the GIL
for most of its work, so the threads mostly queued for it, and every hand-off of the GIL and
the thread's result cost wake-ups. Animated replays (up to hundreds of frames) are still drawn
in a thread. With ``BOULANGER_RENDER_WORKERS=N`` (N > 0) the pictures are drawn in N worker
processes instead, so one bot process can use more than one core.

A worker gets picklable inputs only -- the game's kind, its code and action log, the
highlight, the translated labels, the player's deck, the header's tag and whether the code
is hidden -- replays the game and calls its front's own
``render`` (fronts are looked up by kind in ``bot.games``, which imports no Discord),
so a front that draws itself draws itself in the worker too. Each worker keeps the
games it replayed lately and, when the next picture of a game is a few actions further
on, plays only those actions instead of the whole log again.

A worker that dies (killed, out of memory) breaks the pool: that picture is drawn in a
thread instead and the next one starts a fresh pool, so a player never sees the crash.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

import engine
from storage import Deck

if TYPE_CHECKING:
    from bot.games.front.picture import Picture

log = logging.getLogger(__name__)

#: Games each worker keeps replayed (by code), most recently drawn last.
WORKER_CACHE = 64

_replayed: OrderedDict[str, engine.Game[Any]] = OrderedDict()


def _worker_start() -> None:
    from bot.play.solving import _die_with_parent

    _die_with_parent()
    import bot.games  # noqa: F401  (registers the fronts before the first job)


def _game_at(code: str, moves: tuple[str, ...]) -> engine.Game[Any]:
    """The game ``code`` after ``moves``: from this worker's cache when it can be, else replayed."""
    game = _replayed.get(code)
    if game is not None:
        done = game.moves
        if done == moves[: len(done)]:
            game.replay(moves[len(done) :])
            _replayed.move_to_end(code)
            return game
    game = engine.replay(code, moves)
    _replayed[code] = game
    _replayed.move_to_end(code)
    while len(_replayed) > WORKER_CACHE:
        _replayed.popitem(last=False)
    return game


def render_job(
    kind: str,
    code: str,
    moves: tuple[str, ...],
    highlight: str | None,
    labels: dict[str, str] | None,
    deck: Deck = "two",
    tag: str | None = None,
    hide_code: bool = False,
) -> bytes:
    """Worker: the board picture of ``code`` after ``moves``, drawn by its front, as PNG bytes."""
    from bot.games import front_for

    try:
        game = _game_at(code, moves)
    except engine.EngineError:
        _replayed.pop(code, None)  # a cached game that went wrong must not poison the next job
        raise
    return front_for(kind).render(
        game, highlight=highlight, labels=labels, deck=deck, tag=tag, hide_code=hide_code
    )


def replay_job(
    kind: str, code: str, moves: tuple[str, ...], labels: dict[str, str] | None, max_bytes: int
) -> bytes:
    """Worker: a won game's animated replay (GIF bytes, at most ``max_bytes``), drawn by its front."""
    from bot.games import front_for

    return front_for(kind).render_replay(code, moves, labels=labels, max_bytes=max_bytes)


def _labels(labels: Mapping[str, str] | None) -> dict[str, str] | None:
    return dict(labels) if labels is not None else None


class RenderPool:
    """Draws board pictures on the event loop (``workers=0``) or in ``workers`` processes."""

    def __init__(self, workers: int = 0) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (the event loop) or more")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_worker_start)
        return self._pool

    async def render(
        self,
        front: Picture[Any],
        game: engine.Game[Any],
        *,
        highlight: str | None,
        labels: Mapping[str, str] | None,
        deck: Deck = "two",
        tag: str | None = None,
        hide_code: bool = False,
    ) -> bytes:
        """``front.render(game, highlight=, labels=, deck=, tag=, hide_code=)``; PNG bytes."""
        draw = functools.partial(
            front.render, game, highlight=highlight, labels=labels, deck=deck, tag=tag, hide_code=hide_code
        )
        if self.workers == 0:
            return draw()
        job = (front.kind, game.code, game.moves, highlight, _labels(labels), deck, tag, hide_code)
        try:
            return await self._run(render_job, *job)
        except BrokenProcessPool:
            log.warning("a render worker died; drawing this picture in a thread")
            return await asyncio.to_thread(draw)

    async def render_replay(
        self,
        front: Picture[Any],
        code: str,
        moves: tuple[str, ...],
        *,
        labels: Mapping[str, str] | None,
        max_bytes: int,
    ) -> bytes:
        """``front.render_replay(code, moves, labels=, max_bytes=)`` off the event loop; GIF bytes."""
        if self.workers == 0:
            return await asyncio.to_thread(
                front.render_replay, code, moves, labels=labels, max_bytes=max_bytes
            )
        try:
            return await self._run(replay_job, front.kind, code, tuple(moves), _labels(labels), max_bytes)
        except BrokenProcessPool:
            log.warning("a render worker died; drawing this replay in a thread")
            return await asyncio.to_thread(
                front.render_replay, code, moves, labels=labels, max_bytes=max_bytes
            )

    async def _run(self, fn: Any, *args: Any) -> bytes:
        pool = self._executor()
        try:
            result: bytes = await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            if self._pool is pool:  # start afresh next time
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise
        return result

    async def warm(self) -> None:
        """Start the workers ahead of the first picture (a no-op with threads)."""
        if self.workers == 0:
            return
        from bot.play.solving import _noop

        pool = self._executor()
        try:
            await asyncio.gather(
                *(asyncio.get_running_loop().run_in_executor(pool, _noop) for _ in range(self.workers))
            )
        except Exception:
            log.exception("the render pool did not start")

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
