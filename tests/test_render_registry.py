"""Each game's board module registers itself with the renderer, with its own words."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from PIL import Image

import engine
import renderer
from renderer import boards, labels
from renderer.games import bakers, calculation, tableau
from tests.thirdgame import picture
from tests.thirdgame.game import TowerGame


@pytest.fixture
def tower():
    engine.register(TowerGame)
    renderer.register(picture)
    yield picture
    renderer.unregister("tower")
    engine.GAMES.pop("tower", None)
    for table in (engine.codes.SPECS, engine.codes.KIND_PREFIXES, engine.codes.VERSIONS):
        table.pop("tower", None)
    engine.codes.GAME_PREFIXES.pop("TW", None)


def test_the_built_in_boards_are_registered_with_their_own_words():
    assert boards.board_for(engine.new_game("BK1-C4-AAAAA24")) is bakers.BOARD
    assert boards.board_for(engine.new_game("CA1-AAAAA24")) is calculation
    assert set(labels.SHARED) < set(renderer.DEFAULT_LABELS)
    assert {"bakers", "calculation", "stock", "turned", "next", "done"} <= set(renderer.DEFAULT_LABELS)
    assert boards.words_of(bakers.BOARD) == (
        *labels.SHARED,
        "bakers",
        "foundations",
    )  # a board draws the shared words and its own
    assert max(tableau.FULL_HEIGHT, calculation.FULL_HEIGHT) == renderer.HEIGHT


def test_a_registered_board_draws_its_game_and_adds_its_words(tower):
    game = engine.new_game("TW1-AAAAAAF")
    image = Image.open(io.BytesIO(renderer.render_png(game, labels={"home": "дом", "tower": "Башня"})))
    assert image.format == "PNG" and image.size == (renderer.WIDTH, picture.height(game))
    assert renderer.DEFAULT_LABELS["home"] == "home"
    renderer.render_png(engine.new_game("BK1-C4-AAAAA24"), labels={"home": "дом"})  # known, not drawn
    with pytest.raises(ValueError, match="not a pile of Tower"):
        renderer.render_png(game, highlight="9")
    renderer.unregister("tower")
    assert "home" not in renderer.DEFAULT_LABELS and "tower" not in labels.WORDS
    with pytest.raises(ValueError, match="no board for game kind 'tower'"):
        renderer.render_png(game)
    with pytest.raises(ValueError, match="unknown label 'home'"):
        renderer.render_png(engine.new_game("BK1-C4-AAAAA24"), labels={"home": "дом"})


def test_a_board_may_not_take_a_kind_or_a_word_that_is_taken():
    clash = SimpleNamespace(**{**vars(picture), "KIND": "bakers", "WORDS": {"bakers": ("B", 18, 180)}})
    with pytest.raises(ValueError, match="has a board already"):
        renderer.register(clash)  # type: ignore[arg-type]
    shared = SimpleNamespace(**{**vars(picture), "WORDS": {"tower": ("T", 18, 180), "score": ("s", 16, 76)}})
    with pytest.raises(ValueError, match="'score': it is taken"):
        renderer.register(shared)  # type: ignore[arg-type]
    untitled = SimpleNamespace(**{**vars(picture), "WORDS": {"home": ("home", 18, 108)}})
    with pytest.raises(ValueError, match="must hold its title"):
        renderer.register(untitled)  # type: ignore[arg-type]
    assert "tower" not in labels.WORDS and boards.board_for(engine.new_game("BK1-C4-AAAAA24")) is bakers.BOARD
