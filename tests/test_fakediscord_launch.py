"""The fake Discord's LAUNCH_ACTIVITY (interaction callback type 12), as Discord documents it:
answered by the real discord.py (``interaction.response.launch_activity()``) from a command, a
button and a modal's submission; only for an app with Activities enabled; the player's client
opens (or joins) the Activity instance of the interaction's channel, and the callback's answer
names it (``activity_instance_id``, ``resource.activity_instance.id``)."""

from __future__ import annotations

import asyncio
import contextlib

import discord
from discord.ext import commands

from tests.fakediscord import FakeDiscord
from tests.test_fakediscord import RawBot


class CardsView(discord.ui.View):
    def __init__(self, answers: list) -> None:
        super().__init__(timeout=None)
        self.answers = answers

    @discord.ui.button(label="Play on the cards", custom_id="cards:go")
    async def go(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await launch(interaction, self.answers)


class CardsModal(discord.ui.Modal, title="Which table"):
    table = discord.ui.TextInput(label="Table", custom_id="cards:table", max_length=20)

    def __init__(self, answers: list) -> None:
        super().__init__()
        self.answers = answers

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await launch(interaction, self.answers)


async def launch(interaction: discord.Interaction, answers: list) -> None:
    """Launch the Activity; what Discord answered (or refused) goes in ``answers``."""
    try:
        answers.append(await interaction.response.launch_activity())
    except discord.HTTPException as exc:
        answers.append(exc)


def cards_bot(guild_id: int, answers: list) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)

    @bot.tree.command(description="Open the cards")
    async def cards(interaction: discord.Interaction) -> None:
        await launch(interaction, answers)

    @bot.tree.command(description="A board with a button")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("a board", view=CardsView(answers))

    @bot.tree.command(description="Ask first")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(CardsModal(answers))

    async def setup_hook() -> None:
        bot.add_view(CardsView(answers))
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook
    return bot


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, answers: list):
    bot = cards_bot(fake.guild.id, answers)
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_until_ready()
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


async def test_a_command_a_button_and_a_modal_launch_the_activity_in_their_channel(fake_discord):
    fake_discord.enable_activities()
    ann, bob = fake_discord.add_user("ann"), fake_discord.add_user("bob")
    answers: list = []
    async with running(fake_discord, answers):
        launched = await fake_discord.slash(ann, "cards")
        assert launched.type == 12 and not launched.failed
        instance_id = launched.activity_instance
        instance = fake_discord.activity_instances[instance_id]
        assert instance["location"]["channel_id"] == str(fake_discord.channel.id)
        assert instance["users"] == [str(ann.id)]
        (answer,) = answers
        assert isinstance(answer, discord.InteractionCallbackResponse)
        assert answer.activity_id == instance_id  # interaction.activity_instance_id
        assert answer.resource.id == instance_id  # resource.activity_instance.id

        # Bob presses a board's button in the same channel: he joins the same instance.
        posted = await fake_discord.slash(bob, "board")
        pressed = await fake_discord.click(bob, posted.message, "cards:go")
        assert pressed.type == 12 and pressed.activity_instance == instance_id
        assert instance["users"] == [str(ann.id), str(bob.id)]
        assert posted.message.content == "a board"  # a launch leaves the message as it was

        opened = await fake_discord.slash(ann, "ask")
        submitted = await fake_discord.submit_modal(ann, opened, {"cards:table": "one"})
        assert submitted.type == 12 and submitted.activity_instance == instance_id
    fake_discord.assert_no_violations()


async def test_an_app_without_activities_cannot_launch_one(fake_discord):
    """ "Only available for apps with Activities enabled": refused, nothing launched."""
    ann = fake_discord.add_user("ann")
    answers: list = []
    async with running(fake_discord, answers):
        tried = await fake_discord.slash(ann, "cards", wait="ack")
        assert tried.type is None
        for _ in range(100):
            if answers:
                break
            await asyncio.sleep(0.02)
    (refused,) = answers
    assert isinstance(refused, discord.HTTPException) and refused.status == 400
    assert "Activities are not enabled" in str(refused)
    assert fake_discord.activity_instances == {}
    reasons = [v.reason for v in fake_discord.take_violations()]
    assert any("INTERACTION_CALLBACK_TYPE_INVALID" in r for r in reasons)


async def test_autocomplete_cannot_launch_the_activity_and_the_answer_names_the_instance(fake_discord):
    """Type 12 answers commands, components and modal submissions, not autocomplete; with
    ``with_response`` the answer names the instance as Discord's callback response does."""
    fake_discord.enable_activities()
    async with RawBot(fake_discord) as raw:
        app, guild = fake_discord.application_id, fake_discord.guild.id
        pick = {"name": "pick", "description": "Pick", "type": 1}
        pick["options"] = [{"name": "fruit", "description": "Fruit", "type": 3, "autocomplete": True}]
        deal = {"name": "deal", "description": "Deal a board", "type": 1}
        status, _ = await raw.call("PUT", f"/applications/{app}/guilds/{guild}/commands", [deal, pick])
        assert status == 200
        typing = asyncio.create_task(
            fake_discord.autocomplete(fake_discord.owner, "pick", {"fruit": "a"}, "fruit")
        )
        interaction = await asyncio.wait_for(raw.events.get(), 5)
        status, error = await raw.callback(interaction, {"type": 12})
        assert status == 400 and error["code"] == 50035
        assert (await raw.callback(interaction, {"type": 8, "data": {"choices": []}}))[0] == 204
        await typing

        pending = asyncio.create_task(fake_discord.slash(fake_discord.owner, "deal"))
        interaction = await asyncio.wait_for(raw.events.get(), 5)
        path = f"/interactions/{interaction['id']}/{interaction['token']}/callback?with_response=true"
        status, answer = await raw.call("POST", path, {"type": 12})
        assert status == 200, answer
        instance_id = answer["interaction"]["activity_instance_id"]
        assert answer["resource"] == {"type": 12, "activity_instance": {"id": instance_id}}
        assert (await pending).activity_instance == instance_id
    reasons = [v.reason for v in fake_discord.take_violations()]
    assert len(reasons) == 1 and "INTERACTION_CALLBACK_TYPE_INVALID" in reasons[0]
