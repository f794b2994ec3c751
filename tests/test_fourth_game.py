"""A fourth game of another family, a one-pile patience with a stock: Climb, end to end.

``tests/fourthgame`` holds Climb's engine module (``game.py``: a stock turned onto a waste,
one pile climbed A to K), its board module (``picture.py``), its words in every language the
bot speaks (``words.py``), its front (``front.py``) and its record (``record.py``: its codes,
names and start command's words); adding that record is all it takes for the real bot to
start it by its command, take its presses (and refuse a wrong one), draw it in any language
and list it on /help, and no project file outside those modules names it.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engine
import renderer
from bot import games
from bot.languages.i18n import Translator
from bot.languages.language import LANGUAGES, picture_labels
from engine import codes
from tests.fourthgame import picture
from tests.fourthgame.front import STOCK, WASTE
from tests.fourthgame.game import HOME, TURN, next_move, winnable
from tests.fourthgame.record import CLIMB
from tests.fourthgame.words import WORDS
from tests.test_bot_discord import button, running
from tests.test_game_records import naming

WON = "CL1-AAAAABI"  # the forced plan wins it in 37 moves; its first card is 4♥
LOST = "CL1-AAAAAAF"


@pytest.fixture
def climb():
    front = games.add(CLIMB)  # its record alone: engine, renderer, front and start command
    yield front
    games.remove(CLIMB.kind)
    assert "climb" not in engine.GAMES and "climb" not in codes.SPECS and "CL" not in codes.GAME_PREFIXES


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def test_a_deal_is_won_or_lost_by_its_shuffle_and_undo_takes_every_move_back(climb):
    assert winnable(WON) and not winnable(LOST)
    game = engine.new_game(LOST)
    while (move := next_move(game)) is not None:
        game.play(move)
    assert game.is_lost and game.passes == 3 and not game.stock and 0 < game.home < 13
    with pytest.raises(engine.IllegalMove) as refused:
        game.play(TURN)
    assert refused.value.reason == "stock_empty"
    while game.undo_depth:
        game.undo()
    fresh = engine.new_game(LOST)
    assert (game.stock, game.waste, game.home, game.passes) == (fresh.stock, fresh.waste, 0, 1)


async def test_the_fourth_game_is_started_played_by_presses_and_won_through_the_bot(
    climb, fake_discord, tmp_path
):
    async with running(fake_discord, tmp_path / "bot.sqlite3") as bot:
        alice = fake_discord.add_user("alice")
        started = await fake_discord.slash(alice, "climb", {"code": WON})
        assert not started.failed and not started.ephemeral and WON in started.text()
        drawn = decode(fake_discord.attachment_bytes(started.message))
        assert drawn.size == (renderer.WIDTH, picture.height(engine.new_game(WON)))
        board = started.message
        waste = next(b for b in board.buttons() if b["custom_id"] == button(board, WASTE))
        assert waste.get("disabled")  # nothing on the waste yet: nothing to press
        turned = await fake_discord.click(alice, board, button(board, STOCK))
        assert not turned.ephemeral, turned.text()
        # 4♥ on the waste does not fit the empty pile: refused, and said why.
        board = fake_discord.message(board.id)
        edits, picture_before = board.edits, fake_discord.attachment_bytes(board)
        wrong = await fake_discord.click(alice, board, button(board, WASTE))
        assert wrong.ephemeral and "4♥ cannot go home yet: its foundation needs A♥ first." in wrong.text()
        assert fake_discord.message(board.id).edits == edits
        assert fake_discord.attachment_bytes(fake_discord.message(board.id)) == picture_before
        active = await bot.store.active_game(alice.id, "climb")
        assert active is not None and active.moves == (TURN,)  # nothing changed but the turn
        mirror = engine.new_game(WON)
        mirror.play(TURN)
        hint = await fake_discord.click(alice, fake_discord.message(board.id), button(board, "i"))
        (note,) = await hint.wait_followups(1, timeout=20)
        assert note.ephemeral and f"`{TURN}`" in note.text()  # the front's worker, in the pool
        while not mirror.is_won:
            move = next_move(mirror)
            current = fake_discord.message(board.id)
            result = await fake_discord.click(
                alice, current, button(current, WASTE if move == HOME else STOCK)
            )
            assert not result.ephemeral, result.text()
            mirror.play(move)
        stored = await bot.store.get_game(active.id)
        assert stored.status == "won" and stored.moves == mirror.moves and len(mirror.moves) == 37
        finished = decode(fake_discord.attachment_bytes(fake_discord.message(board.id)))
        assert finished.getpixel((picture.PILE_X + 8, picture.PILE_Y + 70)) != drawn.getpixel(
            (picture.PILE_X + 8, picture.PILE_Y + 70)
        )  # the king on the pile where the empty place was
        listed = await fake_discord.slash(alice, "help")
        assert "(Climb)" in listed.text().split("**Start**")[1].splitlines()[0]  # listed on /help
    assert fake_discord.take_violations() == []


async def test_the_fourth_game_is_drawn_in_the_players_language_through_the_bot(
    climb, fake_discord, tmp_path
):
    async with running(fake_discord, tmp_path / "bot.sqlite3") as bot:
        pictures = {}
        for locale in ("en-US", "ru"):
            player = fake_discord.add_user(f"player-{locale}")
            started = await fake_discord.slash(player, "climb", {"code": WON}, locale=locale)
            assert not started.failed, started.text()
            pictures[locale] = decode(fake_discord.attachment_bytes(started.message))
            listed = await fake_discord.slash(player, "help", locale=locale)
            assert "(Восхождение)" in listed.text() if locale == "ru" else "(Climb)" in listed.text()
        assert bot.is_ready()
        english, russian = (caption_strip(pictures[k]) for k in ("en-US", "ru"))
        assert english != russian  # its captions drawn in the player's words


def caption_strip(image: Image.Image) -> bytes:
    return image.crop((0, picture.LABEL_Y, renderer.WIDTH, picture.PILE_Y)).tobytes()


def title_strip(image: Image.Image) -> bytes:
    return image.crop((0, 0, 260, renderer.layout.HEADER_H // 2)).tobytes()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_fourth_game_draws_its_board_in_every_language(climb, language):
    game = engine.new_game(WON)
    for move in (TURN, TURN, TURN, TURN, TURN, TURN, HOME):  # 4 K Q 8 5 A: the ace goes up
        game.play(move)
    labels = picture_labels(language, "climb")
    own = WORDS[language]
    assert {key: labels[key] for key in picture.WORDS} == {key: own[key] for key in picture.WORDS}
    image = decode(climb.render(game, highlight=None, labels=labels))
    assert image.size == (renderer.WIDTH, picture.height(game))
    english = decode(climb.render(game, highlight=None, labels=picture_labels("en", "climb")))
    assert (title_strip(image) == title_strip(english)) == (language == "en")  # its name translated
    assert (caption_strip(image) == caption_strip(english)) == (language == "en")  # its captions too
    assert climb.title_in(language) == own["climb"]
    alt = climb.alt_text(Translator(language), game)  # for screen readers, in the same words
    assert (
        alt
        == f"{own['climb']}: {own['climb.stock']} 7; {own['climb.waste']} 4♥ K♥ Q♥ 8♥ 5♥; {own['climb.pile']} A♥"
    )


def test_help_lists_its_start_command_by_its_name(climb):
    assert "`/climb` (Climb)" in games.start_list("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_board_still_draws_in_every_language_with_the_fourth_game_registered(climb, language):
    """Climb's words join every game's (``picture_labels`` with no kind): none may clash."""
    everyone = picture_labels(language)
    assert everyone["climb.pile"] == WORDS[language]["climb.pile"]
    for front in games.fronts():
        game = engine.new_game(str(front.code(24, front.check_cells(None))))
        for labels in (picture_labels(language, front.kind), everyone):
            image = decode(front.render(game, highlight=None, labels=labels))
            assert image.size == (renderer.WIDTH, renderer.boards.board_for(game).height(game))


def test_the_console_offers_the_fourth_game(climb):
    from bot.play.console import help_text

    (line,) = [line for line in help_text().splitlines() if line.startswith("  new climb")]
    assert line.endswith("start Climb")


def test_no_project_file_outside_its_own_modules_names_the_fourth_game():
    """The count ``tests/test_game_records.py`` makes for every game: Climb is its own modules
    and its record, named nowhere in ``engine/``, ``renderer/``, ``storage/`` or ``bot/``."""
    assert naming(CLIMB) == {}
