"""Languages end to end: the real bot against the fake Discord, players with different locales and choices."""

from __future__ import annotations

import pytest

import engine
import renderer
from bot.languages.locale import picture_labels
from tests.test_bot_discord import button, running

CODE = "BK1-C4-AAAAA24"


async def test_a_russian_client_gets_russian_replies_buttons_and_picture(fake_discord, tmp_path):
    async with running(fake_discord, tmp_path / "ru.sqlite3"):
        commands = fake_discord.commands(fake_discord.guild)
        move = next(c for c in commands if c["name"] == "move")
        assert move["name_localizations"]["ru"] == "ход"  # synced localised, and the fake accepted it

        ivan = fake_discord.add_user("ivan")
        result = await fake_discord.slash(ivan, "boulanger", {"code": CODE}, locale="ru")
        assert "Очки: 0" in result.text() and "0 ходов" in result.text()
        assert "4 свободные ячейки" in result.text()
        labels = [b["label"] for b in result.message.buttons()]
        assert "На базу ×1" in labels and "Подсказка" in labels and "Home" not in labels
        picture = fake_discord.attachment_bytes(result.message)
        # a typed code: a practice game, its tag in Russian
        expected = renderer.render_png(engine.new_game(CODE), labels=picture_labels("ru"), tag="practice")
        assert picture == expected
        (attachment,) = result.message.attachments
        assert attachment.description.startswith("Доска Jeu du Boulanger, свободных ячеек: 4, очки 0")

        board = result.message
        played = await fake_discord.click(ivan, board, button(board, "1"), locale="ru")
        assert "10♥: столбец 1 → ячейка a" in played.text()
        refused = await fake_discord.slash(ivan, "move", {"notation": "12"}, locale="ru")
        assert refused.ephemeral and "нельзя положить на" in refused.text()

        rules = await fake_discord.slash(ivan, "rules", {"game": "calculation"}, locale="ru")
        assert "база 2 — с шагом два" in rules.text()

        # The same bot answers an English client in English at the same time.
        alice = fake_discord.add_user("alice")
        english = await fake_discord.slash(alice, "boulanger", {"code": CODE}, locale="en-GB")
        assert "Score 0" in english.text() and "Очки" not in english.text()


async def test_a_player_who_chose_catalan_gets_catalan_until_automatic_again(fake_discord, tmp_path):
    db = tmp_path / "ca.sqlite3"
    jordi = fake_discord.add_user("jordi")
    async with running(fake_discord, db):
        chosen = await fake_discord.slash(jordi, "language", {"language": "ca"}, locale="es-ES")
        assert chosen.ephemeral and chosen.text() == "D'ara endavant et respondré en català."
        board = await fake_discord.slash(jordi, "boulanger", {"code": CODE}, locale="es-ES")
        assert "Puntuació 0" in board.text() and "0 jugades" in board.text()
        assert "Al fonament ×1" in [b["label"] for b in board.message.buttons()]
    async with running(fake_discord, db):  # the choice is stored: a restarted bot remembers it
        shown = await fake_discord.slash(jordi, "help", locale="ru")
        assert shown.text().startswith("Boulanger — solitaris a Discord")
        auto = await fake_discord.slash(jordi, "language", {"language": "auto"}, locale="ru")
        assert auto.text().startswith("Язык — автоматически")
        again = await fake_discord.slash(jordi, "code", locale="ru")
        assert again.text().startswith("Код этой раздачи")


async def test_the_server_language_is_used_for_the_daily_post(fake_discord, tmp_path):
    admin = fake_discord.add_user("admin")
    fake_discord.add_member(admin, manage_guild=True)
    async with running(fake_discord, tmp_path / "guild.sqlite3"):
        done = await fake_discord.slash(admin, "serverlanguage", {"language": "bg"}, locale="nl")
        assert done.ephemeral and "deze taal: Български" in done.text()
        await fake_discord.slash(admin, "dailychannel", {"channel": fake_discord.channel}, locale="nl")
        post = await fake_discord.wait_for_message(
            fake_discord.channel, lambda m: "Предизвикателство на деня" in m.text()
        )
        assert [b["label"] for b in post.buttons()] == [
            "Играй Jeu du Boulanger",
            "Играй Калкулация",
            "Играй FreeCell",
            "Играй Клондайк",
        ]
        board = await fake_discord.slash(admin, "leaderboard", {"game": "bakers"}, locale="nl")
        assert "най-добрите в този канал" in board.text()
        member = fake_discord.add_user("member")
        with pytest.raises(PermissionError):
            await fake_discord.slash(member, "serverlanguage", {"language": "ru"})
