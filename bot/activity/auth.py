"""Who is playing: the OAuth2 code exchange and the access tokens, checked against Discord.

* ``exchange`` turns the code the page got from the SDK's ``authorize`` into an access token,
  with the application's client secret, which only this process knows (the page never sees it).
* ``player`` asks Discord's ``/users/@me`` who an access token belongs to, once: the answer is
  kept ``TOKEN_SECONDS`` (bounded, ``MAX_TOKENS``), so a burst of moves costs one request. A
  token Discord refuses is remembered as refused for as long, so a flood of one forged token
  does not become a flood at Discord; at most ``CHECKS_AT_ONCE`` checks run together.

* ``instance`` asks Discord, with the bot's token, who is in an Activity instance and in which
  channel (``bot.activity.rooms`` keeps the answer briefly): the page's word is never taken.

Tokens are kept by their SHA-256 only: a memory dump or a log never shows one.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import aiohttp

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
TOKEN_SECONDS = 60.0  # an answer of /users/@me is trusted this long
MAX_TOKENS = 4096  # tokens remembered (answers and refusals) before the oldest are forgotten
CHECKS_AT_ONCE = 8  # checks against Discord in flight at once; more wait their turn
MAX_TOKEN_LENGTH = 512  # Discord's access tokens are about 30 characters
TIMEOUT = aiohttp.ClientTimeout(total=10)


class NotSignedIn(Exception):
    """The request's token is missing, malformed, forged or expired (HTTP 401)."""


class DiscordUnavailable(Exception):
    """Discord did not answer the check (HTTP 503: try again; nothing was decided)."""


@dataclass(frozen=True)
class Player:
    """A Discord user, as ``/users/@me`` describes them."""

    id: int
    name: str
    locale: str = ""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class DiscordAuth:
    def __init__(
        self,
        client_id: int,
        client_secret: str,
        *,
        api_base: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        bot_token: str = "",
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self.api_base = (api_base or DISCORD_API).rstrip("/")
        self.clock = clock
        self._known: OrderedDict[str, tuple[Player | None, float]] = OrderedDict()
        self._checks = asyncio.Semaphore(CHECKS_AT_ONCE)
        self._session: aiohttp.ClientSession | None = None
        self.checks = 0  # requests made to /users/@me (the tests count them)

    def __repr__(self) -> str:  # never the secret
        return f"DiscordAuth(client_id={self.client_id}, api_base={self.api_base!r})"

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def exchange(self, code: str) -> dict[str, Any]:
        """The access token for an authorization code (Discord's OAuth2 ``/oauth2/token``)."""
        if not code or len(code) > MAX_TOKEN_LENGTH or not code.isprintable():
            raise NotSignedIn("no authorization code")
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with self._http().post(f"{self.api_base}/oauth2/token", data=form) as answer:
                if answer.status in (400, 401):
                    raise NotSignedIn("Discord refused the authorization code")
                if answer.status != 200:
                    raise DiscordUnavailable(f"Discord answered {answer.status}")
                data = await answer.json()
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise DiscordUnavailable(str(exc)) from exc
        token = data.get("access_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not token:
            raise DiscordUnavailable("Discord's answer had no access token")
        return {"access_token": token, "expires_in": data.get("expires_in"), "scope": data.get("scope")}

    async def instance(self, instance_id: str) -> Any:
        """Discord's description of an Activity instance (who is in it, which channel), asked with
        the bot's token; None when Discord does not know it (``bot.activity.rooms``)."""
        if not self._bot_token:
            return None  # no bot token (a test rig without rooms): no instance can be checked
        headers = {"Authorization": f"Bot {self._bot_token}"}
        url = (
            f"{self.api_base}/applications/{self.client_id}/activity-instances/{quote(instance_id, safe='')}"
        )
        try:
            async with self._checks, self._http().get(url, headers=headers) as answer:
                if answer.status in (400, 403, 404):
                    return None
                if answer.status != 200:
                    raise DiscordUnavailable(f"Discord answered {answer.status}")
                return await answer.json()
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise DiscordUnavailable(str(exc)) from exc

    async def player(self, token: str) -> Player:
        """Who ``token`` belongs to; ``NotSignedIn`` when Discord does not know it."""
        if not token or len(token) > MAX_TOKEN_LENGTH or not token.isprintable() or " " in token:
            raise NotSignedIn("no access token")
        key = digest(token)
        known = self._remembered(key)
        if known is not None:
            return self._answer(known)
        async with self._checks:
            known = self._remembered(key)  # another request for it may have asked meanwhile
            if known is None:
                known = (await self._ask(token),)
                self._remember(key, known[0])
        return self._answer(known)

    @staticmethod
    def _answer(known: tuple[Player | None]) -> Player:
        if known[0] is None:
            raise NotSignedIn("Discord does not know this access token")
        return known[0]

    def _remembered(self, key: str) -> tuple[Player | None] | None:
        found = self._known.get(key)
        if found is None:
            return None
        if self.clock() >= found[1]:
            del self._known[key]
            return None
        return (found[0],)

    def _remember(self, key: str, player: Player | None) -> None:
        self._known[key] = (player, self.clock() + TOKEN_SECONDS)
        self._known.move_to_end(key)
        while len(self._known) > MAX_TOKENS:
            self._known.popitem(last=False)

    async def _ask(self, token: str) -> Player | None:
        self.checks += 1
        headers = {"Authorization": f"Bearer {token}"}
        try:
            async with self._http().get(f"{self.api_base}/users/@me", headers=headers) as answer:
                if answer.status in (401, 403):
                    return None
                if answer.status != 200:
                    raise DiscordUnavailable(f"Discord answered {answer.status}")
                data = await answer.json()
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise DiscordUnavailable(str(exc)) from exc
        try:
            user_id = int(data["id"])
        except (KeyError, TypeError, ValueError):
            raise DiscordUnavailable("Discord's answer named no user") from None
        name = str(data.get("global_name") or data.get("username") or user_id)
        return Player(user_id, name[:64], str(data.get("locale") or ""))
