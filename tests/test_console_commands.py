"""The console's commands in process (a real SQLite file, the real engine, renderer and hint
workers run inline): bare moves, one-line answers, plain text, titles, pictures only when asked."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import engine
import storage
from bot.games import front_for
from bot.games.base import Advice, GameFront
from bot.languages.i18n import Translator
from bot.play.console import Console, is_notation
from bot.play.service import GameService
from bot.play.solving import Solver

BK = "BK1-C4-AAAAA24"


class InlineSolver(Solver):
    """The real hint workers, run inline instead of in a process pool (same code path)."""

    async def hint(self, front: GameFront[Any], game: engine.Game[Any], seconds: float) -> Advice:
        return front.hint_worker_for(game)(game.code, game.moves, seconds)


class Terminal(io.StringIO):
    """What the console prints, as a terminal of ``encoding`` would take it."""

    def __init__(self, encoding: str = "utf-8") -> None:
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def write(self, text: str) -> int:
        text.encode(self._encoding)  # a character it cannot show fails here, as print would
        return super().write(text)


@pytest.fixture
async def store(tmp_path):
    s = await storage.open_store(str(tmp_path / "console.sqlite3"))
    yield s
    await s.close()


def console_on(store: storage.Store, out_dir: Path, encoding: str = "utf-8", **options: Any) -> Console:
    # The solver's budget is wall time: generous, so a busy machine still gets its proofs.
    service = GameService(store, solver=InlineSolver(), hint_seconds=60.0)
    return Console(service, out_dir, 1, Terminal(encoding), **options)


async def run(console: Console, *lines: str) -> str:
    out = console.out
    assert isinstance(out, Terminal)
    start = out.tell()
    for line in lines:
        assert await console.handle(line)
    return out.getvalue()[start:]


async def test_a_bare_move_plays_like_move(store, tmp_path):
    console = console_on(store, tmp_path / "out")
    await run(console, f"new boulanger {BK}")
    out = await run(console, "6h")
    assert "Last move: A♦ from column 6 home" in out and "Score 10" in out
    out = await run(console, "8a 64")  # several, in order, as with move
    assert "J♦ from column 8 to free cell a" in out and "from column 6 to column 4" in out
    out = await run(console, "7h")  # a move, refused: the engine's words, not "unknown command"
    assert out.startswith("! ") and "unknown command" not in out
    row = await store.active_game(1, "bakers")
    assert row is not None and row.moves == ("6h", "8a", "64")


async def test_an_unknown_word_gets_one_line(store, tmp_path):
    console = console_on(store, tmp_path / "out")
    assert await run(console, "foo") == "unknown command: foo — type help\n"
    assert await run(console, "x" * 5000) == f"unknown command: {'x' * 40}… — type help\n"
    await run(console, f"new boulanger {BK}")
    for word in ("bogus", "xyzzy", "h8"):  # not notation, even with a game in progress
        assert await run(console, word) == f"unknown command: {word} — type help\n"
    assert await run(console, "zz 6h") == "unknown command: zz — type help\n"
    assert (await store.active_game(1, "bakers")).moves == ()


def test_notation_is_what_some_games_engine_reads():
    assert all(is_notation(w) for w in ("6h", "1a", "ah", "18v2", "w1f4", "sf2", "ab"))
    assert not any(is_notation(w) for w in ("bogus", "help", "hello", "zz", "9h", "1z", "board", ""))


async def test_a_games_start_command_as_the_messages_name_it_starts_it(store, tmp_path):
    console = console_on(store, tmp_path / "out")
    out = await run(console, "hint")
    assert "Start one with /boulanger, /calculation, /freecell, /klondike or /daily." in out
    out = await run(console, f"/boulanger {BK}")
    assert "Jeu du Boulanger · 4 free cells · BK1-C4-AAAAA24" in out
    assert "FC1-C2-MS5" in await run(console, "freecell 2 5")


async def test_new_with_a_wrong_cell_count_names_the_counts(store, tmp_path):
    console = console_on(store, tmp_path / "out")
    out = await run(console, "new boulanger 3")
    assert out == "! Jeu du Boulanger is played with 4, 2 or 1 free cells.\n"
    out = await run(console, "new boulanger 1 5")
    assert out == "! Jeu du Boulanger is played with 4, 2 or 1 free cells.\n"
    assert await store.active_game(1, "bakers") is None
    assert await run(console, "new calculation 2") == "! Calculation is played without free cells.\n"
    assert await store.active_game(1, "calculation") is None
    out = await run(console, "new freecell 5")  # FreeCell numbers its deals: deal 5
    assert "FC1-C4-MS5" in out
    out = await run(console, "new freecell 3 11982")  # a count it has, then a deal number
    assert "FC1-C3-MS11982" in out


async def test_text_is_plain_and_names_games_by_title(store, tmp_path):
    console = console_on(store, tmp_path / "out")
    out = await run(console, f"new boulanger {BK}", "rules freecell", "hint", "stats", "leaderboard freecell")
    assert "`" not in out and "**" not in out and "-# " not in out
    assert "Jeu du Boulanger · 4 free cells · BK1-C4-AAAAA24" in out
    assert "\nGoal: build all four suits" in out
    assert "💡 Try A♦ from column 6 home (6h)." in out
    stats = [line for line in out.splitlines() if "Played 0, won 0 (0%)" in line]
    assert [line.split(":")[0] for line in stats] == [
        "Jeu du Boulanger",
        "Calculation",
        "FreeCell",
        "Klondike",
    ]
    assert "bakers" not in out
    assert "FreeCell — best in this channel, all time" in out
    week = await run(console, "leaderboard boulanger week")
    assert week.splitlines()[0] == "Jeu du Boulanger — best in this channel this week"


async def test_cards_are_written_one_way_in_the_board_and_in_messages(store, tmp_path):
    console = console_on(store, tmp_path / "out")
    out = await run(console, f"new boulanger {BK}", "6h", "8a")
    assert "1: 4♣ 2♣ A♣ 9♣ Q♠ J♠ 10♥" in out and "h: -- -- A♦ --" in out
    assert "a: J♦  b: --  c: --  d: --" in out
    assert "TH" not in out and "QS" not in out and "Foundations:" not in out
    calc = await run(console, "new calculation CA1-AAAAA24", "f3")
    assert "f3 +3: 3♦ 6♠  (next 9)" in calc and "s: 7♦  (stock 46)" in calc


async def test_suits_in_ascii_where_the_terminal_cannot_show_them(store, tmp_path):
    console = console_on(store, tmp_path / "out", encoding="ascii")
    out = await run(console, f"new boulanger {BK}", "6h", "hint")
    assert "1: 4C 2C AC 9C QS JS 10H" in out and "Last move: AD from column 6 home" in out
    assert "Jeu du Boulanger - 4 free cells - BK1-C4-AAAAA24" in out and "Try 7S" in out
    forced = console_on(store, tmp_path / "out", ascii_suits=True)
    assert "1: 4C 2C AC 9C QS JS 10H" in await run(forced, "board")


async def test_no_file_is_written_unless_asked(store, tmp_path):
    console = console_on(store, tmp_path / "out")
    out = await run(console, f"new boulanger {BK}", "6h", "undo", "board", "hint", "moves")
    assert "[picture:" not in out and not (tmp_path / "out").exists()
    out = await run(console, "board --png")
    pictures = list((tmp_path / "out").glob("*.png"))
    assert len(pictures) == 1 and f"[picture: {pictures[0]}]" in out
    with Image.open(pictures[0]) as im:
        assert im.size[0] >= 400
    every = console_on(store, tmp_path / "all", pictures=True)  # the --png setting
    await run(every, "6h", "undo")
    assert len(list((tmp_path / "all").glob("board-*.png"))) == 2


async def test_the_first_hint_of_a_deal_that_never_could_be_won_says_so(store, tmp_path):
    console = console_on(store, tmp_path / "out")
    for code in ("FC1-C4-MS11982", "FC1-C2-MS1"):
        out = await run(console, f"new freecell {code} --force", "hint")
        assert "This deal cannot be won, not even from its start" in out, out
        assert "no longer" not in out
    out = await run(console, "1a", "hint")  # after a move: still no move of the player's lost it
    assert "This deal cannot be won" in out and "no longer" not in out


async def test_the_words_follow_the_language(store, tmp_path):
    console = console_on(store, tmp_path / "out")
    console.tr = Translator("nl")
    out = await run(console, f"new boulanger {BK}", "stats")
    assert "Jeu du Boulanger" in out and "bakers" not in out
    assert front_for("calculation").title(console.tr) in out
