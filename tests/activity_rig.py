"""The Activity's server on a real store and service, against the fake Discord's OAuth2.

`activity_rig(fake, tmp_path)` yields a `Rig`: the running `ActivityServer`, its service and
quotas, and `sign_in(user)`, which does what the page does (a code from the fake's
`authorize`, traded at `/api/token`) and returns the access token. With ``network=`` (a delay
of tests/activity_network.py) the page reaches the server through a delaying proxy
(``page_url``); the rig's own calls go straight to the server.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

import engine
import storage
from bot.activity.auth import DiscordAuth
from bot.activity.server import ActivityServer
from bot.adapter.cooldowns import Quotas, Rate
from bot.play.races import RaceKeeper
from bot.play.service import Board, GameService
from tests.activity_network import Delay, DelayingProxy
from tests.fakediscord import FakeDiscord, User


@dataclass
class Rig:
    fake: FakeDiscord
    server: ActivityServer
    service: GameService
    quotas: Quotas
    http: aiohttp.ClientSession
    changed: list[Board] = field(default_factory=list)
    proxy: DelayingProxy | None = None

    @property
    def page_url(self) -> str:
        """Where the page is opened: through the delaying proxy when there is one."""
        return f"http://127.0.0.1:{self.proxy.port}" if self.proxy is not None else self.url

    @property
    def races(self) -> RaceKeeper:
        assert self.server.rooms is not None
        return self.server.rooms.keeper

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    async def sign_in(self, user: User) -> str:
        code = self.fake.authorization_code(user)
        async with self.http.post(f"{self.url}/api/token", json={"code": code}) as answer:
            assert answer.status == 200, await answer.text()
            return str((await answer.json())["access_token"])

    async def call(self, token: str | None, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body is None:
            request = self.http.get(f"{self.url}{path}", headers=headers)
        else:
            request = self.http.post(f"{self.url}{path}", json=body, headers=headers)
        async with request as answer:
            return answer.status, await answer.json()

    async def start(self, token: str, kind: str, code: str) -> dict[str, Any]:
        status, data = await self.call(token, "/api/start", {"kind": kind, "code": code})
        assert status == 200, data
        return data["view"]  # type: ignore[no-any-return]


@contextlib.asynccontextmanager
async def activity_rig(
    fake: FakeDiscord,
    tmp_path: Path,
    *,
    rates: dict[str, Rate] | None = None,
    service: GameService | None = None,
    network: Delay | None = None,
    static: Path | None = None,
) -> AsyncIterator[Rig]:
    store = None
    if service is None:
        store = await storage.open_store(str(tmp_path / "activity.sqlite3"))
        service = GameService(store)
    quotas = Quotas(rates)
    auth = DiscordAuth(fake.application_id, fake.client_secret, api_base=fake.api_base, bot_token=fake.token)
    changed: list[Board] = []
    races = RaceKeeper(service)  # no cog here: nothing posts in the chat
    pages = {} if static is None else {"static": static}  # another version of the page (benchmarks)
    server = ActivityServer(service, auth, quotas=quotas, board_changed=changed.append, races=races, **pages)
    await server.start("127.0.0.1", 0)
    proxy = None
    if network is not None:
        proxy = DelayingProxy(f"http://127.0.0.1:{server.port}", network)
        await proxy.start()
    try:
        async with aiohttp.ClientSession() as http:
            yield Rig(fake, server, service, quotas, http, changed, proxy)
    finally:
        if proxy is not None:
            await proxy.close()
        await server.close()
        if store is not None:
            await store.close()


def drop_of(notation: str) -> tuple[str, str, int]:
    """A Jeu du Boulanger move as a drop: (source place, target place, cards carried)."""
    text = notation.strip().lower()
    count = int(text.split("v", 1)[1], 16) if "v" in text else 1
    return text[0], text[1], count


def solution(code: str) -> list[str]:
    """The solver's winning moves of a deal of an eight-column game, as the engine plays them
    (FreeCell's with its auto-play)."""
    from engine.solver import solve

    game = engine.new_game(engine.parse_code(code))
    found = solve(game, time_limit=20.0)
    assert found.verdict == "winnable", found
    return list(found.moves)
