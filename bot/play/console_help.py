"""The console's ``help``: its commands, each game's part from its front (its start options,
its moves and buttons), so a registered game shows up here too."""

from __future__ import annotations

import textwrap

from bot.games import fronts
from bot.languages.language import LANGUAGES
from bot.play import game_settings

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


def _starting() -> list[str]:
    games = fronts()
    lines = []
    for front in games:
        choices = f" [{'|'.join(map(str, front.cell_choices))}]" if front.cell_choices else ""
        stock = " (a winnable deal unless CODE is given)" if front.stock_cells else ""
        lines.append(_row(f"new {front.command}{choices} [CODE]", f"start {front.name}{stock}"))
    dailies = "|".join(front.command for front in games if front.has_daily)
    lines.append(_row(f"daily {dailies}", "today's daily challenge"))
    lines.append(_more("(a game of that kind in progress is ended only after you"))
    lines.append(_more("answer yes, or with --force)"))
    return lines


def _playing() -> list[str]:
    games = fronts()
    moves = " / ".join(dict.fromkeys(front.notation_examples for front in games))
    first_move = games[0].notation_examples.split(",")[0].strip()
    lines = [
        _row("move NOTATION [NOTATION …]", f"e.g. {moves} (played in order)"),
        _more(f"a move alone plays too: {first_move} is move {first_move}"),
    ]
    by_buttons: dict[str, list[str]] = {}  # games with the same buttons are named together
    for front in games:
        by_buttons.setdefault(front.button_names, []).append(front.short_name)
    buttons = "; ".join(f"{names_} ({', '.join(who)})" for names_, who in by_buttons.items())
    every = "both" if len(games) == 2 else "every game"
    press = f"a board button: {buttons}; undo, hint, clear, end ({every}; end only when no move is left)"
    first, *rest = textwrap.wrap(press, HELP_WIDTH, break_on_hyphens=False)
    return [*lines, _row("press BUTTON", first), *map(_more, rest)]


def help_text() -> str:
    """The console's commands, each game's part from its front."""
    names = "|".join(front.command for front in fronts())
    lines = ["commands:", *_starting(), *_playing()]
    lines += [
        _row("moves", "legal moves in words"),
        _row("board [GAME] [--png]", "the board again; --png also writes its picture (--out)"),
        "  undo | hint | resign | code | stats | replay (writes the won game's GIF)",
        f"  leaderboard {names} [all|week|daily]",
        _row(f"language {'|'.join(LANGUAGES)}", "the language of texts and pictures"),
        _row("settings [lost_warning on|off]", "whether the board says when a deal can no longer be won"),
        *[
            _row(f"settings {'|'.join(c.token for c in choices)}", "a game's own setting")
            for choices in _setting_groups()
        ],
        f"  rules {names} | help | quit   (a leading / is fine: /rules, /help)",
        "  Ctrl-C cancels the line or the command running; Ctrl-D (or Ctrl-C twice) quits",
    ]
    return "\n".join("\n".join(lines).splitlines())
