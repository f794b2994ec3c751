"""A winning line as a player presses it, asked of the game's front alone (any game).

For each move of the line, in this order: a button that, pressed with nothing selected,
plays it (a place's one press, the stock, Home / Finish) is one press; one that plays it
and the line's next moves at once (Home sending several cards the line sends one by one)
is one press for all of them; selecting a place and pressing another is two; else the
"Another move…" menu, two (open, choose). What a press plays is the front's
``press(game, sel, act)``, compared with the line by the board it leaves (so the same move
written two ways, or into another empty column, is the same), on the game as the bot plays
it: moves its rules make by themselves (FreeCell's auto-play) are made here too.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Literal

import engine
from bot.games import front_of
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback

LOOKAHEAD = 13  # line moves one press may stand for (Home sending a suit's cards)


@dataclass(frozen=True)
class Step:
    kind: Literal["press", "pair", "menu"]
    value: str  # the button pressed (the destination for "pair"), or the menu's notation
    selected: str = ""  # for "pair": the place selected first
    moves: int = 1  # line moves it stands for

    @property
    def presses(self) -> int:
        return 1 if self.kind == "press" else 2


def _copy(game: Any) -> Any:
    """A separate copy of ``game`` to try moves on: a pickle round trip, the same game as a
    deep copy but about four times cheaper (a deep copy of a game with its 100 actions of undo
    history was most of a Klondike win's presses' time)."""
    return pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))


def _after(game: Any, notation: str) -> str | None:
    """The board ``notation`` leaves, or None when it does not play."""
    trial = _copy(game)
    try:
        trial.play(notation)
    except engine.IllegalMove:
        return None
    return str(trial.board_text())


def _pressed(front: Any, game: Any, sel: str, act: str) -> str | None:
    """The notation a press plays, None when it selects, refuses or does something else."""
    try:
        press = front.press(game, sel, act)
    except (UserFeedback, engine.IllegalMove):
        return None
    return str(press.value) if press.action == "play" else None


def _line_boards(game: Any, line: list[str]) -> list[str]:
    """The boards after the line's first 1, 2, … moves (as far as they play, at most LOOKAHEAD)."""
    trial, boards = _copy(game), []
    for move in line[:LOOKAHEAD]:
        try:
            trial.play(move)
        except engine.IllegalMove:
            break
        boards.append(str(trial.board_text()))
        if trial.is_won:
            break
    return boards


def _one_press(front: Any, game: Any, acts: list[str], boards: list[str]) -> tuple[Step, str] | None:
    """The button with nothing selected that plays the most of the line's next moves."""
    best: tuple[Step, str] | None = None
    for act in acts:
        notation = _pressed(front, game, "", act)
        after = None if notation is None else _after(game, notation)
        if after in boards:
            count = boards.index(after) + 1
            if best is None or count > best[0].moves:
                best = (Step("press", act, moves=count), str(notation))
    return best


def _pair(front: Any, game: Any, acts: list[str], board: str) -> tuple[Step, str] | None:
    """A place selected, then another pressed, that plays the line's next move."""
    for src in front.selections:
        try:
            if front.press(game, "", src).action != "select":
                continue
        except (UserFeedback, engine.IllegalMove):
            continue
        for act in acts:
            notation = _pressed(front, game, src, act)
            if notation is not None and _after(game, notation) == board:
                return Step("pair", act, selected=src), notation
    return None


def front_presses(code: str, line: list[str]) -> list[Step]:
    """The presses that win ``code`` following ``line`` with the board's controls."""
    game = engine.new_game(code)
    front, tr = front_of(game), Translator("en")
    steps: list[Step] = []
    i = 0
    while i < len(line) and not game.is_won:
        acts = [b.act for b in front.place_buttons(tr, game, "") if not b.disabled]
        boards = _line_boards(game, line[i:])
        assert boards, f"{code}: the line's move {line[i]} does not play"
        found = _one_press(front, game, acts, boards) or _pair(front, game, acts, boards[0])
        step, notation = found or (Step("menu", line[i]), line[i])
        game.play(notation)
        steps.append(step)
        i += step.moves
    assert game.is_won, f"{code}: the presses did not win"
    return steps
