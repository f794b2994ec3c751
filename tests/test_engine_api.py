"""The engine's typed public surface: places and accessors, one legality source, the code
registry, ASCII-only numbers in user text, and the ranking hook storage will use."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

import engine
from engine import codes, registry
from engine.bakers import BakersGame
from engine.calculation import CalculationGame
from engine.codes import GameCode, parse_code
from engine.game import Finish, Game, Outcome
from engine.record import GameRecord, StartWords
from storage import ranking
from tests.bakers_boards import build, cards


def bakers_at(pos, cells: int = 4) -> BakersGame:
    game = BakersGame(parse_code(f"BK1-C{cells}-AAAAA24"))
    game.position = pos
    return game


# -- places and accessors ---------------------------------------------------------------
@pytest.mark.parametrize(("cells", "letters"), [(4, "abcd"), (2, "ab"), (1, "a")])
def test_bakers_places_are_columns_then_the_cells_in_play(cells, letters):
    game = engine.new_game(f"BK1-C{cells}-AAAAA24")
    assert isinstance(game, BakersGame)
    assert game.places() == (*"12345678", *letters)
    assert game.cells == cells


def test_bakers_top_card_is_empty_and_foundation_counts():
    game = bakers_at(build({1: "KH 5S 4S 3S", 2: "AD"}, held="9C", empty=(7, 8), home={"S": 2}))
    assert game.top_card("1") == cards("3S")[0]
    assert game.top_card("a") == game.top_card("A") == cards("9C")[0]
    assert game.top_card("7") is None and game.is_empty("7") and not game.is_empty("1")
    assert game.top_card("b") is None and game.is_empty("B")
    assert game.foundation_counts() == (2, 0, 0, 0)
    game.play("2h")
    assert game.foundation_counts() == (2, 0, 1, 0)
    assert game.most_to_empty("1") == game.position.most_to_empty(0) == 3
    assert game.most_to_empty("a") == 1 and game.most_to_empty("b") == 0


@pytest.mark.parametrize("place", ["h", "9", "0", "e", "", "11", "١", "ab", None])
def test_unknown_places_are_malformed(place):
    game = engine.new_game("BK1-C2-AAAAA24")
    assert isinstance(game, BakersGame)
    for call in (game.top_card, game.is_empty, game.most_to_empty, game.double_tap_target):
        with pytest.raises(engine.IllegalMove) as info:
            call(place)
        assert info.value.reason == "malformed"
    with pytest.raises(engine.IllegalMove) as info:
        game.top_card("c")  # a cell not in play with two cells
    assert info.value.reason == "malformed"


def test_calculation_places_and_accessors():
    game = engine.new_game("CA1-AAAAA24")
    assert isinstance(game, CalculationGame)
    assert game.places() == ("s", "w1", "w2", "w3", "w4", "f1", "f2", "f3", "f4")
    assert game.top_card("s") == game.turned
    assert game.top_card("F2") == game.foundations[1][-1]
    assert game.is_empty("w1") and game.top_card("W1") is None
    turned = game.turned
    game.play("sw1")
    assert game.top_card("w1") == turned and not game.is_empty("w1")
    for place in ("x", "w5", "f0", "w", "s1", "w١", ""):
        with pytest.raises(engine.IllegalMove) as info:
            game.top_card(place)
        assert info.value.reason == "malformed"


def test_last_move_and_generic_surface():
    game = engine.new_game("BK1-C4-AAAAA24")
    assert game.last_move is None
    move = game.play("6h")
    assert game.last_move == move and move.notation == "6h" and move.describe()
    assert game.resolve("1A").notation == "1a" and game.moves == ("6h",)  # resolve never plays
    assert game.undo() == move and game.last_move is None
    assert isinstance(game.game_code, GameCode) and game.code == str(game.game_code)


# -- one legality source ------------------------------------------------------------------
def test_is_legal_agrees_with_play_in_any_case():
    game = engine.new_game("BK1-C4-AAAAA24")
    assert game.is_legal("6H") and game.is_legal(" 6h ") and game.is_legal("1A")
    assert not game.is_legal("undo") and not game.is_legal("zz") and not game.is_legal(None)  # type: ignore[arg-type]
    game.play("6H")
    calc = engine.new_game("CA1-AAAAA24")
    assert calc.is_legal("SW1") and calc.is_legal("W1") and calc.resolve("W1").notation == "sw1"


def test_is_legal_accepts_every_form_that_plays():
    game = bakers_at(build({1: "KH 6C 5C 4C", 2: "7C"}, empty=(8,)))
    for text in ("12", "12v3", "12V3", "18v3", "18V2", "18v1", "18"):
        assert game.is_legal(text), text
    for text in ("12v2", "18v4", "12v+3", "12v0x3", "12v٣"):
        assert not game.is_legal(text), text


def test_refusals_keep_their_reasons_and_params():
    game = bakers_at(build({1: "KH 6C 5C 4C", 2: "7C", 3: "AD", 4: "9H"}, held="8H 2S 3S 4S"))
    with pytest.raises(engine.IllegalMove) as info:
        game.play("12v2")
    assert (info.value.reason, info.value.params) == ("bad_count", {"count": 2, "fits": 3})
    with pytest.raises(engine.IllegalMove) as info:
        game.play("12")
    assert (info.value.reason, info.value.params) == ("too_many", {"count": 3, "capacity": 1})
    with pytest.raises(engine.IllegalMove) as info:
        game.play("1a")
    assert (info.value.reason, info.value.params) == ("cell_full", {"cell": "a", "card": "8♥"})
    with pytest.raises(engine.IllegalMove) as info:
        game.play("4h")
    assert (info.value.reason, info.value.params) == ("foundation_order", {"card": "9♥", "need": "A♥"})


def test_listed_moves_are_ordinary_frozen_moves():
    from engine.bakers.position import BakersMove, _make_move

    made = _make_move("c", 0, "c", 7, (5, 4), "18v2", True)
    plain = BakersMove("c", 0, "c", 7, (5, 4), "18v2", True)
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    with pytest.raises(AttributeError):
        made.notation = "x"  # type: ignore[misc]


def test_double_tap_comes_from_the_legal_moves():
    game = bakers_at(build({1: "KH 6C 5C 4C", 2: "7C"}, empty=(8,)))
    # 4♣ fits nowhere by itself (the run 6♣-4♣ would go on 7♣): the leftmost empty column.
    assert game.double_tap_target("1") == "18"
    assert game.double_tap_target("1") in game.legal_moves()
    with pytest.raises(engine.IllegalMove) as info:
        game.double_tap_target("8")
    assert info.value.reason == "empty_source"


def test_has_legal_move_and_outcome_agree_with_the_listing():
    calc = engine.new_game("CA1-AAAAA24")
    while calc.legal_moves():
        assert calc.has_legal_move() and calc.outcome is None
        calc.play(calc.legal_moves()[-1])
    assert not calc.has_legal_move() and calc.is_over


# -- codes --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "code",
    ["BK²-C4-AAAAA24", "BK١-C4-AAAAA24", "CA٣-AAAAA24", "BK+1-C4-AAAAA24", "BK 1-C4-AAAAA24", "BK¹-C4-A"],
)
def test_unicode_digits_in_a_version_are_a_version_error(code):
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code(code)
    assert info.value.part == "version" and info.value.reason == "code_version"


def test_unicode_digits_in_cells_are_a_cells_error():
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("BK1-C٤-AAAAA24")
    assert info.value.part == "cells"


def test_codes_come_from_the_registered_classes():
    assert codes.GAME_PREFIXES == {"BK": "bakers", "CA": "calculation", "FC": "freecell", "KL": "klondike"}
    assert codes.KIND_PREFIXES == {"bakers": "BK", "calculation": "CA", "freecell": "FC", "klondike": "KL"}
    assert codes.VERSIONS == {"bakers": (1,), "calculation": (1,), "freecell": (1,), "klondike": (1,)}
    assert codes.SPECS["bakers"] == codes.CodeSpec("bakers", "BK", "Jeu du Boulanger", (1,), True)
    assert (BakersGame.code_prefix, BakersGame.has_cells) == ("BK", True)
    assert (CalculationGame.code_prefix, CalculationGame.has_cells) == ("CA", False)
    assert str(engine.make_code("freecell", 11982, 3)) == "FC1-C3-MS11982"
    with pytest.raises(ValueError):
        engine.make_code("freecell", 0)  # Microsoft's deals are 1 to 1,000,000
    with pytest.raises(ValueError):
        engine.make_code("chess", 1)
    with pytest.raises(ValueError):
        engine.make_code("bakers", 1, version=2)


@dataclass(frozen=True)
class CountMove:
    notation: str

    def describe(self) -> str:
        return f"count {self.notation}"


class CountGame(Game[CountMove]):
    """A third game for the registry test: say the next number, up to three."""

    kind = "count"
    title = "Count"
    code_prefix = "CNT"
    versions = (1, 2)

    def __init__(self, code: GameCode) -> None:
        super().__init__(code)
        self.position = 0

    def iter_legal_moves(self) -> Iterator[CountMove]:
        if self.position < 3:
            yield CountMove(str(self.position + 1))

    @property
    def score(self) -> int:
        return self.position

    @property
    def outcome(self) -> Outcome | None:
        return Outcome("won", "counted") if self.position == 3 else None

    def board_text(self) -> str:
        return f"{self.position}\n"

    @property
    def cards_home(self) -> int:
        return self.position

    @classmethod
    def rank_key(cls, finish: Finish) -> int:
        return 3 - finish.score

    def _find(self, text: str) -> CountMove | None:
        return next((m for m in self.iter_legal_moves() if m.notation == text), None)

    def _resolve(self, text: str) -> CountMove:
        move = self._find(text)
        if move is None:
            raise engine.IllegalMove(f"not {text!r}", "malformed", text=text)
        return move

    def _play(self, text: str) -> CountMove:
        move = self._resolve(text)
        self.position += 1
        return move

    def _take_back(self, move: CountMove) -> CountMove:
        self.position -= 1
        return move


@pytest.fixture
def scratch_registry(monkeypatch):
    for name in ("SPECS", "GAME_PREFIXES", "KIND_PREFIXES", "VERSIONS"):
        monkeypatch.setattr(codes, name, dict(getattr(codes, name)))
    monkeypatch.setattr(registry, "GAMES", dict(registry.GAMES))


def test_a_third_game_needs_only_a_class_and_register(scratch_registry):
    assert registry.register(CountGame) is CountGame
    gc = engine.parse_code(" cnt2-aaaaa24 ")
    assert (gc.kind, gc.version, gc.deal, gc.cells) == ("count", 2, 860, None)
    assert str(gc) == "CNT2-AAAAA24" and engine.code_for("count", 860) == "CNT1-AAAAA24"
    game = engine.replay("CNT1-AAAAA24", ["1", "2", "undo", "2", "3"])
    assert isinstance(game, CountGame) and game.is_won and game.moves == ("1", "2", "undo", "2", "3")
    assert game.legal_moves() == [] and not game.is_legal("4") and game.rank_key(Finish("won", 3, 3)) == 0
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("CNT3-AAAAA24")
    assert info.value.part == "version" and "version 1, 2" in str(info.value)
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("XX1-AAAAA24")
    assert "BK (Jeu du Boulanger), CA (Calculation), FC (FreeCell), KL (Klondike) or CNT (Count)" in str(
        info.value
    )
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("CNT1-C4-AAAAA24")
    assert info.value.part == "length"
    assert engine.parse_code("BK1-C4-AAAAA24").kind == "bakers"


def test_a_clashing_prefix_is_refused(scratch_registry):
    with pytest.raises(ValueError):
        codes.register_code("other", "B", title="Other", versions=(1,), has_cells=False)
    with pytest.raises(ValueError):
        codes.register_code("other", "BKX", title="Other", versions=(1,), has_cells=False)


def test_error_messages_of_the_built_in_games_are_unchanged():
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("XX1-C4-AAAAA24")
    assert str(info.value) == (
        "'XX1-C4-AAAAA24' is not a game code: it must start with BK (Jeu du Boulanger), CA (Calculation),"
        " FC (FreeCell) or KL (Klondike)"
    )
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("BK1-AAAAA24")
    assert str(info.value) == "'BK1-AAAAA24' must have three parts, like BK1-C4-AAAAA24"
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("CA1-C4-AAAAA24")
    assert str(info.value) == "'CA1-C4-AAAAA24' must have two parts, like CA1-AAAAA24"
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("BK1-C4-" + "A" * 100)
    assert str(info.value).endswith("codes look like BK1-C4-AAAAA24")
    with pytest.raises(engine.CodeError) as info:
        engine.parse_code("BK1-C3-AAAAA24")
    assert str(info.value) == "the free-cell part 'C3' must be C4, C2 or C1"


# -- ranking hook ---------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [BakersGame, CalculationGame])
def test_rank_key_is_storages_rank_key(cls):
    numbers = [-5, 0, 1, 2, 10, 51, 52, 53, 99, 150, 520, 10**6, 1 << 61, (1 << 61) + 7, 1 << 70]
    for status in ("won", "lost", "resigned", "abandoned", "active"):
        for score in numbers:
            for move_count in numbers:
                for home, seconds, hints in ((None, None, 0), (score, move_count, 1), (52, 0, 3)):
                    finish = Finish(status, score, move_count, home, seconds, hints)
                    key = cls.rank_key(finish)
                    assert key == ranking.rank_key(cls.kind, finish), finish
                    assert 0 <= key < 1 << 63, finish  # fits a signed 64-bit column


@pytest.mark.parametrize("text", ["12v+3", "12v0x3", "12v1_0", "12v٣", "18v²", "18v 2"])
def test_bakers_counts_are_ascii_hex_only(text):
    game = engine.new_game("BK1-C4-AAAAA24")
    with pytest.raises(engine.IllegalMove) as info:
        game.play(text)
    assert info.value.reason == "malformed" and not game.is_legal(text)


@pytest.mark.parametrize("text", ["w١f1", "sf٢", "w1f²", "sw³", "f١"])
def test_calculation_numbers_are_ascii_only(text):
    game = engine.new_game("CA1-AAAAA24")
    with pytest.raises(engine.IllegalMove) as info:
        game.play(text)
    assert info.value.reason == "malformed" and not game.is_legal(text)


@pytest.mark.parametrize("limit", ["inf", "nan", "١", "1_0", "-1", "1e3"])
def test_solver_cli_time_limit_is_a_plain_number(limit, capsys):
    from engine.__main__ import main

    assert main(["solve", "BK1-C4-AAAAA24", "--time-limit", limit]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "not a number of seconds" in out.err


def test_cards_home_known_without_a_replay_agrees_with_the_game():
    """Schema upgrades skip the replay when status and score tell the cards home."""
    game = engine.new_game("CA1-AAAAA24")
    for _ in range(30):
        game.play(game.legal_moves()[0])
        assert CalculationGame.cards_home_of("active", game.score) == game.cards_home
    assert BakersGame.cards_home_of("won", 620) == 52
    # A Jeu du Boulanger score mixes in +5s for cell-to-column moves: only a replay tells.
    assert BakersGame.cards_home_of("resigned", 620) is None


def count_record(title: str) -> GameRecord:
    """A record naming ``CountGame`` (which says its identity in class attributes)."""
    words = StartWords("count", "Start a game of Count", code="Replay a deal by its code")
    return GameRecord(
        kind="count",
        prefix="CNT",
        title=title,
        short_name=title,
        letter="n",
        versions=(1, 2),
        option=None,
        command=words,
        game="tests.test_engine_api:CountGame",
        board="tests.test_engine_api",
        front="tests.test_engine_api:CountGame",
    )


@pytest.fixture
def lazy_registry(monkeypatch):
    for name in ("SPECS", "GAME_PREFIXES", "KIND_PREFIXES", "VERSIONS"):
        monkeypatch.setattr(codes, name, dict(getattr(codes, name)))
    monkeypatch.setattr(registry, "GAMES", registry.GameClasses())


def test_a_declared_game_plays_its_codes_and_loads_its_class_on_first_use(lazy_registry):
    registry.declare(count_record("Count"))
    assert "count" in registry.GAMES and list(registry.GAMES) == ["count"] and len(registry.GAMES) == 1
    assert engine.parse_code("CNT2-AAAAA24").kind == "count"  # known before the class is loaded
    assert registry.GAMES._classes == {}
    assert isinstance(registry.new_game("CNT1-AAAAA24"), CountGame)
    assert registry.GAMES["count"] is CountGame
    registry.unregister("count")
    assert "count" not in registry.GAMES


def test_a_declared_game_whose_class_says_otherwise_is_refused_when_loaded(lazy_registry):
    registry.declare(count_record("Tally"))
    with pytest.raises(RuntimeError, match="declared"):
        registry.GAMES["count"]


@pytest.mark.processes
def test_playing_one_game_imports_no_other_games_modules():
    """Start-up (issue 26): the engine's games are declared, each game's modules load when it is played."""
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import sys, engine\n"
        "assert {'engine.bakers.game', 'engine.calculation.game', 'engine.freecell.game', 'engine.klondike.game'}"
        ".isdisjoint(sys.modules)\n"
        "assert sorted(engine.GAMES) == ['bakers', 'calculation', 'freecell', 'klondike']\n"
        "engine.new_game('BK1-C4-AAAAA24')\n"
        "assert 'engine.bakers.game' in sys.modules and 'engine.calculation.game' not in sys.modules\n"
        "assert engine.new_game('CA1-AAAAA24').kind == 'calculation' and 'engine.calculation.game' in sys.modules\n"
        "assert engine.GAMES['calculation'] is sys.modules['engine.calculation.game'].CalculationGame\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=Path(__file__).resolve().parent.parent)
