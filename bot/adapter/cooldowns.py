"""Per-player quotas: hints, replays and starting games, on discord.py's own token bucket.

Each quota is a ``discord.app_commands.Cooldown`` per player (``rate`` uses per ``per``
seconds, refilled as time passes), the same bucket ``app_commands.checks.cooldown``
uses. Slash commands take it as a check (``command_quota``, raising discord.py's
``CommandOnCooldown``, which the error ladder answers); buttons and the shared start
path call ``hit`` (raising ``CoolingDown``, a ``UserFeedback``). A slash command and
the button doing the same thing (``/hint`` and Hint) draw from one bucket, so switching
between them is no way around the quota. Both answer "try again <t:…:R>".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.play.error_words import cooldown_text
from bot.play.feedback import UserFeedback

T = TypeVar("T")

HINT, REPLAY, START, RACE, MOVE, ROOM = "hint", "replay", "start", "race", "move", "room"
MAX_TRACKED = 10_000  # players remembered per quota before idle buckets are dropped


@dataclass(frozen=True)
class Rate:
    rate: int  # uses …
    per: float  # … per this many seconds


# Hints run a solver search (seconds of CPU), a replay draws hundreds of frames, a start
# deals (and may draw from the proven-winnable stock), a race posts a public lobby (and a
# create-and-cancel loop would fill a channel), an Activity move is one request each:
# generous for a person, not for a script.
DEFAULT_RATES: dict[str, Rate] = {
    HINT: Rate(4, 30.0),
    REPLAY: Rate(2, 60.0),
    START: Rate(6, 60.0),
    RACE: Rate(4, 600.0),
    # The Activity's moves (a drag is one request): a quick player's bursts, not a script's flood.
    MOVE: Rate(60, 20.0),
    # The Activity's table polls (who is there, their progress): the page asks every 2 s.
    ROOM: Rate(45, 60.0),
}


class CoolingDown(UserFeedback):
    """A player used up a quota; ``retry_after`` seconds until the next use."""

    def __init__(self, quota: str, retry_after: float) -> None:
        super().__init__("error.cooldown", quota=quota)
        self.quota = quota
        self.retry_after = retry_after

    def text(self, locale: object) -> str:
        return cooldown_text(locale, self.retry_after)


class Quotas:
    """One token bucket per player and quota."""

    def __init__(
        self, rates: dict[str, Rate] | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rates = dict(DEFAULT_RATES if rates is None else rates)
        self.clock = clock
        self._buckets: dict[str, dict[int, app_commands.Cooldown]] = {}

    def _bucket(self, quota: str, user_id: int) -> app_commands.Cooldown | None:
        rate = self.rates.get(quota)
        if rate is None:
            return None
        buckets = self._buckets.setdefault(quota, {})
        bucket = buckets.get(user_id)
        if bucket is None:
            if len(buckets) >= MAX_TRACKED:
                self._drop_idle(buckets)
            bucket = buckets[user_id] = app_commands.Cooldown(rate.rate, rate.per)
        return bucket

    def _drop_idle(self, buckets: dict[int, app_commands.Cooldown]) -> None:
        now = self.clock()
        for user_id in [u for u, b in buckets.items() if b.get_tokens(now) >= b.rate]:
            del buckets[user_id]
        while len(buckets) >= MAX_TRACKED:  # all busy: forget the oldest
            del buckets[next(iter(buckets))]

    def retry_after(self, quota: str, user_id: int) -> float:
        """Use one token; 0.0 if there was one, else seconds until there is (nothing used)."""
        bucket = self._bucket(quota, user_id)
        if bucket is None:
            return 0.0
        return bucket.update_rate_limit(self.clock()) or 0.0

    def hit(self, quota: str, user_id: int) -> None:
        """Use one token of ``quota``, or raise ``CoolingDown``."""
        wait = self.retry_after(quota, user_id)
        if wait:
            raise CoolingDown(quota, wait)

    def cooldown(self, quota: str) -> app_commands.Cooldown:
        rate = self.rates.get(quota, Rate(1, 1.0))
        return app_commands.Cooldown(rate.rate, rate.per)


def quotas_of(interaction: discord.Interaction[Any]) -> Quotas | None:
    quotas = getattr(interaction.client, "quotas", None)
    return quotas if isinstance(quotas, Quotas) else None


def hit(interaction: discord.Interaction[Any], quota: str) -> None:
    """For buttons and the shared start path: use one of the player's ``quota``."""
    quotas = quotas_of(interaction)
    if quotas is not None:
        quotas.hit(quota, interaction.user.id)


def command_quota(quota: str) -> Callable[[T], T]:
    """An ``app_commands`` check drawing from the player's ``quota`` (shared with its button)."""

    def predicate(interaction: discord.Interaction[Any]) -> bool:
        quotas = quotas_of(interaction)
        if quotas is None:
            return True
        wait = quotas.retry_after(quota, interaction.user.id)
        if wait:
            raise app_commands.CommandOnCooldown(quotas.cooldown(quota), wait)
        return True

    return app_commands.check(predicate)
