"""The board message's words: the text above the picture and a finished daily's share line.

No Discord here: the console prints the same text the Discord board shows (``bot.adapter.views``
puts it above the picture and adds the buttons).
"""

from __future__ import annotations

import storage
from bot.languages.i18n import Translator
from bot.play.service import Board


def board_content(tr: Translator, board: Board) -> str:
    """The text above the picture: game, code (not a race's), score, moves, last move, state."""
    game, row, front = board.game, board.row, board.front
    held = front.cells_of(row.variant)
    cells = f" · {front.option_words(tr, held)}" if held else ""
    daily = f" · {tr('board.daily', date=row.daily_date.isoformat())}" if row.daily_date else ""
    code = f" · `{row.code}`" if not board.private else ""
    lines = [
        f"**{front.title(tr)}**{cells}{daily}{code}",
        tr("board.status", score=game.score) + " · " + tr.n("board.moves", game.move_count),
    ]
    if board.played == "undo":
        lines.append(tr("board.undone"))
    elif board.played and game.last_action:
        lines.append(tr("board.last", move=front.describe_action(tr, game.last_action)))
    if board.selection:
        lines.append(tr(front.key("board.selected"), place=front.selected_place(tr, board.selection)))
    if row.status == "won":
        lines.append(tr(front.key("board.won"), moves=game.move_count, score=game.score))
    elif row.status in ("lost", "resigned"):
        lines.append(tr(f"board.ended.{row.status}", score=game.score))
    if board.result is not None:
        effort = front.effort_words(tr, board.result, undos=True)
        counted = counted_key(board.result)
        lines.extend(line for line in (" · ".join(effort), tr(counted) if counted else "") if line)
    if row.daily_date is not None and board.result is not None and not board.result.counts_for_daily:
        lines.append(tr("share.not_counted"))
    elif row.source == "practice" and not row.is_active:
        lines.append(tr("board.practice"))  # a chosen deal: off the main leaderboards
    elif board.notice:
        lines.append(tr(board.notice, **board.notice_params))
    if board.lost_undos is not None:  # the move made the deal unwinnable: the undos back
        lines.append(tr.n("board.cannot_win", board.lost_undos))
    return "\n".join(lines)


def counted_key(result: storage.FinishedGame) -> str | None:
    """What a finished game counts for, when it counts: a first daily attempt, a stock deal.
    (A later daily attempt and a practice game say so on their own lines.)"""
    if result.counts_for_daily:
        return "result.counted.daily"
    if result.source == "stock":
        return "result.counted.stock"
    return None


def share_line(tr: Translator, board: Board) -> str | None:
    """A spoiler-safe one-line result of a finished daily game: outcome, moves, cards home, time,
    hints and undos, and whether it counted; never a card or a move."""
    row, game, front = board.row, board.game, board.front
    if row.daily_date is None or row.is_active:
        return None
    key = front.share_key(row.status == "won")
    squares = front.share_squares(tr, game)
    line = tr(
        key,
        date=row.daily_date.isoformat(),
        moves=game.move_count,
        score=game.score,
        home=game.cards_home,
        squares=squares,
    ).rstrip()
    if board.result is None:
        return line
    line = " · ".join([line, *front.effort_words(tr, board.result, undos=True)])
    if board.result.counts_for_daily:
        return f"{line} {tr('share.counted')}"
    return f"{line} {tr('share.not_counted')}"  # a later attempt: only the first finished one counts
