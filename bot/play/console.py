"""``python -m bot console``: play through the bot's own command layer, no Discord needed.

It reads like a shell (``bot.play.terminal``: line editing, history, Ctrl-C, Ctrl-D) and
prints plain text (``bot.play.plain_text``: the messages' Discord markdown taken out, suits
in ASCII where the terminal cannot show them). Commands mirror the slash commands; a move
alone (``6h``) plays; ``press`` is a board button (a column, cell, foundation, pile, ``home``,
``undo`` …). A board's picture is written to a file only when asked (``board --png``, or
``--png`` for every board). Reads commands from stdin, so it can also be scripted:
``echo "new boulanger" | …``.
"""

from __future__ import annotations

import argparse
import functools
import random
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

import engine
import storage
from bot.games import front_for, front_named, fronts
from bot.games.front.options import Options
from bot.languages.i18n import Translator
from bot.languages.language import LANGUAGES, use_language
from bot.play import terminal
from bot.play.board_text import board_content, share_line
from bot.play.console_help import help_text
from bot.play.console_records import CONSOLE_TABLE, RecordCommands, named
from bot.play.describe import hint_text, legal_moves_in_words
from bot.play.error_words import error_text
from bot.play.feedback import UserFeedback
from bot.play.plain_text import can_show, for_terminal
from bot.play.service import Board, GameInProgress, GameService, HintAnswer, Started, StartRequest
from bot.play.solving import Solver

__all__ = ["Console", "help_text", "main"]

UNKNOWN_SHOWN = 40  # of an unknown word, the characters echoed back (a pasted page stays one line)
DESCRIPTION = (
    "Play the bot's games in a terminal, through its own command layer: no Discord needed. "
    "Type help for the commands; a move alone (6h) plays it. Up recalls earlier lines (kept "
    "in console_history beside the database); Ctrl-C cancels the line or the command running; "
    "Ctrl-D, or Ctrl-C twice at an empty prompt, quits. A board's picture is written only "
    "when asked: board --png, or --png for every board. Commands can be piped in too: "
    'echo "new boulanger" | python -m bot console'
)
BUTTON_ALIASES = {"home": "h", "undo": "u", "hint": "i", "clear": "x", "end": "r"}


@functools.cache
def _fresh_game(front: Options[Any]) -> engine.Game[Any]:
    """A deal of ``front``'s game that is only read: its engine tells notation from other words."""
    return engine.new_game(front.code(front.random_deal(random.Random(0)), None))


def is_notation(word: str) -> bool:
    """Whether ``word`` is a move in some game's notation, legal or not (``6h``, ``w1f4``): the
    engine of each game that claims it reads it, and only "malformed" means it is not one."""
    for front in fronts():
        if not front.claims_notation(word):
            continue
        try:
            _fresh_game(front).resolve(word)
        except engine.EngineError as exc:
            if exc.reason != "malformed":
                return True
        else:
            return True
    return False


