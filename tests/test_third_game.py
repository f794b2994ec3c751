"""A third game needs an engine module, a board module, a front and a record, nothing else:
Tower, end to end.

``tests/thirdgame`` holds Tower's engine module (``game.py``), its board module for
the renderer (``picture.py``, with its own words), its front (``front.py``, with
those words in every language) and its record (``record.py``: its codes, names and start
command's words); adding that record is all it takes for the real bot to deal it, draw it in
any language, take button presses and typed moves, give hints from the process
pool, record the win and rank it.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engine
import renderer
from bot import games
from bot.languages.language import LANGUAGES, picture_labels
from engine import codes
from tests.test_bot_discord import button, eventually, running
from tests.thirdgame import picture
from tests.thirdgame.front import PICTURE_WORDS
from tests.thirdgame.game import solve
from tests.thirdgame.record import TOWER


@pytest.fixture
def tower():
    front = games.add(TOWER)  # its record alone: engine, renderer, front and start command
    yield front
    games.remove(TOWER.kind)
    assert "tower" not in engine.GAMES and "tower" not in codes.SPECS and "TW" not in codes.GAME_PREFIXES


async def test_the_third_game_is_played_won_and_ranked_through_the_bot(tower, fake_discord, tmp_path):
    async with running(fake_discord, tmp_path / "bot.sqlite3") as bot:
        alice = fake_discord.add_user("alice")
        started = await fake_discord.slash(alice, "tower", {"code": "TW1-AAAAAAF"})
        assert not started.failed and not started.ephemeral and "TW1-AAAAAAF" in started.text()
        drawn = Image.open(io.BytesIO(fake_discord.attachment_bytes(started.message)))
        assert drawn.size == (renderer.WIDTH, picture.height(engine.new_game("TW1-AAAAAAF")))
        board = started.message
        hint = await fake_discord.click(alice, board, button(board, "i"))
        (note,) = await hint.wait_followups(1, timeout=20)
        mirror = engine.new_game("TW1-AAAAAAF")
        assert note.ephemeral and f"`{solve(mirror)}`" in note.text()  # the front's worker, in the pool
        edits = fake_discord.message(board.id).edits
        typed = await fake_discord.slash(alice, "move", {"notation": solve(mirror)})
        assert not typed.failed, typed.text()
        await eventually(lambda: fake_discord.message(board.id).edits > edits)  # answered first, then edited
        mirror.play(solve(mirror))
        while not mirror.is_won:
            move = solve(mirror)
            current = fake_discord.message(board.id)
            if move.endswith("h"):  # one press sends a pile's next card home
                result = await fake_discord.click(alice, current, button(current, move[0]))
            else:
                await fake_discord.click(alice, current, button(current, move[0]))
                current = fake_discord.message(board.id)
                result = await fake_discord.click(alice, current, button(current, move[1]))
            assert not result.ephemeral, result.text()
            mirror.play(move)
        (entry,) = await bot.store.leaderboard(
            "tower", channel_id=fake_discord.channel.id, code="TW1-AAAAAAF"
        )
        stored = await bot.store.get_game(entry.best.game_id)  # a typed code: on its deal's board
        assert stored.status == "won" and stored.moves == mirror.moves
        board_now = fake_discord.message(board.id)
        # Tower offers no replay and has no daily: only "New deal" is left, and it deals Tower.
        (again,) = board_now.buttons()
        assert again["custom_id"] == "a:t:0"
        fresh = await fake_discord.click(alice, board_now, again["custom_id"])
        assert not fresh.ephemeral and "TW1-" in fresh.text()
        assert (await bot.store.active_game(alice.id, "tower")) is not None
        # A typed code is practice: ranked on its deal's board, not the main one, nor as a best.
        main = await fake_discord.slash(alice, "leaderboard", {"game": "tower"})
        assert f"<@{alice.id}>" not in main.text()
        ranked = await fake_discord.slash(alice, "leaderboard", {"game": "tower", "code": "TW1-AAAAAAF"})
        assert f"<@{alice.id}>" in ranked.text()
        assert f"won in {mirror.move_count} moves" in ranked.text()  # the shared words: Tower writes none
        from bot.play.console import help_text

        assert "  new tower [CODE]               start Tower" in help_text().splitlines()  # its help too
        stats = await fake_discord.slash(alice, "stats", {"game": "tower"})
        assert "Played 1" in stats.text() and "Practice games: 1" in stats.text()
        assert "Best:" not in stats.text()  # a practice game is no best
    assert fake_discord.take_violations() == []


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def title_strip(image: Image.Image) -> bytes:
    return image.crop((0, 0, 200, renderer.layout.HEADER_H)).tobytes()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_third_game_draws_its_board_in_every_language(tower, language):
    game = engine.new_game("TW1-AAAAAAF")
    game.play(solve(game))
    labels = picture_labels(language, "tower")
    assert labels["tower"] == PICTURE_WORDS[language]["tower"]  # its words, from its own front
    assert labels["home"] == PICTURE_WORDS[language]["home"]
    image = decode(tower.render(game, highlight="2", labels=labels))
    assert image.size == (renderer.WIDTH, picture.height(game))
    english = decode(tower.render(game, highlight="2", labels=picture_labels("en", "tower")))
    assert (title_strip(image) == title_strip(english)) == (language == "en")  # the title translated
    top = picture.PILE_Y + renderer.layout.FAN * (len(game.position[1]) - 1)
    selected = image.getpixel((picture.slot_x(1) + 8, top + 70))
    assert selected == renderer.layout.PICK_FACE  # the highlight, in the board module's own terms


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_third_game_registered_leaves_the_other_boards_drawing_in_every_language(tower, language):
    """Registering Tower's words once made every Russian picture fail (``unknown label``)."""
    for front in games.fronts():
        code = {"tower": "TW1-AAAAAAF"}.get(front.kind) or str(front.code(24, front.check_cells(None)))
        game = engine.new_game(code)
        for labels in (picture_labels(language, front.kind), picture_labels(language)):
            image = decode(front.render(game, highlight=None, labels=labels))
            assert image.size == (renderer.WIDTH, renderer.boards.board_for(game).height(game))
        replay = front.render_replay(code, (), labels=picture_labels(language, front.kind), max_bytes=2**22)
        assert Image.open(io.BytesIO(replay)).format == "GIF"
