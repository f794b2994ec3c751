"""What every command and button handler reaches through an interaction: the service, the solver,
the start path, the game choices.

Typed accessors instead of ``interaction.client.service  # type: ignore``: the
client is the ``BoulangerBot`` at run time, but discord.py types it as a plain
``Client``, and importing the bot class here would make a cycle.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands

from bot.games import fronts
from bot.play.service import GameService
from bot.play.solving import Solver


@runtime_checkable
class GameStarter(Protocol):
    """What starts a game from a press (``BoulangerBot.start_game``: the shared start path of
    ``bot.adapter.cogs.starting``). Buttons that start games reach it through the client, so
    they need not import the start path, which posts boards carrying those very buttons."""

    async def start_game(
        self,
        interaction: discord.Interaction[Any],
        kind: str,
        *,
        cells: int | None = None,
        daily: bool = False,
    ) -> None: ...


def starter_of(interaction: discord.Interaction[Any]) -> GameStarter:
    client = interaction.client
    if not isinstance(client, GameStarter):
        raise RuntimeError("this client does not start games")
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
