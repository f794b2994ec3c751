"""An animated replay of a game (GIF or APNG), one frame per action, for sharing a win.

Frames come from the same palette renderer as the boards, so they share one
palette and each frame after the first is stored as the rectangle that
changed (Pillow's frame differencing): 200 moves stay far under 8 MiB.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping

import engine
from renderer.boards import board_for
from renderer.labels import resolve as resolve_labels

FRAME_MS = 450
FIRST_MS = 1200
LAST_MS = 4000
MAX_ACTIONS = 5000  # a stored action log is far shorter; refuse absurd input early
FORMATS = {"gif": "GIF", "png": "PNG", "apng": "PNG"}


def render_replay(
    code: str, moves: Iterable[str], *, fmt: str = "gif", labels: Mapping[str, str] | None = None
) -> bytes:
    """Replay ``moves`` (an action log: notations and ``"undo"``) from ``code``'s deal.

    ``fmt`` is ``"gif"`` or ``"png"`` (animated PNG). Raises ``engine.EngineError``
    (a bad code or an illegal action, changing nothing) or ``ValueError``.
    """
    if fmt.lower() not in FORMATS:
        raise ValueError(f"replay format {fmt!r} is not one of: {', '.join(FORMATS)}")
    actions = list(moves)
    if len(actions) > MAX_ACTIONS:
        raise ValueError(f"a replay has at most {MAX_ACTIONS} actions, not {len(actions)}")
    words = resolve_labels(labels)
    game = engine.new_game(code)
    board = board_for(game)
    frames = [board.render(game, None, words)]
    for i, action in enumerate(actions, 1):
        try:
            game.play(action)
        except engine.IllegalMove as exc:
            raise engine.IllegalMove(
                f"action {i} ({action!r}) failed: {exc}", exc.reason, index=i, **exc.params
            ) from exc
        frames.append(board.render(game, None, words))
    durations = [FIRST_MS] + [FRAME_MS] * (len(frames) - 2) + [LAST_MS] if len(frames) > 1 else [LAST_MS]
    buf = io.BytesIO()
    frames[0].save(
        buf,
        FORMATS[fmt.lower()],
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
    )
    return buf.getvalue()
