"""``python -m bot console``: play through the bot's own command layer, no Discord needed.

Each board picture is saved as a PNG file (the path is printed), the board's
text is printed too. Commands mirror the slash commands; ``press`` is a board
button (a column, cell, foundation, pile, ``home``, ``undo`` …). Reads
commands from stdin, so it can also be scripted: ``echo "new boulanger" | …``.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
import textwrap
from pathlib import Path
from typing import Any, TextIO

import engine
import storage
from bot.games import GameFront, front_for, front_named, fronts
from bot.languages.i18n import Translator
from bot.languages.language import LANGUAGES, set_warns_lost, use_language, warns_lost
from bot.play import dailycodes, game_settings
from bot.play.board_text import board_content, share_line
from bot.play.describe import hint_text, legal_moves_in_words
from bot.play.error_words import error_text
from bot.play.feedback import UserFeedback
from bot.play.service import Board, GameInProgress, GameService, HintAnswer, Started
from bot.play.solving import Solver

HELP_WIDTH = 62  # the descriptions' column is wrapped at this width


def _row(usage: str, what: str) -> str:
    if len(usage) > 30:  # a long usage gets a line of its own
        return f"  {usage}\n{_more(what)}"
    return f"  {usage:<31}{what}"


def _more(what: str) -> str:
    return " " * 33 + what


def _setting_groups() -> list[list[game_settings.SettingChoice]]:
    """The games' own settings (``GameFront.settings``), each setting's values together."""
    groups: dict[tuple[str, str], list[game_settings.SettingChoice]] = {}
    for choice in game_settings.every_choice():
        groups.setdefault((choice.front.kind, choice.setting.name), []).append(choice)
    return list(groups.values())


def help_text() -> str:
    """The console's commands, each game's part from its front (its start options, its moves
    and buttons), so a registered game shows up here too."""
    games = fronts()
    names = "|".join(front.command for front in games)
    lines = ["commands:"]
    for front in games:
        choices = f" [{'|'.join(map(str, front.cell_choices))}]" if front.cell_choices else ""
        stock = " (a winnable deal unless CODE is given)" if front.stock_cells else ""
        lines.append(_row(f"new {front.command}{choices} [CODE]", f"start {front.name}{stock}"))
    dailies = "|".join(front.command for front in games if front.has_daily)
    lines.append(_row(f"daily {dailies}", "today's daily challenge"))
    lines.append(_more("(a game of that kind in progress is ended only after you"))
    lines.append(_more("answer yes, or with --force)"))
    moves = " / ".join(dict.fromkeys(front.notation_examples for front in games))
    lines.append(_row("move NOTATION [NOTATION …]", f"e.g. {moves} (played in order)"))
    by_buttons: dict[str, list[str]] = {}  # games with the same buttons are named together
    for front in games:
        by_buttons.setdefault(front.button_names, []).append(front.short_name)
    buttons = "; ".join(f"{names_} ({', '.join(who)})" for names_, who in by_buttons.items())
    every = "both" if len(games) == 2 else "every game"
    press = f"a board button: {buttons}; undo, hint, clear, end ({every}; end only when no move is left)"
    first, *rest = textwrap.wrap(press, HELP_WIDTH, break_on_hyphens=False)
    lines += [_row("press BUTTON", first), *map(_more, rest)]
    lines += [
        _row("moves", "legal moves in words"),
        "  undo | hint | resign | board | code | stats | replay (writes the won game's GIF)",
        f"  leaderboard {names} [all|week|daily]",
        _row(f"language {'|'.join(LANGUAGES)}", "the language of texts and pictures"),
        _row("settings [lost_warning on|off]", "whether the board says when a deal can no longer be won"),
        *[
            _row(f"settings {'|'.join(c.token for c in choices)}", "a game's own setting")
            for choices in _setting_groups()
        ],
        f"  rules {names} | help | quit   (a leading / is fine: /rules, /help)",
    ]
    return "\n".join("\n".join(lines).splitlines())


# The console's games are played at one table (a server and channel id of its own), so that
# `leaderboard` ranks them like a channel's board.
CONSOLE_TABLE = 1
BUTTON_ALIASES = {"home": "h", "undo": "u", "hint": "i", "clear": "x", "end": "r"}


def named(args: list[str]) -> GameFront[Any] | None:
    """The game the first word names (``boulanger``, ``bakers``, ``calculation`` …), if any."""
    return front_named(args[0]) if args else None


class Console:
    def __init__(self, service: GameService, out_dir: Path, user_id: int, stdout: TextIO) -> None:
        self.service = service
        self.out_dir = out_dir
        self.user_id = user_id
        self.out = stdout
        self.tr = Translator("en")
        self.board: Board | None = None
        self.saved = 0
        # A start waiting for "yes": its kind, options and the game it would end (id, version).
        self.pending: tuple[str, dict[str, Any], tuple[int, int]] | None = None

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def show(self, board: Board) -> None:
        self.board = board
        path = self._next_path("board", "png")
        path.write_bytes(board.png)
        self.say(board_content(self.tr, board).replace("**", ""))
        self.say(board.game.board_text().rstrip())
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

    async def handle(self, line: str) -> bool:
        try:
            words = shlex.split(line)
        except ValueError as exc:  # an unmatched quote
            self.say(f"! could not read that line ({exc}); quote a word with matching quotes")
            return True
        if not words:
            return True
        cmd, args = words[0].lower().removeprefix("/"), words[1:]
        if self.pending is not None:
            kind, options, replace = self.pending
            self.pending = None
            if cmd in ("yes", "y"):
                await self._guarded(self._start(kind, options, replace=replace))
                return True
            self.say(self.tr("confirm.kept"))
            if cmd in ("no", "n"):
                return True
        if cmd in ("quit", "exit"):
            return False
        handler = getattr(self, f"cmd_{cmd}", None) if cmd.isidentifier() else None
        if handler is None:
            self.say(f"unknown command {cmd!r}\n{help_text()}")
            return True
        await self._guarded(handler(args))
        return True

    async def _guarded(self, work: Any) -> None:
        try:
            await work
        except (UserFeedback, engine.EngineError, storage.StorageError) as exc:
            self.say(f"! {error_text(self.tr.locale, exc) or exc}")

    async def _start(
        self,
        kind: str,
        options: dict[str, Any],
        *,
        force: bool = False,
        replace: tuple[int, int] | None = None,
    ) -> None:
        """Start a game; one in progress with something at stake is ended only once the player agrees."""
        try:
            started: Started = await self.service.start(
                self.user_id,
                kind,
                replace=replace,
                guild_id=CONSOLE_TABLE,
                channel_id=CONSOLE_TABLE,
                **options,
            )
        except GameInProgress as exc:
            old = exc.row
            if force and not exc.stale:
                await self._start(kind, options, replace=(old.id, old.version))
                return
            if exc.stale:
                self.say(self.tr("confirm.stale"))
            moves = self.tr.n("board.moves", old.move_count)
            game = front_for(old.kind).title(self.tr)
            self.say(
                self.tr("confirm.question", game=game, code=exc.shown_code, moves=moves, score=old.score)
            )
            if old.daily_date is not None:
                self.say(self.tr("confirm.daily", date=old.daily_date.isoformat()))
            self.say(self.tr("confirm.ask"))
            self.say(self.tr("confirm.console"))
            self.pending = (kind, options, (old.id, old.version))
            return
        if started.replaced:
            self.say(self.tr("start.replaced", code=started.replaced.code))
        self.show(started.board)

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
            else:
                typed = arg
        # A bare deal number (``#11982``) is a deal of this game, for a game that numbers them.
        code = engine.parse_code(typed, kind=front.kind, cells=cells) if typed is not None else None
        if code is not None and cells is not None and code.cells != cells:
            self.say(
                f"! {code} is a deal with {code.cells} free cells, not {cells}: give the code or the cells"
            )
            return
        await self._start(front.kind, {"cells": cells, "code": code}, force=force)

    async def cmd_daily(self, args: list[str]) -> None:
        force = "--force" in args
        words = [a for a in args if a != "--force"]
        front = named(words) or fronts()[0]
        await self._start(front.kind, {"daily": True}, force=force)

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
        front = named(args)
        self.show(await self.service.show(self.user_id, front.kind if front else None))

    async def cmd_code(self, args: list[str]) -> None:
        self.say((await self.current()).row.code)

    async def cmd_stats(self, args: list[str]) -> None:
        for front in fronts():
            s = await self.service.store.player_stats(self.user_id, front.kind)
            self.say(
                f"{front.kind}: played {s.played}, won {s.won} ({s.win_rate:.0%}), streak {s.current_streak}"
            )

    async def cmd_replay(self, args: list[str]) -> None:
        if self.board is None or self.board.row.status != "won":
            self.say("! replay: win a game first (the replay is of the game just won)")
            return
        gif = await self.service.replay(self.board.row.id)
        path = self._next_path("replay", "gif")
        path.write_bytes(gif)
        self.say(f"[replay: {path}]")

    async def cmd_leaderboard(self, args: list[str]) -> None:
        front = named(args) or fronts()[0]
        period = args[1] if len(args) > 1 else "all"
        if period not in ("all", "week", "daily"):
            self.say("! leaderboard GAME [all|week|daily]")
            return
        today = dailycodes.utc_today(self.service.clock())
        scope: dict[str, Any] = {"channel_id": CONSOLE_TABLE, "period": period}
        if period == "daily":
            scope["daily_date"] = today
        entries = await self.service.store.leaderboard(front.kind, limit=10, **scope)
        self.say(front.title(self.tr) + f" — {period}")
        for e in entries:
            words = " · ".join(front.result_words(self.tr, e.best))
            self.say(f"  {e.rank}. player {e.user_id} · {words} · {e.won}/{e.played} won")
        if not entries:
            self.say("  " + self.tr("lb.empty"))

    async def cmd_language(self, args: list[str]) -> None:
        if not args or args[0] not in LANGUAGES:
            self.say(f"! language {'|'.join(LANGUAGES)}")
            return
        self.tr = Translator(args[0])
        use_language(args[0])
        self.say(self.tr("language.set"))

    async def cmd_settings(self, args: list[str]) -> None:
        """``settings [lost_warning on|off]``: like /settings, what is given changes
        (``settings LANGUAGE`` is ``language``)."""
        if args and args[0] in LANGUAGES:
            await self.cmd_language(args)
            return
        tokens = [c.token for c in game_settings.every_choice()]
        if args[:1] == ["lost_warning"] and args[1:2] in (["on"], ["off"]):
            await set_warns_lost(self.service.store, self.user_id, args[1] == "on")
        elif len(args) == 1 and args[0] in tokens:  # a game's own setting: GAME.SETTING.VALUE
            await game_settings.choose(self.service.store, self.user_id, args[0])
        elif args:
            self.say(f"settings [lost_warning on|off] | settings {'|'.join(tokens)} | settings LANGUAGE")
            return
        on = await warns_lost(self.service.store, self.user_id)
        self.say(self.tr(f"settings.lost_warning.{'on' if on else 'off'}"))
        for line in await game_settings.lines(self.tr, self.service.store, self.user_id):
            self.say(line)

    async def cmd_rules(self, args: list[str]) -> None:
        self.say((named(args) or fronts()[0]).rules(self.tr))


async def run(ns: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    Path(ns.db).parent.mkdir(parents=True, exist_ok=True)
    store = await storage.open_store(ns.db)
    solver = Solver(1)
    console = Console(
        GameService(store, solver=solver, hint_seconds=ns.hint_seconds), Path(ns.out), ns.user, stdout
    )
    language = getattr(ns, "lang", "en")
    console.tr = Translator(language)
    use_language(language)  # the pictures' words too
    try:
        console.say("Boulanger console — type 'help' for commands.")
        loop = asyncio.get_running_loop()
        while True:
            if stdin.isatty():
                print("> ", end="", file=stdout, flush=True)
            line = await loop.run_in_executor(None, stdin.readline)
            if not line or not await console.handle(line.strip()):
                break
    finally:
        solver.close()
        await store.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot console", description=__doc__)
    parser.add_argument("--db", default="data/console.sqlite3", help="database file (default: %(default)s)")
    parser.add_argument("--out", default="out", help="folder for board pictures (default: %(default)s)")
    parser.add_argument("--user", type=int, default=1, help="the player's user id (default: %(default)s)")
    parser.add_argument("--hint-seconds", type=float, default=2.0)
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of texts and pictures")
    ns = parser.parse_args(argv)
    try:
        return asyncio.run(run(ns, sys.stdin, sys.stdout))
    except storage.DatabaseUnusable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
