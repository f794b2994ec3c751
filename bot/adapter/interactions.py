"""What every command and button handler reaches through an interaction: the service, the choices.

Typed accessors instead of ``interaction.client.service  # type: ignore``: the
client is the ``BoulangerBot`` at run time, but discord.py types it as a plain
``Client``, and importing the bot class here would make a cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import discord
from discord import app_commands

from bot.games import fronts
from bot.play.service import GameService
from bot.play.solving import Solver

if TYPE_CHECKING:
    from bot.adapter.views import GameButton, MoveMenu


@runtime_checkable
class BoardHandler(Protocol):
    """The bot's handlers of board components (``BoulangerBot`` implements them)."""

    async def on_board_press(self, interaction: discord.Interaction[Any], button: GameButton) -> None: ...

    async def on_board_choice(self, interaction: discord.Interaction[Any], menu: MoveMenu) -> None: ...


def board_handler(interaction: discord.Interaction[Any]) -> BoardHandler:
    client = interaction.client
    if not isinstance(client, BoardHandler):
        raise RuntimeError("this client does not handle board components")
    return client


def service_of(interaction: discord.Interaction[Any]) -> GameService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, GameService):
        raise RuntimeError("the bot is not set up yet: it has no game service")
    return service


def solver_of(interaction: discord.Interaction[Any]) -> Solver | None:
    solver = getattr(interaction.client, "solver", None)
    return solver if isinstance(solver, Solver) else None


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game as a command choice (named ``choice.<kind>`` in each language)."""
    return [app_commands.Choice(name=front.name, value=front.kind) for front in fronts()]
