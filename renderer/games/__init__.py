"""The games' boards, registered from their records (``engine.games.RECORDS``: each names its
board module). Each board module holds all that only its game knows about pictures (its
layout, highlights and words); a game added later registers its board with
``renderer.register``."""

from __future__ import annotations

from engine.games import RECORDS
from engine.record import load
from renderer.boards import register

for _record in RECORDS:
    register(load(_record.board))