class Console(RecordCommands):
    """The console's player at a terminal: their commands, answered in plain text."""

    def __init__(
        self,
        service: GameService,
        out_dir: Path,
        user_id: int,
        stdout: TextIO,
        *,
        pictures: bool = False,
        ascii_suits: bool = False,
    ) -> None:
        self.service = service
        self.out_dir = out_dir
        self.user_id = user_id
        self.out = stdout
        self.pictures = pictures  # every board's picture written to out_dir, not only when asked
        encoding = getattr(stdout, "encoding", None)
        self.ascii_suits = ascii_suits or not can_show(encoding)
        self.tr = Translator("en")
        self.board: Board | None = None
        self.saved = 0
        # A start waiting for "yes", naming the game it would end (``replace``: id, version).
        self.pending: StartRequest | None = None

    def say(self, text: str) -> None:
        """Every line the console prints: plain text the terminal can show (``for_terminal``)."""
        encoding = getattr(self.out, "encoding", None)
        print(for_terminal(text, encoding, ascii_suits=self.ascii_suits), file=self.out, flush=True)

    def show(self, board: Board, *, picture: bool = False) -> None:
        """A board as text; its picture written to a file when asked (or ``--png``)."""
        self.board = board
        self.say(board_content(self.tr, board))
        self.say(board.front.text_board(self.tr, board.game))
        if (picture or self.pictures) and board.png:
            path = self._next_path("board", "png")
            path.write_bytes(board.png)
            self.say(f"[picture: {path}]")
        line = share_line(self.tr, board)
        if line:
            self.say(f"{self.tr('share.intro')}\n  {line}")

    async def show_played(self, board: Board) -> None:
        """A move's board; then, if the search it started finds the deal can no longer be won
        after the board was shown, the line the chat board's message gains."""
        self.show(board)
        warned = await self.service.settle(board)
        if warned is not None and warned.lost_undos is not None:
            self.board = warned
            self.say(self.tr.n("board.cannot_win", warned.lost_undos))

    def _next_path(self, stem: str, suffix: str) -> Path:
        """The next free numbered file: a restarted console never overwrites earlier pictures."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        while True:
            self.saved += 1
            path = self.out_dir / f"{stem}-{self.saved:03d}.{suffix}"
            if not path.exists():
                return path

    async def current(self) -> Board:
        if self.board is not None and self.board.row.is_active:
            row, game = await self.service.load(self.board.row.id)
            return Board(row, game, self.board.png, selection=self.board.selection)
        return await self.service.show(self.user_id)

    def words_after(self, before: list[str]) -> list[str]:
        """What may come next on a line (Tab completion): commands first, then a game or a
        language where the command takes one."""
        if not before:
            commands = [name.removeprefix("cmd_") for name in dir(self) if name.startswith("cmd_")]
            return [*commands, "quit"]
        if before[0] in ("new", "daily", "board", "rules", "leaderboard") and len(before) == 1:
            return [front.command for front in fronts()]
        if before[0] == "language" and len(before) == 1:
            return list(LANGUAGES)
        return []

    async def handle(self, line: str) -> bool:
        """Run one line; False when it asks to quit."""
        try:
            words = shlex.split(line)
        except ValueError as exc:  # an unmatched quote
            self.say(f"! could not read that line ({exc}); quote a word with matching quotes")
            return True
        if not words:
            return True
        cmd, args = words[0].lower().removeprefix("/"), words[1:]
        if self.pending is not None and await self._answer(cmd):
            return True
        if cmd in ("quit", "exit"):
            return False
        handler = getattr(self, f"cmd_{cmd}", None) if cmd.isidentifier() else None
        if handler is not None:
            await self._guarded(handler(args))
        elif front_named(cmd) is not None:  # a game's start command, as the messages name it
            await self._guarded(self.cmd_new([cmd, *args]))
        elif is_notation(words[0]):  # a move alone: ``6h`` is ``move 6h``
            await self._guarded(self.cmd_move(words))
        else:
            word = words[0] if len(words[0]) <= UNKNOWN_SHOWN else words[0][:UNKNOWN_SHOWN] + "…"
            self.say(f"unknown command: {word} — type help")
        return True

    async def _answer(self, cmd: str) -> bool:
        """The answer to "end your game in progress?": True when the line was only that."""
        assert self.pending is not None
        request, self.pending = self.pending, None
        if cmd in ("yes", "y"):
            await self._guarded(self._start(request))
            return True
        self.say(self.tr("confirm.kept"))
        return cmd in ("no", "n")

    async def _guarded(self, work: Any) -> None:
        try:
            await work
        except (UserFeedback, engine.EngineError, storage.StorageError) as exc:
            self.say(f"! {error_text(self.tr.locale, exc) or exc}")

    async def _start(self, request: StartRequest, *, force: bool = False) -> None:
        """Start a game; one in progress with something at stake is ended only once the player agrees."""
        try:
            started: Started = await self.service.start(request)
        except GameInProgress as exc:
            agreed = replace(request, replace=(exc.row.id, exc.row.version))
            if force and not exc.stale:
                await self._start(agreed)
            else:
                self._ask_to_replace(exc, agreed)
            return
        if started.replaced:
            self.say(self.tr("start.replaced", code=started.replaced.code))
        if not started.verified:
            self.say(self.tr("start.unverified"))
        self.show(started.board)

    def _ask_to_replace(self, exc: GameInProgress, agreed: StartRequest) -> None:
        old = exc.row
        if exc.stale:
            self.say(self.tr("confirm.stale"))
        moves = self.tr.n("board.moves", old.move_count)
        game = front_for(old.kind).title(self.tr)
        self.say(self.tr("confirm.question", game=game, code=exc.shown_code, moves=moves, score=old.score))
        if old.daily_date is not None:
            self.say(self.tr("confirm.daily", date=old.daily_date.isoformat()))
        self.say(self.tr("confirm.ask"))
        self.say(self.tr("confirm.console"))
        self.pending = agreed

    async def cmd_help(self, args: list[str]) -> None:
        self.say(help_text())

    async def cmd_new(self, args: list[str]) -> None:
        front = named(args)
        if front is None:
            self.say(f"new {'|'.join(f.command for f in fronts())} …")
            return
        cells, typed, force = None, None, False
        for arg in args[1:]:
            if arg in {str(n) for n in front.cell_choices}:
                cells = int(arg)
            elif arg == "--force":
                force = True
            elif self._wrong_cell_count(front, arg):
                return
            else:
                typed = arg
        # A bare deal number (``#11982``) is a deal of this game, for a game that numbers them.
        code = engine.parse_code(typed, kind=front.kind, cells=cells) if typed is not None else None
        if code is not None and cells is not None and code.cells != cells:
            self.say(
                f"! {code} is a deal with {code.cells} free cells, not {cells}: give the code or the cells"
            )
            return
        table = CONSOLE_TABLE
        request = StartRequest(
            self.user_id, front.kind, cells=cells, code=code, guild_id=table, channel_id=table
        )
        await self._start(request, force=force)

    def _wrong_cell_count(self, front: Options[Any], arg: str) -> bool:
        """``new boulanger 3``: a small number that is neither a cell count of the game nor one
        of its deal numbers is a wrong count, and the counts are named (or that it has none)."""
        if not (arg.isdigit() and len(arg) <= 2):
            return False
        try:
            engine.parse_code(arg, kind=front.kind)
        except engine.CodeError as exc:
            if exc.part == "game":
                self.say(f"! {self.tr(front.key('error.bad_cells'))}")
                return True
        return False

    async def cmd_daily(self, args: list[str]) -> None:
        force = "--force" in args
        words = [a for a in args if a != "--force"]
        front = named(words) or fronts()[0]
        table = CONSOLE_TABLE
        request = StartRequest(self.user_id, front.kind, daily=True, guild_id=table, channel_id=table)
        await self._start(request, force=force)

    async def cmd_move(self, args: list[str]) -> None:
        if not args:
            self.say("move NOTATION")
            return
        for notation in args:  # in order; the first refused one stops the rest
            row = await self.service.game_for_move(self.user_id, notation)
            await self.show_played(await self.service.play(self.user_id, row.id, notation))

    async def cmd_press(self, args: list[str]) -> None:
        board = await self.current()
        act = BUTTON_ALIASES.get(args[0].lower(), args[0].lower()) if args else ""
        result = await self.service.press(self.user_id, board.row.id, board.row.version, board.selection, act)
        if isinstance(result, HintAnswer):
            self.say(hint_text(self.tr, result.game, result.advice))
        else:
            await self.show_played(result)

    async def cmd_moves(self, args: list[str]) -> None:
        board = await self.current()
        for notation, words in legal_moves_in_words(self.tr, board.game):
            self.say(f"  {notation:6} {words}")

    async def cmd_undo(self, args: list[str]) -> None:
        board = await self.current()
        await self.show_played(await self.service.undo(self.user_id, board.row.id))

    async def cmd_hint(self, args: list[str]) -> None:
        board = await self.current()
        answer = await self.service.hint(self.user_id, board.row.id)
        self.say(hint_text(self.tr, answer.game, answer.advice))

    async def cmd_resign(self, args: list[str]) -> None:
        board = await self.current()
        self.show(await self.service.resign(self.user_id, board.row.id))

    async def cmd_board(self, args: list[str]) -> None:
        """``board [GAME] [--png]``: the board again; ``--png`` writes its picture too."""
        png = "--png" in args
        front = named([a for a in args if a != "--png"])
        self.show(await self.service.show(self.user_id, front.kind if front else None), picture=png)

    async def cmd_code(self, args: list[str]) -> None:
        self.say((await self.current()).row.code)

    async def cmd_replay(self, args: list[str]) -> None:
        if self.board is None or self.board.row.status != "won":
            self.say("! replay: win a game first (the replay is of the game just won)")
            return
        gif = await self.service.replay(self.board.row.id)
        path = self._next_path("replay", "gif")
        path.write_bytes(gif)
        self.say(f"[replay: {path}]")


def serve(ns: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """Open the store and the hint pool on the console's loop, then read commands: from the
    terminal as a shell does (``terminal.interact``), or piped in, line by line."""
    loop = terminal.LoopThread()
    Path(ns.db).parent.mkdir(parents=True, exist_ok=True)
    solver = Solver(1)
    try:
        store = loop.run(storage.open_store(ns.db))
        try:
            service = GameService(store, solver=solver, hint_seconds=ns.hint_seconds)
            console = Console(service, Path(ns.out), ns.user, stdout, pictures=ns.png, ascii_suits=ns.ascii)
            console.tr = Translator(ns.lang)
            use_language(ns.lang)  # the pictures' words too
            console.say("Boulanger console — type 'help' for commands, Ctrl-D to quit.")
            if stdin.isatty() and stdout.isatty():
                history = Path(ns.db).parent / "console_history"
                terminal.interact(loop, console.handle, console.say, history, console.words_after)
            else:
                terminal.run_script(loop, console.handle, stdin)
        finally:
            loop.run(store.close())
    except KeyboardInterrupt:  # while the store opened or closed: nothing to say
        pass
    finally:
        solver.close()
        loop.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot console", description=DESCRIPTION)
    parser.add_argument("--db", default="data/console.sqlite3", help="database file (default: %(default)s)")
    parser.add_argument("--out", default="out", help="folder for pictures (default: %(default)s)")
    parser.add_argument(
        "--png", action="store_true", help="write every board's picture to --out, not only on board --png"
    )
    parser.add_argument(
        "--ascii", action="store_true", help="cards as 10H, QS (automatic where suit symbols cannot be shown)"
    )
    parser.add_argument("--user", type=int, default=1, help="the player's user id (default: %(default)s)")
    parser.add_argument(
        "--hint-seconds", type=float, default=2.0, help="the solver's time for a hint (default: %(default)s)"
    )
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of texts and pictures")
    ns = parser.parse_args(argv)
    try:
        return serve(ns, sys.stdin, sys.stdout)
    except storage.DatabaseUnusable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
